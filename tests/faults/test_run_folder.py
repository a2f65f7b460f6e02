"""Damage every kind of file of a finished run folder: `simulate report` refuses it in one line
(or, with --allow-partial, reports it with a warning), and `simulate resume` either plays back
exactly the games that were lost or refuses in one line, changing nothing."""

import json
import shutil

import pytest

from sim.run.store import record_name, shard_name

RUN = ["saboteur", "--players", "3,5", "--games", 600, "--chunk-size", 100, "--seed", 42,
       "--workers", 1, "--quiet"]
CHUNK = (1, 200)  # the damaged chunk: games 200-299 of the second configuration


@pytest.fixture
def finished(simulate, tmp_path):
    """Gives (the run folder to damage, an untouched copy of it)."""
    code, _, err = simulate(*RUN, "--out", "run")
    assert code == 0, err
    shutil.copytree(tmp_path / "run", tmp_path / "whole")
    return tmp_path / "run", tmp_path / "whole"


def shard(run, table):
    return run / table / shard_name(*CHUNK)


def record(run):
    return run / "chunks" / record_name(*CHUNK)


DAMAGE = {
    "games shard deleted": lambda run: shard(run, "games").unlink(),
    "seats shard deleted": lambda run: shard(run, "seats").unlink(),
    "games shard truncated": lambda run: shard(run, "games").write_bytes(shard(run, "games").read_bytes()[:200]),
    "seats shard truncated": lambda run: shard(run, "seats").write_bytes(shard(run, "seats").read_bytes()[:200]),
    "seats shard emptied": lambda run: shard(run, "seats").write_bytes(b""),
    "games shard altered": lambda run: shard(run, "games").write_bytes(
        shard(run, "games").read_bytes().replace(b"PAR1", b"PAR2", 1)),
    "chunk record deleted": lambda run: record(run).unlink(),
    "chunk record truncated": lambda run: record(run).write_text(record(run).read_text()[:40]),
    "chunk record miscounting": lambda run: record(run).write_text(
        record(run).read_text().replace('"rows": 100', '"rows": 90', 1)),
    "chunk record without its seats entry": lambda run: edit_record(
        run, lambda r: r["tables"].pop("seats")),
    "chunk record counting rows in words": lambda run: edit_record(
        run, lambda r: r["tables"]["seats"].update(rows="three hundred")),
    "chunk record without its successes": lambda run: edit_record(run, lambda r: r.pop("successes")),
    "chunk record naming a table the game lacks": lambda run: edit_record(
        run, lambda r: r["tables"].update(extra=r["tables"]["seats"])),
}


def edit_record(run, change):
    data = json.loads(record(run).read_text())
    change(data)
    record(run).write_text(json.dumps(data))


def one_line(err):
    assert err.count("\n") == 1 and err.startswith("error: "), err
    return err.strip()


@pytest.mark.parametrize("damage", DAMAGE, ids=list(DAMAGE))
def test_a_run_missing_or_damaging_a_piece_is_refused_by_report_and_restored_by_resume(
        simulate, finished, run_tools, damage):
    run, whole = finished
    DAMAGE[damage](run)
    code, _, err = simulate("report", "run")
    assert code == 2
    assert one_line(err).startswith("error: run is not a whole run: ")
    assert "simulate resume run" in err and "--allow-partial" in err

    code, _, err = simulate("resume", "run", "--workers", 1, "--quiet")
    assert code == 0, err
    assert run_tools.same(run, whole)
    manifest = json.loads((run / "manifest.json").read_text())
    assert (manifest["status"], manifest["games_done"]) == ("complete", 1200)
    assert simulate("report", "run")[0] == 0


def test_a_partial_report_says_so_in_the_report(simulate, finished):
    run, _ = finished
    DAMAGE["seats shard deleted"](run)
    code, out, err = simulate("report", "run", "--allow-partial")
    assert code == 0, err
    assert "Warning: partial results" in out
    report = (run / "report" / "report.md").read_text()
    assert "## Warning: partial results" in report
    assert f"shard run/seats/{shard_name(*CHUNK)} is missing" in report
    assert "1,100" in (run / "report" / "report.md").read_text() or "1100" in report


@pytest.mark.parametrize("status, said", [
    ("interrupted", "it was interrupted: 1,200 of 1,200 games"),
    ("running", "it stopped before it finished (status 'running': killed?)"),
])
def test_a_run_not_marked_complete_is_refused_by_report(simulate, finished, status, said):
    run, _ = finished
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps(manifest | {"status": status}))
    code, _, err = simulate("report", "run")
    assert code == 2 and said in one_line(err)


def test_a_games_count_other_than_the_manifests_is_refused_by_report(simulate, finished):
    run, _ = finished
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps(manifest | {"games_done": 1300}))
    code, _, err = simulate("report", "run")
    assert code == 2 and "its manifest says 1300 games are done, its chunk records hold 1,200" in one_line(err)


def test_a_shard_of_no_chunk_is_refused_by_report(simulate, finished):
    run, _ = finished
    shutil.copy(shard(run, "games"), run / "games" / "copy.parquet")
    code, _, err = simulate("report", "run")
    assert code == 2 and "run/games/copy.parquet belongs to no chunk the run keeps" in one_line(err)


def test_resume_deletes_no_file_it_did_not_write(simulate, finished, run_tools):
    run, whole = finished
    (run / "analysis").mkdir()  # the user's own work beside the run's tables
    shutil.copy(shard(run, "games"), run / "analysis" / "mine.parquet")
    (run / "analysis" / ".tmp-notes.txt").write_text("mine")
    shutil.copy(shard(run, "seats"), run / "seats" / "copy.parquet")  # a foreign name
    shutil.copy(shard(run, "seats"), run / "seats" / shard_name(7, 0))  # beyond the plan
    theirs = {p: p.read_bytes() for p in (run / "analysis" / "mine.parquet",
                                          run / "analysis" / ".tmp-notes.txt",
                                          run / "seats" / "copy.parquet",
                                          run / "seats" / shard_name(7, 0))}
    DAMAGE["games shard deleted"](run)
    code, _, err = simulate("resume", "run", "--workers", 1, "--quiet")
    assert code == 0, err
    assert {p: p.read_bytes() for p in theirs} == theirs
    for table in ("games", "seats"):  # the lost games played back, exactly
        assert {p.name: p.read_bytes() for p in (run / table).glob("s00[01]-*.parquet")} == \
            {p.name: p.read_bytes() for p in (whole / table).glob("*.parquet")}
    code, _, err = simulate("report", "run")  # pooling run/seats/*.parquet would count twice
    assert code == 2 and "run/seats/copy.parquet belongs to no chunk the run keeps (nor do 1 " \
        "more)" in one_line(err)
    (run / "seats" / "copy.parquet").unlink()
    (run / "seats" / shard_name(7, 0)).unlink()
    assert simulate("report", "run")[0] == 0, "a folder of the user's is no table of the run"
    assert (run / "analysis" / "mine.parquet").exists()


@pytest.mark.parametrize("key, value", [("seed", 43), ("chunk_size", 1000),
                                        ("games_per_setup", 700), ("until_ci", 0.01),
                                        ("rules", {"flips": 6}), ("format", 1), ("setups", []),
                                        ("code", {"sources": {}, "bots": {}, "version": None})])
def test_an_edited_manifest_is_refused_and_nothing_changes(simulate, finished, key, value):
    run, _ = finished
    DAMAGE["games shard deleted"](run)
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps(manifest | {key: value}))
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    for command in (["resume", "run", "--workers", 1], ["report", "run"]):
        code, _, err = simulate(*command)
        assert code == 2
        assert one_line(err) == ("error: run/manifest.json was edited: its run parameters no "
                                 "longer match the hash saved with them; put back the original "
                                 "file, or start a new run")
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("damage, message", [
    (lambda m: m.unlink(), "error: run has lost its manifest.json: the run's parameters are gone"),
    (lambda m: m.write_text(m.read_text()[:50]), "error: cannot read run/manifest.json: "),
    (lambda m: m.write_text(""), "error: cannot read run/manifest.json: "),
])
def test_a_lost_or_cut_manifest_is_one_line_for_report_and_resume(simulate, finished, damage,
                                                                   message):
    run, _ = finished
    damage(run / "manifest.json")
    for command in (["resume", "run", "--workers", 1], ["report", "run"],
                    [*RUN, "--out", "run", "--resume"]):
        code, _, err = simulate(*command)
        assert code == 2 and one_line(err).startswith(message)


@pytest.mark.parametrize("key, value, said", [
    ("setups", [], "setups holds [], not a list of configurations"),
    ("setups", [{"players": "five"}], 'setups holds [{"players": "five"}], not a list of configurations'),
    ("seed", "eleven", 'seed holds "eleven", not a seed (a whole number from 0)'),
    ("chunk_size", -100, "chunk_size holds -100, not a number of games"),
    ("games_per_setup", None, "games_per_setup holds null, not a number of games"),
    ("rules", None, "rules holds null, not a table of rules"),
    ("elapsed_seconds", "long", 'elapsed_seconds holds "long", not a number of seconds'),
    ("game", None, "game holds null, not a game's name"),
    ("versions", 5, "versions holds 5, not a table of versions"),
    ("resumes", [{"git_revision": 7}], 'resumes holds [{"git_revision": 7}], not a list of resumes'),
])
def test_a_manifest_of_the_wrong_kinds_is_one_line_even_with_its_hash_made_again(
        simulate, finished, key, value, said):
    from sim.run.store import parameters_hash

    run, _ = finished
    DAMAGE["games shard deleted"](run)
    manifest = json.loads((run / "manifest.json").read_text()) | {key: value}
    manifest["parameters_hash"] = parameters_hash(manifest)
    (run / "manifest.json").write_text(json.dumps(manifest))
    before = {p: p.read_bytes() for p in run.rglob("*") if p.is_file()}
    for command in (["resume", "run", "--workers", 1], ["report", "run"]):
        code, _, err = simulate(*command)
        assert code == 2
        assert one_line(err) == (f"error: run/manifest.json: {said}; put back the original "
                                 "file, or start a new run")
    assert {p: p.read_bytes() for p in run.rglob("*") if p.is_file()} == before


def test_a_report_names_every_revision_a_run_was_played_by(simulate, finished):
    run, _ = finished
    manifest = json.loads((run / "manifest.json").read_text())
    manifest |= {"git_revision": "a" * 40, "resumes": [{"git_revision": "a" * 40},
                                                      {"git_revision": "b" * 40}]}
    (run / "manifest.json").write_text(json.dumps(manifest))  # neither is hashed
    assert simulate("report", "run")[0] == 0
    assert "| aaaaaaaaaa → bbbbbbbbbb |" in (run / "report" / "report.md").read_text()
