"""How far each seat (or team) is from winning through a game: the progress a game declares
(sim.game.Progress), sampled by its play loops and written as the `progress` table.

A play loop makes one call per move, `step(rec, s, rs, side)`, and one when the game is over,
`finish(rec, s, rs, row)`. The recorder keeps a fixed buffer of SLOTS samples: a sample is taken
every `stride` moves (slot i holds the progress after i * stride moves); when the buffer is full
every other sample is dropped and the stride doubles. So a game of n moves costs at most
SLOTS + SLOTS / 2 * ceil(log2(n / SLOTS)) + 1 evaluations of its progress (58 at 100 moves, 113
at 1,000),
and nothing is allocated while it plays. At the end the samples are read at 0%, 10%, ..., 100%
of the game's moves, and at 25% and 75% (PERCENTS: the report's quartiles): at each point the
last sample taken at or before it (at most a sixteenth of the game earlier), at 100% the
finished game.

A game plugs in by registering its measure under its State class (`register`): measure(s, rs,
values) writes each side's progress into values (float64[sides]; higher is closer to winning).
numba resolves it from the state's type when it compiles the loop (numba.extending.overload), so
the loop caches like any rule (sim/games/spit/loop.py says why not a function argument).
"""

from collections import namedtuple

import numpy as np
import polars as pl
from numba.extending import overload

from sim.jit import rule, small_rule

SLOTS = 32
PERCENTS = (0, 10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 100)  # of a game's moves
POINTS = len(PERCENTS)
MOVES, COUNT, STRIDE = range(3)  # indices of Recorder.meta

Recorder = namedtuple("Recorder", [
    "values",     # float64[games, POINTS, sides]: each side's progress at each point
    "moves",      # int64[games, POINTS]: the moves played when that point's sample was taken
    "decisions",  # int64[games, POINTS, sides]: the side's decisions (moves) made by then
    "samples",    # float64[SLOTS + 1, sides]: this game's samples (the last row: its end)
    "taken",      # int64[SLOTS + 1, sides]: the decisions made when each sample was taken
    "running",    # int64[sides]: the decisions made so far this game
    "meta",       # int64[3]: moves played this game, samples held, stride
])

_MEASURES = {}


def new(games: int, sides: int) -> Recorder:
    """Gives an empty recorder for `games` games of `sides` seats or teams."""
    return Recorder(values=np.zeros((games, POINTS, sides)),
                    moves=np.zeros((games, POINTS), np.int64),
                    decisions=np.zeros((games, POINTS, sides), np.int64),
                    samples=np.zeros((SLOTS + 1, sides)), taken=np.zeros((SLOTS + 1, sides),
                                                                         np.int64),
                    running=np.zeros(sides, np.int64), meta=np.array([0, 0, 1], np.int64))


def register(state_class, measure) -> None:
    """Makes `measure(s, rs, values)` the progress of games whose state is a `state_class`."""
    _MEASURES[state_class] = measure


def measure(s, rs, values):
    """Writes each side's progress in the game `s` into values (the registered measure)."""
    return _MEASURES[type(s)](s, rs, values)


@overload(measure, inline="always", jit_options={"_nrt": False})
def _measure(s, rs, values):
    f = _MEASURES[s.instance_class]
    return lambda s, rs, values: f(s, rs, values)


@small_rule
def step(rec, s, rs, side):
    """Counts a move `side` is about to make (side < 0: nobody's decision), sampling the
    progress first when this move is the next one due."""
    meta = rec.meta
    count = meta[COUNT]
    if meta[MOVES] == count * meta[STRIDE]:
        _take(rec, s, rs, count)
        count += 1
        meta[COUNT] = count
        if count == SLOTS:
            halve(rec)
    meta[MOVES] += 1
    if side >= 0:
        rec.running[side] += 1


@rule
def _take(rec, s, rs, slot):
    """Samples the progress and the decisions made into buffer row `slot`."""
    measure(s, rs, rec.samples[slot])
    for side in range(rec.running.shape[0]):  # loops: a slice copy would allocate (no NRT)
        rec.taken[slot, side] = rec.running[side]


@rule
def finish(rec, s, rs, row):
    """Writes the finished game's progress at each point into row `row`, and empties the
    buffer for the next game."""
    _take(rec, s, rs, SLOTS)
    read_points(rec, row)


@rule
def halve(rec):
    """Keeps every other sample of a full buffer and doubles the stride."""
    for k in range(SLOTS // 2):
        for side in range(rec.running.shape[0]):
            rec.samples[k, side] = rec.samples[2 * k, side]
            rec.taken[k, side] = rec.taken[2 * k, side]
    rec.meta[COUNT] = SLOTS // 2
    rec.meta[STRIDE] *= 2


@rule
def read_points(rec, row):
    """Writes the finished game's samples at each point into row `row` (at each point the last
    sample taken at or before it; at the last, the end's, in buffer row SLOTS) and empties the
    buffer for the next game."""
    meta = rec.meta
    count, stride, total = meta[COUNT], meta[STRIDE], meta[MOVES]
    for point in range(POINTS):
        slot = min((PERCENTS[point] * total // 100) // stride, count - 1)
        if point == POINTS - 1 or slot < 0:
            slot = SLOTS
        for side in range(rec.running.shape[0]):
            rec.values[row, point, side] = rec.samples[slot, side]
            rec.decisions[row, point, side] = rec.taken[slot, side]
        rec.moves[row, point] = total if slot == SLOTS else slot * stride
    meta[MOVES], meta[COUNT], meta[STRIDE] = 0, 0, 1
    for side in range(rec.running.shape[0]):
        rec.running[side] = 0


class Sampler:
    """The recorder of a game played in plain Python (the simple level): the same samples, by
    the same rule, of `progress(state)` (a number per seat)."""

    def __init__(self, rec: Recorder, progress):
        self.rec, self.progress = rec, progress

    def step(self, state, side: int) -> None:
        """Counts a move `side` is about to make, sampling first when it is due (as `step`)."""
        rec, meta = self.rec, self.rec.meta
        if meta[MOVES] == meta[COUNT] * meta[STRIDE]:
            self._take(state, meta[COUNT])
            meta[COUNT] += 1
            if meta[COUNT] == SLOTS:
                halve(rec)
        meta[MOVES] += 1
        rec.running[side] += 1

    def _take(self, state, slot: int) -> None:
        self.rec.samples[slot] = self.progress(state)
        self.rec.taken[slot] = self.rec.running

    def finish(self, state, row: int) -> None:
        """Writes the finished game's points into row `row` and starts afresh (as `finish`)."""
        self._take(state, SLOTS)
        read_points(self.rec, row)


def table(rec: Recorder, ids: np.ndarray, players: int, name: str, sides: np.ndarray
          ) -> pl.DataFrame:
    """Gives the progress table of a chunk of games: one row per game, point (the percent of
    its moves played) and side (column `name`, holding `sides`, one value per side)."""
    n, width = ids.shape[0], len(sides)
    # numpy throughout: at a few microseconds a game (Speed), building the table is the
    # recording's largest cost
    return pl.DataFrame({
        "game_id": np.repeat(ids, POINTS * width),
        "players": np.full(n * POINTS * width, players, np.int8),
        "point": np.tile(np.repeat(np.array(PERCENTS, np.int8), width), n),
        "moves": np.repeat(rec.moves.astype(np.int32).ravel(), width),
        # names (teams) by index: polars reads an array of numpy strings ten times slower
        name: (np.tile(sides, n * POINTS) if sides.dtype.kind in "iu" else
               pl.Series(sides.tolist()).gather(np.tile(np.arange(width), n * POINTS))),
        "value": rec.values.ravel(),
        "decisions": rec.decisions.astype(np.int32).ravel(),
    })


def seat_table(rec: Recorder, ids: np.ndarray, players: int) -> pl.DataFrame:
    """Gives the progress table of a chunk of games recorded per seat."""
    return table(rec, ids, players, "seat", np.arange(players, dtype=np.int8))
