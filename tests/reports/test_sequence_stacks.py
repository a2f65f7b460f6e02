"""Sequence Stacks' report sections equal direct polars queries on a real run's shards."""

import polars as pl
import pytest

from reports.report import build_sections
from reports.runs import open_run
from sim.run import runner
from sim.game import Setup
from sim.games.sequence_stacks import GAME


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    setups = [Setup(2, ("default", "random")), Setup(4, ("default",) * 4)]
    folder = tmp_path_factory.mktemp("ss") / "run"
    runner.run(GAME, GAME.load_rules(None, ["turn_cap=45"]), setups, 80, 11, folder, 1,
               progress=False)
    return folder


@pytest.fixture(scope="module")
def report(run, tmp_path_factory):
    sections = build_sections([open_run(run)], tmp_path_factory.mktemp("charts"))
    titles = [s.title for s in sections]
    for own in ("Seat advantage by player count", "Action cards: use and effect",
                "Stalled games and game length by player count"):
        assert own in titles
    return {t.title: t for s in sections for t in s.tables}


def read(run, table):
    return pl.read_parquet(run / table / "*.parquet")


def test_seat_advantage_equals_direct_query(run, report):
    frame = report["Win rate by seat and player count"].frame
    seats = read(run, "seats")
    want = seats.group_by("players", "seat").agg(pl.len().alias("n"), pl.col("won").sum().alias("wins")) \
        .sort("players", "seat")
    assert frame["n"].to_list() == want["n"].to_list()
    assert frame["wins"].to_list() == want["wins"].to_list()
    # even: the mean seat's rate at that player count (stalled games are lost by every seat)
    even = want.group_by("players").agg((pl.col("wins").sum() / pl.col("n").sum()).alias("even"))
    want = want.join(even, on="players").sort("players", "seat")
    assert frame["vs even"].to_list() == pytest.approx((want["wins"] / want["n"] - want["even"]).to_list())
    assert ((frame["p"] >= 0) & (frame["p"] <= 1)).all()
    assert report["Win rate by seat and player count"].chart.exists()


def test_action_card_use_and_effect_equal_direct_queries(run, report):
    use = report["Action cards played per game"].frame
    games = read(run, "games")
    for (players, card), per_game in zip(use.select("players", "card").rows(), use["per game"]):
        assert per_game == pytest.approx(games.filter(pl.col("players") == players)[card].mean())
    effect = report["Win rate of seats that played an action card"].frame
    seats = read(run, "seats")
    row = effect.filter(pl.col("players") == 4, pl.col("card") == "steal_chips").row(0, named=True)
    four = seats.filter(pl.col("players") == 4)
    thieves = four.filter(pl.col("steal_chips_played") > 0)
    assert row["played"] == thieves.height and row["not played"] == four.height - thieves.height
    assert row["win rate (played)"] == pytest.approx(thieves["won"].mean())


def test_stalled_rate_and_length_equal_direct_query(run, report):
    frame = report["Stalled rate and game length by player count"].frame
    games = read(run, "games").sort("players")
    want = games.group_by("players", maintain_order=True).agg(
        pl.col("stalled").sum(), pl.col("turns").mean(), pl.col("reshuffles").mean())
    assert frame["stalled"].to_list() == want["stalled"].to_list()
    assert frame["mean turns"].to_list() == pytest.approx(want["turns"].to_list())
    assert frame["reshuffles per game"].to_list() == pytest.approx(want["reshuffles"].to_list())
    assert (frame["stalled"] > 0).all(), \
        "games past the turn cap of 45 stall"
