"""Saboteur's pieces of the search family (sim/search.py), registered for its State.

The candidates are the default family's best-scoring moves. A rollout plays the candidate,
then the round to its end with the default family (the searcher's parameters) at every seat,
the public record of suspicion kept as at a table with a search bot. The score is the round as
the seat sees it: 1 when its team won, plus GOLD nuggets' worth for each nugget it gained
(who finds the gold, and how the saboteurs' payout splits, decide who wins the game).
"""

import numpy as np

from sim import sampling, search
from sim.jit import rule, small_rule
from sim.saboteur import engine, play, sampler
from sim.saboteur.engine import MINER
from sim.saboteur.state import MINERS_WON, TURN_SEAT, State
from strategies import saboteur as bots
from strategies.presets import DEFAULT

GOLD = 0.1  # a nugget gained, in rounds won: a tiebreak between moves that win alike


@small_rule
def saved(s):
    """Gives the arrays a rollout changes: all but the rule-fixed and the scratch ones."""
    return (s.g, s.cell, s.exits, s.card_at, s.reach, s.front_at, s.front, s.front_fit,
            s.fit_count, s.placed, s.deck, s.hand, s.hand_n, s.broken, s.role, s.goal_kind,
            s.goal_shown, s.seen, s.gold, s.round_gold, s.gold_pile, s.suspicion, s.deal_rng,
            s.gold_rng, s.bot_rng, s.scratch)


@small_rule
def bot_stream(s, seat):
    """Gives the seat's own bot stream."""
    return s.bot_rng[seat]


@rule
def candidates(s, rs, seat, params, moves):
    """Writes the default family's best-scoring moves, best first, into the rows of `moves`;
    gives how many (the `candidates` parameter, or fewer moves)."""
    n = bots.default_move(s, rs, seat, params, s.move)
    score, listed = s.move_score, s.moves
    k = min(search.parameter(params, bots.SEARCH_AT, search.CANDIDATES), moves.shape[0], n)
    for c in range(k):
        best = 0
        for i in range(1, n):
            if score[i] > score[best]:
                best = i
        for f in range(moves.shape[1]):
            moves[c, f] = listed[best, f]
        score[best] = -np.inf
    return k


@rule
def play_out(s, rs, seat, move, params, r):
    """Plays `move` for `seat` and the round on with the default family; gives the seat's
    score (see the module docstring)."""
    sampling.redraw_streams(s.bot_rng, -1, r)
    over = play.play_turn(s, rs, seat, move, True)
    while not over:
        q = s.g[TURN_SEAT]
        bots.builtin_choose(s, rs, q, DEFAULT, params, s.move)
        over = play.play_turn(s, rs, q, s.move, True)
    engine.end_round(s, rs)
    won = (s.role[seat] == MINER) == (s.g[MINERS_WON] == 1)
    return (1.0 if won else 0.0) + GOLD * s.round_gold[seat]


search.register(State, saved=saved, bot_stream=bot_stream,
                candidates=candidates, resample=sampler.resample, play_out=play_out)
