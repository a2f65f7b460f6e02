"""Runs on Dask: a LocalCluster on 127.0.0.1 (started by the run, or already running) gives
exactly the tables of a local run; an unreachable scheduler is one clear error."""

import pytest

from sim.run import cluster, runner
from sim.errors import UserError
from sim.game import Setup

distributed = pytest.importorskip("distributed")

GAMES = 600


def setups():
    # A rule variant is a setup like any other: Dask plays it with its own rules.
    return [Setup(n, ("default",) * n, (("saboteurs", None),), rules) for n in (3, 4)
            for rules in ((("flips", 5),), (("flips", 9),))]


def play(game, out, **how):
    return runner.run(game, game.load_rules(None, []), setups(), GAMES, 5, out,
                      how.pop("workers", 2), chunk_size=100, progress=False, **how)


def tables(run):
    return {"games": run.scan("games").collect().sort("game_id"),
            "seats": run.scan("seats").collect().sort("game_id", "seat")}


def test_a_local_dask_cluster_gives_the_tables_of_a_local_run(fake_game, tmp_path):
    local = tables(play(fake_game, tmp_path / "local", workers=1))
    on_dask = play(fake_game, tmp_path / "dask", backend="dask")
    for name, frame in tables(on_dask).items():
        assert frame.equals(local[name]), name
    games = local["games"]
    assert (games["turns"] == games["rule.flips"] * games["players"]).all()  # each its own rules
    assert on_dask.manifest["status"] == "complete"
    assert not list(tmp_path.glob("**/.tmp-*"))


def test_a_run_on_a_running_scheduler(fake_game, tmp_path):
    local = tables(play(fake_game, tmp_path / "local", workers=1))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, host="127.0.0.1",
                                  dashboard_address=None) as running:
        remote = play(fake_game, tmp_path / "remote", backend="dask",
                      scheduler=running.scheduler_address)
    for name, frame in tables(remote).items():
        assert frame.equals(local[name]), name


def test_an_unreachable_scheduler_is_a_user_error_and_leaves_nothing(fake_game, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    with pytest.raises(UserError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        play(fake_game, tmp_path / "run", backend="dask", scheduler="tcp://127.0.0.1:9")
    assert not (tmp_path / "run").exists()


def test_a_scheduler_needs_the_dask_backend(fake_game, tmp_path):
    with pytest.raises(UserError, match="--scheduler needs --backend dask"):
        play(fake_game, tmp_path / "run", scheduler="tcp://127.0.0.1:9")
