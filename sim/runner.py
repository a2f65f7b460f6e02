"""Plays a run: plans chunks of games, plays them on an executor, streams them to a run folder.

A game is identified only by (seed, setup, index), so neither the chunk size nor the number of
workers nor resuming changes any table. Workers write their own shards, so results never pass
through the parent and memory stays flat however long the run.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import shlex
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import polars as pl

from sim import games
from sim.errors import UserError
from sim.game import Game, Setup
from sim.store import Run, new_manifest, write_chunk

MIN_CHUNK = 200
MAX_CHUNK = 20_000
CHUNKS_PER_WORKER = 32
_SAVE_INTERVAL = 1.0  # seconds: the manifest tracks progress without costing a write per chunk
# Seconds of play below which a run stays in this process: starting a worker process (Python,
# numba, polars and the compiled engine) takes about 1.5 s, so a pool only pays beyond that.
POOL_AFTER = 4.0
PROBE_GAMES = 50  # games timed to decide


@dataclass(frozen=True)
class Chunk:
    """Games [start, stop) of the configuration numbered `setup`."""

    setup: int
    start: int
    stop: int


def default_chunk_size(total_games: int, workers: int) -> int:
    """Gives a chunk size that hands each worker about 32 chunks (a short wait for the last),
    within [200, 20000]."""
    return max(MIN_CHUNK, min(MAX_CHUNK, total_games // (workers * CHUNKS_PER_WORKER)))


def plan(setups: int, games_per_setup: int, chunk_size: int) -> list[Chunk]:
    """Gives the chunks covering every game of every configuration, in order."""
    return [Chunk(k, start, min(start + chunk_size, games_per_setup))
            for k in range(setups) for start in range(0, games_per_setup, chunk_size)]


def run(game: Game, rules: dict, setups: list[Setup], games_per_setup: int, seed: int, out: Path,
        workers: int, chunk_size: int | None = None, resume: bool = False,
        progress: bool = True) -> Run:
    """Gives the run folder `out` once every game of every configuration is stored in it.

    With `resume`, `out` must hold an earlier run of the same game, rules, setups, seed and
    game count; only its unfinished chunks are played, in that run's chunk size.
    """
    if workers < 1:
        raise UserError(f"--workers must be at least 1, got {workers}")
    if games_per_setup < 1:
        raise UserError(f"--games must be at least 1, got {games_per_setup}")
    if chunk_size is not None and chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1, got {chunk_size}")
    job = _Job(games.module_of(game.name), rules, tuple(setups), seed, games_per_setup, Path(out))
    if resume:
        store = Run.open_for_writing(out)
        _check_same_run(store, game, rules, setups, seed, games_per_setup)
    else:
        size = chunk_size or default_chunk_size(games_per_setup * len(setups), workers)
        store = Run.create(out, new_manifest(game.name, rules, setups, seed, games_per_setup,
                                             size, _command()))
    chunks = plan(len(setups), games_per_setup, store.manifest["chunk_size"])
    done = store.done_chunks()
    todo = [c for c in chunks if (c.setup, c.start) not in done]
    started = time.monotonic()
    elapsed_before = store.manifest["elapsed_seconds"]

    def record(status: str) -> None:
        done = store.done_chunks()
        store.manifest["games_done"] = sum(c.stop - c.start for c in chunks
                                           if (c.setup, c.start) in done)
        store.manifest["status"] = status
        store.manifest["elapsed_seconds"] = round(elapsed_before + time.monotonic() - started, 3)
        store.save()

    try:
        record("running")
        game.compile(rules)  # before any worker starts, so that workers load numba's cache
        last_save = time.monotonic()
        with _progress_bar(game.title, store.manifest["games_requested"],
                           store.manifest["games_done"], progress) as advance, \
                contextlib.closing(_play(job, todo, workers)) as results:
            for played in results:
                advance(played)
                if time.monotonic() - last_save >= _SAVE_INTERVAL:
                    record("running")
                    last_save = time.monotonic()
        record("complete")
    except BaseException:
        store.remove_temps()
        if not resume and not store.done_chunks():
            store.discard()
        else:
            record("interrupted")
        raise
    return store


@dataclass(frozen=True)
class _Job:
    """What a worker needs to play any chunk of the run, sent once per worker."""

    module: str  # the module holding the game's GAME, importable by a fresh process
    rules: dict
    setups: tuple[Setup, ...]
    seed: int
    games_per_setup: int
    path: Path


def _play_chunk(job: _Job, chunk: Chunk) -> int:
    """Plays one chunk, writes its shards and gives the number of games played."""
    game = importlib.import_module(job.module).GAME
    tables = game.play(job.rules, job.setups[chunk.setup], job.seed, chunk.start, chunk.stop,
                       chunk.setup * job.games_per_setup)
    setup = pl.lit(chunk.setup, dtype=pl.Int16).alias("setup")
    write_chunk(job.path, {name: df.select(setup, pl.all()) for name, df in tables.items()},
                chunk.setup, chunk.start)
    return chunk.stop - chunk.start


def _play(job: _Job, chunks: list[Chunk], workers: int) -> Iterator[int]:
    """Gives each chunk's game count as it is played: by worker processes, unless the games
    would take less time than starting them is worth."""
    if min(workers, len(chunks)) > 1 and \
            _seconds_per_game(job, chunks[0]) * sum(c.stop - c.start for c in chunks) > POOL_AFTER:
        yield from _play_in_pool(job, chunks, workers)
    else:
        for chunk in chunks:
            yield _play_chunk(job, chunk)


def _seconds_per_game(job: _Job, chunk: Chunk) -> float:
    """Gives how long a game of the chunk's configuration takes here, timed on its first games
    (played again with their chunk: a game depends on its index only)."""
    game = importlib.import_module(job.module).GAME
    games = min(PROBE_GAMES, chunk.stop - chunk.start)
    started = time.monotonic()
    game.play(job.rules, job.setups[chunk.setup], job.seed, chunk.start, chunk.start + games, 0)
    return (time.monotonic() - started) / games


_worker_job: _Job | None = None


def _start_worker(job: _Job) -> None:
    global _worker_job
    _worker_job = job


def _play_in_worker(chunk: Chunk) -> int:
    return _play_chunk(_worker_job, chunk)


def _play_in_pool(job: _Job, chunks: list[Chunk], workers: int) -> Iterator[int]:
    """Gives each chunk's game count as worker processes finish it, in any order."""
    import multiprocess

    # spawn, not fork: polars' thread pools do not survive a fork.
    context = multiprocess.get_context("spawn")
    # Inherited across exec: Ctrl-C then interrupts the parent alone; and one polars thread
    # per worker, as the workers themselves are the parallelism.
    with _sigint_ignored(), _environment(POLARS_MAX_THREADS="1"):
        pool = context.Pool(min(workers, len(chunks)), initializer=_start_worker, initargs=(job,))
    finished = False
    try:
        yield from pool.imap_unordered(_play_in_worker, chunks)
        finished = True
    finally:
        if finished:
            pool.close()
        else:
            pool.terminate()
        pool.join()


@contextlib.contextmanager
def _environment(**values: str) -> Iterator[None]:
    """Sets environment variables for processes started meanwhile, then restores them."""
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may change signal handlers
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def _progress_bar(title: str, total: int, done: int, enabled: bool) -> Iterator[Callable[[int], None]]:
    """Gives a function advancing a progress bar on stderr (a no-op when off or not a terminal)."""
    if not (enabled and sys.stderr.isatty()):
        yield lambda games: None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn,
                               TextColumn, TimeRemainingColumn)

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TaskProgressColumn(),
               TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn())
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task(title, total=total, completed=done, rate="–")

        def advance(games: int) -> None:
            bar.advance(task, games)
            speed = bar.tasks[task].speed
            if speed:
                bar.update(task, rate=f"{speed:,.0f}")

        yield advance


def _check_same_run(store: Run, game: Game, rules: dict, setups: list[Setup], seed: int,
                    games_per_setup: int) -> None:
    """Raises UserError naming the first parameter in which a resumed run differs."""
    wanted = {"game": game.name, "seed": seed, "games_per_setup": games_per_setup,
              "setups": [s.to_json() for s in setups]}
    for key, value in wanted.items():
        if store.manifest[key] != value:
            raise UserError(f"cannot resume {store.path}: it was run with {key}"
                            f" {store.manifest[key]!r}, not {value!r}")
    difference = _first_difference(store.manifest["rules"], json.loads(json.dumps(rules)))
    if difference:
        raise UserError(f"cannot resume {store.path}: its rules differ at {difference!r}")


def _first_difference(old, new, path: str = "") -> str | None:
    """Gives the dotted key of the first value that differs between two rule trees, else None."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys()):
            found = _first_difference(old.get(key), new.get(key), f"{path}.{key}" if path else key)
            if found:
                return found
        return None
    return None if old == new else (path or "(all rules)")


def _command() -> str:
    """Gives the command line that started this process, as a shell would take it."""
    return shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]])
