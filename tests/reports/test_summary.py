"""The end-of-run summary equals direct polars queries on the run's shards, and says what it
means: the target, the verdict, the rules each configuration changes."""

import json
import re
import shutil

import polars as pl
import pytest
from rich.console import Console

from reports.runs import open_run
from reports.summary import print_summary, summary_frame
from sim.errors import UserError


def test_summary_rows_equal_direct_queries(saboteur_run):
    frame = summary_frame(open_run(saboteur_run))
    games = pl.read_parquet(saboteur_run / "games" / "*.parquet")
    seats = pl.read_parquet(saboteur_run / "seats" / "*.parquet")
    assert frame["setup"].to_list() == [0, 1, 2, 3]
    assert frame["configuration"].to_list() == ["4p default", "5p default",
                                                "5p saboteurs=2 default", "7p saboteurs=2 default"]
    for row in frame.iter_rows(named=True):
        g = games.filter(pl.col("setup") == row["setup"])
        assert row["games"] == g.height
        assert row["successes"] == g["miner_rounds"].sum()
        assert row["trials"] == 3 * g.height
        assert row["rate"] == pytest.approx(g["miner_rounds"].sum() / (3 * g.height))
        assert row["low"] < row["rate"] < row["high"]
        assert row["avg rounds won by saboteurs"] == pytest.approx((3 - g["miner_rounds"]).mean())
        assert row["stalled"] == pytest.approx(g["stalled"].mean())
        s = seats.filter(pl.col("setup") == row["setup"])
        for seat in range(7):
            want = s.filter(pl.col("seat") == seat)["won"].mean()
            if seat < row["players"]:
                assert row[f"s{seat}"] == pytest.approx(want)
            else:
                assert row[f"s{seat}"] is None


def test_summary_prints_rates_and_run_folder(saboteur_run):
    console = Console(record=True, width=200)
    print_summary(open_run(saboteur_run), console)
    text = console.export_text()
    assert "miners' round-win rate" in text and "7p saboteurs=2 default" in text
    assert "s6 " in text and str(saboteur_run) in text


def test_summary_of_a_run_without_games_is_one_user_error(tmp_path, runkit):
    empty = {k: v.clear() for k, v in runkit.tables(runkit.SETUPS, 1).items()}
    run = runkit.write(tmp_path / "empty", runkit.SETUPS, empty)
    manifest = json.loads((run / "manifest.json").read_text())  # a run of one game a setup,
    manifest.update(games_per_setup=1, games_requested=len(runkit.SETUPS))  # none finished
    (run / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(UserError, match="no finished games"):
        summary_frame(open_run(run))


def test_summary_states_the_target_and_the_verdict_on_the_interval(saboteur_run):
    from reports.verdicts import Target, verdict

    frame = summary_frame(open_run(saboteur_run))
    assert frame["target"].to_list() == [0.5] * 4  # Saboteur's target: miners win half
    for row in frame.iter_rows(named=True):
        assert row["verdict"] == verdict(row["rate"] - 0.5, row["low"] - 0.5, row["high"] - 0.5,
                                         Target(0.5, "miners", "saboteurs"))
    console = Console(record=True, width=200)
    print_summary(open_run(saboteur_run), console)
    text = console.export_text()
    for row in frame.iter_rows(named=True):
        assert re.search(rf"{re.escape(row['configuration'])}\s+│.*│\s+50\.0% │ "
                         rf"{re.escape(row['verdict'])}\s+│", text), row["verdict"]
    lines = text.splitlines()
    assert ("verdict: balanced if the 95% CI lies within ±2 points of the target (50%)" in lines
            and "stalled: games stopped unfinished at a turn or round cap; nobody wins them"
            in lines and "s0 to s6: seats in turn order from 0; tied seats all win, so a row can "
            "top 100%" in lines)


def test_every_label_names_a_rule_the_whole_run_changes(shared_saboteur_run, tmp_path, runkit):
    from reports import provenance
    from reports.sections import ReportContext

    manifest = json.loads((shared_saboteur_run / "manifest.json").read_text())
    manifest["rules"] = {"hand_size": {"7": 4}}  # `--set hand_size.7=4`, one value
    run = tmp_path / "run"
    shutil.copytree(shared_saboteur_run, run)
    (run / "manifest.json").write_text(json.dumps(manifest))
    want = ["4p hand_size.7=4 default", "5p hand_size.7=4 default",
            "5p saboteurs=2 hand_size.7=4 default", "7p saboteurs=2 hand_size.7=4 default"]
    assert summary_frame(open_run(run))["configuration"].to_list() == want
    ctx = ReportContext([open_run(run)], runkit.SABOTEUR, tmp_path / "charts")
    assert sorted(ctx.configs["configuration"].to_list()) == want
    configs = provenance.section(ctx).tables[1].frame
    assert configs["configuration"].to_list() == want


def test_a_board_file_is_named_in_a_label_by_its_name_not_key_by_key():
    import types

    from reports.variants import configuration_label
    from sim.game import Setup

    stand_in = {"board": {"name": "stand-in", "links": [["A", "B"]]}, "hand_size": 2}
    game = types.SimpleNamespace(name="boards", load_rules=lambda file, sets: stand_in)
    played = {"board": {"name": "square", "links": [["A", "C"]]}, "hand_size": 3}
    assert configuration_label(game, played, Setup(2, ("default",) * 2)) == (
        "2p board=square hand_size=3 default")
