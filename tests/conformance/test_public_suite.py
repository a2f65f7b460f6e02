"""Every installed game (the five built-ins, No Thanks! once `pip install -e
examples/games/no_thanks` has installed it, any other plugin) and a game `simulate new-game`
writes pass the public conformance suite (sim/testing.py) as a plugin's own tests call it:
each check with its defaults, nothing known of the game but what it declares. (The checks of
a simple-level game's rules module pass at once for a fast-level game: test_hidden_information.py
runs the suite's re-deal check on the built-ins' samplers.)"""

from importlib.metadata import entry_points

import pytest

from sim import games, testing
from strategies import python_bots


# Every installed game, read from its entry point: the other tests see the built-ins alone
# (tests/conftest.py).
INSTALLED = {entry.name: entry for entry in entry_points(group=games.GROUP)}


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda check: check.__name__)
@pytest.mark.parametrize("name", sorted(INSTALLED))
def test_every_installed_game_passes_the_public_suite(name, check, monkeypatch):
    monkeypatch.setitem(games.GAMES, name, INSTALLED[name].value)  # `simulate` finds it too
    check(games.get(name))


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda check: check.__name__)
def test_a_new_game_skeleton_passes_the_public_suite(written, check):
    check(written[1].GAME)  # the package `simulate new-game` writes (tests/conftest.py)


def test_a_python_driver_straying_from_the_compiled_loop_is_caught(monkeypatch):
    # Every Python seat plays the first legal move, whatever the built-in it stands for plays.
    monkeypatch.setattr(python_bots.Suggests, "suggest",
                        lambda view, strategy="default": view._legal[0])
    with pytest.raises(AssertionError, match="^random at 2 players, the Python strategy at seat "
                                             "0: the games tables differ from the compiled"):
        testing.legal_moves_only(games.get("sequence-stacks"), players=[2])
