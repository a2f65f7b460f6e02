"""The search family's shared part (sim/search.py): a run compiles the search only when a seat
searches."""

import importlib

import pytest

from sim import games, search
from sim.game import Setup
from sim.games.saboteur import GAME as SABOTEUR
from sim.games.saboteur import bots
from strategies import presets

SEARCHING = sorted(name for name in games.names() if hasattr(games.get(name), "search"))
SMALL = {"family": "search", "rollouts": 1.0, "determinizations": 1.0, "candidates": 2.0}


def loop_ir(name: str) -> dict[str, str]:
    """Gives the LLVM IR of each compiled signature of game `name`'s play loop, by the type of
    its `searching` argument."""
    loop = importlib.import_module(games.module_of(name) + ".play").play_games
    return {str(signature[-1]): str(result.library._get_module_for_linking())
            for signature, result in loop.overloads.items()}


@pytest.mark.parametrize("name", SEARCHING)
def test_the_loop_of_a_run_without_a_search_seat_holds_no_search(name):
    game = games.get(name)
    rules = presets.with_presets(game.load_rules(None, []), {"small": SMALL})
    players = max(game.min_players, 2)
    game.play(rules, Setup(players, ("default",) * players), 0, 0, 1, 0)
    game.play(rules, Setup(players, ("small",) + ("default",) * (players - 1)), 0, 0, 1, 0)
    ir = loop_ir(name)
    assert "play_out" in ir["bool"], "the search's rollouts are linked into the searching loop"
    assert "play_out" not in ir["none"]


def test_a_search_seat_is_found_in_any_setup_presets_included():
    rules = presets.with_presets(SABOTEUR.load_rules(None, []), {"mine": SMALL})
    assert not search.has_search_seat(bots.resolve, rules, [Setup(3, ("default",) * 3)])
    assert search.has_search_seat(bots.resolve, rules, [Setup(3, ("default",) * 3),
                                                         Setup(3, ("default", "mine", "random"))])
    assert search.has_search_seat(bots.resolve, rules, [Setup(3, ("search-fast",) * 3)])
