"""The state of a Speed game: a named tuple of numpy arrays that jitted rules read and write.

Piles are arrays filled from index 0 (the bottom) with a count; the top is at count - 1. A hand
is a row of slots, -1 where empty. The clock (who acts when, sim/games/spit/race.py) is made apart; the state holds its arrays too,
so that a bot given the state sees the race as it stands.
"""

from collections import namedtuple

import numpy as np

from sim import search
from sim.games.spit import race, rollout

(SEED, GAME, HAND_NO, MOVES, STALLS, HAND_STALLS, HAND_WINNER, WINNER, STALLED, OVER,
 N_SCALARS) = range(11)

PLAY = 0  # the only move: (PLAY, hand slot, centre pile)
MAX_MOVES = 64

State = namedtuple("State", [
    "g",         # int64[N_SCALARS]
    "hand",      # int64[2, hand size]: cards in hand, -1 for an empty slot
    "draw",      # int64[2, cards]: each seat's face-down draw pile
    "draw_n",    # int64[2]
    "side",      # int64[2, cards]: the two face-down side piles
    "side_n",    # int64[2]
    "centre",    # int64[2, cards]: the two centre piles
    "centre_n",  # int64[2]
    "score",     # int64[2]: points (scoring option "points")
    "played",    # int64[2]: cards each seat has played onto the centre piles this game
    "idle",      # int64[2]: 1 while a seat has found no legal move and no centre pile changed
    "moves",     # int64[MAX_MOVES, 3]: scratch for listing legal moves
    "deck",      # int64[cards]: scratch for dealing and recycling
    "deal_rng",  # uint64[1]: this hand's stream (the deal, recycled side piles)
    "bot_rng",   # uint64[2, 1]: each seat's bot stream
    "forbid",    # int64[2]: bits (sim/games/spit/state.py FORBID_UP, FORBID_DOWN) of the plays each
                 # seat never makes (set once per setup)
    *race.CLOCK_FIELDS,       # the race's clock (sim/games/spit/race.py): its very arrays
    *rollout.SCRATCH_FIELDS,  # the search's scratch (sim/games/spit/rollout.py)
])


def new_state(hand: int, cards: int, clock: race.Clock) -> State:
    """Gives an empty state for hands of `hand` cards and a deck of `cards`, raced on `clock`."""
    state = State(
        g=np.zeros(N_SCALARS, np.int64), hand=np.full((2, hand), -1, np.int64),
        draw=np.zeros((2, cards), np.int64), draw_n=np.zeros(2, np.int64),
        side=np.zeros((2, cards), np.int64), side_n=np.zeros(2, np.int64),
        centre=np.zeros((2, cards), np.int64), centre_n=np.zeros(2, np.int64),
        score=np.zeros(2, np.int64), played=np.zeros(2, np.int64), idle=np.zeros(2, np.int64),
        moves=np.zeros((MAX_MOVES, 3), np.int64), deck=np.zeros(cards, np.int64),
        deal_rng=np.zeros(1, np.uint64), bot_rng=np.zeros((2, 1), np.uint64),
        forbid=np.zeros(2, np.int64),
        **race.clock_fields(clock),
        **rollout.scratch_arrays(3),
    )
    return state._replace(search_saved=search.saved_buffer(state))
