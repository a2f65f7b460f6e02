"""The table printed at the end of `simulate <game>`: one row per configuration of a run."""

from __future__ import annotations

import sys

import polars as pl
from rich.console import Console
from rich.text import Text

from reports import render
from reports import runs as runs_mod
from reports.sections import Table as SectionTable
from reports.stats import design_effect, wilson_arrays
from reports.variants import configuration_label
from reports.verdicts import TOLERANCE, target_of, verdicts
from sim.errors import UserError
from sim.rule_keys import idle_sweeps


def summary_frame(run) -> pl.DataFrame:
    """Gives one row per configuration: games, headline rate with 95% Wilson bounds (on the
    effective trials when a game has several: `stats.design_effect`), the game's summary
    aggregates (columns named by their titles), stalled rate and win rate by seat.

    Columns: setup, configuration, players, games, stalled, successes, trials, rate, low, high,
    target (what balanced means for the headline: reports.verdicts), verdict (in words, on the
    interval), <summary titles...>, s0, s1, ... (a seat's game-win rate; null where a
    configuration has fewer seats). Reads only the columns it needs from the shards.
    """
    game = runs_mod.game_named(run.game)
    head = game.headline
    extras = [expr.alias(title) for title, expr in game.summary]
    games = runs_mod.collect(
        runs_mod.scan(run, "games")
        .with_columns(*head.per_game())
        .group_by("setup")
        .agg(pl.len().alias("games"),
             pl.col("stalled").cast(pl.Float64).mean().alias("stalled"),
             pl.col("__s").sum().alias("successes"),
             pl.col("__t").sum().alias("trials"),
             (pl.col("__s") ** 2).sum().alias("__ss"), (pl.col("__t") ** 2).sum().alias("__tt"),
             (pl.col("__s") * pl.col("__t")).sum().alias("__st"),
             *extras)
        .sort("setup"),
        run, "games")
    if games.is_empty() or games["games"].sum() == 0:
        raise UserError(f"{run.path}: the run has no finished games")
    runs_mod.check_setups(run, games["setup"].to_list())
    seats = runs_mod.collect(
        runs_mod.scan(run, "seats")
        .group_by("setup", "seat")
        .agg(pl.col("won").cast(pl.Float64).mean().alias("rate")),
        run, "seats")
    max_players = max(s.players for s in run.setups)
    seat_cols = [f"s{i}" for i in range(max_players)]
    if seats.is_empty():
        wide = pl.DataFrame({"setup": games["setup"]})
    else:
        wide = (seats.with_columns(("s" + pl.col("seat").cast(pl.Utf8)).alias("seat"))
                .pivot(on="seat", index="setup", values="rate"))
    for c in seat_cols:
        if c not in wide.columns:
            wide = wide.with_columns(pl.lit(None, pl.Float64).alias(c))
    wide = wide.select(pl.col("setup").cast(games["setup"].dtype), *seat_cols)
    s, t = games["successes"].to_numpy(), games["trials"].to_numpy()
    sums = (games[c].to_numpy() for c in ("games", "__ss", "__tt", "__st"))
    effective = t / design_effect(s, t, *sums)
    low, high = wilson_arrays(s / t * effective, effective)
    labels = pl.DataFrame({
        "setup": pl.Series(range(len(run.setups)), dtype=games["setup"].dtype),
        "configuration": [configuration_label(game, run.manifest["rules"], s)
                          for s in run.setups],
        "players": [s.players for s in run.setups],
    })
    out = (games.with_columns((pl.col("successes") / pl.col("trials")).alias("rate"),
                              pl.Series("low", low), pl.Series("high", high))
           .join(labels, on="setup", how="left")
           .join(wide, on="setup", how="left"))
    balance = target_of(run.game)
    goal = balance.at(out["players"].to_numpy())
    rate, low, high = (out[c].to_numpy().astype(float) for c in ("rate", "low", "high"))
    out = out.with_columns(
        pl.Series("target", goal, dtype=pl.Float64),
        pl.Series("verdict", verdicts(rate - goal, low - goal, high - goal, balance),
                  dtype=pl.Utf8))
    first = ["setup", "configuration", "players", "games", "stalled", "successes", "trials",
             "rate", "low", "high", "target", "verdict"]
    return out.select(first + [t for t, _ in game.summary] + seat_cols).sort("setup")


def _pct(x) -> str:
    return "–" if x is None or x != x else f"{100 * x:.1f}%"


def _num(x) -> str:
    if x is None or (isinstance(x, float) and x != x):
        return "–"
    if isinstance(x, float):
        return f"{x:.3g}" if abs(x) < 1000 else f"{x:,.0f}"
    return str(x)


def print_summary(run, console: Console | None = None, fmt: str = "table") -> None:
    """Prints a run's per-configuration summary (the headline with its target and verdict) and
    its game-win rates by seat, a line under them on each term they use, then the folder; or,
    in another `fmt` (render.TABLE_FORMATS), the summary's raw numbers for other tools, one row
    per configuration (the folder then goes to stderr)."""
    console = console or Console()
    game = runs_mod.game_named(run.game)
    frame = summary_frame(run)
    rates = getattr(game, "summary_rates", ())
    seat_cols = [c for c in frame.columns if c.startswith("s") and c[1:].isdigit()]
    if fmt != "table":
        percent = ("stalled", "rate", "low", "high", "target", *rates, *seat_cols)
        title = f"{getattr(game, 'title', run.game)} summary"
        render.write_tables([SectionTable(title, frame, percent)], fmt)
        for line in idle_sweeps(run.game, run.setups):
            print(line, file=sys.stderr)
        print(f"run folder: {run.path}", file=sys.stderr)
        return
    width = console.width
    head = game.headline.title
    headers = ["configuration", "games", f"{head} (95% CI)", "target", "verdict",
               *[title for title, _ in game.summary], "stalled"]
    body = [[row["configuration"], f"{row['games']:,}",
             f"{_pct(row['rate'])} [{100 * row['low']:.1f}, {100 * row['high']:.1f}]",
             _pct(row["target"]), row["verdict"],
             *[(_pct if t in rates else _num)(row[t]) for t, _ in game.summary],
             _pct(row["stalled"])]
            for row in frame.iter_rows(named=True)]
    console.print(render.terminal_table(f"{getattr(game, 'title', run.game)}: "
                                        f"{frame['games'].sum():,} games", headers, body,
                                        [False, True, True, True, False]
                                        + [True] * (len(headers) - 5), width))
    for line in idle_sweeps(run.game, run.setups):
        console.print(line)
    until = run.manifest.get("until_ci")
    if until:
        for row in frame.iter_rows(named=True):
            half = (row["high"] - row["low"]) / 2
            console.print(f"--until-ci {until}: {row['configuration']} took {row['games']:,} games"
                          f" (± {100 * half:.2f} points{'' if half <= until else '; --games ran out first'})")

    body = [[row["configuration"],
             *["" if row[c] is None else f"{100 * row[c]:.0f}" for c in seat_cols]]
            for row in frame.iter_rows(named=True)]
    console.print(render.terminal_table("game-win rate by seat (%)",
                                        ["configuration", *seat_cols], body,
                                        [False] + [True] * len(seat_cols), width))
    for line in footnotes(target_of(run.game), seat_cols):
        console.print(Text(line))
    console.print(Text(f"run folder: {run.path}"))


def footnotes(balance, seat_cols: list[str]) -> list[str]:
    """Gives the lines under the summary saying what its terms mean: the verdict against the
    target, stalled games, and the seat columns (whose rates may add up to more than 100%)."""
    goal = f"{100 * balance.rate:g}%" if balance.rate is not None else "1/players"
    return [
        f"verdict: balanced if the 95% CI lies within ±{100 * TOLERANCE:g} points of the target "
        f"({goal})",
        "stalled: games stopped unfinished at a turn or round cap; nobody wins them",
        f"{seat_cols[0]} to {seat_cols[-1]}: seats in turn order from 0; tied seats all win, so "
        "a row can top 100%",
    ]
