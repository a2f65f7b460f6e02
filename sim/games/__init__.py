"""The registry of games: every game installed under the `tabletop_balance.games` entry-point
group, the five built-in ones included (this project's pyproject registers them as any plugin
does). A game is imported on first use."""

from __future__ import annotations

import importlib
import re
from importlib import metadata
from typing import TYPE_CHECKING

from sim.errors import Interruption, UserError
from strategies.bot_files import described, shown

if TYPE_CHECKING:  # sim.game imports polars, which `simulate --help` should not wait for
    from sim.game import Game

GROUP = "tabletop_balance.games"
NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
"""A game's name: a command of `simulate`, a run folder's default name, a file name."""
NAME_RULE = "lower-case letters and digits, words joined by '-' (e.g. my-game)"


def _installed() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """Gives each installed game's entry point ("module:attribute") and the distribution that
    registered it, by game name, and the entry points refused, by name: a line saying why (a
    name that is no game name; a name two packages register, whichever was installed last)."""
    registered: dict[str, list[tuple[str, str]]] = {}
    for entry in metadata.entry_points(group=GROUP):
        owner = entry.dist.name if entry.dist else entry.value
        registered.setdefault(entry.name, []).append((owner, entry.value))
    targets, owners, refused = {}, {}, {}
    for name, entries in registered.items():
        packages = " and ".join(sorted(repr(owner) for owner, _ in entries))
        if not NAME.fullmatch(name):
            refused[name] = (f"package {packages} registers a game named {shown(name)}, which "
                             f"is not a game name ({NAME_RULE}); it is left out")
        elif len(entries) > 1:
            refused[name] = (f"packages {packages} both register a game named {name!r}; "
                             "uninstall one of them (or rename its entry point) to play it")
        else:
            (owners[name], targets[name]), = entries
    return targets, owners, refused


GAMES, _OWNERS, REFUSED = _installed()
"""Game name -> "module:attribute" of its Game object (a bare module means its `GAME`); the
entry points left out, by name -> why, in one line."""


def names() -> list[str]:
    """Gives the registered game names, sorted."""
    return sorted(GAMES)


def target_of(name: str) -> str:
    """Gives where game `name`'s Game object lives ("module:attribute")."""
    try:
        return GAMES[name]
    except KeyError:
        if name in REFUSED:
            raise UserError(REFUSED[name]) from None
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
    """Gives the game registered as `name`, importing it now; a plugin that fails to load, or
    gives no game or another game than `name`, is a UserError naming the package that
    registered it and the cause."""
    target = target_of(name)
    owner = _OWNERS.get(name, target)
    try:
        game = load(target)
    except Interruption:
        raise
    except BaseException as e:  # noqa: BLE001 - a third party's import: any failure is one line
        raise UserError(f"game {name!r} from package {owner!r} failed to load: "
                        f"{described(e)}") from None
    given = getattr(game, "name", None)
    if not isinstance(given, str):
        raise UserError(f"game {name!r} from package {owner!r}: its entry point {target} gives "
                        f"{shown(game, 60)}, not a game (sim.game.Game)")
    if given != name:
        raise UserError(f"game {name!r} from package {owner!r}: its entry point {target} gives "
                        f"the game named {given!r}; an entry point is named as its game")
    return game
