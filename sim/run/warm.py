"""What compiles before a run's games: one game of each kind of configuration the run plays.

numba compiles a game's loop once per kind of play (the built-in bots; with a search seat;
with Python seats: the Python driver), not per strategy or player count, which are values.
Playing one game of each configuration of a distinct set of strategies compiles (or loads from
numba's cache) exactly what the run will play, in this process, before any worker starts:
workers then load it from the cache."""

from __future__ import annotations

import dataclasses
from importlib import resources
from typing import Callable, Sequence

from sim.game import Game, Setup
from sim.rules import with_values
from strategies.seats import compose, is_python, parse

PYTHON_BOT = f"{resources.files('strategies') / 'examples' / 'first_move.py'}:FirstMove"
"""The Python strategy that plays a Python seat's warm-up game (`simulate compile` too): it
compiles the game's Python driver without running a user's bot before the run does."""


def stand_in(seat: str) -> str:
    """Gives the strategy a seat plays in its warm-up game: its own, but for a Python bot,
    whose place PYTHON_BOT takes (with the seat's restrictions)."""
    strategy = parse(seat)
    return compose(PYTHON_BOT, strategy.forbidden) if is_python(strategy.base) else seat


def kinds(setups: Sequence[Setup]) -> list[Setup]:
    """Gives a configuration of each distinct set of strategies of `setups` (the first), its
    Python bots stood in for by PYTHON_BOT."""
    first: dict[frozenset, Setup] = {}
    for setup in setups:
        seats = tuple(stand_in(seat) for seat in setup.seats)
        first.setdefault(frozenset(seats), dataclasses.replace(setup, seats=seats))
    return list(first.values())


def label(setup: Setup) -> str:
    """Gives what a configuration compiles, e.g. 'default bots, 7 players'."""
    names = ", ".join(dict.fromkeys(setup.strategies()))
    return f"{names} bots, {setup.players} players"


def warm(game: Game, rules: dict, setups: Sequence[Setup],
         say: Callable[[str], None] = lambda what: None) -> None:
    """Compiles (or loads from numba's cache) what playing `setups` runs, by playing one game
    of each kind; `say` is told what compiles at each step."""
    for setup in kinds(setups):
        say(label(setup))
        game.play(with_values(rules, setup.rule_values()), setup, 0, 0, 1, 0)


def everything(game: Game) -> list[Setup]:
    """Gives configurations playing every kind of the game's play: its built-in bots, a
    search seat among them (when the game has the search family) and a Python seat (the
    Python driver, which traces also use)."""
    n = game.min_players
    others = ("default",) * (n - 1)
    searching = [Setup(n, ("search", *others))] if "search" in game.strategy_names() else []
    return [Setup(n, ("default",) * n), *searching, Setup(n, (PYTHON_BOT, *others))]
