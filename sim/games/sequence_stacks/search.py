"""Sequence Stacks' pieces of the search family (sim/search.py), registered for its State.

The candidates are the default family's best moves: in a turn its best-scoring ones, at a
Block window both answers (its own first). A rollout plays the candidate, then the game on with
the default family (the searcher's parameters) at every seat, to its end, to the seat's next
turn or to the end of the turn after the seat's: the next player has answered the move. The
score: 1 for a win, 0 for a loss; else 0.5 plus LEAD_WORTH per chip the seat lacks fewer than
the nearest opponent (plus a little per chip held).

Why a horizon, not the game's end: a game is some hundred decisions, most of which change its
outcome by a percent or two. A rollout to the end scores 0 or 1 on everything that happens
later, so a few of them cannot tell such moves apart; the search then chose between the
default's best moves on the noise (two of three decisions, at the `search` budget), and lost
three games in four to `default`, whose ranking of those moves is better than chance (always
playing its second-best move wins 2%). At the seat's next turn the chip lead differs only
where a chip changed hands (a completion, a Block, a steal): elsewhere the candidates tie and
the default's move is played. Rollouts two and four turns on (2 players) won less against
`default` than to the next turn, the more so the longer. At 4 players, where the seat's next
turn is three turns on, stopping after the next player's turn won 54.4% of 1,000 seat-games
against `default` (`search`), stopping at the seat's next turn 51.4% (at 2 players the two
stop at the same turn unless the seat is skipped).

A rollout also stops after ROLLOUT_MOVES moves per player. Between two turns of a seat,
`default` play makes at most 26 moves at 2 players and 86 at 6 (200 games each), but a turn
can cycle without end where completed piles give no chip (an empty supply): the hand empties,
the removed piles are reshuffled and drawn, and so on to the game's move cap. Rollouts there
ran thousands of moves each.
"""

from sim import sampling, search
from sim.jit import rule, small_rule
from sim.games.sequence_stacks import bots, engine, sampler
from sim.games.sequence_stacks.cards import EACH_COLOUR, TO_WIN
from sim.games.sequence_stacks.state import (
    CHIPS,
    MOVES,
    OVER,
    PHASE,
    PLAYERS,
    TURN_SEAT,
    TURNS,
    WINNER,
    State,
)
from strategies.presets import DEFAULT

LEAD_WORTH = 0.08  # a chip of lead over the nearest opponent (5 chips: 0.1 to 0.9)
CHIPS_WORTH = 0.01  # a chip held beyond the lead: a buffer against Steal-a-Chip
ROLLOUT_MOVES = 40  # per player: a rollout's longest run (see the module docstring)


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


@small_rule
def missing(m, rs, seat):
    """Gives how many chips `seat` still lacks to win."""
    each, to_win = rs.numbers[EACH_COLOUR], rs.numbers[TO_WIN]
    red, blue = m[CHIPS + 2 * seat], m[CHIPS + 2 * seat + 1]
    return max(to_win - red - blue, max(each - red, 0) + max(each - blue, 0))


@rule
def play_out(s, rs, seat, move, params, r):
    """Plays `move` for `seat` and the game on with the default family to its end, the seat's
    next turn, the end of the turn after the seat's or ROLLOUT_MOVES per player; gives the
    seat's score (see the module docstring)."""
    m, rngs = s.m, s.rngs
    sampling.redraw_streams(rngs[1:], -1, r)
    turn, last = m[TURNS], m[MOVES] + ROLLOUT_MOVES * m[PLAYERS]
    engine.apply_move(m, rngs, rs, seat, move)
    while m[OVER] == 0 and m[MOVES] < last and m[TURNS] <= turn + 1 \
            and not (m[TURNS] > turn and m[TURN_SEAT] == seat):
        q = engine.to_move(m)
        bots.builtin_choose(s, rs, q, DEFAULT, params, s.move)
        engine.apply_move(m, rngs, rs, q, s.move)
    if m[WINNER] >= 0:
        return 1.0 if m[WINNER] == seat else 0.0
    lead = 99
    for q in range(m[PLAYERS]):
        if q != seat:
            lead = min(lead, missing(m, rs, q))
    lead -= missing(m, rs, seat)
    held = m[CHIPS + 2 * seat] + m[CHIPS + 2 * seat + 1]
    return 0.5 + LEAD_WORTH * lead + CHIPS_WORTH * held


search.register(State, saved=saved, bot_stream=bot_stream,
                candidates=candidates, resample=sampler.resample, play_out=play_out)
