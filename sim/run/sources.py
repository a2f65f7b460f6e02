"""What decides a run's games besides its parameters: the code that plays them.

A run records, when it starts, a checksum of every source file its games run through — the
game's own package (or module), the shared engine modules it compiles from, the bots'
`strategies` package — and of every Python bot file its seats name, with simulate's version;
`resume` compares them with today's so that games of two codes are never pooled in one run.
A preset file needs no entry: its values are part of the run's rules.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path

import sim
import strategies
from sim import games
from sim.game import Setup

# The shared core the games' engines and bots are built from (sim/<name>.py), and the module
# that plays a chunk into its tables; the faces, the studies and the reports decide no game.
ENGINE = ("game", "jit", "rng", "rules", "rule_keys", "sampling", "search", "simple", "counts",
          "packaged", "usage", "run/chunks")


def fingerprint(game_name: str, setups: list[Setup], version: str | None) -> dict:
    """Gives what a run of `setups` of the game records of its code: simulate's version, the
    checksum of each source file (by its path under its package's parent folder) and of each
    Python bot file (by its path)."""
    return {"version": version,
            "sources": {key: _checksum(path) for key, path in sorted(_sources(game_name).items())},
            "bots": {path: _checksum(Path(path)) for path in sorted(bot_files(setups))}}


def differences(recorded: dict, current: dict) -> list[str]:
    """Gives, in words, what differs between the code a run recorded and today's (empty when
    nothing does)."""
    found = []
    if recorded.get("version") != current["version"]:
        found.append(f"simulate's version changed since the run started ({recorded.get('version')}"
                     f" then, {current['version']} now)")
    old, new = recorded.get("sources", {}), current["sources"]
    changed = sorted(key for key in old.keys() | new.keys() if old.get(key) != new.get(key))
    if changed:
        more = f" and {len(changed) - 1} more file(s)" if len(changed) > 1 else ""
        found.append(f"the game's code changed since the run started ({changed[0]}{more})")
    for path, checksum in recorded.get("bots", {}).items():
        now = current["bots"].get(path, _checksum(Path(path)))
        if now != checksum:
            found.append(f"bots file {path} " + ("is gone" if now is None else
                                                 "changed since the run started"))
    return found


def bot_files(setups: list[Setup]) -> set[str]:
    """Gives the Python bot files the configurations' seats and roles name ("file.py:Class",
    made absolute by strategies.seats.canonical)."""
    from strategies.seats import is_python, parse

    names = [name for s in setups for name in (*s.seats, *(n for _, n in s.roles))]
    return {base.rpartition(":")[0] for base in (parse(name).base for name in names)
            if is_python(base)}


def _sources(game_name: str) -> dict[str, Path]:
    """Gives the source files a game's runs play through, by their path under the folder
    holding their top package."""
    module = importlib.import_module(games.module_of(game_name))
    if not hasattr(module, "__path__") and "." in module.__name__:
        module = importlib.import_module(module.__name__.rpartition(".")[0])  # its package
    files = {}
    for package in (module, sim, strategies):
        is_package = hasattr(package, "__path__")
        # A namespace package (no __init__.py) has no __file__: its folder stands in for it.
        origin = (Path(package.__file__) if package.__file__ else
                  Path(next(iter(package.__path__))) / "__init__.py").resolve()
        root = origin.parents[package.__name__.count(".") + is_package]
        found = ([origin.parent / f"{name}.py" for name in ENGINE] if package is sim
                 else sorted(origin.parent.rglob("*.py")) if is_package else [origin])
        files.update({p.relative_to(root).as_posix(): p for p in found
                      if "__pycache__" not in p.parts})
    return files


def _checksum(path: Path) -> str | None:
    """Gives the SHA-256 of a file's bytes, None if it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
