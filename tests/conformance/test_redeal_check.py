"""The public suite's re-deal check (sim/testing.py `redeal_independence`) refuses a re-deal
that reads what the seat cannot know, gives back the real state, or forgets what the seat
learned, on Priest Letter (cheats/priest_letter.py), a small Love Letter whose Priest shows a
seat another's card. (No Thanks! refuses its cheats in examples/games/no_thanks/tests.)"""

import copy
import random

import pytest
from cheats import priest_letter

from sim import testing
from sim.simple import SimpleGame

GAME = SimpleGame(priest_letter)


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda check: check.__name__)
def test_priest_letter_as_written_passes_every_check(check):
    check(GAME)


def reading_redeal(state, seat, rng):
    """The re-deal less its sort: it shuffles the unseen cards in the order they lie in."""
    real = priest_letter._redealt
    world = real(state, seat, random.Random(0), state.looked[seat])  # where each card goes
    unseen = state.removed + state.deck
    rng.shuffle(unseen)
    world.deck, world.removed = unseen[:len(state.deck)], unseen[len(state.deck):]
    return world


@pytest.mark.parametrize("redeal, says", [
    (priest_letter.forgetful_redeal, "redeal changed what seat 0 sees .what it learned must "
                                     "survive the re-deal"),
    (lambda state, seat, rng: copy.deepcopy(state), "redeal gave back the real state at every "
                                                    "position"),
    (reading_redeal, r"gave different worlds \(at state\.(deck|removed)\[\d+\]\): redeal reads "
                     "what the seat cannot know"),
], ids=["forgets a Priest's look", "copies the real state", "reads the deck's order"])
def test_the_suite_refuses_a_cheating_redeal(monkeypatch, redeal, says):
    monkeypatch.setattr(priest_letter, "redeal", redeal)
    with pytest.raises(AssertionError, match=says):
        testing.redeal_independence(GAME)


@pytest.mark.parametrize("check", [c for c in testing.CHECKS if c is not
                                   testing.redeal_independence], ids=lambda check: check.__name__)
def test_only_the_redeal_check_refuses_a_copying_redeal(monkeypatch, check):
    # What the search seat's 74% instead of 41.5% went through before (docs/own-game.md).
    monkeypatch.setattr(priest_letter, "redeal", lambda state, seat, rng: copy.deepcopy(state))
    check(GAME)


def test_a_priests_look_survives_the_redeal_until_the_seat_plays_that_card():
    state = priest_letter.State(0, [[priest_letter.PRIEST, 1], [4], [3]], [1, 5, 1], [2],
                                [False] * 3, [set(), set(), set()])
    state = priest_letter.apply(state, (priest_letter.PRIEST, 2, 0))  # seat 0 looks at seat 2
    assert priest_letter.view(state, 0).known == ((2, 3),)
    for stream in range(5):
        world = priest_letter.redeal(state, 0, random.Random(stream))
        assert world.hands[2] == [3] and priest_letter.view(world, 0) == priest_letter.view(
            state, 0)
    forgot = {tuple(priest_letter.forgetful_redeal(state, 0, random.Random(s)).hands[2])
              for s in range(20)}
    assert len(forgot) > 1, "the forgetful re-deal deals the card seat 0 saw afresh"


def test_difference_names_where_two_states_differ():
    a = priest_letter.State(0, [[1], [2]], [3, 4], [5], [False, False], [set(), {0}])
    b = copy.deepcopy(a)
    assert testing.difference(a, b) is None
    b.deck[1] = 9
    assert testing.difference(a, b) == "state.deck[1]"
    b = copy.deepcopy(a)
    b.looked[1] = set()
    assert testing.difference(a, b) == "state.looked[1]"
    view = priest_letter.view(a, 1)
    assert testing.difference(view, view._replace(cards_left=0)) == "state.cards_left"
