"""Stop a run every way it can stop (kill -9 at chunk boundaries, chunks cut away, a second
writer, a read-only folder) and resume it: the tables are exactly the uninterrupted run's, or
the command ends in one line (exit 2) having changed nothing."""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from sim.run.store import Run, record_name, shard_name

FAKE_CLI = Path(__file__).parents[1] / "sim" / "fake_cli.py"
FIXED = ["saboteur", "--players", "3,5", "--games", 600, "--chunk-size", 100, "--seed", 42,
         "--quiet"]
# Configuration 0 needs about 2,000 games for ± 0.02, configuration 1 about 2,100: several waves.
ADAPTIVE = ["saboteur", "--players", "3,5", "--until-ci", 0.02, "--games", 20_000,
            "--chunk-size", 100, "--seed", 3, "--quiet"]


def cut_after(run, setup, keep):
    """Removes every chunk (shards and record) of a configuration but its first `keep`, as an
    interrupted run would have left it."""
    for table in ("games", "seats", "chunks"):
        for piece in sorted((run / table).glob(f"s{setup:03d}-*"))[keep:]:
            piece.unlink()


@pytest.mark.parametrize("setup, keep", [(0, 1), (0, 4), (1, 3), (0, 0)])
def test_an_adaptive_run_cut_short_resumes_to_the_uninterrupted_games(simulate, tmp_path,
                                                                      run_tools, setup, keep):
    code, _, err = simulate(*ADAPTIVE, "--workers", 1, "--out", "whole")
    assert code == 0, err
    games = run_tools.tables(tmp_path / "whole")["games"]
    per_setup = games.group_by("setup").len().sort("setup")["len"].to_list()
    assert all(1_000 < n < 20_000 for n in per_setup), per_setup
    shutil.copytree(tmp_path / "whole", tmp_path / "cut")
    cut_after(tmp_path / "cut", setup, keep)

    code, _, err = simulate("resume", "cut", "--workers", 1, "--quiet")
    assert code == 0, err
    assert run_tools.same(tmp_path / "cut", tmp_path / "whole")
    assert simulate("report", "cut")[0] == 0


def test_an_adaptive_run_keeps_no_chunk_past_its_stopping_point(simulate, tmp_path):
    code, _, err = simulate(*ADAPTIVE, "--workers", 1, "--out", "whole")
    assert code == 0, err
    run = Run.open(tmp_path / "whole")
    kept, known = run.kept_chunks()
    assert known and set(run.records()) == set(kept)
    assert {p.name for p in (run.path / "seats").iterdir()} == \
        {shard_name(c.setup, c.start) for c in kept}
    assert run.manifest["games_done"] == sum(c.games for c in kept)


def test_an_adaptive_run_of_records_without_sums_resumes_to_the_same_games(simulate, tmp_path,
                                                                           run_tools):
    # Records written before they held the headline's sums of squares: those are read from
    # the chunks' games shards, so the stopping point is the same.
    code, _, err = simulate(*ADAPTIVE, "--workers", 1, "--out", "whole")
    assert code == 0, err
    shutil.copytree(tmp_path / "whole", tmp_path / "old")
    for path in (tmp_path / "old" / "chunks").glob("*.json"):
        record = json.loads(path.read_text())
        del record["sums"]
        path.write_text(json.dumps(record))
    assert Run.open(tmp_path / "old").counts() == Run.open(tmp_path / "whole").counts()
    cut_after(tmp_path / "old", 1, 3)
    code, _, err = simulate("resume", "old", "--workers", 1, "--quiet")
    assert code == 0, err
    assert run_tools.same(tmp_path / "old", tmp_path / "whole")
    assert simulate("report", "old")[0] == 0


def command(*args):
    return [sys.executable, str(FAKE_CLI), *map(str, args)]


def start_slow(args, out, chunks=0, hold: Path | None = None):
    """Starts `simulate ARGS` in its own process group, each chunk taking 0.3 s (and none
    finishing while the file `hold` exists), and gives it once it holds the run folder's lock
    and `chunks` chunks are recorded."""
    env = {**os.environ, "FAKE_GAME_PAUSE": "0.3"}
    if hold is not None:
        env["FAKE_GAME_HOLD"] = str(hold)
    process = subprocess.Popen(command(*args), env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    deadline = time.monotonic() + 90
    while not ((out / "manifest.json").exists() and Run.open(out).writer()
               and len(list(out.glob("chunks/*.json"))) >= chunks):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run recorded too few chunks within 90 s"
        time.sleep(0.05)
    return process


def kill(process):
    os.killpg(process.pid, signal.SIGKILL)  # the command and its workers, as a crash would
    process.communicate(timeout=60)


def finish(out):
    done = subprocess.run(command("resume", out, "--workers", 2, "--quiet"),
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("args, chunks", [(FIXED, 1), (ADAPTIVE, 3)],
                         ids=["fixed-after-1", "until-ci-after-3"])
def test_a_run_killed_at_a_chunk_boundary_resumes_to_the_uninterrupted_tables(
        simulate, tmp_path, run_tools, args, chunks):
    out = tmp_path / "killed"
    kill(start_slow([*args, "--workers", 2, "--out", out], out, chunks))
    assert Run.open(out).manifest["status"] == "running", "a killed run could not say anything"
    assert Run.open(out).writer() is None, "the dead run's lock is free to take"

    finish(out)
    assert simulate(*args, "--workers", 1, "--out", "whole")[0] == 0
    assert run_tools.same(out, tmp_path / "whole")
    assert not list(out.glob("**/.tmp-*"))
    assert simulate("report", "killed")[0] == 0


@pytest.mark.parametrize("first", ["run", "resume"])
def test_a_second_writer_of_a_run_folder_is_refused_in_one_line(simulate, tmp_path, run_tools,
                                                                 first):
    # The live run plays no chunk until the checks are done: it used to finish first under load.
    out, hold = tmp_path / "run", tmp_path / "hold"
    hold.touch()
    if first == "run":
        live = start_slow([*FIXED, "--workers", 1, "--out", out], out, hold=hold)
    else:
        assert simulate(*FIXED, "--workers", 1, "--out", "run")[0] == 0
        cut_after(out, 0, 1)
        cut_after(out, 1, 0)
        live = start_slow(["resume", out, "--workers", 1, "--quiet"], out, hold=hold)
    for second in (["resume", "run", "--workers", 1], [*FIXED, "--out", "run", "--resume"]):
        code, _, err = simulate(*second)
        assert code == 2
        assert err == (f"error: run is being written by another simulate (process {live.pid}); "
                       "wait for it to end, or stop it, then retry\n")
    code, _, err = simulate("report", "run")
    assert code == 2 and f"it is still being written (process {live.pid})" in err
    code, _, err = simulate(*FIXED, "--out", "run")  # a new run into the live one's folder
    assert (code, err) == (2, "error: run already holds a run; choose another --out or continue "
                              "it with 'simulate resume run'\n")
    assert live.poll() is None, "the live run ended before the checks"
    hold.unlink()
    _, stderr = live.communicate(timeout=180)
    assert live.returncode == 0, stderr
    assert simulate(*FIXED, "--workers", 1, "--out", "whole")[0] == 0
    assert run_tools.same(out, tmp_path / "whole")


@pytest.fixture
def read_only(tmp_path):
    """Gives a function mounting a copy of a folder read-only (a bind mount: we run as root,
    for whom permissions do not stop a write), and unmounts it afterwards."""
    mounted = []

    def mount(source: Path) -> Path:
        target = tmp_path / f"{source.name}-read-only"
        target.mkdir()
        for args in (["--bind", source, target], ["-o", "remount,ro,bind", target]):
            done = subprocess.run(["mount", *map(str, args)], capture_output=True, text=True)
            if done.returncode:
                if mounted or args[0] != "--bind":
                    subprocess.run(["umount", str(target)], capture_output=True)
                pytest.skip(f"cannot mount a folder read-only here: {done.stderr.strip()}")
            if args[0] == "--bind":
                mounted.append(target)
        return target

    yield mount
    for target in mounted:
        subprocess.run(["umount", str(target)], capture_output=True)


def test_resuming_on_a_read_only_folder_is_one_line_naming_it(simulate, tmp_path, read_only):
    assert simulate(*FIXED, "--workers", 1, "--out", "run")[0] == 0
    cut_after(tmp_path / "run", 1, 2)
    frozen = read_only(tmp_path / "run")
    before = {p: p.read_bytes() for p in frozen.rglob("*") if p.is_file()}
    code, _, err = simulate("resume", frozen.name, "--workers", 1)
    assert code == 2
    assert err == (f"error: cannot write to the run folder {frozen.name}: Read-only file "
                   "system (EROFS)\n")
    code, _, err = simulate("report", frozen.name, "--allow-partial")
    assert code == 2 and err.startswith(f"error: cannot write the report to {frozen.name}/report")
    code, _, err = simulate("report", frozen.name, "--allow-partial", "--out", "elsewhere")
    assert code == 0, err
    assert {p: p.read_bytes() for p in frozen.rglob("*") if p.is_file()} == before
    assert json.loads((frozen / "manifest.json").read_text())["status"] == "complete"
    assert not (frozen / "chunks" / record_name(1, 500)).exists()


def test_resume_on_a_folder_left_with_only_its_lock_starts_the_run_there(simulate, tmp_path,
                                                                         run_tools):
    # A run killed before it wrote its manifest leaves the folder and its lock file alone.
    (tmp_path / "early").mkdir()
    (tmp_path / "early" / ".lock").write_text("12345\n")
    code, _, err = simulate(*FIXED, "--workers", 1, "--out", "early", "--resume")
    assert (code, err) == (0, "")
    assert simulate(*FIXED, "--workers", 1, "--out", "whole")[0] == 0
    assert run_tools.same(tmp_path / "early", tmp_path / "whole")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / ".lock").write_text("12345\n")
    code, _, err = simulate("resume", "other")
    assert (code, err) == (2, "error: other holds no run: the one started there was stopped "
                              "before it wrote its manifest.json; start it again with the same "
                              "command and --out other\n")


def files(folder):
    return {p: p.read_bytes() for p in Path(folder).rglob("*") if p.is_file()}


@pytest.fixture
def editable_game(simulate, tmp_path, monkeypatch):
    """Gives the source file of a copy of the coin-flip game, standing in for it, that a test
    may edit between a run and its resume."""
    from sim import games

    folder = tmp_path / "plugin"
    folder.mkdir()
    copy = folder / "coin_copy.py"
    shutil.copy(FAKE_CLI.parent / "fake_game.py", copy)
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(games, "GAMES", {"fake": "coin_copy", "saboteur": "coin_copy:SABOTEUR"})
    return copy


def test_resume_refuses_a_run_whose_game_code_changed_and_force_plays_the_rest_apart(
        simulate, editable_game, tmp_path, run_tools):
    assert simulate(*FIXED, "--workers", 1, "--out", "whole")[0] == 0
    shutil.copytree(tmp_path / "whole", tmp_path / "run")
    cut_after(tmp_path / "run", 1, 2)  # configuration 1 lacks games 200-599
    before = files(tmp_path / "run")
    editable_game.write_text(editable_game.read_text() + "\n# a comment: code all the same\n")

    for resume in (["resume", "run", "--workers", 1], [*FIXED, "--out", "run", "--resume"]):
        code, _, err = simulate(*resume)
        assert (code, err) == (2, "error: cannot resume run: the game's code changed since the "
                                  "run started (coin_copy.py); its games and today's would mix "
                                  "(start again, or play the missing games into a new run folder "
                                  "with 'simulate resume run --force --out NEW')\n")
    assert files(tmp_path / "run") == before

    code, _, err = simulate("resume", "run", "--force", "--out", "rest", "--workers", 1, "--quiet")
    assert code == 0, err
    assert files(tmp_path / "run") == before, "--force leaves the run it continues as it is"
    rest, whole = run_tools.tables(tmp_path / "rest"), run_tools.tables(tmp_path / "whole")
    for name in rest:  # the missing games only, seeded as ever
        assert rest[name].equals(whole[name].filter((pl.col("setup") == 1)
                                                    & (pl.col("game_id") >= 800))), name
    manifest = json.loads((tmp_path / "rest" / "manifest.json").read_text())
    assert manifest["continues"]["run"] == "run" and manifest["games_done"] == 400
    assert manifest["code"]["sources"]["coin_copy.py"] != \
        json.loads((tmp_path / "run" / "manifest.json").read_text())["code"]["sources"]["coin_copy.py"]
    code, _, err = simulate("report", "run", "rest", "--allow-partial")
    assert (code, err) == (2, "error: rest holds the games run was missing, played by other "
                              "code ('simulate resume --force'): their games are not pooled; "
                              "report them one at a time\n")


def test_force_needs_a_new_folder_and_refuses_an_adaptive_run(simulate, tmp_path):
    assert simulate(*FIXED, "--workers", 1, "--out", "run")[0] == 0
    cut_after(tmp_path / "run", 0, 1)
    for args in (["--force"], ["--out", "new"]):
        code, _, err = simulate("resume", "run", *args)
        assert (code, err) == (2, "error: --force needs --out NEW (a new run folder for the "
                                  "missing games), and --out is only for --force\n")
    assert simulate("resume", "run", "--force", "--out", "run")[0] == 2  # it exists
    assert simulate(*ADAPTIVE, "--workers", 1, "--out", "adaptive")[0] == 0
    cut_after(tmp_path / "adaptive", 0, 1)
    code, _, err = simulate("resume", "adaptive", "--force", "--out", "new")
    assert code == 2 and "an --until-ci run's stopping point depends on all its games" in err
    assert not (tmp_path / "new").exists()


def test_a_run_that_did_not_record_its_code_is_not_resumed_without_force(simulate, tmp_path,
                                                                         run_tools):
    from sim.run.store import parameters_hash

    assert simulate(*FIXED, "--workers", 1, "--out", "whole")[0] == 0
    shutil.copytree(tmp_path / "whole", tmp_path / "old")
    manifest = json.loads((tmp_path / "old" / "manifest.json").read_text())
    del manifest["code"]  # as the versions before code records wrote it: its hash as they made it
    manifest["parameters_hash"] = parameters_hash(manifest)
    (tmp_path / "old" / "manifest.json").write_text(json.dumps(manifest))
    for record in (tmp_path / "old" / "chunks").glob("*.json"):
        record.write_text(record.read_text().replace(
            json.loads(record.read_text())["run"], manifest["parameters_hash"]))
    cut_after(tmp_path / "old", 0, 3)
    code, _, err = simulate("resume", "old", "--workers", 1)
    assert code == 2 and err.startswith("error: cannot resume old: the run was started by a "
                                        "version of simulate that did not record its code;")


def test_a_resumed_run_records_the_revision_and_versions_it_went_on_with(simulate, tmp_path):
    assert simulate(*FIXED, "--workers", 1, "--out", "run")[0] == 0
    started = json.loads((tmp_path / "run" / "manifest.json").read_text())
    cut_after(tmp_path / "run", 1, 2)
    assert simulate("resume", "run", "--workers", 1, "--quiet")[0] == 0
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["git_revision"] == started["git_revision"]  # the revision it started from
    [resumed] = manifest["resumes"]
    assert set(resumed) == {"at", "git_revision", "versions"}
    assert resumed["versions"] == started["versions"]


BOT = Path(__file__).parents[2] / "strategies" / "examples" / "first_move.py"
BOT_RUN = ["saboteur", "--players", 4, "--games", 60, "--chunk-size", 20, "--seed", 11,
           "--workers", 1, "--quiet"]


def test_resume_refuses_a_run_whose_python_bot_file_changed(simulate_games, tmp_path):
    bots = tmp_path / "bots.py"
    shutil.copy(BOT, bots)
    code, _, err = simulate_games(*BOT_RUN, "--seat-strategy", "0=bots.py:FirstMove", "--out", "run")
    assert code == 0, err
    cut_after(tmp_path / "run", 0, 1)
    bots.write_text(bots.read_text() + "\n# edited after the run started\n")
    code, _, err = simulate_games("resume", "run", "--workers", 1)
    assert code == 2
    assert err.startswith(f"error: cannot resume run: bots file {bots} changed since the run "
                          "started; its games and today's would mix")
    bots.unlink()
    code, _, err = simulate_games("resume", "run", "--workers", 1)
    assert code == 2 and f"bots file {bots} is gone" in err


def test_sighup_stops_a_run_as_sigterm_does(simulate, tmp_path, run_tools):
    # A closed terminal hangs up the command's process group.
    out = tmp_path / "hung-up"
    process = start_slow([*FIXED, "--workers", 2, "--out", out], out, chunks=1)
    os.killpg(process.pid, signal.SIGHUP)
    _, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (
        129, f"interrupted: finished games are kept; continue with 'simulate resume {out}'\n")
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
    finish(out)
    assert simulate(*FIXED, "--workers", 1, "--out", "whole")[0] == 0
    assert run_tools.same(out, tmp_path / "whole")
