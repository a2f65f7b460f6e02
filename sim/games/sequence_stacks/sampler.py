"""Sequence Stacks' information-set sampler: re-deals, in place, what one seat cannot see.

`resample(s, rs, seat, r)` turns a state into another state the seat could be in, drawn from
stream `r` (sim/rng.py), for search bots (determinization) and for the test that no built-in bot
reads hidden information. What the seat knows stays as it is: its own hand and the public table
(sequence piles, the removed piles, every face-up discard pile, chips, hand sizes, the size of
the draw pile, skips, the direction). Re-dealt, consistently with that:
  - the other seats' hands (each keeps its size) and the order of the draw pile, together: the
    cards in them are shuffled and dealt back (the multiset of hidden cards is kept);
  - everything still to be drawn: the deal's stream (it shuffles the removed piles into a new
    draw pile) and the other seats' bot streams.
A card another seat took with Steal-a-Card was seen going into its hand; the state does not
record it, so the sampler may deal it elsewhere (it forgets, never learns, what the seat saw).
"""

from sim import rng, sampling
from sim.jit import rule
from sim.games.sequence_stacks.cards import TYPES
from sim.games.sequence_stacks.engine import hand_add
from sim.games.sequence_stacks.state import DRAW, DRAW_N, HAND, HAND_N, HELD, MAX_DECK, PLAYERS


@rule
def resample(s, rs, seat, r):
    """Re-deals in place everything `seat` cannot know (see the module docstring)."""
    m, rngs = s.m, s.rngs
    p = m[PLAYERS]
    # The other hands go onto the draw pile's region above its top (the region has room for
    # the whole deck), the lot is shuffled, and the hands are dealt back from above the pile.
    n = m[DRAW_N]
    for q in range(p):
        if q != seat:
            for t in range(TYPES):
                for _ in range(m[HAND + q * TYPES + t]):
                    m[DRAW + n] = t
                    n += 1
                m[HAND + q * TYPES + t] = 0
    sampling.sort(m[DRAW:DRAW + n])  # see sim/sampling.py
    rng.shuffle(r, m[DRAW:DRAW + n])
    for q in range(p):
        if q != seat:
            size = m[HAND_N + q]
            m[HAND_N + q] = 0
            m[HELD + q] = 0
            for _ in range(size):
                n -= 1
                hand_add(m, q, m[DRAW + n])
    # Above the pile lie the cards drawn before, which would tell who was dealt what, and which
    # of the hidden cards are in hands: nothing reads them, but a bot that did must find
    # nothing of the real deal there (shuffled, they would still tell which cards).
    # The stream still draws what shuffling them drew, so that every search plays as before.
    m[DRAW + m[DRAW_N]:DRAW + MAX_DECK] = 0
    rng.shuffle(r, m[DRAW + m[DRAW_N]:DRAW + MAX_DECK])
    rngs[0, 0] = rng.next_u64(r)
    sampling.redraw_streams(rngs[1:], seat, r)
