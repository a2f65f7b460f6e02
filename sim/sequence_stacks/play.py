"""Playing whole Sequence Stacks games: the jitted loop for many games, a Python loop for one,
and the result arrays both fill."""

from collections import namedtuple

import numpy as np

from sim.jit import rule
from sim.sequence_stacks import engine
from sim.sequence_stacks.cards import ACTIONS
from sim.sequence_stacks.state import (
    ACTIONS_PLAYED,
    CHIPS,
    COMPLETED,
    N_ACTIONS,
    OVER,
    RESHUFFLES,
    SEQUENCES_BLOCKED,
    TURNS,
    WINNER,
)
from strategies import sequence_stacks as bots


@rule
def record_game(m, out, row):
    """Copies a finished game's outcome into the result arrays of game row `row`."""
    out.winner[row] = m[WINNER]
    out.turns[row] = m[TURNS]
    out.reshuffles[row] = m[RESHUFFLES]
    out.blocked[row] = m[SEQUENCES_BLOCKED]
    for seat in range(out.chips.shape[1]):
        out.chips[row, seat, 0] = m[CHIPS + 2 * seat]
        out.chips[row, seat, 1] = m[CHIPS + 2 * seat + 1]
        out.completed[row, seat] = m[COMPLETED + seat]
        for k in range(N_ACTIONS):
            out.actions[row, seat, k] = m[ACTIONS_PLAYED + seat * N_ACTIONS + k]


@rule
def play_games(s, rs, families, params, seed, start, stop, out):
    """Plays games [start, stop) with the jitted bots and fills `out` (row = game - start)."""
    m, rngs, moves, move = s.m, s.rngs, s.moves, s.move
    for game in range(start, stop):
        engine.start_game(m, rngs, rs, seed, game)
        while m[OVER] == 0:
            seat = engine.to_move(m)
            bots.choose(m, rngs, rs, moves, seat, families[seat], params[seat], move)
            engine.apply_move(m, rngs, rs, seat, move)
        record_game(m, out, game - start)


Results = namedtuple("Results", [
    "winner",     # int64[games]: the winning seat, -1 when stalled
    "turns",      # int64[games]
    "reshuffles", # int64[games]: times the removed piles became the draw pile
    "blocked",    # int64[games]: completed sequences that were blocked
    "chips",      # int64[games, players, 2]: red and blue chips held at the end
    "completed",  # int64[games, players]: sequences completed (blocked ones included)
    "actions",    # int64[games, players, 5]: action cards played, by type (cards.ACTIONS)
])


def new_results(games: int, players: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    return Results(
        winner=np.zeros(games, np.int64), turns=np.zeros(games, np.int64),
        reshuffles=np.zeros(games, np.int64), blocked=np.zeros(games, np.int64),
        chips=np.zeros((games, players, 2), np.int64), completed=np.zeros((games, players), np.int64),
        actions=np.zeros((games, players, len(ACTIONS)), np.int64),
    )


def jitted_bots(families, params):
    """Gives a chooser(s, rs, seat, move) that asks the built-in jitted bots of each seat."""
    def chooser(s, rs, seat, move):
        bots.choose(s.m, s.rngs, rs, s.moves, seat, families[seat], params[seat], move)
    return chooser


def play_traced(s, rs, chooser, seed, game, out, watch):
    """Plays one game in a Python loop over the same jitted rules as `play_games`, asking
    chooser(s, rs, seat, move) for every decision (any Python bot can stand in for the jitted
    ones) and calling watch(event, ...) at each step; fills row 0 of `out`.

    Events: ("start",) once dealt, ("move", seat, move) before each move is applied,
    ("after", seat, move) after it, ("end",) when the game is over.
    """
    m, rngs, move = s.m, s.rngs, s.move
    engine.start_game(m, rngs, rs, seed, game)
    watch("start")
    while not m[OVER]:
        seat = int(engine.to_move(m))
        chooser(s, rs, seat, move)
        played = move.copy()
        watch("move", seat, played)
        engine.apply_move(m, rngs, rs, seat, move)
        watch("after", seat, played)
    record_game(m, out, 0)
    watch("end")
