"""Restricted play in Spit (and Speed): the move kinds `--forbid` takes, as a seat's bits of
State.forbid.

A forbidden kind is never played by that seat: its moves are not legal for it, for the jitted
bots and for Python bots alike. In a race nobody must move, so a seat whose restrictions leave
it no move simply waits (a stall resolves it, or the caps end the game as stalled).
"""

from sim.jit import small_rule
from sim.games.spit.state import FORBID_DOWN, FORBID_SHIFT, FORBID_STACK, FORBID_UP, PLAY, SHIFT, STACK

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


# The kinds the seats table counts (uses_<kind>), in this order: a play's bits are its fits bits
# (UP, DOWN), so they come first. `uncover` only groups two of them.
USES = ("play_up", "play_down", "fill_space", "stack_equal")
_FILL_SPACE, _STACK_EQUAL = 1 << USES.index("fill_space"), 1 << USES.index("stack_equal")


@small_rule
def plays(rs, seat, card, forbid, top):
    """Gives the kinds (bit k: USES[k]) of `card` played on `top` by a seat with `forbid`
    bits: its direction, as the seat may make it."""
    return rs.fits[card, top] & ~forbid & (FORBID_UP | FORBID_DOWN)


@small_rule
def use_of(s, rs, c, seat):
    """Gives the kinds (bit k: USES[k]) of `seat`'s planned move, before it lands (0 for turning
    a card up, or a plan that cannot land)."""
    kind, a, b = c.plan[seat, 0], c.plan[seat, 1], c.plan[seat, 2]
    if kind == SHIFT:
        return _FILL_SPACE
    if kind == STACK:
        return _STACK_EQUAL
    if kind != PLAY or a < 0 or a >= s.stock_n.shape[1] or b < 0 or b > 1 \
            or s.stock_n[seat, a] == 0 or s.centre_n[b] == 0:
        return 0
    card = s.stock[seat, a, s.stock_n[seat, a] - 1]
    return plays(rs, seat, card, s.forbid[seat], s.centre[b, s.centre_n[b] - 1])


def names(rules: dict, kinds: dict = KINDS) -> dict[str, str]:
    """Gives every name --forbid takes, with what it forbids."""
    return {name: meaning for name, (meaning, _) in kinds.items()}


def mask(forbidden: tuple[str, ...], kinds: dict = KINDS) -> int:
    """Gives one seat's State.forbid bits for these (known) names."""
    bits = 0
    for name in forbidden:
        bits |= kinds[name][1]
    return bits
