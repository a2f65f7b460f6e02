"""Spit's and Speed's report sections: their tables equal direct polars queries on real runs."""

import polars as pl
import pytest

from reports.report import build_sections
from reports.runs import open_run
from sim.run import runner
from sim.games import speed, spit
from sim.game import Setup

SETUPS = [Setup(2, ("default", "random"), (("reaction_0", "club"), ("reaction_1", value)))
          for value in ("0.6:0.35", "club", "1.2:0.35")]


def run_of(game, sets, out):
    rules = game.load_rules(None, sets)
    return runner.run(game, rules, SETUPS, 20, 5, out, 1, progress=False).path


@pytest.fixture(scope="module")
def spit_report(tmp_path_factory):
    """Two Spit runs (the second with alternating colours) and their report's tables."""
    base = tmp_path_factory.mktemp("spit")
    runs = [run_of(spit.GAME, [], base / "plain"),
            run_of(spit.GAME, ["options.alternating_colours=true"], base / "colours")]
    sections = build_sections([open_run(r) for r in runs], base / "charts")
    games = pl.concat([pl.read_parquet(r / "games" / "*.parquet") for r in runs])
    return {t.title: t.frame for s in sections for t in s.tables}, games, base


def test_win_rate_by_reaction_ratio_keeps_the_runs_apart_and_equals_direct_query(spit_report):
    tables, _, base = spit_report
    frame = tables["Seat 0's win rate by reaction-time ratio"]
    for run, variant in (("plain", "default rules (plain)"),
                         ("colours", "options.alternating_colours=true (colours)")):
        games = pl.read_parquet(base / run / "games" / "*.parquet")
        want = (games.filter(pl.col("winner").is_not_null())
                .group_by(pl.col("reaction_ratio").round(3))
                .agg(pl.len().alias("n"), (pl.col("winner") == 0).sum().alias("wins"))
                .sort("reaction_ratio"))
        own = frame.filter(pl.col("variant") == variant)
        assert own["reaction_ratio"].to_list() == pytest.approx([0.75, 1.0, 1.5])
        assert own["n"].to_list() == want["n"].to_list()
        assert own["wins"].to_list() == want["wins"].to_list()
    assert (base / "charts" / "win_rate_by_reaction_ratio.png").exists()


def test_variant_effects_name_each_rule_set_by_its_difference_from_the_printed_rules(spit_report):
    tables, games, _ = spit_report
    frame = tables["Game length, stalls and seat 0's win rate by rule variant"]
    assert frame["rules"].to_list() == ["as printed", "alternating_colours=true"]
    for value, row in zip((False, True), frame.iter_rows(named=True)):
        part = games.filter(pl.col("alternating_colours") == value)
        assert row["n"] == part.height
        assert row["mean deals"] == pytest.approx(part["deals"].mean())
        assert row["stalls per deal"] == pytest.approx(part["stalls"].sum() / part["deals"].sum())
    assert frame["deals vs printed"][1] == pytest.approx(
        frame["mean deals"][1] - frame["mean deals"][0])


def test_game_length_and_stalls_equal_direct_queries(spit_report):
    tables, games, _ = spit_report
    length = tables["Deals and simulated minutes per game"]
    assert length["n"].sum() == games.height
    assert (length["mean minutes"] * length["n"]).sum() == pytest.approx(games["sim_seconds"].sum() / 60)
    stalls = tables["Stalls (nobody can move)"]
    assert stalls["stalled games"].sum() == games["stalled"].sum()


def test_speed_reports_in_hands(tmp_path):
    run = run_of(speed.GAME, [], tmp_path / "speed")
    sections = build_sections([open_run(run)], tmp_path / "charts")
    tables = {t.title: t.frame for s in sections for t in s.tables}
    assert "mean hands" in tables["Hands and simulated minutes per game"].columns
    assert "stalls per hand" in tables["Stalls (nobody can move)"].columns
    assert tables["Seat 0's win rate by reaction-time ratio"]["n"].sum() == 60
