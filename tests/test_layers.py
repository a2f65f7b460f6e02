"""DESIGN.md's dependency rule: imports run one way (faces -> studies -> run -> reports and
bots -> games -> the shared core), no two modules import each other, and a game package never
imports the runner, the store or the studies. The contracts, and the few imports excepted from
them with their reasons, are pyproject.toml's [tool.importlinter]; this runs `lint-imports`
on them (docs/development.md)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_imports_follow_the_layers():
    # A fresh interpreter reads the packages of this tree (pyproject.toml found from ROOT);
    # --no-cache leaves nothing in the tree.
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    command = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    linted = subprocess.run([sys.executable, "-c", command, "--no-cache"], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": path}, capture_output=True, text=True,
                            timeout=300)
    assert linted.returncode == 0, linted.stdout + linted.stderr
