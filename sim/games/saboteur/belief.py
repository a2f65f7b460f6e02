"""A Bayesian belief over Saboteur's hidden roles, updated by Bayes' rule after every public move.

The model of play (after Cowling, Whitehouse and Powley, "Emergent bluffing and inference with
Monte Carlo Tree Search", IEEE CIG 2015: an explicit model of how each role plays, and exact
inference over the role assignments). A move is seen by the table through its public effect,
summed up as how much it helps the miners, `h` (`evidence`):
  - a path card: the cards it brings the path's open end nearer the gold, as the table believes
    the goals lie (the goals turned over), at most 2; a card that brings it no nearer counts
    0.5 less; a dead end 1.5 less, and a dead end that cuts the path (the open end 3 or more
    cards further) counts -3;
  - breaking another player's tool: 6 p - 3, where p is the table's chance that the target is a
    saboteur (breaking a suspect helps, breaking a trusted player hurts); repairing: 3 - 6 p;
  - a rockfall that cuts the path joined to the start: -2; one that clears a dead end: +1;
  - a map, a discard, an action on oneself: 0 (it tells nothing).
Each role plays a move with public effect h with a probability proportional to a softmax of
its team's interest at temperature T: P(h | miner) ~ exp(h / 2T), P(h | saboteur) ~ exp(-h / 2T)
(the normalisers are equal for a distribution of effects symmetric about 0). The likelihood of
a move depends on the mover's role alone, so the whole public record is one log-likelihood
ratio per seat, `State.llr[q]` = sum over q's moves of log P(move | saboteur) - log P(move |
miner) = -h / T (each seat's ratio kept within +-LLR_LIMIT, so that a few hundred moves cannot
overflow). It is public: every player computes it alike, and the sampler keeps it.

The posterior over role assignments A (a set of saboteur seats) is then exactly
    P(A | record) ~ prior(A) * exp(sum of llr[q] for q in A),
the prior from the role cards of the player count (`cards.saboteur_cards`, `miner_cards`: the
seats' roles are p of the p + 1 cards, so the number of saboteurs in play varies and
prior(A) = C(S, k) C(M, p - k) / C(p, k) for k saboteurs), or with a fixed number F of
saboteurs, uniform over the sets of F seats. The marginals are exact sums over the sets by size
(elementary symmetric polynomials); `draw_roles` lists the sets, at most 2**10. A
seat's own belief conditions on its own role (saboteurs do not see each other in these rules:
a saboteur knows only that it is one). `marginals` gives each seat's chance of being a
saboteur; `draw_roles` deals the other seats' roles from a seat's posterior (the belief
search's worlds: sampler.py).
"""

import math

from sim import rng
from sim.jit import rule, small_rule
from sim.games.saboteur.cards import BREAK, REPAIR, ROCKFALL
from sim.games.saboteur.engine import PLACE, SABOTEUR, summed
from sim.games.saboteur.state import FIXED_SABOTEURS, PLAYERS, SABOTEURS

TEMPERATURE = 1.0  # T: how sharply a role's moves follow its team's interest
LLR_LIMIT = 30.0  # a seat's log-likelihood ratio stays within +-LLR_LIMIT
# rows of State.posterior: a seat's own belief, the table's, the prior by count, and scratch:
# exp(llr), the elementary symmetric polynomials of it over the seats, and over all but one
OWN, TABLE, PRIOR, EXP_LLR, SYMMETRIC, SYMMETRIC_BUT = range(6)


@small_rule
def evidence(action, through, gain, target, target_suspect, seat, cut_path):
    """Gives h, how much a move's public effect helps the miners (see the module docstring).

    gain: for a path card, the cards the path's open end came nearer the gold as the table
    believes the goals lie; target: the seat a tool was broken or repaired for, whose chance
    of being a saboteur the table put at `target_suspect`; cut_path: whether a rockfall took
    out a card of the path joined to the start."""
    if action == PLACE:
        g = min(max(gain, -3.0), 2.0)
        if through:
            return g if g > 0.0 else g - 0.5
        return max(min(g, 0.0) - 1.5, -3.0)
    if action == BREAK and target != seat:
        return 6.0 * target_suspect - 3.0
    if action == REPAIR and target != seat:
        return 3.0 - 6.0 * target_suspect
    if action == ROCKFALL:
        return -2.0 if cut_path else 1.0
    return 0.0


@small_rule
def record(s, seat, h):
    """Adds a move of `seat` with public effect h to the public record (State.llr)."""
    s.llr[seat] = min(max(s.llr[seat] - h / TEMPERATURE, -LLR_LIMIT), LLR_LIMIT)


@small_rule
def _log_choose(n, k):
    if k < 0 or k > n:
        return -math.inf
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@small_rule
def prior(s, rs, out):
    """Writes into out[k] the prior chance (up to a constant factor) of one particular set of k
    saboteur seats, for k = 0..players."""
    p = s.g[PLAYERS]
    fixed = s.g[FIXED_SABOTEURS]
    n_sab, n_min = rs.saboteur_cards[p], rs.miner_cards[p]
    for k in range(p + 1):
        if fixed >= 0:
            out[k] = 1.0 if k == fixed else 0.0
        else:
            lw = _log_choose(n_sab, k) + _log_choose(n_min, p - k) - _log_choose(p, k)
            out[k] = math.exp(lw) if lw > -math.inf else 0.0


@small_rule
def _weight(s, by_count, seat, mask):
    """Gives the posterior weight (up to a constant factor) of the saboteur set `mask` (bit q:
    seat q), 0 where it contradicts `seat`'s own role (seat -1: the table, no role known)."""
    if seat >= 0 and (mask >> seat) & 1 != (1 if s.role[seat] == SABOTEUR else 0):
        return 0.0
    llr = s.llr
    k = 0
    x = 0.0
    for q in range(s.g[PLAYERS]):
        if (mask >> q) & 1:
            k += 1
            x += llr[q]
    w = by_count[k]
    return w * math.exp(x) if w > 0.0 else 0.0


@small_rule
def _symmetric(x, p, skip, skip_too, e):
    """Writes into e[j] the elementary symmetric polynomial of degree j of x[q] over the seats q
    < p but `skip` and `skip_too` (the sum, over every set of j of those seats, of the product
    of their x), for j = 0..p; gives how many seats it ranged over."""
    for j in range(p + 1):
        e[j] = 0.0
    e[0] = 1.0
    n = 0
    for q in range(p):
        if q != skip and q != skip_too:
            n += 1
            for j in range(n, 0, -1):
                e[j] += x[q] * e[j - 1]
    return n


@rule
def marginals(s, rs, seat, out):
    """Writes into out[q] the chance that seat q is a saboteur, as `seat` sees it (its own role
    and the public record; seat -1: the table's view, the record alone).

    Exact, without listing the 2**p sets: a set's weight is prior(k) times the product of
    exp(llr[q]) over its seats, so summed by size the weights are the elementary symmetric
    polynomials of exp(llr) (O(p**2) each), and seat q's share those of the other seats."""
    p = s.g[PLAYERS]
    by_count, x = s.posterior[PRIOR], s.posterior[EXP_LLR]
    every, but_q = s.posterior[SYMMETRIC], s.posterior[SYMMETRIC_BUT]
    prior(s, rs, by_count)
    for q in range(p):
        x[q] = math.exp(s.llr[q])
    # a seat's own role is known to it: a saboteur is in every set it weighs, a miner in none
    known = 1 if seat >= 0 and s.role[seat] == SABOTEUR else 0
    n = _symmetric(x, p, seat, -1, every)
    total = 0.0
    for j in range(n + 1):
        total += by_count[known + j] * every[j]
    for q in range(p):
        out[q] = 0.0
    if total <= 0.0:
        return
    for q in range(p):
        if q == seat:
            out[q] = known
            continue
        _symmetric(x, p, seat, q, but_q)
        with_q = 0.0
        for j in range(n):
            with_q += by_count[known + 1 + j] * but_q[j]
        out[q] = min(x[q] * with_q / total, 1.0)  # not above 1 by rounding


@rule
def draw_roles(s, rs, seat, r):
    """Deals, from stream r, the other seats' roles from `seat`'s posterior (its own role
    kept), and sets the number of saboteurs in play."""
    p = s.g[PLAYERS]
    by_count = s.posterior[PRIOR]
    prior(s, rs, by_count)
    total = 0.0
    for mask in range(1 << p):
        total += _weight(s, by_count, seat, mask)
    u = rng.uniform(r) * total
    chosen = -1
    for mask in range(1 << p):
        w = _weight(s, by_count, seat, mask)
        if w > 0.0:
            chosen = mask
            u -= w
            if u < 0.0:
                break
    role = s.role
    for q in range(p):
        if q != seat:
            role[q] = (chosen >> q) & 1
    s.g[SABOTEURS] = summed(role)
