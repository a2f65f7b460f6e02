"""Sequence Stacks: 2-6 players race to hold 5 chips, at least 2 red and 2 blue, by completing
shared sequence piles."""

from typing import TextIO

import numpy as np
import polars as pl

from sim import search as search_family
from sim.game import Headline, Progress, Setup, Target
from sim.games.sequence_stacks import bots, cards, forbid, play, sampler, search
from sim.games.sequence_stacks.state import new_state, views
from sim.games.sequence_stacks.tables import COLUMNS
from sim.games.sequence_stacks.tables import build as build_tables
from sim.games.sequence_stacks.trace import Tracer
from sim.games.sequence_stacks.view import PythonSeatPlayer
from strategies import python_bots
from strategies import seats as seat_strings
from strategies.presets import user_presets


class SequenceStacksBots:
    """Sequence Stacks' plug-in for user-chosen play (sim.game.Bots)."""

    families = bots.FAMILIES
    presets = bots.BUILT_IN

    def forbiddable(self, rules: dict) -> dict[str, str]:
        return forbid.names(rules)


class SequenceStacks:
    name = "sequence-stacks"
    title = "Sequence Stacks"
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
    bots = SequenceStacksBots()
    # what balanced means for the headline (the summary's and the report's verdicts)
    target = Target(None, above="the first player", below="the other players")
    # how far each seat is from winning (sim/progress.py samples it: the progress table)
    progress = Progress("chips that count toward the win: the chips to win less those still "
                        "lacking, at least each colour's minimum", unit="chips")
    blurb = "a race for red and blue chips"
    bench_players = (2, 4, 6)
    bench_scaling = 1_000_000
    # the information-set sampler (for search bots): sampler.resample(s, rs, seat, r)
    sampler = sampler
    # the search family's pieces (registered with sim/search.py when imported)
    search = search

    def strategy_names(self) -> list[str]:
        return bots.strategy_names()

    def load_rules(self, config_file, overrides) -> dict:
        from sim.rules import load_rules
        rules = load_rules("sequence_stacks", config_file, overrides)
        cards.build(rules)  # validates
        return rules

    def check(self, rules: dict, setup: Setup) -> None:
        """Every player count the game takes can be played with any valid rules."""

    def compile(self, rules: dict, setups=()) -> None:
        searches = search_family.has_search_seat(bots.resolve, rules, setups)
        for strategy in ("random", "default") + (("search",) if searches else ()):
            self.play(rules, Setup(2, (strategy,) * 2), 0, 0, 1, 0)

    def prepare(self, rules: dict, setup: Setup):
        """Gives what playing a configuration takes: (rule arrays, bot families, bot
        parameters, an empty state holding the seats' restrictions).

        Seats that Python strategies play get the random family here; the Python driver asks
        their strategies instead."""
        ruleset = cards.build(rules)
        strategies = [seat_strings.parse(text) for text in setup.seats]
        resolved = [bots.resolve("random" if seat_strings.is_python(seat.base) else seat.base,
                                 user_presets(rules)) for seat in strategies]
        families = np.array([f for f, _ in resolved], np.int64)
        params = np.array([p for _, p in resolved], np.float64)
        state = new_state(setup.players)
        views(state).forbid[:] = [forbid.mask(seat.forbidden) for seat in strategies]
        return ruleset, families, params, state

    def play(self, rules, setup, seed, start, stop, id_offset):
        ruleset, families, params, state = self.prepare(rules, setup)
        out = play.new_results(stop - start, setup.players)
        classes = python_bots.python_classes(setup.seats)
        if classes:  # the Python driver: the same rules, seeds and tables, slower
            players = self._python_players(state, ruleset, classes, rules)
            for row, game in enumerate(range(start, stop)):
                play.play_python(state, ruleset, families, params, seed, game, out, row,
                                 self._python_seats(players, classes, seed, game))
        else:
            play.play_games(state, ruleset, families, params, seed, start, stop, out,
                            search_family.searching(families))
        ids = np.arange(start, stop, dtype=np.int64) + id_offset
        return build_tables(out, ids, setup.players, setup.strategies())

    @staticmethod
    def _python_players(state, ruleset, classes, rules) -> dict:
        """Gives the players of the Python seats on `state` (view.PythonSeatPlayer), seated
        for each game (`_python_seats`)."""
        return {seat: PythonSeatPlayer(state, ruleset, rules) for seat in classes}

    _python_seats = staticmethod(python_bots.seated)  # each game's fresh strategy instances

    def trace(self, rules, setup, seed, index, out: TextIO):
        """Prints game `index` move by move."""
        ruleset, families, params, state = self.prepare(rules, setup)
        results = play.new_results(1, setup.players)
        labels = setup.strategies()
        print(f"Sequence Stacks, {setup.players} players, seed {seed}, game {index}; seats: "
              + ", ".join(f"{i}:{name}" for i, name in enumerate(labels)), file=out)
        classes = python_bots.python_classes(setup.seats)
        players = self._python_players(state, ruleset, classes, rules)
        play.play_python(state, ruleset, families, params, seed, index, results, 0,
                         self._python_seats(players, classes, seed, index),
                         Tracer(state, labels, out))
        return build_tables(results, np.array([index], np.int64), setup.players, labels)


GAME = SequenceStacks()
