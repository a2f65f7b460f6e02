"""The conformance suite: every registered game (sim/games.py) and each of its built-in bots
keeps the promises every game makes. A game's few game-specific facts (how to ask its bots,
what it conserves, how a move reads as --forbid names) are in game_adapters/."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests import the adapters by name


@pytest.fixture(autouse=True)
def pool_for_any_run(monkeypatch):
    """Makes runs with more than one worker start worker processes however short they are."""
    from sim import runner

    monkeypatch.setattr(runner, "POOL_AFTER", 0.0)


@pytest.fixture
def simulate(monkeypatch, capsys, tmp_path):
    """Gives a function running `simulate ARGS...` in-process from an empty folder, and giving
    (exit code, stdout, stderr)."""
    from sim import cli

    monkeypatch.chdir(tmp_path)

    def run(*args):
        monkeypatch.setattr(sys, "argv", ["simulate", *args])
        with pytest.raises(SystemExit) as exit:
            cli.main()
            sys.exit(0)
        out, err = capsys.readouterr()
        return exit.value.code or 0, out, err

    return run
