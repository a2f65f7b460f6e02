"""The state of a Spit game: a named tuple of numpy arrays that jitted rules read and write.

Piles are arrays filled from index 0 (the bottom) with a count; the top is at count - 1.
The clock (who acts when, sim/games/spit/race.py) is made apart; the state holds its arrays too,
so that a bot given the state sees the race as it stands.
"""

from collections import namedtuple

import numpy as np

from sim import search
from sim.games.spit import race, rollout

# Scalars, as indices of State.g. OUT_SEAT, SLAP_SEAT and TAKEN_PILE describe the last deal's end.
(SEED, GAME, DEAL, MOVES, DEAL_MOVES, STALLS, DEAL_STALLS, LONE_PILE, OUT_SEAT, SLAP_SEAT,
 TAKEN_PILE, WINNER, STALLED, OVER, N_SCALARS) = range(15)

# Moves (a plan's kind; a and b are stock pile and spit pile indices as said).
PLAY, TURN, SHIFT, STACK = 0, 1, 2, 3   # PLAY a -> spit pile b; TURN a; SHIFT a -> empty b; STACK a -> b

MAX_MOVES = 128

# Bits of State.forbid (restricted play, sim/games/spit/forbid.py): the play bits are deck.UP, DOWN.
FORBID_UP, FORBID_DOWN, FORBID_SHIFT, FORBID_STACK = 1, 2, 4, 8

State = namedtuple("State", [
    "g",          # int64[N_SCALARS]
    "stock",      # int64[2, piles, cards]: each seat's stock piles
    "stock_n",    # int64[2, piles]
    "stock_up",   # int64[2, piles]: how many cards at the top of a stock pile are face up
    "spit",       # int64[2, cards]: each seat's face-down spit cards (top last)
    "spit_n",     # int64[2]
    "centre",     # int64[2, cards]: the two spit piles
    "centre_n",   # int64[2]: 0 for a spit pile not in play
    "starter",    # int64[2]: the seat that started each spit pile (-1: not in play)
    "hold",       # int64[2, cards]: each seat's cards between deals (taken pile, leftovers)
    "hold_n",     # int64[2]
    "played",     # int64[2]: cards each seat has played onto the spit piles this game
    "idle",       # int64[2]: 1 while a seat has found no legal move and no spit pile changed
    "moves",      # int64[MAX_MOVES, 3]: scratch for listing legal moves
    "tops",       # int64[2, piles]: scratch for a bot: face-up stock tops of each side
    "deal_rng",   # uint64[1]: this deal's stream (layouts, shuffles of taken piles)
    "bot_rng",    # uint64[2, 1]: each seat's bot stream
    "forbid",     # int64[2]: FORBID_* bits of what each seat never does (set once per setup)
    *race.CLOCK_FIELDS,     # the race's clock (sim/games/spit/race.py): its very arrays
    *rollout.SCRATCH_FIELDS,  # the search's scratch (sim/games/spit/rollout.py)
])


def new_state(piles: int, cards: int, clock: race.Clock) -> State:
    """Gives an empty state for a game with `piles` stock piles per seat and `cards` cards,
    raced on `clock`."""
    state = State(
        g=np.zeros(N_SCALARS, np.int64),
        stock=np.zeros((2, piles, cards), np.int64),
        stock_n=np.zeros((2, piles), np.int64),
        stock_up=np.zeros((2, piles), np.int64),
        spit=np.zeros((2, cards), np.int64),
        spit_n=np.zeros(2, np.int64),
        centre=np.zeros((2, cards), np.int64),
        centre_n=np.zeros(2, np.int64),
        starter=np.full(2, -1, np.int64),
        hold=np.zeros((2, cards), np.int64),
        hold_n=np.zeros(2, np.int64),
        played=np.zeros(2, np.int64),
        idle=np.zeros(2, np.int64),
        moves=np.zeros((MAX_MOVES, 3), np.int64),
        tops=np.zeros((2, piles), np.int64),
        deal_rng=np.zeros(1, np.uint64),
        bot_rng=np.zeros((2, 1), np.uint64),
        forbid=np.zeros(2, np.int64),
        **race.clock_fields(clock),
        **rollout.scratch_arrays(3),
    )
    return state._replace(search_saved=search.saved_buffer(state))
