"""Runs: chunk plans, determinism whatever the executor, interruption and resume."""

import json
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.run import runner
from sim.run.chunks import Chunk, Prefix, default_chunk_size, half_width, plan, stopping_point
from sim.errors import UserError
from sim.game import Setup

GAMES = 500


def setups(*players):
    return [Setup(n, ("default",) * n, (("saboteurs", None),)) for n in players]


def play(game, out, workers=1, chunk_size=None, resume=False, seed=11, rules=None, sweep=(3, 5)):
    rules = rules or game.load_rules(None, [])
    return runner.run(game, rules, setups(*sweep), GAMES, seed, out, workers,
                      chunk_size=chunk_size, resume=resume, progress=False)


def tables(run):
    return {"games": run.scan("games").collect().sort("game_id"),
            "seats": run.scan("seats").collect().sort("game_id", "seat")}


def assert_same_tables(a, b):
    for name in ("games", "seats"):
        assert a[name].equals(b[name]), name


def test_a_plan_covers_every_game_of_every_configuration_once():
    chunks = plan(2, 1000, 300)
    assert chunks[:4] == [Chunk(0, 0, 300), Chunk(0, 300, 600), Chunk(0, 600, 900), Chunk(0, 900, 1000)]
    assert sum(c.stop - c.start for c in chunks) == 2000
    assert {c.setup for c in chunks} == {0, 1}


@settings(deadline=None)  # a loaded machine is no defect of the plan
@given(setups=st.integers(1, 5), games=st.integers(1, 3000), size=st.integers(1, 5000))
def test_every_game_is_in_exactly_one_chunk_whatever_the_chunk_size(setups, games, size):
    covered = [(c.setup, i) for c in plan(setups, games, size) for i in range(c.start, c.stop)]
    assert sorted(covered) == [(k, i) for k in range(setups) for i in range(games)]
    assert all(0 < c.stop - c.start <= size for c in plan(setups, games, size))


@pytest.mark.parametrize("games, workers, size", [
    (1000, 4, 200), (1_000_000, 4, 7_812), (10_000_000, 2, 20_000), (640_000, 2, 10_000),
])
def test_the_default_chunk_gives_each_worker_about_32_within_bounds(games, workers, size):
    assert default_chunk_size(games, workers) == size


def test_a_run_stores_every_game_with_its_setup_and_a_unique_id(fake_game, tmp_path):
    run = play(fake_game, tmp_path / "run", chunk_size=150)
    games = tables(run)["games"]
    assert games["game_id"].to_list() == list(range(2 * GAMES))
    assert games["setup"].dtype == pl.Int16
    assert games.group_by("setup").agg(pl.col("players").unique()).sort("setup")["players"].to_list() == [[3], [5]]
    manifest = json.loads((run.path / "manifest.json").read_text())
    assert (manifest["status"], manifest["games_done"], manifest["games_requested"]) == ("complete", 1000, 1000)
    # compiled before any chunk, by playing one game of what the run plays (one kind here:
    # every seat `default`, whatever the player count)
    assert fake_game.played[0] == (("default",) * 3, 0, 1)
    assert [stop - start for _, start, stop in fake_game.played[1:]] == [150, 150, 150, 50] * 2


def test_a_run_compiles_each_kind_of_play_it_plays_once_and_nothing_else(fake_game, tmp_path):
    rules = fake_game.load_rules(None, [])
    runner.run(fake_game, rules, [Setup(3, ("default",) * 3), Setup(4, ("default",) * 4),
                                  Setup(3, ("lucky", "default", "default"))],
               10, 1, tmp_path / "run", 1, progress=False)
    assert fake_game.played[:2] == [(("default",) * 3, 0, 1),
                                    (("lucky", "default", "default"), 0, 1)]
    assert all(stop - start == 10 for _, start, stop in fake_game.played[2:])
    assert not fake_game.compiled, "not the game's compile(), which compiles more than it plays"


def test_results_do_not_depend_on_workers_or_chunk_size(fake_game, tmp_path):
    serial = tables(play(fake_game, tmp_path / "serial", workers=1, chunk_size=500))
    pooled = tables(play(fake_game, tmp_path / "pooled", workers=2, chunk_size=120))
    assert_same_tables(serial, pooled)
    assert not list(tmp_path.glob("**/.tmp-*"))


def test_a_different_seed_gives_different_games(fake_game, tmp_path):
    a = tables(play(fake_game, tmp_path / "a"))
    b = tables(play(fake_game, tmp_path / "b", seed=12))
    assert not a["seats"].equals(b["seats"])


def interrupt_after(monkeypatch, game, chunks):
    """Makes the game's play raise KeyboardInterrupt once `chunks` chunks have been played,
    leaving a half-written shard behind as a killed worker would."""
    real_play = game.play
    played = []

    def play(rules, setup, seed, start, stop, id_offset):
        if stop - start > 1:  # a chunk, not the game that compiles the run's play (sim/run/warm.py)
            if len(played) == chunks:
                raise KeyboardInterrupt
            played.append(start)
        return real_play(rules, setup, seed, start, stop, id_offset)

    monkeypatch.setattr(game, "play", play)
    return lambda: monkeypatch.setattr(game, "play", real_play)


def test_an_interrupted_run_keeps_finished_chunks_and_resumes_to_the_same_tables(
        fake_game, tmp_path, monkeypatch):
    whole = tables(play(fake_game, tmp_path / "whole", chunk_size=100))
    restore = interrupt_after(monkeypatch, fake_game, 3)
    with pytest.raises(KeyboardInterrupt):
        play(fake_game, tmp_path / "cut", chunk_size=100)
    manifest = json.loads((tmp_path / "cut" / "manifest.json").read_text())
    assert (manifest["status"], manifest["games_done"]) == ("interrupted", 300)
    assert len(list((tmp_path / "cut" / "games").glob("*.parquet"))) == 3

    restore()
    (tmp_path / "cut" / "seats" / ".tmp-s001-g000000000.parquet.99").write_bytes(b"half")
    resumed = tables(play(fake_game, tmp_path / "cut", workers=2, resume=True))
    assert_same_tables(whole, resumed)
    assert resumed["games"]["game_id"].is_unique().all()
    assert not list(tmp_path.glob("**/.tmp-*"))
    manifest = json.loads((tmp_path / "cut" / "manifest.json").read_text())
    assert (manifest["status"], manifest["games_done"], manifest["chunk_size"]) == ("complete", 1000, 100)


def test_resuming_replays_only_missing_chunks(fake_game, tmp_path, monkeypatch):
    run = play(fake_game, tmp_path / "run", chunk_size=100)
    whole = tables(run)
    for shard in ["s000-g000000200.parquet", "s001-g000000400.parquet"]:
        (run.path / "games" / shard).unlink()
    replayed = []
    real_play = fake_game.play
    monkeypatch.setattr(fake_game, "play", lambda *a: replayed.append(a[3:5]) or real_play(*a))
    assert_same_tables(whole, tables(play(fake_game, run.path, resume=True)))
    assert replayed[0] == (0, 1), "the game compiling what the run plays"
    assert sorted(replayed[1:]) == [(200, 300), (400, 500)]


def test_an_interrupted_run_with_nothing_finished_leaves_nothing(fake_game, tmp_path, monkeypatch):
    interrupt_after(monkeypatch, fake_game, 0)
    with pytest.raises(KeyboardInterrupt):
        play(fake_game, tmp_path / "runs" / "cut")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("change, message", [
    ({"seed": 12}, "it was run with seed 11, not 12"),
    ({"sweep": (3, 4)}, "it was run with setups"),
    ({"rules": "flips=6"}, "its rules differ at 'flips'"),
])
def test_resuming_with_other_parameters_names_the_difference(fake_game, tmp_path, change, message):
    play(fake_game, tmp_path / "run")
    if "rules" in change:
        change = {"rules": fake_game.load_rules(None, [change["rules"]])}
    with pytest.raises(UserError, match=message):
        play(fake_game, tmp_path / "run", resume=True, **change)


def test_an_unwritable_out_fails_before_anything_is_played(fake_game, tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.raises(UserError, match="cannot write the run folder"):
        play(fake_game, tmp_path / "file" / "run")
    assert not fake_game.played


def test_zero_games_workers_or_chunk_size_are_refused(fake_game, tmp_path):
    rules = fake_game.load_rules(None, [])
    with pytest.raises(UserError, match="--games must be at least 1, got 0"):
        runner.run(fake_game, rules, setups(3), 0, 1, tmp_path / "r", 1, progress=False)
    with pytest.raises(UserError, match="--workers must be at least 1, got 0"):
        runner.run(fake_game, rules, setups(3), 10, 1, tmp_path / "r", 0, progress=False)
    with pytest.raises(UserError, match="--chunk-size must be at least 1, got -5"):
        runner.run(fake_game, rules, setups(3), 10, 1, tmp_path / "r", 1, chunk_size=-5, progress=False)
    assert not (tmp_path / "r").exists()


def test_a_short_run_stays_in_this_process(fake_game, tmp_path, monkeypatch):
    # Starting workers costs more than a run this short takes: no pool is started.
    monkeypatch.setattr(runner, "POOL_AFTER", 60.0)

    def no_pool(*args):
        raise AssertionError("a worker pool was started")

    monkeypatch.setattr(runner, "Processes", no_pool)
    pooled = tables(play(fake_game, tmp_path / "short", workers=2, chunk_size=120))
    assert_same_tables(pooled, tables(play(fake_game, tmp_path / "one", workers=1)))


def headline_half_widths(run):
    frame = run.scan("games").group_by("setup").agg(
        (pl.col("winner") == 0).sum().alias("s"), pl.len().alias("n")).collect().sort("setup")
    return {row["setup"]: (row["n"], half_width(row["s"], row["n"]))
            for row in frame.iter_rows(named=True)}


def test_until_ci_stops_each_configuration_once_its_interval_is_narrow_enough(fake_game, tmp_path):
    rules = fake_game.load_rules(None, [])
    run = runner.run(fake_game, rules, setups(3, 5), 20_000, 11, tmp_path / "ci", 2,
                     chunk_size=100, progress=False, until_ci=0.03)
    widths = headline_half_widths(run)
    for games, half in widths.values():
        assert half <= 0.03
        assert games < 2_000, "far fewer games than the cap of 20,000"
    assert run.manifest["until_ci"] == 0.03 and run.manifest["status"] == "complete"
    again = runner.run(fake_game, rules, setups(3, 5), 20_000, 11, tmp_path / "again", 1,
                       chunk_size=100, progress=False, until_ci=0.03)
    assert headline_half_widths(again) == widths, "the stop depends on seed and chunks only"


def test_an_adaptive_run_stops_at_the_shortest_precise_prefix_of_its_chunks():
    chunks = plan(1, 1000, 100)
    # a 50% rate, 100 games of one trial a chunk: (successes, trials, Σs², Σt², Σs·t)
    counts = {c: (50.0, 100.0, 50.0, 100.0, 50.0) for c in chunks}
    # ± 0.05 needs about 384 trials: the first four chunks.
    assert stopping_point(chunks, counts, 0.05) == Prefix(4, 400, 200.0, 400.0, True)
    assert stopping_point(chunks, counts, 0.01) == Prefix(10, 1000, 500.0, 1000.0, True)
    assert stopping_point(chunks, counts, None).chunks == 10
    # A chunk unplayed before the point: undecided, whatever was played after it.
    gap = {c: n for c, n in counts.items() if c.start != 200}
    assert stopping_point(chunks, gap, 0.05) == Prefix(2, 200, 100.0, 200.0, False)


def test_until_ci_stops_at_the_game_cap_when_the_target_is_out_of_reach(fake_game, tmp_path):
    run = runner.run(fake_game, fake_game.load_rules(None, []), setups(3), 300, 11,
                     tmp_path / "cap", 1, chunk_size=100, progress=False, until_ci=0.001)
    ((games, half),) = headline_half_widths(run).values()
    assert games == 300 and half > 0.001


def test_until_ci_must_be_a_half_width(fake_game, tmp_path):
    with pytest.raises(UserError, match="--until-ci takes a half-width between 0 and 0.5"):
        runner.run(fake_game, fake_game.load_rules(None, []), setups(3), 300, 11,
                   tmp_path / "r", 1, progress=False, until_ci=0.7)


def test_an_adaptive_run_stops_where_the_interval_on_effective_trials_is_narrow_enough():
    # 100 games a chunk of 3 trials each that all go one way: half the games win all 3, so the
    # design effect is 3 and a chunk is worth 100 effective trials, not 300.
    chunks = plan(1, 3000, 100)
    clustered = {c: (150.0, 300.0, 50 * 9.0, 100 * 9.0, 50 * 9.0) for c in chunks}
    point = stopping_point(chunks, clustered, 0.05)
    assert point == Prefix(4, 400, 600.0, 1200.0, True, 3.0)
    assert half_width(600.0, 1200.0, 3.0) <= 0.05 < half_width(450.0, 900.0, 3.0)
    # the same rate from independent trials (each game wins 1.5 of 3): deff 1, two chunks
    independent = {c: (150.0, 300.0, 100 * 2.25, 100 * 9.0, 100 * 4.5) for c in chunks}
    assert stopping_point(chunks, independent, 0.05) == Prefix(2, 200, 300.0, 600.0, True)


def test_until_ci_stops_on_the_interval_the_summary_prints(fake_game, tmp_path, monkeypatch):
    from reports.summary import summary_frame
    from sim.game import Headline

    # three trials a game that all go one way (as a game's rounds may): a design effect of 3
    monkeypatch.setattr(fake_game, "headline", Headline(
        "first seat wins thrice", 3 * (pl.col("winner") == 0).cast(pl.Int64), pl.lit(3)))
    run = runner.run(fake_game, fake_game.load_rules(None, []), setups(3), 20_000, 11,
                     tmp_path / "ci", 1, chunk_size=100, progress=False, until_ci=0.03)
    frame = summary_frame(run)
    assert (frame["high"][0] - frame["low"][0]) / 2 <= 0.03, "the summary's interval meets it"
    counts = run.counts()
    assert frame["games"][0] == sum(c.games for c in counts)
    # the prefix one chunk shorter did not meet it (on the same interval: a plain Wilson
    # interval on its 3 trials a game would have, far earlier)
    last = max(counts, key=lambda c: c.start)
    del counts[last]
    shorter = stopping_point(run.plan(), counts, 0.03)
    assert not shorter.final and shorter.deff > 2.5
    assert half_width(shorter.successes, shorter.trials, shorter.deff) > 0.03
    assert half_width(shorter.successes, shorter.trials) < 0.03


def test_a_script_without_a_main_guard_runs_on_worker_processes(tmp_path):
    # Spawned workers used to run the calling script again (as __mp_main__): its run started
    # anew in each worker, which died, and the run stopped ("a worker process died 3 times").
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import sys\n"
        f"sys.path[:0] = [{str(Path(__file__).parents[1])!r}]\n"
        "from sim import games, rules\n"
        "from sim.run import runner\n"
        "from pathlib import Path\n"
        "from sim.game import Setup\n"
        "games.GAMES['fake'] = 'fake_game'\n"
        f"rules.CONFIGS = Path({str(Path(__file__).parents[1] / 'configs')!r})\n"
        "runner.POOL_AFTER = 0.0\n"
        "game = games.get('fake')\n"
        "run = runner.run(game, game.load_rules(None, []), [Setup(3, ('default',) * 3)], 200,"
        f" 1, {str(tmp_path / 'run')!r}, 2, chunk_size=50, progress=False)\n"
        "print('games', run.scan('games').collect().height)\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split() == ["games", "200"]


def test_a_python_seat_is_stood_in_for_in_the_warm_up_game():
    """The game a run plays to compile before its workers start never runs a user's bot: its
    Python seats play the example FirstMove, which compiles the same Python driver."""
    from sim.run import warm

    setup = Setup(3, ("/home/me/bots.py:Mine", "default", "/home/me/bots.py:Mine-no-rockfall"))
    (played,) = warm.kinds([setup])
    assert played.seats == (warm.PYTHON_BOT, "default", f"{warm.PYTHON_BOT}-no-rockfall")
    assert warm.PYTHON_BOT.endswith("first_move.py:FirstMove")
    assert Path(warm.PYTHON_BOT.rpartition(":")[0]).is_file()
