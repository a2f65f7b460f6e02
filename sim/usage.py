"""What the seats used: per seat, how often each kind of action (the names `--forbid` takes) was
played in a game, counted by the play loops and written as the seats table's `uses_<kind>`.

A game's `use_of(...)` (next to its forbid masks) classifies a move as a bit set of kinds, bit k
for kind k of its kind names: one move may be of several kinds (a dead-end path card is also a
path card; a warp is also a move). `tally` adds a move's kinds to the counts of a game and seat.
Deep Space's engine counts them itself as it applies a move (its State.uses, copied as a game
ends): classified again beside each move, they cost its play loop a tenth of its speed.
"""

import numpy as np

from sim.game import Column
from sim.jit import small_rule

PREFIX = "uses_"


@small_rule
def tally(uses, row, seat, kinds):
    """Adds one use of each kind whose bit is set in `kinds` to uses[row, seat]."""
    k = 0
    while kinds:
        if kinds & 1:
            uses[row, seat, k] += 1
        kinds >>= 1
        k += 1


def new_counts(games: int, players: int, kinds: int) -> np.ndarray:
    """Gives zeroed use counts: int64[games, players, kinds]."""
    return np.zeros((games, players, kinds), np.int64)


def names(kinds) -> list[str]:
    """Gives the use columns' names for these kinds."""
    return [PREFIX + kind for kind in kinds]


def columns(uses: np.ndarray, names) -> dict[str, np.ndarray]:
    """Gives the seats table's use columns, `uses_<kind>` in the order of `names`, one row per
    game and seat (games outer, seats inner, as the seats tables are built)."""
    return {PREFIX + name: uses[:, :, k].ravel().astype(np.int16) for k, name in enumerate(names)}


def described(names) -> tuple[Column, ...]:
    """Gives the Columns that document a game's use columns, one per kind."""
    return tuple(Column(PREFIX + name, f"moves of kind {name} the seat made in the game (the "
                                       "names --forbid takes; a move of two kinds, e.g. a dead "
                                       "end is also a path, counts in both)")
                 for name in names)


def kinds_of(table_columns) -> list[str]:
    """Gives the kinds a seats table counts, from its column names, in their order."""
    return [c[len(PREFIX):] for c in table_columns if c.startswith(PREFIX)]
