"""Sequence Stacks bots: `random`, the `default` family and `search`, jitted, with named
presets. The search family (sim/search.py; Sequence Stacks' pieces in
sim/games/sequence_stacks/search.py) rolls out the default family's best moves.

A bot sees only what its player could see: its own hand, the sequence piles, every player's
chips and hand size, the tops of the discard piles and the size of the draw pile.

The default bot scores every legal move and plays the best. Plays and actions score above 0
when they are worth making; discards score just below 0 (the least useful card is discarded
first), so the bot goes on playing while something is worth it and then ends its turn.
"""

import numpy as np

from sim import rng, search
from sim.jit import rule, small_rule
from sim.games.sequence_stacks.cards import (
    BLOCK,
    EACH_COLOUR,
    MAX_OPEN,
    REVERSE,
    SEQUENCE,
    SKIP,
    STEAL_CHIP,
    TO_WIN,
    TYPES,
)
from sim.games.sequence_stacks.engine import (
    ACT,
    DISCARD,
    PLAY,
    TOP,
    WINDOW,
    chip_available,
    free_slot,
    legal_moves,
    next_seat,
    top_card,
    wins_with,
)
from sim.games.sequence_stacks.state import (
    CHIPS,
    COMPLETED_SLOT,
    COMPLETER,
    DIRECTION,
    FORBID,
    FORBID_TOP,
    HAND,
    PHASE,
    PILE_LEN,
    PLAYERS,
)
from strategies import presets
from strategies.presets import RANDOM, SEARCH, Family, Parameter

PARAMETERS = (
    Parameter("block_at", 4.0, 0.0, 10.0,
              "block a completion that would bring its completer to at least this many chips"),
    Parameter("block_wins", 1.0, 0.0, 1.0, "1: always block a completion that would win the game"),
    Parameter("steal_at", 2.0, 0.0, 10.0,
              "steal a chip only from an opponent holding at least this many chips"),
    Parameter("hold_wilds", 1.0, 0.0, 1.0, "1: keep wilds for completing sequences"),
    Parameter("caution", 1.0, 0.0, 5.0,
              "how much to avoid leaving a pile one card short of complete for the next player"),
    Parameter("leave_playable", 0.0, 0.0, 1.0,
              "preference for discarding a card that fits a pile (playable from the discard "
              "pile next turn) over the least useful card"),
    Parameter("noise", 0.05, 0.0, 5.0, "random jitter added to every move's score"),
)
BLOCK_AT, BLOCK_WINS, STEAL_AT, HOLD_WILDS, CAUTION, LEAVE_PLAYABLE, NOISE = range(len(PARAMETERS))
SEARCH_AT = len(PARAMETERS)  # where the search family's parameters start in the vector
VECTOR = PARAMETERS + search.PARAMETERS
"""Every family's parameters, in the order of a seat's parameter vector."""

PRESETS = {
    "default": {},
    "eager-blockers": {"block_at": 0.0},
    "never-block": {"block_at": 99.0, "block_wins": 0.0},
    "chip-thieves": {"steal_at": 0.0},
    "wild-spenders": {"hold_wilds": 0.0},
    "reckless": {"caution": 0.0},
    "hoarders": {"leave_playable": 1.0},
    **search.PRESETS,
}


FAMILIES = (
    Family("random", "uniform over the legal moves (a Block whenever a coin says so)"),
    Family("default", "scores every legal move: completes sequences for a chip it needs, steals "
                      "chips from the leaders, skips a threatening next player, blocks "
                      "completions that bring their completer near a win, then discards its "
                      "least useful card", PARAMETERS),
    search.family(PARAMETERS),
)
BUILT_IN = presets.built_in(PRESETS)
"""The presets as `simulate strategies` lists them: name -> (family, parameters changed)."""


strategy_names, resolve = presets.lookups(PRESETS, VECTOR, FAMILIES)


@small_rule
def choose(s, rs, seat, family, params, out):
    """Writes the move `seat` makes into out[:5]."""
    if family == SEARCH:
        search.decide(s, rs, seat, params, SEARCH_AT, out)
    else:
        builtin_choose(s, rs, seat, family, params, out)


@small_rule
def builtin_choose(s, rs, seat, family, params, out):
    """Writes the move of the random or default family into out[:5] (what a search's
    rollouts play: no search)."""
    m, rngs, moves = s.m, s.rngs, s.moves
    n = legal_moves(m, rs, moves, seat)
    if family == RANDOM:
        best_i = rng.below(rngs[1 + seat], n)
    elif m[PHASE] == WINDOW:
        best_i = 0 if wants_block(m, rs, seat, params) else 1
    else:
        best_i = best_move(m, rngs, rs, moves, seat, params, n)
    for f in range(out.shape[0]):
        out[f] = moves[best_i, f]


# ---- what a player can read off the table ----------------------------------------------------

@small_rule
def chip_use(m, rs, seat, colour):
    """Gives how much a chip of `colour` brings `seat` nearer to winning: 1.0 for a colour it
    still needs 2 of, 0.5 for one that only adds to its count, 0.0 for a chip it cannot use."""
    each, to_win = rs.numbers[EACH_COLOUR], rs.numbers[TO_WIN]
    red, blue = m[CHIPS + 2 * seat], m[CHIPS + 2 * seat + 1]
    if (colour == 0 and red < each) or (colour == 1 and blue < each):
        return 1.0
    short = max(each - red, 0) + max(each - blue, 0)
    return 0.5 if to_win - red - blue > short else 0.0


@small_rule
def threat(m, rs, seat):
    """Gives how close `seat` is to winning, as everyone sees it: 4 / (1 + chips missing)."""
    each, to_win = rs.numbers[EACH_COLOUR], rs.numbers[TO_WIN]
    red, blue = m[CHIPS + 2 * seat], m[CHIPS + 2 * seat + 1]
    missing = max(to_win - red - blue, max(each - red, 0) + max(each - blue, 0))
    return 4.0 / (1.0 + missing)


@small_rule
def playable(m, rs):
    """Gives the mask of the numbers (bit = card type) that could be played on the piles as
    they are: the next number of each open pile, and a 1 while a pile may be opened."""
    mask = 0
    for colour in range(2):
        if free_slot(m, rs, colour) >= 0:
            mask |= 1 << (colour * 6 + 1)
        for slot in range(colour * MAX_OPEN, colour * MAX_OPEN + MAX_OPEN):
            length = m[PILE_LEN + slot]
            if 0 < length < SEQUENCE:
                mask |= 1 << (colour * 6 + length + 1)
    return mask


# How much a player wants to keep each card type, before what fits the piles (the card worth
# least is discarded). Blocks come first: they are played from the hand, out of turn.
#                wild, 1-5 of red;         wild, 1-5 of blue;        skip, reverse, steal-a-card,
#                                                                     block, steal-a-chip
KEEP = np.array([3.5, 0.5, 0.5, 0.5, 0.5, 0.5, 3.5, 0.5, 0.5, 0.5, 0.5, 0.5, 2.0, 1.0, 1.5, 4.0, 3.0])


@small_rule
def keep_value(t, fit, leave_playable):
    """Gives how much a player wants to keep a card of type t, `fit` being `playable`'s mask."""
    return KEEP[t] + ((1.5 - 2.0 * leave_playable) if (fit >> t) & 1 else 0.0)


@small_rule
def can_follow(m, seat, t, source, spent):
    """Gives whether `seat` still holds a card of type t (in hand or atop its discard pile)
    after playing one of type `spent` from `source`, and may play it (see engine.legal_moves)."""
    forbid = m[FORBID + seat]
    if (forbid >> t) & 1:
        return False
    if m[HAND + seat * TYPES + t] - (1 if source != TOP and spent == t else 0) > 0:
        return True
    return source != TOP and top_card(m, seat) == t and not forbid & FORBID_TOP


# ---- the default family -----------------------------------------------------------------------

@small_rule
def wants_block(m, rs, seat, params):
    """Gives whether `seat` plays a Block on the completion the game waits on."""
    q = m[COMPLETER]
    colour = m[COMPLETED_SLOT] // MAX_OPEN
    if not chip_available(m, rs, colour):
        return False  # there is no chip to deny
    red, blue = m[CHIPS + 2 * q] + 1 - colour, m[CHIPS + 2 * q + 1] + colour
    if wins_with(rs, red, blue):
        return params[BLOCK_WINS] > 0.5
    spare = 1.0 if m[HAND + seat * TYPES + BLOCK] > 1 else 0.0  # a second Block is cheaper to spend
    return chip_use(m, rs, q, colour) > 0 and red + blue >= params[BLOCK_AT] - spare


@rule
def best_move(m, rngs, rs, moves, seat, params, n):
    """Gives the index in `moves` of the best-scoring of `seat`'s n legal moves in their turn."""
    r = rngs[1 + seat]
    p = m[PLAYERS]
    caution, noise, hold_wilds = params[CAUTION], params[NOISE], params[HOLD_WILDS] > 0.5
    leave_playable = params[LEAVE_PLAYABLE]
    fit = playable(m, rs)
    best = -1e18
    best_i = 0
    for i in range(n):
        action, source, t, a, b = moves[i, 0], moves[i, 1], moves[i, 2], moves[i, 3], moves[i, 4]
        if action == PLAY:
            colour = t // 6
            length = m[PILE_LEN + a] + 1
            if length == SEQUENCE:
                score = 10.0 + 10.0 * chip_use(m, rs, seat, colour) \
                    if chip_available(m, rs, colour) else 1.0
            else:
                score = 1.0  # a card out of the hand is a card drawn next turn
                if length == SEQUENCE - 1:
                    # Can this turn finish the pile, or is it left for the next player?
                    if can_follow(m, seat, colour * 6 + SEQUENCE, source, t) \
                            or can_follow(m, seat, colour * 6, source, t):
                        score += 2.0
                    else:
                        score -= 3.0 * caution
                if t % 6 == 0 and hold_wilds:
                    score -= 3.0
            if source == TOP:
                score += 0.5  # the card under it becomes playable
        elif action == ACT:
            if t == STEAL_CHIP:
                if wins_with(rs, m[CHIPS + 2 * seat] + 1 - b, m[CHIPS + 2 * seat + 1] + b):
                    score = 100.0  # only when the rules allow a winning steal
                else:
                    score = 2.0 + 3.0 * chip_use(m, rs, seat, b) + threat(m, rs, a)
                    if m[CHIPS + 2 * a] + m[CHIPS + 2 * a + 1] < params[STEAL_AT]:
                        score -= 8.0
            elif t == SKIP:
                score = 1.0 + threat(m, rs, next_seat(m, seat))
            elif t == REVERSE:
                previous = (seat - m[DIRECTION] + p) % p
                score = threat(m, rs, next_seat(m, seat)) - threat(m, rs, previous) - 0.5
            else:  # Steal-a-Card: the card, and what it denies its owner
                score = 0.5 + keep_value(top_card(m, a), fit, 0.0) + 0.3 * threat(m, rs, a)
        elif action == DISCARD:
            score = -0.1 * keep_value(t, fit, leave_playable)
        else:
            score = 0.0
        score += noise * rng.uniform(r)
        if score > best:
            best = score
            best_i = i
    return best_i
