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


@contextlib.contextmanager
def one_move(limit: float) -> Iterator[None]:
    """Raises MoveTimeout in the block once it has run `limit` seconds (0: never)."""
    if not limit:
        yield
        return
    if threading.current_thread() is not threading.main_thread():
        started = time.monotonic()
        yield  # signals reach the main thread only: judged when the move returns
        if time.monotonic() - started > limit:
            raise MoveTimeout
        return
    global _armed
    if not _armed:
        # Set once per process and left: setting a handler costs more than a fast bot's move,
        # and the alarm rings only while a move runs.
        signal.signal(signal.SIGALRM, _overrun)
        _armed = True
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


_armed = False


def _overrun(signum, frame) -> None:
    raise MoveTimeout
