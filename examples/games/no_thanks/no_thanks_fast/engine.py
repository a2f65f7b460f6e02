"""No Thanks!'s rules at the fast level, jitted: the same game as the simple level's
no_thanks/rules.py (its docstring says the rules), on the arrays of state.py."""

from typing import NamedTuple

import numpy as np

from no_thanks_fast.state import (CARD, CHIPS, DECK_N, HIGH, LOW, PASS, PASSES, PLAYERS, POT,
                                  REMOVED, SEAT, TURNS)
from sim import rng
from sim.jit import rule, small_rule

DEAL = 0  # the deal's stream; seat k's bot draws from stream 1 + k


def numbers(rules: dict, players: int) -> np.ndarray:
    """Gives the rule numbers a game of `players` reads (state.LOW ...)."""
    found = np.zeros(4, np.int64)
    found[LOW], found[HIGH] = rules["lowest_card"], rules["highest_card"]
    found[REMOVED], found[CHIPS] = rules["removed"], rules["chips"][str(players)]
    return found


@rule
def start_game(s, rs, seed, game):
    """Deals game `game`: the cards shuffled, `removed` of them set aside, the top one turned."""
    players = s.chips.shape[0]
    for k in range(s.rngs.shape[0]):
        rng.start(s.rngs[k], seed, game, k)
    deck = s.deck
    for i in range(deck.shape[0]):
        deck[i] = rs[LOW] + i
    rng.shuffle(s.rngs[DEAL], deck)
    removed = rs[REMOVED]
    for i in range(removed):
        s.removed[i] = deck[i]
    n = deck.shape[0] - removed
    for i in range(n):
        deck[i] = deck[removed + i]
    s.g[:] = 0
    s.g[PLAYERS] = players
    s.g[CARD] = deck[n - 1]
    s.g[DECK_N] = n - 1
    s.chips[:] = rs[CHIPS]
    s.held[:, :] = 0
    s.taken_n[:] = 0


@small_rule
def over(s):
    return s.g[CARD] == 0


@small_rule
def to_move(s):
    return s.g[SEAT]


@rule
def apply_move(s, rs, seat, move):
    """Plays `seat`'s move: a chip onto the card (the next seat decides), or the card and its
    chips taken (the next card is turned, and the taker decides again)."""
    g = s.g
    g[TURNS] += 1
    if move[0] == PASS:
        s.chips[seat] -= 1
        g[POT] += 1
        g[PASSES] += 1
        g[SEAT] = (seat + 1) % g[PLAYERS]
        return
    card = g[CARD]
    s.held[seat, card] = 1
    s.taken[seat, s.taken_n[seat]] = card
    s.taken_n[seat] += 1
    s.chips[seat] += g[POT]
    g[POT] = 0
    if g[DECK_N] > 0:
        g[DECK_N] -= 1
        g[CARD] = s.deck[g[DECK_N]]
    else:
        g[CARD] = 0


@small_rule
def card_points(s, seat):
    """Gives the points of the seat's cards: the lowest card of each run."""
    held = s.held
    points = 0
    for card in range(1, held.shape[1]):
        if held[seat, card] and not held[seat, card - 1]:
            points += card
    return points


class Results(NamedTuple):
    turns: np.ndarray        # int64[games]: moves played
    passes: np.ndarray       # int64[games]: chips paid onto cards
    cards: np.ndarray        # int64[games, players]: cards taken
    card_points: np.ndarray  # int64[games, players]
    chips: np.ndarray        # int64[games, players]: chips held at the end


def new_results(games: int, players: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    return Results(np.zeros(games, np.int64), np.zeros(games, np.int64),
                   *(np.zeros((games, players), np.int64) for _ in range(3)))


@rule
def record_game(s, out, row):
    """Copies a finished game into row `row` of the result arrays."""
    out.turns[row] = s.g[TURNS]
    out.passes[row] = s.g[PASSES]
    for seat in range(s.chips.shape[0]):
        out.cards[row, seat] = s.taken_n[seat]
        out.card_points[row, seat] = card_points(s, seat)
        out.chips[row, seat] = s.chips[seat]
