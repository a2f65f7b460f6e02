"""Paying gold: the miners' cards passed around the table, the saboteurs' share, the ranking."""

import numpy as np
import pytest

from sim.games.saboteur import engine
from sim.games.saboteur.state import FINDER, MINERS_WON

NUGGETS = np.arange(4)


def miners_win(table, finder, pile=None):
    """Pays the gold of a round the miners won, `finder` having reached the gold, from a gold
    pile of `pile` = (ones, twos, threes) (default: the full pile); gives each seat's gain."""
    s = table.s
    if pile is not None:
        s.gold_pile[:] = [0, *pile]
    s.g[MINERS_WON] = 1
    s.g[FINDER] = finder
    engine.pay_gold(s, table.rs)
    return s.round_gold.tolist()


def saboteurs_win(table):
    table.s.g[MINERS_WON] = 0
    engine.pay_gold(table.s, table.rs)
    return table.s.round_gold.tolist()


# ---- the miners win: one card each (the source's reading, the default) ---------------------------

@pytest.mark.parametrize("players, saboteurs, drawn", [
    (3, (1,), 2), (5, (1, 2), 3), (9, (1,), 8), (10, (), 10), (10, (1, 2, 3, 4), 6)])
def test_the_finder_draws_one_gold_card_per_miner(new_table, players, saboteurs, drawn):
    table = new_table(players)
    table.saboteurs(*saboteurs)
    gains = miners_win(table, finder=0)
    pile = table.s.gold_pile
    assert 28 - pile[1:].sum() == drawn
    assert sum(gains) == 44 - (pile * NUGGETS).sum()
    assert table.s.gold.tolist() == gains


# Play goes in seat order, clockwise: "the nearest miner on the left" of seat s is the first
# miner among s + 1, s + 2, ... (docs/rules/saboteur.md). Every position below is 5 players.

def test_every_miner_gets_exactly_one_card_the_finder_first_then_the_nearest_miner_on_the_left(
        new_table):
    table = new_table(5)
    table.saboteurs(3)
    # Four miners draw the whole pile: 3, 2, 2, 1. Seat 1 reached the gold and keeps the 3,
    # then seats 2, (3 is a saboteur) 4, 0 each keep one.
    assert miners_win(table, finder=1, pile=(1, 2, 1)) == [1, 3, 2, 0, 2]


def test_one_each_when_a_saboteur_reaches_the_gold_the_nearest_miner_on_its_left_starts(
        new_table):
    table = new_table(5)
    table.saboteurs(3)
    # Seat 4 starts (seat 2, on seat 3's right, would under counter_clockwise): 4, 0, 1, 2.
    assert miners_win(table, finder=3, pile=(1, 2, 1)) == [2, 2, 1, 0, 3]


def test_one_each_the_nearest_miner_on_the_left_skips_every_saboteur_on_the_way(new_table):
    table = new_table(5)
    table.saboteurs(2, 3)
    # Saboteur 2 reached the gold; saboteur 3 on its left is skipped: 4, 0, 1.
    assert miners_win(table, finder=2, pile=(1, 1, 1)) == [2, 1, 0, 0, 3]


def test_one_each_under_the_counter_clockwise_option_the_gold_passes_in_reverse_seat_order(
        new_table):
    table = new_table(5, sets=["options.gold_pass=counter_clockwise"])
    table.saboteurs(3)
    # Seat 1 keeps the 3, then seats 0, 4, (3 is a saboteur) 2.
    assert miners_win(table, finder=1, pile=(1, 2, 1)) == [2, 3, 1, 0, 2]


def test_when_the_gold_pile_runs_short_the_last_miners_get_nothing(new_table):
    table = new_table(5)
    table.saboteurs(3)
    assert miners_win(table, finder=1, pile=(0, 1, 1)) == [0, 3, 2, 0, 0]
    assert table.s.gold_pile.tolist() == [0, 0, 0, 0]


# ---- the miners win: cards per player (the other published reading) -------------------------------

def per_player(new_table, players):
    return new_table(players, sets=["options.gold_share=cards_per_player"])


@pytest.mark.parametrize("players, drawn", [(3, 3), (5, 5), (9, 9), (10, 9)])
def test_cards_per_player_the_miners_draw_one_gold_card_per_player_but_at_most_nine(
        new_table, players, drawn):
    table = per_player(new_table, players)
    table.saboteurs(1)
    gains = miners_win(table, finder=0)
    pile = table.s.gold_pile
    assert 28 - pile[1:].sum() == drawn
    assert sum(gains) == 44 - (pile * NUGGETS).sum()
    assert table.s.gold.tolist() == gains


def test_cards_per_player_the_finder_takes_the_largest_card_then_the_miners_on_the_left(
        new_table):
    table = per_player(new_table, 5)
    table.saboteurs(3)
    # The five cards drawn are the whole pile: 3, 2, 2, 1, 1. Seat 1 reached the gold, then
    # seats 2, (3 is a saboteur) 4, 0, and seat 1 again.
    assert miners_win(table, finder=1, pile=(2, 2, 1)) == [1, 4, 2, 0, 2]


def test_cards_per_player_a_miner_may_get_several_gold_cards(new_table):
    table = per_player(new_table, 5)
    table.saboteurs(1, 2, 3)
    assert miners_win(table, finder=0, pile=(2, 2, 1)) == [3 + 2 + 1, 0, 0, 0, 2 + 1]


def test_cards_per_player_when_a_saboteur_reaches_the_gold_the_nearest_miner_on_its_left_starts(
        new_table):
    table = per_player(new_table, 5)
    table.saboteurs(3)
    # 4, 0, 1, 2, then 4 again.
    assert miners_win(table, finder=3, pile=(2, 2, 1)) == [2, 2, 1, 0, 3 + 1]


def test_cards_per_player_the_nearest_miner_on_the_left_skips_every_saboteur_on_the_way(
        new_table):
    table = per_player(new_table, 5)
    table.saboteurs(2, 3)
    # Saboteur 2 reached the gold; saboteur 3 is skipped: 4, 0, 1, then 4, 0 again.
    assert miners_win(table, finder=2, pile=(2, 2, 1)) == [2 + 1, 2, 0, 0, 3 + 1]


def test_cards_per_player_under_the_counter_clockwise_option_the_gold_passes_in_reverse_seat_order(
        new_table):
    table = new_table(5, sets=["options.gold_share=cards_per_player",
                               "options.gold_pass=counter_clockwise"])
    table.saboteurs(3)
    # 1, 0, 4, (3 is a saboteur) 2, then 1 again.
    assert miners_win(table, finder=1, pile=(2, 2, 1)) == [2, 3 + 1, 1, 0, 2]


def test_the_saboteurs_get_nothing_when_the_miners_win(new_table):
    table = new_table(10)
    table.saboteurs(0, 5, 9)
    gains = miners_win(table, finder=3)
    assert [gains[seat] for seat in (0, 5, 9)] == [0, 0, 0]


# ---- the saboteurs win ---------------------------------------------------------------------------

@pytest.mark.parametrize("saboteurs, share", [(1, 4), (2, 3), (3, 3), (4, 2)])
def test_each_saboteur_takes_4_3_3_or_2_nuggets_by_how_many_are_in_play(new_table, saboteurs, share):
    table = new_table(10)
    table.saboteurs(*range(1, 1 + saboteurs))
    gains = saboteurs_win(table)
    assert gains == [0] + [share] * saboteurs + [0] * (9 - saboteurs)
    assert (table.s.gold_pile * NUGGETS).sum() == 44 - share * saboteurs


def test_no_saboteur_in_play_means_no_gold_paid(table):
    assert saboteurs_win(table) == [0, 0, 0, 0]


@pytest.mark.parametrize("pile, target, taken, left", [
    ((16, 8, 4), 4, 4, None),          # 3 + 1 or 2 + 2
    ((0, 5, 5), 4, 4, (0, 3, 5)),      # only 3s and 2s: 2 + 2
    ((0, 0, 3), 4, 3, (0, 0, 2)),      # no exact way: the largest sum below
    ((3, 0, 1), 3, 3, (3, 0, 0)),      # exact with the fewest cards
    ((1, 0, 0), 3, 1, (0, 0, 0)),
    ((0, 0, 0), 3, 0, (0, 0, 0)),      # an empty pile pays nothing
])
def test_a_saboteur_takes_gold_as_exactly_as_the_pile_allows(pile, target, taken, left):
    cards = np.array([0, *pile], np.int64)
    assert engine.take_exactly(cards, target) == taken
    assert (np.array([0, *pile]) - cards) @ NUGGETS == taken
    if left is not None:
        assert cards[1:].tolist() == list(left)
    else:
        assert (np.array([0, *pile]) - cards).sum() == 2


def test_saboteurs_take_their_share_from_a_pile_of_only_threes_and_twos(new_table):
    table = new_table(5)
    table.saboteurs(0, 4)
    table.s.gold_pile[:] = [0, 0, 1, 2]
    # 3 each: the first takes a 3, the second the other 3.
    assert saboteurs_win(table) == [3, 0, 0, 0, 3]
    assert table.s.gold_pile.tolist() == [0, 0, 1, 0]


# ---- winning the game ------------------------------------------------------------------------------

def test_the_player_with_the_most_nuggets_wins_and_tied_players_all_win():
    gold = np.array([5, 7, 7, 2], np.int64)
    assert [engine.rank(gold, seat) for seat in range(4)] == [3, 1, 1, 4]


def test_round_gold_adds_to_each_players_total(new_table):
    table = new_table(5)
    table.saboteurs(3)
    table.s.gold[:] = [1, 2, 3, 4, 5]
    miners_win(table, finder=1, pile=(1, 2, 1))
    assert table.s.gold.tolist() == [2, 5, 5, 4, 7]
