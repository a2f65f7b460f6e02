"""Spit's rule parameters, turned from the rules dict into arrays the engine reads."""

from collections import namedtuple

import numpy as np

from sim.errors import UserError
from sim.games.spit import deck, reaction

OPTION_VALUES = {
    "smaller_pile": ("slap", "out_player_chooses"),
    "both_out_of_spit_cards": ("new_layout", "take_back_started_pile", "split_both_piles"),
    "win": ("no_cards_left", "spit_and_layout_played"),
}
SLAP, OUT_PLAYER_CHOOSES = 0, 1
NEW_LAYOUT, TAKE_BACK, SPLIT_BOTH = 0, 1, 2
NO_CARDS_LEFT, SPIT_AND_LAYOUT_PLAYED = 0, 1
MAX_PILES = 8

RuleSet = namedtuple("RuleSet", [
    "rank",     # int64[card]
    "colour",   # int64[card]: 0 black, 1 red
    "fits",     # int8[card, top]: 1 where the card may be played on that top (deck.fits)
    "numbers",  # int64[...]: indexed by RANKS, PILES, ... below
])
(RANKS, CARDS, PILES, LAYOUT, SMALLER, COLOURS, STACKING, BOTH_OUT, WIN, CAP_DEALS, CAP_MOVES,
 CAP_STALLS, N_NUMBERS) = range(13)


def whole_number(value, where: str, low: int, high: int) -> int:
    """Gives `value` if it is a whole number in [low, high]; else raises UserError."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise UserError(f"{where} must be a whole number from {low} to {high}, got {value!r}")
    return value


def _flag(value, where: str) -> int:
    if not isinstance(value, bool):
        raise UserError(f"{where} must be true or false, got {value!r}")
    return int(value)


def _choice(rules: dict, option: str) -> int:
    value = rules["options"][option]
    if value not in OPTION_VALUES[option]:
        raise UserError(f"options.{option} must be one of {', '.join(OPTION_VALUES[option])}, "
                        f"got {value!r}")
    return OPTION_VALUES[option].index(value)


def build(rules: dict) -> tuple[RuleSet, list[str]]:
    """Gives the rule arrays of a rules dict, and the name of every card; raises UserError."""
    rank, colour, names = deck.build(rules)
    reaction.profiles(rules)  # checked here so that bad profiles fail before any game
    numbers = np.zeros(N_NUMBERS, np.int64)
    numbers[RANKS] = rules["deck"]["ranks"]
    numbers[CARDS] = len(names)
    piles = whole_number(rules["layout"]["stock_piles"], "layout.stock_piles", 1, MAX_PILES)
    numbers[PILES] = piles
    numbers[LAYOUT] = piles * (piles + 1) // 2
    if 2 * numbers[LAYOUT] + 2 > len(names):
        raise UserError(f"a deck of {len(names)} cards cannot deal two layouts of "
                        f"{numbers[LAYOUT]} cards and a spit card each")
    numbers[SMALLER] = _choice(rules, "smaller_pile")
    numbers[BOTH_OUT] = _choice(rules, "both_out_of_spit_cards")
    numbers[WIN] = _choice(rules, "win")
    numbers[COLOURS] = _flag(rules["options"]["alternating_colours"], "options.alternating_colours")
    numbers[STACKING] = _flag(rules["options"]["stack_equal_ranks"], "options.stack_equal_ranks")
    caps = rules["caps"]
    numbers[CAP_DEALS] = whole_number(caps["deals"], "caps.deals", 1, 10**6)
    numbers[CAP_MOVES] = whole_number(caps["moves"], "caps.moves", 1, 10**9)
    numbers[CAP_STALLS] = whole_number(caps["stalls_per_deal"], "caps.stalls_per_deal", 1, 10**6)
    return RuleSet(rank=rank, colour=colour, fits=deck.fits(rank, colour, bool(numbers[COLOURS])),
                   numbers=numbers), names
