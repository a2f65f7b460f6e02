"""Each rule of No Thanks! on an exact position."""

import random

import pytest

from no_thanks import GAME
from no_thanks import rules as nt
from sim.errors import UserError
from sim.game import Setup

RULES = GAME.load_rules(None, [])


def position(card=10, pot=0, chips=(3, 3, 3), hands=((), (), ()), deck=(20, 30), seat=0):
    return nt.State(seat, card, pot, list(deck), [4, 5], list(chips), list(hands))


@pytest.mark.parametrize("players, chips", [(3, 11), (4, 11), (5, 11), (6, 9), (7, 7)])
def test_deal_gives_the_chips_of_the_player_count_and_removes_nine_cards(players, chips):
    state = nt.deal(players, RULES, random.Random(1))
    assert state.chips == [chips] * players
    assert len(state.removed) == 9 and len(state.deck) == 33 - 9 - 1
    assert sorted(state.removed + state.deck + [state.card]) == list(range(3, 36))
    assert state.seat == 0 and state.pot == 0


def test_passing_pays_a_chip_onto_the_card_and_hands_the_turn_on():
    state = nt.apply(position(pot=2, seat=2), nt.PASS)
    assert state.chips == [3, 3, 2] and state.pot == 3 and state.seat == 0 and state.card == 10


def test_taking_gives_the_card_and_its_chips_and_the_taker_decides_on_the_next_card():
    state = nt.apply(position(pot=4, seat=1), nt.TAKE)
    assert state.hands[1] == (10,) and state.chips == [3, 7, 3]
    assert state.pot == 0 and state.card == 30 and state.seat == 1


def test_a_player_without_chips_must_take():
    assert nt.legal_moves(position(chips=(0, 3, 3))) == (nt.TAKE,)
    assert set(nt.legal_moves(position())) == {nt.TAKE, nt.PASS}


def test_the_game_ends_when_the_last_card_is_taken():
    state = nt.apply(position(deck=()), nt.TAKE)
    assert nt.is_over(state)


def test_a_run_scores_its_lowest_card_and_chips_subtract():
    assert nt.cards_score([20, 21, 22, 30, 32]) == 20 + 30 + 32
    state = position(card=0, chips=(5, 0, 2), hands=((20, 21, 22), (3,), (35, 33, 34)))
    assert nt.result(state).scores == (15, 3, 31)


def test_the_lowest_total_wins_and_ties_share_the_win():
    state = position(card=0, chips=(0, 0, 0), hands=((8,), (5, 6), (9, 8)))
    assert nt.result(state).winners == (1,)
    state = position(card=0, chips=(0, 0, 2), hands=((8,), (5, 6), (7, 8)))
    assert nt.result(state).winners == (1, 2)


def test_a_seat_sees_the_table_but_not_the_deck_and_redeal_keeps_what_it_sees():
    state = position(deck=(20, 30, 31))
    view = nt.view(state, 0)
    assert view.cards_left == 3 and not hasattr(view, "deck")
    world = nt.redeal(state, 0, random.Random(3))
    assert nt.view(world, 0) == view
    assert sorted(world.deck + world.removed) == [4, 5, 20, 30, 31]


def test_a_shared_win_counts_for_every_winner_in_the_tables():
    tables = GAME.play(RULES, Setup(3, ("default",) * 3), 1, 0, 200, 0)
    shared = tables["games"].filter(tables["games"]["winners"] > 1)
    assert shared.height and shared["winner"].null_count() == shared.height


@pytest.mark.parametrize("override, says", [
    ("removed=33", "removed must be 0 to 32"),
    ("highest_card=2", "lowest_card must be at least 1 and at most highest_card"),
    ("chips.5=-1", "chips.5 must be at least 0"),
])
def test_rules_no_game_can_be_played_with_are_one_clear_error(override, says):
    with pytest.raises(UserError, match=says):
        GAME.load_rules(None, [override])


def test_the_default_bot_takes_a_card_joining_its_run_and_a_well_paid_card():
    bot = nt.Default()
    rng = random.Random(0)
    assert bot.choose(nt.view(position(card=21, pot=1, hands=((20,), (), ())), 0), nt.BOTH, rng) == nt.TAKE
    assert bot.choose(nt.view(position(card=21, pot=0, hands=((20,), (), ())), 0), nt.BOTH, rng) == nt.PASS
    assert bot.choose(nt.view(position(card=10, pot=4), 0), nt.BOTH, rng) == nt.TAKE
    assert bot.choose(nt.view(position(card=30, pot=4, chips=(11, 3, 3)), 0), nt.BOTH, rng) == nt.PASS
