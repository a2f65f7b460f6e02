"""The rules a Deep Space move calls once or more are inlined into the loops that play it.

A call to a compiled rule that is not inlined passes each array of the state and the rules
as separate values (about 370 pushed on the stack): calling `random_move` and `apply_move`
once a move each was a third of a random game's time (docs/development.md, Deep Space's
slowdown)."""

import pytest

from sim.games.deep_space import bots, engine


@pytest.mark.parametrize("rule", [engine.apply_move, bots.random_move])
def test_a_rule_called_every_move_is_inlined(rule):
    assert rule.targetoptions.get("inline") == "always", rule.py_func.__name__
