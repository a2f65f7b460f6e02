"""Spit: two players race, without turns, to play out their stock piles onto two spit piles.

This package also holds what Speed (sim/games/speed) shares with Spit: the discrete-event clock
(race.py), the deck (deck.py), reaction settings (reaction.py), the tables and the game shape
(realtime.py).
"""

import polars as pl

from sim import usage
from sim.game import Column, Progress, Target
from sim.games.spit import bots, cards, forbid, play, sampler, search, view
from sim.games.spit.realtime import RealTimeGame
from sim.games.spit.state import new_state
from sim.games.spit.tables import columns
from sim.games.spit.trace import Tracer
from sim.turns import JittedBots

OPTION_COLUMNS = (
    Column("stock_piles", "stock piles per layout (5; variant: 4)"),
    Column("smaller_pile", "who takes the smaller spit pile: 'slap' or 'out_player_chooses'"),
    Column("alternating_colours", "variant: plays on a spit pile must change colour"),
    Column("stack_equal_ranks", "variant: equal ranks may be stacked to uncover cards"),
    Column("both_out_of_spit_cards", "both out of spit cards and stalled: 'new_layout', "
                                     "'take_back_started_pile' or 'split_both_piles'"),
    Column("win", "who wins: 'no_cards_left' or 'spit_and_layout_played' (at once, with no "
                  "spit cards left)"),
)


class Spit(RealTimeGame):
    name = "spit"
    title = "Spit"
    length = "deals"
    columns = columns("deals", "deals played (layouts dealt)", OPTION_COLUMNS,
                      usage.described(forbid.USES))
    summary = (
        ("avg deals", pl.col("deals").mean()),
        ("avg minutes", pl.col("sim_seconds").mean() / 60),
        ("stalls per deal", pl.col("stalls").sum() / pl.col("deals").sum()),
    )
    cards, loop, view, tracer = cards, play, view, Tracer
    bots = JittedBots(bots, forbid)
    # what balanced means for the headline (the summary's and the report's verdicts)
    target = Target(None, above="seat 0", below="seat 1")
    # how far each seat is from winning (sim/progress.py samples it: the progress table)
    progress = Progress("minus the cards it owns (stock, spit and gathered cards; 0: out, "
                        "the game won)", unit="cards")
    blurb = "two players race to play out their cards"
    # the information-set sampler (for search bots): sampler.resample(s, rs, seat, r), and
    # sampler.resample_clock(c, r) for the clock
    sampler = sampler
    # the search family's pieces (registered with sim/search.py when imported)
    search = search

    def new_state(self, ruleset, clock):
        return new_state(int(ruleset.numbers[cards.PILES]), int(ruleset.numbers[cards.CARDS]),
                         clock)

    def options(self, rules: dict) -> dict:
        return {"stock_piles": rules["layout"]["stock_piles"],
                **{k: rules["options"][k] for k in ("smaller_pile", "alternating_colours",
                                                    "stack_equal_ranks", "both_out_of_spit_cards",
                                                    "win")}}


GAME = Spit()
