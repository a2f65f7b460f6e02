"""Sequence Stacks: 2-6 players race to hold 5 chips, at least 2 red and 2 blue, by completing
shared sequence piles."""

import polars as pl

from sim.game import DeclaredIn, Headline, Progress, Setup, Target
from sim.games.sequence_stacks import bots, cards, forbid, play, sampler, search
from sim.games.sequence_stacks.state import new_state, views
from sim.games.sequence_stacks.tables import COLUMNS
from sim.games.sequence_stacks.tables import build as build_tables
from sim.games.sequence_stacks.trace import Tracer
from sim.games.sequence_stacks.view import PythonSeatPlayer
from sim.turns import JittedBots, Prepared, TurnGame, seat_bots
from strategies import seats as seat_strings


class SequenceStacks(TurnGame):
    name = "sequence-stacks"
    title = "Sequence Stacks"
    config = "sequence_stacks"
    min_players = cards.MIN_PLAYERS
    max_players = cards.MAX_PLAYERS
    tables = ("games", "seats", "progress")
    columns = COLUMNS
    # In a symmetric race the balance question is the first player's edge: seat 0's win rate,
    # read against the fair share 1/players (stalled games count as not won).
    headline = Headline("first player's win rate", (pl.col("winner") == 0).fill_null(False),
                        pl.lit(1))
    # the fair share is the headline's target, which the summary and reports show
    summary = (
        ("avg turns", pl.col("turns").mean()),
        ("blocks per game", pl.col("blocks").cast(pl.Float64).mean()),
    )
    cards, loop = cards, play
    bots = JittedBots(bots, forbid)
    # what balanced means for the headline (the summary's and the report's verdicts)
    target = Target(None, above="the first player", below="the other players")
    # how far each seat is from winning (sim/progress.py samples it: the progress table)
    progress = Progress("chips that count toward the win: the chips to win less those still "
                        "lacking, at least each colour's minimum", unit="chips")
    blurb = "a race for red and blue chips"
    bench_players = (2, 4, 6)
    # its report's own sections (report.py)
    report_sections = DeclaredIn(f"{__name__}.report", "SECTIONS")
    bench_scaling = 1_000_000
    # the information-set sampler (for search bots): sampler.resample(s, rs, seat, r)
    sampler = sampler
    # the search family's pieces (registered with sim/search.py when imported)
    search = search

    def prepare(self, rules: dict, setup: Setup) -> Prepared:
        """Gives what playing a configuration takes (Prepared)."""
        ruleset = cards.build(rules)
        strategies = [seat_strings.parse(text) for text in setup.seats]
        families, params = seat_bots(bots.resolve, strategies, rules)
        state = new_state(setup.players)
        views(state).forbid[:] = [forbid.mask(seat.forbidden) for seat in strategies]
        return Prepared(ruleset, families, params, state)

    def new_results(self, prepared: Prepared, games: int, setup: Setup):
        return play.new_results(games, setup.players)

    def tables_of(self, rules, setup, prepared, results, ids, labels):
        return build_tables(results, ids, setup.players, labels)

    def python_player(self, prepared: Prepared, rules: dict, seat: int) -> PythonSeatPlayer:
        return PythonSeatPlayer(prepared.state, prepared.rs, rules)

    def tracer(self, prepared: Prepared, setup: Setup, labels, out) -> Tracer:
        return Tracer(prepared.state, labels, out)


GAME = SequenceStacks()
