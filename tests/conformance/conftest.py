"""The conformance suite: every registered game (the `tabletop_balance.games` entry points) and each of its built-in bots
keeps the promises every game makes. A game's few game-specific facts (how to ask its bots,
what it conserves, how a move reads as --forbid names) are in game_adapters/."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # the tests import the adapters by name


@pytest.fixture(autouse=True)
def pool_for_any_run(monkeypatch):
    """Makes runs with more than one worker start worker processes however short they are."""
    from sim.run import runner

    monkeypatch.setattr(runner, "POOL_AFTER", 0.0)
