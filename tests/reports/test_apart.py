"""No section pools what differs: every section of the report over a skill ladder, a rule sweep
and two runs keeps configurations of other bots, rules or runs apart, and ranks strategies only
where they shared games."""

import polars as pl
import pytest

from reports import runs as runs_mod
from reports import sections as sections_mod
from reports.report import build_sections, report_context
from reports.runs import open_run
from sim.game import Setup

GAMES = 40  # per configuration, in every run below


def ladder_setups():
    """`simulate ladder saboteur --players 4,7 --rungs random,default`'s configurations."""
    return [Setup(n, (rung,) * n, (("rung", rung),)) for n in (4, 7) for rung in ("random", "default")]


def sweep_setups():
    """`simulate saboteur --players 7 --set hand_size.7=4,5 --seat-strategy 0=random`'s."""
    return [Setup(7, ("random",) + ("default",) * 6, rules=(("hand_size.7", size),))
            for size in (4, 5)]


PLAIN = [Setup(4, ("default",) * 4), Setup(7, ("default",) * 7)]


@pytest.fixture(scope="module", params=["ladder", "sweep", "two runs"])
def report(request, tmp_path_factory, runkit):
    """(kind, context, sections) of a report over each kind of run, every section built."""
    root = tmp_path_factory.mktemp(request.param.replace(" ", "_"))
    if request.param == "two runs":
        paths = [runkit.write(root / name, PLAIN, runkit.tables(PLAIN, GAMES, seed=seed),
                              seed=seed) for name, seed in (("a", 1), ("b", 2))]
    else:
        setups = ladder_setups() if request.param == "ladder" else sweep_setups()
        paths = [runkit.write(root / "run", setups, runkit.tables(setups, GAMES))]
    runs = [open_run(p) for p in paths]
    ctx = report_context(runs, runs_mod.game_named("saboteur"), root / "charts")  # the stand-in
    return request.param, ctx, build_sections(runs, root / "charts")


def test_bots_are_a_variant_where_they_differ_at_one_player_count():
    label = sections_mod.apart_labels
    assert label([4, 4, 7, 7], ["default rules"] * 4, ["rung=random", "rung=default"] * 2) == [
        "rung=random", "rung=default"] * 2
    # other bots at each player count only: rows by player count pool nothing
    assert label([2, 4], ["default rules"] * 2, ["default, 1=random", "default"]) == [
        "default rules"] * 2
    assert label([7, 7], ["a", "b"], ["default", "greedy"]) == ["a", "b"]  # the rules do
    assert label([7] * 4, ["a", "a", "b", "b"], ["default", "greedy"] * 2) == [
        "a · default", "a · greedy", "b · default", "b · greedy"]


def data_tables(built):
    """Gives the tables that hold counts (n or games), the provenance's aside."""
    return [t for s in built if s.title != "Provenance" for t in s.tables
            if {"n", "games"} & set(t.frame.columns)]


def test_the_report_keeps_several_variants(report):
    kind, ctx, _ = report
    assert ctx.split
    assert ctx.kept_apart == {"ladder": ["rung=random", "rung=default"],
                              "sweep": ["hand_size.7=4", "hand_size.7=5"],
                              "two runs": ["default rules (a)", "default rules (b)"]}[kind]


def test_every_row_of_every_section_names_one_configuration_or_variant(report):
    _, ctx, built = report
    tables = data_tables(built)
    assert len(tables) >= 8
    for table in tables:
        columns = set(table.frame.columns)
        assert columns & {"configuration", "variant", "rung"}, table.title
        if "configuration" in columns:
            assert set(table.frame["configuration"]) <= set(ctx.order), table.title
        if "variant" in columns:  # the What-if's are the rules' own labels
            assert set(table.frame["variant"]) <= {*ctx.kept_apart, *ctx.variants}, table.title


def test_no_row_holds_more_games_than_one_configuration_played(report):
    _, _, built = report
    for table in data_tables(built):
        if "games" in table.frame.columns:
            assert table.frame["games"].max() <= GAMES, table.title


def test_the_rate_by_player_count_is_each_configurations_own(report):
    _, ctx, built = report
    by_count = next(t.frame for s in built for t in s.tables
                    if t.title == "miners' round-win rate by player count")
    assert by_count.height == len(ctx.order)
    # no table repeats it: the Overview shows configurations only where a row pools several
    assert "Overview" not in {s.title for s in built}
    for config, in ctx.configs.select("configuration").iter_rows():
        games = ctx.collect(ctx.scan("games").filter(pl.col("configuration") == config),
                            "games")
        row = by_count.filter(pl.col("players") == games["players"][0]).filter(
            pl.col("variant") == games["variant"][0]) if "variant" in by_count.columns else \
            by_count.filter(pl.col("players") == games["players"][0])
        assert row["wins"].to_list() == [games["miner_rounds"].sum()]


def strategy_section(built):
    return next(s for s in built if s.title == "Win rate by strategy")


def test_no_strategy_is_ranked_where_no_game_seats_two(report):
    kind, _, built = report
    if kind == "sweep":
        pytest.skip("the sweep seats two strategies: see the next test")
    section = strategy_section(built)
    assert section.tables == [] and section.text == sections_mod.UNRANKED
    assert "never shared a game" in section.text


def test_strategies_are_ranked_within_each_configuration_that_seats_them(report):
    kind, ctx, built = report
    if kind != "sweep":
        pytest.skip("only the sweep seats two strategies at one table")
    (table,) = strategy_section(built).tables
    frame = table.frame
    assert frame["configuration"].unique(maintain_order=True).to_list() == ctx.order
    for config in ctx.order:
        rows = frame.filter(pl.col("configuration") == config)
        assert dict(rows.select("strategy", "n").rows()) == {"random": GAMES,
                                                             "default": 6 * GAMES}
        assert rows["vs first"][0] == 0.0
