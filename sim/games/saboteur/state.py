"""The state of a Saboteur game: a named tuple of numpy arrays that jitted rules read and write.

Jitted functions bind the fields they use to local names at their top (see sim/jit.py).
"""

from collections import namedtuple

import numpy as np

from sim import search

# The maze is unbounded in the rules; 40 path cards cannot reach further than this from the start.
SIZE = 112
ORIGIN = 56
MAX_HAND = 8
MAX_FRONT = 512
MAX_MOVES = 4096
MAX_SCRATCH = 64
MOVE_FIELDS = 5  # action, hand slot, x, y, arg (see engine.py)

# Bits of State.forbid: these two for every role; shifted left by 2 (miner) or 4 (saboteur)
# for one role only (--forbid miner:break).
FORBID_PLAY, FORBID_PASS = 1, 2

# Cell contents.
EMPTY, THROUGH, DEAD_END, START, GOAL_HIDDEN, GOAL_SHOWN = 0, 1, 2, 3, 4, 5

# Scalars, as indices of State.g.
(PLAYERS, SEED, GAME, TURN_SEAT, DRAW_AT, ROUND_TURNS, LAST_PATH_SEAT, LAST_SEAT,
 ROUND_OVER, MINERS_WON, FINDER, PASSES, GAME_TURNS, N_FRONT, N_PLACED, STAMP, SABOTEURS,
 FIXED_SABOTEURS, MINER_ROUNDS, BELIEF_WORLDS, UNBELIEVED, N_SCALARS) = range(22)
# g[BELIEF_WORLDS] is 1 while a search seat that deals its worlds' roles from its posterior
# decides (sampler.py; set by bots.py `choose`).
# g[UNBELIEVED] is 1 when no bot at the table reads the belief's public records (`llr`, `lean`):
# the turn then keeps only the suspicion (play.py; set by the play loops and the search's
# rollouts from the bots, bots.py `reads_belief`). 0, keeping every record, on a new state.

State = namedtuple("State", [
    "g",           # int64[N_SCALARS]
    "cell",        # int8[SIZE, SIZE]: EMPTY, THROUGH, DEAD_END, START, GOAL_HIDDEN or GOAL_SHOWN
    "exits",       # int8[SIZE, SIZE]: open sides of the card in a cell
    "card_at",     # int16[SIZE, SIZE]: the deck card in a path cell, -1 elsewhere
    "reach",       # int32[SIZE, SIZE]: == g[STAMP] where joined to the start by through cards
    "front_at",    # int32[SIZE, SIZE]: a front cell's index in `front`, -1 elsewhere
    "queue",       # int64[SIZE * SIZE]: scratch for the reach search
    "front",       # int64[MAX_FRONT, 2]: empty cells beside the path (x, y in grid units)
    "front_fit",   # int32[MAX_FRONT]: bit m set when a path card with exits m may be placed there
    "fit_count",   # int64[16]: in how many front cells a card with exits m may be placed
    "placed",      # int64[40+, 2]: path cards in the maze (rockfall targets), in placing order
    "deck",        # int64[cards]: the shuffled path+action deck, drawn from DRAW_AT on
    "hand",        # int64[players, MAX_HAND]: cards in hand, -1 for none (filled from slot 0)
    "hand_n",      # int64[players]
    "broken",      # int64[players]: tool bits of the broken tools in front of each player
    "role",        # int64[players]: 0 miner, 1 saboteur
    "goal_kind",   # int64[3]: 0 gold, 1 or 2 coal card, per goal position
    "goal_shown",  # int64[3]: 1 once turned face up
    "seen",        # int64[players, 3]: 1 where the player has looked at that goal with a map
    "gold",        # int64[players]: nuggets so far
    "round_gold",  # int64[players]: nuggets gained this round
    "gold_pile",   # int64[4]: gold cards left worth 1, 2, 3 nuggets (index 0 unused)
    "suspicion",   # float64[players]: public record of how much each seat's moves hurt the path
    "llr",         # float64[players]: public record, each seat's log-likelihood ratio of being
                   # a saboteur given its moves (sim/games/saboteur/belief.py)
    "lean",        # float64[players, 3]: public record, per seat and goal, the net number of the
                   # seat's path cards, played once it had looked at that goal, that brought the
                   # path's open end nearer that goal than the other face-down goals (+1) or
                   # took it further (-1) (bots.py `observe`, `trust`)
    "posterior",   # float64[6, players + 1]: scratch of belief.py: a seat's chance of being a
                   # saboteur as one seat sees it, as the table sees it, the prior by count,
                   # and the sums the marginals are computed from
    "deal_rng",    # uint64[1]: this round's deal stream
    "gold_rng",    # uint64[1]: the gold pile's stream
    "bot_rng",     # uint64[players, 1]: each seat's bot stream
    "moves",       # int64[MAX_MOVES, MOVE_FIELDS]: scratch for listing legal moves
    "move",        # int64[MOVE_FIELDS]: the move being played
    "scratch",     # int64[MAX_SCRATCH]: scratch for dealing roles and drawing gold
    "belief",      # float64[2, 3]: scratch for a bot: chance that each goal is the gold,
                   # as the bot sees it and as the table sees it
    "nearest",     # int64[3, 3]: scratch for a bot: per goal, nearest open end's distance,
                   # its index in `front`, the second-nearest distance
    "forbid",      # int8[players, cards]: restricted play (--forbid): FORBID_PLAY set where the
                   # seat may not play that card, FORBID_PASS where it may not discard it
                   # (shifted for one role: see FORBID_PLAY)
    "move_score",  # float64[MAX_MOVES]: scratch for a bot: the default family's score of each
                   # move it listed (the search family's candidates are the best ones)
    "search_saved", "search_moves", "search_value", "search_rng",  # the search's scratch
                   # (sim/search.py)
])


def new_state(players: int, deck_size: int) -> State:
    """Gives an empty state for a game of `players` with a deck of `deck_size` cards."""
    state = State(
        g=np.zeros(N_SCALARS, np.int64),
        cell=np.zeros((SIZE, SIZE), np.int8),
        exits=np.zeros((SIZE, SIZE), np.int8),
        card_at=np.full((SIZE, SIZE), -1, np.int16),
        reach=np.zeros((SIZE, SIZE), np.int32),
        front_at=np.full((SIZE, SIZE), -1, np.int32),
        queue=np.zeros(SIZE * SIZE, np.int64),
        front=np.zeros((MAX_FRONT, 2), np.int64),
        front_fit=np.zeros(MAX_FRONT, np.int32),
        fit_count=np.zeros(16, np.int64),
        placed=np.zeros((deck_size, 2), np.int64),
        deck=np.zeros(deck_size, np.int64),
        hand=np.full((players, MAX_HAND), -1, np.int64),
        hand_n=np.zeros(players, np.int64),
        broken=np.zeros(players, np.int64),
        role=np.zeros(players, np.int64),
        goal_kind=np.zeros(3, np.int64),
        goal_shown=np.zeros(3, np.int64),
        seen=np.zeros((players, 3), np.int64),
        gold=np.zeros(players, np.int64),
        round_gold=np.zeros(players, np.int64),
        gold_pile=np.zeros(4, np.int64),
        suspicion=np.zeros(players, np.float64),
        llr=np.zeros(players, np.float64),
        lean=np.zeros((players, 3), np.float64),
        posterior=np.zeros((6, players + 1), np.float64),
        deal_rng=np.zeros(1, np.uint64),
        gold_rng=np.zeros(1, np.uint64),
        bot_rng=np.zeros((players, 1), np.uint64),
        moves=np.zeros((MAX_MOVES, MOVE_FIELDS), np.int64),
        move=np.zeros(MOVE_FIELDS, np.int64),
        scratch=np.zeros(MAX_SCRATCH, np.int64),
        belief=np.zeros((2, 3), np.float64),
        nearest=np.zeros((3, 3), np.int64),
        forbid=np.zeros((players, deck_size), np.int8),
        move_score=np.zeros(MAX_MOVES, np.float64),
        **search.scratch_arrays(MOVE_FIELDS),
    )
    return state._replace(search_saved=search.saved_buffer(state))
