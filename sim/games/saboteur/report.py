"""Saboteur's own report sections: the miners' rate by player count and saboteurs in play,
gold per round by role, and the final game-win rate by role mix."""

from __future__ import annotations

import numpy as np
import polars as pl

from reports import charts
from reports.sections import (ADJUSTED, CLUSTER, INTERVAL_NOTE, TARGET_PERCENT, VERDICT_NOTE,
                              ReportContext, Rows, Section, Slab, Table, _apart_note, _n_caption,
                              cluster_sums, clustered_totals, gap_tests, rate_covariance,
                              with_mean_interval, with_verdicts, with_wilson)
from reports.stats import mean_design_effect
from reports.verdicts import Driver

# the miners' round-win rate is balanced at 50% (simulate report --target changes it)


def miners_by_player_count(ctx: ReportContext) -> Section | None:
    """Gives the miners' round-win rate by player count, per way of choosing saboteurs (and
    per variant), with its verdict against the target; nothing when the runs choose saboteurs
    one way only (the common "Win rate by player count" then holds this very table)."""
    keys = ctx.apart("saboteurs", "players")
    frame = ctx.collect(
        ctx.scan("games", ["players", "rounds", "miner_rounds", "saboteurs_fixed"])
        .with_columns(pl.when(pl.col("saboteurs_fixed").is_null())
                      .then(pl.lit("role cards dealt"))
                      .otherwise(pl.col("saboteurs_fixed").cast(pl.Utf8) + " saboteurs fixed")
                      .alias("saboteurs"))
        .group_by(*keys)
        .agg(*cluster_sums(pl.col("miner_rounds"), pl.col("rounds"))), "games")
    if frame["saboteurs"].n_unique() < 2:
        return None
    frame = with_verdicts(ctx, with_wilson(frame).with_columns(
        pl.col("players").cast(pl.Int64)).sort(keys))
    lines = keys[:-1]
    series = {" · ".join(group): (part["players"], part["rate"], part["low"], part["high"])
              for group, part in frame.group_by(lines, maintain_order=True)}
    n = int(frame["n"].sum())
    xs = np.array(sorted(set(frame["players"].to_list())), dtype=float)
    path = charts.rate_lines(ctx.chart("miners_by_players"), series,
                             title="Saboteur: miners' round-win rate by player count",
                             xlabel="players (count)", ylabel="miners' round-win rate (%)",
                             caption=_n_caption(n, "rounds"), band=len(series) < 3,
                             target=(xs, ctx.target_at(xs)))
    return Section("Miners' round-win rate by player count", [Table(
        "Miners' round-win rate by player count", frame.select(
            *keys, "games", "n", "wins", "rate", "low", "high", "target", "vs target",
            "vs target low", "vs target high", "verdict"),
        ("rate", "low", "high", *TARGET_PERCENT), chart=path,
        chart_caption=_n_caption(n, "rounds"),
        note="n = rounds played (the rule `rounds` per game); "
             f"{INTERVAL_NOTE}; {VERDICT_NOTE}" + _apart_note(ctx))])


def _round_rows(ctx: ReportContext, columns: list[str]) -> Rows:
    """Gives a slab's rows of one per game and round (the rounds table repeats them per seat)."""
    return lambda slab: ctx.scan("rounds", ["seat", *columns], slab).filter(pl.col("seat") == 0)


def by_saboteurs_in_play(ctx: ReportContext) -> pl.DataFrame:
    """Gives the miners' round-win rate per player count and saboteurs in play (`level`, a
    copy of `saboteurs`), games as clusters; computed once per report."""
    def make() -> pl.DataFrame:
        keys = ctx.apart("players", "saboteurs")
        frame = clustered_totals(ctx, "rounds", keys, pl.col("winner_team") == "miners",
                                 lf=_round_rows(ctx, ["players", "saboteurs", "winner_team",
                                                      "game_id"]))
        return with_wilson(frame).with_columns(
            pl.col("players").cast(pl.Int64), pl.col("saboteurs").cast(pl.Int64),
            pl.col("saboteurs").cast(pl.Int64).alias("level")).sort(keys)
    return ctx.once("miners_by_saboteurs", make)


# what decides most rounds: the saboteurs dealt, which the hidden role cards set
DRIVER = Driver(
    "saboteurs in play", by_saboteurs_in_play, keys=("saboteur_cards.N", "miner_cards.N"),
    why="the role cards beyond the player count stay hidden, so {keys} set the odds of "
        "each deal", unit="rounds", level="{} in play")


def miners_by_saboteurs(ctx: ReportContext) -> Section:
    """Gives the miners' round-win rate by players × saboteurs in play (a heatmap)."""
    keys = ctx.apart("players", "saboteurs")
    frame = by_saboteurs_in_play(ctx)
    # a heatmap row per player count, or per variant and player count: never pooled
    frame = frame.with_columns(ctx.group_label(frame).alias("__row"))
    rows = frame.unique("__row", maintain_order=True)["__row"].to_list()
    saboteurs = sorted(frame["saboteurs"].unique().to_list())
    values, text = charts.grid(frame, rows, saboteurs, "__row", "saboteurs",
                               lambda r: f"{100 * r['rate']:.1f}%\n"
                                         f"±{50 * (r['high'] - r['low']):.1f}\nn={int(r['n']):,}")
    n = int(frame["n"].sum())
    path = charts.heatmap(ctx.chart("miners_by_players_saboteurs"), values,
                          rows, [str(s) for s in saboteurs],
                          title="Saboteur: miners' round-win rate", xlabel="saboteurs in play",
                          ylabel="players" if not ctx.split else "variant",
                          caption=f"n = {n:,} rounds; cell: rate, ± the half-width of its 95% "
                                  "interval (points), rounds; colour: distance from 50%",
                          cell_text=text, colour_label="miners' round-win rate (%)", centre=0.5)
    return Section("Miners' round-win rate by players × saboteurs in play", [Table(
        "Miners' round-win rate by players × saboteurs in play",
        frame.select(*keys, "games", "n", "wins", "rate", "low", "high"),
        ("rate", "low", "high"), chart=path, chart_caption=f"n = {n:,} rounds",
        note=f"n = rounds (a game's rounds may differ in saboteurs in play); {INTERVAL_NOTE}"
             + _apart_note(ctx))])


def with_clustered_mean(frame: pl.DataFrame, mean: str) -> pl.DataFrame:
    """Gives a frame of values summed per game (`cluster_sums`: wins = their total, n, games
    and the sums of squares) and their standard deviation `sd` with the mean (`mean`), its
    95% Student t interval (low, high) on the effective values (eff_n: n over the design
    effect of values clustered in games, at least 1), the cluster sums dropped."""
    deff = mean_design_effect(*(frame[c].to_numpy() for c in ("wins", "n", "games", "__ss",
                                                               "__tt", "__st", "sd")))
    frame = frame.drop("__ss", "__tt", "__st").with_columns(
        (pl.col("wins") / pl.col("n")).alias(mean), pl.Series("eff_n", frame["n"] / deff))
    return with_mean_interval(frame, mean, "sd", n="eff_n")


def gold_by_role(ctx: ReportContext) -> Section:
    """Gives the mean gold gained per round by role and player count, with 95% intervals."""
    keys = ctx.apart("players", "role")
    spread = ctx.collect(
        ctx.scan("rounds", ["players", "role", "gold_gained"])
        .group_by(*keys)
        .agg(pl.col("gold_gained").cast(pl.Float64).std().alias("sd")), "rounds")
    frame = with_clustered_mean(clustered_totals(ctx, "rounds", keys, pl.col("gold_gained"))
                                .join(spread, on=keys, how="left"), "mean gold")
    frame = frame.with_columns(pl.col("players").cast(pl.Int64)).sort(keys)
    # a group of bars per player count, or per variant and player count: never pooled
    frame = frame.with_columns(ctx.group_label(frame).alias("__group"))
    groups = frame.unique("__group", maintain_order=True)["__group"].to_list()
    series = {}
    for role in ("miner", "saboteur"):
        part = {r["__group"]: r for r in frame.filter(pl.col("role") == role).iter_rows(named=True)}
        series[role] = tuple(np.array([part[g][k] if g in part else np.nan for g in groups])
                             for k in ("mean gold", "low", "high"))
    n = int(frame["n"].sum())
    path = charts.grouped_bars(ctx.chart("gold_by_role"), groups, series,
                               title="Saboteur: gold per round by role",
                               xlabel="players (count)" if not ctx.split else "variant",
                               ylabel="gold gained per round (nuggets)",
                               caption=f"n = {n:,} seat-rounds; whiskers: 95% interval of the mean")
    return Section("Gold per round by role", [Table(
        "Gold gained per round by role", frame.select(*keys, "games", "n", "mean gold", "sd",
                                                      "low", "high"),
        chart=path, chart_caption=f"n = {n:,} seat-rounds",
        note="n = seat-rounds; low/high: 95% Student t interval of the mean (nuggets) on the "
             "effective seat-rounds (n over the design effect of seat-rounds clustered in "
             "games, at least 1)" + _apart_note(ctx))])


def win_by_role_mix(ctx: ReportContext) -> Section:
    """Gives the final game-win rate by how many of its game's rounds a seat was a saboteur."""
    # player counts apart: a seat's fair share (1 / players) differs between them
    keys = ctx.apart("players", "rounds", "saboteur rounds")
    # one Int64 key per (run, game, seat) joins much faster than three columns
    key = ((pl.col("run").cast(pl.Int64) * (1 << 40) + pl.col("game_id")) * 16
           + pl.col("seat").cast(pl.Int64)).alias("key")

    def per_game(slab: Slab) -> pl.LazyFrame:
        """Gives a slab's games' wins and seats per role mix (seats of a game are dependent)."""
        roles = (ctx.scan("rounds", ["game_id", "seat", "role"], slab)
                 .group_by(key).agg(pl.len().cast(pl.Int64).alias("rounds"),
                                    (pl.col("role") == "saboteur").cast(pl.Int64).sum()
                                    .alias("saboteur rounds")))
        return (ctx.scan("seats", ["game_id", "seat", "players", "won"], slab)
                .select(key, *CLUSTER, *ctx.apart(), "players", "won")
                .join(roles, on="key", how="inner")
                .group_by(*keys, *CLUSTER)
                .agg(pl.col("won").cast(pl.Float64).sum().alias("__s"),
                     pl.len().cast(pl.Float64).alias("__t")))

    frame = with_wilson(ctx.summed(lambda slab: per_game(slab).group_by(keys).agg(
        *cluster_sums(pl.col("__s"), pl.col("__t"))), keys, "rounds"))
    # games of different lengths are never pooled: each length is compared within itself
    frame = pl.concat([
        gap_tests(part, cov=rate_covariance(ctx, "rounds", part, keys, pl.col("__s"),
                                            pl.col("__t"), lf=per_game))
        for _, part in frame.sort(*keys).group_by(keys[:-1], maintain_order=True)])
    # a small chart per player count (and variant, and game length), wrapped into rows
    facets = {}
    for group, part in frame.group_by(keys[:-1], maintain_order=True):
        *rest, players, rounds = group
        name = " · ".join([*map(str, rest), f"{players} players"]) + (
            f" ({rounds} rounds)" if frame["rounds"].n_unique() > 1 else "")
        facets[name] = ([f"{k} of {r}" for r, k in part.select("rounds", "saboteur rounds")
                         .iter_rows()], part["rate"], part["low"], part["high"])
    n = int(frame["n"].sum())
    path = charts.faceted_bars(ctx.chart("win_by_role_mix"), facets,
                               title="Saboteur: game-win rate by role mix",
                               xlabel="rounds played as a saboteur", ylabel="game-win rate (%)",
                               caption=_n_caption(n, "seat-games"))
    return Section("Final game-win rate by role mix", [Table(
        "Game-win rate by rounds played as a saboteur",
        frame.select(*keys, "n", "wins", "rate", "low", "high", "vs first", "p",
                     "significance"),
        ("rate", "low", "high", "vs first"), chart=path,
        chart_caption=_n_caption(n, "seat-games"),
        note="n = seat-games; rounds: rounds per game; vs first: difference to seats of games "
             "as long, at the same player count, that were never a saboteur; p asks: could "
             "seats with this role mix win as often as those never a saboteur, the gap luck? "
             "Method: a z-test with games as clusters (a game's "
             f"seats fall in several rows), {ADJUSTED}; {INTERVAL_NOTE}" + _apart_note(ctx))])


def compare_by_role(ctx: ReportContext) -> Section:
    """Gives each strategy's round-win rate and gold per round as a miner and as a saboteur."""
    keys = ["role", "strategy"]

    def rows(slab: Slab | None) -> pl.LazyFrame:
        return (ctx.scan("rounds", ["game_id", "seat", "role", "winner_team", "gold_gained"], slab)
                .with_columns(pl.col("seat").cast(pl.Int64))
                .join(ctx.seat_strategies(), on=["run", "setup", "seat"], how="left"))
    won = pl.col("winner_team") == pl.col("role") + "s"
    gold = ctx.collect(rows(None).group_by(*keys).agg(
        pl.col("gold_gained").cast(pl.Float64).mean().alias("mean gold")), "rounds")
    frame = with_wilson(clustered_totals(ctx, "rounds", keys, won, lf=rows)).join(
        gold, on=keys, how="left")
    parts = []
    for (role,), part in frame.sort("role").group_by("role", maintain_order=True):
        part = part.sort("rate", "strategy", descending=[True, False])
        # strategies at one table share its games and rounds: their rates are dependent
        parts.append(gap_tests(part, cov=rate_covariance(ctx, "rounds", part, keys, won, lf=rows)))
    frame = pl.concat(parts)
    roles = frame["role"].unique(maintain_order=True).to_list()
    series = {}
    for name in sorted(frame["strategy"].unique().to_list()):
        rows = {r["role"]: r for r in frame.filter(pl.col("strategy") == name).iter_rows(named=True)}
        series[name] = tuple(np.array([rows[x][k] if x in rows else np.nan for x in roles])
                             for k in ("rate", "low", "high"))
    n = int(frame["n"].sum())
    path = charts.grouped_bars(ctx.chart("compare_by_role"), roles, series, percent=True,
                               title="Saboteur: round-win rate by role and strategy",
                               xlabel="role in the round", ylabel="round-win rate (%)",
                               caption=_n_caption(n, "seat-rounds"))
    return Section("By role", [Table(
        "Round-win rate by role and strategy",
        frame.select("role", "strategy", "n", "wins", "rate", "low", "high", "mean gold",
                     "vs first", "p", "significance"),
        ("rate", "low", "high", "vs first"), chart=path,
        chart_caption=_n_caption(n, "seat-rounds"),
        note="n = seat-rounds; vs first: difference to the best strategy in that role; p "
             "asks: could this strategy play the role as well as the best? Method: a "
             "z-test with games as clusters (a game's rounds and seats are dependent), "
             f"{ADJUSTED} (every pair of strategies in the role: the data picked the best); "
             f"{INTERVAL_NOTE}")])


# the report's own sections, in order, and `simulate compare`'s (the game declares them:
# Saboteur.report_sections, compare_sections and driver)
SECTIONS = (miners_by_player_count, miners_by_saboteurs, gold_by_role, win_by_role_mix)
COMPARE_SECTIONS = (compare_by_role,)
