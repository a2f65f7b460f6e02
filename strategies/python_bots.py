"""Python strategies at the table: loading a bot class from its file, seeding it, and checking
what it plays. Shared by every game's Python driver (see strategies/protocol.py)."""

from __future__ import annotations

import importlib.util
import random
import sys
import traceback
from pathlib import Path

import numpy as np

from sim import rng as streams
from sim.errors import Interruption, UserError
from strategies import bot_timeout
from strategies.seats import is_python, parse

PYTHON_BOT_STREAM = 300  # + seat: apart from the deal's and the jitted bots' streams
_classes: dict[str, type] = {}


def load_class(base: str) -> type:
    """Gives the strategy class named by "path/to/file.py:ClassName" (imported once per process).

    Raises UserError, in one line, when the file cannot be read or imported, has no such class,
    or the class has no `choose` method.
    """
    if base in _classes:
        return _classes[base]
    path, _, name = base.rpartition(":")
    file = Path(path)
    if not file.is_file():
        raise UserError(f"cannot load strategy {base}: no file {file}")
    module_name = f"user_strategy_{len(_classes)}_{file.stem}"
    spec = importlib.util.spec_from_file_location(module_name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickling look classes up here
    try:
        spec.loader.exec_module(module)
    except Interruption:
        del sys.modules[module_name]
        raise
    except BaseException as e:  # noqa: BLE001 - the user's code: any failure is theirs, in one line
        del sys.modules[module_name]
        raise UserError(f"cannot import strategy file {file}: {_described(e)}"
                        f"{_where(e, file)}") from None
    cls = getattr(module, name, None)
    if not isinstance(cls, type):
        classes = [k for k, v in vars(module).items()
                   if isinstance(v, type) and v.__module__ == module_name]
        raise UserError(f"{file} has no class {name!r}; its classes: {', '.join(classes) or 'none'}")
    if not callable(getattr(cls, "choose", None)):
        raise UserError(f"{file}: class {name} has no choose(view, legal_moves, rng) method")
    _classes[base] = cls
    return cls


def bot_rng(seed: int, game: int, seat: int) -> random.Random:
    """Gives the random.Random of a Python bot's seat in one game: seeded from (run seed, game
    index, seat) alone, by the same stateless streams the engines use."""
    stream = np.zeros(1, np.uint64)
    streams.start(stream, np.uint64(seed), np.uint64(game), np.uint64(PYTHON_BOT_STREAM + seat))
    return random.Random(int(streams.next_u64(stream)))


class PythonSeat:
    """A Python strategy playing one seat of one game: a fresh instance and its own rng."""

    def __init__(self, label: str, cls: type, seed: int, game: int, seat: int):
        self.label, self.game, self.seat = label, game, seat
        self.timeout = bot_timeout.seconds()
        self.bot = self._ask(cls)
        self.rng = bot_rng(seed, game, seat)

    def pick(self, view, moves: list) -> int:
        """Gives the index in `moves` of the move the bot chooses.

        Raises UserError naming the bot, the seat and the game when the bot fails, overruns
        the per-move limit or gives a move that is not among `moves`.
        """
        chosen = self._ask(self.bot.choose, view, moves, self.rng)
        try:
            return moves.index(chosen)
        except ValueError:
            raise UserError(f"strategy {self.label} (seat {self.seat}) played an illegal move in "
                            f"game {self.game}: {chosen!r} is not one of its {len(moves)} legal "
                            f"moves") from None

    def _ask(self, call, *args):
        """Gives what the bot's `call` returns within the per-move limit; UserError naming the
        bot, the seat and the game for any failure of the bot's (any exception, sys.exit, a
        KeyboardInterrupt of its own) or an overrun."""
        try:
            with bot_timeout.one_move(self.timeout):
                return call(*args)
        except Interruption:  # the user's Ctrl-C, not the bot's doing
            raise
        except bot_timeout.MoveTimeout:
            raise UserError(f"strategy {self.label} (seat {self.seat}) took more than "
                            f"{self.timeout:g} s for a move in game {self.game}; give it longer "
                            "with --bot-timeout SECONDS (0: no limit)") from None
        except BaseException as e:  # noqa: BLE001 - the user's code, said in one line
            raise UserError(f"strategy {self.label} (seat {self.seat}) failed in game "
                            f"{self.game}: {_described(e)}"
                            f"{_where(e, Path(self.label.rpartition(':')[0]))}") from None


def python_classes(seats: tuple[str, ...]) -> dict[int, tuple[str, type]]:
    """Gives {seat: (strategy string, class)} for the seats that Python strategies play."""
    found = {}
    for seat, text in enumerate(seats):
        base = parse(text).base
        if is_python(base):
            found[seat] = (text, load_class(base))
    return found


def seats_for_game(classes: dict[int, tuple[str, type]], seed: int, game: int) -> dict[int, PythonSeat]:
    """Gives fresh Python seats for one game."""
    return {seat: PythonSeat(label, cls, seed, game, seat) for seat, (label, cls) in classes.items()}


def _described(error: BaseException) -> str:
    """Gives an exception as its type and message, saying what sys.exit means."""
    if isinstance(error, SystemExit):
        return f"it called sys.exit({error.code!r})"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _where(error: Exception, file: Path) -> str:
    """Gives ' (file.py:LINE)' for the deepest frame of the traceback in `file`, else ''."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if Path(f.filename).resolve() == file.resolve()]
    if isinstance(error, SyntaxError) and error.lineno:
        return f" ({file.name}:{error.lineno})"
    return f" ({file.name}:{frames[-1].lineno})" if frames else ""
