"""Restricted play (--forbid) in Sequence Stacks, position by position: what each name takes away, and
from that seat only. (Whole games under restrictions: tests/conformance/test_forbid.py.)"""

import pytest

from sim.games.sequence_stacks import GAME, cards, forbid
from sim.games.sequence_stacks.cards import FIRST_ACTION, TYPES, WILD, name, value_of
from sim.games.sequence_stacks.engine import ACT, BLOCK_IT, DISCARD, PASS, PLAY, TOP, WINDOW
from sim.games.sequence_stacks.state import TURN_SEAT


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def ready(table, seat):
    """Gives `seat` a hand that could do anything in its turn, a discard pile topped by a
    playable card, and opponents with chips and discard piles to steal."""
    table.give(seat, "skip", "reverse", "steal-a-card", "steal-a-chip", "red wild", "blue 1",
               "block")
    table.discards(seat, "blue 3", "red 1")
    for q in range(4):
        if q != seat:
            table.chips(q, 1, 1)
            table.discards(q, "red 4")
    table.pile("B1", "blue 1", "blue 2")


def played(name_, move) -> bool:
    """Gives whether an engine move plays what `name_` forbids."""
    action, source, t = move[:3]
    if name_ == "from_discard":
        return action in (PLAY, ACT) and source == TOP
    if name_ == "wild":
        return action == PLAY and value_of(t) == WILD and t < FIRST_ACTION
    return action in (ACT, BLOCK_IT) and name(t).replace("-a-", "_") == name_


@pytest.mark.parametrize("name_", ["skip", "reverse", "steal_card", "steal_chip", "wild",
                                   "from_discard"])
def test_a_forbidden_card_or_move_vanishes_for_that_seat_only(table, name_):
    ready(table, 0)
    free = table.moves(0)
    assert any(played(name_, m) for m in free), "the position offers the move"
    table.v.forbid[0] = forbid.mask((name_,))
    assert table.moves(0) == [m for m in free if not played(name_, m)]
    ready(table, 1)
    table.v.g[TURN_SEAT] = 1
    assert any(played(name_, m) for m in table.moves(1)), "another seat keeps it"


def test_a_seat_still_has_a_move_when_everything_is_forbidden(table):
    ready(table, 0)
    table.v.forbid[0] = forbid.mask(tuple(forbid.names({})))
    moves = table.moves(0)
    assert [m[2] for m in moves if m[0] == PLAY] == [cards.type_named("blue 1")], \
        "numbers are never forbidden"
    assert sum(m[0] == DISCARD for m in moves) == 7, "every card of the hand may be discarded"
    assert len(moves) == 8


def test_a_seat_forbidden_to_block_is_not_asked_and_the_next_one_is(table):
    table.pile("R1", "red 1", "red 2", "red 3", "red 4")
    table.give(0, "red 5")
    table.give(1, "block")
    table.give(2, "block")
    table.v.forbid[1] = forbid.mask(("block",))
    table.put(0, "red 5", "R1")
    assert table.phase == WINDOW and table.to_move == 2
    assert table.moves(2) == [(BLOCK_IT, 0, cards.BLOCK, 0, 0), (PASS, 0, 0, 0, 0)]
    table.play(2, PASS)
    assert table.v.chips[0].tolist() == [1, 0], "nobody else may Block: the chip is given"


def test_the_names_cover_every_action_card_of_the_rules(rules):
    names = forbid.names(rules)
    covered = 0
    for name_ in names:
        covered |= forbid.mask((name_,))
    for t in range(FIRST_ACTION, TYPES):
        assert covered >> t & 1, name(t)
    assert {"skip", "reverse", "steal_card", "steal_chip", "block", "wild"} <= set(names)
