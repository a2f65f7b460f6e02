"""Playing chunks on a Dask cluster: an existing one (`--scheduler tcp://HOST:PORT`) or a
LocalCluster on this machine.

Dask workers do not write shards: each returns its chunk's shards as Parquet bytes and this
process writes them into the run folder, exactly as local workers would. So a cluster needs no
shared storage, the run folder stays where the user asked for it, atomic renames and resuming
work unchanged, and a worker lost midway loses nothing that was written. The price is the
results' transfer: about 22 bytes a game (7-player Saboteur), small beside the games' time.
"""

from __future__ import annotations

import contextlib
import logging
import time
import warnings
from concurrent.futures import CancelledError
from pathlib import Path
from typing import Callable, Iterator, TypeVar

from sim.run.chunks import Chunk, Job, Played, play
from sim.errors import UserError
from sim.run.executors import environment, sigint_ignored
from sim.run.store import write_chunk

CONNECT_SECONDS = 10
# A cluster with no worker for this long has lost them (a nanny restarts a dead one at once).
NO_WORKERS_SECONDS = 30
POLL_SECONDS = 1.0  # how often a run waiting for results looks at the cluster's health
CLOSE_SECONDS = 5
# Chunks handed to the scheduler ahead of the results: enough to keep every worker busy, few
# enough that an interrupted run or an adaptive one does not wait for a long queue.
AHEAD_PER_THREAD = 2
T, R = TypeVar("T"), TypeVar("R")


class Dask:
    """Plays chunks on a Dask cluster and writes what the workers return (or, with no job,
    maps a function over items there: `map`)."""

    def __init__(self, job: Job, path: Path, workers: int, scheduler: str | None):
        self.job, self.path, self.workers, self.scheduler = job, path, workers, scheduler
        self.client = self.cluster = None
        self.without_workers_since: float | None = None  # since when the cluster has had none
        self.logs = contextlib.ExitStack()

    def __enter__(self) -> "Dask":
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise UserError("--backend dask needs Dask: pip install -e '.[cluster]'") from None
        with contextlib.ExitStack() as logs:  # kept silent until __exit__, if the client starts
            logs.enter_context(_silent_logs())
            if self.scheduler:
                try:
                    self.client = Client(self.scheduler, timeout=f"{CONNECT_SECONDS}s")
                except (OSError, TimeoutError, ValueError) as e:
                    raise UserError(f"cannot reach the Dask scheduler at {self.scheduler}: "
                                    f"{str(e).splitlines()[0] if str(e) else type(e).__name__}"
                                    ) from None
            else:
                with sigint_ignored(), environment(POLARS_MAX_THREADS="1"), _quiet_ports():
                    self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                                processes=True, host="127.0.0.1",
                                                dashboard_address=None, silence_logs=logging.ERROR)
                self.client = Client(self.cluster)
            self.logs = logs.pop_all()
        return self

    def __exit__(self, *exc) -> None:
        # A lost scheduler makes closing fail or wait: the run's outcome is decided already.
        with contextlib.suppress(Exception):
            if self.client is not None:
                self.client.close(timeout=CLOSE_SECONDS)
        with contextlib.suppress(Exception):
            if self.cluster is not None:
                self.cluster.close(timeout=CLOSE_SECONDS)
        self.logs.close()

    def play(self, chunks: list[Chunk]) -> Iterator[Played]:
        with self._cluster_lost_is_said():
            job = self.client.scatter(self.job, broadcast=True)
            threads = self.threads()
        todo = iter(chunks)
        running = {}  # future -> its chunk

        def submit(count: int) -> None:
            for chunk in todo:
                running[self.client.submit(play, job, chunk, pure=False)] = chunk
                count -= 1
                if count == 0:
                    return

        self.without_workers_since = None
        try:
            with self._cluster_lost_is_said():
                submit(AHEAD_PER_THREAD * threads)
            while running:
                with self._cluster_lost_is_said():
                    done = self._finished(list(running))
                    if not done:
                        self._check_workers()
                        continue
                future = next(iter(done))
                played, shards = self._result(future, _games(running.pop(future)))
                future.release()
                write_chunk(self.path, played, shards)
                with self._cluster_lost_is_said():
                    submit(1)
                yield played
        finally:
            with contextlib.suppress(Exception):
                self.client.cancel(list(running))

    @staticmethod
    def _finished(futures: list) -> set:
        """Gives the futures that are finished, or finish within POLL_SECONDS (maybe none)."""
        from distributed import wait

        try:
            return wait(futures, timeout=POLL_SECONDS, return_when="FIRST_COMPLETED").done
        except TimeoutError:  # none finished in time (distributed's is the builtin's subclass)
            return set()

    def map(self, function: Callable[[T], R], items: list[T], what: Callable[[T], str]) -> list[R]:
        """Gives function(item) for each item, computed on the cluster, in the items' order:
        for work whose results are small and written by the caller (a tuning's scores).
        `what(item)` names an item's games in an error."""
        with self._cluster_lost_is_said():
            futures = self.client.map(function, items, pure=False)
        self.without_workers_since = None
        try:
            pending = set(futures)
            while pending:
                with self._cluster_lost_is_said():
                    done = self._finished(list(pending))
                    if not done:
                        self._check_workers()
                pending -= done
            return [self._result(future, what(item)) for future, item in zip(futures, items)]
        finally:
            with contextlib.suppress(Exception):
                self.client.cancel([f for f in futures if not f.done()])

    def threads(self) -> int:
        """Gives how many games the cluster plays at once (its workers' threads)."""
        with self._cluster_lost_is_said():
            return max(1, sum(self.client.nthreads().values()))

    def _result(self, future, games: str):
        """Gives a finished future's result, or raises what playing its games raised; UserError
        if its workers kept dying or the cluster was lost meanwhile."""
        from distributed.scheduler import KilledWorker

        try:
            return future.result()
        except KilledWorker:
            raise UserError(f"Dask workers died each time they played {games} (out of memory?)"
                            ) from None
        except (CancelledError, OSError, TimeoutError) as e:
            if future.status == "error":  # the chunk's own failure, not the cluster's
                raise
            raise UserError(self._loss(e)) from None

    def _check_workers(self) -> None:
        """Raises UserError once the cluster has had no worker for NO_WORKERS_SECONDS."""
        if self.client.nthreads():
            self.without_workers_since = None
        elif self.without_workers_since is None:
            self.without_workers_since = time.monotonic()
        elif time.monotonic() - self.without_workers_since > NO_WORKERS_SECONDS:
            raise UserError(f"the Dask cluster has had no worker for {NO_WORKERS_SECONDS} s")

    @contextlib.contextmanager
    def _cluster_lost_is_said(self) -> Iterator[None]:
        """Turns the ways a lost scheduler or lost workers show (cancelled futures, closed
        connections, time outs) into one UserError saying which was lost."""
        try:
            yield
        except (CancelledError, OSError, TimeoutError) as e:
            raise UserError(self._loss(e)) from None

    def _loss(self, error: BaseException) -> str:
        """Gives what the cluster lost, asking the scheduler whether it is still there."""
        try:
            workers = self.client.nthreads()
        except Exception:  # noqa: BLE001 - any failure to answer means it is gone
            workers = None
        if workers == {}:
            return "the Dask cluster lost all its workers"
        where = self.scheduler or "the local cluster"
        detail = str(error).splitlines()[0].rstrip(":") if str(error) else type(error).__name__
        return f"lost the Dask scheduler ({where}): {detail}"


def _games(chunk: Chunk) -> str:
    """Gives a chunk's games in words, for an error."""
    return f"games {chunk.start}-{chunk.stop - 1} of configuration {chunk.setup}"


@contextlib.contextmanager
def _quiet_ports() -> Iterator[None]:
    """Silences the scheduler's warning that its usual HTTP port is taken (it takes another:
    nothing the user must act on, and the run's stderr stays one line at most)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
        yield


@contextlib.contextmanager
def _silent_logs() -> Iterator[None]:
    """Silences Dask's own log lines in this process (a lost scheduler's reconnect attempts and
    tracebacks): what a run lost is said in the one line of its UserError."""
    names = dict.fromkeys(["distributed", "tornado", *(
        name for name in list(logging.root.manager.loggerDict)
        if name.partition(".")[0] in ("distributed", "tornado"))])
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)
