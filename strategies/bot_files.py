"""Loading a user's bot file: the strategy class a seat string names ("path/to/file.py:Class"),
and a user's error in it described in one line."""

from __future__ import annotations

import importlib.util
import sys
import traceback
from pathlib import Path

from sim.errors import Interruption, UserError
from strategies import bot_timeout

_classes: dict[str, type] = {}


def load_class(base: str) -> type:
    """Gives the strategy class named by "path/to/file.py:ClassName" (imported once per process).

    Raises UserError, in one line, when the file cannot be read or imported, has no such class,
    or the class has no `choose` method.
    """
    if base in _classes:
        return _classes[base]
    bot_timeout.guard_exit()
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
        raise UserError(f"cannot import strategy file {file}: {described(e)}"
                        f"{where(e, file)}") from None
    cls = getattr(module, name, None)
    if not isinstance(cls, type):
        classes = [k for k, v in vars(module).items()
                   if isinstance(v, type) and v.__module__ == module_name]
        raise UserError(f"{file} has no class {name!r}; its classes: {', '.join(classes) or 'none'}")
    if not callable(getattr(cls, "choose", None)):
        raise UserError(f"{file}: class {name} has no choose(view, legal_moves, rng) method")
    _classes[base] = cls
    return cls


def described(error: BaseException) -> str:
    """Gives an exception as its type and message on one line, saying what sys.exit means."""
    if isinstance(error, SystemExit):
        return f"it called sys.exit({shown(error.code)})"
    try:
        message = " ".join(str(error).split())
    except Exception as e:  # noqa: BLE001 - the user's __str__, failing in turn
        message = f"(its message failed: {type(e).__name__})"
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


def where(error: Exception, file: Path) -> str:
    """Gives ' (file.py:LINE)' for the deepest frame of the traceback in `file`, else ''."""
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if Path(f.filename).resolve() == file.resolve()]
    if isinstance(error, SyntaxError) and error.lineno:
        return f" ({file.name}:{error.lineno})"
    return f" ({file.name}:{frames[-1].lineno})" if frames else ""


def shown(value, most: int = 200) -> str:
    """Gives a value the user's code gave (a bot's move, a plugin's game) as its repr on one
    line, cut to `most` characters."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - the user's __repr__
        text = f"<{type(value).__name__} object>"
    text = text.replace("\n", "\\n")
    return text if len(text) <= most else text[:most - 1] + "…"
