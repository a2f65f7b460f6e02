"""How engines are compiled: numba, cached on disk, without reference counting.

Engine state is a named tuple of numpy arrays allocated in Python. With numba's reference
counting on, every read of a tuple field inside a branch, and every call taking the tuple,
costs two atomic operations per array in it (about 0.3 us for a 27-array state): most of the
run time. Engine functions therefore never allocate arrays; they only read and write the
arrays they are given, and are compiled with `_nrt=False`.
"""

from numba import njit

rule = njit(cache=True, _nrt=False)
"""Decorates a jitted engine function."""

small_rule = njit(cache=True, _nrt=False, inline="always")
"""Decorates a small jitted helper that hot loops call often (inlined where it is called)."""
