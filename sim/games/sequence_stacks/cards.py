"""Sequence Stacks' cards and rule parameters, turned from the rules dict into arrays the engine reads.

Cards of the same kind are interchangeable, so the engine deals in card *types*, not card
identities: a hand is a count per type. Types 0-11 are the coloured cards, colour * 6 + value
(value 0 is the colour's wild, 1-5 the numbers); types 12-16 are the five action cards.
"""

from collections import namedtuple

import numpy as np

from sim.errors import UserError

RED, BLUE = 0, 1
COLOURS = ("red", "blue")
WILD = 0  # the value of a wild
SEQUENCE = 5  # a pile is complete with its fifth card (the numbers run 1-5)
SKIP, REVERSE, STEAL_CARD, BLOCK, STEAL_CHIP = 12, 13, 14, 15, 16
ACTIONS = ("skip", "reverse", "steal_card", "block", "steal_chip")  # types 12.. in this order
FIRST_ACTION = SKIP
TYPES = 17
MAX_OPEN = 4  # the state's piles hold at most this many per colour

MIN_PLAYERS, MAX_PLAYERS = 2, 6

OPTION_VALUES = {
    "refill": ("refill", "empty_hand_only"),
    "chip_supply": ("limited", "unlimited"),
    "winning_steal": ("forbidden", "allowed"),
}
REFILL, EMPTY_HAND_ONLY = 0, 1
LIMITED, UNLIMITED = 0, 1
FORBIDDEN, ALLOWED = 0, 1

RuleSet = namedtuple("RuleSet", [
    "deck",     # int64[MAX_PLAYERS + 1, TYPES]: cards of each type at each player count
    "numbers",  # int64[N_NUMBERS]: indexed by HAND_SIZE, TURN_CAP, ... (below)
])
(HAND_SIZE, TURN_CAP, MOVE_CAP, OPEN_PER_COLOUR, SUPPLY, TO_WIN, EACH_COLOUR, OPT_REFILL,
 OPT_SUPPLY, OPT_WINNING_STEAL, N_NUMBERS) = range(11)


def colour_of(t: int) -> int:
    """Gives the colour of a coloured card type."""
    return t // 6


def value_of(t: int) -> int:
    """Gives the value of a coloured card type (0 for a wild)."""
    return t % 6


def card_type(colour: int, value: int) -> int:
    """Gives the type of a coloured card (value 0: the wild)."""
    return colour * 6 + value


def name(t: int) -> str:
    """Gives a card type's name, e.g. 'red 3', 'blue wild', 'steal-a-chip'."""
    if t >= FIRST_ACTION:
        return {"steal_card": "steal-a-card", "steal_chip": "steal-a-chip"}.get(
            ACTIONS[t - FIRST_ACTION], ACTIONS[t - FIRST_ACTION])
    v = value_of(t)
    return f"{COLOURS[colour_of(t)]} {'wild' if v == WILD else v}"


def type_named(text: str) -> int:
    """Gives the card type of a name as `name` gives it, e.g. 'blue wild' or 'skip'."""
    for t in range(TYPES):
        if name(t) == text:
            return t
    raise ValueError(f"no card is named {text!r}")


def _count(value, where: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low \
            or (high is not None and value > high):
        span = f"between {low} and {high}" if high is not None else f">= {low}"
        raise UserError(f"{where} must be a whole number {span}, got {value!r}")
    return value


def build(rules: dict) -> RuleSet:
    """Gives the rule arrays of a validated rules dict."""
    deck_rules, removals = rules["deck"], rules["two_player_removals"]
    full = np.zeros(TYPES, np.int64)
    copies = _count(deck_rules["copies"], "deck.copies")
    wilds = _count(deck_rules["wilds"], "deck.wilds")
    for colour in (RED, BLUE):
        full[card_type(colour, WILD)] = wilds
        for value in range(1, SEQUENCE + 1):
            full[card_type(colour, value)] = copies
    for i, action in enumerate(ACTIONS):
        full[FIRST_ACTION + i] = _count(deck_rules[action], f"deck.{action}")
    deck = np.zeros((MAX_PLAYERS + 1, TYPES), np.int64)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        deck[n] = full
    for i, action in enumerate(ACTIONS):
        removed = _count(removals[action], f"two_player_removals.{action}", 0, int(full[FIRST_ACTION + i]))
        deck[2, FIRST_ACTION + i] -= removed

    numbers = np.zeros(N_NUMBERS, np.int64)
    numbers[HAND_SIZE] = _count(rules["hand_size"], "hand_size", 1, 20)
    numbers[TURN_CAP] = _count(rules["turn_cap"], "turn_cap", 1)
    numbers[MOVE_CAP] = _count(rules["move_cap"], "move_cap", 1)
    numbers[OPEN_PER_COLOUR] = _count(rules["piles"]["open_per_colour"], "piles.open_per_colour",
                                      1, MAX_OPEN)
    chips = rules["chips"]
    numbers[SUPPLY] = _count(chips["supply"], "chips.supply")
    numbers[TO_WIN] = _count(chips["to_win"], "chips.to_win", 1)
    numbers[EACH_COLOUR] = _count(chips["each_colour"], "chips.each_colour")
    if 2 * numbers[EACH_COLOUR] > numbers[TO_WIN]:
        raise UserError(f"chips.to_win ({numbers[TO_WIN]}) must be at least twice "
                        f"chips.each_colour ({numbers[EACH_COLOUR]})")
    for slot, option in ((OPT_REFILL, "refill"), (OPT_SUPPLY, "chip_supply"),
                         (OPT_WINNING_STEAL, "winning_steal")):
        value = rules["options"][option]
        if value not in OPTION_VALUES[option]:
            raise UserError(f"options.{option} must be one of {', '.join(OPTION_VALUES[option])}, "
                            f"got {value!r}")
        numbers[slot] = OPTION_VALUES[option].index(value)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        if numbers[HAND_SIZE] * n > deck[n].sum():
            raise UserError(f"hand_size={numbers[HAND_SIZE]} deals {n} players more cards than "
                            f"the deck's {deck[n].sum()}")
    return RuleSet(deck=deck, numbers=numbers)
