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


def one_move(limit: float) -> _Watched | _Timed:
    """Gives the clock of a seat's moves, made in the thread that runs them: MoveTimeout is
    raised in a move once it has run `limit` seconds (0: never). A move is timed by
    `with clock:` around it, or, where it lasts microseconds, by setting `clock.move` to an
    object as it starts and to None as it ends (see PythonSeat.pick)."""
    if limit and threading.current_thread() is threading.main_thread():
        _WATCHED.watch(limit)
        return _WATCHED
    return _Timed(limit)


class _Watched:
    """The main thread's clock. Nothing is timed as a move starts: an alarm that rings ten
    times a limit looks at the move running (`move`), and stops one it has seen running
    through a whole limit. A move is so stopped between its limit and a tenth later."""

    __slots__ = ("move", "limit", "seen", "since")

    def __init__(self):
        self.move = self.seen = None
        self.limit = self.since = 0.0

    def watch(self, limit: float) -> None:
        """Rings the alarm for moves of `limit` seconds, unless it rings for them already."""
        global _ringing
        if not _handled:
            _handle()
        if not _ringing or limit != self.limit:
            self.limit = limit
            signal.setitimer(signal.ITIMER_REAL, limit / 10, limit / 10)
            _ringing = True

    def ring(self) -> None:
        """The alarm: stops the move running if it has been seen running for the limit."""
        now = time.monotonic()
        if self.move is not self.seen:  # a move began, ended, or was paused since last time
            self.seen, self.since = self.move, now
        elif self.move is not None and now - self.since >= self.limit:
            self.seen = None
            raise MoveTimeout

    def __enter__(self) -> None:
        self.move = object()

    def __exit__(self, kind, error, trace) -> None:
        self.move = None


class _Timed:
    """A clock that times each move as it ends (a thread's other than the main one: signals
    reach the main thread only; or no limit)."""

    __slots__ = ("limit", "started")

    def __init__(self, limit: float):
        self.limit, self.started = limit, 0.0

    @property
    def move(self) -> None:
        return None

    @move.setter
    def move(self, running) -> None:
        if not self.limit:
            return
        if running is not None:
            self.started = time.monotonic()
        elif time.monotonic() - self.started > self.limit:
            raise MoveTimeout

    def __enter__(self) -> None:
        self.move = True

    def __exit__(self, kind, error, trace) -> None:
        if error is None:
            self.move = None


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """Stops the clock of the move running in the main thread meanwhile: the tool's own work
    inside a bot's move (compiling a built-in bot the bot asked about) is not the bot's time.
    The move's clock starts again after: it is given its whole limit anew."""
    held = _WATCHED.move
    _WATCHED.move = None  # an alarm ringing now finds no move to stop
    try:
        yield
    finally:
        _WATCHED.move = held if held is None else object()  # seen as a new move


_WATCHED = _Watched()
_ringing = False  # the alarm is set in this process
_handled = False


def _handle() -> None:
    # Set once per process and left: setting a handler costs more than a fast bot's move.
    global _handled
    signal.signal(signal.SIGALRM, lambda signum, frame: _WATCHED.ring())
    _handled = True


def _forked() -> None:
    global _ringing
    _ringing, _WATCHED.move = False, None  # a child process inherits no alarm


os.register_at_fork(after_in_child=_forked)


def rest() -> None:
    """Stops the alarm: called as each game with Python bots ends (or fails), so that it rings
    no more in code that does not expect signals (polars' writers, a worker's pipe)."""
    global _ringing
    _WATCHED.move = None
    if _ringing:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _ringing = False
