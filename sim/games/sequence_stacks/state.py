"""The state of a Sequence Stacks game: one flat int64 array, the random streams and a scratch
list of moves.

Every table of the game (draw pile, hands, discard piles, sequence piles, chips...) is a region
of the flat array `m` at a fixed offset, sized for the largest game (MAX_PLAYERS, MAX_DECK).
Jitted functions take `m` and index it (`m[HAND + seat * TYPES + t]`): passing a few arrays
costs nothing, while a tuple of many arrays costs more than a move (see sim/jit.py). Python
reads the same memory through named numpy views (`views`).
"""

from collections import namedtuple

import numpy as np

from sim import search
from sim.games.sequence_stacks.cards import ACTIONS, MAX_OPEN, MAX_PLAYERS, SEQUENCE, TYPES

MAX_DECK = 256
MAX_MOVES = 256
MOVE_FIELDS = 5  # action, source, card type, a, b (see engine.py)
SLOTS = 2 * MAX_OPEN  # sequence pile slots; slot // MAX_OPEN is the pile's colour
N_ACTIONS = len(ACTIONS)

# Scalars: m[0:N_SCALARS].
(PLAYERS, SEED, GAME, TURN_SEAT, DIRECTION, PHASE, DECIDER, COMPLETER, COMPLETED_SLOT, ASKED,
 TURNS, MOVES, DRAW_N, REMOVED_N, OVER, WINNER, STALLED, RESHUFFLES, SEQUENCES_BLOCKED,
 N_SCALARS) = range(20)

# Regions of m, each at a fixed offset.
DRAW = N_SCALARS                       # [MAX_DECK] the face-down draw pile, top at DRAW_N - 1
REMOVED = DRAW + MAX_DECK              # [MAX_DECK] cards of completed and blocked piles
HAND = REMOVED + MAX_DECK              # [MAX_PLAYERS, TYPES] cards of each type in each hand
HAND_N = HAND + MAX_PLAYERS * TYPES    # [MAX_PLAYERS] hand sizes
HELD = HAND_N + MAX_PLAYERS            # [MAX_PLAYERS] bit t set while a hand holds type t:
                                       # hands are walked by their few types, not all 17
DISCARD = HELD + MAX_PLAYERS           # [MAX_PLAYERS, MAX_DECK] face-up discard piles, top last
DISCARD_N = DISCARD + MAX_PLAYERS * MAX_DECK  # [MAX_PLAYERS]
PILE = DISCARD_N + MAX_PLAYERS         # [SLOTS, SEQUENCE] the cards of each sequence pile slot
PILE_LEN = PILE + SLOTS * SEQUENCE     # [SLOTS] cards in a slot (0: no pile there)
OPEN_N = PILE_LEN + SLOTS              # [2] open piles of each colour
CHIPS = OPEN_N + 2                     # [MAX_PLAYERS, 2] red and blue chips held
SUPPLY = CHIPS + MAX_PLAYERS * 2       # [2] chips left in the supply
SKIPPED = SUPPLY + 2                   # [MAX_PLAYERS] turns still to lose to Skips
COMPLETED = SKIPPED + MAX_PLAYERS      # [MAX_PLAYERS] sequences completed (blocked ones too)
ACTIONS_PLAYED = COMPLETED + MAX_PLAYERS  # [MAX_PLAYERS, N_ACTIONS] action cards played, by type
FORBID = ACTIONS_PLAYED + MAX_PLAYERS * N_ACTIONS  # [MAX_PLAYERS] restricted play (--forbid): bit
                                       # t set where the seat may not play card type t, bit
                                       # FORBID_TOP for any card from its discard pile; filled
                                       # once per configuration, never wiped by start_game
SIZE = FORBID + MAX_PLAYERS
FORBID_TOP = 1 << TYPES

State = namedtuple("State", [
    "m",      # int64[SIZE]: the game (regions above)
    "rngs",   # uint64[1 + players, 1]: the deal's stream, then each seat's bot stream
    "moves",  # int64[MAX_MOVES, MOVE_FIELDS]: scratch for listing legal moves
    "move",   # int64[MOVE_FIELDS]: the move being played
    "search_saved", "search_moves", "search_value", "search_rng",  # the search's scratch
              # (sim/search.py)
])

Views = namedtuple("Views", [
    "g", "draw", "removed", "hand", "hand_n", "held", "discard", "discard_n", "pile", "pile_len",
    "open_n", "chips", "supply", "skipped", "completed", "actions", "forbid",
])


def new_state(players: int) -> State:
    """Gives an empty state for a game of `players`."""
    state = State(m=np.zeros(SIZE, np.int64), rngs=np.zeros((1 + players, 1), np.uint64),
                  moves=np.zeros((MAX_MOVES, MOVE_FIELDS), np.int64),
                  move=np.zeros(MOVE_FIELDS, np.int64), **search.scratch_arrays(MOVE_FIELDS))
    return state._replace(search_saved=search.saved_buffer(state))


def views(s: State) -> Views:
    """Gives named numpy views of a state's regions, shaped by its player count (for Python:
    tests, traces, result tables)."""
    m, p = s.m, s.rngs.shape[0] - 1
    return Views(
        g=m[:N_SCALARS], draw=m[DRAW:DRAW + MAX_DECK], removed=m[REMOVED:REMOVED + MAX_DECK],
        hand=m[HAND:HAND + p * TYPES].reshape(p, TYPES), hand_n=m[HAND_N:HAND_N + p],
        held=m[HELD:HELD + p],
        discard=m[DISCARD:DISCARD + MAX_PLAYERS * MAX_DECK].reshape(MAX_PLAYERS, MAX_DECK)[:p],
        discard_n=m[DISCARD_N:DISCARD_N + p],
        pile=m[PILE:PILE + SLOTS * SEQUENCE].reshape(SLOTS, SEQUENCE),
        pile_len=m[PILE_LEN:PILE_LEN + SLOTS], open_n=m[OPEN_N:OPEN_N + 2],
        chips=m[CHIPS:CHIPS + 2 * p].reshape(p, 2), supply=m[SUPPLY:SUPPLY + 2],
        skipped=m[SKIPPED:SKIPPED + p], completed=m[COMPLETED:COMPLETED + p],
        actions=m[ACTIONS_PLAYED:ACTIONS_PLAYED + p * N_ACTIONS].reshape(p, N_ACTIONS),
        forbid=m[FORBID:FORBID + p],
    )
