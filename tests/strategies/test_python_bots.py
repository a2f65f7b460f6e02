"""Loading a Python strategy from its file: every failure is one line naming the file."""

import pytest

from sim.errors import UserError
from strategies import bot_files, python_bots


def write(tmp_path, text, name="mybots.py"):
    file = tmp_path / name
    file.write_text(text)
    return file


def test_a_strategy_class_is_loaded_once_from_its_file(tmp_path):
    file = write(tmp_path, "class Cautious:\n    def choose(self, view, legal_moves, rng):\n"
                           "        return legal_moves[-1]\n")
    cls = bot_files.load_class(f"{file}:Cautious")
    assert cls.__name__ == "Cautious" and bot_files.load_class(f"{file}:Cautious") is cls
    assert cls().choose(None, [1, 2], None) == 2


@pytest.mark.parametrize("text, name, message", [
    ("x = 1 / 0\n", "Bot",
     r"^cannot import strategy file .*broken\.py: ZeroDivisionError: division by zero \(broken\.py:1\)$"),
    ("def f(:\n", "Bot", r"^cannot import strategy file .*broken\.py: SyntaxError: .*\(broken\.py:1\)$"),
    ("import no_such_module_here\n", "Bot", r"ModuleNotFoundError: No module named"),
    ("class Other:\n    pass\n", "Bot", r"broken\.py has no class 'Bot'; its classes: Other$"),
    ("class Bot:\n    pass\n", "Bot", r"class Bot has no choose\(view, legal_moves, rng\) method$"),
])
def test_a_strategy_that_cannot_be_loaded_is_one_line(tmp_path, text, name, message):
    file = write(tmp_path, text, "broken.py")
    with pytest.raises(UserError, match=message) as e:
        bot_files.load_class(f"{file}:{name}")
    assert "\n" not in str(e.value)


def test_a_missing_file_is_one_line(tmp_path):
    with pytest.raises(UserError, match=r"^cannot load strategy .*nothing\.py:Bot: no file "):
        bot_files.load_class(f"{tmp_path / 'nothing.py'}:Bot")


def test_a_python_seat_gives_the_index_of_an_equal_tuple(tmp_path):
    file = write(tmp_path, "class Echo:\n    def choose(self, view, legal_moves, rng):\n"
                           "        return tuple(legal_moves[1])\n", "echo.py")
    seat = python_bots.PythonSeat("echo.py:Echo", bot_files.load_class(f"{file}:Echo"), 1, 2, 0)
    assert seat.pick(None, [(0, 1), (2, 3)]) == 1


def _engine_stream(seed, game, stream):
    """Gives the first draw of the engines' stream (seed, game, stream), as jitted code
    starts and draws it."""
    import numpy as np

    from sim import rng

    state = np.zeros(1, np.uint64)
    rng.start(state, np.uint64(seed), np.uint64(game), np.uint64(stream))
    return int(rng.next_u64(state))


@pytest.mark.parametrize("seed, game, stream", [(0, 0, 0), (1, 7, 1), (2**64 - 1, 10**9, 302),
                                                (123456789, 2**40, 2**20)])
def test_python_streams_are_seeded_as_the_engines_streams_draw(seed, game, stream):
    import random

    from sim import rng

    assert rng.first_u64(seed, game, stream) == _engine_stream(seed, game, stream)
    expected = random.Random(_engine_stream(seed, game, stream))
    assert python_bots.stream_random(seed, game, stream).random() == expected.random()


@pytest.mark.parametrize("draws", [
    lambda r: [r.random(), r.random()], lambda r: [r.randrange(1000) for _ in range(3)],
    lambda r: r.sample(range(100), 5), lambda r: [r.gauss(0, 1), r.gauss(0, 1)],
    lambda r: [r.choice("abcdef"), r.uniform(2, 3)], lambda r: r.randbytes(9),
    lambda r: r.getstate(), lambda r: __import__("copy").deepcopy(r).random(),
    lambda r: __import__("pickle").loads(__import__("pickle").dumps(r)).random(),
])
def test_a_stream_seeded_at_its_first_draw_draws_as_a_seeded_random(draws):
    import random

    from sim import rng

    lazy = python_bots.stream_random(5, 3, 301)
    assert draws(lazy) == draws(random.Random(rng.first_u64(5, 3, 301)))
    assert type(lazy) is random.Random  # from its first draw on, Random's own methods


def test_a_stream_seeded_by_its_owner_forgets_its_own_seed():
    import random

    lazy = python_bots.stream_random(5, 3, 301)
    lazy.seed(42)
    assert lazy.random() == random.Random(42).random()
    other = python_bots.stream_random(5, 3, 301)
    other.setstate(random.Random(7).getstate())
    assert other.random() == random.Random(7).random()
