"""Restricted play in Sequence Stacks: the cards and moves `--forbid` takes, as the engine's mask.

A forbidden card or move is never played by that seat: its moves are not legal for it, for the
jitted bots and for Python bots alike. The seat may still discard a forbidden card, and
discarding (or ending a turn with an empty hand) is never forbidden, so a seat always has a
move. A seat forbidden to Block is not asked whether to Block.
"""

import numpy as np

from sim.jit import small_rule
from sim.games.sequence_stacks.cards import (
    BLOCK,
    BLUE,
    RED,
    REVERSE,
    SKIP,
    STEAL_CARD,
    STEAL_CHIP,
    TYPES,
    WILD,
    card_type,
)
from sim.games.sequence_stacks.engine import ACT, BLOCK_IT, PLAY, TOP
from sim.games.sequence_stacks.state import FORBID_TOP

KINDS = {  # name: (bits of the seat's FORBID mask, what it forbids)
    "skip": (1 << SKIP, "playing a Skip (the next player loses a turn)"),
    "reverse": (1 << REVERSE, "playing a Reverse (play changes direction)"),
    "steal_card": (1 << STEAL_CARD, "playing a Steal-a-Card (the top of a discard pile)"),
    "steal_chip": (1 << STEAL_CHIP, "playing a Steal-a-Chip"),
    "block": (1 << BLOCK, "blocking another player's completed sequence"),
    "wild": ((1 << card_type(RED, WILD)) | (1 << card_type(BLUE, WILD)),
             "playing a red or blue wild on a sequence pile"),
    "from_discard": (FORBID_TOP, "playing a card from the top of its own discard pile"),
}


USES = tuple(KINDS)  # the kinds the seats table counts (uses_<kind>), in this order


def _type_uses() -> np.ndarray:
    """Gives, per card type, the kinds (bit k: USES[k]) that playing it is."""
    found = np.zeros(TYPES, np.int64)
    for k, name in enumerate(USES):
        for t in range(TYPES):
            if KINDS[name][0] >> t & 1:
                found[t] |= 1 << k
    return found


_TYPE_USES = _type_uses()
_FROM_DISCARD = 1 << USES.index("from_discard")


@small_rule
def use_of(move):
    """Gives the kinds (bit k: USES[k]) of a move: its card's kind for a play, an action card or
    a Block, and from_discard too when the card came off the seat's own discard pile."""
    action = move[0]
    if action != PLAY and action != ACT and action != BLOCK_IT:
        return 0
    kinds = _TYPE_USES[move[2]]
    if move[1] == TOP:
        kinds |= _FROM_DISCARD
    return kinds


def names(rules: dict) -> dict[str, str]:
    """Gives every name --forbid takes, with what it forbids (the same for any rules: the deck
    always has these kinds of card, in counts the rules set)."""
    return {name: meaning for name, (_, meaning) in KINDS.items()}


def mask(forbidden: tuple[str, ...]) -> int:
    """Gives one seat's FORBID mask (state.py) of the names it may not play."""
    bits = 0
    for name in forbidden:
        bits |= KINDS[name][0]
    return bits
