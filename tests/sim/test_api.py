"""The Python API (sim/api.py): the command line's runs, tables with labels, reports and
comparisons, and one clear UserError for every bad argument."""

import io
from pathlib import Path

import polars as pl
import pytest

import sim.run.warm
from sim import api, live
from sim.errors import UserError

EXAMPLES = Path(__file__).parents[2] / "strategies" / "examples"


@pytest.fixture
def small(tmp_path):
    return dict(games=8, seed=5, workers=1)


def test_a_run_plays_the_games_the_command_plays(simulate, tmp_path, small):
    run = api.run("saboteur", players=[4, 5], out=tmp_path / "api", **small)
    code, _, _ = simulate("saboteur", "--players", "4,5", "--games", 8, "--seed", 5,
                          "--workers", 1, "--out", tmp_path / "cli", "--quiet")
    assert code == 0
    cli = api.open_run(tmp_path / "cli")
    assert run.games().equals(cli.games()) and run.seats().equals(cli.seats())
    assert run.seed == 5 and run.game == "saboteur" and len(run.configurations) == 2


def test_a_run_on_a_dask_cluster_gives_the_tables_of_a_local_run(tmp_path, small):
    distributed = pytest.importorskip("distributed")
    # a Python seat too: its bot moves in a Dask worker's thread, timed when each move returns
    asked = dict(players=[3, 4], seats={0: f"{EXAMPLES}/first_move.py:FirstMove"}, **small)
    local = api.run("saboteur", out=tmp_path / "local", **asked)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        remote = api.run("saboteur", out=tmp_path / "dask", backend="dask",
                         scheduler=cluster.scheduler_address, **asked)
    assert remote.games().equals(local.games()) and remote.seats().equals(local.seats())
    assert remote.seats()["strategy"].to_list()[0] == "first_move.py:FirstMove"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_run_shows_what_plays_its_compile_and_its_progress_unless_quiet(
        tmp_path, small, monkeypatch, capsys):
    # a script or a notebook sees a long run move, the first compile of an engine included
    monkeypatch.setattr(sim.run.warm, "is_compiled", lambda name: False)  # as on a cold cache
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    api.run("saboteur", players=4, out=tmp_path / "shown", **small)
    assert "compiling Saboteur" in terminal.getvalue() and "8/8" in terminal.getvalue()
    assert "Saboteur: 1 configuration(s) × 8 games, seed 5" in capsys.readouterr().out
    terminal.seek(0)
    terminal.truncate()
    api.run("saboteur", players=4, out=tmp_path / "quiet", quiet=True, **small)
    # (not Saboteur: a comparison's report keeps its defaults, which tests/reports stand in for)
    api.compare("sequence-stacks", ["default", "random"], players=3, out=tmp_path / "c",
                quiet=True, **small)
    assert terminal.getvalue() == "" and capsys.readouterr().out == ""


def test_a_notebook_shows_the_progress_a_pipe_does_not(monkeypatch):
    monkeypatch.setattr("sys.stderr", io.StringIO())  # a pipe, a log file
    assert live.stderr_console() is None
    monkeypatch.setattr("rich.console._is_jupyter", lambda: True)
    assert live.stderr_console() is not None


def test_tables_carry_their_labels(tmp_path, small):
    run = api.run("saboteur", players=5, rules={"hand_size.5": [5, 6]}, out=tmp_path / "r",
                  **small)
    seats = run.seats()
    assert seats.columns[:3] == ["game_id", "setup", "configuration"]
    assert sorted(seats["configuration"].unique()) == run.configurations
    assert any("hand_size.5=6" in label for label in run.configurations)
    assert set(run.table("rounds")["role"].unique()) <= {"miner", "saboteur"}
    summary = run.summary()
    assert summary.height == 2 and (summary["low"] <= summary["rate"]).all()


def test_a_report_and_a_comparison_over_two_player_counts(tmp_path, small):
    run = api.run("sequence-stacks", players=3, out=tmp_path / "r", **small)
    assert (api.report(run, out=tmp_path / "report") / "report.md").is_file()
    duel = api.compare("sequence-stacks", ["default", "random"], players="2,3",
                       out=tmp_path / "c", **small)
    h2h = duel.head_to_head
    assert sorted(h2h["players"].unique()) == [2, 3]
    assert set(h2h["strategy"]) == {"default", "random"}
    assert duel.ranking.group_by("players").len()["len"].to_list() == [2, 2]


@pytest.mark.parametrize("call, message", [
    (lambda: api.run("saboteur", players=2, games=1), "saboteur takes 3–10 players, got 2"),
    (lambda: api.run("chess", players=2, games=1), "unknown game 'chess'"),
    (lambda: api.run("spit", players=2, games=1, saboteurs=2), "spit does not take saboteurs"),
    (lambda: api.run("saboteur", players=5, games=1, board="b.toml"), "saboteur does not take board"),
    (lambda: api.run("saboteur", players=5, games=1, rules={"hand_size.5": []}),
     "an empty list sweeps nothing"),
    (lambda: api.run("saboteur", players=7, games=1, rules={"hand_size.5": [4, 5]}),
     "hand_size.5 applies to 5 players; this run plays 7"),
    (lambda: api.compare("saboteur", ["default", "random"], players=7, games=1,
                         rules={"hand_size.5": 4}),
     "hand_size.5 applies to 5 players; this run plays 7"),
    (lambda: api.run("saboteur", players=5, games=0), "must be at least 1, got 0"),
    (lambda: api.compare("saboteur", ["default"], players=5, games=1), "at least two strategies"),
    (lambda: api.tune("sequence-stacks", players=2, trials=0), "--trials must be at least 1, got 0"),
    (lambda: api.tune("sequence-stacks", players=2, role="miner"), "has no roles to tune"),
    (lambda: api.ladder("sequence-stacks", players=2, by_role=True), "has no roles"),
    (lambda: api.balance("sequence-stacks", players=2, vary=["x=1"], precision=0.7),
     "--precision takes a half-width"),
    (lambda: api.bench("sequence-stacks", repeat=0), "--repeat must be at least 1, got 0"),
])
def test_a_bad_argument_is_one_user_error(tmp_path, monkeypatch, call, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError, match=message) as e:
        call()
    assert "\n" not in str(e.value) and not (tmp_path / "runs").exists()


def test_a_table_the_game_lacks_is_a_user_error(tmp_path, small):
    run = api.run("sequence-stacks", players=2, out=tmp_path / "r", **small)
    with pytest.raises(UserError, match="sequence-stacks has no table 'rounds'; its tables: "):
        run.table("rounds")
    assert isinstance(run.games(), pl.DataFrame)


def test_a_games_own_option_is_a_keyword_by_its_declared_name(tmp_path, small):
    run = api.run("saboteur", players=4, saboteurs=[1, 2], out=tmp_path / "r", **small)
    assert run.configurations == ["4p saboteurs=1 default", "4p saboteurs=2 default"]
    assert [s["options"] for s in run.manifest["setups"]] == [{"saboteurs": 1},
                                                              {"saboteurs": 2}]


def test_a_trace_prints_the_game_a_run_plays_and_gives_its_tables(tmp_path, small):
    shown = io.StringIO()
    tables = api.trace("sequence-stacks", players=2, seed=5, game_index=3, out=shown)
    run = api.run("sequence-stacks", players=2, out=tmp_path / "r", **small)
    assert shown.getvalue().startswith("Sequence Stacks, 2 players, seed 5, game 3; seats: ")
    played = run.games().filter(pl.col("game_id") == 3)
    assert tables["games"]["winner"].to_list() == played["winner"].to_list()
    assert tables["games"]["turns"].to_list() == played["turns"].to_list()
