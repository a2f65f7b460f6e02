"""Run folders: manifest, atomic shards, finished chunks."""

import io
import json

import polars as pl
import pytest

from sim.errors import UserError
from sim.game import Setup
from sim.store import Run, new_manifest, shard_name, write_chunk

SETUPS = [Setup(3, ("default",) * 3, (("saboteurs", None),))]


def manifest(**changes):
    made = new_manifest("fake", {"flips": 5}, SETUPS, 7, 1000, 250, "simulate fake")
    return made | changes


def parquet(frame):
    buffer = io.BytesIO()
    frame.write_parquet(buffer)
    return buffer.getvalue()


def chunk_tables(ids):
    return {"seats": parquet(pl.DataFrame({"game_id": ids * 2})),
            "games": parquet(pl.DataFrame({"game_id": ids}))}


def test_a_new_run_folder_holds_its_manifest(tmp_path):
    run = Run.create(tmp_path / "runs" / "one", manifest())
    on_disk = json.loads((tmp_path / "runs" / "one" / "manifest.json").read_text())
    assert on_disk == run.manifest
    assert on_disk["format"] == 1 and on_disk["status"] == "running"
    assert on_disk["games_requested"] == 1000 and on_disk["games_done"] == 0
    assert set(on_disk["versions"]) == {"python", "tabletop-balance", "numpy", "numba", "polars"}
    assert on_disk["git_revision"] is None or len(on_disk["git_revision"]) == 40
    assert Run.open(run.path).setups == SETUPS


def test_a_run_folder_is_not_created_where_a_run_already_is(tmp_path):
    Run.create(tmp_path / "run", manifest())
    with pytest.raises(UserError, match="already exists.*simulate resume"):
        Run.create(tmp_path / "run", manifest())


def test_an_unwritable_place_is_a_user_error_and_leaves_nothing(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(UserError, match="cannot write the run folder"):
        Run.create(tmp_path / "file" / "run", manifest())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_a_discarded_run_removes_only_the_folders_it_made(tmp_path):
    run = Run.create(tmp_path / "runs" / "one", manifest())
    run.discard()
    assert list(tmp_path.iterdir()) == []


def test_shards_are_renamed_into_place_with_no_temporary_left(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    write_chunk(run.path, chunk_tables([0, 1]), 0, 0)
    write_chunk(run.path, chunk_tables([2, 3]), 0, 2)
    assert sorted(p.name for p in (run.path / "games").iterdir()) == [shard_name(0, 0), shard_name(0, 2)]
    assert not list(run.path.glob("**/.tmp-*"))
    assert run.scan("games").collect()["game_id"].sort().to_list() == [0, 1, 2, 3]
    assert pl.scan_parquet(str(run.path / "seats" / "*.parquet")).collect().height == 8


def test_a_chunk_is_done_only_when_its_games_shard_exists(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    write_chunk(run.path, chunk_tables([0]), 0, 0)
    write_chunk(run.path, {"seats": parquet(pl.DataFrame({"game_id": [5]}))}, 0, 250)
    assert run.done_chunks() == {(0, 0)}


def test_opening_for_writing_removes_stale_temporaries(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    write_chunk(run.path, chunk_tables([0]), 0, 0)
    stale = run.path / "seats" / ".tmp-s000-g000000250.parquet.123"
    stale.write_bytes(b"half")
    assert run.scan("seats").collect().height == 2  # a temporary never matches *.parquet
    Run.open_for_writing(run.path)
    assert not stale.exists()
    assert (run.path / "seats" / shard_name(0, 0)).exists()


def test_a_run_without_shards_has_no_games_yet(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    with pytest.raises(UserError, match=f"run {run.path} has no games yet"):
        run.scan("games")


def test_a_folder_without_a_manifest_is_not_a_run(tmp_path):
    with pytest.raises(UserError, match="is not a run folder"):
        Run.open(tmp_path)


def test_an_unreadable_manifest_is_a_user_error(tmp_path):
    (tmp_path / "manifest.json").write_text("{not json")
    with pytest.raises(UserError, match="cannot read .*manifest.json"):
        Run.open(tmp_path)


def test_a_chunk_whose_other_tables_failed_to_write_is_not_done(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    (run.path / "seats").write_text("")  # a file where the seats folder should be
    with pytest.raises(OSError):
        write_chunk(run.path, chunk_tables([0]), 0, 0)
    assert run.done_chunks() == set()


def test_a_damaged_shard_is_named(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    write_chunk(run.path, chunk_tables([0]), 0, 0)
    write_chunk(run.path, chunk_tables([1]), 0, 250)
    (run.path / "seats" / shard_name(0, 250)).write_bytes(b"PAR1 not really")
    with pytest.raises(UserError, match=r"cannot read shard .*seats/s000-g000000250.parquet"):
        run.check_shards()
