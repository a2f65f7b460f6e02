"""How fast a game plays: compile time, games per second per core, worker scaling, peak memory.

A rate per core is games over the CPU seconds they took (this process's, and its workers'
once they have ended): on a shared machine the wall clock also counts the time other jobs held
the core, so it is shown beside, with the load average. The yardstick, the same game's Python
driver with seats that always play their first legal move, is timed in the same bench: an
engine's rate over the yardstick's carries from one machine to another better than either.
"""

from __future__ import annotations

import os
import resource
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from sim.run import runner
from sim.game import Game, Setup
from sim.packaged import user_file

SEED = 1  # any fixed seed: every measurement plays the same games
SCALING_PLAYERS = 7
WARM_UP = 5  # games played before timing each configuration
YARDSTICK = "strategies/examples/first_move.py:FirstMove"
YARDSTICK_SHARE = 10  # the yardstick plays at most a tenth of --games: it is 5–200 times slower
YARDSTICK_SECONDS = 2.0  # and no more games than take about this much CPU per timing


@dataclass(frozen=True)
class Timing:
    cpu: float   # CPU seconds of this process and of its workers that ended meanwhile
    wall: float  # seconds by the clock


def bench(game: Game, rules: dict, players: list[int], strategies: list[str], games: int,
          repeat: int, scaling_games: int, memory_games: int, console: Console,
          dask: bool = False) -> None:
    """Prints a table of the game's speed (and, if asked, scaling and memory)."""
    load = os.getloadavg()[0]
    table = Table(title=f"{game.title} benchmark", show_lines=False)
    table.add_column("configuration", no_wrap=True)
    for column in ("games/s per core (CPU time)", "games/s by the wall clock", "÷ yardstick"):
        table.add_column(column, justify="right")

    file, _, bot = YARDSTICK.partition(":")
    yardstick = f"{user_file(file).resolve()}:{bot}"
    compiled = _timed(lambda: game.compile(rules, [
        _setup(game, rules, n, strategy) for strategy in (*strategies, yardstick)
        for n in players]))

    rows = {(strategy, n): _rates(game, rules, _setup(game, rules, n, strategy), games, repeat)
            for strategy in strategies for n in players}
    yard_setups = {n: _setup(game, rules, n, yardstick) for n in players}
    yard_games = {n: _yardstick_games(game, rules, setup, games)
                  for n, setup in yard_setups.items()}
    yard = {n: _rates(game, rules, setup, yard_games[n], repeat)
            for n, setup in yard_setups.items()}
    for (strategy, n), (cpu, wall) in rows.items():
        table.add_row(f"{_setup(game, rules, n, strategy).strategies()[0]}, {n} players",
                      f"{cpu:,.0f}", f"{wall:,.0f}", f"{cpu / yard[n][0]:,.1f}×")
    for n, (cpu, wall) in yard.items():
        table.add_row(f"yardstick, {n} players", f"{cpu:,.0f}", f"{wall:,.0f}", "1×")
    counts = sorted(set(yard_games.values()))
    table.caption = (
        f"Compile (or load from cache): {compiled.cpu:.2f} CPU-s, {compiled.wall:.2f} s. "
        f"Load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end (1 minute; "
        f"{os.cpu_count()} cores). The median of {repeat} timing{'s' if repeat > 1 else ''} of "
        f"{games:,} games; the yardstick: the Python driver, every seat "
        f"{yard_setups[players[0]].strategies()[0]} ({' to '.join(f'{c:,}' for c in counts)} "
        f"game{'s' if counts[-1] > 1 else ''}).")
    console.print(table)
    if scaling_games or memory_games:
        console.print(_runs(game, rules, strategies[0], scaling_games, memory_games, dask))


def _runs(game: Game, rules: dict, strategy: str, scaling_games: int, memory_games: int,
          dask: bool) -> Table:
    """Gives the table of whole runs: 1 and 2 workers (and a Dask cluster), peak memory."""
    n = min(max(SCALING_PLAYERS, game.min_players), game.max_players)
    table = Table(title=f"{game.title} runs of {n} players ({os.cpu_count()} cores)",
                  show_lines=False)
    table.add_column("measure")
    table.add_column("value", justify="right")
    setup = _setup(game, rules, n, strategy)
    with tempfile.TemporaryDirectory(prefix="simulate-bench-") as scratch:
        def run(workers: int, count: int, name: str, backend: str = "local") -> Timing:
            return _timed(lambda: runner.run(game, rules, [setup], count, SEED,
                                             Path(scratch) / name, workers, progress=False,
                                             backend=backend))

        if scaling_games:
            # Whole runs, worker start-up included: long enough that start-up is small. The
            # CPU rates say what the workers cost; the wall clock's speed-up depends as much
            # on what else the machine runs, so the load stands beside it.
            start_load = os.getloadavg()[0]
            one = run(1, scaling_games, "one-worker")
            two = run(2, scaling_games, "two-workers")
            for workers, timing in ((1, one), (2, two)):
                table.add_row(f"{workers} worker{'s' * (workers > 1)}, {scaling_games:,} games",
                              f"{scaling_games / timing.cpu:,.0f} games/CPU-s "
                              f"({timing.cpu:.2f} CPU-s, {timing.wall:.2f} s)")
            table.add_row("1 → 2 workers, CPU-s", f"{two.cpu / one.cpu:.2f}×")
            table.add_row("1 → 2 workers, wall clock",
                          f"{one.wall / two.wall:.2f}× faster at load {start_load:.1f}–"
                          f"{os.getloadavg()[0]:.1f}")
            if dask:
                cluster = run(2, scaling_games, "dask", backend="dask")
                table.add_row(f"2-worker Dask LocalCluster, {scaling_games:,} games (cluster "
                              f"start-up included)", f"{two.wall / cluster.wall:.2f}× the speed "
                              f"of 2 local workers ({cluster.wall:.2f} s; {cluster.cpu:.2f} CPU-s)")
        if memory_games:
            cores = os.cpu_count() or 1
            run(cores, memory_games, "memory")
            table.add_row(f"peak memory of a {memory_games:,}-game run, parent",
                          _megabytes(resource.RUSAGE_SELF))
            table.add_row(f"peak memory, largest of {cores} workers",
                          _megabytes(resource.RUSAGE_CHILDREN))
    return table


def _rates(game: Game, rules: dict, setup: Setup, games: int, repeat: int) -> tuple[float, float]:
    """Gives the median games/s of `repeat` timings of `games` games, per CPU second and per
    second by the clock."""
    # Warm-up, untimed: a Python bot's first games import it and load the rules it calls from
    # Python, which the compile step does not reach.
    game.play(rules, setup, SEED, 0, min(games, WARM_UP), 0)
    timings = [_timed(lambda: game.play(rules, setup, SEED, 0, games, 0)) for _ in range(repeat)]
    return (statistics.median(games / t.cpu for t in timings),
            statistics.median(games / t.wall for t in timings))


def _yardstick_games(game: Game, rules: dict, setup: Setup, games: int) -> int:
    """Gives the games of a timing of the yardstick: a tenth of `games`, or as many as take
    about YARDSTICK_SECONDS of CPU if fewer (a Deep Space Python driver plays some tens a
    second); at least one."""
    game.play(rules, setup, SEED, 0, WARM_UP, 0)  # its first games load the Python bot
    took = _timed(lambda: game.play(rules, setup, SEED, 0, WARM_UP, 0)).cpu
    return max(1, min(games // YARDSTICK_SHARE, int(YARDSTICK_SECONDS * WARM_UP / max(took, 1e-9))))


def _setup(game: Game, rules: dict, players: int, strategy: str) -> Setup:
    """Gives the configuration measured: every seat playing `strategy`, default options."""
    setup = Setup(players, (strategy,) * players)
    game.check(rules, setup)
    return setup


def _timed(work) -> Timing:
    """Gives the CPU and wall-clock seconds `work()` takes."""
    cpu, wall = _cpu(), time.perf_counter()
    work()
    return Timing(_cpu() - cpu, time.perf_counter() - wall)


def _cpu() -> float:
    """Gives the CPU seconds of this process (every thread) and of its ended child processes."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _megabytes(who: int) -> str:
    # ru_maxrss is in kilobytes on Linux.
    return f"{resource.getrusage(who).ru_maxrss / 1024:,.0f} MB"
