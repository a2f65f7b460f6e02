"""Nothing is lost: a run stopped by SIGTERM, by `kill -9` of everything, or by the death of
one worker process keeps its finished games, and resuming gives exactly the uninterrupted
run's tables (no game missing, none twice)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from sim.run import runner
from sim.game import Setup

FAKE_CLI = Path(__file__).parents[1] / "fake_cli.py"
GAMES = 1200
CHUNK = 100  # 12 chunks


def command(out, *extra):
    return [sys.executable, str(FAKE_CLI), "fake", "--players", "3", "--games", str(GAMES),
            "--chunk-size", str(CHUNK), "--workers", "2", "--seed", "11", "--out", str(out),
            "--quiet", *extra]


def uninterrupted(game, out):
    setup = Setup(3, ("default",) * 3, (("saboteurs", None),))
    return tables(runner.run(game, game.load_rules(None, []), [setup], GAMES, 11, out, 1,
                             chunk_size=CHUNK, progress=False).path)


def tables(path):
    return {name: pl.scan_parquet(str(Path(path) / name / "*.parquet")).collect()
            .sort("game_id", *(["seat"] if name == "seats" else []))
            for name in ("games", "seats")}


def start_slow_run(out):
    """Starts the command in its own process group, each chunk taking 0.3 s, and gives it once
    three chunks are stored."""
    process = subprocess.Popen(command(out), env={**os.environ, "FAKE_GAME_PAUSE": "0.3"},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    deadline = time.monotonic() + 60
    while len(list(out.glob("games/*.parquet"))) < 3:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run stored no chunk within a minute"
        time.sleep(0.05)
    return process


def resume(out):
    done = subprocess.run([sys.executable, str(FAKE_CLI), "resume", str(out), "--workers", "2",
                           "--quiet"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def manifest(out):
    return json.loads((out / "manifest.json").read_text())


def test_sigterm_stops_a_run_cleanly_and_resuming_completes_it(fake_game, tmp_path):
    out = tmp_path / "cut"
    process = start_slow_run(out)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 143  # 128 + SIGTERM; Ctrl-C (SIGINT) is 130
    assert stderr.strip() == (f"interrupted: finished games are kept; continue with"
                              f" 'simulate resume {out}'")
    stored = len(list(out.glob("chunks/*.json")))  # chunks done (a shard may lack its record)
    assert manifest(out)["status"] == "interrupted"
    assert manifest(out)["games_done"] == CHUNK * stored < GAMES
    assert not list(out.glob("**/.tmp-*")), "half-written shards vanish"

    resume(out)
    whole = uninterrupted(fake_game, tmp_path / "whole")
    resumed = tables(out)
    for name in whole:
        assert resumed[name].equals(whole[name]), name
    assert (manifest(out)["status"], manifest(out)["games_done"]) == ("complete", GAMES)


def test_a_run_killed_with_sigkill_resumes_to_the_uninterrupted_tables(fake_game, tmp_path):
    out = tmp_path / "killed"
    process = start_slow_run(out)
    os.killpg(process.pid, signal.SIGKILL)  # the command and its workers, as a crash would
    process.communicate(timeout=60)
    assert manifest(out)["status"] == "running", "a killed run could not say anything"

    subprocess.run(command(out, "--resume"), check=True, capture_output=True, timeout=120)
    whole = uninterrupted(fake_game, tmp_path / "whole")
    resumed = tables(out)
    for name in whole:
        assert resumed[name].equals(whole[name]), name
    assert resumed["games"]["game_id"].is_unique().all()
    assert not list(out.glob("**/.tmp-*"))


def test_a_worker_killed_midway_costs_nothing(fake_game, tmp_path, monkeypatch):
    marker = tmp_path / "a-worker-died"
    monkeypatch.setenv("FAKE_GAME_DIE_ONCE", str(marker))
    setup = Setup(3, ("default",) * 3, (("saboteurs", None),))
    run = runner.run(fake_game, fake_game.load_rules(None, []), [setup], GAMES, 11,
                     tmp_path / "run", 2, chunk_size=CHUNK, progress=False)
    assert marker.exists(), "a worker process was killed"
    monkeypatch.delenv("FAKE_GAME_DIE_ONCE")
    whole = uninterrupted(fake_game, tmp_path / "whole")
    survived = tables(run.path)
    for name in whole:
        assert survived[name].equals(whole[name]), name
    assert run.manifest["status"] == "complete"


@pytest.mark.parametrize("flag, message", [
    (["--seed", "12"], "it was run with seed 11, not 12"),
    (["--games", "1300"], "it was run with games_per_setup 1200, not 1300"),
    (["--set", "flips=6"], "its rules differ at 'flips'"),
])
def test_resume_refuses_a_run_of_other_parameters_and_changes_nothing(fake_game, tmp_path, flag,
                                                                      message):
    out = tmp_path / "run"
    uninterrupted(fake_game, out)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    args = command(out, "--resume")
    if flag[0] in args:
        args[args.index(flag[0]) + 1] = flag[1]
    else:
        args += flag
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"error: cannot resume {out}: {message}"]
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
