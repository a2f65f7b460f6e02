"""The skill ladder: the same deals played with every seat at each rung of play, from random
moves to search, so that a balance figure can be read across skill levels.

A rung is the strategy every seat plays: `random`, `default`, `tuned` (the first preset of a
presets file, as `simulate tune` writes it) and `search` (where the game has that family). Each
player count × rung is one configuration of one run, labelled by its `rung` option; every
configuration plays the same game indices of the same seed, hence the same deals.
"""

from __future__ import annotations

from pathlib import Path

from sim.errors import UserError
from sim.game import Game, Setup

RUNGS = ("random", "default", "tuned", "search")
OPTION = "rung"  # the setup option naming a configuration's rung


def parse_rungs(text: str | None) -> list[str] | None:
    """Gives the rungs a --rungs flag names, in its order (None: the default rungs).

    Raises UserError for an unknown or repeated rung, or none at all."""
    if text is None:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise UserError("--rungs names no rung (rungs: " + ", ".join(RUNGS) + ")")
    for name in names:
        if name not in RUNGS:
            raise UserError(f"--rungs: unknown rung {name!r} (rungs: {', '.join(RUNGS)})")
    if len(set(names)) < len(names):
        raise UserError(f"--rungs names a rung twice: {text!r}")
    return names


def tuned_preset(game: Game, path: Path) -> tuple[str, dict]:
    """Gives the first preset of a presets file (loaded as --strategies-file loads it) and all
    its presets. Raises UserError when the file does not load or holds no preset."""
    from strategies import presets

    loaded = presets.load(game, path)
    if not loaded:
        raise UserError(f"--tuned {path}: the file holds no [preset.NAME] table")
    return next(iter(loaded)), loaded


def has_search(game: Game) -> bool:
    """Tells whether the game has a `search` bot family."""
    return "search" in game.strategy_names()


def rung_strategies(game: Game, rungs: list[str] | None, tuned: str | None) -> list[tuple[str, str]]:
    """Gives (rung, strategy of every seat) per rung, in ladder order.

    rungs: those asked for (None: random, default, tuned when a tuned preset is given, search
    when the game has it); tuned: the tuned preset's name, if --tuned was given.
    Raises UserError for a rung that cannot be played here."""
    if rungs is None:
        rungs = [r for r in RUNGS if (r != "tuned" or tuned) and (r != "search" or has_search(game))]
    strategies = []
    for rung in rungs:
        if rung == "tuned":
            if tuned is None:
                raise UserError("the tuned rung needs --tuned FILE (a presets file, as "
                                "'simulate tune' writes it)")
            strategies.append((rung, tuned))
        elif rung == "search" and not has_search(game):
            raise UserError(f"{game.name} has no search bot family: drop the search rung")
        else:
            strategies.append((rung, rung))
    return strategies


def setups(game: Game, players: list[int], options: dict[str, list], rungs: list[tuple[str, str]],
           rules: dict) -> list[Setup]:
    """Gives the ladder's configurations: each player count (and game option) at each rung, in
    that order, every seat playing the rung's strategy."""
    from sim.setups import build_setups

    found = []
    for count in players:
        for rung, strategy in rungs:
            found += build_setups(game, [count], {**options, OPTION: [rung]}, strategy, {}, rules)
    return found
