"""Speed bots: `random`, the `default` family and `search`, jitted, with named presets. The
search family (sim/search.py; Speed's pieces in sim/games/speed/search.py and sim/games/spit/rollout.py)
rolls out every card the seat may play with the default family.

A bot chooses *which* card its seat plays; the seat's reaction time decides *when* it lands
(sim/games/spit/race.py). A bot sees only its own hand and the centre piles' tops (the other hand
and the draw piles are hidden).
"""

from sim import rng, search
from sim.jit import small_rule
from sim.games.speed.engine import legal_moves
from sim.games.spit import rollout
from strategies import presets
from strategies.presets import RANDOM, SEARCH, Family, Parameter

PARAMETERS = (
    Parameter("keep_options", 1.0, 0.0, 5.0,
              "preference, per other card in hand still playable afterwards"),
    Parameter("noise", 0.1, 0.0, 5.0, "random jitter added to every move's score"),
)
KEEP, NOISE = range(len(PARAMETERS))
SEARCH_AT = len(PARAMETERS)  # where the search family's parameters start in the vector
# the search's own parameter: the moves a rollout lands before it is scored by the card lead
# (a short race tells the candidates apart, a whole hand's adds noise: docs/search.md)
SEARCH_OWN = (rollout.horizon(6),)
VECTOR = PARAMETERS + search.PARAMETERS + SEARCH_OWN
"""Every family's parameters, in the order of a seat's parameter vector."""

PRESETS = {
    "default": {},
    "greedy": {"keep_options": 0.0},
    # every legal play is a candidate (ten at most); the budgets differ in worlds and rollouts
    "search-fast": search.preset(2, 4, 16),
    "search": search.preset(4, 8, 16),
    "search-strong": search.preset(8, 16, 16),
}
FAMILIES = (
    Family("random", "uniform over the legal plays"),
    Family("default", "plays the card that keeps the most other cards in hand playable",
           PARAMETERS),
    search.family(PARAMETERS, SEARCH_OWN),
)
BUILT_IN = presets.built_in(PRESETS)


strategy_names, resolve = presets.lookups(PRESETS, VECTOR, FAMILIES)


@small_rule
def choose(s, rs, seat, family, params, plan):
    """Writes the move `seat` plans into plan[:3]; gives False when it has no legal move."""
    if family != SEARCH:
        return builtin_choose(s, rs, seat, family, params, plan)
    if legal_moves(s, rs, seat) == 0:
        return False
    search.decide(s, rs, seat, params, SEARCH_AT, plan)
    return True


@small_rule
def builtin_choose(s, rs, seat, family, params, plan):
    """`choose` for the random and default families (what a search's rollouts play: no
    search)."""
    n = legal_moves(s, rs, seat)
    if n == 0:
        return False
    moves, hand, fits = s.moves, s.hand, rs.fits
    r = s.bot_rng[seat]
    if family == RANDOM:
        best_i = rng.below(r, n)
    else:
        top0 = s.centre[0, s.centre_n[0] - 1]
        top1 = s.centre[1, s.centre_n[1] - 1]
        best, best_i = -1e18, 0
        for i in range(n):
            slot, b = moves[i, 1], moves[i, 2]
            card = hand[seat, slot]
            new0 = card if b == 0 else top0
            new1 = card if b == 1 else top1
            keep = 0
            for other_slot in range(hand.shape[1]):
                other = hand[seat, other_slot]
                if other_slot != slot and other >= 0 and (fits[other, new0] or fits[other, new1]):
                    keep += 1
            score = params[KEEP] * keep + params[NOISE] * rng.uniform(r)
            if score > best:
                best = score
                best_i = i
    for f in range(3):
        plan[f] = moves[best_i, f]
    return True
