"""Restricted play in Deep Space: the actions and cards `--forbid` takes, as the engine's masks.

A forbidden action or card is never played by that seat: its moves are not legal for it, for
the jitted bots and for Python bots alike. Mining and ending a phase are never forbidden, so a
seat always has a move.
"""

import numpy as np

from sim.games.deep_space.state import (
    FORBID_ATTACK,
    FORBID_BUILD,
    FORBID_DISCARD,
    FORBID_MOVE,
    FORBID_RECRUIT,
    FORBID_TRADE,
    FORBID_WARP,
)

ACTIONS = {  # name: (bit of State.forbid, what it forbids)
    "move": (FORBID_MOVE, "moving recruits at all"),
    "warp": (FORBID_WARP, "moving through the gem warp"),
    "attack": (FORBID_ATTACK, "moving onto a planet held by another colour (starting a combat)"),
    "recruit": (FORBID_RECRUIT, "recruiting with gems"),
    "trade": (FORBID_TRADE, "trading action cards for a recruit"),
    "build": (FORBID_BUILD, "building bases (the seat cannot win)"),
    "discard": (FORBID_DISCARD, "discarding cards to redraw at the end of the turn"),
}
PLAY = "play"


def names(rules: dict) -> dict[str, str]:
    """Gives every name --forbid takes for these rules, with what it forbids: the actions above,
    `play` (every action card), then each card of the deck by its name in the deck file."""
    found = {name: meaning for name, (_, meaning) in ACTIONS.items()}
    found[PLAY] = "playing any action card"
    for name, spec in rules["deck"]["cards"].items():
        found.setdefault(name, f"playing the {name} card ({spec['effect']})")
    return found


def uses(kinds: list[str]) -> list[str]:
    """Gives the kinds the seats table counts (uses_<kind>, State.uses as the engine counts
    them), in order: the actions, `play`, then each card kind of the deck (`kinds`, by its index
    in the deck)."""
    return [*ACTIONS, PLAY, *kinds]


def mask(kinds: list[str], card_kind: np.ndarray, forbidden: tuple[str, ...]) -> tuple[int, np.ndarray]:
    """Gives one seat's restrictions as the engine holds them: (its State.forbid bits, its row
    of State.forbid_card: 1 per deck card it may not play)."""
    bits = 0
    cards = np.zeros(len(card_kind), np.int8)
    for name in forbidden:
        if name in ACTIONS:
            bits |= ACTIONS[name][0]
        elif name == PLAY:
            cards[:] = 1
        else:
            cards[card_kind == kinds.index(name)] = 1
    return bits, cards
