"""The built-in games' Python drivers: every kind of decision reaches Python strategies; an
example bot's games do not depend on chunking; an illegal move of any kind is one line naming
it. (That the Python driver plays the jitted loop's games move for move, every built-in bot
played through `view.suggest`, is the public suite's `legal_moves_only`; what a user's Python
strategy is promised in any game, its `python_strategies`: test_public_suite.py.)"""

import io
import signal
from pathlib import Path

import game_adapters
import polars as pl
import pytest
from builtin_seats import builtins_as_python

from sim import games
from sim.errors import UserError
from sim.game import Setup
from strategies import seats


@pytest.mark.parametrize("name", game_adapters.fast_level())
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


@pytest.mark.parametrize("name", game_adapters.fast_level())
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
@pytest.mark.parametrize("name", game_adapters.fast_level())
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
