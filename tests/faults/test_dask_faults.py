"""Dask failures: a cluster that loses all its workers or its scheduler ends the run in one
line with the games finished kept, and resuming gives the uninterrupted run's tables; Ctrl-C
on a Dask run exits 130 with one line and no worker's traceback."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import dask
import polars as pl
import pytest

from sim.run import cluster, runner
from sim.errors import UserError
from sim.game import Setup

distributed = pytest.importorskip("distributed")

FAKE_CLI = Path(__file__).parents[1] / "sim" / "fake_cli.py"
GAMES, CHUNK = 1000, 100


def play(game, out, **how):
    setup = Setup(3, ("default",) * 3, (("saboteurs", None),))
    return runner.run(game, game.load_rules(None, []), [setup], GAMES, 7, out, 1,
                      chunk_size=CHUNK, progress=False, **how)


def tables(path):
    return {name: pl.scan_parquet(str(Path(path) / name / "*.parquet")).collect()
            .sort("game_id", *(["seat"] if name == "seats" else []))
            for name in ("games", "seats")}


def once_a_chunk_is_stored(out, act):
    """Starts a thread that does `act()` once the run in `out` has stored a chunk."""
    def watch():
        deadline = time.monotonic() + 60
        while not list(out.glob("games/*.parquet")) and time.monotonic() < deadline:
            time.sleep(0.02)
        act()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


@pytest.fixture
def slow_chunks(monkeypatch):
    monkeypatch.setenv("FAKE_GAME_PAUSE", "0.2")


@pytest.mark.parametrize("loss, message", [
    ("workers", "the Dask cluster lost all its workers"),
    ("scheduler", "lost the Dask scheduler (inproc://"),
])
def test_a_lost_cluster_is_one_line_and_the_run_resumes(fake_game, tmp_path, monkeypatch,
                                                        slow_chunks, loss, message):
    monkeypatch.setattr(cluster, "NO_WORKERS_SECONDS", 1)
    monkeypatch.setattr(cluster, "POLL_SECONDS", 0.2)
    monkeypatch.setattr(cluster, "CLOSE_SECONDS", 1)
    # A client waits this long for a lost scheduler to come back.
    monkeypatch.setitem(dask.config.config["distributed"]["comm"]["timeouts"], "connect", "1s")
    out = tmp_path / "run"
    lost = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                    dashboard_address=None)
    try:
        watcher = once_a_chunk_is_stored(out, (lambda: lost.scale(0)) if loss == "workers"
                                         else lambda: lost.sync(lost.scheduler.close))
        with pytest.raises(UserError) as error:
            play(fake_game, out, backend="dask", scheduler=lost.scheduler_address)
        watcher.join()
    finally:
        lost.close()
    assert message in str(error.value) and "\n" not in str(error.value)
    monkeypatch.delenv("FAKE_GAME_PAUSE")
    resumed = play(fake_game, out, resume=True)
    assert resumed.manifest["status"] == "complete"
    uninterrupted = tables(play(fake_game, tmp_path / "whole").path)
    for name, frame in tables(out).items():
        assert frame.equals(uninterrupted[name]), name


def test_ctrl_c_on_a_dask_run_is_one_line_and_exit_130(tmp_path):
    out = tmp_path / "run"
    process = subprocess.Popen(
        [sys.executable, str(FAKE_CLI), "saboteur", "--players", "3", "--games", "2000",
         "--chunk-size", "100", "--seed", "3", "--backend", "dask", "--workers", "1",
         "--out", str(out), "--quiet"],
        env={**os.environ, "FAKE_GAME_PAUSE": "0.2"}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while not list(out.glob("games/*.parquet")):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run stored no chunk within two minutes"
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (
        130, f"interrupted: finished games are kept; continue with 'simulate resume {out}'\n")


def test_losing_the_scheduler_of_a_cli_run_is_one_line_without_distributed_logs(tmp_path):
    """The client's own log lines (reconnect attempts, tracebacks) are not shown: only ours."""
    env = {**os.environ, "FAKE_GAME_PAUSE": "0.2",
           "PYTHONPATH": os.pathsep.join([str(FAKE_CLI.parent), os.environ.get("PYTHONPATH", "")])}
    address = tmp_path / "scheduler.json"
    quiet = {"env": env, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler",
                                  "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                  "--scheduler-file", str(address)], **quiet)
    worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                               "--scheduler-file", str(address), "--nthreads", "1",
                               "--no-nanny", "--no-dashboard"], **quiet)
    try:
        deadline = time.monotonic() + 60
        while not address.exists():
            assert time.monotonic() < deadline, "the scheduler did not start within a minute"
            time.sleep(0.1)
        time.sleep(0.5)  # the file is written whole by then
        where = json.loads(address.read_text())["address"]
        out = tmp_path / "run"
        run = subprocess.Popen(
            [sys.executable, str(FAKE_CLI), "saboteur", "--players", "3", "--games", "5000",
             "--chunk-size", "100", "--seed", "3", "--backend", "dask", "--scheduler", where,
             "--out", str(out), "--quiet"], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        while not list(out.glob("games/*.parquet")):
            assert run.poll() is None, run.communicate()
            assert time.monotonic() < deadline, "the run stored no chunk within a minute"
            time.sleep(0.05)
        scheduler.kill()
        _, err = run.communicate(timeout=120)
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait()
    assert run.returncode == 2 and err.count("\n") == 1, err
    assert err.startswith(f"error: lost the Dask scheduler ({where}): "), err
