"""Restricted play (--forbid) in Saboteur, position by position: what each name takes away, and
from that seat only. (Whole games under restrictions: tests/conformance/test_forbid.py.)"""

import pytest

from sim.games.saboteur import GAME, engine, forbid
from sim.games.saboteur.cards import BREAK, MAP, REPAIR, ROCKFALL
from sim.games.saboteur.engine import DISCARD, PLACE


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def restrict(table, seat, *names):
    table.s.forbid[seat] = forbid.mask(table.rs, table.names, names)


def test_a_forbidden_rockfall_is_not_legal_but_may_still_be_discarded(table):
    table.row(0, 1, 2)
    table.give(0, "rockfall", "map")
    table.give(1, "rockfall")
    restrict(table, 0, "rockfall")
    actions = [m[0] for m in table.moves(0) if m[1] == 0]
    assert actions == [DISCARD]
    assert ROCKFALL in {m[0] for m in table.moves(1)}, "another seat keeps its rockfalls"
    assert MAP in {m[0] for m in table.moves(0)}


@pytest.mark.parametrize("name, action", [("break", BREAK), ("repair", REPAIR), ("map", MAP),
                                          ("broken_cart", BREAK)])
def test_a_forbidden_action_card_leaves_only_its_discard(table, name, action):
    card = {"break": "broken_pickaxe", "repair": "repair_cart", "map": "map",
            "broken_cart": "broken_cart"}[name]
    table.s.broken[2] = 4  # a broken cart somewhere, so that repairs have a target
    table.give(0, card)
    assert action in {m[0] for m in table.moves(0)}
    restrict(table, 0, name)
    assert [m[0] for m in table.moves(0)] == [DISCARD]


def test_dead_end_forbids_dead_ends_and_path_forbids_every_path_card(table):
    table.give(0, "dead_ns", "straight_ew")
    restrict(table, 0, "dead_end")
    placed = {table.names[table.s.hand[0, m[1]]] for m in table.moves(0) if m[0] == PLACE}
    assert placed == {"straight_ew"}
    restrict(table, 0, "path")
    assert {m[0] for m in table.moves(0)} == {DISCARD}


def test_a_seat_forbidden_to_pass_passes_only_when_it_has_no_other_move(table):
    table.give(0, "straight_ew", "rockfall")
    restrict(table, 0, "pass")
    assert DISCARD not in {m[0] for m in table.moves(0)}
    table.s.broken[0] = 1  # a broken pickaxe: no path card may be placed; no card to rockfall
    assert {m[0] for m in table.moves(0)} == {DISCARD}
    assert engine.slot_move_count(table.s, table.rs, 0, 0) == 1


def test_the_random_bot_counts_the_moves_a_restriction_leaves(table):
    table.give(0, "straight_ew", "rockfall", "map")
    restrict(table, 0, "rockfall", "pass")
    total = sum(engine.slot_move_count(table.s, table.rs, 0, slot) for slot in range(3))
    assert total == engine.legal_moves(table.s, table.rs, 0)


def test_every_card_and_action_name_is_forbiddable(rules):
    names = forbid.names(rules)
    assert {"rockfall", "map", "break", "repair", "pass", "path", "dead_end"} <= set(names)
    assert set(rules["path_cards"]) | set(rules["action_cards"]) <= set(names)


def test_a_seat_still_has_a_move_when_everything_is_forbidden(table):
    table.give(0, "map", "rockfall")
    restrict(table, 0, *forbid.names(table.rules))
    assert {m[0] for m in table.moves(0)} == {DISCARD}
