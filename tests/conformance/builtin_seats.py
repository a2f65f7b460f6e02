"""Built-in bots played as Python strategies: every decision of a game passes through the
Python driver's readable view and legal moves, where the suite can look at it."""

from contextlib import contextmanager
from functools import partial
from pathlib import Path

import pytest

from sim.game import Setup
from strategies import seats
from strategies.presets import user_presets

WRAPPED = f"{Path(__file__).with_name('wrapped.py')}:Builtin"
SEARCH_PLAYED = "search-fast"  # the search budget the suite plays (the others only search longer)


def played(game) -> list[str]:
    """Gives the built-in strategies the suite plays: every one but the search presets other
    than SEARCH_PLAYED, which play the same code with a larger budget, slowly."""
    return [name for name in game.strategy_names()
            if game.bots.presets.get(name, ("", {}))[0] != "search" or name == SEARCH_PLAYED]


def wrapped(setup: Setup) -> Setup:
    """Gives `setup` with every seat a Python strategy (keeping its restrictions)."""
    return Setup(setup.players, tuple(seats.compose(WRAPPED, seats.parse(s).forbidden)
                                      for s in setup.seats), setup.options)


@contextmanager
def builtins_as_python(game, adapter, rules, setup: Setup, watch=None):
    """While open, `game.play` and `game.trace` of `wrapped(setup)` ask each seat's Python
    strategy, which answers with the move its built-in bot in `setup` makes, taken from the
    readable legal moves. watch(player, seat, view, legal_moves, move), if given, sees each
    decision.
    """
    resolved = [adapter.strategies.resolve(seats.parse(s).base, user_presets(rules))
                for s in setup.seats]
    python_seats = game._python_seats  # every game builds its Python seats' players here

    def decide(player, seat, family, params, view, legal_moves):
        move = adapter.choose(player, seat, family, params, view, legal_moves)
        assert move in legal_moves, (move, "the built-in bot's move is a legal move")
        if watch:
            watch(player, seat, view, legal_moves, move)
        return move

    def players(*args):
        found = python_seats(*args)
        for seat, player in found.items():
            player.seat.bot.ask = partial(decide, player, seat, *resolved[seat])
        return found

    prepare = game.prepare

    def prepared(rules_, setup_):
        # The built-in bots' families, as the jitted loop has them: the engine keeps what a
        # family observes (e.g. Saboteur's public record) only when some seat's family does.
        return prepare(rules_, setup)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(game, "_python_seats", players)
        patch.setattr(game, "prepare", prepared)
        yield wrapped(setup)


def assert_same_tables(a: dict, b: dict) -> None:
    """Asserts two games' tables are equal but for the seats' strategy labels."""
    assert a.keys() == b.keys()
    for name in a:
        drop = [c for c in ("strategy",) if c in a[name].columns]
        assert a[name].drop(drop).equals(b[name].drop(drop)), name
