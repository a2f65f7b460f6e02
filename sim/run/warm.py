"""What compiles before a run's games: one game of each kind of configuration the run plays,
and the spinner shown meanwhile on a cold cache.

numba compiles a game's loop once per kind of play (the built-in bots; with a search seat;
with Python seats: the Python driver), not per strategy or player count, which are values.
Playing one game of each configuration of a distinct set of strategies compiles (or loads from
numba's cache) exactly what the run will play, in this process, before any worker starts:
workers then load it from the cache."""

from __future__ import annotations

import contextlib
import dataclasses
from importlib import resources
from pathlib import Path
from typing import Callable, Iterator, Sequence

from sim import live
from sim.game import Game, Setup
from sim.jit import cache_folder
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


def is_compiled(game_name: str) -> bool:
    """Tells whether a game's engine was compiled into the current cache folder."""
    return (Path(cache_folder()) / f"{game_name}.compiled").exists()


@contextlib.contextmanager
def first_compile(game_name: str, title: str, show: bool = True) -> Iterator[Callable[[str], None]]:
    """Shows a spinner on stderr while a game's engine compiles into a cold cache (when `show`,
    on a terminal or in a notebook: sim/live.py), then marks the cache folder as holding it.
    Gives a function saying what is compiling now (e.g. "default bots, 7 players"), which the
    spinner shows beside the time elapsed.

    A cold compile takes half a minute or more; silence that long reads as a hang. No estimate
    of how long: it depends on the machine's load, so the time elapsed is all that is true.
    The mark, not numba's own index files, tells cold from warm: their names are numba's."""
    if is_compiled(game_name):
        yield lambda what: None
        return
    status = None
    say: Callable[[str], None] = lambda what: None
    console = live.stderr_console() if show else None
    if console is not None:
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
        from rich.table import Column

        # the time first, whole: a narrow terminal cuts the end of the text instead
        status = Progress(SpinnerColumn(), TimeElapsedColumn(table_column=Column(min_width=7)),
                          TextColumn("{task.description}",
                                     table_column=Column(no_wrap=True, overflow="ellipsis")),
                          console=console, transient=True)
        task = status.add_task(_compiling(title, ""), total=None)
        status.start()
        status.refresh()  # at once, not at the first tick

        def say(what: str) -> None:
            status.update(task, description=_compiling(title, what))
            status.refresh()
    try:
        yield say
    finally:
        if status is not None:
            status.stop()
    with contextlib.suppress(OSError):  # a read-only cache: numba does not cache there either
        mark = Path(cache_folder()) / f"{game_name}.compiled"
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()


def _compiling(title: str, what: str) -> str:
    return f"compiling {title}{f' for {what}' if what else ''} (once per install)"
