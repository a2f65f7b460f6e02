"""The state of a Deep Space game: a named tuple of numpy arrays that jitted rules read and write.

Jitted functions bind the fields they use to local names at their top (see sim/jit.py).
"""

from collections import namedtuple

import numpy as np

from sim import search
from sim.games.deep_space.ruleset import MAX_HAND

MOVE_FIELDS = 6  # action, a, b, c, d, e (see engine.py)

# Scalars, as indices of State.g.
(PLAYERS, SEED, GAME, TURN_SEAT, FIRST_SEAT, PHASE, MOVES_LEFT, TURNS, DRAW_AT, DISCARDS,
 DOGS_LEFT, BANK_GEMS, BANK_ORE, WINNER, OVER, DISCARDED, N_SCALARS) = range(17)

# Phases of a turn that wait for a player's decision.
MINE, ACT, REDRAW = 0, 1, 2

# Kinds of move State.uses counts (forbid.uses: the names --forbid takes), each card kind after.
USE_MOVE, USE_WARP, USE_ATTACK, USE_RECRUIT, USE_TRADE, USE_BUILD, USE_DISCARD, USE_PLAY, \
    USE_FIRST_CARD = range(9)

# Bits of State.forbid: actions a seat may not take (--forbid; sim/games/deep_space/forbid.py).
FORBID_MOVE, FORBID_WARP, FORBID_ATTACK, FORBID_RECRUIT, FORBID_TRADE, FORBID_BUILD, \
    FORBID_DISCARD = 1, 2, 4, 8, 16, 32, 64

State = namedtuple("State", [
    "g",            # int64[N_SCALARS]
    "units",        # int64[players, P]: recruits of each colour on each planet
    "base",         # int64[players, P]: 1 where the colour has a base
    "dogs",         # int64[players, P]: dog tokens of each colour on each planet
    "supply",       # int64[players]: recruits not on the board
    "gems",         # int64[players]
    "ore",          # int64[players]
    "bases",        # int64[players]: bases built
    "base_turn",    # int64[players, P]: the turn (from 1) a base was built there, 0 for none
    "hand",         # int64[players, MAX_HAND]: deck cards in hand, -1 for none (from slot 0)
    "hand_n",       # int64[players]
    "deck",         # int64[C]: the draw pile, drawn from DRAW_AT on
    "discard",      # int64[C]: the discard pile, DISCARDS cards
    "lost",         # int64[players]: recruits removed from the board (combat, storms, sacrifice)
    "won_fights",   # int64[players]: combats won (as attacker or defender)
    "lost_fights",  # int64[players]: combats lost
    "gems_mined",   # int64[players]
    "ore_mined",    # int64[players]
    "played",       # int64[players]: action cards played
    "uses",         # int64[players, USE_FIRST_CARD + card kinds]: moves of each kind this game
                    # (forbid.uses names them), counted as they are played
    "site_dist",    # int64[players, P]: moves from a planet to the nearest planet where the
                    # colour may still build (bot scratch, kept up as bases are built)
    "deal_rng",     # uint64[1]: the deck and the starting roll
    "dice_rng",     # uint64[1]: combat dice
    "bot_rng",      # uint64[players, 1]: each seat's bot stream
    "moves",        # int64[max moves, MOVE_FIELDS]: scratch for listing legal moves
    "move",         # int64[MOVE_FIELDS]: the move being played
    "order",        # int64[players]: scratch for the starting roll (1 for a seat still rolling)
    "forbid",       # int64[players]: restricted play, FORBID_* bits of the actions a seat may
                    # not take (filled once per configuration, never reset by start_game)
    "forbid_card",  # int8[players, C]: 1 where the seat may not play that deck card
    "search_saved", "search_moves", "search_value", "search_rng",  # the search's scratch
                    # (sim/search.py)
])


def new_state(players: int, planets: int, cards: int, kinds: int, max_moves: int) -> State:
    """Gives an empty state for a game of `players` on `planets` planets with `cards` cards
    of `kinds` kinds, with room to list `max_moves` legal moves."""
    def ints(*shape):
        return np.zeros(shape, np.int64)

    state = State(
        g=ints(N_SCALARS), units=ints(players, planets), base=ints(players, planets),
        dogs=ints(players, planets), supply=ints(players), gems=ints(players),
        ore=ints(players), bases=ints(players), base_turn=ints(players, planets),
        hand=np.full((players, MAX_HAND), -1, np.int64), hand_n=ints(players),
        deck=ints(cards), discard=ints(cards), lost=ints(players), won_fights=ints(players),
        lost_fights=ints(players), gems_mined=ints(players), ore_mined=ints(players),
        played=ints(players), uses=ints(players, USE_FIRST_CARD + kinds),
        site_dist=ints(players, planets),
        deal_rng=np.zeros(1, np.uint64), dice_rng=np.zeros(1, np.uint64),
        bot_rng=np.zeros((players, 1), np.uint64),
        moves=ints(max_moves, MOVE_FIELDS), move=ints(MOVE_FIELDS), order=ints(players),
        forbid=ints(players), forbid_card=np.zeros((players, cards), np.int8),
        **search.scratch_arrays(MOVE_FIELDS),
    )
    return state._replace(search_saved=search.saved_buffer(state))
