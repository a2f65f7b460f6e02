"""Saboteur's cards and rule parameters, turned from the rules dict into arrays the engine reads."""

from collections import namedtuple

import numpy as np

from sim.errors import UserError
from sim.games.saboteur.state import MAX_HAND, MAX_SCRATCH, ORIGIN

# Sides of a card, as bits of its exits mask. x grows east (towards the goals), y grows south.
N, E, S, W = 1, 2, 4, 8
DX = np.array([0, 1, 0, -1], np.int64)
DY = np.array([-1, 0, 1, 0], np.int64)

# Card kinds.
PATH, BREAK, REPAIR, MAP, ROCKFALL = 0, 1, 2, 3, 4
# Tools, as bits.
PICKAXE, LANTERN, CART = 1, 2, 4
TOOL_NAMES = {PICKAXE: "pickaxe", LANTERN: "lantern", CART: "cart"}

# Options, as the integers the engine compares against.
OPTION_VALUES = {
    "next_round_starter": ("last_path_card", "after_round_ender"),
    "round_end": ("hands_empty", "all_pass"),
    "gold_pass": ("counter_clockwise", "clockwise"),
    "gold_share": ("one_each", "cards_per_player"),
}
LAST_PATH_CARD, AFTER_ROUND_ENDER = 0, 1
HANDS_EMPTY, ALL_PASS = 0, 1
COUNTER_CLOCKWISE, CLOCKWISE = 0, 1
ONE_EACH, CARDS_PER_PLAYER = 0, 1

MIN_PLAYERS, MAX_PLAYERS = 3, 10

RuleSet = namedtuple("RuleSet", [
    "kind",        # int8[card]: PATH, BREAK, REPAIR, MAP or ROCKFALL
    "exits",       # int8[card]: open sides of a path card
    "through",     # int8[card]: 1 when the centre joins the exits, 0 for a dead end
    "tools",       # int8[card]: tool bits a broken-tool or repair card names
    "saboteur_cards",  # int64[players]
    "miner_cards",     # int64[players]
    "hand_size",       # int64[players]
    "payout",          # int64[saboteurs in play]: nuggets per saboteur (0 for none)
    "gold_counts",     # int64[4]: gold cards worth 0 (unused), 1, 2, 3 nuggets
    "goal_xy",         # int64[3, 2]
    "coal_exits",      # int64[2]
    "gold_exits",      # int64
    "numbers",         # int64[...]: rounds, miner_draw_cap and the options (indexed by ROUNDS, DRAW_CAP, OPT_*)
])
ROUNDS, DRAW_CAP, OPT_STARTER, OPT_ROUND_END, OPT_GOLD_PASS, OPT_GOLD_SHARE = range(6)


def exits_mask(letters: str, where: str) -> int:
    """Gives the exits mask of a string of sides such as "NEW"."""
    if not letters or any(c not in "NESW" for c in letters) or len(set(letters)) < len(letters):
        raise UserError(f"{where}: exits must be letters from NESW, each side at most once, "
                        f"got {letters!r}")
    return sum({"N": N, "E": E, "S": S, "W": W}[c] for c in letters)


def _per_players(rules: dict, key: str) -> np.ndarray:
    table = np.zeros(MAX_PLAYERS + 1, np.int64)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        value = rules[key].get(str(n))
        if not isinstance(value, int) or value < 0:
            raise UserError(f"{key}.{n} must be a whole number >= 0, got {value!r}")
        table[n] = value
    return table


def build(rules: dict) -> tuple[RuleSet, list[str]]:
    """Gives the rule arrays for a validated rules dict, and the name of every deck card."""
    kinds, exits, through, tools, names = [], [], [], [], []
    for name, spec in rules["path_cards"].items():
        mask = exits_mask(spec["exits"], f"path_cards.{name}")
        for _ in range(_count(spec["count"], f"path_cards.{name}.count")):
            kinds.append(PATH), exits.append(mask), through.append(int(spec["through"]))
            tools.append(0), names.append(name)
    for name, count in rules["action_cards"].items():
        kind, tool_bits = _action(name)
        for _ in range(_count(count, f"action_cards.{name}")):
            kinds.append(kind), exits.append(0), through.append(0)
            tools.append(tool_bits), names.append(name)

    path_cards = kinds.count(PATH)
    if path_cards + 3 >= ORIGIN:  # a path of them must fit the engine's grid, with its border
        raise UserError(f"at most {ORIGIN - 4} path cards fit the maze, the rules give {path_cards}")
    saboteur_cards = _per_players(rules, "saboteur_cards")
    miner_cards = _per_players(rules, "miner_cards")
    hand_size = _per_players(rules, "hand_size")
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        if not 1 <= hand_size[n] <= MAX_HAND:
            raise UserError(f"hand_size.{n} must be between 1 and {MAX_HAND}, got {hand_size[n]}")
        if saboteur_cards[n] + miner_cards[n] > MAX_SCRATCH:
            raise UserError(f"{n} players: at most {MAX_SCRATCH} role cards, the rules give "
                            f"{saboteur_cards[n] + miner_cards[n]}")
        if saboteur_cards[n] + miner_cards[n] < n:
            raise UserError(f"{n} players need at least {n} role cards, the rules give "
                            f"{saboteur_cards[n] + miner_cards[n]}")
        if hand_size[n] * n > len(kinds):
            raise UserError(f"hand_size.{n}={hand_size[n]} deals more cards than the deck has")

    gold = rules["gold"]
    gold_counts = np.array([0] + [_count(gold[k], f"gold.{k}") for k in ("ones", "twos", "threes")],
                           np.int64)
    payout = np.array([0] + [_count(v, "gold.saboteur_payout") for v in gold["saboteur_payout"]],
                      np.int64)
    goals = rules["goals"]
    distance, spacing = _count(goals["distance"], "goals.distance"), _count(goals["spacing"], "goals.spacing")
    if distance < 2 or spacing < 2 or distance + spacing + 3 >= ORIGIN:
        raise UserError(f"goals.distance and goals.spacing must be at least 2 and add up to at "
                        f"most {ORIGIN - 4}")
    coal = [exits_mask(c, "goals.coal_exits") for c in goals["coal_exits"]]
    if len(coal) != 2:
        raise UserError(f"goals.coal_exits must name 2 coal cards, got {len(coal)}")
    numbers = np.zeros(6, np.int64)
    numbers[ROUNDS] = _count(rules["rounds"], "rounds")
    if numbers[ROUNDS] < 1:
        raise UserError("rounds must be at least 1")
    numbers[DRAW_CAP] = _count(gold["miner_draw_cap"], "gold.miner_draw_cap")
    if numbers[DRAW_CAP] > MAX_SCRATCH:
        raise UserError(f"gold.miner_draw_cap must be at most {MAX_SCRATCH}")
    for slot, option in ((OPT_STARTER, "next_round_starter"), (OPT_ROUND_END, "round_end"),
                         (OPT_GOLD_PASS, "gold_pass"), (OPT_GOLD_SHARE, "gold_share")):
        value = rules["options"][option]
        if value not in OPTION_VALUES[option]:
            raise UserError(f"options.{option} must be one of {', '.join(OPTION_VALUES[option])}, "
                            f"got {value!r}")
        numbers[slot] = OPTION_VALUES[option].index(value)

    ruleset = RuleSet(
        kind=np.array(kinds, np.int8), exits=np.array(exits, np.int8),
        through=np.array(through, np.int8), tools=np.array(tools, np.int8),
        saboteur_cards=saboteur_cards, miner_cards=miner_cards, hand_size=hand_size,
        payout=payout, gold_counts=gold_counts,
        goal_xy=np.array([[distance, -spacing], [distance, 0], [distance, spacing]], np.int64),
        coal_exits=np.array(coal, np.int64),
        gold_exits=np.int64(exits_mask(goals["gold_exits"], "goals.gold_exits")),
        numbers=numbers,
    )
    return ruleset, names


def _count(value, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise UserError(f"{where} must be a whole number >= 0, got {value!r}")
    return value


def _action(name: str) -> tuple[int, int]:
    """Gives (kind, tool bits) of an action card from its name, e.g. repair_pickaxe_cart."""
    words = name.split("_")
    tool_bits = {"pickaxe": PICKAXE, "lantern": LANTERN, "cart": CART}
    if name == "map":
        return MAP, 0
    if name == "rockfall":
        return ROCKFALL, 0
    if words[0] in ("broken", "repair") and 2 <= len(words) <= 3 and all(w in tool_bits for w in words[1:]):
        if words[0] == "broken" and len(words) != 2:
            raise UserError(f"action_cards.{name}: a broken-tool card names one tool")
        return (BREAK if words[0] == "broken" else REPAIR), sum(tool_bits[w] for w in words[1:])
    raise UserError(f"action_cards.{name}: unknown action card (broken_<tool>, "
                    f"repair_<tool>[_<tool>], map, rockfall)")
