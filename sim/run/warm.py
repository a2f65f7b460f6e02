"""What compiles before a run's games: one game of each kind of configuration the run plays.

numba compiles a game's loop once per kind of play (the built-in bots; with a search seat;
with Python seats: the Python driver), not per strategy or player count, which are values.
Playing one game of each configuration of a distinct set of strategies compiles (or loads from
numba's cache) exactly what the run will play, in this process, before any worker starts:
workers then load it from the cache."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

from sim.game import Game, Setup
from sim.rules import with_values

PYTHON_BOT = Path(__file__).resolve().parents[1] / "strategies/examples/first_move.py"
"""The Python strategy `simulate compile` plays to compile a game's Python driver."""


def kinds(setups: Sequence[Setup]) -> list[Setup]:
    """Gives the first configuration of `setups` of each distinct set of strategies."""
    first: dict[frozenset, Setup] = {}
    for setup in setups:
        first.setdefault(frozenset(setup.seats), setup)
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
    return [Setup(n, ("default",) * n), *searching, Setup(n, (f"{PYTHON_BOT}:FirstMove", *others))]
