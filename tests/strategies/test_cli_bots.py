"""Bring your own bot on the command line: Python strategies, presets files and --forbid reach
the games (and worker processes) and the manifest; every mistake is one line, exit code 2."""

import json
import os
import sys
from pathlib import Path

import pytest

from sim import cli

from sim.run import runner

ROOT = Path(__file__).parents[2]
DIGGER = ROOT / "strategies" / "examples" / "saboteur_digger.py"
FIRST = ROOT / "strategies" / "examples" / "first_move.py"
PRESETS = ROOT / "configs" / "saboteur-presets.toml"


@pytest.fixture
def simulate(monkeypatch, capsys, tmp_path):
    """Gives a function running `simulate ARGS...` in-process from an empty folder, giving
    (exit code, stdout, stderr)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "_print_summary", lambda run, *_: print(f"summary of {run.path}"))

    def run(*args):
        monkeypatch.setattr(sys, "argv", ["simulate", *map(str, args)])
        with pytest.raises(SystemExit) as exit:
            cli.main()
            sys.exit(0)
        out, err = capsys.readouterr()
        return exit.value.code or 0, out, err

    return run


def test_a_run_records_python_seats_presets_and_restrictions(simulate, tmp_path):
    code, _, err = simulate(
        "saboteur", "--players", "4", "--games", "6", "--seed", "3", "--workers", "1",
        "--out", "run", "--quiet", "--strategies-file", PRESETS, "--strategy", "patient-saboteurs",
        "--seat-strategy", f"1={DIGGER}:Digger", "--forbid", "rockfall", "--forbid", "3=pass")
    assert (code, err) == (0, "")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["setups"][0]["seats"] == [
        "patient-saboteurs-no-rockfall", f"{DIGGER}:Digger-no-rockfall",
        "patient-saboteurs-no-rockfall", "patient-saboteurs-no-rockfall-no-pass"]
    assert manifest["rules"]["strategy_presets"]["patient-saboteurs"]["cover"] == 0.8
    assert manifest["games_done"] == 6


def test_a_relative_bot_path_is_made_absolute_for_the_workers(simulate, tmp_path):
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "mine.py").write_text(FIRST.read_text())
    code, _, err = simulate("saboteur", "--players", "3", "--games", "3", "--seed", "1",
                            "--workers", "1", "--out", "run", "--quiet",
                            "--strategy", "bots/mine.py:FirstMove")
    assert (code, err) == (0, "")
    seats = json.loads((tmp_path / "run" / "manifest.json").read_text())["setups"][0]["seats"]
    assert seats == [f"{tmp_path / 'bots' / 'mine.py'}:FirstMove"] * 3


@pytest.mark.parametrize("args, message", [
    (["--strategy", "nothing.py:Bot"], "error: cannot load strategy "),
    (["--strategy", "bad.py:Bot"], "error: cannot import strategy file "),
    (["--forbid", "rockfal"], "error: saboteur cannot forbid 'rockfal'; it can forbid: path, "),
    (["--forbid", "two=map"], "error: --forbid takes NAME or SEAT=NAME"),
    (["--strategies-file", "none.toml"], "error: cannot read none.toml: "),
])
def test_a_bad_bot_flag_is_one_line_exit_2_and_leaves_no_run(simulate, tmp_path, args, message):
    (tmp_path / "bad.py").write_text("import this_module_does_not_exist\n")
    code, _, err = simulate("saboteur", "--players", "3", "--games", "5", "--out", "run", *args)
    assert code == 2 and err.startswith(message) and err.count("\n") == 1
    assert not (tmp_path / "run").exists()


def test_an_illegal_move_in_a_worker_process_is_one_line_exit_2(simulate, tmp_path, monkeypatch):
    # The bot cheats only in worker processes: the parent's timing probe plays fair.
    (tmp_path / "cheat.py").write_text(
        f"import os\n\nclass Cheat:\n    def choose(self, view, legal_moves, rng):\n"
        f"        if os.getpid() != {os.getpid()}:\n"
        f"            return legal_moves[0]._replace(slot=9)\n"
        f"        return legal_moves[0]\n")
    monkeypatch.setattr(runner, "POOL_AFTER", 0.0)
    code, _, err = simulate("saboteur", "--players", "3", "--games", "40", "--chunk-size", "10",
                            "--seed", "2", "--workers", "2", "--out", "run", "--quiet",
                            "--seat-strategy", "2=cheat.py:Cheat")
    assert code == 2, err
    assert err.startswith(f"error: strategy {tmp_path / 'cheat.py'}:Cheat (seat 2) played an "
                          f"illegal move in game ")
    assert "slot=9" in err and err.count("\n") == 1


def test_strategies_lists_the_presets_of_a_file(simulate):
    code, out, _ = simulate("strategies", "saboteur", "--strategies-file", PRESETS)
    assert code == 0 and "strike_distance" in out and "patient-saboteurs" in out
    assert "(--strategies-file)" in out and "  rockfall " in out


def test_compare_measures_a_restriction_against_free_play(simulate, tmp_path, monkeypatch):
    import reports.compare

    seen = []
    monkeypatch.setattr(reports.compare, "print_comparison", lambda run, **_: seen.append(run))
    code, _, err = simulate("compare", "saboteur", "--strategies", "default,patient-saboteurs",
                            "--forbid", "patient-saboteurs=rockfall", "--strategies-file", PRESETS,
                            "--players", "4", "--games", "4", "--seed", "1", "--workers", "1",
                            "--out", "cmp", "--quiet")
    assert (code, err) == (0, "")
    setups = json.loads((tmp_path / "cmp" / "manifest.json").read_text())["setups"]
    assert {tuple(s["seats"]) for s in setups} == {
        ("default", "patient-saboteurs-no-rockfall") * 2,
        ("patient-saboteurs-no-rockfall", "default") * 2}


def test_bench_times_the_python_driver(simulate):
    code, out, err = simulate("bench", "saboteur", "--strategies", f"{FIRST}:FirstMove",
                              "--players", "3", "--games", "2", "--repeat", "1",
                              "--scaling-games", "0")
    assert code == 0, err
    assert "first_move.py:FirstMove, 3 players" in out


def test_resume_replays_presets_and_python_seats_from_the_manifest(simulate, tmp_path):
    args = ["saboteur", "--players", "3", "--games", "6", "--chunk-size", "2", "--seed", "4",
            "--workers", "1", "--out", "run", "--quiet", "--strategies-file", PRESETS,
            "--strategy", "sloppy", "--seat-strategy", f"0={FIRST}:FirstMove", "--forbid", "map"]
    assert simulate(*args)[0] == 0
    shards = sorted((tmp_path / "run" / "games").iterdir())
    before = [shard.read_bytes() for shard in shards]
    shards[1].unlink()
    code, _, err = simulate("resume", "run", "--workers", "1", "--quiet")
    assert (code, err) == (0, "")
    assert [shard.read_bytes() for shard in sorted((tmp_path / "run" / "games").iterdir())] == before
