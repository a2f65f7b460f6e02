"""The search family in Saboteur: its budgets, what a decision leaves behind, and that it plays
its games like every bot (the same games in any chunking; the default's with one candidate)."""

import numpy as np
import polars as pl
import pytest

from sim import rng, search
from sim.game import Setup
from sim.games.saboteur import GAME, bots, cards, engine, play
from sim.games.saboteur import search as saboteur_search
from sim.games.saboteur.state import ROUND_OVER, ROUND_TURNS, TURN_SEAT, new_state
from strategies import presets

PLAYERS = 5
SMALL = {"family": "search", "rollouts": 1.0, "determinizations": 1.0, "candidates": 2.0}


def seats(strategy):
    """Gives a table with `strategy` in seat 0 and the default family elsewhere."""
    return Setup(PLAYERS, (strategy,) + ("default",) * (PLAYERS - 1))


def test_search_is_the_third_family_and_its_presets_are_budgets():
    assert [f.name for f in bots.FAMILIES] == ["random", "default", "search"]
    budgets = [bots.resolve(name)[1][bots.SEARCH_AT:bots.BELIEF] for name in ("search-fast", "search",
                                                                   "search-strong")]
    assert all(bots.resolve(name)[0] == presets.SEARCH
               for name in ("search-fast", "search", "search-strong"))
    assert [np.prod(b) for b in budgets] == sorted(np.prod(b) for b in budgets)
    assert len({np.prod(b) for b in budgets}) == 3


def test_a_search_preset_sets_the_rollout_policy_too():
    code, values = bots.resolve("mine", {"mine": {**SMALL, "strike_distance": 4.0}})
    assert code == presets.SEARCH and values[bots.STRIKE] == 4.0
    assert values[bots.SEARCH_AT + search.ROLLOUTS] == 1.0


def test_a_decision_leaves_the_state_as_it_was_but_the_seats_own_stream(rules):
    rs, _ = cards.build(rules)
    s = new_state(PLAYERS, rs.kind.shape[0])
    engine.start_game(s, rs, 3, 0, -1)
    seat = int(s.g[TURN_SEAT])
    kept = [a.copy() for a in saboteur_search.saved.py_func(s)]
    bots.choose(s, rs, seat, presets.SEARCH, bots.resolve("mine", {"mine": SMALL})[1], s.move)
    for before, after in zip(kept, saboteur_search.saved.py_func(s)):
        if after is s.bot_rng:
            others = [q for q in range(PLAYERS) if q != seat]
            assert np.array_equal(before[others], after[others]) and before[seat] != after[seat]
        else:
            assert np.array_equal(before, after)
    assert engine.is_legal(s, rs, seat, s.move)


def test_a_rollout_plays_one_turn_of_the_table_and_scores_the_position_it_reaches(rules):
    rs, _ = cards.build(rules)
    s = new_state(PLAYERS, rs.kind.shape[0])
    engine.start_game(s, rs, 3, 0, -1)
    seat = int(s.g[TURN_SEAT])
    params = bots.resolve("search")[1]
    bots.default_move(s, rs, seat, params, s.move)
    stream = np.zeros(1, np.uint64)
    rng.start(stream, 1, 0, 0)
    score = saboteur_search.play_out(s, rs, seat, s.move.copy(), params, stream)
    # The candidate, the other seats' turns and the seat's own next one: the round goes on.
    assert s.g[ROUND_TURNS] == PLAYERS + 1 and s.g[ROUND_OVER] == 0
    assert s.g[TURN_SEAT] == (seat + 1) % PLAYERS
    assert score == saboteur_search.position(s, rs, seat)


def test_a_miner_scores_a_path_nearer_the_gold_higher_and_a_saboteur_lower(rules):
    rs, _ = cards.build(rules)
    s = new_state(PLAYERS, rs.kind.shape[0])
    engine.start_game(s, rs, 3, 0, -1)
    seat = int(s.g[TURN_SEAT])
    s.role[seat] = engine.MINER
    bots.default_move(s, rs, seat, bots.resolve("default")[1], s.move)
    before = {role: position_as(s, rs, seat, role) for role in (engine.MINER, engine.SABOTEUR)}
    distance = bots.expected_distance(s, rs, seat)
    play.play_turn(s, rs, seat, s.move, False)  # no suspicion recorded: the path alone changes
    assert bots.expected_distance(s, rs, seat) < distance  # the miner's move dug on
    assert position_as(s, rs, seat, engine.MINER) > before[engine.MINER]
    assert position_as(s, rs, seat, engine.SABOTEUR) < before[engine.SABOTEUR]


def position_as(s, rs, seat, role):
    """Gives the search's score of the position for `seat` playing `role`."""
    s.role[seat] = role
    return saboteur_search.position(s, rs, seat)


def test_with_one_candidate_the_search_plays_the_default_familys_games(rules):
    one = presets.with_presets(rules, {"one": {**SMALL, "candidates": 1.0}})
    searched = GAME.play(one, seats("one"), 5, 0, 3, 0)
    default = GAME.play(rules, seats("default"), 5, 0, 3, 0)
    # the same games, but for the column naming the bot of each seat and round
    assert searched["rounds"].drop("strategy").equals(default["rounds"].drop("strategy"))
    bots = dict(searched["rounds"].group_by("seat").agg(pl.col("strategy").unique()).rows())
    assert bots == {seat: ["one" if seat == 0 else "default"] for seat in range(PLAYERS)}
    assert searched["seats"]["gold"].equals(default["seats"]["gold"])


def test_a_search_seat_plays_the_same_games_in_any_chunking_and_not_the_defaults(rules):
    small = presets.with_presets(rules, {"small": SMALL})
    whole = GAME.play(small, seats("small"), 7, 0, 3, 0)
    parts = [GAME.play(small, seats("small"), 7, a, b, 0) for a, b in ((0, 1), (1, 3))]
    for table in whole:
        assert whole[table].equals(parts[0][table].vstack(parts[1][table])), table
    assert not whole["rounds"].equals(GAME.play(rules, seats("default"), 7, 0, 3, 0)["rounds"])


@pytest.mark.parametrize("text, message", [
    ("rollouts = 0", "rollouts must be a number in 1–256, got 0"),
    ("determinizations = -1", "determinizations must be a number in 1–64, got -1"),
    ("candidates = 17", "candidates must be a number in 1–16, got 17"),
])
def test_a_budget_out_of_range_is_one_line_and_exit_2(simulate, tmp_path, text, message):
    file = tmp_path / "budget.toml"
    file.write_text(f'[preset.mine]\nfamily = "search"\n{text}\n')
    code, _, err = simulate("saboteur", "--players", "4", "--games", "2", "--strategies-file",
                              file, "--strategy", "mine", "--out", tmp_path / "run")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "run").exists()
