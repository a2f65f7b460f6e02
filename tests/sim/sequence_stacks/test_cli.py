"""`simulate sequence-stacks`, `simulate trace sequence-stacks`, `simulate bench sequence-stacks`:
what they run, and one line with exit code 2 for bad input."""

import json
import sys

import pytest

from sim import cli


@pytest.fixture
def simulate(monkeypatch, capsys, tmp_path):
    """Gives a function running `simulate ARGS...` in-process from an empty folder, and giving
    (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")  # the summary's columns unwrapped

    def run(*args):
        monkeypatch.setattr(sys, "argv", ["simulate", *args])
        with pytest.raises(SystemExit) as exit:
            cli.main()
            sys.exit(0)
        out, err = capsys.readouterr()
        return exit.value.code or 0, out, err

    return run


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
    (["--players", "1"], "error: sequence-stacks takes 2–6 players, got 1"),
    (["--players", "7"], "error: sequence-stacks takes 2–6 players, got 7"),
    (["--players", "2-9"], "error: sequence-stacks takes 2–6 players, got 7"),
    (["--players", "four"], "error: --players takes a number (7), a list (5,7) or a range (3-10), got 'four'"),
    (["--players", "4", "--strategy", "clever"], "error: unknown strategy 'clever'"),
    (["--players", "4", "--set", "options.refill=never"],
     "error: options.refill must be one of refill, empty_hand_only, got 'never'"),
    (["--players", "4", "--set", "chips.to_wn=4"], "error: unknown rule 'chips.to_wn'"),
    (["--players", "4", "--games", "0"], "error: --games must be at least 1, got 0"),
])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(simulate, tmp_path, args, message):
    code, _, err = simulate("sequence-stacks", *args)
    assert code == 2 and err.startswith(message) and err.count("\n") == 1, err
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("players", ["1", "7"])
def test_trace_and_bench_refuse_a_bad_player_count_in_one_line(simulate, players):
    for command in (["trace", "sequence-stacks", "--players", players],
                    ["bench", "sequence-stacks", "--players", players]):
        code, _, err = simulate(*command)
        assert (code, err) == (2, f"error: sequence-stacks takes 2–6 players, got {players}\n")


def test_trace_prints_a_game(simulate):
    code, out, err = simulate("trace", "sequence-stacks", "--players", "4", "--seed", "3")
    assert (code, err) == (0, "")
    assert out.startswith("Sequence Stacks, 4 players, seed 3, game 0") and "--- turn 1: seat 0" in out


def test_bench_times_each_strategy_and_player_count(simulate):
    code, out, _ = simulate("bench", "sequence-stacks", "--players", "2,4", "--strategies",
                            "random,default", "--games", "30", "--repeat", "1", "--scaling-games", "0")
    assert code == 0
    for row in ["random, 2 players", "default, 4 players", "compile"]:
        assert row in out
    assert out.count("games/s per core") == 4
