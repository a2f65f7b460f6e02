"""`simulate compare`: the plan pairs deals and rotates seats; the comparison's numbers."""

import functools
import types
from collections import Counter
from itertools import combinations

import numpy as np
import polars as pl
import pytest
from rich.console import Console
from scipy.stats import binomtest
from statsmodels.stats.proportion import proportion_confint

from reports.compare import comparison_sections, print_comparison
from reports.runs import open_run
from reports.sections import ReportContext, clustered_totals, rate_covariance, with_wilson
from sim.studies.compare import plan
from sim.errors import UserError
from sim.game import Setup

PNG = b"\x89PNG\r\n\x1a\n"


def seat_counts(setups):
    return Counter((name, seat) for s in setups for seat, name in enumerate(s.seats))


@pytest.mark.parametrize("strategies, players", [
    (["default", "greedy"], 7), (["default", "greedy"], 4), (["default", "greedy", "careful"], 3),
    (["default", "greedy", "careful"], 5), (["default", "greedy", "careful"], 10),
])
def test_each_strategy_sits_in_every_seat_equally_often(runkit, strategies, players):
    setups = plan(runkit.SABOTEUR, strategies, players, {"saboteurs": 2})
    counts = seat_counts(setups)
    assert len(set(counts.values())) == 1
    assert set(counts) == {(s, seat) for s in strategies for seat in range(players)}
    assert {(s.players, s.options) for s in setups} == {(players, (("saboteurs", 2),))}


def test_seven_players_two_strategies_alternate(runkit):
    setups = plan(runkit.SABOTEUR, ["greedy", "careful"], 7, {})
    assert [s.seats for s in setups] == [
        ("greedy", "careful", "greedy", "careful", "greedy", "careful", "greedy"),
        ("careful", "greedy", "careful", "greedy", "careful", "greedy", "careful")]


def test_two_player_plan_is_a_full_round_robin(runkit):
    setups = plan(runkit.DUEL, ["greedy", "random", "careful"], 2, {})
    pairs = [s.seats for s in setups]
    assert sorted(pairs) == sorted((a, b) for a in ["greedy", "random", "careful"]
                                   for b in ["greedy", "random", "careful"] if a != b)


def test_every_pair_of_strategies_meets(runkit):
    names = ["default", "greedy", "careful"]
    setups = plan(runkit.SABOTEUR, names, 3, {})
    for a, b in combinations(names, 2):
        assert any(a in s.seats and b in s.seats for s in setups)


def test_every_assignment_is_dealt_the_same_games():
    # Each assignment plays game indices 0..G-1 with the run's seed, and a deal depends on
    # (seed, index) only: the first round's roles, dealt before any bot moves, are equal.
    import polars as pl

    from sim.games.saboteur import GAME

    rules = GAME.load_rules(None, [])
    setups = plan(GAME, ["random", "default"], 5, {})
    assert len({s.seats for s in setups}) == len(setups) > 1
    roles = [GAME.play(rules, s, 7, 0, 12, 0)["rounds"].filter(pl.col("round") == 1)
             .sort("game_id", "seat")["role"].to_list() for s in setups]
    assert all(r == roles[0] for r in roles[1:])
    assert "saboteur" in roles[0] and "miner" in roles[0]


@pytest.mark.parametrize("strategies, players, message", [
    (["default", "nope"], 5, "unknown strategy 'nope'"),
    (["default"], 5, "at least two"),
    (["default", "default"], 5, "given twice"),
    (["default", "greedy"], 11, "3–10 players"),
])
def test_bad_plans_are_one_clear_line(runkit, strategies, players, message):
    with pytest.raises(UserError, match=message) as e:
        plan(runkit.SABOTEUR, strategies, players, {})
    assert "\n" not in str(e.value)


@pytest.fixture(scope="module")
def duel_run(tmp_path_factory, runkit):
    setups = plan(runkit.DUEL, ["greedy", "random", "careful"], 2, {})
    strength = {"greedy": 4.0, "careful": 2.0, "random": 1.0}
    path = tmp_path_factory.mktemp("duel") / "run"
    return runkit.write(path, setups, runkit.duel(setups, 400, strength), game="duel")


@pytest.fixture(scope="module")
def duel_compared(duel_run, tmp_path_factory):
    """The duel run's comparison, written and printed once: (folder, console text)."""
    console = Console(record=True, width=160)
    out = print_comparison(open_run(duel_run), console, tmp_path_factory.mktemp("cmp"))
    return out, console.export_text()


@pytest.fixture(scope="module")
def duel_tables(duel_run, tmp_path_factory):
    sections = comparison_sections(open_run(duel_run), tmp_path_factory.mktemp("charts"))
    return sections, {t.title: t.frame for s in sections for t in s.tables}


def test_head_to_head_equals_direct_query(duel_run, duel_tables):
    # the deal is the unit: game i of every seat assignment (game_id = setup · 400 + i) is
    # deal i, and greedy's score on it is its mean over the two seatings of the pair
    seats = pl.read_parquet(duel_run / "seats" / "*.parquet").with_columns(
        (pl.col("game_id") % 400).alias("deal"))
    me = seats.join(seats, on="game_id", suffix="_opp").filter(
        pl.col("strategy") == "greedy", pl.col("strategy_opp") == "random")
    deals = me.group_by("deal").agg(pl.col("won").cast(pl.Float64).mean())["won"]
    row = duel_tables[1]["Head-to-head"].filter(
        pl.col("strategy") == "greedy", pl.col("opponent") == "random").row(0, named=True)
    assert me.height == 800 and row["n"] == deals.len() == 400
    assert (row["wins"], row["ties"], row["losses"]) == (
        (deals > 0.5).sum(), (deals == 0.5).sum(), (deals < 0.5).sum())
    assert row["rate"] == pytest.approx(me["won"].mean())
    assert (row["low"], row["high"]) == pytest.approx(
        proportion_confint(deals.sum(), 400, method="wilson"))
    raw = binomtest(row["wins"], row["wins"] + row["losses"]).pvalue
    assert raw <= row["p"] <= 3 * raw  # Holm over the three pairs
    assert row["significance"] == "p<0.001"  # 4:1 odds over 400 deals


def test_a_copy_that_replays_every_deal_ties_on_every_deal(tmp_path, runkit):
    # `default` against an exact copy: the second seating replays the first, so each
    # strategy wins one game of every deal: no deal tells them apart, nothing to test
    setups = plan(runkit.DUEL, ["greedy", "careful"], 2, {})
    tables = runkit.duel(setups, 300, {"greedy": 1.0, "careful": 1.0})
    first = tables["seats"].filter(pl.col("setup") == 0)
    replay = first.with_columns(pl.col("game_id") + 300, pl.lit(1, pl.Int16).alias("setup"),
                                pl.col("strategy").replace({"greedy": "careful",
                                                            "careful": "greedy"}))
    tables["seats"] = pl.concat([first, replay])
    sections = comparison_sections(open_run(runkit.write(tmp_path / "run", setups, tables,
                                                          game="duel")),
                                   tmp_path / "charts")
    h2h = {t.title: t.frame for s in sections for t in s.tables}["Head-to-head"]
    assert h2h["n"].to_list() == [300, 300] and h2h["ties"].to_list() == [300, 300]
    assert h2h["rate"].to_list() == [0.5, 0.5]
    assert h2h["significance"].to_list() == ["n/a", "n/a"]


def test_two_player_ranking_is_bradley_terry(duel_tables):
    ranking = duel_tables[1]["Ranking (Bradley–Terry / Elo)"]
    assert ranking["strategy"].to_list() == ["greedy", "careful", "random"]
    s = dict(zip(ranking["strategy"], ranking["strength"]))
    assert s["greedy"] / s["random"] == pytest.approx(4.0, rel=0.25)
    assert float(np.prod(ranking["strength"].to_numpy())) == pytest.approx(1.0)


def test_field_ranking_tests_each_gap(duel_run, duel_tables):
    ranking = duel_tables[1]["Ranking: game-win rate against the field"]
    seats = pl.read_parquet(duel_run / "seats" / "*.parquet")
    greedy = seats.filter(pl.col("strategy") == "greedy")
    top = ranking.row(0, named=True)
    assert (top["strategy"], top["n"], top["wins"]) == ("greedy", greedy.height, greedy["won"].sum())
    assert ranking["gap significance"].to_list()[:2] == ["p<0.001", "p<0.001"]


def test_the_run_is_recognised_as_paired(duel_tables):
    assert "same deals (paired)" in duel_tables[0][0].text


def test_comparison_files_and_heatmap(duel_compared):
    out, text = duel_compared
    heat = (out / "charts" / "head_to_head.png").read_bytes()
    assert heat[:8] == PNG and len(heat) > 5_000
    assert "head_to_head.png" in (out / "compare.md").read_text()
    assert "data:image/png;base64," in (out / "compare.html").read_text()
    assert "Head-to-head" in text and "same deals (paired)" in text


def test_saboteur_comparison_adds_results_by_role(tmp_path, runkit):
    setups = plan(runkit.SABOTEUR, ["greedy", "careful"], 5, {})
    run = runkit.write(tmp_path / "run", setups, runkit.tables(setups, 40))
    sections = comparison_sections(open_run(run), tmp_path / "charts")
    by_role = {t.title: t.frame for s in sections for t in s.tables}[
        "Round-win rate by role and strategy"]
    rounds = pl.read_parquet(run / "rounds" / "*.parquet")
    seat_of = pl.DataFrame([(sid, seat, name) for sid, s in enumerate(setups)
                            for seat, name in enumerate(s.seats)], orient="row",
                           schema={"setup": pl.Int16, "seat": pl.Int8, "strategy": pl.Utf8})
    want = rounds.join(seat_of, on=["setup", "seat"]).filter(
        pl.col("role") == "saboteur", pl.col("strategy") == "careful")
    row = by_role.filter(pl.col("role") == "saboteur", pl.col("strategy") == "careful").row(
        0, named=True)
    assert row["n"] == want.height
    assert row["wins"] == (want["winner_team"] == "saboteurs").sum()
    # games as clusters: the interval is Wilson's on the effective seat-rounds
    per_game = want.group_by("setup", "game_id").agg(
        (pl.col("winner_team") == "saboteurs").sum().alias("s"), pl.len().alias("t"))
    s, t = per_game["s"].to_numpy().astype(float), per_game["t"].to_numpy().astype(float)
    p = s.sum() / t.sum()
    deff = max(1.0, ((s - p * t) ** 2).sum() / t.sum() ** 2 / (p * (1 - p) / t.sum()))
    assert deff > 1
    assert (row["low"], row["high"]) == pytest.approx(
        proportion_confint(p * t.sum() / deff, t.sum() / deff, method="wilson"))
    assert "Ranking (Bradley–Terry / Elo)" not in {t.title for s in sections for t in s.tables}


def test_strategies_at_one_table_are_negatively_dependent():
    # a duel: B wins exactly when A loses, so var(rate A − rate B) is 4·p(1 − p)/games, twice
    # what independent samples would have
    a_won = np.random.default_rng(8).random(500) < 0.6
    seats = pl.DataFrame({"run": [0] * 1000, "game_id": np.repeat(np.arange(500), 2),
                          "strategy": ["A", "B"] * 500,
                          "won": np.column_stack([a_won, ~a_won]).reshape(-1)})
    ctx = types.SimpleNamespace(scan=lambda table, columns=None, slab=None: seats.lazy(),
                                collect=lambda lf, table: lf.collect(), slabs=lambda: [None])
    ctx.summed = functools.partial(ReportContext.summed, ctx)
    frame = with_wilson(clustered_totals(ctx, "seats", ["strategy"], pl.col("won"))).sort("strategy")
    cov = rate_covariance(ctx, "seats", frame, ["strategy"], pl.col("won"))
    p = a_won.mean()
    v = p * (1 - p) / 500
    assert cov == pytest.approx(np.array([[v, -v], [-v, v]]))


def test_the_role_table_names_a_python_strategy_as_the_head_to_head_does(tmp_path, runkit):
    bot = "/home/me/bots/mine.py:Bot"  # a seat string holds a Python strategy's whole path
    setups = [Setup(s.players, tuple(bot if name == "greedy" else name for name in s.seats),
                    s.options) for s in plan(runkit.SABOTEUR, ["greedy", "careful"], 5, {})]
    tables = runkit.tables(setups, 20)
    # as the engines write it (Setup.strategies): a Python strategy by its file name
    tables["seats"] = tables["seats"].with_columns(pl.col("strategy").str.split("/").list.last())
    run = runkit.write(tmp_path / "run", setups, tables)
    frames = {t.title: t.frame for s in comparison_sections(open_run(run), tmp_path / "charts")
              for t in s.tables}
    assert set(frames["Round-win rate by role and strategy"]["strategy"]) == \
        set(frames["Head-to-head"]["strategy"]) == {"mine.py:Bot", "careful"}
