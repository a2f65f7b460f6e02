"""A registered game joins the conformance suite through its adapter (game_adapters/)."""

import game_adapters
import pytest

from sim import games

PROMISED = ("strategies", "setups", "variants", "players", "example", "common", "decisions",
            "choose", "kinds", "census", "deal")


@pytest.mark.parametrize("name", game_adapters.fast_level())
def test_every_fast_level_game_has_an_adapter_saying_all_the_suite_asks(name):
    adapter = game_adapters.of(name)
    assert [a for a in PROMISED if not hasattr(adapter, a)] == []
    game = games.get(name)
    assert all(game.min_players <= s.players <= game.max_players for s in adapter.setups)
    assert len(adapter.setups) >= 2 and () in adapter.variants
    assert adapter.common <= set(game.bots.forbiddable(game.load_rules(None, [])))
