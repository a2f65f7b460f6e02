"""What the conformance suite needs to know of each registered game, one module per game.

Every installed game of the fast level (`fast_level()`) must have an adapter here, named after
its package; the suite fails when one is missing. An adapter is a module-level `ADAPTER` object with:

    strategies   the game's bots module (sim/games/<game>/bots.py): choose, resolve, strategy_names
    setups       two or three small configurations mixing its bots (and options)
    variants     lists of --set overrides the property tests draw rule options from
    players      player counts the Python-driver test plays
    example      (its example bot in strategies/examples, a seats column it makes > 0 or None)
    common       --forbid names free seats use in a few ordinary games (shows `kinds` is real)
    decisions    {kind: predicate(view)}: every kind of decision its Python strategies face
    choose(player, seat, family, params, view, legal_moves)
                 gives the move the built-in bot (family, params) makes now, taken from the
                 readable `legal_moves`; `player` is the game's PythonSeatPlayer (its state)
    kinds(player, seat, move, legal_moves)
                 gives the --forbid names `move` falls under (none when the rules let a
                 restricted seat make it anyway, e.g. a pass with nothing else to do)
    census(player)
                 gives {what: (found, expected)} for what the game conserves (cards, pieces)
    deal(player) gives what was dealt, read before the first decision of a game
"""

import importlib

from sim import games


def fast_level() -> list[str]:
    """Gives the names of the installed games of the fast level (compiled rules and bots: the
    built-ins), each of which has an adapter here; a simple-level game (sim/simple.py) is held
    to the public suite alone (test_public_suite.py)."""
    return [name for name in games.names() if not hasattr(games.get(name), "rules_module")]


def of(name: str):
    """Gives the adapter of the game registered as `name`."""
    package = games.module_of(name).rpartition(".")[2]
    return importlib.import_module(f"game_adapters.{package}").ADAPTER
