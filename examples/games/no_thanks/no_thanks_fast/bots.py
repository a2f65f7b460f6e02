"""No Thanks!'s bots at the fast level, jitted: `random` and the `default` family, as the
simple level's (no_thanks/rules.py: RandomBot is sim/simple.py's, Default its own), with its
presets."""

from no_thanks import rules as simple
from no_thanks_fast.state import CARD, PASS, POT, TAKE
from sim import rng
from sim.jit import rule
from strategies import presets
from strategies.presets import RANDOM, Family

PARAMETERS = simple.Default.parameters  # greed, run_wait, reserve: the same meanings
GREED, RUN_WAIT, RESERVE = range(len(PARAMETERS))
FAMILIES = (Family("random", "uniform over the legal moves"),
            Family("default", simple.Default.meaning, PARAMETERS))
PRESETS = {"default": {}, **{name: changed for name, (_, changed) in simple.PRESETS.items()}}
BUILT_IN = presets.built_in(PRESETS)
strategy_names, resolve = presets.lookups(PRESETS, PARAMETERS, FAMILIES)


@rule
def choose(s, rs, seat, family, params, move):
    """Writes the seat's move (TAKE or PASS) into `move`: a seat without chips must take."""
    chips = s.chips[seat]
    if chips == 0:
        move[0] = TAKE
    elif family == RANDOM:
        move[0] = rng.below(s.rngs[1 + seat], 2)
    else:
        move[0] = default(s, seat, chips, params)


@rule
def default(s, seat, chips, params):
    """Gives the default bot's move (simple.Default.choose): a card joining one of the seat's
    runs once `run_wait` chips are on it; any card whose chips reach `greed` times its value;
    with `reserve` chips or fewer, a card costing at most half its value."""
    card, pot = s.g[CARD], s.g[POT]
    if s.held[seat, card - 1] or s.held[seat, card + 1]:
        return TAKE if pot >= params[RUN_WAIT] else PASS
    if pot >= params[GREED] * card:
        return TAKE
    if chips <= params[RESERVE] and card - pot <= card / 2:
        return TAKE
    return PASS
