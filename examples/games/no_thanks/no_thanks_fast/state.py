"""No Thanks!'s state at the fast level: numpy arrays the jitted rules read and write."""

from typing import NamedTuple

import numpy as np

# g[...]: the game's numbers
SEAT, CARD, POT, DECK_N, PASSES, TURNS, PLAYERS = range(7)
LOW, HIGH, REMOVED, CHIPS = range(4)  # the rule numbers (rules.numbers)
TAKE, PASS = 0, 1  # a move: move[0]
MOVES = ("take", "pass")  # as the simple level and Python strategies name them


class State(NamedTuple):
    g: np.ndarray        # int64[7]: the numbers above; card 0: the game is over
    deck: np.ndarray     # int64[cards]: deck[:g[DECK_N]] face down, the last comes next
    removed: np.ndarray  # int64[removed]: set aside unseen
    chips: np.ndarray    # int64[players]
    held: np.ndarray     # int64[players, highest + 2]: held[seat, card] = 1 once taken
    taken: np.ndarray    # int64[players, cards]: each seat's cards in the order taken
    taken_n: np.ndarray  # int64[players]
    rngs: np.ndarray     # uint64[1 + players, 1]: the deal's stream, then each seat's bot's
    move: np.ndarray     # int64[1]: TAKE or PASS


def new_state(players: int, rs: np.ndarray) -> State:
    """Gives an empty state for `players` under the rule numbers `rs` (rules.numbers)."""
    cards = int(rs[HIGH] - rs[LOW] + 1)
    return State(np.zeros(7, np.int64), np.zeros(cards, np.int64),
                 np.zeros(int(rs[REMOVED]), np.int64), np.zeros(players, np.int64),
                 np.zeros((players, int(rs[HIGH]) + 2), np.int64),
                 np.zeros((players, cards), np.int64), np.zeros(players, np.int64),
                 np.zeros((1 + players, 1), np.uint64), np.zeros(1, np.int64))
