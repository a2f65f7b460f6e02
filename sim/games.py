"""The registry of games: CLI name -> the module whose `GAME` plays it, imported on first use."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from sim.errors import UserError

if TYPE_CHECKING:  # sim.game imports polars, which `simulate --help` should not wait for
    from sim.game import Game

GAMES: dict[str, str] = {
    "saboteur": "sim.saboteur",
    "sequence-stacks": "sim.sequence_stacks",
    "spit": "sim.spit",
    "speed": "sim.speed",
    "deep-space": "sim.deep_space",
}


def names() -> list[str]:
    """Gives the registered game names, sorted."""
    return sorted(GAMES)


def module_of(name: str) -> str:
    """Gives the module path holding game `name`'s GAME."""
    try:
        return GAMES[name]
    except KeyError:
        raise UserError(f"unknown game {name!r}; known games: {', '.join(names())}") from None


def get(name: str) -> "Game":
    """Gives the game registered as `name`, importing its module now."""
    return importlib.import_module(module_of(name)).GAME
