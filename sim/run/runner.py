"""Plays a run: plans chunks of games, plays them on an executor, streams them to a run folder.

A game is identified only by (seed, setup, index), so neither the chunk size nor the number of
workers nor the backend nor resuming changes any table. Results stream to shards as chunks
finish, so memory stays flat however long the run.
"""

from __future__ import annotations

import contextlib
import json
import math
import shlex
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

from reports.stats import Z95
from sim import games, live
from sim.run import limits
from sim.run.chunks import Chunk, Job, Played, default_chunk_size, stopping_point
from sim.run.chunks import play as play_chunk
from sim.run.cluster import Dask
from sim.errors import UserError
from sim.run.executors import Processes, Serial
from sim.game import Game, Setup
from sim.run import sources
from sim.run.store import Run, new_manifest, resumed_now, version
from sim.run.warm import first_compile, warm
from strategies import bot_timeout

BACKENDS = ("local", "dask")
_SAVE_INTERVAL = 1.0  # seconds: the manifest tracks progress without costing a write per chunk
# Seconds of play below which a local run stays in this process: starting a worker process
# (Python, numba, polars and the compiled engine) takes about 1.5 s, so workers only pay beyond.
POOL_AFTER = 4.0
PROBE_GAMES = 50  # games timed to decide


def run(game: Game, rules: dict, setups: list[Setup], games_per_setup: int, seed: int, out: Path,
        workers: int, chunk_size: int | None = None, resume: bool = False,
        progress: bool = True, backend: str = "local", scheduler: str | None = None,
        until_ci: float | None = None, force_into: Path | None = None) -> Run:
    """Gives the run folder `out` once every game of every configuration is stored in it (or,
    with `until_ci`, once every configuration's headline rate has a 95% interval of at most
    that half-width, within `games_per_setup` games each).

    With `resume`, `out` must hold an earlier run of the same game, rules, setups, seed, game
    count and stopping rule; only its unfinished chunks are played, in that run's chunk size
    (and any chunk a piece of which is missing or damaged is played again). The run must have
    been played by today's code (sim/run/sources.py: the game's, the engine's and the bots'
    sources, the Python bot files, simulate's version), else UserError names what differs;
    with `force_into`, the games it is missing are played by today's code into a new run
    folder there instead, whose manifest names the run it continues (never pooled with it).
    """
    _check_arguments(workers, games_per_setup, chunk_size, backend, scheduler, until_ci)
    limits.check_seed(seed)
    limits.check_setups(len(setups))
    code = sources.fingerprint(game.name, setups, version())
    if resume:
        store = Run.open(out)
        _check_same_run(store, game, rules, setups, seed, games_per_setup, until_ci)
        if force_into is not None:
            store = _continue_into(store, Path(force_into), code)
        else:
            _check_same_code(store, code)
            store.start_writing()
            resumed_now(store.manifest)
    else:
        # Adaptive runs cut chunks for the games they will likely play, not for the cap.
        expected = min(games_per_setup, _Stopper.first_guess(until_ci)) if until_ci else games_per_setup
        size = chunk_size or default_chunk_size(expected * len(setups), workers)
        limits.check_plan(len(setups), games_per_setup, size)
        store = Run.create(out, new_manifest(game.name, rules, setups, seed, games_per_setup,
                                             size, _command(), until_ci, code))
    job = Job(games.target_of(game.name), rules, tuple(setups), seed, games_per_setup,
              store.manifest["parameters_hash"])
    chunks = store.plan()
    stopper = _Stopper(store, chunks, until_ci) if until_ci else None
    started = time.monotonic()
    elapsed_before = store.manifest["elapsed_seconds"]

    def record(status: str) -> None:
        done = store.done_chunks()
        store.manifest["games_done"] = sum(c.games for c in chunks if (c.setup, c.start) in done)
        store.manifest["status"] = status
        store.manifest["elapsed_seconds"] = round(elapsed_before + time.monotonic() - started, 3)
        store.save()

    def stopped() -> None:
        """Leaves the run folder as an interruption does: a new run that kept no game is
        removed, any other marked interrupted (resume then plays the rest)."""
        store.remove_temps()
        if (not resume or force_into is not None) and not store.done_chunks():
            store.discard()
        else:
            record("interrupted")

    def stopped_at_once(line: str, interrupted: bool) -> str:
        stopped()
        return line

    try:
        record("running")
        # what the run plays, before any worker starts, so that workers load numba's cache
        with first_compile(game.name, game.title, progress) as say:
            warm(game, rules, setups, say)
        last_save = time.monotonic()
        wave = stopper.next_wave() if stopper else _missing(store, chunks)
        with bot_timeout.before_hard_stop(stopped_at_once), \
                _progress_bar(game.title, store.manifest["games_requested"],
                              store.manifest["games_done"], progress) as advance, \
                _executor(job, store.path, workers, backend, scheduler, wave) as executor:
            while wave:
                for played in executor.play(wave):
                    advance(played.chunk.games)
                    if stopper:
                        stopper.add(played)
                    if time.monotonic() - last_save >= _SAVE_INTERVAL:
                        record("running")
                        last_save = time.monotonic()
                wave = stopper.next_wave() if stopper else []
        if stopper:
            stopper.drop_beyond_stopping_points()
        record("complete")
    except BaseException:
        stopped()
        raise
    finally:
        store.unlock()
    return store


def _check_arguments(workers: int, games_per_setup: int, chunk_size: int | None, backend: str,
                     scheduler: str | None, until_ci: float | None) -> None:
    if not scheduler:  # a cluster of the user's own has as many workers as it has
        limits.check_workers(workers)
    limits.check_games(games_per_setup)
    if chunk_size is not None:
        limits.check_chunk_size(chunk_size)
    check_backend(backend, scheduler)
    if until_ci is not None and not 0 < until_ci < 0.5:
        raise UserError(f"--until-ci takes a half-width between 0 and 0.5 (e.g. 0.005), got {until_ci}")


def check_backend(backend: str, scheduler: str | None) -> None:
    """Raises UserError for a backend that is not one, or a scheduler without Dask."""
    if backend not in BACKENDS:
        raise UserError(f"--backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if scheduler and backend != "dask":
        raise UserError("--scheduler needs --backend dask")


def _missing(store: Run, chunks: list[Chunk]) -> list[Chunk]:
    """Gives the chunks whose shards are not in the run folder yet."""
    done = store.done_chunks()
    return [c for c in chunks if (c.setup, c.start) not in done]


def _executor(job: Job, path: Path, workers: int, backend: str, scheduler: str | None,
              first: list[Chunk]):
    """Gives the executor for the run: Dask if asked for, else local worker processes unless
    the first games would take less time than starting them is worth."""
    if backend == "dask":
        return Dask(job, path, workers, scheduler)
    if min(workers, len(first)) > 1 and \
            _seconds_per_game(job, first[0]) * sum(c.games for c in first) > POOL_AFTER:
        return Processes(job, path, workers)
    return Serial(job, path)


def _seconds_per_game(job: Job, chunk: Chunk) -> float:
    """Gives how long a game of the chunk's configuration takes here, timed on its first games
    (played again with their chunk: a game depends on its index only)."""
    probe = Chunk(chunk.setup, chunk.start, chunk.start + min(PROBE_GAMES, chunk.games))
    started = time.monotonic()
    play_chunk(job, probe)
    return (time.monotonic() - started) / probe.games


class _Stopper:
    """Adaptive stopping: hands out waves of chunks until every configuration reaches its
    stopping point (`sim.run.chunks.stopping_point`: the shortest prefix of its chunks whose
    headline interval is narrow enough, else all of them).

    The point depends on the chunks' results alone; waves are only a schedule. A
    configuration's first wave is a pilot of a quarter of the games a 50% rate would need (one
    trial a game); later waves ask for what the rate, design effect and trials per game of its
    played prefix say it still needs (normal approximation, at least one chunk). Chunks a wave
    played beyond the stopping point are dropped at the end, so a run's games depend on its
    seed and chunk size, never on timing, workers or interruptions.
    """

    PILOT = 0.25

    @staticmethod
    def first_guess(until_ci: float) -> int:
        """Gives the trials a 50% rate needs for a 95% interval of ± until_ci."""
        return math.ceil(Z95 ** 2 * 0.25 / until_ci ** 2)

    def __init__(self, store: Run, chunks: list[Chunk], until_ci: float):
        self.store, self.until_ci = store, until_ci
        self.by_setup: dict[int, list[Chunk]] = {}
        for chunk in chunks:
            self.by_setup.setdefault(chunk.setup, []).append(chunk)
        self.counts = store.counts()  # chunk -> its headline counts, of every played chunk

    def add(self, played: Played) -> None:
        self.counts[played.chunk] = (played.successes, played.trials, *played.sums)

    def next_wave(self) -> list[Chunk]:
        """Gives the chunks to play next (none once every configuration has stopped)."""
        wave = []
        for own in self.by_setup.values():
            point = stopping_point(own, self.counts, self.until_ci)
            if point.final:
                continue
            trials = point.trials
            # The rate's variance so far, times its design effect (the worst case before any
            # game; never taken as zero, which a rate near 0 or 1 would suggest after a few games).
            p = point.successes / trials if trials else 0.5
            variance = max(p * (1 - p), 1 / trials) * point.deff if trials else 0.25
            needed = Z95 ** 2 * variance / self.until_ci ** 2
            games_wanted = ((needed - trials) / (trials / point.games) if trials
                            else self.PILOT * self.first_guess(self.until_ci))
            for chunk in own[point.chunks:]:
                if chunk not in self.counts:
                    wave.append(chunk)
                games_wanted -= chunk.games
                if games_wanted <= 0:
                    break
        return wave

    def drop_beyond_stopping_points(self) -> None:
        """Deletes the chunks played past each configuration's stopping point."""
        for own in self.by_setup.values():
            point = stopping_point(own, self.counts, self.until_ci)
            for chunk in own[point.chunks:]:
                self.store.drop(chunk)


@contextlib.contextmanager
def _progress_bar(title: str, total: int, done: int, enabled: bool) -> Iterator[Callable[[int], None]]:
    """Gives a function advancing a progress bar on stderr (a no-op when off, or where no live
    display shows: sim/live.py)."""
    console = live.stderr_console() if enabled else None
    if console is None:
        yield lambda games: None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn,
                               TextColumn, TimeRemainingColumn)

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TaskProgressColumn(),
               TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(title, total=total, completed=done, rate="–")

        def advance(games: int) -> None:
            bar.advance(task, games)
            speed = bar.tasks[task].speed
            if speed:
                bar.update(task, rate=f"{speed:,.0f}")

        yield advance


def _check_same_run(store: Run, game: Game, rules: dict, setups: list[Setup], seed: int,
                    games_per_setup: int, until_ci: float | None) -> None:
    """Raises UserError naming the first parameter in which a resumed run differs."""
    wanted = {"game": game.name, "seed": seed, "games_per_setup": games_per_setup,
              "setups": [s.to_json() for s in setups], "until_ci": until_ci}
    for key, value in wanted.items():
        if store.manifest.get(key) != value:
            raise UserError(f"cannot resume {store.path}: it was run with {key}"
                            f" {store.manifest.get(key)!r}, not {value!r}")
    difference = _first_difference(store.manifest["rules"], json.loads(json.dumps(rules)))
    if difference:
        raise UserError(f"cannot resume {store.path}: its rules differ at {difference!r}")


def _check_same_code(store: Run, code: dict) -> None:
    """Raises UserError naming what differs between the code that played the run's games and
    today's (sim/run/sources.py), pointing at `resume --force`."""
    recorded = store.manifest.get("code")
    found = (sources.differences(recorded, code) if recorded is not None else
             ["the run was started by a version of simulate that did not record its code"])
    if found:
        raise UserError(f"cannot resume {store.path}: {'; '.join(found)}; its games and today's "
                        f"would mix (start again, or play the missing games into a new run "
                        f"folder with 'simulate resume {store.path} --force --out NEW')")


def _continue_into(store: Run, path: Path, code: dict) -> Run:
    """Gives a new run folder at `path`, locked for writing, planned to play the chunks `store`
    is missing (not recorded, or damaged) with today's `code`."""
    if store.manifest.get("until_ci") is not None:
        raise UserError(f"cannot continue {store.path} with --force: an --until-ci run's "
                        "stopping point depends on all its games, which one code must play; "
                        "start the run again")
    store.hold()  # no writer adds chunks while the missing ones are listed
    try:
        done = store.done_chunks() - {(c.setup, c.start) for c in store.damaged_chunks()}
        missing = [[c.setup, c.start, c.stop] for c in store.plan() if (c.setup, c.start) not in done]
        if not missing:
            raise UserError(f"{store.path} misses no games: there is nothing to continue")
        m = store.manifest
        continues = {"run": str(store.path), "parameters_hash": m["parameters_hash"],
                     "chunks": missing}
        return Run.create(path, new_manifest(m["game"], m["rules"], store.setups, m["seed"],
                                             m["games_per_setup"], m["chunk_size"], _command(),
                                             None, code, continues))
    finally:
        store.unlock()


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
