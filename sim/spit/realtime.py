"""What Spit and Speed share as games: two seats, reaction settings per seat, the tables,
running games and tracing one. Each game names its own rules, engine loop, bots and tracer."""

from __future__ import annotations

from typing import TextIO

import numpy as np
import polars as pl

from sim.errors import UserError
from sim.game import Headline, Setup
from sim.spit import race, reaction
from sim.spit.tables import build as build_tables


class RealTimeGame:
    """A two-player game without turns, raced on a discrete-event clock (see race.py).

    Subclasses set name, title, columns, summary, `length` (the games column counting deals or
    hands), `cards`, `loop`, `bots` (its rules, play and bots modules), `tracer` (its Tracer
    class), and define new_state(ruleset) and options(rules) (rule options recorded per game).
    """

    min_players = 2
    max_players = 2
    tables = ("games", "seats")
    # Seat 0's game-win rate: seats differ only by what a configuration gives them (reaction
    # time, strategy), so 50% is fair and the gap to it is the effect of seat 0's settings.
    headline = Headline("seat 0's game-win rate", (pl.col("winner") == 0).fill_null(False),
                        pl.lit(1))
    length: str

    def strategy_names(self) -> list[str]:
        return self.bots.strategy_names()

    def load_rules(self, config_file, overrides) -> dict:
        from sim.rules import load_rules
        rules = load_rules(self.name, config_file, overrides)
        self.cards.build(rules)  # validates
        return rules

    def check(self, rules: dict, setup: Setup) -> None:
        if setup.players != 2:
            raise UserError(f"{self.name} is a game for two players, got {setup.players}")
        for seat in range(2):
            reaction.seat_reaction(rules, setup.option(reaction.option_name(seat)))

    def compile(self, rules: dict) -> None:
        for strategy in ("random", "default"):
            self.play(rules, Setup(2, (strategy,) * 2), 0, 0, 1, 0)

    def reactions(self, rules: dict, setup: Setup) -> tuple[list[float], list[float]]:
        """Gives each seat's (mean reaction seconds, spread) lists."""
        pairs = [reaction.seat_reaction(rules, setup.option(reaction.option_name(seat)))
                 for seat in range(2)]
        return [m for m, _ in pairs], [s for _, s in pairs]

    def prepare(self, rules: dict, setup: Setup):
        """Gives what playing a configuration takes: (rule arrays, card names, bot families,
        bot parameters, an empty state, a clock, reaction means, reaction spreads)."""
        ruleset, names = self.cards.build(rules)
        resolved = [self.bots.resolve(name) for name in setup.seats]
        families = np.array([f for f, _ in resolved], np.int64)
        params = np.array([p for _, p in resolved], np.float64)
        means, spreads = self.reactions(rules, setup)
        clock = race.new_clock(race.quantile_tables(means, spreads))
        return ruleset, names, families, params, self.new_state(ruleset), clock, means, spreads

    def tables_of(self, rules, setup, results, ids, means, spreads) -> dict[str, pl.DataFrame]:
        return build_tables(results, ids, setup.seats, means, spreads, self.length,
                            self.options(rules), self.seat_extra(results))

    def seat_extra(self, results) -> dict:
        return {}

    def play(self, rules, setup, seed, start, stop, id_offset):
        ruleset, _, families, params, state, clock, means, spreads = self.prepare(rules, setup)
        out = self.loop.new_results(stop - start)
        self.loop.play_games(state, ruleset, clock, families, params, race.seed_bits(seed), start,
                             stop, out)
        ids = np.arange(start, stop, dtype=np.int64) + id_offset
        return self.tables_of(rules, setup, out, ids, means, spreads)

    def trace(self, rules, setup, seed, index, out: TextIO):
        ruleset, names, families, params, state, clock, means, spreads = self.prepare(rules, setup)
        results = self.loop.new_results(1)
        print(f"{self.title}, seed {seed}, game {index}; seats: " + ", ".join(
            f"{seat}:{name} (reaction {means[seat]:g} s, spread {spreads[seat]:g})"
            for seat, name in enumerate(setup.seats)), file=out)
        tracer = self.tracer(state, ruleset, clock, names, out)
        self.loop.play_traced(state, ruleset, clock, families, params, seed, index, results,
                              tracer)
        built = self.tables_of(rules, setup, results, np.array([index], np.int64), means, spreads)
        game = built["games"].row(0, named=True)
        seats = built["seats"].rows(named=True)
        outcome = ("stalled (no winner)" if game["stalled"] else f"seat {game['winner']} wins")
        print(f"\nFinal: {outcome} after {game[self.length]} {self.length}, {game['turns']} moves, "
              f"{game['stalls']} stalls, {game['sim_seconds']:.1f} simulated seconds; cards left: "
              + ", ".join(f"seat {r['seat']} {r['cards_left']}" for r in seats), file=out)
        return built
