"""Registers the coin-flip test game so the runner and the CLI can play it."""

from pathlib import Path

import pytest

HERE = Path(__file__).parent


@pytest.fixture
def fake_game(monkeypatch):
    """Gives the coin-flip game, registered as "fake" (and standing in for "saboteur")."""
    # On sys.path so that spawned worker processes can import it by name too.
    monkeypatch.syspath_prepend(str(HERE))
    import fake_game

    from sim import games, rules

    monkeypatch.setattr(games, "GAMES", {"fake": "fake_game", "saboteur": "fake_game:SABOTEUR"})
    monkeypatch.setattr(rules, "CONFIGS", HERE / "configs")
    fake_game.GAME.compiled.clear()
    fake_game.GAME.played.clear()
    return fake_game.GAME


@pytest.fixture(autouse=True)
def pool_for_any_run(monkeypatch):
    """Makes runs with more than one worker start worker processes however short they are, so
    that the tests exercise the pool (real runs keep short ones in the parent)."""
    from sim.run import runner

    monkeypatch.setattr(runner, "POOL_AFTER", 0.0)
