"""Saboteur: 3-10 players, hidden roles, three rounds of digging for gold."""

from typing import TextIO

import numpy as np
import polars as pl

from sim.errors import UserError
from sim.game import Headline, Setup
from sim.saboteur import cards, play
from sim.saboteur.tables import COLUMNS, build as build_tables
from sim.saboteur.state import new_state
from sim.saboteur.trace import Tracer
from strategies import saboteur as bots


class Saboteur:
    name = "saboteur"
    title = "Saboteur"
    min_players = cards.MIN_PLAYERS
    max_players = cards.MAX_PLAYERS
    tables = ("games", "seats", "rounds")
    columns = COLUMNS
    headline = Headline("miners' round-win rate", pl.col("miner_rounds"), pl.lit(3))
    summary = (("avg rounds won by saboteurs", (3 - pl.col("miner_rounds")).mean()),)

    def strategy_names(self) -> list[str]:
        return bots.strategy_names()

    def load_rules(self, config_file, overrides) -> dict:
        from sim.rules import load_rules
        rules = load_rules(self.name, config_file, overrides)
        cards.build(rules)  # validates
        return rules

    def check(self, rules: dict, setup: Setup) -> None:
        n = setup.players
        fixed = setup.option("saboteurs")
        ruleset, _ = cards.build(rules)
        if fixed is not None:
            top = min(n - 1, len(ruleset.payout) - 1)
            if not 0 <= fixed <= top:
                raise UserError(f"--saboteurs {fixed} is out of range for {n} players (0-{top})")
        elif ruleset.saboteur_cards[n] > len(ruleset.payout) - 1:
            raise UserError(f"{ruleset.saboteur_cards[n]} saboteur cards at {n} players, but "
                            f"gold.saboteur_payout covers only {len(ruleset.payout) - 1}")

    def compile(self, rules: dict) -> None:
        for strategy in ("random", "default"):
            self.play(rules, Setup(3, (strategy,) * 3), 0, 0, 1, 0)

    def prepare(self, rules: dict, setup: Setup):
        """Gives what playing a configuration takes: (rule arrays, card names, bot families,
        bot parameters, an empty state, fixed saboteurs or -1)."""
        ruleset, names = cards.build(rules)
        resolved = [bots.resolve(name) for name in setup.seats]
        families = np.array([f for f, _ in resolved], np.int64)
        params = np.array([p for _, p in resolved], np.float64)
        fixed = setup.option("saboteurs")
        state = new_state(setup.players, len(names))
        return ruleset, names, families, params, state, (-1 if fixed is None else fixed)

    def play(self, rules, setup, seed, start, stop, id_offset):
        ruleset, _, families, params, state, fixed = self.prepare(rules, setup)
        out = play.new_results(stop - start, setup.players, int(ruleset.numbers[cards.ROUNDS]))
        play.play_games(state, ruleset, families, params, seed, start, stop, fixed, out)
        ids = np.arange(start, stop, dtype=np.int64) + id_offset
        return build_tables(out, ids, setup.players, setup.seats, setup.option("saboteurs"))

    def trace(self, rules, setup, seed, index, out: TextIO):
        ruleset, names, families, params, state, fixed = self.prepare(rules, setup)
        results = play.new_results(1, setup.players, int(ruleset.numbers[cards.ROUNDS]))
        tracer = Tracer(state, ruleset, names, setup.seats, out)
        print(f"Saboteur, {setup.players} players, seed {seed}, game {index}; seats: "
              + ", ".join(f"{i}:{name}" for i, name in enumerate(setup.seats)), file=out)
        play.play_traced(state, ruleset, families, params, seed, index, fixed, results, tracer)
        built = build_tables(results, np.array([index], np.int64), setup.players, setup.seats,
                             setup.option("saboteurs"))
        seats = built["seats"]
        print("\nFinal: " + ", ".join(
            f"seat {r['seat']} {r['gold']} nuggets{' (wins)' if r['won'] else ''}"
            for r in seats.iter_rows(named=True)), file=out)
        return built


GAME = Saboteur()
