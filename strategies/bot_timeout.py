"""How long a Python strategy may think about one move (`--bot-timeout`).

The limit reaches every process that plays Python bots through the environment, as the
worker processes and a local Dask cluster inherit it. Where the move runs in the main thread
(this process, local workers) a bot that overruns is stopped by SIGALRM; elsewhere (a Dask
worker's thread) it is caught when its move returns.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
from typing import Iterator

from sim.errors import UserError

DEFAULT = 10.0  # seconds: far beyond any sane bot's move, short enough to notice a hung one
VARIABLE = "SIMULATE_BOT_TIMEOUT"


class MoveTimeout(BaseException):
    """A bot's move took longer than the limit (a BaseException: a bot's `except Exception`
    must not swallow it)."""


def check(seconds: float) -> None:
    """Raises UserError unless `seconds` is a per-move limit (0 or more; 0: none)."""
    if not (math.isfinite(seconds) and seconds >= 0):
        raise UserError(f"--bot-timeout takes seconds, 0 or more (0: no limit), got {seconds}")


@contextlib.contextmanager
def limit_for_run(seconds: float) -> Iterator[None]:
    """Sets the per-move limit of the Python bots played meanwhile, here and in the processes
    started meanwhile; UserError for a limit `check` refuses."""
    check(seconds)
    before = os.environ.get(VARIABLE)
    os.environ[VARIABLE] = repr(seconds)
    try:
        yield
    finally:
        if before is None:
            del os.environ[VARIABLE]
        else:
            os.environ[VARIABLE] = before


def seconds() -> float:
    """Gives the per-move limit in force (0: none)."""
    try:
        return float(os.environ.get(VARIABLE, DEFAULT))
    except ValueError:
        return DEFAULT


class one_move:
    """Raises MoveTimeout in the block once it has run `limit` seconds (0: never); made in
    the thread that runs the block, and used again for each move of a seat.

    A fast bot's move takes microseconds, a system call to set the alarm about as long: the
    alarm is set only when none is pending, and when it rings it is set again for the move
    then running, if that move has time left (see `_overrun`)."""

    __slots__ = ("limit", "started", "main")

    def __init__(self, limit: float):
        self.limit = limit
        self.main = threading.current_thread() is threading.main_thread()

    def __enter__(self) -> None:
        global _move, _ringing
        if not self.limit:
            return
        self.started = time.monotonic()
        if not self.main:
            return  # signals reach the main thread only: judged when the move returns
        if not _handled:
            _handle()
        _move = (self.started, self.limit)
        if not _ringing:
            signal.setitimer(signal.ITIMER_REAL, self.limit)
            _ringing = True

    def __exit__(self, kind, error, trace) -> None:
        global _move
        if not self.limit:
            return
        if not self.main:
            if error is None and time.monotonic() - self.started > self.limit:
                raise MoveTimeout
            return
        _move = None


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Stops the clock of the move running in the main thread meanwhile: the tool's own work
    inside a bot's move (compiling a built-in bot the bot asked about) is not the bot's time."""
    global _move, _ringing
    held, began = _move, time.monotonic()
    _move = None  # an alarm ringing now finds no move to stop
    try:
        yield
    finally:
        if held is not None:
            _move = (held[0] + time.monotonic() - began, held[1])
            if not _ringing:  # it rang meanwhile: set again for the move's time left
                signal.setitimer(signal.ITIMER_REAL,
                                 max(1e-3, _move[0] + _move[1] - time.monotonic()))
                _ringing = True


_move: tuple[float, float] | None = None  # the move running in the main thread: (start, limit)
_ringing = False  # an alarm is pending in this process
_handled = False


def _handle() -> None:
    # Set once per process and left: setting a handler costs more than a fast bot's move.
    global _handled
    signal.signal(signal.SIGALRM, _overrun)
    _handled = True


def _forked() -> None:
    global _ringing, _move
    _ringing, _move = False, None  # a child process inherits no pending alarm


os.register_at_fork(after_in_child=_forked)


def rest() -> None:
    """Cancels a pending alarm: called as each game with Python bots ends, so that none rings
    later in code that does not expect signals (polars' writers, a worker's pipe)."""
    global _ringing
    if _ringing:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _ringing = False


def _overrun(signum, frame) -> None:
    """Raises MoveTimeout in a move that has run its limit; sets the alarm again for the rest
    of a move still within it; between moves, does nothing (the next move sets it)."""
    global _ringing
    _ringing = False
    if _move is None:
        return
    started, limit = _move
    left = started + limit - time.monotonic()
    if left > 0:
        signal.setitimer(signal.ITIMER_REAL, left)
        _ringing = True
        return
    raise MoveTimeout
