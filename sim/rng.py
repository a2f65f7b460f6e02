"""Stateless, seedable random streams for jitted engines (splitmix64).

A stream is a one-element uint64 array (allocated by the caller: engines do not allocate). Every game derives its streams from
(run seed, game index, stream id) alone, so a game never depends on the worker
count, the chunking, or what another stream consumed. Numba's global RNG is never used.
"""

import numpy as np

from sim.jit import rule, small_rule

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@small_rule
def _mix(z):
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@small_rule
def start(stream, seed, game, stream_id):
    """Starts `stream` afresh for one purpose (a round's deal, a seat's bot, ...) of one game."""
    z = _mix(np.uint64(seed) + _GOLDEN)
    z = _mix(z ^ (np.uint64(game) * _GOLDEN + np.uint64(0x632BE59BD9B4E019)))
    stream[0] = _mix(z ^ (np.uint64(stream_id) * _M2 + _GOLDEN))


@small_rule
def next_u64(rng):
    """Gives the next 64 random bits of a stream and advances it."""
    rng[0] += _GOLDEN
    return _mix(rng[0])


# The same in Python's own integers, for Python code's streams.
_U64 = (1 << 64) - 1
_GOLDEN_INT, _M1_INT, _M2_INT = int(_GOLDEN), int(_M1), int(_M2)


def _mix_int(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1_INT) & _U64
    z = ((z ^ (z >> 27)) * _M2_INT) & _U64
    return z ^ (z >> 31)


def first_u64(seed: int, game: int, stream_id: int) -> int:
    """Gives the first next_u64 of a stream `start`ed for (seed, game, stream_id), in Python's
    own integers: what seeds Python code's random streams (numba's dispatch of the two rules
    from Python cost about 50 µs a stream, more than a No Thanks! game's turns)."""
    z = _mix_int((seed + _GOLDEN_INT) & _U64)
    z = _mix_int(z ^ ((game * _GOLDEN_INT + 0x632BE59BD9B4E019) & _U64))
    z = _mix_int(z ^ ((stream_id * _M2_INT + _GOLDEN_INT) & _U64))
    return _mix_int((z + _GOLDEN_INT) & _U64)


@small_rule
def below(rng, n):
    """Gives a uniform integer in [0, n) (n < 2**32)."""
    return np.int64(((next_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@small_rule
def uniform(rng):
    """Gives a uniform float in [0, 1)."""
    return (next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@rule
def shuffle(rng, a):
    """Shuffles a 1-D array in place (Fisher-Yates)."""
    for i in range(a.shape[0] - 1, 0, -1):
        j = below(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
