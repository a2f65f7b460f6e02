"""Errors of the operating system (a full disk, a read-only file system, a denied permission)
are named as such in one line, exit code 2, whether the games run in this process, in worker
processes or on Dask, and when `simulate report` writes; the games finished are kept.

The full disk is a 64 KiB tmpfs mounted by the test (we run as root in CI); where mounting is
not permitted those tests are skipped, and the monkeypatched ones still run."""

import errno
import subprocess

import pytest


@pytest.fixture
def small_disk(tmp_path, tmpfs):
    """Gives a folder on a freshly mounted 64 KiB tmpfs (unmounted afterwards)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    tmpfs(disk, "64k")
    return disk


def fill(simulate, out, *extra):
    return simulate("saboteur", "--players", "6", "--games", "20000", "--chunk-size", "1000",
                    "--seed", "1", "--out", str(out), "--quiet", *extra)


def assert_one_line_naming(err, cause):
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"error: {cause} ("), err


@pytest.mark.parametrize("how", [["--workers", "1"], ["--workers", "2"]])
def test_a_full_disk_is_named_from_this_process_and_from_workers(simulate, small_disk, how):
    code, _, err = fill(simulate, small_disk / "run", *how)
    assert code == 2
    assert_one_line_naming(err, "no space left on device")
    assert "died" not in err


def test_a_full_disk_is_named_on_dask(simulate, small_disk):
    pytest.importorskip("distributed")
    code, _, err = fill(simulate, small_disk / "run", "--backend", "dask", "--workers", "1")
    assert code == 2
    assert_one_line_naming(err, "no space left on device")


def test_a_full_disk_keeps_the_finished_games_and_says_how_to_resume(simulate, small_disk):
    code, _, err = fill(simulate, small_disk / "run", "--workers", "1")
    run = small_disk / "run"
    if not list(run.glob("games/*.parquet")):
        pytest.skip("the disk filled before the first chunk")
    assert err.endswith(f"; the finished games are kept: once that is solved, continue with "
                        f"'simulate resume {run}'\n")


def test_a_report_on_a_full_disk_is_one_line(simulate, small_disk, tmp_path):
    simulate("saboteur", "--players", "3", "--games", "200", "--seed", "1", "--workers", "1",
             "--out", "run", "--quiet")
    code, _, err = simulate("report", "run", "--out", str(small_disk / "report"))
    assert code == 2
    assert_one_line_naming(err, "no space left on device")


def test_a_read_only_file_system_is_named(simulate, small_disk):
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    code, _, err = simulate("saboteur", "--players", "3", "--games", "20", "--workers", "1",
                            "--out", str(small_disk / "run"), "--quiet")
    assert code == 2 and err.count("\n") == 1
    assert "read-only file system" in err.lower()


@pytest.mark.parametrize("number, cause", [(errno.ENOSPC, "no space left on device"),
                                           (errno.EROFS, "read-only file system"),
                                           (errno.EACCES, "permission denied")])
def test_an_os_error_writing_a_shard_is_named(simulate, monkeypatch, number, cause):
    from sim.run import store

    def refuse(path, played, shards):
        name = store.shard_name(played.chunk.setup, played.chunk.start)
        raise OSError(number, "refused", str(path / "games" / name))

    monkeypatch.setattr(store, "write_chunk", refuse)
    code, _, err = simulate("saboteur", "--players", "3", "--games", "20", "--workers", "1",
                            "--out", "run", "--quiet")
    assert (code, err) == (2, f"error: {cause} (run/games/s000-g000000000.parquet)\n")
