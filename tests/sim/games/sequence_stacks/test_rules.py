"""One test per rule of ../shared/rules/sequence_stacks.md, each on the position it is about."""

import numpy as np
import pytest

from sim.errors import UserError
from sim.games.sequence_stacks import GAME, cards, engine
from sim.games.sequence_stacks.cards import type_named
from sim.games.sequence_stacks.engine import (
    ACT,
    BLOCK_IT,
    DISCARD,
    END,
    HAND,
    PASS,
    PLAY,
    TOP,
    TURN,
    WINDOW,
)
from sim.games.sequence_stacks.state import (
    MOVES,
    OVER,
    REMOVED_N,
    RESHUFFLES,
    SEQUENCES_BLOCKED,
    STALLED,
    TURNS,
    WINNER,
    new_state,
    views,
)

# ---- components and setup ---------------------------------------------------------------------

def deck_counts(players):
    return cards.build(GAME.load_rules(None, [])).deck[players]


def test_the_deck_has_120_cards_52_per_colour_and_16_actions():
    deck = deck_counts(4)
    assert deck.sum() == 120
    for colour in ("red", "blue"):
        assert deck[type_named(f"{colour} wild")] == 7
        assert [deck[type_named(f"{colour} {v}")] for v in range(1, 6)] == [9] * 5
    assert [deck[type_named(a)] for a in ("skip", "reverse", "steal-a-card", "block", "steal-a-chip")] \
        == [3, 3, 3, 3, 4]


def test_two_players_play_without_the_removed_action_cards():
    deck, full = deck_counts(2), deck_counts(3)
    assert deck.sum() == 112
    assert [full[type_named(a)] - deck[type_named(a)]
            for a in ("reverse", "block", "steal-a-chip", "steal-a-card", "skip")] == [3, 1, 2, 1, 1]
    assert (deck[:12] == full[:12]).all()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_each_player_is_dealt_five_and_seat_0_starts(players):
    rs = cards.build(GAME.load_rules(None, []))
    s = new_state(players)
    engine.start_game(s.m, s.rngs, rs, 3, 0)
    v = views(s)
    assert v.hand_n.tolist() == [5] * players and v.hand.sum(axis=1).tolist() == [5] * players
    assert engine.to_move(s.m) == 0 and v.g[TURNS] == 1
    assert v.draw[:v.g[engine.DRAW_N]].shape[0] == deck_counts(players).sum() - 5 * players


def test_player_counts_outside_2_to_6_are_refused():
    assert (GAME.min_players, GAME.max_players) == (2, 6)


# ---- sequence piles -----------------------------------------------------------------------------

def test_a_pile_is_started_with_a_1_or_a_wild_of_its_colour(table):
    table.give(0, "red 1", "red 2", "blue wild")
    assert table.plays(0) == {("red 1", "hand", "R1"), ("blue wild", "hand", "B1")}


def test_a_pile_grows_by_exactly_one_in_the_same_colour(table):
    table.pile("R1", "red 1", "red 2")
    table.give(0, "red 3", "red 4", "blue 3")
    assert table.plays(0) == {("red 3", "hand", "R1")}
    table.put(0, "red 3", "R1")
    assert table.v.pile_len[0] == 3


def test_a_wild_stands_for_the_next_number_of_its_own_colour(table):
    table.pile("R1", "red 1", "red 2")
    table.give(0, "red wild")
    table.put(0, "red wild", "R1")
    table.give(0, "red 4")
    assert ("red 4", "hand", "R1") in table.plays(0)


def test_a_wild_of_the_other_colour_is_refused(table):
    table.pile("R1", "red 1", "red 2")
    table.give(0, "blue wild")
    assert table.plays(0) == {("blue wild", "hand", "B1")}, "it may only start a blue pile"
    assert not engine.is_legal(table.s.m, table.rs, table.s.moves, 0,
                               np.array([PLAY, HAND, type_named("blue wild"), 0, 0]))


def test_a_third_blue_pile_cannot_be_opened(table):
    table.pile("B1", "blue 1")
    table.pile("B2", "blue wild", "blue 2")
    table.give(0, "blue 1", "blue wild", "red 1")
    assert {p for p in table.plays(0) if p[0] == "blue 1"} == set()
    assert {p[2] for p in table.plays(0) if p[0] == "blue wild"} == {"B1", "B2"}
    assert ("red 1", "hand", "R1") in table.plays(0)


def test_the_rules_option_allows_a_third_pile(new_table):
    table = new_table(sets=["piles.open_per_colour=3"])
    table.pile("B1", "blue 1")
    table.pile("B2", "blue 1")
    table.give(0, "blue 1")
    assert table.plays(0) == {("blue 1", "hand", "B3")}


def test_the_fifth_card_completes_the_pile_gives_a_chip_and_sets_it_aside(table):
    table.pile("R1", "red 1", "red 2", "red wild", "red 4")
    table.give(0, "red 5", "blue 3")
    table.put(0, "red 5", "R1")
    v = table.v
    assert v.chips[0].tolist() == [1, 0] and v.supply.tolist() == [19, 20]
    assert v.pile_len[0] == 0 and v.open_n[0] == 0
    assert sorted(v.removed[:v.g[REMOVED_N]].tolist()) == sorted(
        type_named(c) for c in ("red 1", "red 2", "red wild", "red 4", "red 5"))
    assert v.completed[0] == 1 and table.phase == TURN and table.to_move == 0


def test_a_wild_as_the_fifth_card_completes_the_pile(table):
    table.pile("B2", "blue 1", "blue 2", "blue 3", "blue 4")
    table.give(0, "blue wild", "red 3")
    table.put(0, "blue wild", "B2")
    assert table.v.chips[0].tolist() == [0, 1]


def test_an_empty_supply_gives_no_chip_unless_the_supply_is_unlimited(new_table):
    for option, chips in (("limited", [0, 0]), ("unlimited", [1, 0])):
        table = new_table(sets=[f"options.chip_supply={option}", "chips.supply=0"])
        table.pile("R1", "red 1", "red 2", "red 3", "red 4")
        table.give(0, "red 5", "blue 3")
        table.put(0, "red 5", "R1")
        assert table.v.chips[0].tolist() == chips, option
        assert table.v.pile_len[0] == 0


# ---- a turn ---------------------------------------------------------------------------------------

def test_the_turn_ends_on_discard_and_the_next_player_refills_to_five(new_table):
    table = new_table(draw=["red 2"] * 10)
    table.give(0, "red 3", "blue 3")
    table.give(1, "blue 4")
    table.discard(0, "red 3")
    v = table.v
    assert v.discard[0, :v.discard_n[0]].tolist() == [type_named("red 3")]
    assert table.to_move == 1 and v.hand_n[1] == 5 and table.hand(1) == {"blue 4": 1, "red 2": 4}
    assert v.hand_n[0] == 1, "seat 0 draws at the start of its own next turn"
    assert table.moves(0) == []


def test_without_refills_only_an_empty_hand_draws(new_table):
    table = new_table(sets=["options.refill=empty_hand_only"], draw=["red 2"] * 10)
    table.give(0, "red 3")
    table.give(1, "blue 4")
    table.give(2)
    table.discard(0, "red 3")
    assert table.v.hand_n[1] == 1
    table.discard(1, "blue 4")
    assert table.v.hand_n[2] == 5


def test_an_empty_hand_draws_five_more_and_the_turn_goes_on(new_table):
    table = new_table(draw=["blue 2"] * 7)
    table.give(0, "red 1")
    table.put(0, "red 1", "R1")
    assert table.v.hand_n[0] == 5 and table.turn_seat == 0 and table.phase == TURN


def test_with_an_empty_hand_and_nothing_to_draw_the_turn_just_ends(table):
    table.give(0, "red 1")
    table.discards(0, "blue 1")
    table.put(0, "red 1", "R1")
    assert table.v.hand_n[0] == 0
    assert set(table.moves(0)) == {(PLAY, TOP, type_named("blue 1"), 4, 0), (END, HAND, 0, 0, 0)}
    table.play(0, END)
    assert table.turn_seat == 1


def test_the_top_of_your_own_discard_pile_is_playable_and_no_one_elses(table):
    table.pile("R1", "red 1")
    table.discards(0, "red 2", "red 3")
    table.discards(1, "red 2")
    table.give(0, "blue 5")
    assert table.plays(0) == set(), "only the top card (red 3) is playable"
    table.discards(0, "red 3", "red 2")
    assert table.plays(0) == {("red 2", "top", "R1")}
    table.put(0, "red 2", "R1", source=TOP)
    assert table.v.discard_n[0] == 1 and table.plays(0) == {("red 3", "top", "R1")}


def test_a_player_cannot_end_the_turn_without_discarding(table):
    table.give(0, "red 3")
    assert {m[0] for m in table.moves(0)} == {DISCARD}


def test_only_the_player_to_move_has_moves(table):
    table.give(0, "red 1")
    table.give(1, "red 1")
    assert table.moves(1) == [] and table.moves(0)


# ---- recycling and the caps ------------------------------------------------------------------------

def test_an_empty_draw_pile_is_replaced_by_the_removed_piles_shuffled(table):
    table.pile("R1", "red 1", "red 2", "red 3", "red 4")
    table.give(0, "red 5")
    table.put(0, "red 5", "R1")  # the hand is empty: it draws the five cards just set aside
    v = table.v
    assert v.g[RESHUFFLES] == 1 and v.g[REMOVED_N] == 0
    assert table.hand(0) == {"red 1": 1, "red 2": 1, "red 3": 1, "red 4": 1, "red 5": 1}


def test_a_game_at_the_turn_cap_is_stalled_with_no_winner(new_table):
    table = new_table(sets=["turn_cap=2"])
    table.give(0, "red 3")
    table.give(1, "red 3")
    table.discard(0, "red 3")
    assert not table.v.g[OVER]
    table.discard(1, "red 3")
    v = table.v
    assert v.g[OVER] and v.g[STALLED] and v.g[WINNER] == -1 and v.g[TURNS] == 2


def test_a_game_at_the_move_cap_is_stalled(new_table):
    table = new_table(sets=["move_cap=2"])
    table.give(0, "red 1", "red 2", "red 3")
    table.put(0, "red 1", "R1")
    table.put(0, "red 2", "R1")
    assert table.v.g[STALLED] and table.v.g[MOVES] == 2


# ---- chips and winning -------------------------------------------------------------------------

def test_five_chips_win_only_with_two_of_each_colour(table):
    table.chips(0, 4, 0)
    table.pile("B1", "blue 1", "blue 2", "blue 3", "blue 4")
    table.pile("B2", "blue 1", "blue 2", "blue 3", "blue 4")
    table.give(0, "blue 5", "blue 5", "red 3")
    table.put(0, "blue 5", "B1")
    assert not table.v.g[OVER], "5 chips, only 1 blue: play goes on"
    table.put(0, "blue 5", "B2")
    assert table.v.g[OVER] and table.v.g[WINNER] == 0 and not table.v.g[STALLED]


# ---- action cards ------------------------------------------------------------------------------------

def test_skip_makes_the_next_player_lose_their_next_turn(table):
    table.give(0, "skip", "red 3")
    table.play(0, ACT, HAND, "skip")
    table.discard(0, "red 3")
    assert table.turn_seat == 2 and table.v.skipped.sum() == 0


def test_skip_in_a_two_player_game_gives_the_player_another_turn(new_table):
    table = new_table(players=2)
    table.give(0, "skip", "red 3", "red 4")
    table.play(0, ACT, HAND, "skip")
    table.discard(0, "red 3")
    assert table.turn_seat == 0 and table.v.g[TURNS] == 2


def test_reverse_flips_the_direction_of_play(table):
    table.give(0, "reverse", "red 3")
    table.play(0, ACT, HAND, "reverse")
    table.discard(0, "red 3")
    assert table.direction == -1 and table.turn_seat == 3


def test_steal_a_card_takes_the_top_of_an_opponents_discard_pile(table):
    table.give(0, "steal-a-card", "red 3")
    table.discards(2, "blue 1", "red wild")
    assert table.acts(0) == {("steal-a-card", 2, 0)}, "only opponents with a discard pile"
    table.play(0, ACT, HAND, "steal-a-card", 2)
    assert table.hand(0) == {"red 3": 1, "red wild": 1} and table.v.discard_n[2] == 1


def test_steal_a_chip_takes_one_chip_of_an_opponent(table):
    table.give(0, "steal-a-chip", "red 3")
    table.chips(1, 1, 0)
    table.chips(3, 2, 1)
    assert table.acts(0) == {("steal-a-chip", 1, 0), ("steal-a-chip", 3, 0), ("steal-a-chip", 3, 1)}
    table.play(0, ACT, HAND, "steal-a-chip", 3, 1)
    assert table.v.chips.tolist() == [[0, 1], [1, 0], [0, 0], [2, 0]]


def test_steal_a_chip_cannot_give_the_winning_chip(table):
    table.give(0, "steal-a-chip", "red 3")
    table.chips(0, 2, 2)
    table.chips(1, 1, 1)
    assert table.acts(0) == set()


def test_the_rules_option_lets_steal_a_chip_win(new_table):
    table = new_table(sets=["options.winning_steal=allowed"])
    table.give(0, "steal-a-chip", "red 3")
    table.chips(0, 2, 2)
    table.chips(1, 0, 1)
    table.play(0, ACT, HAND, "steal-a-chip", 1, 1)
    assert table.v.g[WINNER] == 0 and table.v.g[OVER]


def test_an_action_card_on_your_discard_pile_is_playable(table):
    table.give(0, "red 3")
    table.discards(0, "reverse")
    table.play(0, ACT, TOP, "reverse")
    assert table.direction == -1 and table.v.discard_n[0] == 0


def test_a_block_cannot_be_played_in_your_own_turn(table):
    table.give(0, "block")
    assert table.moves(0) == [(DISCARD, HAND, type_named("block"), 0, 0)]


def completion_with_blocks(table, *blockers):
    """Has seat 0 complete R1 while these seats hold a Block."""
    table.pile("R1", "red 1", "red 2", "red 3", "red 4")
    table.give(0, "red 5", "blue 3")
    for seat in blockers:
        table.give(seat, "block", "blue 4")
    table.put(0, "red 5", "R1")


def test_block_cancels_the_chip_and_removes_the_pile(table):
    completion_with_blocks(table, 2)
    assert table.phase == WINDOW and table.to_move == 2 and table.completer == 0
    assert table.moves(2) == [(BLOCK_IT, HAND, type_named("block"), 0, 0), (PASS, HAND, 0, 0, 0)]
    assert table.moves(0) == [], "the completer waits"
    table.play(2, BLOCK_IT, HAND, "block")
    v = table.v
    assert v.chips.sum() == 0 and v.supply.tolist() == [20, 20] and v.pile_len[0] == 0
    assert v.g[REMOVED_N] == 5 and v.g[SEQUENCES_BLOCKED] == 1 and v.actions[2, 3] == 1
    assert table.hand(2) == {"blue 4": 1}
    assert table.phase == TURN and table.to_move == 0, "the completer's turn goes on"


def test_nobody_holding_a_block_means_no_window(table):
    completion_with_blocks(table)
    assert table.phase == TURN and table.v.chips[0].tolist() == [1, 0]


def test_opponents_are_asked_in_turn_order_from_the_completer_and_one_block_is_enough(table):
    completion_with_blocks(table, 3, 1, 2)
    assert table.to_move == 1
    table.play(1, PASS)
    assert table.to_move == 2
    table.play(2, BLOCK_IT, HAND, "block")
    assert table.phase == TURN and table.hand(3) == {"block": 1, "blue 4": 1}, "seat 3 is not asked"


def test_after_a_reverse_opponents_are_asked_the_other_way(table):
    table.give(0, "reverse")
    table.play(0, ACT, HAND, "reverse")
    completion_with_blocks(table, 1, 3)
    assert table.to_move == 3


def test_when_every_blocker_passes_the_completer_gets_the_chip(table):
    completion_with_blocks(table, 1, 2)
    table.play(1, PASS)
    table.play(2, PASS)
    assert table.phase == TURN and table.v.chips[0].tolist() == [1, 0]


def test_a_completion_that_would_win_waits_for_the_block_window(table):
    table.chips(0, 2, 2)
    completion_with_blocks(table, 1)
    assert not table.v.g[OVER]
    table.play(1, PASS)
    assert table.v.g[OVER] and table.v.g[WINNER] == 0


# ---- rules as data -----------------------------------------------------------------------------

@pytest.mark.parametrize("sets, message", [
    (["options.refill=sometimes"], "options.refill must be one of refill, empty_hand_only"),
    (["piles.open_per_colour=5"], "piles.open_per_colour must be a whole number between 1 and 4"),
    (["chips.each_colour=3"], "chips.to_win (5) must be at least twice chips.each_colour (3)"),
    (["two_player_removals.block=4"], "two_player_removals.block must be a whole number between 0 and 3"),
    (["hand_size=30"], "hand_size must be a whole number between 1 and 20"),
])
def test_rules_the_engine_cannot_play_are_refused_in_one_line(sets, message):
    with pytest.raises(UserError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GAME.load_rules(None, sets)
