"""The Python driver plays the jitted loop's games move for move: every built-in bot of every
game, played as a Python strategy through the readable view and legal moves, makes the games
(and the traces) its jitted self makes; every kind of decision reaches Python strategies; an
illegal move of any kind is one line naming it. (What a user's Python strategy is promised in
any game: the public suite's `python_strategies`, test_public_suite.py.)"""

import io
import re
import signal
from pathlib import Path

import game_adapters
import polars as pl
import pytest
from builtin_seats import assert_same_tables, builtins_as_python, played

from sim import games
from sim.errors import UserError
from sim.game import Setup
from strategies import seats

GAMES = 3
CASES = [(name, strategy) for name in games.names()
         for strategy in played(games.get(name))]


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


EXAMPLES = Path(__file__).parents[2] / "strategies" / "examples"


@pytest.mark.parametrize("name", games.names())
def test_an_example_bots_games_do_not_depend_on_chunking_and_trace_equals_play(name):
    game, adapter = games.get(name), game_adapters.of(name)
    bot, makes = adapter.example
    rules = game.load_rules(None, [])
    base = adapter.setups[0]
    setup = Setup(base.players, (seats.canonical(game, str(EXAMPLES / bot)), *base.seats[1:]),
                  base.options)
    whole = game.play(rules, setup, 5, 0, 4, 0)
    for table, rows in whole.items():
        parts = [game.play(rules, setup, 5, a, b, 0)[table] for a, b in ((0, 1), (1, 4))]
        assert rows.equals(pl.concat(parts)), table
    text = io.StringIO()
    traced = game.trace(rules, setup, 5, 2, text)
    for table, rows in traced.items():
        assert rows.equals(whole[table].filter(pl.col("game_id") == 2)), table
    assert f"0:{bot}" in text.getvalue().splitlines()[0]
    first = whole["seats"].filter(pl.col("seat") == 0)
    assert first["strategy"].unique().to_list() == [bot]
    if makes:
        assert first[makes].sum() > 0, f"the example bot's {makes}"


def python_seat(game, tmp_path, source: str) -> str:
    """Gives the seat string of a Python strategy class Bot whose choose() returns `source`."""
    file = tmp_path / "bots.py"
    file.write_text(f"class Bot:\n    def choose(self, view, legal_moves, rng):\n"
                    f"        return {source}\n")
    return seats.canonical(game, f"{file}:Bot")


@pytest.mark.parametrize("returned, shown", [
    ("legal_moves[-1]._replace(action='fly')", "Move(action='fly'"),
    ("None", "None is not one of its "),  # not the first legal move
    ("0", "0 is not one of its "),
    ("(1, 2)", "(1, 2) is not one of its "),
])
@pytest.mark.parametrize("name", games.names())
def test_an_illegal_move_names_the_bot_the_seat_the_move_and_the_game(name, tmp_path, returned,
                                                                     shown):
    game, base = games.get(name), game_adapters.of(name).setups[0]
    cheat = python_seat(game, tmp_path, returned)
    setup = Setup(base.players, ("random", cheat, *base.seats[2:]), base.options)
    with pytest.raises(UserError) as e:
        game.play(game.load_rules(None, []), setup, 1, 4, 6, 0)
    message = str(e.value)
    assert message.startswith(f"strategy {cheat} (seat 1) played an illegal move in game 4: ")
    assert shown in message and "\n" not in message and len(message) < len(cheat) + 300
    # The per-move alarm (--bot-timeout) is off: once the process exits, it would kill it.
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
