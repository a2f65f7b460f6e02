"""Speed: two players race, without turns, to empty their hands onto two centre piles.

Speed shares Spit's clock, deck, reaction settings, tables and game shape (sim/games/spit).
"""

import polars as pl

from sim import usage
from sim.game import Column, Progress, Target
from sim.games.speed import bots, cards, forbid, play, sampler, search, view
from sim.games.speed.state import new_state
from sim.games.speed.trace import Tracer
from sim.games.spit.realtime import RealTimeGame
from sim.games.spit.tables import columns
from sim.turns import JittedBots

OPTION_COLUMNS = (
    Column("cards_each", "cards dealt to each player (15, the source's deal; variant: 20)"),
    Column("scoring", "'one_hand' (one hand decides) or 'points' (play to a target score)"),
    Column("target", "the target score of 'points' scoring"),
)


class Speed(RealTimeGame):
    name = "speed"
    title = "Speed"
    length = "hands"
    columns = columns("hands", "hands played", OPTION_COLUMNS,
                      (Column("score", "points at the end (scoring 'points'; else 0)"),
                       *usage.described(forbid.USES)))
    summary = (
        ("avg hands", pl.col("hands").mean()),
        ("avg minutes", pl.col("sim_seconds").mean() / 60),
        ("stalls per hand", pl.col("stalls").sum() / pl.col("hands").sum()),
    )
    cards, loop, view, tracer = cards, play, view, Tracer
    bots = JittedBots(bots, forbid)
    # what balanced means for the headline (the summary's and the report's verdicts)
    target = Target(None, above="seat 0", below="seat 1")
    # how far each seat is from winning (sim/progress.py samples it: the progress table)
    progress = Progress("minus the cards held in the hand being played (hand and draw pile), "
                        "plus the points scored (scoring 'points')", unit="cards")
    blurb = "two players race to empty their hands"
    # the information-set sampler (for search bots): sampler.resample(s, rs, seat, r), and
    # sampler.resample_clock(c, r) for the clock
    sampler = sampler
    # the search family's pieces (registered with sim/search.py when imported)
    search = search

    def new_state(self, ruleset, clock):
        return new_state(int(ruleset.numbers[cards.HAND]), int(ruleset.numbers[cards.CARDS]),
                         clock)

    def options(self, rules: dict) -> dict:
        return {"cards_each": rules["deal"]["cards_each"], "scoring": rules["options"]["scoring"],
                "target": rules["options"]["target"]}

    def seat_extra(self, results) -> dict:
        return {"score": results.score.astype("int16"), **super().seat_extra(results)}


GAME = Speed()
