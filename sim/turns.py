"""The shell of a turn-based game at the fast level: compiling, running games, tracing one,
seating Python strategies, and the Python driver's loop, written once for every such game.

A game subclasses `TurnGame` and writes what is its own: its rules (`cards`: a module whose
`build(rules)` validates them), its state and engine, its bots (`bots`: a `JittedBots`), its
result arrays and tables, its view for Python strategies and its tracer. Its play module
(`loop`) gives `play_games(s, rs, families, params, seed, start, stop, *args, out,
searching)` and `play_python(s, rs, families, params, seed, game, *args, out, row,
python_seats, watch)`, where `args` are the game's own (`loop_args`). A game without a play
loop of its own gets one from `sim/turn_loops.py`.
"""

from __future__ import annotations

from typing import NamedTuple, TextIO

import numpy as np
import polars as pl

from sim import search as search_family
from sim.game import Setup
from strategies import bot_timeout, python_bots
from strategies import seats as seat_strings
from strategies.presets import user_presets


class JittedBots:
    """A fast-level game's plug-in for user-chosen play (sim.game.Bots), over its strategies
    module (jitted bots, FAMILIES, BUILT_IN presets, resolve) and its forbid module (--forbid
    names; None: no move can be forbidden, and no command offers --forbid); `roles`: the roles
    --forbid ROLE:NAME takes."""

    def __init__(self, strategies, forbid=None, roles: tuple[str, ...] = ()):
        self.strategies, self.forbid = strategies, forbid
        self.families, self.presets = strategies.FAMILIES, strategies.BUILT_IN
        self.forbids = forbid is not None
        if roles:
            self.roles = roles

    def forbiddable(self, rules: dict) -> dict[str, str]:
        return self.forbid.names(rules) if self.forbid else {}


def seat_bots(resolve, seats, rules: dict) -> tuple[np.ndarray, np.ndarray]:
    """Gives the bot families (int64) and parameters (float64) of parsed seat strings
    (strategies.seats.parse), by the game's `resolve(name, presets)`: a seat that a Python
    strategy plays gets the random family, which the Python driver never asks."""
    resolved = [resolve("random" if seat_strings.is_python(seat.base) else seat.base,
                        user_presets(rules)) for seat in seats]
    return (np.array([f for f, _ in resolved], np.int64),
            np.array([p for _, p in resolved], np.float64))


class Prepared(NamedTuple):
    """What playing a configuration takes (TurnGame.prepare), for a game that needs no more."""

    rs: object  # the rule arrays
    families: np.ndarray  # each seat's bot family
    params: np.ndarray  # each seat's bot parameters
    state: tuple  # an empty state (named tuple of arrays), with the seats' restrictions


def score_tables(ids: np.ndarray, players: int, labels: tuple[str, ...], turns: np.ndarray,
                 won: np.ndarray, scores: np.ndarray, games: dict | None = None,
                 seats: dict | None = None) -> dict[str, pl.DataFrame]:
    """Gives the games and seats tables of a chunk of games as the simple level writes them
    (sim/simple.py: winner, winners, first_won; won, score), from arrays: turns[games],
    won[games, players] (bool: the winning seats, ties share), scores[games, players], and the
    game's own columns, games' {name: [games]} and seats' {name: [games, players]}."""
    n = ids.shape[0]
    winners = won.sum(axis=1)
    seat_ids = np.tile(np.arange(players, dtype=np.int8), n)
    return {
        "games": pl.DataFrame({
            "game_id": ids, "players": np.full(n, players, np.int8),
            "stalled": np.zeros(n, bool), "turns": turns.astype(np.int32),
            "winner": np.where(winners == 1, won.argmax(axis=1), -1).astype(np.int8),
            "winners": winners.astype(np.int8), "first_won": won[:, 0], **(games or {}),
        }).with_columns(winner=pl.when(pl.col("winners") == 1).then(pl.col("winner"))),
        "seats": pl.DataFrame({
            "game_id": np.repeat(ids, players), "players": np.full(n * players, players, np.int8),
            "seat": seat_ids,
            "strategy": pl.Series(labels, dtype=pl.String).gather(
                pl.Series(seat_ids, dtype=pl.UInt32)),
            "won": won.ravel(), "score": scores.ravel().astype(np.float64),
            **{name: values.ravel() for name, values in (seats or {}).items()},
        }),
    }


# What a play module's `python_steps` generator stops for (its first yielded number).
DECIDE, START, MOVE, AFTER = range(4)


def drive(steps, python_seats: dict, move: np.ndarray, watch=None) -> None:
    """Runs a game's `python_steps` generator to its end: asks the Python seats for their
    moves (a player writes its move into `move`, the state's) and tells `watch(event, ...)`,
    if given, of each step: ("start",) once dealt, ("move", seat, move) before each move is
    applied, ("after", seat, move) after it, ("end",) at the end."""
    played = None
    for event, seat in steps:
        if event == DECIDE:
            python_seats[seat](seat)
        elif event == START:
            watch("start")
        elif event == MOVE:
            played = move.copy()
            watch("move", seat, played)
        else:
            watch("after", seat, played)
    bot_timeout.rest()
    if watch:
        watch("end")


class LineTracer:
    """A trace's `watch` (see `drive`) that prints a line before each move and one at the end,
    in the game's words: move_line(s, seat, label, move) and end_line(s), over state `s`."""

    def __init__(self, s, labels: tuple[str, ...], out: TextIO, move_line, end_line):
        self.s, self.labels, self.out = s, labels, out
        self.move_line, self.end_line = move_line, end_line

    def __call__(self, event: str, *args) -> None:
        if event == "move":
            seat, move = args
            print(self.move_line(self.s, seat, self.labels[seat], move), file=self.out)
        elif event == "end":
            print(self.end_line(self.s), file=self.out)


def python_flags(python_seats: dict | None, players: int) -> np.ndarray:
    """Gives python[seat]: 1 where a Python strategy plays the seat (`python_seats`' keys)."""
    return np.array([seat in (python_seats or {}) for seat in range(players)], np.int64)


class TurnGame:
    """A game of turns at the fast level (sim.game.Game), its engine jitted.

    Subclasses set name, title, min_players, max_players, tables, columns, headline, summary,
    `cards` (its rules module: build(rules) validates), `loop` (its play module), `bots` (a
    JittedBots), and define:

    - prepare(rules, setup): a named tuple with at least `rs` (the rule arrays), `families`,
      `params` (seat_bots) and `state` (an empty state with the seats' restrictions);
    - new_results(prepared, games, setup): zeroed result arrays for `games` games;
    - tables_of(rules, setup, prepared, results, ids, labels): the tables of those games;
    - python_player(prepared, rules, seat): the player of a Python seat (its view.PythonSeatPlayer);
    - tracer(prepared, setup, labels, out): the trace's `watch`, or move_line and end_line
      for the shell's (LineTracer);

    and where theirs differ: loop_args (the play loop's own arguments), trace_header,
    trace_end, validate.
    """

    config: str | None = None  # the rules' name under configs/ (default: `name`)
    rules_file = None  # a plugin game's rules TOML, where configs/ has none (a Path)

    def __init__(self) -> None:
        if self.rules_file is not None:
            from sim import rules as rule_files
            rule_files.register_file(self.name, self.rules_file)

    def strategy_names(self) -> list[str]:
        return self.bots.strategies.strategy_names()

    def load_rules(self, config_file, overrides) -> dict:
        from sim.rules import load_rules
        rules = load_rules(self.config or self.name, config_file, overrides)
        self.validate(rules)
        return rules

    def validate(self, rules: dict) -> None:
        """Raises UserError for rules no game can be played with."""
        self.cards.build(rules)

    def check(self, rules: dict, setup: Setup) -> None:
        """Every player count the game takes can be played with any valid rules."""

    def compile(self, rules: dict, setups=()) -> None:
        searches = search_family.has_search_seat(self.bots.strategies.resolve, rules, setups)
        n = self.min_players
        for strategy in ("random", "default") + (("search",) if searches else ()):
            self.play(rules, Setup(n, (strategy,) * n), 0, 0, 1, 0)

    def prepare(self, rules: dict, setup: Setup) -> Prepared:
        """Gives what playing a configuration takes (Prepared), for a game whose seats cannot
        be forbidden moves: its rule arrays (`rule_arrays(rules, players)`), the seats' bots
        and an empty state (`new_state(players, rs)`)."""
        rs = self.rule_arrays(rules, setup.players)
        families, params = seat_bots(self.bots.strategies.resolve,
                                     [seat_strings.parse(text) for text in setup.seats], rules)
        return Prepared(rs, families, params, self.new_state(setup.players, rs))

    def loop_args(self, prepared) -> tuple:
        """Gives the play loop's arguments of the game's own, after the seed and game."""
        return ()

    def play(self, rules, setup, seed, start, stop, id_offset):
        prepared = self.prepare(rules, setup)
        out = self.played(rules, setup, prepared, seed, start, stop)
        ids = np.arange(start, stop, dtype=np.int64) + id_offset
        return self.tables_of(rules, setup, prepared, out, ids, setup.strategies())

    def played(self, rules, setup, prepared, seed, start, stop):
        """Gives the result arrays of games [start, stop) of a prepared configuration."""
        p = prepared
        out = self.new_results(p, stop - start, setup)
        args = self.loop_args(p)
        classes = python_bots.python_classes(setup.seats)
        if classes:  # the Python driver: the same rules, seeds and tables, slower
            players = self.python_players(p, classes, rules)
            for row, game in enumerate(range(start, stop)):
                self.loop.play_python(p.state, p.rs, p.families, p.params, seed, game, *args,
                                      out, row,
                                      self._python_seats(players, classes, seed, game))
        else:
            self.loop.play_games(p.state, p.rs, p.families, p.params, seed, start, stop, *args,
                                 out, search_family.searching(p.families))
        return out

    def python_players(self, prepared, classes, rules) -> dict:
        """Gives the players of the Python seats (`classes`' keys), seated afresh for each game
        (`_python_seats`)."""
        return {seat: self.python_player(prepared, rules, seat) for seat in classes}

    _python_seats = staticmethod(python_bots.seated)  # each game's fresh strategy instances

    def tracer(self, prepared, setup: Setup, labels, out: TextIO) -> LineTracer:
        """Gives the trace's `watch`: a line per move and one at the end (LineTracer)."""
        return LineTracer(prepared.state, labels, out, self.move_line, self.end_line)

    def trace_header(self, rules, setup, labels) -> str:
        """Gives what the trace's first line says after the game's index."""
        return "; seats: " + ", ".join(f"{i}:{name}" for i, name in enumerate(labels))

    def trace_end(self, tables: dict[str, pl.DataFrame], out: TextIO) -> None:
        """Prints what the trace says once the game is over (nothing, unless the game says)."""

    def trace(self, rules, setup, seed, index, out: TextIO):
        """Prints game `index` move by move."""
        p = self.prepare(rules, setup)
        results = self.new_results(p, 1, setup)
        labels = setup.strategies()
        print(f"{self.title}, {setup.players} players, seed {seed}, game {index}"
              + self.trace_header(rules, setup, labels), file=out)
        tracer = self.tracer(p, setup, labels, out)
        classes = python_bots.python_classes(setup.seats)
        players = self.python_players(p, classes, rules)
        self.loop.play_python(p.state, p.rs, p.families, p.params, seed, index,
                              *self.loop_args(p), results, 0,
                              self._python_seats(players, classes, seed, index), tracer)
        tables = self.tables_of(rules, setup, p, results, np.array([index], np.int64), labels)
        self.trace_end(tables, out)
        return tables
