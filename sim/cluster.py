"""Playing chunks on a Dask cluster: an existing one (`--scheduler tcp://HOST:PORT`) or a
LocalCluster on this machine.

Dask workers do not write shards: each returns its chunk's shards as Parquet bytes and this
process writes them into the run folder, exactly as local workers would. So a cluster needs no
shared storage, the run folder stays where the user asked for it, atomic renames and resuming
work unchanged, and a worker lost midway loses nothing that was written. The price is the
results' transfer: about 22 bytes a game (7-player Saboteur), small beside the games' time.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Iterator

from sim.chunks import Chunk, Job, Played, play
from sim.errors import UserError
from sim.executors import environment
from sim.store import write_chunk

CONNECT_SECONDS = 10
# Chunks handed to the scheduler ahead of the results: enough to keep every worker busy, few
# enough that an interrupted run or an adaptive one does not wait for a long queue.
AHEAD_PER_THREAD = 2


class Dask:
    """Plays chunks on a Dask cluster and writes what the workers return."""

    def __init__(self, job: Job, path: Path, workers: int, scheduler: str | None):
        self.job, self.path, self.workers, self.scheduler = job, path, workers, scheduler
        self.client = self.cluster = None

    def __enter__(self) -> "Dask":
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise UserError("--backend dask needs Dask: pip install -e '.[cluster]'") from None
        if self.scheduler:
            try:
                self.client = Client(self.scheduler, timeout=f"{CONNECT_SECONDS}s")
            except (OSError, TimeoutError, ValueError) as e:
                raise UserError(f"cannot reach the Dask scheduler at {self.scheduler}: "
                                f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
        else:
            with environment(POLARS_MAX_THREADS="1"):
                self.cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                            processes=True, host="127.0.0.1",
                                            dashboard_address=None, silence_logs=logging.ERROR)
            self.client = Client(self.cluster)
        return self

    def __exit__(self, *exc) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def play(self, chunks: list[Chunk]) -> Iterator[Played]:
        from distributed import as_completed

        job = self.client.scatter(self.job, broadcast=True)
        threads = max(1, sum(self.client.nthreads().values()))
        todo = iter(chunks)
        running = as_completed()

        def submit(count: int) -> None:
            for chunk in todo:
                running.add(self.client.submit(play, job, chunk, pure=False))
                count -= 1
                if count == 0:
                    return

        submit(AHEAD_PER_THREAD * threads)
        try:
            for future in running:
                played, shards = future.result()
                write_chunk(self.path, played, shards)
                future.release()
                submit(1)
                yield played
        finally:
            self.client.cancel(list(running.futures))
