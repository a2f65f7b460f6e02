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

    monkeypatch.setattr(games, "GAMES", {"fake": "fake_game", "saboteur": "fake_game"})
    monkeypatch.setattr(rules, "CONFIGS", HERE / "configs")
    fake_game.GAME.compiled.clear()
    return fake_game.GAME
