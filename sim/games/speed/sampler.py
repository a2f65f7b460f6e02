"""Speed's information-set sampler: re-deals, in place, what one seat cannot see.

`resample(s, rs, seat, r)` turns a state into another state the seat could be in, drawn from
stream `r` (sim/rng.py), for search bots (determinization) and for the test that no built-in bot
reads hidden information; the clock is re-drawn by Spit's `resample_clock(c, r)`, re-exported
here. What the seat knows stays as it is: its own hand, the centre piles, how many cards each
hand, draw pile and side pile holds. Re-dealt, consistently with that (hidden things sorted
before they are shuffled: see sim/sampling.py):
  - the other seat's hand (its cards in the same slots), both draw piles (the seat's own is
    face down too) and both side piles: their cards are shuffled and laid back in the same
    places (the multiset of hidden cards is kept);
  - everything still to be drawn: the hand's stream (recycled centre piles are shuffled with
    it), the seed later hands are dealt from and the other seat's bot stream.
"""

from sim import rng, sampling
from sim.jit import rule
from sim.games.speed.state import SEED
from sim.games.spit.sampler import resample_clock

__all__ = ["resample", "resample_clock"]


@rule
def resample(s, rs, seat, r):
    """Re-deals in place everything `seat` cannot know (see the module docstring)."""
    hand, draw, draw_n, side, side_n = s.hand, s.draw, s.draw_n, s.side, s.side_n
    other = 1 - seat
    pool = s.deck  # scratch for dealing and recycling
    n = 0
    for slot in range(hand.shape[1]):
        if hand[other, slot] >= 0:
            pool[n] = hand[other, slot]
            n += 1
    for q in range(2):
        for i in range(draw_n[q]):
            pool[n] = draw[q, i]
            n += 1
        for i in range(side_n[q]):
            pool[n] = side[q, i]
            n += 1
    sampling.sort(pool[:n])
    rng.shuffle(r, pool[:n])
    n = 0
    for slot in range(hand.shape[1]):
        if hand[other, slot] >= 0:
            hand[other, slot] = pool[n]
            n += 1
    for q in range(2):
        for i in range(draw_n[q]):
            draw[q, i] = pool[n]
            n += 1
        for i in range(side_n[q]):
            side[q, i] = pool[n]
            n += 1
    # The scratch deck still holds the hand's deal, which would tell who has which cards:
    # nothing reads it before writing it, but a bot that did must not find the real deal there.
    pool[:] = 0
    sampling.redraw_streams(s.bot_rng, seat, r)
    s.deal_rng[0] = rng.next_u64(r)
    s.g[SEED] = sampling.fresh_seed(r)
