"""Restricted play (--forbid): a seat never plays what it is forbidden, whoever chooses its
moves; the other seats and unrestricted games are untouched."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.game import Setup
from sim.saboteur import GAME, engine, forbid, play
from sim.saboteur.cards import BREAK, MAP, REPAIR, ROCKFALL
from sim.saboteur.engine import DISCARD, PLACE
from strategies import seats


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


@pytest.mark.parametrize("strategy", ["random", "default", "covert-saboteurs"])
def test_restricted_bots_never_play_what_they_are_forbidden(rules, strategy):
    restricted = seats.canonical(GAME, f"{strategy}-no-rockfall-no-map", rules)
    setup = Setup(5, (restricted, strategy, restricted, strategy, strategy))
    rs, _, families, params, s, fixed = GAME.prepare(rules, setup)
    played = {seat: set() for seat in range(5)}

    def watch(event, *args):
        if event == "move":
            played[args[0]].add(int(args[1][0]))

    for game in range(6):
        play.play_python(s, rs, families, params, 3, game, fixed,
                         play.new_results(1, 5, 3), watch=watch)
    assert not played[0] & {ROCKFALL, MAP} and not played[2] & {ROCKFALL, MAP}
    assert played[1] | played[3] | played[4] >= {ROCKFALL, MAP}


def test_a_restricted_run_records_the_restriction_and_plays_other_games(rules):
    free = GAME.play(rules, Setup(4, ("default",) * 4), 8, 0, 30, 0)
    setup = Setup(4, ("default-no-rockfall",) * 4)
    bound = GAME.play(rules, setup, 8, 0, 30, 0)
    assert bound["seats"]["strategy"].unique().to_list() == ["default-no-rockfall"]
    assert not free["games"]["turns"].equals(bound["games"]["turns"])
    assert setup.label() == "4p forbid=rockfall default"


def test_the_jitted_loop_and_the_python_driver_agree_under_restrictions(rules):
    setup = Setup(4, ("default-no-pass", "random-no-path", "default", "naive-miners-no-break"))
    jitted = GAME.play(rules, setup, 21, 0, 4, 0)
    rs, _, families, params, s, fixed = GAME.prepare(rules, setup)
    out = play.new_results(4, 4, 3)
    for game in range(4):
        play.play_python(s, rs, families, params, 21, game, fixed, out, game)
    assert np.array_equal(out.gold, jitted["seats"]["gold"].to_numpy().reshape(4, 4))
    assert np.array_equal(out.turns, jitted["games"]["turns"].to_numpy())


def test_every_card_and_action_name_is_forbiddable(rules):
    names = forbid.names(rules)
    assert {"rockfall", "map", "break", "repair", "pass", "path", "dead_end"} <= set(names)
    assert set(rules["path_cards"]) | set(rules["action_cards"]) <= set(names)


def test_a_seat_still_has_a_move_when_everything_is_forbidden(table):
    table.give(0, "map", "rockfall")
    restrict(table, 0, *forbid.names(table.rules))
    assert {m[0] for m in table.moves(0)} == {DISCARD}


NAMES = sorted(forbid.names(GAME.load_rules(None, [])))
KIND_NAMES = {PLACE: "path", BREAK: "break", REPAIR: "repair", MAP: "map", ROCKFALL: "rockfall"}


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 10), st.integers(0, 2**32), st.data())
def test_no_seat_ever_plays_a_card_or_action_it_is_forbidden(players, seed, data):
    rules = GAME.load_rules(None, [])
    strategies = [data.draw(st.sampled_from(["random", "default", "covert-saboteurs"]))
                  for _ in range(players)]
    forbidden = [data.draw(st.lists(st.sampled_from(NAMES), max_size=4, unique=True))
                 for _ in range(players)]
    setup = Setup(players, tuple(seats.compose(s, f) for s, f in zip(strategies, forbidden)))
    rs, names, families, params, s, fixed = GAME.prepare(rules, setup)
    moves = []

    def watch(event, *args):
        if event == "move":
            moves.append((args[0], int(args[1][0]), args[2]))

    play.play_python(s, rs, families, params, seed, 0, fixed, play.new_results(1, players, 3),
                     watch=watch)
    assert moves, "the game was played"
    for seat, action, card in moves:
        if action == DISCARD:
            continue
        played = {names[card], KIND_NAMES[action]}
        if action == PLACE and not rs.through[card]:
            played.add("dead_end")
        assert not played & set(forbidden[seat]), (seat, played, forbidden[seat])
