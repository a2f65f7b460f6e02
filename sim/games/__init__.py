"""The registry of games: every game installed under the `tabletop_balance.games` entry-point
group, the five built-in ones included (this project's pyproject registers them as any plugin
does). A game is imported on first use."""

from __future__ import annotations

import importlib
from importlib import metadata
from typing import TYPE_CHECKING

from sim.errors import UserError

if TYPE_CHECKING:  # sim.game imports polars, which `simulate --help` should not wait for
    from sim.game import Game

GROUP = "tabletop_balance.games"


def _installed() -> tuple[dict[str, str], dict[str, str]]:
    """Gives each installed game's entry point ("module:attribute") and the distribution that
    registered it, by game name."""
    targets, owners = {}, {}
    for entry in metadata.entry_points(group=GROUP):
        targets[entry.name] = entry.value
        owners[entry.name] = entry.dist.name if entry.dist else entry.value
    return targets, owners


GAMES, _OWNERS = _installed()
"""Game name -> "module:attribute" of its Game object (a bare module means its `GAME`)."""


def names() -> list[str]:
    """Gives the registered game names, sorted."""
    return sorted(GAMES)


def target_of(name: str) -> str:
    """Gives where game `name`'s Game object lives ("module:attribute")."""
    try:
        return GAMES[name]
    except KeyError:
        raise UserError(f"unknown game {name!r}; known games: {', '.join(names())}") from None


def module_of(name: str) -> str:
    """Gives the module holding game `name`'s Game object."""
    return target_of(name).partition(":")[0]


def load(target: str) -> "Game":
    """Gives the Game object at `target` ("module:attribute", or a module and its `GAME`)."""
    module, _, attribute = target.partition(":")
    found = importlib.import_module(module)
    for part in (attribute or "GAME").split("."):
        found = getattr(found, part)
    return found


def get(name: str) -> "Game":
    """Gives the game registered as `name`, importing it now; a plugin that fails to load is a
    UserError naming the package that registered it and the cause."""
    target = target_of(name)
    try:
        return load(target)
    except Exception as e:  # a third party's import error, whatever it is, is one line
        owner = _OWNERS.get(name, target)
        raise UserError(f"game {name!r} from package {owner!r} failed to load: "
                        f"{type(e).__name__}: {e}") from e
