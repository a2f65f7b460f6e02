"""Deep Space's report sections on a real small run: their tables equal direct queries on the
shards, and the board is drawn."""

import polars as pl
import pytest

from reports.report import build_sections
from reports.runs import open_run
from sim.run import runner
from sim.games.deep_space import GAME
from sim.game import Setup

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    rules = GAME.load_rules(None, [])
    setups = [Setup(2, ("default", "raider")), Setup(4, ("default", "rush", "turtle", "random"))]
    out = tmp_path_factory.mktemp("deep-space") / "run"
    runner.run(GAME, rules, setups, 150, 4, out, 1, progress=False)
    return out


@pytest.fixture(scope="module")
def sections(run, tmp_path_factory):
    built = build_sections([open_run(run)], tmp_path_factory.mktemp("charts"))
    return {s.title: s for s in built}


def read(run, table):
    return pl.read_parquet(run / table / "*.parquet")


def test_the_report_has_the_deep_space_sections(sections):
    assert {"Seat advantage by player count", "Win rate by strategy style",
            "Which planets get bases", "Game length in rounds"} <= set(sections)


def test_seat_advantage_equals_a_direct_query(run, sections):
    frame = sections["Seat advantage by player count"].tables[0].frame
    seats = read(run, "seats").filter(pl.col("players") == 4, pl.col("turn_order") == 0)
    row = frame.filter(pl.col("players") == 4, pl.col("turn_order") == 0).row(0, named=True)
    assert (row["n"], row["wins"]) == (seats.height, seats["won"].sum())


def test_win_rate_by_style_names_the_styles(run, sections):
    frame = sections["Win rate by strategy style"].tables[0].frame
    row = frame.filter(pl.col("players") == 2, pl.col("strategy") == "raider").row(0, named=True)
    seats = read(run, "seats").filter(pl.col("players") == 2, pl.col("strategy") == "raider")
    assert (row["style"], row["n"], row["wins"]) == ("aggressive raider", 150, seats["won"].sum())


def test_bases_per_planet_equals_a_direct_query_and_the_board_is_drawn(run, sections):
    (table,) = sections["Which planets get bases"].tables
    bases = read(run, "bases").filter(pl.col("players") == 4, pl.col("planet") == "R0")
    row = table.frame.filter(pl.col("players") == 4, pl.col("planet") == "R0").row(0, named=True)
    assert row["bases"] == bases.height and row["bases per game"] == bases.height / 150
    assert row["share of games"] == bases["game_id"].n_unique() / 150
    assert table.chart.read_bytes().startswith(PNG)
    covered = table.frame.filter(pl.col("players") == 2, pl.col("planet").is_in(["R4", "R10"]))
    assert covered.is_empty(), "no base on a covered planet"


def test_rounds_per_game_equals_a_direct_query(run, sections):
    frame = sections["Game length in rounds"].tables[0].frame
    games = read(run, "games").filter(pl.col("players") == 2)
    row = frame.filter(pl.col("players") == 2).row(0, named=True)
    assert row["mean rounds"] == pytest.approx(games["rounds"].mean())
    assert row["stalled"] == games["stalled"].sum()


def test_a_run_where_nobody_can_win_still_reports(tmp_path):
    """Seats that may not build never win: every game stalls, every win rate is 0 (whose Wilson
    bound used to sit a rounding error above the rate and stop the charts)."""
    rules = GAME.load_rules(None, ["turn_cap=12"])
    out = tmp_path / "run"
    runner.run(GAME, rules, [Setup(2, ("default-no-build", "random-no-build"))], 7, 1, out, 1,
               progress=False)
    built = {s.title: s for s in build_sections([open_run(out)], tmp_path / "charts")}
    assert read(out, "games")["stalled"].all()
    frame = built["Win rate by strategy"].tables[0].frame
    assert frame["wins"].to_list() == [0, 0] and frame["n"].to_list() == [7, 7]
    assert built["Win rate by strategy"].tables[0].chart.read_bytes().startswith(PNG)


def test_a_style_names_python_bots_presets_and_restrictions():
    from sim.games.deep_space.report import _style

    assert _style("raider") == "aggressive raider"
    assert _style("default-no-warp-no-attack") == "balanced, no warp, no attack"
    assert _style("deep_space_settler.py:Settler") == "Python bot"
    assert _style("cautious-no-trade") == "preset from a file, no trade"
