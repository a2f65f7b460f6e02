"""Deep Space's rules dict (numbers, options, the board, the deck) turned into arrays the engine
reads, with the checks that make a playable game."""

from collections import namedtuple

import numpy as np

from sim.games.deep_space import board as boards
from sim.games.deep_space import deck as decks
from sim.errors import UserError
from sim.packaged import configs

CONFIGS = configs() / "deep_space"
DEFAULT_BOARD = CONFIGS / "board.toml"
DEFAULT_DECK = CONFIGS / "deck.toml"
MAX_HAND = 8

OPTION_VALUES = {
    "mining": ("choose", "fixed"),
    "redraw": ("after_discard", "always", "never"),
}
CHOOSE, FIXED = 0, 1
AFTER_DISCARD, ALWAYS, NEVER = 0, 1, 2

# Indices of RuleSet.numbers.
(RECRUITS, START_RECRUITS, START_CARDS, HAND_SIZE, MOVES, DOGS, TURN_CAP, MINE_AT, REINFORCE,
 DIE, BASE_ORE, BASE_RECRUITS, WARP_GEMS, RECRUIT_GEMS, TRADE_CARDS, BANK_GEMS, BANK_ORE,
 OPT_MINING, OPT_REDRAW, N_NUMBERS) = range(20)
_NUMBERS = {  # slot: (key path, lowest value)
    RECRUITS: (("recruits_per_colour",), 1), START_RECRUITS: (("start_recruits",), 1),
    START_CARDS: (("start_cards",), 0), HAND_SIZE: (("hand_size",), 0),
    MOVES: (("moves_per_turn",), 0), DOGS: (("space_dogs",), 0), TURN_CAP: (("turn_cap",), 1),
    MINE_AT: (("mine_recruits",), 1), REINFORCE: (("reinforce_per_base",), 0),
    DIE: (("die_sides",), 1), BASE_ORE: (("bases", "ore"), 0),
    BASE_RECRUITS: (("bases", "recruits"), 1), WARP_GEMS: (("costs", "warp_gems"), 0),
    RECRUIT_GEMS: (("costs", "recruit_gems"), 0), TRADE_CARDS: (("costs", "trade_cards"), 1),
    BANK_GEMS: (("supply", "gems"), -1), BANK_ORE: (("supply", "ore"), -1),
}

RuleSet = namedtuple("RuleSet", [
    "link",            # int8[P, P]: 1 where two planets are linked
    "warp",            # int8[P]: 1 for a planet linked to the gem warp
    "home",            # int8[P]: 1 for a home station
    "seat_home",       # int64[5, 4]: per player count, each seat's home station
    "covered",         # int8[5, P]: per player count, 1 for a planet under a cover
    "resource",        # int8[P]: what a planet yields under fixed mining (board.RESOURCES),
                       # 0 where the board names none
    "dist",            # int64[5, P, P]: per player count, moves between planets
    "to_win",          # int64[5]: per player count, the bases that win
    "card_kind",       # int64[C]: each deck card's kind (index into the deck's names)
    "card_effect",     # int64[C]: SPACE_DOG, EXTRA_MOVE, ... (sim/games/deep_space/deck.py)
    "card_gems",       # int64[C]: its price in gems
    "card_sacrifice",  # int64[C]: recruits it costs
    "card_amount",     # int64[C]
    "numbers",         # int64[N_NUMBERS]: the numbers and options above
])


def build(rules: dict) -> tuple[RuleSet, list[str], list[str]]:
    """Gives the rule arrays of a rules dict, the planet names and the card kinds' names."""
    numbers = np.zeros(N_NUMBERS, np.int64)
    for slot, (path, low) in _NUMBERS.items():
        value = rules
        for key in path:
            value = value[key]
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise UserError(f"{'.'.join(path)} must be a whole number >= {low}, got {value!r}")
        numbers[slot] = value
    if numbers[HAND_SIZE] > MAX_HAND or numbers[START_CARDS] > MAX_HAND:
        raise UserError(f"hand_size and start_cards must be at most {MAX_HAND}")
    if numbers[START_RECRUITS] > numbers[RECRUITS]:
        raise UserError("start_recruits must be at most recruits_per_colour")
    for slot, option in ((OPT_MINING, "mining"), (OPT_REDRAW, "redraw")):
        value = rules["options"][option]
        if value not in OPTION_VALUES[option]:
            raise UserError(f"options.{option} must be one of {', '.join(OPTION_VALUES[option])},"
                            f" got {value!r}")
        numbers[slot] = OPTION_VALUES[option].index(value)
    to_win = np.zeros(boards.MAX_PLAYERS + 1, np.int64)
    for n in range(boards.MIN_PLAYERS, boards.MAX_PLAYERS + 1):
        value = rules["bases"]["to_win"].get(str(n))
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise UserError(f"bases.to_win.{n} must be a whole number >= 1, got {value!r}")
        to_win[n] = value
    board = boards.arrays(rules["board"])
    for n in range(boards.MIN_PLAYERS, boards.MAX_PLAYERS + 1):
        open_planets = int(((board["home"] == 0) & (board["covered"][n] == 0)).sum())
        if open_planets < to_win[n]:  # every game would stall at the turn cap
            raise UserError(f"board {rules['board']['name']!r}: with {n} players only "
                            f"{open_planets} planets can take a base, fewer than the "
                            f"{to_win[n]} bases that win (bases.to_win.{n})")
    if numbers[OPT_MINING] == FIXED:
        barren = [name for name, spec in rules["board"]["planets"].items()
                  if not spec.get("home", False) and "resource" not in spec]
        if barren:
            raise UserError(f"board {rules['board']['name']!r}: options.mining = fixed needs a "
                            f"resource (gem or ore) on every planet; none on {', '.join(barren)}")
    cards, kinds = decks.arrays(rules["deck"])
    if numbers[START_CARDS] * boards.MAX_PLAYERS > len(cards["card_kind"]):
        raise UserError(f"the deck's {len(cards['card_kind'])} cards cannot deal "
                        f"{numbers[START_CARDS]} to each of 4 players")
    ruleset = RuleSet(**board, to_win=to_win, **cards, numbers=numbers)
    return ruleset, list(rules["board"]["planets"]), kinds
