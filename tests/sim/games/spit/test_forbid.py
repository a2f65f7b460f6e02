"""Restricted play (--forbid) in Spit and Speed, position by position: what each name takes
away, and from that seat only. (Whole games under restrictions: tests/conformance/test_forbid.py.)"""

import pytest

from sim.games import speed, spit
from sim.games.spit import engine, forbid
from sim.games.spit.state import PLAY, SHIFT, STACK


def restrict(table, seat, *names):
    table.s.forbid[seat] = forbid.mask(names)


def test_a_forbidden_direction_takes_those_plays_off_that_seat_only(table):
    table.centre(0, "6h")
    for seat in range(2):
        table.layout(seat, "7d", "5c")
    restrict(table, 0, "play_up")
    assert table.moves(0) == {(PLAY, 1, 0)}, "only the 5 goes on the 6"
    assert table.moves(1) == {(PLAY, 0, 0), (PLAY, 1, 0)}
    restrict(table, 0, "play_down")
    assert table.moves(0) == {(PLAY, 0, 0)}
    restrict(table, 0, "play_up", "play_down")
    assert table.moves(0) == set(), "a seat may be left without a move: it waits"


@pytest.mark.parametrize("forbidden, landed", [((), engine.PLAYED), (("play_down",), engine.DROPPED)])
def test_a_planned_play_lands_only_in_an_allowed_direction(table, forbidden, landed):
    table.centre(0, "6h")
    table.layout(0, "-3c 7d")
    restrict(table, 0, *forbidden)
    table.plan(0, PLAY, 0, 0)       # the 7 on the 6: up
    table.centre(0, "6h", "8s")     # meanwhile an 8 lands: the 7 would now go down
    assert table.step() == (0, landed)


@pytest.mark.parametrize("name, kind", [("fill_space", SHIFT), ("uncover", SHIFT),
                                        ("stack_equal", STACK), ("uncover", STACK)])
def test_forbidden_uncovering_moves_vanish(new_table, name, kind):
    table = new_table(["options.stack_equal_ranks=true"])
    for seat in range(2):
        table.layout(seat, "-3c 9d", "9s", "")
    assert kind in {k for k, _, _ in table.moves(0)}
    restrict(table, 0, name)
    assert kind not in {k for k, _, _ in table.moves(0)}
    assert kind in {k for k, _, _ in table.moves(1)}


def test_every_name_is_listed_with_its_meaning_and_speed_takes_the_directions():
    rules = spit.GAME.load_rules(None, [])
    assert set(spit.GAME.bots.forbiddable(rules)) == {"play_up", "play_down", "fill_space",
                                                      "stack_equal", "uncover"}
    assert set(speed.GAME.bots.forbiddable(speed.GAME.load_rules(None, []))) == {"play_up",
                                                                                 "play_down"}
