"""Where chunks are played: in this process, or on local worker processes.

An executor is a context manager whose `play(chunks)` gives a `Played` for each chunk once its
shards are in the run folder, in any order. (The Dask executor lives in `sim.run.cluster`.)
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import types
from collections import deque
from pathlib import Path
from typing import Iterator

from sim.errors import UserError
from sim.run.chunks import Chunk, Job, Played, play
from sim.run import store
from strategies import bot_timeout

# A chunk whose worker died this many times is not tried again: the run stops, resumable.
ATTEMPTS = 3


def play_into(job: Job, path: Path, chunk: Chunk) -> Played:
    """Plays one chunk and writes its shards and its chunk record into the run folder `path`."""
    played, shards = play(job, chunk)
    store.write_chunk(path, played, shards)  # looked up at the call: tests stand in for it
    return played


class Serial:
    """Plays chunks one after another in this process."""

    def __init__(self, job: Job, path: Path):
        self.job, self.path = job, path

    def __enter__(self) -> "Serial":
        return self

    def __exit__(self, *exc) -> None:
        pass

    def play(self, chunks: list[Chunk]) -> Iterator[Played]:
        for chunk in chunks:
            yield play_into(self.job, self.path, chunk)


class Processes:
    """Plays chunks on local worker processes, one chunk at a time each over its own pipe.

    Knowing which chunk each worker holds is what lets a run survive a worker that dies (even
    by `kill -9`): a new worker replaces it and plays that chunk again; the shards the dead
    worker left half-written are temporary files nobody reads. Workers are started once and
    kept for every `play` of the run.
    """

    def __init__(self, job: Job, path: Path, workers: int):
        self.job, self.path, self.size = job, path, workers
        self.workers: list[_Worker] = []

    def __enter__(self) -> "Processes":
        return self

    def __exit__(self, *exc) -> None:
        for worker in self.workers:
            worker.stop(kill=exc[0] is not None)
        self.workers = []

    def play(self, chunks: list[Chunk]) -> Iterator[Played]:
        from multiprocess.connection import wait

        todo = deque(chunks)
        attempts: dict[Chunk, int] = {}
        while len(self.workers) < min(self.size, len(chunks)):
            self.workers.append(self._start())
        busy: dict[_Worker, Chunk] = {}
        while todo or busy:
            for worker in self.workers:
                if todo and worker not in busy:
                    busy[worker] = todo.popleft()
                    worker.send(busy[worker])
            ready = wait([w.pipe for w in busy] + [w.process.sentinel for w in busy])
            for worker in list(busy):
                if worker.pipe in ready:
                    try:
                        answer = worker.answer()
                    except (EOFError, OSError):  # it died before answering
                        answer = None
                    if answer is not None:
                        del busy[worker]
                        ok, value = answer
                        if not ok:  # what playing the chunk raised, e.g. a full disk's OSError
                            raise value
                        yield value
                        continue
                if worker.pipe in ready or worker.process.sentinel in ready:
                    chunk = busy.pop(worker)
                    attempts[chunk] = attempts.get(chunk, 0) + 1
                    if attempts[chunk] >= ATTEMPTS:
                        raise UserError(
                            f"a worker process died {ATTEMPTS} times playing games "
                            f"{chunk.start}-{chunk.stop - 1} of configuration {chunk.setup}")
                    todo.appendleft(chunk)
                    self._replace(worker)

    def _start(self) -> "_Worker":
        import multiprocess

        # spawn, not fork: polars' thread pools do not survive a fork.
        context = multiprocess.get_context("spawn")
        # Inherited across exec: Ctrl-C then interrupts the parent alone; and one polars thread
        # per worker, as the workers themselves are the parallelism.
        with sigint_ignored(), environment(POLARS_MAX_THREADS="1"), callers_main_hidden():
            return _Worker(context, self.job, self.path)

    def _replace(self, dead: "_Worker") -> None:
        dead.stop(kill=True)
        self.workers[self.workers.index(dead)] = self._start()


class _Worker:
    """One worker process and the pipe it takes chunks from and answers on."""

    def __init__(self, context, job: Job, path: Path):
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, job, path), daemon=True)
        self.process.start()
        theirs.close()

    def send(self, chunk: Chunk) -> None:
        self.pipe.send(chunk)

    def answer(self) -> tuple[bool, Played | BaseException]:
        """Gives the worker's answer: (True, the chunk it played) or (False, what playing it
        raised); EOFError or OSError if the worker died first."""
        return self.pipe.recv()

    def stop(self, kill: bool) -> None:
        if kill:
            self.process.kill()
        else:
            with contextlib.suppress(OSError):
                self.pipe.send(None)
        self.process.join()
        self.pipe.close()


def _serve(pipe, job: Job, path: Path) -> None:
    """A worker's loop: play each chunk received until told to stop (or the parent is gone)."""
    # A bot's move that runs on after it was stopped ends this process: the parent says why.
    bot_timeout.last_words = lambda line, code: pipe.send(
        (False, UserError(line.removeprefix("error: "))))
    while True:
        try:
            chunk = pipe.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        try:
            answer = (True, play_into(job, path, chunk))
        except Exception as e:  # the parent raises it, as if the chunk had been played there
            answer = (False, e)
        try:
            pipe.send(answer)
        except (EOFError, OSError):  # the parent is gone
            return
        except Exception:  # noqa: BLE001 - an error that cannot be pickled: said in words
            pipe.send((False, RuntimeError(f"{type(answer[1]).__name__}: {answer[1]}")))


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
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
def callers_main_hidden() -> Iterator[None]:
    """Starts processes meanwhile without the calling program's `__main__`: a spawned process
    runs the caller's script again (as `__mp_main__`) to find what it defines, and a script
    calling sim.api without an `if __name__ == "__main__":` guard would start its run again in
    every worker, which then died. A worker needs nothing of it: it is sent the game's module
    name, the rules, and the Python strategies' files."""
    main = sys.modules["__main__"]
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


@contextlib.contextmanager
def sigint_ignored() -> Iterator[None]:
    """Makes processes started meanwhile ignore Ctrl-C: it interrupts this process alone, which
    stops them itself."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may change signal handlers
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
