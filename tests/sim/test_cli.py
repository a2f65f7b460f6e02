"""The `simulate` command line: what it runs, and one line with exit code 2 for bad input."""

import json
import re
import subprocess
import sys

import pytest

from sim import cli

from sim.run import runner


@pytest.fixture
def simulate(fake_game, simulate, monkeypatch):
    """Gives `simulate` (tests/conftest.py) with the test game standing in for saboteur, the
    summaries it would print kept in `simulate.summaries`."""
    simulate.summaries = []
    monkeypatch.setattr(cli, "_print_summary", lambda run, *_: simulate.summaries.append(run))
    return simulate


def test_a_run_plays_every_configuration_and_prints_its_summary(simulate, tmp_path):
    code, out, err = simulate("saboteur", "--players", "3,4", "--saboteurs", "1-2", "--games", "50",
                              "--seed", "42", "--workers", "1", "--out", "sweep",
                              "--strategy", "random", "--seat-strategy", "0=lucky",
                              "--set", "flips=7")
    assert (code, err) == (0, "")
    assert "seed 42" in out
    manifest = json.loads((tmp_path / "sweep" / "manifest.json").read_text())
    assert manifest["seed"] == 42 and manifest["rules"]["flips"] == 7
    assert [(s["players"], s["options"]["saboteurs"], s["seats"][:2]) for s in manifest["setups"]] == [
        (3, 1, ["lucky", "random"]), (3, 2, ["lucky", "random"]),
        (4, 1, ["lucky", "random"]), (4, 2, ["lucky", "random"])]
    assert manifest["games_done"] == 200 and manifest["status"] == "complete"
    assert [run.path.resolve() for run in simulate.summaries] == [tmp_path / "sweep"]


def test_a_summary_for_other_tools_leaves_stdout_to_it(simulate, tmp_path):
    code, out, err = simulate("saboteur", "--players", "3", "--games", "20", "--seed", "42",
                              "--workers", "1", "--format", "csv")
    assert code == 0 and out == ""  # the summary itself is the stand-in's
    assert "seed 42" in err


def test_without_a_seed_a_fresh_one_is_printed_and_recorded(simulate, tmp_path):
    code, out, _ = simulate("saboteur", "--players", "3", "--games", "20", "--workers", "1",
                            "--quiet")
    (folder,) = (tmp_path / "runs").iterdir()
    assert code == 0 and folder.name.startswith("saboteur-")
    assert out == ""  # --quiet
    assert json.loads((folder / "manifest.json").read_text())["seed"] >= 0


@pytest.mark.parametrize("args, message", [
    (["--players", "7"], "error: saboteur takes 2–6 players, got 7"),
    (["--players", "three"], "error: --players takes a number (7), a list (5,7) or a range (3-10), got 'three'"),
    (["--players", "3", "--games", "0"], "error: --games must be at least 1, got 0"),
    (["--players", "3", "--games", "-5"], "error: --games must be at least 1, got -5"),
    (["--players", "3", "--strategy", "clever"],
     "error: unknown strategy 'clever'; known strategies: default, random, lucky"),
    (["--players", "3", "--seat-strategy", "4=lucky"],
     "error: --seat-strategy: there is no seat 4 with 3 players (seats are 0–2)"),
    (["--players", "3", "--set", "flipz=2"], "error: unknown rule 'flipz' in --set (did you mean 'flips'?)"),
    (["--players", "3", "--saboteurs", "3"], "error: 3 saboteurs need more than 3 players"),
    (["--players", "3", "--seed", "-1"], "error: --seed must be between 0 and 2**63-1, got -1"),
    (["--players", "3", "--until-ci", "0.7"],
     "error: --until-ci takes a half-width between 0 and 0.5 (e.g. 0.005), got 0.7"),
    (["--players", "3", "--backend", "spark"], "error: --backend must be one of local, dask, got 'spark'"),
    (["--players", "3", "--scheduler", "tcp://127.0.0.1:8786"], "error: --scheduler needs --backend dask"),
    (["--players", "3", "--format", "xml"],
     "error: --format must be one of table, csv, json, markdown, got 'xml'"),
    (["--players", "3", "--resume"], "error: --resume needs --out: the run folder to continue"),
    (["--players", "3", "--resume", "--out", "nothing"],
     "error: nothing is not a run folder (it has no manifest.json)"),
])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(simulate, tmp_path, args, message):
    code, _, err = simulate("saboteur", *args)
    assert (code, err) == (2, message + "\n")
    assert list(tmp_path.iterdir()) == []


def test_a_malformed_config_file_is_one_line(simulate, tmp_path):
    (tmp_path / "mine.toml").write_text("flips = [\n")
    code, _, err = simulate("saboteur", "--players", "3", "--config", "mine.toml")
    assert code == 2 and err.startswith("error: mine.toml: malformed TOML: ")
    assert err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.toml"]


def test_an_unwritable_out_is_one_line_and_leaves_nothing(simulate, tmp_path):
    (tmp_path / "taken").write_text("a file, not a folder")
    code, _, err = simulate("saboteur", "--players", "3", "--out", "taken/run", "--workers", "1")
    assert code == 2 and err.startswith("error: cannot write the run folder taken/run")
    assert err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def test_an_unknown_flag_is_a_usage_error_with_exit_2(simulate):
    code, _, err = simulate("saboteur", "--players", "3", "--hand-size", "6")
    assert code == 2 and "No such option: --hand-size" in err
    assert "Traceback" not in err


def test_ctrl_c_is_one_line_and_exit_130(simulate, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run", interrupted)
    code, _, err = simulate("saboteur", "--players", "3", "--quiet")
    assert (code, err) == (130, "interrupted before any game finished; nothing was kept\n")


def test_resume_finishes_a_run_with_missing_chunks(simulate, tmp_path):
    simulate("saboteur", "--players", "3", "--games", "400", "--chunk-size", "100", "--seed", "5",
             "--workers", "1", "--out", "run", "--quiet")
    whole = sorted((tmp_path / "run" / "games").iterdir())
    whole[1].unlink()
    code, _, err = simulate("resume", "run", "--workers", "1", "--quiet")
    assert (code, err) == (0, "")
    assert sorted((tmp_path / "run" / "games").iterdir()) == whole
    assert len(simulate.summaries) == 2


def test_a_run_resumed_with_resume_takes_its_seed_and_plays_what_is_missing(simulate, tmp_path):
    simulate("saboteur", "--players", "3", "--games", "400", "--chunk-size", "100", "--seed", "5",
             "--workers", "1", "--out", "run", "--quiet")
    whole = sorted((tmp_path / "run" / "games").iterdir())
    whole[2].unlink()
    code, out, err = simulate("saboteur", "--players", "3", "--games", "400", "--workers", "1",
                              "--out", "run", "--resume")
    assert (code, err) == (0, "")
    assert "seed 5, run folder run (resumed)" in out
    assert sorted((tmp_path / "run" / "games").iterdir()) == whole


def test_resume_refuses_a_hand_edited_manifest_and_changes_nothing(simulate, tmp_path):
    simulate("saboteur", "--players", "3", "--games", "100", "--seed", "5", "--workers", "1",
             "--out", "run", "--quiet")
    manifest = tmp_path / "run" / "manifest.json"
    manifest.write_text(manifest.read_text().replace('"game": "saboteur"', '"game": "deep-space"'))
    before = manifest.read_text()
    code, _, err = simulate("saboteur", "--players", "3", "--games", "100", "--seed", "5",
                            "--out", "run", "--resume")
    assert (code, err) == (2, "error: run/manifest.json was edited: its run parameters no longer "
                              "match the hash saved with them; put back the original file, or "
                              "start a new run\n")
    assert manifest.read_text() == before


def test_a_damaged_shard_is_one_line_for_report_and_played_again_by_resume(simulate, tmp_path):
    simulate("saboteur", "--players", "3", "--games", "400", "--chunk-size", "100", "--seed", "5",
             "--workers", "1", "--out", "run", "--quiet")
    damaged = tmp_path / "run" / "seats" / "s000-g000000200.parquet"
    whole = damaged.read_bytes()
    damaged.write_bytes(whole[:100])
    code, _, err = simulate("report", "run")
    assert code == 2 and err.startswith(f"error: run is not a whole run: shard run/seats/{damaged.name} is damaged (")
    assert err.count("\n") == 1
    assert len(damaged.read_bytes()) == 100, "report overwrites nothing"
    assert simulate("resume", "run", "--workers", "1")[0] == 0
    assert damaged.read_bytes() == whole


def test_resume_of_a_folder_that_is_no_run_is_one_line(simulate):
    code, _, err = simulate("resume", "nowhere")
    assert (code, err) == (2, "error: nowhere is not a run folder (it has no manifest.json)\n")


def test_trace_prints_the_game_the_run_would_play(simulate, fake_game):
    code, out, err = simulate("trace", "saboteur", "--players", "4", "--seed", "7", "--game-index", "3")
    assert (code, err) == (0, "")
    rules = fake_game.load_rules(None, [])
    seats = fake_game.play(rules, *_setup(4), 7, 3, 4, 0)["seats"]
    assert out.splitlines() == [f"seat {s} flips {h} heads" for s, h in enumerate(seats["heads"])]


def test_trace_without_a_seed_says_which_one_it_drew(simulate):
    code, out, err = simulate("trace", "saboteur", "--players", "2")
    assert code == 0 and len(out.splitlines()) == 2
    assert err.startswith("seed ") and int(err.split()[1]) >= 0


def _setup(players):
    from sim.game import Setup

    return [Setup(players, ("default",) * players, (("saboteurs", None),))]


def bench_rows(out: str) -> dict[str, list[str]]:
    """Gives the bench table's rows: configuration -> its other cells."""
    cells = [[c.strip() for c in line.strip("│ ").split("│")] for line in out.splitlines()
             if line.startswith("│")]
    return {row[0]: row[1:] for row in cells}


def rate(cell: str) -> float:
    return float(cell.replace(",", ""))


def test_bench_times_each_strategy_and_player_count_against_the_yardstick(simulate):
    code, out, _ = simulate("bench", "saboteur", "--players", "3,5", "--strategies", "default,lucky",
                            "--games", "30", "--repeat", "1", "--scaling-games", "0")
    assert code == 0
    rows = bench_rows(out)
    assert list(rows) == ["default, 3 players", "default, 5 players", "lucky, 3 players",
                          "lucky, 5 players", "yardstick, 3 players", "yardstick, 5 players"]
    for configuration, (cpu, wall, ratio) in rows.items():
        assert rate(cpu) > 0 and rate(wall) > 0
        n = configuration.split(", ")[1]
        assert float(ratio.rstrip("×")) == pytest.approx(
            rate(cpu) / rate(rows[f"yardstick, {n}"][0]), rel=0.05, abs=0.05)
    text = " ".join(out.split())
    for words in ["games/s per core (CPU time)", "games/s by the wall clock", "÷ yardstick"]:
        assert all(word in text for word in words.split())  # the header wraps
    assert "Compile (or load from cache):" in text and "CPU-s" in text
    assert "Load average" in text and "at the end (1 minute;" in text
    assert "the yardstick: the Python driver, every seat first_move.py:FirstMove (3 games)" in text


def test_bench_rates_per_core_count_cpu_time_not_waiting(simulate, monkeypatch):
    monkeypatch.setenv("FAKE_GAME_PAUSE", "0.1")  # each timing sleeps 0.1 s: no CPU
    code, out, _ = simulate("bench", "saboteur", "--players", "3", "--strategies", "default",
                            "--games", "20", "--repeat", "1", "--scaling-games", "0")
    assert code == 0
    cpu, wall, _ = bench_rows(out)["default, 3 players"]
    assert rate(wall) < 20 / 0.1 < 5 * 20 / 0.1 < rate(cpu)


def test_bench_times_fewer_yardstick_games_than_take_its_cpu_budget(simulate, monkeypatch):
    from sim.studies import bench

    monkeypatch.setattr(bench, "YARDSTICK_SECONDS", 0.0)
    code, out, _ = simulate("bench", "saboteur", "--players", "3", "--strategies", "default",
                            "--games", "200", "--repeat", "1", "--scaling-games", "0")
    assert code == 0
    assert "every seat first_move.py:FirstMove (1 game)." in " ".join(out.split())


def test_bench_cpu_time_counts_the_workers_that_ended(tmp_path):
    from sim.studies import bench

    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"
    timing = bench._timed(lambda: subprocess.run([sys.executable, "-c", burn], check=True))
    assert timing.cpu >= 0.3


def test_bench_times_scaling_in_cpu_terms_with_local_workers_and_a_dask_cluster(simulate):
    pytest.importorskip("distributed")
    code, out, _ = simulate("bench", "saboteur", "--players", "3", "--strategies", "default",
                            "--games", "30", "--repeat", "1", "--scaling-games", "600", "--dask")
    assert code == 0
    out = " ".join(out.replace("│", " ").split())  # the table wraps long cells
    # worker scaling in CPU terms, the wall clock's speed-up with the load beside it
    assert "runs of 6 players" in out and "1 worker, 600 games" in out  # the test game: 2-6
    assert "2 workers, 600 games" in out and out.count("games/CPU-s") == 2
    assert "1 → 2 workers, CPU-s" in out and "faster at load" in out
    assert "Dask LocalCluster" in out and "of 2 local" in out


def test_bench_refuses_an_unknown_strategy(simulate):
    code, _, err = simulate("bench", "saboteur", "--strategies", "default,clever")
    assert code == 2 and err.startswith("error: unknown strategy 'clever'")


def test_games_lists_each_game_with_its_player_range(simulate):
    code, out, _ = simulate("games")
    assert code == 0 and "fake" in out and "2–6 players" in out


def test_the_installed_command_shows_no_traceback_for_user_errors(tmp_path):
    done = subprocess.run([sys.executable, "-m", "sim.cli", "resume", str(tmp_path / "nowhere")],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == f"error: {tmp_path / 'nowhere'} is not a run folder (it has no manifest.json)\n"


def test_help_lists_the_games_and_commands():
    done = subprocess.run([sys.executable, "-m", "sim.cli", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    for word in ["saboteur", "trace", "bench", "resume", "games"]:
        assert word in done.stdout


def test_report_writes_the_report_of_a_run(simulate, tmp_path):
    simulate("saboteur", "--players", "3", "--games", "40", "--workers", "1", "--out", "run", "--quiet")
    code, out, err = simulate("report", "run", "--out", "balance")
    assert (code, err) == (0, "")
    assert (tmp_path / "balance" / "report.md").is_file()
    assert "balance/report.md" in out


def test_compare_seats_every_strategy_everywhere_on_the_same_games(simulate, tmp_path, monkeypatch):
    from reports import compare

    compared = []
    monkeypatch.setattr(compare, "print_comparison", lambda run, **_: compared.append(run))
    code, _, err = simulate("compare", "saboteur", "--strategies", "default,lucky", "--players", "3",
                            "--games", "30", "--seed", "4", "--workers", "1", "--out", "vs", "--quiet")
    assert (code, err) == (0, "")
    (run,) = compared
    assert [s.seats for s in run.setups] == [("default", "lucky", "default"), ("lucky", "default", "lucky")]
    assert run.manifest["games_done"] == 60


def test_compare_refuses_a_single_strategy(simulate):
    code, _, err = simulate("compare", "saboteur", "--strategies", "default", "--players", "3")
    assert code == 2 and err.startswith("error: compare needs at least two strategies")


def test_compile_plays_one_game_of_each_kind_of_play_and_says_its_cpu_time(
        simulate, fake_game, tmp_path, monkeypatch):
    from sim.run import warm

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    code, out, err = simulate("compile", "fake", "--quiet")
    assert code == 0 and re.fullmatch(r"fake: \d+\.\d CPU-s\n", out)
    assert [(seats, stop - start) for seats, start, stop in fake_game.played] == [
        (("default", "default"), 1), ((warm.PYTHON_BOT, "default"), 1)]
    assert warm.is_compiled("fake")


def test_compile_of_an_unknown_game_compiles_nothing(simulate, fake_game):
    code, out, err = simulate("compile", "fake", "nope")
    assert code == 2 and err.startswith("error: unknown game 'nope'") and err.count("\n") == 1
    assert not fake_game.played
