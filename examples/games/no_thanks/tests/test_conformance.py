"""No Thanks! keeps every promise of a tabletop-balance game (sim/testing.py), and the suite
refuses it with a re-deal that cheats."""

import copy

import pytest

from no_thanks import GAME, rules
from sim import testing


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda check: check.__name__)
def test_conformance(check):
    check(GAME)


def copying_redeal(state, seat, rng):
    """A re-deal that gives back the real state: a search on it knows the deck."""
    return copy.deepcopy(state)


def reading_redeal(state, seat, rng):
    """The re-deal less its sort: the unseen cards shuffled from the order they lie in."""
    unseen = state.deck + state.removed
    rng.shuffle(unseen)
    left = len(state.deck)
    return rules.State(state.seat, state.card, state.pot, unseen[:left], unseen[left:],
                       list(state.chips), list(state.hands), state.passes)


@pytest.mark.parametrize("redeal, says", [
    (copying_redeal, "redeal gave back the real state at every position"),
    (reading_redeal, r"gave different worlds \(at state\.(deck|removed)\[\d+\]\): redeal reads "
                     "what the seat cannot know"),
])
def test_the_suite_refuses_a_cheating_redeal(monkeypatch, redeal, says):
    monkeypatch.setattr(rules, "redeal", redeal)
    with pytest.raises(AssertionError, match=says):
        testing.redeal_independence(GAME)
