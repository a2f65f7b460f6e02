"""Restricted play in Saboteur: the cards and actions `--forbid` takes, as the engine's masks.

A forbidden card or action is never played by that seat: its moves are not legal for it, for
the jitted bots and for Python bots alike. Forbidding a card still lets the seat discard it
(a pass); forbidding `pass` lets the seat discard only when it has no other move, since a
player must do something on its turn.
"""

import numpy as np

from sim.jit import small_rule
from sim.games.saboteur.cards import BREAK, MAP, PATH, REPAIR, ROCKFALL
from sim.games.saboteur.state import FORBID_PASS, FORBID_PLAY

ACTIONS = {
    "path": "placing any path card",
    "dead_end": "placing a dead-end path card",
    "break": "playing any broken-tool card on a player",
    "repair": "playing any repair card",
    "map": "looking at a goal with a map",
    "rockfall": "removing a path card with a rockfall",
    "pass": "passing (discarding a card) while another move is possible",
}
USES = tuple(ACTIONS)  # the kinds the seats table counts (uses_<kind>), in this order
_DEAD_END = USES.index("dead_end")


@small_rule
def use_of(s, rs, seat, move):
    """Gives the kinds (bit k: USES[k]) of `seat`'s move, before it is played: its action, and
    dead_end too for a path card without a through centre. Every discard counts as a pass."""
    # USES lists the actions in the engine's order (PLACE, BREAK, ..., DISCARD), dead_end
    # slotted in after path.
    action = move[0]
    if action != PATH:
        return 1 << (action + 1)
    if rs.through[s.hand[seat, move[1]]]:
        return 1
    return 1 | (1 << _DEAD_END)


def names(rules: dict) -> dict[str, str]:
    """Gives every name --forbid takes for these rules, with what it forbids: the actions above,
    then each card of the deck by its name in the rules."""
    found = dict(ACTIONS)
    for name in rules["path_cards"]:
        found.setdefault(name, f"placing the path card {name}")
    for name in rules["action_cards"]:
        found.setdefault(name, f"playing the {name} card")
    return found


ROLES = ("miner", "saboteur")  # --forbid ROLE:NAME: only while the seat has that role


def mask(rs, card_names: list[str], forbidden: tuple[str, ...]) -> np.ndarray:
    """Gives one seat's row of State.forbid: FORBID_PLAY/FORBID_PASS bits per deck card, for
    every role, or shifted for one role (`miner:break`)."""
    row = np.zeros(len(card_names), np.int8)
    kinds = {"path": PATH, "break": BREAK, "repair": REPAIR, "map": MAP, "rockfall": ROCKFALL}
    for restriction in forbidden:
        role, _, name = restriction.rpartition(":")
        shift = 2 + 2 * ROLES.index(role) if role else 0
        if name == "pass":
            row |= FORBID_PASS << shift
            continue
        for card, card_name in enumerate(card_names):
            if name == card_name or (name in kinds and rs.kind[card] == kinds[name]) \
                    or (name == "dead_end" and rs.kind[card] == PATH and not rs.through[card]):
                row[card] |= FORBID_PLAY << shift
    return row

