"""The discrete-event clock of real-time games (Spit, Speed): who acts when.

There are no turns. Each seat has at most one planned move at a time. When a seat has no plan
and can move, its bot chooses *which* move and the seat's reaction-time model decides *when*: the
move is due at now + a reaction time drawn from the seat's own stream. The earliest due move
lands next (equal times: a seeded coin); the engine re-checks it against the table as it is
then, and plays or drops it. A seat whose move landed or was dropped plans afresh from that
moment; the other seat's plan keeps its due time (it started reacting earlier).

Reaction times are lognormal, with mu = ln(mean) - sigma**2 / 2 so that the mean reaction
time is `mean` seconds. They are drawn by inverse transform from a table of the distribution's
quantiles (interpolated linearly, scaled so the mean is exact): one uniform draw and no
logarithms or exponentials per move, which matters at hundreds of moves a game. The table spans
the central 1 - 1/QUANTILES of the distribution; the rarer extremes are clipped to its ends.
"""

import math
from collections import namedtuple
from statistics import NormalDist

import numpy as np

from sim import rng
from sim.jit import small_rule

TIME_STREAM, COIN_STREAM = 300, 400
PLAN_FIELDS = 3  # a planned move: (kind, a, b); its meaning is the game's
DROPPED, PLAYED, OUT, CAPPED = 0, 1, 2, 3  # what landing a planned move did (the seat went OUT:
# it has played its last card; CAPPED: the game hit its move cap)
QUANTILES = 4096

Clock = namedtuple("Clock", [
    "now",       # float64[1]: simulated seconds since the game began
    "due",       # float64[2]: when each seat's planned move lands
    "pending",   # int64[2]: 1 while a seat has a planned move
    "plan",      # int64[2, PLAN_FIELDS]: each seat's planned move
    "reaction",  # float64[2, QUANTILES]: per seat, quantiles of its reaction time (seconds)
    "time_rng",  # uint64[2, 1]: each seat's reaction-time stream
    "coin_rng",  # uint64[1]: the stream that breaks equal times
])


CLOCK_FIELDS = tuple(f"clock_{name}" for name in Clock._fields)
"""The fields of a real-time game's State that hold its clock's arrays (the same arrays: a bot
given the state sees the race as it stands, and a search bot plays it on)."""


def clock_fields(clock: Clock) -> dict:
    """Gives a State's CLOCK_FIELDS holding the arrays of `clock`."""
    return dict(zip(CLOCK_FIELDS, clock))


@small_rule
def clock_of(s):
    """Gives the clock whose arrays the state `s` holds (CLOCK_FIELDS)."""
    return Clock(s.clock_now, s.clock_due, s.clock_pending, s.clock_plan, s.clock_reaction,
                 s.clock_time_rng, s.clock_coin_rng)


def seed_bits(seed: int) -> int:
    """Gives a run seed (0 to 2**64-1) as the int64 with the same 64 bits: engines always take
    an int64 seed (one compiled signature; the streams see the same bits)."""
    return seed - (1 << 64) if seed >= 1 << 63 else seed


def new_clock(quantiles: np.ndarray) -> Clock:
    """Gives a clock for two seats whose reaction times have these quantile tables."""
    return Clock(now=np.zeros(1), due=np.zeros(2), pending=np.zeros(2, np.int64),
                 plan=np.zeros((2, PLAN_FIELDS), np.int64),
                 reaction=np.ascontiguousarray(quantiles, np.float64),
                 time_rng=np.zeros((2, 1), np.uint64), coin_rng=np.zeros(1, np.uint64))


def quantile_tables(means, spreads) -> np.ndarray:
    """Gives per seat the table of lognormal reaction-time quantiles with this mean (seconds)
    and spread (sigma of log-seconds), scaled so that an interpolated draw's mean is exact."""
    z = np.array([NormalDist().inv_cdf((i + 0.5) / QUANTILES) for i in range(QUANTILES)])
    tables = []
    for mean, sigma in zip(means, spreads):
        q = np.exp(math.log(mean) - sigma * sigma / 2 + sigma * z)
        drawn_mean = (q[:-1] + q[1:]).sum() / (2 * (QUANTILES - 1))
        tables.append(q * (mean / drawn_mean))
    return np.array(tables)


@small_rule
def start_clock(c, seed, game):
    """Sets the clock of game `game` to 0 with nothing planned, and starts its streams."""
    c.now[0] = 0.0
    c.pending[0] = 0
    c.pending[1] = 0
    for seat in range(2):
        rng.start(c.time_rng[seat], seed, game, TIME_STREAM + seat)
    rng.start(c.coin_rng, seed, game, COIN_STREAM)


@small_rule
def restart_streams(c, r):
    """Restarts both seats' reaction-time streams and the coin at points drawn from stream `r`."""
    c.time_rng[0, 0] = rng.next_u64(r)
    c.time_rng[1, 0] = rng.next_u64(r)
    c.coin_rng[0] = rng.next_u64(r)


@small_rule
def reaction_time(c, seat):
    """Gives a reaction time of `seat` in seconds, drawn from its own stream."""
    x = rng.uniform(c.time_rng[seat]) * (QUANTILES - 1)
    i = int(x)
    q = c.reaction
    return q[seat, i] + (x - i) * (q[seat, i + 1] - q[seat, i])


@small_rule
def schedule(c, seat):
    """Makes `seat`'s planned move (already in c.plan[seat]) due after a reaction time."""
    c.due[seat] = c.now[0] + reaction_time(c, seat)
    c.pending[seat] = 1


@small_rule
def next_due(c):
    """Gives the seat whose planned move lands first (-1: nobody has one) and moves the clock
    to it; equal times are broken by a seeded coin."""
    pending, due = c.pending, c.due
    if pending[0] and pending[1]:
        if due[0] < due[1]:
            seat = 0
        elif due[1] < due[0]:
            seat = 1
        else:
            seat = rng.below(c.coin_rng, 2)
    elif pending[0]:
        seat = 0
    elif pending[1]:
        seat = 1
    else:
        return -1
    pending[seat] = 0
    c.now[0] = due[seat]
    return seat


@small_rule
def drop_plans(c):
    """Forgets both seats' planned moves (the table was reset under them)."""
    c.pending[0] = 0
    c.pending[1] = 0


@small_rule
def both_react(c):
    """Moves the clock on until both seats have reacted (e.g. to a stall, before spitting)."""
    c.now[0] += max(reaction_time(c, 0), reaction_time(c, 1))


@small_rule
def race(c):
    """Gives the seat that reacts first when both race for the same thing (e.g. a slap), and
    moves the clock on to that moment; equal times are broken by a seeded coin."""
    t0 = reaction_time(c, 0)
    t1 = reaction_time(c, 1)
    seat = 0 if t0 < t1 else 1 if t1 < t0 else rng.below(c.coin_rng, 2)
    c.now[0] += min(t0, t1)
    return seat
