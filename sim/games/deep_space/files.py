"""Reading Deep Space's board and deck files: one clear line for a missing, malformed or
invalid file."""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path

from sim.errors import UserError
from sim.packaged import user_file


def read(path: str | Path, what: str, check: Callable[[dict, str], None]) -> dict:
    """Gives the contents of a `what` ("board", "deck") TOML file, checked by `check`."""
    try:
        with user_file(path).open("rb") as f:
            contents = tomllib.load(f)
    except OSError as e:
        raise UserError(f"cannot read the {what} {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{what} {path}: malformed TOML: {e}") from None
    check(contents, f"{what} {path}")
    return contents
