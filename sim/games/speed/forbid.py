"""Restricted play in Speed: `--forbid play_up` / `play_down` (Speed's only moves are plays; the
side-pile cards are turned up by both players at a stall, not chosen), as State.forbid bits."""

from functools import partial

from sim.jit import small_rule
from sim.games.speed.state import PLAY
from sim.games.spit import forbid

names = partial(forbid.names, kinds=forbid.DIRECTIONS)
mask = partial(forbid.mask, kinds=forbid.DIRECTIONS)
USES = tuple(forbid.DIRECTIONS)  # the kinds the seats table counts (uses_<kind>): Spit's first two


@small_rule
def use_of(s, rs, c, seat):
    """Gives the kinds (bit k: USES[k]) of `seat`'s planned play, before it lands (0 for a plan
    that cannot land)."""
    kind, slot, b = c.plan[seat, 0], c.plan[seat, 1], c.plan[seat, 2]
    if kind != PLAY or slot < 0 or slot >= s.hand.shape[1] or b < 0 or b > 1 \
            or s.hand[seat, slot] < 0 or s.centre_n[b] == 0:
        return 0
    return forbid.plays(rs, seat, s.hand[seat, slot], s.forbid[seat],
                        s.centre[b, s.centre_n[b] - 1])
