"""Restricted play (--forbid) in Deep Space, position by position: what each name takes away, and
from that seat only. (Whole games under restrictions: tests/conformance/test_forbid.py.)"""

import pytest

from sim.games.deep_space import GAME, forbid
from sim.games.deep_space.engine import (
    BUILD,
    DISCARD,
    END,
    MOVE,
    PLAY,
    RECRUIT,
    TAKE,
    TRADE,
    legal_moves,
    occupied,
)
from sim.games.deep_space.state import MINE, PHASE, REDRAW
from sim.game import Setup

NAMES = sorted(forbid.names(GAME.load_rules(None, [])))


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def restrict(table, seat, *names):
    table.s.forbid[seat], table.s.forbid_card[seat] = forbid.mask(
        table.kinds, table.rs.card_kind, names)


def ready(table, seat, planet, enemy_at):
    """Sets `seat` up so that it could do anything: 4 recruits on a warp planet, the other
    colour next to it, gems and ore, cards in hand."""
    table.put(seat, planet, 4)
    table.put(1 - seat, enemy_at, 1)
    table.s.gems[seat] = 5
    table.s.ore[seat] = 5
    table.give(seat, "hyperdrive", "prospector", "gem_cache")


@pytest.mark.parametrize("name, gone", [
    ("move", lambda s, seat, m: m[0] == MOVE),
    ("warp", lambda s, seat, m: m[0] == MOVE and m[5] == 1),
    ("attack", lambda s, seat, m: m[0] == MOVE and occupied(s, seat, m[2])),
    ("recruit", lambda s, seat, m: m[0] == RECRUIT),
    ("trade", lambda s, seat, m: m[0] == TRADE),
    ("build", lambda s, seat, m: m[0] == BUILD),
    ("play", lambda s, seat, m: m[0] == PLAY),
    ("hyperdrive", lambda s, seat, m: m[0] == PLAY and m[1] == 0),
])
def test_a_forbidden_action_or_card_vanishes_for_that_seat_only(table, name, gone):
    ready(table, 0, "I0", "R1")
    ready(table, 1, "I2", "R7")
    free = table.moves(0)
    assert any(gone(table.s, 0, m) for m in free), "the position offers the move"
    restrict(table, 0, name)
    assert table.moves(0) == [m for m in free if not gone(table.s, 0, m)]
    table.at(1)
    assert any(gone(table.s, 1, m) for m in table.moves(1)), "another seat keeps it"


def test_a_forbidden_discard_leaves_only_the_end_of_the_redraw(table):
    table.give(0, "hyperdrive", "prospector")
    table.s.g[PHASE] = REDRAW
    assert {m[0] for m in table.moves(0)} == {DISCARD, END}
    restrict(table, 0, "discard")
    assert table.moves(0) == [(END, 0, 0, 0, 0, 0)]


def test_a_seat_still_has_a_move_when_everything_is_forbidden(table):
    ready(table, 0, "I0", "R1")
    restrict(table, 0, *NAMES)
    assert table.moves(0) == [(END, 0, 0, 0, 0, 0)]
    table.s.g[PHASE] = MINE
    assert {m[0] for m in table.moves(0)} == {TAKE}, "mining is never forbidden"


def test_the_random_bot_draws_from_the_moves_a_restriction_leaves(table):
    ready(table, 0, "I0", "R1")
    restrict(table, 0, "move")
    n = legal_moves(table.s, table.rs, 0)
    assert n == len(table.moves(0)) and MOVE not in {int(a) for a in table.s.moves[:n, 0]}


def test_a_seat_that_may_not_build_never_wins(rules):
    tables = GAME.play(rules, Setup(2, ("default-no-build", "random-no-build")), 1, 0, 3, 0)
    assert tables["seats"]["bases"].sum() == 0 and tables["games"]["stalled"].all()


def test_every_card_and_action_name_is_forbiddable(rules):
    names = forbid.names(rules)
    assert {"move", "warp", "attack", "recruit", "trade", "build", "discard", "play"} <= set(names)
    assert set(rules["deck"]["cards"]) <= set(names)
