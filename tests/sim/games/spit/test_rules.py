"""Spit's rules, one test per rule, each on the exact position it is about."""

import pytest

from sim.games.spit import engine
from sim.games.spit.state import (
    DEAL,
    LONE_PILE,
    OVER,
    PLAY,
    SHIFT,
    SLAP_SEAT,
    STACK,
    STALLED,
    TAKEN_PILE,
    TURN,
    WINNER,
)

FAST, SLOW = "0.2:0", "1:0"  # reaction settings with spread 0: always exactly 0.2 s and 1 s


# ---- playing onto the spit piles ------------------------------------------------------------

def test_ranks_wrap_around_a_king_and_a_two_go_on_an_ace(new_table):
    t = new_table()
    t.centre(0, "Ah")
    t.layout(0, "Kc", "2d", "Qs", "As", "3c")
    plays = {a for kind, a, b in t.moves(0) if kind == PLAY and b == 0}
    assert plays == {0, 1}  # K and 2 on the Ace; not Q, not another Ace, not 3


def test_an_ace_goes_on_a_king_and_on_a_two(new_table):
    t = new_table()
    t.centre(0, "Kh")
    t.centre(1, "2h")
    t.layout(0, "Ac")
    assert {(a, b) for kind, a, b in t.moves(0) if kind == PLAY} == {(0, 0), (0, 1)}


def test_suits_do_not_matter_but_alternating_colours_makes_them(new_table):
    plain = new_table()
    plain.centre(0, "6h")
    plain.layout(0, "7d", "5c")
    assert {a for kind, a, _ in plain.moves(0) if kind == PLAY} == {0, 1}
    colours = new_table(["options.alternating_colours=true"])
    colours.centre(0, "6h")
    colours.layout(0, "7d", "5c")
    assert {a for kind, a, _ in colours.moves(0) if kind == PLAY} == {1}  # red on red refused


def test_a_play_moves_the_card_and_leaves_a_face_down_card_to_turn_up(table):
    table.centre(1, "9s")
    table.layout(0, "-4c -Jd Th")
    table.plan(0, PLAY, 0, 1)
    assert table.step() == (0, engine.PLAYED)
    assert table.top(1) == "Th" and table.s.stock_n[0, 0] == 2
    assert table.moves(0) == {(TURN, 0, 0)}
    table.plan(0, TURN, 0, 0)
    table.step()
    assert table.s.stock_up[0, 0] == 1 and table.stock_top(0, 0) == "Jd"


# ---- the layout: empty spaces, never a sixth pile, stacking ----------------------------------

def test_a_face_up_card_moves_into_an_empty_space_only_to_uncover_one(table):
    table.layout(0, "-4c 8h", "", "9d")
    assert (SHIFT, 0, 1) in table.moves(0)
    assert not any(kind == SHIFT and a == 2 for kind, a, _ in table.moves(0)), "9d alone: no point"


def test_there_is_never_a_sixth_pile(table):
    table.layout(0, "-4c 8h", "-2c 3d", "-5s 9d", "Jc", "-7h Qh")
    assert not any(kind == SHIFT for kind, _, _ in table.moves(0))
    assert table.s.stock_n.shape[1] == 5


def test_four_stock_piles_lay_out_1_to_4_cards(new_table):
    t = new_table(["layout.stock_piles=4"])
    t.s.hold[0, :26] = range(26)
    t.s.hold[1, :26] = range(26, 52)
    t.s.hold_n[:] = 26
    engine.start_deal(t.s, t.rs, t.c)
    assert t.s.stock_n[0].tolist() == [1, 2, 3, 4]
    assert t.s.spit_n.tolist() == [15, 15]  # 26 - 10 laid out - 1 spat


def test_equal_ranks_stack_only_with_the_option_and_only_to_uncover(new_table):
    t = new_table(["options.stack_equal_ranks=true"])
    t.layout(0, "-4c 8h", "8c", "-2c -9s 8d")
    stacks = {(a, b) for kind, a, b in t.moves(0) if kind == STACK}
    assert stacks == {(0, 1), (0, 2), (2, 0), (2, 1)}  # 8c alone uncovers nothing
    t.plan(0, STACK, 0, 1)
    t.step()
    assert t.s.stock_n[0, :2].tolist() == [1, 2] and t.s.stock_up[0, :2].tolist() == [0, 2]
    plain = new_table()
    plain.layout(0, "-4c 8h", "8c")
    assert not any(kind == STACK for kind, _, _ in plain.moves(0))


# ---- the race --------------------------------------------------------------------------------

def test_a_faster_player_wins_a_race_for_the_same_pile(new_table):
    for fast in (0, 1):
        t = new_table(reaction=(FAST, SLOW) if fast == 0 else (SLOW, FAST))
        t.centre(0, "5h")
        t.centre(1, "Kc")
        t.layout(0, "-2c 6s")
        t.layout(1, "-3d 4s")
        assert t.step() == (fast, engine.PLAYED)
        assert t.top(0) == ("6s" if fast == 0 else "4s")
        seat, status = t.step()
        while seat == fast:  # the faster seat turns up its next card meanwhile
            seat, status = t.step()
        assert (seat, status) == (1 - fast, engine.DROPPED), "the slower card no longer fits"


def test_a_planned_move_is_re_checked_when_it_lands_and_played_if_still_legal(new_table):
    table = new_table(reaction=(SLOW, SLOW))
    table.centre(0, "5h")
    table.layout(0, "-2c 6s")
    table.layout(1, "-3d 4s")
    table.plan(0, PLAY, 0, 0)  # 6 on 5
    table.c.due[0] = 1.5
    table.plan(1, PLAY, 0, 0)  # 4 on 5, earlier
    assert table.step() == (1, engine.PLAYED)
    table.s.centre[0, table.s.centre_n[0]] = table.card("7c")  # the pile changed again: 7 on top
    table.s.centre_n[0] += 1
    assert table.step() == (0, engine.PLAYED), "6 fits the 7 as well"
    assert table.c.now[0] == 1.5


def test_equal_times_are_broken_by_a_seeded_coin(new_table):
    winners = set()
    for seed in range(12):
        t = new_table(reaction=(SLOW, SLOW), seed=seed)
        t.centre(0, "5h")
        t.layout(0, "-2c 6s")
        t.layout(1, "-3d 4s")
        seat, status = t.step()
        assert status == engine.PLAYED
        again = new_table(reaction=(SLOW, SLOW), seed=seed)
        again.centre(0, "5h")
        again.layout(0, "-2c 6s")
        again.layout(1, "-3d 4s")
        assert again.step() == (seat, status), "the same seed breaks the tie the same way"
        winners.add(seat)
    assert winners == {0, 1}


def test_a_seat_that_cannot_move_waits_until_a_spit_pile_changes(new_table):
    t = new_table(reaction=(FAST, SLOW))
    t.centre(0, "5h")
    t.layout(0, "-2c 6s")
    t.layout(1, "-3d 7s", "Jc", "Jd", "Js", "Jh")  # 7 fits only once the 6 is down
    assert t.step() == (0, engine.PLAYED)
    assert t.step() == (0, engine.PLAYED)  # seat 0 turns up the 2c at 0.4 s
    assert t.c.pending[1] == 1 and t.c.due[1] == pytest.approx(0.2 + 1.0)


# ---- stalls and spitting ---------------------------------------------------------------------

def test_no_stall_while_a_player_can_still_turn_up_a_card(table):
    table.centre(0, "5h")
    table.centre(1, "5c")
    table.layout(0, "-9c", "Jd")
    table.layout(1, "Qs")
    table.spit_cards(0, "2c")
    table.spit_cards(1, "2d")
    assert table.step() == (0, engine.PLAYED)  # the turn-up is a move: no stall
    assert table.step() == (-1, 0)  # now nobody can move: stall, both spit
    assert table.top(0) == "2c" and table.top(1) == "2d"
    assert table.s.spit_n.tolist() == [0, 0]


def test_a_stall_with_both_out_of_spit_cards_deals_a_new_layout(table):
    table.centre(0, "9c", "2c", "5h")
    table.centre(1, "Jd", "5c")
    table.layout(0, "Jc")
    table.layout(1, "Qs", "Qh Qd", "Kc Kd Kh", "Js Jh Ts 9s", "7c 7d 7h 8s 8h")
    cards = table.cards_everywhere()
    assert table.step() == (-1, 0)
    # Seat 0 gathered its pile (3) and its stock (1): a partial layout of piles 1-3, no spit
    # cards; seat 1 gathered 2 + 15: a full layout, one spit card spat, one left.
    s = table.s
    assert s.g[DEAL] == 1
    assert s.stock_n[0].tolist() == [1, 2, 1, 0, 0] and s.stock_n[1].tolist() == [1, 2, 3, 4, 5]
    assert s.spit_n.tolist() == [0, 1] and s.centre_n.tolist() == [0, 1]
    assert s.g[LONE_PILE] == 1
    assert table.cards_everywhere() == cards


def test_both_out_of_spit_cards_may_take_back_the_started_piles_instead(new_table):
    table = new_table(["options.both_out_of_spit_cards=take_back_started_pile"])
    table.centre(0, "9c", "2c", "5h")
    table.centre(1, "Jd", "5c")
    table.layout(0, "Jc")
    table.layout(1, "Qs")
    assert table.step() == (-1, 0)
    # Each took back its own pile but the top, shuffled, then spat once.
    assert table.s.centre_n.tolist() == [2, 2]
    assert table.s.centre[0, 0] == table.card("5h") and table.s.centre[1, 0] == table.card("5c")
    assert table.s.spit_n.tolist() == [1, 0]
    assert sorted(table.cards_everywhere()) == sorted(
        table.card(n) for n in ("9c", "2c", "5h", "Jd", "5c", "Jc", "Qs"))


def test_both_out_of_spit_cards_may_split_both_piles_instead(new_table):
    t = new_table(["options.both_out_of_spit_cards=split_both_piles"])
    t.centre(0, "9c", "2c", "8h", "5h")
    t.centre(1, "5c")
    t.layout(0, "Jc")
    t.layout(1, "Qs")
    assert t.step() == (-1, 0)
    assert t.s.spit_n.tolist() == [1, 0]  # 3 cards dealt 2 / 1, then each spat one
    assert t.s.centre_n.tolist() == [2, 2]


def locked(t):
    """Gives table t with both spit piles on a 5 and layouts that fit neither: nobody can move."""
    t.centre(0, "5h")
    t.centre(1, "5c")
    t.layout(0, "Jc")
    t.layout(1, "Qs")
    return t


def test_a_stall_that_taking_back_the_piles_cannot_resolve_is_recorded_as_stalled(new_table):
    table = locked(new_table(["options.both_out_of_spit_cards=take_back_started_pile"]))
    assert table.step() == (-1, 1)
    assert table.s.g[STALLED] == 1 and table.s.g[OVER] == 1 and table.s.g[WINNER] == -1


def test_stalls_beyond_the_cap_end_the_game_as_stalled(new_table):
    t = locked(new_table(["caps.stalls_per_deal=2"]))
    t.spit_cards(0, "8c", "8d", "8s")
    t.spit_cards(1, "8h", "9d", "9s")
    assert [t.step() for _ in range(3)] == [(-1, 0), (-1, 0), (-1, 1)]
    assert t.s.g[STALLED] == 1


def test_the_lone_spitter_chooses_one_pile_and_spits_onto_it_every_time(new_table):
    for spit_on_larger, pile in ((True, 1), (False, 0)):
        t = new_table(seats=("default", "default" if spit_on_larger else "random"), seed=3)
        t.params[1, 4] = 1.0 if spit_on_larger else 0.0  # spit_on_larger
        t.families[1] = 1
        t.centre(0, "5h")
        t.centre(1, "9d", "5c")
        t.layout(0, "Jc")
        t.layout(1, "Qs")
        t.spit_cards(1, "8c", "8d", "8s")
        for _ in range(3):
            assert t.step() == (-1, 0)
        assert t.s.g[LONE_PILE] == pile
        assert t.s.centre_n[pile] == (1 if pile == 0 else 2) + 3


# ---- the end of a deal -----------------------------------------------------------------------

def out_position(t):
    """Seat 0 is about to play its last stock card; pile 1 (3 cards) is the smaller."""
    t.centre(0, "9c", "2c", "7h", "6d", "5h")
    t.centre(1, "Jd", "2d", "5c")
    t.layout(0, "6s")
    t.layout(1, "-2h Ks", "-3h Qc")
    t.spit_cards(0, "Kd")
    t.spit_cards(1, "3s", "4s")
    t.plan(0, PLAY, 0, 0)


def test_the_smaller_pile_goes_to_the_slap_winner(new_table):
    for slapper in (0, 1):
        t = new_table(reaction=(FAST, SLOW) if slapper == 0 else (SLOW, FAST))
        out_position(t)
        assert engine.land(t.s, t.rs, t.c, 0) == engine.OUT
        before = t.c.now[0]
        assert not engine.end_deal(t.s, t.rs, t.c)
        assert t.s.g[SLAP_SEAT] == slapper and t.s.g[TAKEN_PILE] == 1
        assert t.c.now[0] == pytest.approx(before + 0.2), "the faster slap lands first"
        # The slap winner took 3 cards, the other 6; then each added its leftovers (seat 0 the
        # Kd, seat 1 four stock and two spit cards) and dealt again.
        held = {slapper: 3, 1 - slapper: 6}
        held[0] += 1
        held[1] += 6
        assert [engine.cards_held(t.s, seat) for seat in (0, 1)] == [held[0], held[1]]
        assert t.s.g[DEAL] == 1


def test_out_player_chooses_takes_the_smaller_pile_without_a_slap(new_table):
    t = new_table(["options.smaller_pile=out_player_chooses"], reaction=(SLOW, FAST))
    out_position(t)
    assert engine.land(t.s, t.rs, t.c, 0) == engine.OUT
    engine.end_deal(t.s, t.rs, t.c)
    assert t.s.g[SLAP_SEAT] == 0 and t.s.g[TAKEN_PILE] == 1
    assert [engine.cards_held(t.s, seat) for seat in (0, 1)] == [3 + 1, 6 + 6]


def test_fewer_than_15_cards_deal_a_partial_layout_and_one_spit_pile(table):
    s = table.s
    s.hold[0, :12] = range(12)
    s.hold[1, :40] = range(12, 52)
    s.hold_n[:] = [12, 40]
    engine.start_deal(s, table.rs, table.c)
    assert s.stock_n[0].tolist() == [1, 2, 3, 4, 2]  # pile 1 first, as far as 12 cards go
    assert s.spit_n[0] == 0 and s.stock_n[1].tolist() == [1, 2, 3, 4, 5]
    assert s.centre_n.tolist() == [0, 1] and s.starter.tolist() == [-1, 1]
    assert s.spit_n[1] == 40 - 15 - 1 and s.g[LONE_PILE] == 1


def test_with_one_spit_pile_the_first_out_takes_nothing_and_a_player_without_cards_wins(table):
    table.centre(1, "9c", "5h")
    table.layout(0, "6s")
    table.layout(1, "-2h Ks")
    table.spit_cards(1, "3s")
    table.plan(0, PLAY, 0, 1)
    assert engine.land(table.s, table.rs, table.c, 0) == engine.OUT
    assert engine.end_deal(table.s, table.rs, table.c)
    assert table.s.g[WINNER] == 0
    assert [engine.cards_held(table.s, seat) for seat in (0, 1)] == [0, 3 + 2 + 1]


def test_with_one_spit_pile_the_spitter_going_out_first_keeps_its_spit_cards(table):
    table.centre(1, "9c", "5h")
    table.layout(0, "-7c Jd")
    table.layout(1, "6s")
    table.spit_cards(1, "3s", "4d")
    table.s.starter[:] = [-1, 1]
    table.plan(1, PLAY, 0, 1)
    assert engine.land(table.s, table.rs, table.c, 1) == engine.OUT
    assert not engine.end_deal(table.s, table.rs, table.c)
    # Seat 0 took the pile (3 cards) and its own 2; seat 1 kept only its 2 spit cards.
    assert [engine.cards_held(table.s, seat) for seat in (0, 1)] == [5, 2]


def test_a_player_without_spit_cards_clearing_the_layout_wins_at_once_with_that_option(new_table):
    for win, over in (("no_cards_left", False), ("spit_and_layout_played", True)):
        t = new_table([f"options.win={win}"])
        t.centre(0, "9c", "5h")
        t.centre(1, "Jd", "2d", "5c")
        t.layout(0, "6s")
        t.layout(1, "-2h Ks")
        t.spit_cards(1, "3s")
        t.plan(0, PLAY, 0, 0)
        assert engine.land(t.s, t.rs, t.c, 0) == engine.OUT
        assert engine.end_deal(t.s, t.rs, t.c) == over
        if over:  # no slap: seat 0 has played all its spit and layout cards
            assert t.s.g[WINNER] == 0 and engine.cards_held(t.s, 0) == 0
        else:  # seat 0 took a spit pile and deals again
            assert t.s.g[WINNER] == -1 and t.s.g[DEAL] == 1 and engine.cards_held(t.s, 0) > 0
    still_spitting = new_table(["options.win=spit_and_layout_played"])
    out_position(still_spitting)  # seat 0 clears its layout with a spit card left
    assert engine.land(still_spitting.s, still_spitting.rs, still_spitting.c, 0) == engine.OUT
    assert not engine.end_deal(still_spitting.s, still_spitting.rs, still_spitting.c)
