"""Saboteur's pieces of the search family (sim/search.py), registered for its State.

The candidates are the default family's best-scoring moves. A rollout plays the candidate,
then one turn of the table with the default family (the searcher's parameters) at every seat,
the public record of suspicion kept as at a table with a search bot: the other seats' turns and
the seat's own next one. A round that ends by then scores 1 when the seat's team won, plus
GOLD for each nugget the seat gained. Otherwise the position scores 0.5, plus for a miner
(minus for a saboteur: its team's interest; the others' roles are the re-dealt world's):
  - DISTANCE_WORTH per card the path's open end is nearer the gold, as the seat believes the
    goals lie (its belief: the goals it has seen, and those turned over);
  - PULL_WORTH per unit of the front's pull towards the gold (how many good ways on it has);
and, for either role,
  - BROKEN_WORTH for each player of the other team with a broken tool, less as much for each
    of its own team;
  - less SUSPICION_WORTH per unit of the seat's own suspicion (suspected seats get broken).

Why one turn of the table, not the round's end: a round is some fifty turns (54 on average
at 7 players), most of which change who wins it by a percent or two. A rollout to the end
scores 0 or 1 on everything that happens later, so a few of them cannot tell the default's
best moves apart: the search chose among them on noise and won 53.0% [49.0, 57.0] of 600
paired games against `default` at 7 players (as in Sequence Stacks:
sim/games/sequence_stacks/search.py). A turn of the table shows what a move does to the path and
whose tools get broken, scored smoothly. Once the world is dealt, such a rollout is nearly
settled (the default family's jitter is small), so a budget buys worlds rather than rollouts
of one world (the presets in bots.py).
"""

import numpy as np

from sim import sampling, search
from sim.jit import rule, small_rule
from sim.games.saboteur import bots, engine, play, sampler
from sim.games.saboteur.engine import MINER
from sim.games.saboteur.state import MINERS_WON, PLAYERS, TURN_SEAT, UNBELIEVED, State
from strategies.presets import DEFAULT

GOLD = 0.1  # a nugget gained, in rounds won: a tiebreak between moves that win alike
DISTANCE_WORTH = 0.05  # a card of expected distance from the path's open end to the gold
PULL_WORTH = 0.05  # a unit of the front's pull towards the gold (bots.front_pull)
BROKEN_WORTH = 0.03  # a player with a broken tool, of the other team (+) or one's own (-)
SUSPICION_WORTH = 0.02  # a unit of the seat's own public suspicion


@small_rule
def saved(s):
    """Gives the arrays a rollout changes: all but the rule-fixed and the scratch ones."""
    return (s.g, s.cell, s.exits, s.card_at, s.reach, s.front_at, s.front, s.front_fit,
            s.fit_count, s.placed, s.deck, s.hand, s.hand_n, s.broken, s.role, s.goal_kind,
            s.goal_shown, s.seen, s.gold, s.round_gold, s.gold_pile, s.suspicion, s.llr,
            s.lean, s.deal_rng, s.gold_rng, s.bot_rng, s.scratch)


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
def position(s, rs, seat):
    """Gives the score of a round still on as `seat` sees it (see the module docstring)."""
    role = s.role
    sign = 1.0 if role[seat] == MINER else -1.0
    w = s.belief[0]
    bots.belief(s, seat, w)
    score = 0.5 - sign * DISTANCE_WORTH * bots.expected_distance(s, rs, seat)
    score += sign * PULL_WORTH * bots.front_pull(s, rs, w)
    for q in range(s.g[PLAYERS]):
        if s.broken[q] != 0:
            score += BROKEN_WORTH if role[q] != role[seat] else -BROKEN_WORTH
    return score - SUSPICION_WORTH * s.suspicion[seat]


@rule
def play_out(s, rs, seat, move, params, r):
    """Plays `move` for `seat` and one turn of the table on with the default family; gives the
    seat's score (see the module docstring)."""
    sampling.redraw_streams(s.bot_rng, -1, r)
    # Every seat rolls out the searcher's `default` parameters: the belief's records only
    # where they deduce (the table's are put back after the rollout, with the whole state).
    s.g[UNBELIEVED] = params[bots.DEDUCE] <= 0.5
    over = play.play_turn(s, rs, seat, move, True)
    for _ in range(s.g[PLAYERS]):
        if over:
            break
        q = s.g[TURN_SEAT]
        bots.builtin_choose(s, rs, q, DEFAULT, params, s.move)
        over = play.play_turn(s, rs, q, s.move, True)
    if not over:
        return position(s, rs, seat)
    engine.end_round(s, rs)
    won = (s.role[seat] == MINER) == (s.g[MINERS_WON] == 1)
    return (1.0 if won else 0.0) + GOLD * s.round_gold[seat]


search.register(State, saved=saved, bot_stream=bot_stream,
                candidates=candidates, resample=sampler.resample, play_out=play_out)
