"""Spit's information-set sampler: re-deals, in place, what one seat cannot see; and the clock's
re-draw, which Speed shares.

`resample(s, rs, seat, r)` turns a state into another state the seat could be in, drawn from
stream `r` (sim/rng.py), for search bots (determinization) and for the test that no built-in bot
reads hidden information; `resample_clock(c, r)` does the same for the race's clock. What the
seat knows stays as it is: every face-up card (the stock piles' face-up tops, the spit piles),
how many cards lie face down where, who started which spit pile. Re-dealt, consistently with
that (hidden things sorted before they are shuffled: see sim/sampling.py):
  - every face-down card, the seat's own included (it cannot see them either): the face-down
    stock cards and the spit cards of both seats are shuffled and laid back where face-down
    cards lay (the multiset of hidden cards is kept);
  - everything still to be drawn: the deal's stream (taken-back spit piles are shuffled with it),
    the seed later deals are drawn from, the other seat's bot stream, both seats' reaction
    times and the coin that breaks equal times.
The other seat's planned move and when it lands are kept: the move names public piles (the
seat sees the hand on its way).
The sampler assumes the seat remembers no card once it lies face down (a player who counts
cards knows more: e.g. which cards a taken-back spit pile holds).
"""

from sim import rng, sampling
from sim.jit import rule, small_rule
from sim.games.spit import race
from sim.games.spit.state import SEED


@rule
def resample(s, rs, seat, r):
    """Re-deals in place everything `seat` cannot know (see the module docstring)."""
    stock, stock_n, stock_up, spit, spit_n = s.stock, s.stock_n, s.stock_up, s.spit, s.spit_n
    # During a deal `hold` is empty (hold_n is 0): scratch here, as in engine._split_both.
    pool = s.hold[0]
    n = 0
    for q in range(2):
        for p in range(stock_n.shape[1]):
            for i in range(stock_n[q, p] - stock_up[q, p]):
                pool[n] = stock[q, p, i]
                n += 1
        for i in range(spit_n[q]):
            pool[n] = spit[q, i]
            n += 1
    sampling.sort(pool[:n])
    rng.shuffle(r, pool[:n])
    n = 0
    for q in range(2):
        for p in range(stock_n.shape[1]):
            for i in range(stock_n[q, p] - stock_up[q, p]):
                stock[q, p, i] = pool[n]
                n += 1
        for i in range(spit_n[q]):
            spit[q, i] = pool[n]
            n += 1
    # `hold` still holds the cards as they were gathered or dealt, which would tell who has
    # which: nothing reads them before the next deal's end writes them, but a bot that did must
    # not find the real deal there.
    s.hold[:, :] = 0
    sampling.redraw_streams(s.bot_rng, seat, r)
    s.deal_rng[0] = rng.next_u64(r)
    s.g[SEED] = sampling.fresh_seed(r)


@small_rule
def resample_clock(c, r):
    """Re-draws in place what nobody can know of a real-time game's clock: both seats' future
    reaction times and the coin that breaks equal times."""
    race.restart_streams(c, r)
