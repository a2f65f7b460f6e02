"""Restricted play in Spit (and Speed): the move kinds `--forbid` takes, as a seat's bits of
State.forbid.

A forbidden kind is never played by that seat: its moves are not legal for it, for the jitted
bots and for Python bots alike. In a race nobody must move, so a seat whose restrictions leave
it no move simply waits (a stall resolves it, or the caps end the game as stalled).
"""

from sim.spit.state import FORBID_DOWN, FORBID_SHIFT, FORBID_STACK, FORBID_UP

DIRECTIONS = {  # Speed's kinds too: a play's direction is all that tells plays apart
    "play_up": ("playing a card one rank above a pile's top (a King on a Queen, an Ace on a King)",
                FORBID_UP),
    "play_down": ("playing a card one rank below a pile's top (a Queen on a King, a King on an Ace)",
                  FORBID_DOWN),
}
KINDS = {
    **DIRECTIONS,
    "fill_space": ("moving a face-up card into an empty space to uncover the card beneath",
                   FORBID_SHIFT),
    "stack_equal": ("stacking a card on an equal rank to uncover one (variant stack_equal_ranks)",
                    FORBID_STACK),
    "uncover": ("fill_space and stack_equal: moving any card to uncover another",
                FORBID_SHIFT | FORBID_STACK),
}


def names(rules: dict, kinds: dict = KINDS) -> dict[str, str]:
    """Gives every name --forbid takes, with what it forbids."""
    return {name: meaning for name, (meaning, _) in kinds.items()}


def mask(forbidden: tuple[str, ...], kinds: dict = KINDS) -> int:
    """Gives one seat's State.forbid bits for these (known) names."""
    bits = 0
    for name in forbidden:
        bits |= kinds[name][1]
    return bits
