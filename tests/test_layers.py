"""DESIGN.md's dependency rule: imports run one way (faces -> studies -> run -> reports ->
games, each with its built-in bots -> the shared core and the bot interface), no two modules
import each other, no game imports another, and a game package never imports the runner, the
store or the studies. The contracts, and the few imports excepted from them with their reasons,
are pyproject.toml's [tool.importlinter]; this runs `lint-imports` on them (docs/development.md,
"Layers", says where this departs from DESIGN.md)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _python(*args: str) -> subprocess.CompletedProcess:
    """Runs a fresh interpreter on this tree's packages, in its top folder."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, *args], cwd=ROOT, env={**os.environ, "PYTHONPATH": path},
                          capture_output=True, text=True, timeout=300)


def test_imports_follow_the_layers():
    # pyproject.toml is found from the top folder; --no-cache leaves nothing in the tree.
    command = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    linted = _python("-c", command, "--no-cache")
    assert linted.returncode == 0, linted.stdout + linted.stderr


@pytest.mark.parametrize("game", ["saboteur", "deep_space", "sequence_stacks", "speed", "spit"])
def test_a_game_s_bots_import_before_their_game(game):
    # sim/games/<game>/bots.py imports its game's rules, which runs sim/games/<game>/__init__.py
    # first, and that wires in the bots: it must not read the bots' tables before they are loaded.
    imported = _python("-c", f"import sim.games.{game}.bots")
    assert imported.returncode == 0, imported.stderr
