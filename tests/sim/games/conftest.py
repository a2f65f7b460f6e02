"""Fixtures every game's tests share: a table built by hand, from the Table class (a position
builder) that the game's own conftest gives as `new_table`; the default rules of the game a
test module plays."""

import pytest


@pytest.fixture
def table(new_table):
    """Gives a table of the game's Table class at its own defaults (4 players, or 2 in Spit)."""
    return new_table()


@pytest.fixture(scope="module")
def rules(request):
    """Gives the default rules of the game the test module plays (its GAME)."""
    return request.module.GAME.load_rules(None, [])
