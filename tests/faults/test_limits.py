"""Limits: a run too big for a run folder, for memory or for the engines, a player range
beyond the game's, a rule value that would make games endless, or more workers than the
machine can use, is refused in one line (exit 2) before anything is allocated or written."""

import os

import pytest

from sim.run import limits

CORES = os.cpu_count() or 1


@pytest.mark.parametrize("args, message", [
    (["--games", str(10**19)],
     f"error: --games is at most 1,000,000,000 per configuration, got {10**19:,}"),
    (["--games", str(2**40)], f"error: --games is at most 1,000,000,000 per configuration, got {2**40:,}"),
    (["--games", "1000000000", "--chunk-size", "200"],
     "error: 1 configuration(s) × 1,000,000,000 games in chunks of 200 make 5,000,000 chunks, "
     "more than a run can plan (250,000): play fewer games or configurations per run"),
    (["--chunk-size", "1000000000"], "error: --chunk-size is at most 100,000, got 1,000,000,000"),
    (["--players", "3-3000000000"], "error: saboteur takes 2–6 players, got 7"),
    (["--players", "2,3-3000000000"], "error: saboteur takes 2–6 players, got 7"),
    (["--saboteurs", "1-3000000000"],
     "error: --saboteurs: the range '1-3000000000' names more than 1,000 numbers"),
    (["--set", "flips=1000000000"],
     "error: rule 'flips' in --set must be at most 500 (100 times its default 5), got 1000000000"),
    (["--set", "bias=inf"], "error: rule 'bias' in --set must be a finite number, got inf"),
    (["--workers", "1000"],
     f"error: --workers is at most {4 * CORES} here (4 × the {CORES} cores), got 1,000"),
    (["--seed", str(2**63)], f"error: --seed must be between 0 and 2**63-1, got {2**63}"),
    (["--seed", str(10**30)], f"error: --seed must be between 0 and 2**63-1, got {10**30}"),
    (["--bot-timeout", "-1"], "error: --bot-timeout takes seconds, 0.01 or more (0: no limit), got -1"),
])
def test_a_run_beyond_the_limits_is_one_line_and_leaves_nothing(simulate, tmp_path, args, message):
    code, _, err = simulate("saboteur", "--players", "3", "--out", "run", *args)
    assert (code, err) == (2, message + "\n")
    assert list(tmp_path.iterdir()) == []


def test_the_largest_seed_the_engines_take_is_accepted(simulate):
    code, _, err = simulate("saboteur", "--players", "3", "--games", "10", "--workers", "1",
                            "--seed", str(limits.MAX_SEED), "--out", "run", "--quiet")
    assert (code, err) == (0, "")


@pytest.mark.parametrize("index, code", [(str(2**63 - 2), 0), (str(2**63 - 1), 2),
                                         (str(10**19), 2), ("-1", 2)])
def test_trace_takes_the_game_indices_the_engines_hold(simulate, index, code):
    done, _, err = simulate("trace", "saboteur", "--players", "3", "--seed", "1",
                            "--game-index", index)
    assert done == code
    if code:
        assert err == f"error: --game-index must be between 0 and 2**63-2, got {index}\n"


def test_a_real_engine_plays_the_largest_seed_and_game_index():
    from sim import games
    from sim.game import Setup

    game = games.get("saboteur")
    rules = game.load_rules(None, [])
    setup = Setup(3, ("random",) * 3, (("saboteurs", None),))
    tables = game.play(rules, setup, limits.MAX_SEED, limits.MAX_GAME_INDEX,
                       limits.MAX_GAME_INDEX + 1, 0)
    assert tables["games"]["game_id"].to_list() == [limits.MAX_GAME_INDEX]


@pytest.mark.parametrize("change, message", [
    ("rounds=1000000000", "rule 'rounds' in --set must be at most 30 (the most this game takes), "
                          "got 1000000000"),
    ("turn_cap=1000000000", "rule 'turn_cap' in --set must be at most 100000 (100 times its "
                            "default 1000), got 1000000000"),
])
def test_a_rule_value_that_would_make_games_endless_is_refused(change, message):
    from sim import games
    from sim.errors import UserError

    name = "saboteur" if change.startswith("rounds") else "sequence-stacks"
    with pytest.raises(UserError) as error:
        games.get(name).load_rules(None, [change])
    assert str(error.value) == message


def test_the_limits_table_is_no_rule():
    from sim import games
    from sim.errors import UserError

    assert "limits" not in games.get("saboteur").load_rules(None, ["rounds=30"])
    with pytest.raises(UserError, match="unknown rule 'limits'"):
        games.get("saboteur").load_rules(None, ["limits.rounds=1000"])
