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
