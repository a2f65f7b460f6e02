"""Sequence Stacks' own report sections: seat advantage by player count, action-card use and
its effect, and stalled games and game length by player count."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from reports import charts
from reports.sections import (
    ReportContext,
    Section,
    Table,
    _n_caption,
    game_section,
    with_mean_interval,
    with_wilson,
)
from reports.stats import normal_sf, significance_level, two_proportion
from sim.sequence_stacks.tables import PLURALS

GAME = "sequence-stacks"


def _vs_share(wins: int, n: int, share: float) -> tuple[float, float]:
    """Gives (rate - share, two-sided p) of a one-proportion z-test against a fair share."""
    if n == 0:
        return math.nan, math.nan
    z = (wins / n - share) / math.sqrt(share * (1 - share) / n)
    return wins / n - share, 2 * normal_sf(abs(z))


@game_section(GAME)
def seat_advantage(ctx: ReportContext) -> Section:
    """Gives each seat's win rate by player count against the fair share 1/players."""
    frame = ctx.collect(
        ctx.scan("seats", ["players", "seat", "won"])
        .group_by("players", "seat")
        .agg(pl.len().alias("n"), pl.col("won").cast(pl.Int64).sum().alias("wins")), "seats")
    frame = with_wilson(frame).with_columns(
        pl.col("players").cast(pl.Int64), pl.col("seat").cast(pl.Int64),
        (1 / pl.col("players").cast(pl.Float64)).alias("fair share")).sort("players", "seat")
    tests = [_vs_share(r["wins"], r["n"], r["fair share"]) for r in frame.iter_rows(named=True)]
    frame = frame.with_columns(pl.Series("vs fair share", [t[0] for t in tests]),
                               pl.Series("p", [t[1] for t in tests]),
                               pl.Series("significance", [significance_level(t[1]) for t in tests]))
    series = {f"{p} players": (part["seat"], part["rate"], part["low"], part["high"])
              for (p,), part in frame.group_by("players", maintain_order=True)}
    games = int(frame.filter(pl.col("seat") == 0)["n"].sum())
    path = charts.rate_lines(ctx.chart("seat_advantage"), series, band=False,
                             title="Sequence Stacks: win rate by seat and player count",
                             xlabel="seat (0 = first player)", ylabel="game-win rate (%)",
                             caption=_n_caption(games))
    return Section("Seat advantage by player count", [Table(
        "Win rate by seat and player count", frame.select(
            "players", "seat", "n", "wins", "rate", "low", "high", "fair share", "vs fair share",
            "p", "significance"), ("rate", "low", "high", "fair share", "vs fair share"),
        chart=path, chart_caption=_n_caption(games),
        note="n = games; stalled games are lost by every seat; vs fair share: rate − 1/players "
             "(one-proportion z-test)")])


@game_section(GAME)
def action_cards(ctx: ReportContext) -> Section:
    """Gives how often each action card is played, and the win rate of the seats that played it
    against the seats that did not."""
    use = ctx.collect(
        ctx.scan("games", ["players", "sequences_blocked", *PLURALS])
        .group_by("players")
        .agg(pl.len().alias("games"),
             *[pl.col(c).cast(pl.Float64).mean().alias(c) for c in PLURALS],
             *[pl.col(c).cast(pl.Float64).std().alias(f"{c} sd") for c in PLURALS]), "games")
    use = use.with_columns(pl.col("players").cast(pl.Int64)).sort("players")
    long = pl.concat([
        with_mean_interval(use.select("players", pl.lit(c).alias("card"), pl.col(c).alias("per game"),
                                      pl.col(f"{c} sd").alias("sd"), pl.col("games").alias("n")),
                           "per game", "sd")
        for c in PLURALS])
    players = use["players"].to_list()
    series = {f"{p} players": tuple(
        np.array([long.filter((pl.col("card") == c) & (pl.col("players") == p))[k][0] for c in PLURALS])
        for k in ("per game", "low", "high")) for p in players}
    games = int(use["games"].sum())
    path = charts.grouped_bars(ctx.chart("action_cards"), list(PLURALS), series,
                               title="Sequence Stacks: action cards played per game",
                               xlabel="action card", ylabel="cards played per game",
                               caption=f"n = {games:,} games; whiskers: 95% interval of the mean")

    played = [f"{c}_played" for c in PLURALS]
    seats = ctx.collect(
        ctx.scan("seats", ["players", "won", *played])
        .group_by("players")
        .agg(*[agg for c in played for agg in (
            (pl.col(c) > 0).sum().alias(f"{c} n"),
            ((pl.col(c) > 0) & pl.col("won")).sum().alias(f"{c} wins"),
            (pl.col(c) == 0).sum().alias(f"{c} n0"),
            ((pl.col(c) == 0) & pl.col("won")).sum().alias(f"{c} wins0"))]), "seats")
    rows = []
    for r in seats.sort("players").iter_rows(named=True):
        for card, c in zip(PLURALS, played):
            n1, w1, n0, w0 = r[f"{c} n"], r[f"{c} wins"], r[f"{c} n0"], r[f"{c} wins0"]
            gap = two_proportion(w1, n1, w0, n0)
            rows.append((int(r["players"]), card, n1, w1 / n1 if n1 else math.nan, n0,
                         w0 / n0 if n0 else math.nan, gap.diff, gap.p, significance_level(gap.p)))
    effect = pl.DataFrame(rows, orient="row", schema={
        "players": pl.Int64, "card": pl.Utf8, "played": pl.Int64, "win rate (played)": pl.Float64,
        "not played": pl.Int64, "win rate (not played)": pl.Float64, "difference": pl.Float64,
        "p": pl.Float64,
        "significance": pl.Utf8})
    return Section("Action cards: use and effect", [
        Table("Action cards played per game", long.select(
            "players", "card", pl.col("n").alias("games"), "per game", "sd", "low", "high"),
            chart=path, chart_caption=f"n = {games:,} games",
            note="low/high: normal 95% interval of the mean"),
        Table("Win rate of seats that played an action card", effect,
              ("win rate (played)", "win rate (not played)", "difference"),
              note="played / not played: seat-games in which the seat played at least one / "
                   "none of the card; an association, not a cause: seats that hold more cards "
                   "(longer games, more turns) also play more action cards; two-proportion z-test"),
    ])


@game_section(GAME)
def length_and_stalls(ctx: ReportContext) -> Section:
    """Gives game length, reshuffles, blocked sequences and the stalled rate by player count."""
    frame = ctx.collect(
        ctx.scan("games", ["players", "turns", "stalled", "reshuffles", "sequences_blocked"])
        .group_by("players")
        .agg(pl.len().alias("n"), pl.col("stalled").cast(pl.Int64).sum().alias("wins"),
             pl.col("turns").mean().alias("mean turns"),
             *[pl.col("turns").quantile(q, "nearest").alias(f"p{int(100 * q)}") for q in (0.1, 0.5, 0.9)],
             pl.col("reshuffles").cast(pl.Float64).mean().alias("reshuffles per game"),
             pl.col("sequences_blocked").cast(pl.Float64).mean().alias("blocked per game")), "games")
    frame = with_wilson(frame).with_columns(pl.col("players").cast(pl.Int64)).sort("players")
    n = int(frame["n"].sum())
    path = charts.rate_lines(ctx.chart("stalled_by_players"),
                             {"stalled": (frame["players"], frame["rate"], frame["low"], frame["high"])},
                             title="Sequence Stacks: stalled games by player count",
                             xlabel="players (count)", ylabel="stalled games (%)",
                             caption=_n_caption(n))
    return Section("Stalled games and game length by player count", [Table(
        "Stalled rate and game length by player count", frame.select(
            "players", "n", pl.col("wins").alias("stalled"), "rate", "low", "high", "mean turns",
            "p10", "p50", "p90", "reshuffles per game", "blocked per game"),
        ("rate", "low", "high"), chart=path, chart_caption=_n_caption(n),
        note="n = games; a game stalls at the turn cap (rules: turn_cap) or the move cap")])
