"""How fast a game plays: compile time, games per second per core, worker scaling, peak memory."""

from __future__ import annotations

import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from sim.run import runner
from sim.game import Game, Setup

SEED = 1  # any fixed seed: every measurement plays the same games
SCALING_PLAYERS = 7
WARM_UP = 5  # games played before timing each configuration


def bench(game: Game, rules: dict, players: list[int], strategies: list[str], games: int,
          repeat: int, scaling_games: int, memory_games: int, console: Console,
          dask: bool = False) -> None:
    """Prints a table of the game's speed (and, if asked, scaling and memory)."""
    table = Table(title=f"{game.title} benchmark", show_lines=False)
    table.add_column("measure")
    table.add_column("value", justify="right")

    started = time.perf_counter()
    game.compile(rules, [_setup(game, rules, n, strategy) for strategy in strategies
                         for n in players])
    table.add_row("compile (or load from cache)", f"{time.perf_counter() - started:.2f} s")

    for strategy in strategies:
        for n in players:
            setup = _setup(game, rules, n, strategy)
            # Warm-up, untimed: a Python bot's first games import it and load the rules it
            # calls from Python, which the compile step above does not reach.
            game.play(rules, setup, SEED, 0, min(games, WARM_UP), 0)
            rates = [games / _seconds(lambda: game.play(rules, setup, SEED, 0, games, 0))
                     for _ in range(repeat)]
            table.add_row(f"{setup.strategies()[0]}, {n} players",
                          f"{statistics.median(rates):,.0f} games/s per core")

    n = min(max(SCALING_PLAYERS, game.min_players), game.max_players)
    setup = _setup(game, rules, n, strategies[0])
    with tempfile.TemporaryDirectory(prefix="simulate-bench-") as scratch:
        def run(workers: int, count: int, name: str, backend: str = "local") -> float:
            return _seconds(lambda: runner.run(game, rules, [setup], count, SEED,
                                               Path(scratch) / name, workers, progress=False,
                                               backend=backend))

        if scaling_games:
            # Whole runs, worker start-up included: long enough that start-up is small.
            one = run(1, scaling_games, "one-worker")
            two = run(2, scaling_games, "two-workers")
            table.add_row(f"1 → 2 workers, {scaling_games:,} games of {n} players",
                          f"{one / two:.2f}× speed-up ({one:.2f} s → {two:.2f} s)")
            if dask:
                cluster = run(2, scaling_games, "dask", backend="dask")
                table.add_row(f"2-worker Dask LocalCluster, {scaling_games:,} games (cluster "
                              f"start-up included)", f"{two / cluster:.2f}× the speed of 2 local "
                              f"workers ({cluster:.2f} s)")
        if memory_games:
            cores = os.cpu_count() or 1
            run(cores, memory_games, "memory")
            table.add_row(f"peak memory of a {memory_games:,}-game run, parent",
                          _megabytes(resource.RUSAGE_SELF))
            table.add_row(f"peak memory, largest of {cores} workers",
                          _megabytes(resource.RUSAGE_CHILDREN))
    console.print(table)


def _setup(game: Game, rules: dict, players: int, strategy: str) -> Setup:
    """Gives the configuration measured: every seat playing `strategy`, default options."""
    setup = Setup(players, (strategy,) * players)
    game.check(rules, setup)
    return setup


def _seconds(work) -> float:
    """Gives the wall-clock seconds `work()` takes."""
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def _megabytes(who: int) -> str:
    # ru_maxrss is in kilobytes on Linux.
    return f"{resource.getrusage(who).ru_maxrss / 1024:,.0f} MB"
