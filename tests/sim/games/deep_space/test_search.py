"""The search family in Deep Space: its budgets, the candidates it weighs, how a rollout scores
the race, what a decision leaves behind, and that it plays its games like every bot."""

import numpy as np
import pytest

from sim import rng
from sim.games.deep_space import GAME, bots, engine
from sim.games.deep_space import search as pieces
from sim.games.deep_space.engine import BUILD, END, MOVE
from sim.games.deep_space.ruleset import BASE_ORE, BASE_RECRUITS
from sim.games.deep_space.state import TURN_SEAT
from sim.game import Setup
from strategies import presets

SMALL = {"family": "search", "rollouts": 1.0, "determinizations": 1.0, "candidates": 4.0}


def vector(spec):
    return bots.resolve("mine", {"mine": spec})[1]


def test_search_is_the_third_family_and_its_presets_are_budgets():
    assert [f.name for f in bots.FAMILIES] == ["random", "default", "search"]
    names = ("search-fast", "search", "search-strong")
    assert all(bots.resolve(name)[0] == presets.SEARCH for name in names)
    budgets = [np.prod(bots.resolve(name)[1][bots.SEARCH_AT:]) for name in names]
    assert budgets == sorted(set(budgets))


def test_the_candidates_are_the_defaults_move_then_the_other_actions_then_distinct_squads(
        new_table):
    t = new_table(players=2)
    t.put(0, "H0", 6, dogs=1)
    t.s.gems[0] = 3
    stream = t.s.bot_rng.copy()
    n = pieces.candidates(t.s, t.rs, 0, vector({**SMALL, "candidates": 16.0}),
                          t.s.search_moves)
    found = [tuple(m) for m in t.s.search_moves[:n].tolist()]
    t.s.bot_rng[:] = stream  # the default family's noise, drawn again
    bots.default_move(t.s, t.rs, 0, vector(SMALL), t.s.move)
    assert found[0] == tuple(t.s.move.tolist()), "the default family's move comes first"
    assert len(set(found)) == n == 16
    legal = set(t.moves(0))
    assert set(found) <= legal
    kinds = [m[0] for m in found[1:]]
    assert kinds == sorted(kinds, key=lambda k: k == MOVE), "the other actions first"
    assert END in kinds
    for m in found:
        if m[0] == MOVE and m[3] < 6:  # part of the squad: a size that differs in kind
            assert m[3] in (1, 5, t.rs.numbers[BASE_RECRUITS]) and m[4] in (0, 1)


def test_a_rollout_scores_a_race_won_at_once_as_1_and_lost_as_0(new_table):
    t = new_table(players=2)
    to_win = int(t.rs.to_win[2])
    t.s.bases[:] = to_win - 1
    t.put(0, "R0", 3)
    t.s.ore[0] = t.rs.numbers[BASE_ORE]
    r = np.zeros(1, np.uint64)
    rng.start(r, 1, 2, 3)
    won = pieces.play_out(t.s, t.rs, 0, np.array([BUILD, t.q("R0"), 0, 0, 0, 0]), vector(SMALL),
                          r)
    assert won == 1.0
    t = new_table(players=2)
    t.s.bases[:] = [to_win - 1, to_win - 1]
    t.put(1, "R6", 3)
    t.s.ore[1] = t.rs.numbers[BASE_ORE]
    lost = pieces.play_out(t.s, t.rs, 0, np.array([END, 0, 0, 0, 0, 0]), vector(SMALL), r)
    assert lost == 0.0, "the default family builds the other colour's winning base"


def test_at_the_horizon_a_rollout_scores_the_lead_in_bases(new_table):
    t = new_table(players=2)
    t.s.bases[:] = [2, 1]
    assert pieces.score(t.s, t.rs, 0) == 0.5 + 0.5 * 1 / t.rs.to_win[2]
    assert pieces.score(t.s, t.rs, 1) == 0.5 - 0.5 * 1 / t.rs.to_win[2]


def test_a_decision_leaves_the_state_as_it_was_but_the_seats_own_stream():
    rules = GAME.load_rules(None, [])
    rs, _, _, _, _, s = GAME.prepare(rules, Setup(3, ("default",) * 3))
    engine.start_game(s, rs, 3, 0)
    for _ in range(5):  # into the game: cards in hand, recruits about
        seat = int(s.g[TURN_SEAT])
        bots.choose(s, rs, seat, presets.DEFAULT, vector(SMALL), s.move)
        engine.apply_move(s, rs, seat, s.move)
    seat = int(s.g[TURN_SEAT])
    kept = [a.copy() for a in pieces.saved.py_func(s)]
    bots.choose(s, rs, seat, presets.SEARCH, vector(SMALL), s.move)
    for before, after in zip(kept, pieces.saved.py_func(s)):
        if after is s.bot_rng:
            others = [q for q in range(3) if q != seat]
            assert np.array_equal(before[others], after[others]) and before[seat] != after[seat]
        else:
            assert np.array_equal(before, after)
    assert engine.is_legal(s, rs, seat, s.move)


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def test_with_one_candidate_the_search_plays_the_default_familys_games(rules):
    one = presets.with_presets(rules, {"one": {**SMALL, "candidates": 1.0}})
    searched = GAME.play(one, Setup(2, ("one", "default")), 5, 0, 3, 0)
    default = GAME.play(rules, Setup(2, ("default", "default")), 5, 0, 3, 0)
    for table in ("games", "seats"):
        assert searched[table].drop("strategy", strict=False).equals(
            default[table].drop("strategy", strict=False)), table


def test_a_search_seat_plays_its_own_games(rules):
    small = presets.with_presets(rules, {"small": SMALL})
    searched = GAME.play(small, Setup(2, ("small", "default")), 5, 0, 3, 0)
    default = GAME.play(rules, Setup(2, ("default", "default")), 5, 0, 3, 0)
    assert not searched["bases"].equals(default["bases"])


def test_a_search_seat_plays_the_same_games_in_any_chunking(rules):
    small = presets.with_presets(rules, {"small": SMALL})
    setup = Setup(2, ("small", "default"))
    whole = GAME.play(small, setup, 7, 0, 3, 0)
    parts = [GAME.play(small, setup, 7, a, b, 0) for a, b in ((0, 1), (1, 3))]
    for table in whole:
        assert whole[table].equals(parts[0][table].vstack(parts[1][table])), table


def test_an_attack_is_among_the_candidates_however_many_squad_moves_there_are(new_table):
    """The attacks come before the other squad moves: the cap used to cut them off."""
    t = new_table(players=2)
    t.put(0, "H0", 6, dogs=1)
    t.s.gems[0] = 3
    target = max(t.destinations(0), key=t.q)  # the last in the legal moves' planet order
    t.put(1, target, 1)
    attacks = {m for m in t.kinds_of_moves(MOVE, 0) if t.planets[m[2]] == target}
    assert attacks and len(t.kinds_of_moves(MOVE, 0)) > 16
    n = pieces.candidates(t.s, t.rs, 0, vector({**SMALL, "candidates": 16.0}),
                          t.s.search_moves)
    found = [tuple(m) for m in t.s.search_moves[:n].tolist()]
    assert attacks & set(found)
    squads = [m for m in found[1:] if m[0] == MOVE]
    onto = [t.planets[m[2]] == target for m in squads]
    assert onto == sorted(onto, reverse=True), "the attacks before the other squad moves"
