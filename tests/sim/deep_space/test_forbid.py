"""Restricted play (--forbid): a seat never plays what it is forbidden, whoever chooses its
moves; the other seats and unrestricted games are untouched."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.deep_space import GAME, forbid, play
from sim.deep_space.engine import (
    BUILD,
    DISCARD,
    END,
    MOVE,
    PLAY,
    RECRUIT,
    TAKE,
    TRADE,
    is_legal,
    legal_moves,
    occupied,
)
from sim.deep_space.state import MINE, PHASE, REDRAW
from sim.game import Setup
from strategies import seats

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


@pytest.mark.parametrize("strategy", ["random", "default", "raider"])
def test_restricted_bots_never_play_what_they_are_forbidden(rules, strategy):
    restricted = seats.canonical(GAME, f"{strategy}-no-warp-no-attack-no-trade-no-meteor_storm",
                                 rules)
    setup = Setup(4, (restricted, strategy, restricted, strategy))
    rs, planets, kinds, families, params, s = GAME.prepare(rules, setup)
    storm = kinds.index("meteor_storm")
    played = {seat: set() for seat in range(4)}

    def watch(event, *args):
        if event == "move":
            seat, (action, a, b, _, _, e) = args[0], args[1].tolist()
            if action == MOVE and e:
                played[seat].add("warp")
            if action == MOVE and any(s.units[o, b] for o in range(4) if o != seat):
                played[seat].add("attack")
            if action == TRADE:
                played[seat].add("trade")
            if action == PLAY and rs.card_kind[s.hand[seat, a]] == storm:
                played[seat].add("meteor_storm")

    for game in range(8):
        play.play_python(s, rs, families, params, 3, game, play.new_results(1, 4, len(planets)),
                         watch=watch)
    assert not played[0] and not played[2]
    assert played[1] | played[3] >= {"warp", "attack", "meteor_storm"} - (
        {"warp"} if strategy != "random" else set())


def test_a_restricted_run_records_the_restriction_and_plays_other_games(rules):
    free = GAME.play(rules, Setup(4, ("default",) * 4), 8, 0, 20, 0)
    setup = Setup(4, ("default-no-recruit",) * 4)
    bound = GAME.play(rules, setup, 8, 0, 20, 0)
    assert bound["seats"]["strategy"].unique().to_list() == ["default-no-recruit"]
    assert not free["games"]["turns"].equals(bound["games"]["turns"])
    assert setup.label() == "4p forbid=recruit default"


def test_a_seat_that_may_not_build_never_wins(rules):
    tables = GAME.play(rules, Setup(2, ("default-no-build", "random-no-build")), 1, 0, 3, 0)
    assert tables["seats"]["bases"].sum() == 0 and tables["games"]["stalled"].all()


def test_the_jitted_loop_and_the_python_driver_agree_under_restrictions(rules):
    setup = Setup(4, ("default-no-warp", "random-no-move", "rush-no-play", "raider-no-attack"))
    jitted = GAME.play(rules, setup, 21, 0, 4, 0)
    rs, planets, _, families, params, s = GAME.prepare(rules, setup)
    out = play.new_results(4, 4, len(planets))
    for game in range(4):
        play.play_python(s, rs, families, params, 21, game, out, game)
    assert np.array_equal(out.bases, jitted["seats"]["bases"].to_numpy().reshape(4, 4))
    assert np.array_equal(out.turns, jitted["games"]["turns"].to_numpy())


def test_every_card_and_action_name_is_forbiddable(rules):
    names = forbid.names(rules)
    assert {"move", "warp", "attack", "recruit", "trade", "build", "discard", "play"} <= set(names)
    assert set(rules["deck"]["cards"]) <= set(names)


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32), st.data())
def test_no_seat_ever_plays_a_card_or_action_it_is_forbidden(players, seed, data):
    rules = GAME.load_rules(None, [])
    strategies = [data.draw(st.sampled_from(["random", "default", "raider"]))
                  for _ in range(players)]
    forbidden = [data.draw(st.lists(st.sampled_from(NAMES), max_size=3, unique=True))
                 for _ in range(players)]
    setup = Setup(players, tuple(seats.compose(s, f) for s, f in zip(strategies, forbidden)))
    rs, planets, kinds, families, params, s = GAME.prepare(rules, setup)
    actions = {MOVE: "move", RECRUIT: "recruit", TRADE: "trade", BUILD: "build", PLAY: "play",
               DISCARD: "discard"}
    done = []

    def watch(event, *args):
        if event == "move":
            seat, (action, a, b, _, _, e) = args[0], args[1].tolist()
            assert is_legal(s, rs, seat, args[1]), "the bot's move is one of its legal moves"
            names = {actions.get(action)}
            if action == MOVE and e:
                names.add("warp")
            if action == MOVE and any(s.units[o, b] for o in range(players) if o != seat):
                names.add("attack")
            if action == PLAY:
                names.add(kinds[rs.card_kind[s.hand[seat, a]]])
            done.append((seat, names))

    play.play_python(s, rs, families, params, seed, 0, play.new_results(1, players, len(planets)),
                     watch=watch)
    assert done, "the game was played"
    for seat, names in done:
        assert not names & set(forbidden[seat]), (seat, names, forbidden[seat])
