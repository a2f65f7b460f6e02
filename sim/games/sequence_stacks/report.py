"""Sequence Stacks' own report sections: seat advantage by player count, action-card use and
its effect, and stalled games and game length by player count."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from reports import charts
from reports.sections import (
    SEAT_TEST_NOTE,
    ReportContext,
    Section,
    Table,
    _apart_note,
    _n_caption,
    clustered_totals,
    pairwise_p,
    rate_covariance,
    seat_fairness,
    with_mean_interval,
    with_quantiles,
    with_wilson,
)
from reports.stats import holm, significance_level
from sim.games.sequence_stacks.tables import PLURALS


# a symmetric race: the first player's fair share is 1/players


def seat_advantage(ctx: ReportContext) -> Section:
    """Gives each seat's win rate by player count against an even share (permutation tests)."""
    keys = ctx.apart("players")
    frame, _ = seat_fairness(ctx, keys)
    frame = frame.with_columns(pl.col("players").cast(pl.Int64),
                               (1 / pl.col("players").cast(pl.Float64)).alias("fair share"))
    series = {" · ".join([*group[:-1], f"{group[-1]} players"]):
              (part["seat"], part["rate"], part["low"], part["high"])
              for group, part in frame.group_by(keys, maintain_order=True)}
    games = int(frame.filter(pl.col("seat") == 0)["n"].sum())
    path = charts.rate_lines(ctx.chart("seat_advantage"), series, band=False,
                             title="Sequence Stacks: win rate by seat and player count",
                             xlabel="seat (0 = first player)", ylabel="game-win rate (%)",
                             caption=_n_caption(games))
    return Section("Seat advantage by player count", [Table(
        "Win rate by seat and player count", frame.select(
            *keys, "seat", "n", "wins", "rate", "low", "high", "fair share", "even", "vs even",
            "p", "significance"), ("rate", "low", "high", "fair share", "even", "vs even"),
        chart=path, chart_caption=_n_caption(games),
        note="n = games; stalled games are lost by every seat, so even = fair share × the "
             "decided games' share; " + SEAT_TEST_NOTE + _apart_note(ctx))])


def action_cards(ctx: ReportContext) -> Section:
    """Gives how often each action card is played, and the win rate of the seats that played it
    against the seats that did not."""
    keys = ctx.apart("players")
    use = ctx.collect(
        ctx.scan("games", ["players", "sequences_blocked", *PLURALS])
        .group_by(*keys)
        .agg(pl.len().alias("games"),
             *[pl.col(c).cast(pl.Float64).mean().alias(c) for c in PLURALS],
             *[pl.col(c).cast(pl.Float64).std().alias(f"{c} sd") for c in PLURALS]), "games")
    use = use.with_columns(pl.col("players").cast(pl.Int64)).sort(keys)
    long = pl.concat([
        with_mean_interval(use.select(*keys, pl.lit(c).alias("card"), pl.col(c).alias("per game"),
                                      pl.col(f"{c} sd").alias("sd"), pl.col("games").alias("n")),
                           "per game", "sd")
        for c in PLURALS])
    series = {" · ".join([*group[:-1], f"{group[-1]} players"]): tuple(
        np.array([part.filter(pl.col("card") == c)[k][0] for c in PLURALS])
        for k in ("per game", "low", "high"))
        for group, part in long.group_by(keys, maintain_order=True)}
    games = int(use["games"].sum())
    path = charts.grouped_bars(ctx.chart("action_cards"), list(PLURALS), series,
                               title="Sequence Stacks: action cards played per game",
                               xlabel="action card", ylabel="cards played per game",
                               caption=f"n = {games:,} games; whiskers: 95% interval of the mean")

    rows = []
    for card in PLURALS:
        def seats(slab) -> pl.LazyFrame:
            return ctx.scan("seats", ["players", "game_id", "won", f"{card}_played"], slab
                            ).with_columns((pl.col(f"{card}_played") > 0).alias("played"))
        played = [*keys, "played"]
        frame = with_wilson(clustered_totals(ctx, "seats", played, pl.col("won"), lf=seats)
                            ).sort(played)
        raw = pairwise_p(frame, cov=rate_covariance(ctx, "seats", frame, played, pl.col("won"),
                                                    lf=seats))
        index = {key: i for i, key in enumerate(frame.select(played).iter_rows())}
        for group in frame.select(keys).unique(maintain_order=True).iter_rows():
            one, none = index.get((*group, True)), index.get((*group, False))
            n1, w1 = (frame["n"][one], frame["wins"][one]) if one is not None else (0, 0)
            n0, w0 = (frame["n"][none], frame["wins"][none]) if none is not None else (0, 0)
            p = raw[one, none] if one is not None and none is not None else math.nan
            rows.append((*group[:-1], int(group[-1]), card, int(n1),
                         w1 / n1 if n1 else math.nan, int(n0), w0 / n0 if n0 else math.nan, p))
    effect = pl.DataFrame(rows, orient="row", schema={
        **({"variant": pl.Utf8} if ctx.split else {}),
        "players": pl.Int64, "card": pl.Utf8, "played": pl.Int64, "win rate (played)": pl.Float64,
        "not played": pl.Int64, "win rate (not played)": pl.Float64, "p": pl.Float64})
    adjusted = holm(effect["p"].to_numpy())  # the family: every row of the table
    effect = effect.with_columns(
        (pl.col("win rate (played)") - pl.col("win rate (not played)")).alias("difference"),
        pl.Series("p", adjusted), pl.Series("significance", [significance_level(x) for x in adjusted])
    ).select(*keys, "card", "played", "win rate (played)", "not played",
             "win rate (not played)", "difference", "p", "significance").sort(*keys, "card")
    return Section("Action cards: use and effect", [
        Table("Action cards played per game", long.select(
            *keys, "card", pl.col("n").alias("games"), "per game", "sd", "low", "high"),
            chart=path, chart_caption=f"n = {games:,} games",
            note="low/high: normal 95% interval of the mean" + _apart_note(ctx)),
        Table("Win rate of seats that played an action card", effect,
              ("win rate (played)", "win rate (not played)", "difference"),
              note="played / not played: seat-games in which the seat played at least one / "
                   "none of the card; an association, not a cause: seats that hold more cards "
                   "(longer games, more turns) also play more action cards; p asks: could seats "
                   "that played the card win as often as those that did not? Method: a "
                   "z-test of the difference with games as clusters (seats of a game are dependent), "
                   "Holm-adjusted over every row of the table"),
    ])


def length_and_stalls(ctx: ReportContext) -> Section:
    """Gives game length, reshuffles, blocked sequences and the stalled rate by player count
    (per variant when the report holds several)."""
    keys = ctx.apart("players")
    lf = ctx.scan("games", ["players", "turns", "stalled", "reshuffles", "sequences_blocked"])
    frame = ctx.collect(
        lf.group_by(*keys)
        .agg(pl.len().alias("n"), pl.col("stalled").cast(pl.Int64).sum().alias("wins"),
             pl.col("turns").mean().alias("mean turns"),
             pl.col("reshuffles").cast(pl.Float64).mean().alias("reshuffles per game"),
             pl.col("sequences_blocked").cast(pl.Float64).mean().alias("blocked per game")), "games")
    frame = with_quantiles(ctx, frame, lf, keys, "turns", (0.1, 0.5, 0.9))
    frame = with_wilson(frame).with_columns(pl.col("players").cast(pl.Int64)).sort(keys)
    n = int(frame["n"].sum())
    series = {part["variant"][0] if ctx.split else "stalled":
              (part["players"], part["rate"], part["low"], part["high"])
              for part in ctx.per_variant(frame)}
    path = charts.rate_lines(ctx.chart("stalled_by_players"), series,
                             title="Sequence Stacks: stalled games by player count",
                             xlabel="players (count)", ylabel="stalled games (%)",
                             caption=_n_caption(n))
    return Section("Stalled games and game length by player count", [Table(
        "Stalled rate and game length by player count", frame.select(
            *keys, "n", pl.col("wins").alias("stalled"), "rate", "low", "high", "mean turns",
            "p10", "p50", "p90", "reshuffles per game", "blocked per game"),
        ("rate", "low", "high"), chart=path, chart_caption=_n_caption(n),
        note="n = games; a game stalls at the turn cap (rules: turn_cap) or the move cap"
             + _apart_note(ctx))])


# the report's own sections, in order (the game declares them: SequenceStacks.report_sections)
SECTIONS = (seat_advantage, action_cards, length_and_stalls)
