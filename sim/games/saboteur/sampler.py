"""Saboteur's information-set sampler: re-deals, in place, what one seat cannot see.

`resample(s, rs, seat, r)` turns a state into another state the seat could be in, drawn from
stream `r` (sim/rng.py), for search bots (determinization) and for the test that no built-in bot
reads hidden information. What the seat knows stays as it is: its own hand and role, the goals
it has looked at with a map, and the public table (the maze, turned-over goals, broken tools,
hand sizes, the size of the pile, who looked at which goal, gold, the public records of
suspicion, of each seat's log-likelihood ratio of being a saboteur and of its lean towards the
goals it looked at). Re-dealt, consistently
with that:
  - the other seats' hands (each keeps its size) and the order of the draw pile, together: the
    cards in them are shuffled and dealt back (the multiset of hidden cards is kept);
  - the other seats' roles: from the role cards left once the seat's own is taken out (one may
    stay out of play, so the number of saboteurs in play is re-drawn too), or, with a fixed
    number of saboteurs, that number's roles shuffled among the other seats; or, for a search
    seat that deals its worlds from its belief (g[BELIEF_WORLDS] set: the `search-belief`
    presets), drawn from the seat's posterior over the role assignments (belief.py: the same
    prior, weighted by how likely each assignment makes the moves the table has seen);
  - the goals the seat has neither seen nor seen turned over (their kinds shuffled);
  - everything still to be drawn: the other seats' bot streams, the gold pile's stream, and the
    seed the later rounds' deals are drawn from.
Hidden things are sorted before they are shuffled (see sim/sampling.py).
Face-down discards left the game: the sampler does not put them back among the hidden cards
(the state does not record them), so it assumes the seat knows which cards were discarded.
"""

from sim import rng, sampling
from sim.jit import rule, small_rule
from sim.games.saboteur import belief
from sim.games.saboteur.engine import MINER, SABOTEUR, summed
from sim.games.saboteur.state import (BELIEF_WORLDS, DRAW_AT, FIXED_SABOTEURS, PLAYERS,
                                      SABOTEURS, SEED)


@small_rule
def _deal_roles(s, rs, seat, r):
    """Deals the other seats' roles uniformly: the role cards of the player count less the
    seat's own (the number of saboteurs in play drawn with them), or with a fixed number of
    saboteurs those roles shuffled among the other seats; sets the number in play."""
    g, role, scratch = s.g, s.role, s.scratch
    p = g[PLAYERS]
    if g[FIXED_SABOTEURS] >= 0:
        n = 0
        for q in range(p):
            if q != seat:
                scratch[n] = role[q]
                n += 1
        sampling.sort(scratch[:n])
        rng.shuffle(r, scratch[:n])
    else:
        # The role cards of this player count, less the seat's own.
        n = rs.saboteur_cards[p] + rs.miner_cards[p] - 1
        saboteurs = rs.saboteur_cards[p] - (1 if role[seat] == SABOTEUR else 0)
        for k in range(n):
            scratch[k] = SABOTEUR if k < saboteurs else MINER
        rng.shuffle(r, scratch[:n])
    k = 0
    for q in range(p):
        if q != seat:
            role[q] = scratch[k]
            k += 1
    g[SABOTEURS] = summed(role)


@rule
def resample(s, rs, seat, r):
    """Re-deals in place everything `seat` cannot know (see the module docstring)."""
    g, scratch = s.g, s.scratch
    sampling.redeal_hands(s.deck, g[DRAW_AT], s.hand, s.hand_n, seat, r)

    if g[BELIEF_WORLDS]:
        belief.draw_roles(s, rs, seat, r)
    else:
        _deal_roles(s, rs, seat, r)

    kind, shown, seen = s.goal_kind, s.goal_shown, s.seen
    n = 0
    for i in range(3):
        if not shown[i] and not seen[seat, i]:
            scratch[n] = kind[i]
            n += 1
    sampling.sort(scratch[:n])
    rng.shuffle(r, scratch[:n])
    k = 0
    for i in range(3):
        if not shown[i] and not seen[seat, i]:
            kind[i] = scratch[k]
            k += 1

    sampling.redraw_streams(s.bot_rng, seat, r)
    s.gold_rng[0] = rng.next_u64(r)
    s.deal_rng[0] = rng.next_u64(r)
    g[SEED] = sampling.fresh_seed(r)
