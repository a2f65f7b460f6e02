"""Speed's rule parameters, turned from the rules dict into arrays the engine reads."""

from collections import namedtuple

import numpy as np

from sim.errors import UserError
from sim.games.spit import deck, reaction
from sim.games.spit.cards import whole_number

SCORING = ("one_hand", "points")
ONE_HAND, POINTS = 0, 1
MAX_HAND = 16

RuleSet = namedtuple("RuleSet", [
    "fits",     # int8[card, top]: 1 where the card may be played on that top (deck.fits)
    "numbers",  # int64[...]: indexed by CARDS, EACH, ... below
])
CARDS, EACH, HAND, SIDE, SCORING_RULE, TARGET, CAP_HANDS, CAP_MOVES, CAP_STALLS, N_NUMBERS = range(10)


def build(rules: dict) -> tuple[RuleSet, list[str]]:
    """Gives the rule arrays of a rules dict, and the name of every card; raises UserError."""
    rank, colour, names = deck.build(rules)
    reaction.profiles(rules)
    cards = len(names)
    numbers = np.zeros(N_NUMBERS, np.int64)
    numbers[CARDS] = cards
    hand = whole_number(rules["deal"]["hand"], "deal.hand", 1, MAX_HAND)
    each = whole_number(rules["deal"]["cards_each"], "deal.cards_each", hand, cards)
    left = cards - 2 - 2 * each
    if left < 0 or left % 2:
        raise UserError(f"deal.cards_each={each}: the {cards} cards but two centre cards must "
                        f"split into two equal side piles (left over: {left})")
    numbers[HAND], numbers[EACH], numbers[SIDE] = hand, each, left // 2
    scoring = rules["options"]["scoring"]
    if scoring not in SCORING:
        raise UserError(f"options.scoring must be one of {', '.join(SCORING)}, got {scoring!r}")
    numbers[SCORING_RULE] = SCORING.index(scoring)
    numbers[TARGET] = whole_number(rules["options"]["target"], "options.target", 1, 10**6)
    caps = rules["caps"]
    numbers[CAP_HANDS] = whole_number(caps["hands"], "caps.hands", 1, 10**6)
    numbers[CAP_MOVES] = whole_number(caps["moves"], "caps.moves", 1, 10**9)
    numbers[CAP_STALLS] = whole_number(caps["stalls_per_hand"], "caps.stalls_per_hand", 1, 10**6)
    return RuleSet(fits=deck.fits(rank, colour, False), numbers=numbers), names
