"""Reading Deep Space's board and deck files: one clear line for a missing, malformed or
invalid file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from sim.packaged import user_file
from sim.rules import read_toml


def read(path: str | Path, what: str, check: Callable[[dict, str], None]) -> dict:
    """Gives the contents of a `what` ("board", "deck") TOML file, checked by `check`."""
    contents = read_toml(user_file(path), what, shown=path)
    check(contents, f"{what} {path}")
    return contents
