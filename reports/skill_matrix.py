"""The report section "Skill matrix by role": the headline when one role's bots play at one rung
and the other role's at another (`simulate ladder --by-role`), as a heatmap centred on the
target and as a table with each cell's paired difference from both roles at `default`.

A report has a matrix where, at one player count (and otherwise alike), configurations of
strategies by role (Setup.roles, two roles) hold several strategies for either role.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from reports import charts
from reports.sections import (
    INTERVAL_NOTE,
    ReportContext,
    Section,
    Table,
    common_section,
    headline_totals,
    with_wilson,
)
from reports.whatif import difference, per_game

BASELINE = "default"  # the cell differences are taken from: both roles at this strategy


def cells(ctx: ReportContext) -> pl.DataFrame:
    """Gives (configuration, run, setup, players, first role's strategy, second role's, the
    roles' names, seed) per configuration of a matrix; an empty frame without one."""
    rows, groups = [], {}
    for i, run in enumerate(ctx.runs):
        for sid, setup in enumerate(run.setups):
            if len(setup.roles) != 2:
                continue
            (first, a), (second, b) = setup.roles
            key = (setup.players, setup.options, setup.rules, setup.rule_file, first, second)
            groups.setdefault(key, []).append((i, sid, a, b))
    labels = {(r, s): c for r, s, c in ctx.configs.select("run", "setup", "configuration")
              .iter_rows()}
    for (players, _, _, _, first, second), members in groups.items():
        if len({a for _, _, a, _ in members}) < 2 and len({b for _, _, _, b in members}) < 2:
            continue
        for i, sid, a, b in members:
            rows.append((labels[(i, sid)], i, sid, players, a, b, first, second,
                         int(ctx.runs[i].manifest["seed"])))
    return pl.DataFrame(rows, orient="row", schema={
        "configuration": pl.Utf8, "run": pl.Int16, "setup": pl.Int16, "players": pl.Int64,
        "row": pl.Utf8, "col": pl.Utf8, "first": pl.Utf8, "second": pl.Utf8, "seed": pl.Int64})


def _differences(ctx: ReportContext, frame: pl.DataFrame) -> pl.DataFrame:
    """Gives each cell's difference from the baseline cell of its player count (both roles at
    `default`), paired game by game where both played the same seed, with interval and p."""
    games = per_game(ctx)
    found = []
    for (players,), part in frame.group_by("players", maintain_order=True):
        base = part.filter((pl.col("row") == BASELINE) & (pl.col("col") == BASELINE))
        for r in part.iter_rows(named=True):
            if base.height == 0 or r["configuration"] == base["configuration"][0]:
                found.append((r["configuration"], None, None, None, None))
                continue
            b = base.row(0, named=True)

            def of(x):
                return games.filter((pl.col("run") == x["run"]) & (pl.col("setup") == x["setup"]))

            d = difference(of(r), of(b), r["seed"] == b["seed"])
            found.append((r["configuration"], d.estimate, d.low, d.high, d.p))
    return pl.DataFrame(found, orient="row", schema={
        "configuration": pl.Utf8, "vs default": pl.Float64, "vs default low": pl.Float64,
        "vs default high": pl.Float64, "p": pl.Float64})


@common_section
def skill_matrix(ctx: ReportContext) -> Section | None:
    """Gives the matrix of the headline by each role's strategy, per player count: a heatmap
    centred on the target, and the table with paired differences; None without a matrix."""
    keys = cells(ctx)
    if keys.height == 0:
        return None
    first, second = keys["first"][0], keys["second"][0]
    head = with_wilson(headline_totals(ctx, "configuration")).join(keys, on="configuration")
    head = head.join(_differences(ctx, head), on="configuration")
    tables = []
    for (players,), part in head.group_by("players", maintain_order=True):
        rows = list(dict.fromkeys(part["row"]))
        cols = list(dict.fromkeys(part["col"]))
        goal = float(ctx.target_at(np.array([players]))[0])
        values, text = charts.grid(part, rows, cols, "row", "col",
                                   lambda r: f"{100 * r['rate']:.1f}%")
        title = ctx.game.headline.title
        caption = (f"n = {int(part['games'].min()):,} games per cell, the same deals in every "
                   f"cell; colours diverge from the target, {100 * goal:g}%")
        path = charts.heatmap(
            ctx.chart(f"skill_matrix_{players}p"), values, rows, cols,
            title=f"{ctx.game.title}, {players} players: {title}",
            xlabel=f"{second}s' strategy", ylabel=f"{first}s' strategy",
            caption=caption, cell_text=text, colour_label=title, centre=goal)
        tables.append(Table(
            f"{players} players: {title} by {first}s' and {second}s' strategy", part.select(
                "players", pl.col("row").alias(f"{first}s"), pl.col("col").alias(f"{second}s"),
                "games", "n", "rate", "low", "high", "vs default", "vs default low",
                "vs default high", "p"),
            ("rate", "low", "high", "vs default", "vs default low", "vs default high"),
            chart=path, chart_caption=caption,
            note=f"every cell plays the same deals (seed and game indices); vs default: the "
                 f"difference from both roles at default, paired game by game (t-test on "
                 f"per-game rates), p its two-sided p-value; {INTERVAL_NOTE}"))
    text = (f"Each cell: the {ctx.game.headline.title} when whichever seat is a {first} plays "
            f"the row's strategy and whichever is a {second} the column's, round by round.")
    return Section("Skill matrix by role", tables, text=text)
