"""The Python driver plays the jitted loop's games move for move: every built-in bot of every
game, played as a Python strategy through the readable view and legal moves, makes the games
(and the traces) its jitted self makes; every kind of decision reaches Python strategies."""

import io
import re

import game_adapters
import pytest
from builtin_seats import assert_same_tables, builtins_as_python

from sim import games
from sim.game import Setup

GAMES = 3
CASES = [(name, strategy) for name in games.names() for strategy in games.get(name).strategy_names()]


def moves_traced(game, rules, setup, seed, index) -> list[str]:
    """Gives the lines of game `index`'s trace after its header (which names the seats), with
    a seat's strategy, where a line names it last in brackets, written `bot)`."""
    out = io.StringIO()
    game.trace(rules, setup, seed, index, out)
    text = out.getvalue().split("\n", 1)[1]
    for label in set(setup.strategies()):
        text = re.sub(rf"(?<=[( ]){re.escape(label)}\)", "bot)", text)
    return text.splitlines()


@pytest.mark.parametrize("name, strategy", CASES)
def test_every_built_in_bot_plays_the_same_games_through_the_python_driver(name, strategy):
    game, adapter = games.get(name), game_adapters.of(name)
    pattern = (strategy, "default", strategy, "random")
    configs = [(adapter.players[0], 0, 11, adapter.variants[0]),
               (adapter.players[-1], 3, 2**40 + 3, adapter.variants[-1])]
    for players, turn, seed, sets in configs:
        rules = game.load_rules(None, list(sets))
        setup = Setup(players, tuple(pattern[(i + turn) % 4] for i in range(players)))
        jitted = game.play(rules, setup, seed, 0, GAMES, 0)
        native = [moves_traced(game, rules, setup, seed, index) for index in range(GAMES)]
        with builtins_as_python(game, adapter, rules, setup) as python:
            assert_same_tables(game.play(rules, python, seed, 0, GAMES, 0), jitted)
            for index in range(GAMES):  # move for move
                assert moves_traced(game, rules, python, seed, index) == native[index], index


@pytest.mark.parametrize("name", games.names())
def test_every_kind_of_decision_reaches_python_strategies(name):
    game, adapter = games.get(name), game_adapters.of(name)
    rules = game.load_rules(None, [])
    seen = set()

    def watch(player, seat, view, legal_moves, move):
        seen.update(kind for kind, asked in adapter.decisions.items() if asked(view))

    for setup in adapter.setups:
        with builtins_as_python(game, adapter, rules, setup, watch) as python:
            game.play(rules, python, 17, 0, 4, 0)
    assert seen == set(adapter.decisions)
