"""How long a Python strategy may think about one move (`--bot-timeout`).

The limit reaches every process that plays Python bots through the environment, as the
worker processes and a local Dask cluster inherit it. Where the move runs in the main thread
(this process, local workers) a bot that overruns is stopped by SIGALRM; elsewhere (a Dask
worker's thread) it is caught when its move returns.

A bot may catch what stops it (a bare `except:`, `except BaseException` in a retry loop): the
timeout, or the user's Ctrl-C. What it caught is raised again as its move returns; a move that
runs on for GRACE seconds after is ended with its process (`hard_stop`), in one line.
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import sys
import threading
import time
from typing import Callable, Iterator

from sim.errors import UserError

DEFAULT = 10.0  # seconds: far beyond any sane bot's move, short enough to notice a hung one
SHORTEST = 0.01  # seconds: the alarm rings ten times a limit; more often, it is all it does
GRACE = 1.0  # seconds a move that caught what stopped it may run on before its process ends
VARIABLE = "SIMULATE_BOT_TIMEOUT"


class MoveTimeout(BaseException):
    """A bot's move took longer than the limit (a BaseException: a bot's `except Exception`
    must not swallow it)."""


def check(seconds: float) -> None:
    """Raises UserError unless `seconds` is a per-move limit (0: none, else SHORTEST or more)."""
    if not (math.isfinite(seconds) and (seconds == 0 or seconds >= SHORTEST)):
        raise UserError(f"--bot-timeout takes seconds, {SHORTEST:g} or more (0: no limit), got "
                        f"{seconds:g}")


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
    `with clock:` around it, or, where it lasts microseconds, by setting `clock.move` to a new
    object as it starts and calling `clock.ended()` as it ends (see PythonSeat.pick)."""
    if limit and threading.current_thread() is threading.main_thread():
        _WATCHED.watch(limit)
        return _WATCHED
    return _Timed(limit)


class _Watched:
    """The main thread's clock. Nothing is timed as a move starts: an alarm that rings ten
    times a limit looks at the move running (`move`), and stops one it has seen running
    through a whole limit. A move is so stopped between its limit and a tenth later.

    What stopped a move (MoveTimeout, or the user's Interruption: `stop_move`) is `pending`
    until the move ends, raised again then if the bot caught it; a move that runs on GRACE
    seconds after it was stopped ends the process (`hard_stop`)."""

    __slots__ = ("move", "limit", "seen", "since", "pending", "stopped")

    def __init__(self):
        self.move = self.seen = self.pending = None
        self.limit = self.since = self.stopped = 0.0

    def watch(self, limit: float) -> None:
        """Rings the alarm for moves of `limit` seconds, unless it rings for them already."""
        global _ringing
        if not _handled:
            _handle()
        if not _ringing or limit != self.limit:
            self.limit = limit
            signal.setitimer(signal.ITIMER_REAL, limit / 10, limit / 10)
            _ringing = True

    def ring(self, frame) -> None:
        """The alarm: stops the move running if it has been seen running for the limit, and
        ends the process if a move stopped GRACE seconds ago runs on (`frame`: where the main
        thread is)."""
        now = time.monotonic()
        if self.pending is not None:
            if self.move is not None and now - self.stopped >= GRACE:
                hard_stop(self.pending, frame)
        elif self.move is not self.seen:  # a move began, ended, or was paused since last time
            self.seen, self.since = self.move, now
        elif self.move is not None and now - self.since >= self.limit:
            self.seen = None
            self.stop(MoveTimeout())

    def stop(self, error: BaseException) -> None:
        """Raises `error` in the move running, and keeps it until the move ends."""
        self.pending, self.stopped = error, time.monotonic()
        raise error

    def ended(self) -> None:
        """The move running has ended: raises what stopped it, if the bot caught that."""
        self.move = None
        if self.pending is not None:
            raise self.pending

    def __enter__(self) -> None:
        self.move = object()

    def __exit__(self, kind, error, trace) -> None:
        if kind is None:
            self.ended()
        self.move = None


class _Timed:
    """A clock that times each move as it ends (a thread's other than the main one: signals
    reach the main thread only; or no limit)."""

    __slots__ = ("limit", "started")
    pending = None  # nothing stops a move here as it runs

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

    def ended(self) -> None:
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
    signal.signal(signal.SIGALRM, lambda signum, frame: _WATCHED.ring(frame))
    _handled = True


def _forked() -> None:
    global _ringing
    _ringing, _WATCHED.move, _WATCHED.pending = False, None, None  # a child inherits no alarm


os.register_at_fork(after_in_child=_forked)


def rest() -> None:
    """Stops the alarm: called as each game with Python bots ends (or fails), so that it rings
    no more in code that does not expect signals (polars' writers, a worker's pipe)."""
    global _ringing
    _WATCHED.move = _WATCHED.pending = None
    if _ringing:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _ringing = False


def stop_move(error: BaseException, signum: int) -> None:
    """Raises `error` (the user's Interruption, from the handler of signal `signum`) where the
    main thread is: when a bot's move is running, it is kept until the move ends (the bot may
    catch it), and the alarm rings to end the process GRACE seconds on; a second one while a
    move holds the first ends the process now."""
    global _ringing
    error.signum = signum
    if _WATCHED.move is None:
        raise error
    if isinstance(_WATCHED.pending, type(error)):
        hard_stop(error, None)
    if not _handled:
        _handle()
    signal.setitimer(signal.ITIMER_REAL, GRACE / 4, GRACE / 4)
    _ringing = True
    _WATCHED.stop(error)


HardStop = Callable[[str, int], None]


def _last_words(line: str, code: int) -> None:
    os.write(2, line.encode() + b"\n")


last_words: HardStop = _last_words
"""Says why the process ends (`hard_stop`): on stderr; a worker process sends it to its parent."""


def hard_stop(error: BaseException, frame) -> None:
    """Ends this process at once, as a bot that caught `error` (MoveTimeout, the user's
    Interruption) runs on: one line by `last_words`, and exit 2 (a timeout) or 128 + the
    signal (`error.signum`, else SIGINT's). `frame`: where the main thread is (None: unknown),
    to name the bot."""
    if isinstance(error, MoveTimeout):
        seat = _seat_in(frame)
        named = f"strategy {seat.label} (seat {seat.seat}) in game {seat.game}" if seat else \
            "a Python strategy"
        _end(f"error: {named} went on after its move was stopped at the --bot-timeout limit "
             "(does it catch BaseException, or use a bare except?); ended the process", 2)
    _end("interrupted (a Python strategy went on after its move was stopped: ended at once)",
         128 + getattr(error, "signum", signal.SIGINT))


Amend = Callable[[str, bool], str]
_amends: list[Amend] = []


@contextlib.contextmanager
def before_hard_stop(amend: Amend) -> Iterator[None]:
    """Meanwhile, a process about to end at once (`hard_stop`, a bot's os._exit) first calls
    `amend(line, interrupted)`, which gives its last line: `line` (why it ends), or more. So a
    run's folder is left as an interruption leaves it, and the line says what became of it
    (`interrupted`: the user's signal ends it, not an error). The latest set is called first."""
    _amends.append(amend)
    try:
        yield
    finally:
        _amends.remove(amend)


def _end(line: str, code: int) -> None:
    """Ends this process at once with exit `code`, saying `line` as the amends set meanwhile
    (`before_hard_stop`) give it."""
    rest()  # the alarm would end the process again inside an amend
    for amend in reversed(_amends):
        try:
            line = amend(line, code > 128)
        except BaseException:  # noqa: BLE001 - the process ends regardless (a second Ctrl-C too)
            pass
    last_words(line, code)
    _exit(code)


_exit = os._exit


def _exit_said(code: int) -> None:
    """os._exit, where a Python bot may play: a bot's move calling it ends the process with one
    line naming the bot (`last_words`), and exit code 2."""
    seat = _seat_in(sys._getframe(1))
    if seat is not None:
        _end(f"error: strategy {seat.label} (seat {seat.seat}) ended the process in game "
             f"{seat.game}: it called os._exit({code})", 2)
    _exit(code)


def guard_exit() -> None:
    """Makes os._exit in a Python bot's move say which bot it was (this process, for good: set
    as the first bot file is loaded)."""
    os._exit = _exit_said


def _seat_in(frame):
    """Gives the Python seat (strategies.python_bots.PythonSeat) whose move `frame` is in, or
    None: the `self` of the nearest frame that times a move with this clock."""
    while frame is not None:
        seat = frame.f_locals.get("self")
        if getattr(seat, "clock", None) is _WATCHED:
            return seat
        frame = frame.f_back
    return None
