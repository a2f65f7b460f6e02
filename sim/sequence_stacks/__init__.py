"""Sequence Stacks: 2-6 players race to hold 5 chips, at least 2 red and 2 blue, by completing
shared sequence piles."""

from typing import TextIO

import numpy as np
import polars as pl

from sim.game import Headline, Setup
from sim.sequence_stacks import cards, play
from sim.sequence_stacks.state import new_state
from sim.sequence_stacks.tables import COLUMNS
from sim.sequence_stacks.tables import build as build_tables
from sim.sequence_stacks.trace import Tracer
from strategies import sequence_stacks as bots


class SequenceStacks:
    name = "sequence-stacks"
    title = "Sequence Stacks"
    min_players = cards.MIN_PLAYERS
    max_players = cards.MAX_PLAYERS
    tables = ("games", "seats")
    columns = COLUMNS
    # In a symmetric race the balance question is the first player's edge: seat 0's win rate,
    # read against the fair share 1/players (stalled games count as not won).
    headline = Headline("first player's win rate", (pl.col("winner") == 0).fill_null(False),
                        pl.lit(1))
    summary = (
        ("fair share", (1 / pl.col("players").cast(pl.Float64)).mean()),
        ("avg turns", pl.col("turns").mean()),
        ("blocks per game", pl.col("blocks").cast(pl.Float64).mean()),
    )

    def strategy_names(self) -> list[str]:
        return bots.strategy_names()

    def load_rules(self, config_file, overrides) -> dict:
        from sim.rules import load_rules
        rules = load_rules("sequence_stacks", config_file, overrides)
        cards.build(rules)  # validates
        return rules

    def check(self, rules: dict, setup: Setup) -> None:
        """Every player count the game takes can be played with any valid rules."""

    def compile(self, rules: dict) -> None:
        for strategy in ("random", "default"):
            self.play(rules, Setup(2, (strategy,) * 2), 0, 0, 1, 0)

    def prepare(self, rules: dict, setup: Setup):
        """Gives what playing a configuration takes: (rule arrays, bot families, bot
        parameters, an empty state)."""
        ruleset = cards.build(rules)
        resolved = [bots.resolve(name) for name in setup.seats]
        families = np.array([f for f, _ in resolved], np.int64)
        params = np.array([p for _, p in resolved], np.float64)
        return ruleset, families, params, new_state(setup.players)

    def play(self, rules, setup, seed, start, stop, id_offset):
        ruleset, families, params, state = self.prepare(rules, setup)
        out = play.new_results(stop - start, setup.players)
        play.play_games(state, ruleset, families, params, seed, start, stop, out)
        ids = np.arange(start, stop, dtype=np.int64) + id_offset
        return build_tables(out, ids, setup.players, setup.seats)

    def trace(self, rules, setup, seed, index, out: TextIO, chooser=None):
        """Prints game `index` move by move; `chooser(s, rs, seat, move)` may stand in for the
        seats' jitted bots (see play.play_traced)."""
        ruleset, families, params, state = self.prepare(rules, setup)
        results = play.new_results(1, setup.players)
        print(f"Sequence Stacks, {setup.players} players, seed {seed}, game {index}; seats: "
              + ", ".join(f"{i}:{name}" for i, name in enumerate(setup.seats)), file=out)
        tracer = Tracer(state, setup.seats, out)
        play.play_traced(state, ruleset, chooser or play.jitted_bots(families, params), seed, index,
                         results, tracer)
        return build_tables(results, np.array([index], np.int64), setup.players, setup.seats)


GAME = SequenceStacks()
