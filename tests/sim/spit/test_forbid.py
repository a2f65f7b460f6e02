"""Restricted play (--forbid) in Spit and Speed: a seat never makes a move of a forbidden kind,
whoever chooses its moves; the other seat is untouched."""

import pytest

from sim import speed, spit
from sim.game import Setup
from sim.spit import engine, forbid
from sim.spit.deck import DOWN, UP
from sim.spit.state import PLAY, SHIFT, STACK, TURN
from strategies import seats


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


@pytest.mark.parametrize("game, strategy", [(spit.GAME, "default-no-play_up-no-uncover"),
                                            (spit.GAME, "random-no-play_down"),
                                            (speed.GAME, "greedy-no-play_down")])
def test_restricted_bots_never_play_what_they_are_forbidden(game, strategy):
    rules = game.load_rules(None, [])
    bound = seats.parse(strategy)
    setup = Setup(2, (seats.canonical(game, strategy, rules), bound.base))
    rs, _, families, params, s, c, _, _ = game.prepare(rules, setup)
    made = {0: set(), 1: set()}

    def watch(event, *args):
        if event == "land" and args[1] != 0:  # not dropped
            seat = args[0]
            kind, _, b = c.plan[seat].tolist()
            if kind == PLAY:
                under = s.centre[b, s.centre_n[b] - 2]
                made[seat].add("play_up" if rs.fits[args[2], under] & UP else "play_down")
                assert rs.fits[args[2], under] & (UP | DOWN)
            elif kind != TURN:
                made[seat].add("fill_space" if kind == SHIFT else "stack_equal")

    for index in range(3):
        game.loop.play_python(s, rs, c, families, params, 6, index, game.loop.new_results(1),
                              watch=watch)
    forbidden = {"uncover": {"fill_space", "stack_equal"}}
    banned = set().union(*(forbidden.get(n, {n}) for n in bound.forbidden))
    assert made[0] and not made[0] & banned
    assert made[1] & banned, "the other seat is free"
