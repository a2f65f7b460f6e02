"""Deep Space's information-set sampler: re-deals, in place, what one seat cannot see.

`resample(s, rs, seat, r)` turns a state into another state the seat could be in, drawn from
stream `r` (sim/rng.py), for search bots (determinization) and for the test that no built-in bot
reads hidden information. What the seat knows stays as it is: its own hand and the public table
(the board, every colour's gems, ore, supply and bases, hand sizes, the size of the draw pile,
the discard pile, the bank). Re-dealt, consistently with that:
  - the other seats' hands (each keeps its size) and the order of the draw pile, together: the
    cards in them are shuffled and dealt back (the multiset of hidden cards is kept);
  - everything still to be drawn: the deal's stream (it reshuffles the discard pile), the combat
    dice and the other seats' bot streams.
"""

from sim import rng, sampling
from sim.games.deep_space.state import DRAW_AT
from sim.jit import rule


@rule
def resample(s, rs, seat, r):
    """Re-deals in place everything `seat` cannot know (see the module docstring)."""
    sampling.redeal_hands(s.deck, s.g[DRAW_AT], s.hand, s.hand_n, seat, r)
    sampling.redraw_streams(s.bot_rng, seat, r)
    s.deal_rng[0] = rng.next_u64(r)
    s.dice_rng[0] = rng.next_u64(r)
