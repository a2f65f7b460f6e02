"""`simulate sequence-stacks`, `simulate trace sequence-stacks`, `simulate bench sequence-stacks`:
what they run, and one line with exit code 2 for bad input."""

import json
from pathlib import Path

import polars as pl
import pytest


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # the summary's columns unwrapped


def test_a_run_over_player_counts_prints_the_first_players_win_rate(simulate, tmp_path):
    code, out, err = simulate("sequence-stacks", "--players", "2-3", "--games", "40", "--seed", "5",
                              "--workers", "1", "--out", "run", "--seat-strategy", "0=random")
    assert (code, err) == (0, "")
    assert "first player's win rate" in out and "Sequence Stacks" in out
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["game"] == "sequence-stacks"
    assert [s["players"] for s in manifest["setups"]] == [2, 3]
    assert manifest["setups"][0]["seats"] == ["random", "default"]


@pytest.mark.parametrize("args, message", [
    (["--players", "4", "--set", "options.refill=never"],
     "error: options.refill must be one of refill, empty_hand_only, got 'never'"),
    (["--players", "4", "--set", "chips.to_wn=4"], "error: unknown rule 'chips.to_wn'"),
])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(simulate, tmp_path, args, message):
    code, _, err = simulate("sequence-stacks", *args)
    assert code == 2 and err.startswith(message) and err.count("\n") == 1, err
    assert not (tmp_path / "runs").exists()


def test_trace_prints_a_game(simulate):
    code, out, err = simulate("trace", "sequence-stacks", "--players", "4", "--seed", "3")
    assert (code, err) == (0, "")
    assert out.startswith("Sequence Stacks, 4 players, seed 3, game 0") and "--- turn 1: seat 0" in out


def test_bench_times_each_strategy_and_player_count(simulate):
    code, out, _ = simulate("bench", "sequence-stacks", "--players", "2,4", "--strategies",
                            "random,default", "--games", "30", "--repeat", "1", "--scaling-games", "0")
    assert code == 0
    for row in ["random, 2 players", "default, 4 players", "yardstick, 4 players", "Compile"]:
        assert row in out
    assert out.count(" players ") == 6  # the yardstick's rows too


ROOT = Path(__file__).resolve().parents[4]
FINISHER = ROOT / "strategies" / "examples" / "sequence_stacks_finisher.py"
PRESETS = ROOT / "configs" / "sequence_stacks-presets.toml"


def test_the_example_bot_presets_and_restrictions_play_from_the_command_line(simulate, tmp_path):
    code, _, err = simulate(
        "sequence-stacks", "--players", "3", "--games", "4", "--seed", "3", "--workers", "1",
        "--out", "run", "--quiet", "--strategies-file", str(PRESETS), "--strategy", "spoilers",
        "--seat-strategy", f"0={FINISHER}:Finisher", "--forbid", "wild", "--forbid", "2=block")
    assert (code, err) == (0, "")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["setups"][0]["seats"] == [
        f"{FINISHER}:Finisher-no-wild", "spoilers-no-wild", "spoilers-no-wild-no-block"]
    assert manifest["rules"]["strategy_presets"]["spoilers"]["block_at"] == 3
    seats = pl.read_parquet(tmp_path / "run" / "seats" / "*.parquet")
    assert seats.filter(pl.col("seat") == 0)["strategy"].unique().to_list() == \
        ["sequence_stacks_finisher.py:Finisher-no-wild"]
    assert seats.height == 12 and seats.filter(pl.col("seat") == 2)["blocks_played"].sum() == 0


def test_trace_takes_a_python_bot_and_restrictions(simulate):
    code, out, err = simulate("trace", "sequence-stacks", "--players", "2", "--seed", "4",
                              "--seat-strategy", f"1={FINISHER}:Finisher", "--forbid", "0=skip")
    assert (code, err) == (0, "")
    assert "seats: 0:default-no-skip, 1:sequence_stacks_finisher.py:Finisher" in out
    assert "seat 0 plays skip" not in out and (" wins after " in out or "Stalled" in out)


def test_strategies_lists_families_parameters_presets_and_forbidden_names(simulate):
    code, out, _ = simulate("strategies", "sequence-stacks", "--strategies-file", str(PRESETS))
    assert code == 0
    assert "  default: scores every legal move" in out and "block_at" in out
    assert "range 0–10" in out and "  chip-thieves " in out
    assert "spoilers" in out and "(--strategies-file)" in out
    assert "  steal_chip " in out and "  from_discard " in out
