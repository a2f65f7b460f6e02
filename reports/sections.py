"""Report sections: the ones every game gets, and the registry through which a game adds its own.

A section is a function `(ReportContext) -> Section`. Every game gets `COMMON`; a game adds
sections in `reports/<game>.py` by decorating them with `@game_section("<game>")`. The machinery
(scanning runs, rates with intervals, charts, rendering) is shared, never copied per game.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from reports import charts
from reports import runs as runs_mod
from reports.stats import (balance, chi_square_equal, significance_level, two_proportion,
                           wilson_arrays)


@dataclass
class Table:
    """A table of a report: its raw numbers, and how to show them."""

    title: str
    frame: pl.DataFrame
    percent: tuple[str, ...] = ()       # columns shown as percentages
    note: str = ""
    chart: Path | None = None           # shown beside the table
    chart_caption: str = ""


@dataclass
class Section:
    title: str
    tables: list[Table] = field(default_factory=list)
    text: str = ""


class ReportContext:
    """What sections read: the runs' tables (pooled, with a `configuration` label) and the game."""

    def __init__(self, runs: list, game, charts_dir: Path):
        self.runs = runs
        self.game = game
        self.charts_dir = charts_dir
        same_rules = all(r.manifest.get("rules") == runs[0].manifest.get("rules") for r in runs)
        rows = []
        for i, run in enumerate(runs):
            for sid, setup in enumerate(run.setups):
                label = setup.label() if same_rules else f"{setup.label()} ({Path(run.path).name})"
                rows.append((i, sid, label, setup.players))
        self.configs = pl.DataFrame(rows, orient="row", schema={
            "run": pl.Int16, "setup": pl.Int16, "configuration": pl.Utf8, "cfg_players": pl.Int64})
        # configurations in a stable reading order: by player count, then label
        self.order = (self.configs.unique("configuration").sort("cfg_players", "configuration")
                      ["configuration"].to_list())

    def scan(self, table: str, columns: list[str] | None = None) -> pl.LazyFrame:
        """Gives the table of all runs, lazily, with `run` and `configuration` columns added."""
        frames = []
        for i, run in enumerate(self.runs):
            lf = runs_mod.scan(run, table)
            if columns is not None:
                lf = lf.select(["setup", *[c for c in columns if c != "setup"]])
            frames.append(lf.with_columns(pl.lit(i, pl.Int16).alias("run"),
                                          pl.col("setup").cast(pl.Int16)))
        lf = frames[0] if len(frames) == 1 else pl.concat(frames, how="diagonal_relaxed")
        return lf.join(self.configs.lazy().select("run", "setup", "configuration"),
                       on=["run", "setup"], how="left")

    def collect(self, lf: pl.LazyFrame, table: str) -> pl.DataFrame:
        """Gives the collected frame (streaming); unfit shards become one UserError."""
        run = self.runs[0] if len(self.runs) == 1 else type("Runs", (), {"path": ", ".join(
            str(r.path) for r in self.runs)})()
        return runs_mod.collect(lf, run, table)

    def seat_strategies(self) -> pl.LazyFrame:
        """Gives (run, setup, seat, strategy) from the manifests: who sat where."""
        rows = [(i, sid, seat, name) for i, run in enumerate(self.runs)
                for sid, setup in enumerate(run.setups) for seat, name in enumerate(setup.seats)]
        return pl.DataFrame(rows, orient="row", schema={
            "run": pl.Int16, "setup": pl.Int16, "seat": pl.Int64, "strategy": pl.Utf8}).lazy()

    def chart(self, name: str) -> Path:
        return self.charts_dir / f"{name}.png"

    def config_rank(self) -> pl.Expr:
        """Gives an expression sorting `configuration` in reading order."""
        return pl.col("configuration").replace_strict(
            self.order, list(range(len(self.order))), default=len(self.order))


def with_wilson(frame: pl.DataFrame, successes: str = "wins", n: str = "n") -> pl.DataFrame:
    """Gives the frame with rate, low, high (95% Wilson) from a successes and a trials column."""
    low, high = wilson_arrays(frame[successes].to_numpy(), frame[n].to_numpy())
    return frame.with_columns((pl.col(successes) / pl.col(n)).alias("rate"),
                              pl.Series("low", low), pl.Series("high", high))


def with_mean_interval(frame: pl.DataFrame, mean: str, sd: str, n: str = "n") -> pl.DataFrame:
    """Gives the frame with low, high: the normal 95% interval of a mean."""
    half = 1.96 * pl.col(sd).fill_null(0) / pl.col(n).cast(pl.Float64).sqrt()
    return frame.with_columns((pl.col(mean) - half).alias("low"), (pl.col(mean) + half).alias("high"))


def gap_tests(frame: pl.DataFrame, against: int = 0, key: str = "wins",
              n: str = "n") -> pl.DataFrame:
    """Gives the frame with the difference of each row's rate to row `against` and its p-value."""
    if frame.is_empty():
        return frame.with_columns(pl.lit(None, pl.Float64).alias("vs first"),
                                  pl.lit(None, pl.Float64).alias("p"),
                                  pl.lit(None, pl.Utf8).alias("significance"))
    base = frame.row(against, named=True)
    diffs = [two_proportion(r[key], r[n], base[key], base[n]) for r in frame.iter_rows(named=True)]
    return frame.with_columns(pl.Series("vs first", [d.diff for d in diffs]),
                              pl.Series("p", [d.p for d in diffs]),
                              pl.Series("significance", [d.level for d in diffs]))


# --- the registry -------------------------------------------------------------------------

SectionFn = Callable[[ReportContext], "Section | None"]
COMMON: list[SectionFn] = []
_BY_GAME: dict[str, list[SectionFn]] = {}


def common_section(fn: SectionFn) -> SectionFn:
    COMMON.append(fn)
    return fn


def game_section(game: str):
    """Registers a section that only reports of `game` have."""
    def register(fn: SectionFn) -> SectionFn:
        _BY_GAME.setdefault(game, []).append(fn)
        return fn
    return register


_COMPARE_BY_GAME: dict[str, list[SectionFn]] = {}


def compare_section(game: str):
    """Registers a section that `simulate compare` adds for `game` (e.g. results by role)."""
    def register(fn: SectionFn) -> SectionFn:
        _COMPARE_BY_GAME.setdefault(game, []).append(fn)
        return fn
    return register


def _load_game_sections(game: str) -> None:
    module = f"reports.{game.replace('-', '_')}"  # e.g. sequence-stacks -> reports.sequence_stacks
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise


def sections_for(game: str) -> list[SectionFn]:
    """Gives the common sections, then the game's own (from reports/<game>.py if it exists)."""
    _load_game_sections(game)
    return COMMON + _BY_GAME.get(game, [])


def compare_sections_for(game: str) -> list[SectionFn]:
    """Gives the extra comparison sections a game declares (none for most games)."""
    _load_game_sections(game)
    return list(_COMPARE_BY_GAME.get(game, []))


def _n_caption(n_games: int, unit: str = "games") -> str:
    return f"n = {n_games:,} {unit}; whiskers/bands are 95% Wilson intervals"


# --- sections every game has --------------------------------------------------------------

def headline_totals(ctx: ReportContext, by: str, *more: pl.Expr) -> pl.DataFrame:
    """Gives, per value of `by`: games, the headline's successes (`wins`) and trials (`n`),
    and any further aggregates over the `games` table."""
    head = ctx.game.headline
    return ctx.collect(
        ctx.scan("games")
        .with_columns(*head.per_game())
        .group_by(by)
        .agg(pl.len().alias("games"), pl.col("__s").sum().alias("wins"),
             pl.col("__t").sum().alias("n"), *more), "games")


@common_section
def overview(ctx: ReportContext) -> Section:
    """Gives games, the headline rate and the game's summary aggregates per configuration."""
    head = ctx.game.headline
    frame = headline_totals(ctx, "configuration",
                            *[expr.alias(title) for title, expr in ctx.game.summary])
    frame = with_wilson(frame).sort(ctx.config_rank())
    frame = frame.select("configuration", "games", "n", "wins", "rate", "low", "high",
                         *[t for t, _ in ctx.game.summary])
    runs = ", ".join(str(r.path) for r in ctx.runs)
    return Section("Overview", [Table(
        f"{head.title} by configuration", frame, ("rate", "low", "high"),
        note=f"n = trials ({head.title}); runs: {runs}")])


@common_section
def by_player_count(ctx: ReportContext) -> Section:
    """Gives the headline rate and the share of seats that win, by player count."""
    head = ctx.game.headline
    games = gap_tests(with_wilson(headline_totals(ctx, "players")).sort("players").with_columns(
        pl.col("players").cast(pl.Int64)))
    seats = ctx.collect(
        ctx.scan("seats", ["players", "won"])
        .group_by("players")
        .agg(pl.len().alias("n"), pl.col("won").cast(pl.Int64).sum().alias("wins")), "seats")
    seats = with_wilson(seats).sort("players").with_columns(
        pl.col("players").cast(pl.Int64), (1 / pl.col("players")).alias("fair share"))
    path = charts.rate_lines(
        ctx.chart("headline_by_players"),
        {head.title: (games["players"], games["rate"], games["low"], games["high"]),
         "seat game-win rate": (seats["players"], seats["rate"], seats["low"], seats["high"])},
        title=f"{ctx.game.title}: rates by player count", xlabel="players (count)",
        ylabel="rate (%)", caption=_n_caption(int(games["games"].sum())))
    return Section("Win rate by player count", [
        Table(f"{head.title} by player count", games.select(
            "players", "games", "n", "wins", "rate", "low", "high", "vs first", "p",
            "significance"), ("rate", "low", "high", "vs first"),
            chart=path, chart_caption=_n_caption(int(games["games"].sum())),
            note="vs first: difference to the smallest player count (two-proportion z-test)"),
        Table("Seat game-win rate by player count", seats.select(
            "players", "n", "wins", "rate", "low", "high", "fair share"),
            ("rate", "low", "high", "fair share"),
            note="n = seat-games; tied seats all win, so rates may sum past 100%")])


@common_section
def by_seat(ctx: ReportContext) -> Section:
    """Gives the game-win rate by seat per configuration, balance, and a chi-square test."""
    frame = ctx.collect(
        ctx.scan("seats", ["seat", "won"])
        .group_by("configuration", "seat")
        .agg(pl.len().alias("n"), pl.col("won").cast(pl.Int64).sum().alias("wins")), "seats")
    frame = with_wilson(frame).with_columns(pl.col("seat").cast(pl.Int64)).sort(
        ctx.config_rank(), "seat")
    rows, series = [], {}
    for (config,), part in frame.group_by("configuration", maintain_order=True):
        test = chi_square_equal(part["wins"].to_numpy())
        best = part.row(int(np.argmax(part["rate"].to_numpy())), named=True)
        worst = part.row(int(np.argmin(part["rate"].to_numpy())), named=True)
        gap = two_proportion(best["wins"], best["n"], worst["wins"], worst["n"])
        rows.append((config, int(part["n"].max()), balance(part["rate"].to_list()),
                     best["seat"], worst["seat"], gap.diff, gap.level,
                     test.statistic, test.dof, test.p, significance_level(test.p)))
        if len(series) < 8:
            series[config] = (part["seat"], part["rate"], part["low"], part["high"])
    fairness = pl.DataFrame(rows, orient="row", schema={
        "configuration": pl.Utf8, "games": pl.Int64, "balance": pl.Float64,
        "best seat": pl.Int64, "worst seat": pl.Int64, "gap": pl.Float64,
        "gap significance": pl.Utf8, "chi2": pl.Float64, "dof": pl.Int64, "p": pl.Float64,
        "seats differ": pl.Utf8})
    games = int(fairness["games"].sum())
    shown = "" if len(series) == frame["configuration"].n_unique() else " (first 8 configurations)"
    path = charts.rate_lines(ctx.chart("win_rate_by_seat"), series, band=False,
                             title=f"{ctx.game.title}: game-win rate by seat{shown}",
                             xlabel="seat (0 = first player)", ylabel="game-win rate (%)",
                             caption=_n_caption(games))
    return Section("Win rate by seat", [
        Table("Game-win rate by seat", frame.select(
            "configuration", "seat", "n", "wins", "rate", "low", "high"), ("rate", "low", "high"),
            chart=path, chart_caption=_n_caption(games)),
        Table("Seat balance", fairness, ("balance", "gap"),
              note="balance = 1 − largest win-rate gap between seats; gap significance: "
                   "two-proportion z-test best vs worst seat; chi2: wins against equal seats")])


@common_section
def by_strategy(ctx: ReportContext) -> Section:
    """Gives the game-win rate by strategy (seat-games), with each gap to the best tested."""
    frame = ctx.collect(
        ctx.scan("seats", ["strategy", "won"])
        .group_by("strategy")
        .agg(pl.len().alias("n"), pl.col("won").cast(pl.Int64).sum().alias("wins")), "seats")
    frame = gap_tests(with_wilson(frame).sort("rate", "strategy", descending=[True, False]))
    n = int(frame["n"].sum())
    path = charts.rate_bars(ctx.chart("win_rate_by_strategy"), frame["strategy"].to_list(),
                            frame["rate"], frame["low"], frame["high"],
                            title=f"{ctx.game.title}: game-win rate by strategy",
                            xlabel="strategy", ylabel="game-win rate (%)",
                            caption=_n_caption(n, "seat-games"))
    return Section("Win rate by strategy", [Table(
        "Game-win rate by strategy", frame.select("strategy", "n", "wins", "rate", "low", "high",
                                                  "vs first", "p", "significance"),
        ("rate", "low", "high", "vs first"), chart=path,
        chart_caption=_n_caption(n, "seat-games"),
        note="n = seat-games; vs first: difference to the best strategy (two-proportion z-test)")])


@common_section
def game_length(ctx: ReportContext) -> Section:
    """Gives turns per game (mean, quantiles, histogram) and the stalled rate per configuration."""
    lf = ctx.scan("games", ["turns", "stalled", "players"])
    frame = ctx.collect(
        lf.group_by("configuration").agg(
            pl.len().alias("n"), pl.col("stalled").cast(pl.Int64).sum().alias("wins"),
            pl.col("turns").mean().alias("mean turns"),
            *[pl.col("turns").quantile(q, "nearest").alias(f"p{int(100 * q)}")
              for q in (0.1, 0.25, 0.5, 0.75, 0.9)],
            pl.col("turns").max().alias("max")), "games")
    frame = with_wilson(frame).sort(ctx.config_rank())
    counts = ctx.collect(lf.group_by("players", "turns").agg(pl.len().alias("count")), "games")
    series = {f"{p} players": (part["turns"].to_numpy(), part["count"].to_numpy())
              for (p,), part in counts.sort("players", "turns").group_by("players",
                                                                         maintain_order=True)}
    n = int(frame["n"].sum())
    path = charts.histograms(ctx.chart("game_length"), series,
                             title=f"{ctx.game.title}: game length", xlabel="turns per game",
                             caption=f"n = {n:,} games")
    return Section("Game length and stalled games", [
        Table("Turns per game", frame.select("configuration", "n", "mean turns", "p10", "p25",
                                             "p50", "p75", "p90", "max"),
              chart=path, chart_caption=f"n = {n:,} games"),
        Table("Stalled / turn-cap games", frame.select(
            "configuration", "n", pl.col("wins").alias("stalled"), "rate", "low", "high"),
            ("rate", "low", "high"), note="n = games")])
