"""Sequence Stacks' pieces of the search family (sim/search.py), registered for its State.

The candidates are the default family's best moves: in a turn its best-scoring ones, at a
Block window both answers (its own first). A rollout plays the candidate, then the game to its
end with the default family (the searcher's parameters) at every seat. The score: 1 for a win,
plus CHIPS for each chip the seat holds at the end (nearer a win when no one wins).
"""

from sim import sampling, search
from sim.jit import rule, small_rule
from sim.sequence_stacks import engine, sampler
from sim.sequence_stacks.state import CHIPS, OVER, PHASE, WINNER, State
from strategies import sequence_stacks as bots
from strategies.presets import DEFAULT

CHIPS_WORTH = 0.05  # a chip held, in games won: a tiebreak between moves that win alike


@small_rule
def saved(s):
    """Gives the arrays a rollout changes: the game and the streams."""
    return s.m, s.rngs


@small_rule
def bot_stream(s, seat):
    """Gives the seat's own bot stream."""
    return s.rngs[1 + seat]


@rule
def candidates(s, rs, seat, params, moves):
    """Writes the default family's best moves, best first, into the rows of `moves`; gives how
    many (the `candidates` parameter, or fewer moves)."""
    m, rngs, listed = s.m, s.rngs, s.moves
    n = engine.legal_moves(m, rs, listed, seat)
    k = min(search.parameter(params, bots.SEARCH_AT, search.CANDIDATES), moves.shape[0], n)
    if m[PHASE] == engine.WINDOW:
        first = 0 if bots.wants_block(m, rs, seat, params) else 1
        for f in range(moves.shape[1]):
            moves[0, f] = listed[first, f]
            moves[1, f] = listed[1 - first, f]
        return min(k, 2)
    # The default's best, then its best of the rest, and so on: each pick moves to the end.
    for c in range(k):
        best = bots.best_move(m, rngs, rs, listed, seat, params, n - c)
        for f in range(moves.shape[1]):
            moves[c, f] = listed[best, f]
            listed[best, f] = listed[n - c - 1, f]
            listed[n - c - 1, f] = moves[c, f]
    return k


@rule
def play_out(s, rs, seat, move, params, r):
    """Plays `move` for `seat` and the game on with the default family; gives the seat's score
    (see the module docstring)."""
    m, rngs = s.m, s.rngs
    sampling.redraw_streams(rngs[1:], -1, r)
    engine.apply_move(m, rngs, rs, seat, move)
    while m[OVER] == 0:
        q = engine.to_move(m)
        bots.builtin_choose(s, rs, q, DEFAULT, params, s.move)
        engine.apply_move(m, rngs, rs, q, s.move)
    held = m[CHIPS + 2 * seat] + m[CHIPS + 2 * seat + 1]
    return (1.0 if m[WINNER] == seat else 0.0) + CHIPS_WORTH * held


search.register(State, saved=saved, bot_stream=bot_stream,
                candidates=candidates, resample=sampler.resample, play_out=play_out)
