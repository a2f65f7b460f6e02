"""Run folders: manifest, atomic shards, chunk records, finished and damaged chunks, the lock."""

import io
import json

import polars as pl
import pytest

from sim.run.chunks import Chunk, Played
from sim.errors import UserError
from sim.game import Setup
from sim.run import store
from sim.run.store import Run, new_manifest, record_name, shard_name, write_chunk

SETUPS = [Setup(3, ("default",) * 3, (("saboteurs", None),))]


def manifest(**changes):
    made = new_manifest("fake", {"flips": 5}, SETUPS, 7, 1000, 250, "simulate fake")
    return made | changes


def parquet(frame):
    buffer = io.BytesIO()
    frame.write_parquet(buffer)
    return buffer.getvalue()


def write(run, start, tables=("games", "seats"), owner=None):
    """Writes the chunk of the run starting at `start` (its 250 games)."""
    ids = list(range(start, start + 250))
    frames = {"seats": pl.DataFrame({"game_id": ids * 2}), "games": pl.DataFrame({"game_id": ids})}
    played = Played(Chunk(0, start, start + 250), 1.0, len(ids), (1.0, len(ids), 1.0),
                    owner or run.manifest["parameters_hash"], {t: frames[t].height for t in tables})
    write_chunk(run.path, played, {t: parquet(frames[t]) for t in tables})


def test_a_new_run_folder_holds_its_manifest(tmp_path):
    run = Run.create(tmp_path / "runs" / "one", manifest())
    run.unlock()
    on_disk = json.loads((tmp_path / "runs" / "one" / "manifest.json").read_text())
    assert on_disk == run.manifest
    assert on_disk["format"] == 2 and on_disk["status"] == "running"
    assert on_disk["games_requested"] == 1000 and on_disk["games_done"] == 0
    assert set(on_disk["versions"]) == {"python", "tabletop-balance", "numpy", "numba", "polars"}
    assert on_disk["git_revision"] is None or len(on_disk["git_revision"]) == 40
    assert len(on_disk["parameters_hash"]) == 64
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


def test_shards_and_records_are_renamed_into_place_with_no_temporary_left(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    write(run, 0)
    write(run, 250)
    assert sorted(p.name for p in (run.path / "games").iterdir()) == [shard_name(0, 0), shard_name(0, 250)]
    assert sorted(p.name for p in (run.path / "chunks").iterdir()) == [record_name(0, 0), record_name(0, 250)]
    assert not list(run.path.glob("**/.tmp-*"))
    assert run.scan("games").collect()["game_id"].sort().to_list() == list(range(500))
    assert pl.scan_parquet(str(run.path / "seats" / "*.parquet")).collect().height == 1000
    record = json.loads((run.path / "chunks" / record_name(0, 250)).read_text())
    assert record["tables"]["seats"]["rows"] == 500 and record["stop"] == 500
    assert run.done_chunks() == {(0, 0), (0, 250)}


def test_a_chunk_is_done_only_when_its_record_is_written(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    write(run, 0)
    (run.path / "games").joinpath(shard_name(0, 250)).write_bytes(parquet(pl.DataFrame({"game_id": [5]})))
    assert run.done_chunks() == {(0, 0)}
    assert run.scan("games").collect().height == 250, "a shard with no record is not read"


@pytest.mark.parametrize("table", ["games", "seats"])
def test_a_chunk_missing_any_tables_shard_is_not_done(tmp_path, table):
    run = Run.create(tmp_path / "run", manifest())
    write(run, 0)
    write(run, 250)
    (run.path / table / shard_name(0, 250)).unlink()
    assert run.done_chunks() == {(0, 0)}
    assert list(run.damaged_chunks().values()) == [f"shard {run.path / table / shard_name(0, 250)} is missing"]


@pytest.mark.parametrize("damage", [lambda b: b[:100], lambda b: b"", lambda b: b[:50] + b"X" + b[51:]])
def test_a_truncated_emptied_or_altered_shard_is_damaged(tmp_path, damage):
    run = Run.create(tmp_path / "run", manifest())
    write(run, 0)
    shard = run.path / "seats" / shard_name(0, 0)
    shard.write_bytes(damage(shard.read_bytes()))
    assert list(run.damaged_chunks()) == [Chunk(0, 0, 250)]
    assert "is damaged" in run.damaged_chunks()[Chunk(0, 0, 250)]


def test_a_cut_short_record_or_one_of_other_parameters_does_not_count(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    write(run, 0)
    write(run, 250, owner="0" * 64)
    write(run, 500)
    record = run.path / "chunks" / record_name(0, 500)
    record.write_text(record.read_text()[:30])
    assert run.done_chunks() == {(0, 0)}


def test_starting_to_write_removes_temporaries_and_damaged_chunks(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    write(run, 0)
    write(run, 250)
    run.unlock()
    stale = run.path / "seats" / ".tmp-s000-g000000500.parquet.123"
    stale.write_bytes(b"half")
    (run.path / "seats" / shard_name(0, 250)).write_bytes(b"PAR1")
    assert run.scan("seats").collect().height == 500  # neither the temporary nor the damaged chunk
    again = Run.open(run.path)
    again.start_writing()
    assert not stale.exists()
    assert again.done_chunks() == {(0, 0)}
    assert not (run.path / "games" / shard_name(0, 250)).exists()
    assert not (run.path / "chunks" / record_name(0, 250)).exists()


def test_one_process_writes_a_run_at_a_time(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    other = Run.open(run.path)
    with pytest.raises(UserError, match=r"is being written by another simulate \(process \d+\)"):
        other.start_writing()
    run.unlock()
    other.start_writing()
    assert other.writer() is not None and run.writer() is not None
    other.unlock()
    assert run.writer() is None


def test_an_edited_manifest_is_refused(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    file = run.path / "manifest.json"
    file.write_text(file.read_text().replace('"chunk_size": 250', '"chunk_size": 300'))
    with pytest.raises(UserError, match="manifest.json was edited"):
        Run.open(run.path)


def test_a_run_of_the_format_before_chunk_records_is_read_but_not_resumed(tmp_path):
    old = manifest(format=1)
    del old["parameters_hash"]
    (tmp_path / "manifest.json").write_text(json.dumps(old))
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / shard_name(0, 0)).write_bytes(parquet(pl.DataFrame({"game_id": [0, 1]})))
    run = Run.open(tmp_path)
    assert run.scan("games").collect().height == 2 and run.done_chunks() == {(0, 0)}
    with pytest.raises(UserError, match="earlier version of simulate .* can be reported but not resumed"):
        run.start_writing()


def test_a_run_that_lost_its_manifest_says_so(tmp_path):
    run = Run.create(tmp_path / "run", manifest())
    write(run, 0)
    (run.path / "manifest.json").unlink()
    with pytest.raises(UserError, match="has lost its manifest.json"):
        Run.open(run.path)


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
        write(run, 0)
    assert run.done_chunks() == set()


def test_a_process_reads_the_package_versions_once_and_each_manifest_gets_its_own_copy(
        monkeypatch):
    store._versions_read.cache_clear()
    read, version = [], store.metadata.version
    monkeypatch.setattr(store.metadata, "version", lambda name: read.append(name) or version(name))
    first = manifest()["versions"]
    first["numba"] = "changed"
    assert manifest()["versions"]["numba"] == version("numba")
    assert store.version() == version("tabletop-balance")
    assert sorted(read) == ["numba", "numpy", "polars", "tabletop-balance"]
    store._versions_read.cache_clear()  # the versions the real function reads, for later tests
