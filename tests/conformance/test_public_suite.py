"""Every registered game passes the public conformance suite (sim/testing.py) through the entry
point a plugin's tests call, with two configurations of its adapter (game_adapters/); the
checks of the simple level's rules module are the built-ins' own here
(test_hidden_information.py runs the suite's re-deal check on their samplers)."""

import game_adapters
import pytest

from sim import games, testing

CHECKS = [check for check in testing.CHECKS if check not in testing.SIMPLE_LEVEL]


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
@pytest.mark.parametrize("name", games.names())
def test_every_registered_game_passes_the_public_suite(name, check):
    kwargs = {"games": 4} if check is testing.trace_is_play else {}
    check(games.get(name), setups=game_adapters.of(name).setups[:2], **kwargs)
