"""How engines are compiled: numba, cached on disk, without reference counting.

Engine state is a named tuple of numpy arrays allocated in Python. With numba's reference
counting on, every read of a tuple field inside a branch, and every call taking the tuple,
costs two atomic operations per array in it (about 0.3 us for a 27-array state): most of the
run time. Engine functions therefore never allocate arrays; they only read and write the
arrays they are given, and are compiled with `_nrt=False`.
"""

import hashlib
import os
from pathlib import Path

from numba import config, njit, typeof
from numpy import ndarray

SOURCES = ("sim", "strategies")
"""The packages jitted code is built from."""


def cache_folder() -> str:
    """Gives the folder numba caches compiled engines in: one per state of the engines' source.

    numba checks a cached function against its own file only, so after a change to a function
    it calls in another module (an engine rule inlined into a play loop) it would load the
    stale compiled loop: edited or pulled code would silently play the old rules. A folder
    named after a hash of every module of `SOURCES` starts a fresh cache on any change.
    NUMBA_CACHE_DIR, when set, is where these folders go."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in SOURCES:
        for file in sorted((root / package).rglob("*.py")):
            digest.update(file.relative_to(root).as_posix().encode() + b"\0" + file.read_bytes())
    base = os.environ.get("NUMBA_CACHE_DIR") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tabletop-balance"
    return str(Path(base) / f"numba-{digest.hexdigest()[:16]}")


config.CACHE_DIR = cache_folder()  # read by numba when a function below is decorated

rule = njit(cache=True, _nrt=False)
"""Decorates a jitted engine function."""

small_rule = njit(cache=True, _nrt=False, inline="always")
"""Decorates a small jitted helper that hot loops call often (inlined where it is called)."""


def direct(function, *args):
    """Gives `function`'s compiled code for arguments of the types of `args`, to be called with
    arguments of exactly those types, without numba's typing of every argument on every call.

    A Python driver calls engine rules once per move: numba types the 30 arrays of the state
    at each call, which costs about five times what a small rule does. The code is looked up
    once per state (arrays and tuples by identity, kept alive meanwhile; scalars by type)."""
    key = (function, *(id(a) if isinstance(a, (tuple, ndarray)) else type(a) for a in args))
    found = _direct.get(key)
    if found is None:
        if len(_direct) >= 512:  # states of finished chunks
            _direct.clear()
        found = _direct[key] = (args, function.compile(tuple(typeof(a) for a in args)))
    return found[1]


_direct: dict = {}
