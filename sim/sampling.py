"""What the games' information-set samplers (sim/games/<game>/sampler.py) share: re-dealing hidden
hands with the draw pile, and re-drawing the random streams a seat cannot know.

Hidden things are sorted before they are shuffled: a re-deal is then a function of what the
seat knows and the stream alone, whatever the real deal was, so that a search bot
(sim/search.py) re-dealing from its own stream sees the same worlds in every position the seat
cannot tell apart."""

import numpy as np

from sim import rng
from sim.jit import rule


@rule
def redeal_hands(deck, draw_at, hand, hand_n, seat, r):
    """Shuffles the hands of every seat but `seat` together with the draw pile deck[draw_at:]
    and deals them back, each hand keeping its size; the pile keeps the cards left, and the
    cards drawn before are shuffled too.

    Hands are rows of `hand` filled from slot 0 (`hand_n` cards). The other hands' cards go into
    the deck just before the pile: that part of the deck holds cards already drawn, which
    nothing reads again, and has room for them (every card in a hand was drawn from it).
    """
    p = hand.shape[0]
    hidden = 0
    for q in range(p):
        if q != seat:
            hidden += hand_n[q]
    first = draw_at - hidden
    i = first
    for q in range(p):
        if q != seat:
            for j in range(hand_n[q]):
                deck[i] = hand[q, j]
                i += 1
    sort(deck[first:])
    rng.shuffle(r, deck[first:])
    i = first
    for q in range(p):
        if q != seat:
            for j in range(hand_n[q]):
                hand[q, j] = deck[i]
                i += 1
    # The order the rest was drawn in would tell who was dealt what: nothing reads it, but a
    # bot that did must not find the real deal there.
    sort(deck[:first])
    rng.shuffle(r, deck[:first])


@rule
def sort(a):
    """Sorts a short 1-D array in place (insertion sort: hidden cards number a few dozen, and
    numpy's sort would allocate)."""
    for i in range(1, a.shape[0]):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@rule
def redraw_streams(streams, seat, r):
    """Restarts every seat's stream but `seat`'s (streams: one row of one uint64 per seat) at
    a point drawn from `r`."""
    for q in range(streams.shape[0]):
        if q != seat:
            streams[q, 0] = rng.next_u64(r)


@rule
def fresh_seed(r):
    """Gives a seed (a non-negative int64) drawn from `r`, for deals still to come."""
    return np.int64(rng.next_u64(r) >> np.uint64(1))
