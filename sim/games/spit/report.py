"""Spit's own report sections (Speed's too, in hands instead of deals): seat 0's win rate against the
reaction-time ratio, the effect of each rule variant, game length in deals (hands) and in
simulated minutes, and how often the table stalls."""

from __future__ import annotations

import polars as pl

from reports import charts
from reports.sections import (
    ReportContext,
    Section,
    Table,
    _apart_note,
    _n_caption,
    gap_tests,
    with_mean_interval,
    with_wilson,
)


def _length(ctx: ReportContext) -> str:
    """Gives the games column counting a game's deals (Spit) or hands (Speed)."""
    return ctx.game.length


def _variants(ctx: ReportContext) -> list[str]:
    """Gives the games columns holding the rule options in force."""
    names = {c.name for c in ctx.game.columns["games"]}
    fixed = {"winner", "stalls", "sim_seconds", "reaction_ratio", _length(ctx)}
    return [c.name for c in ctx.game.columns["games"] if c.name in names - fixed]


def win_rate_by_reaction_ratio(ctx: ReportContext) -> Section:
    """Gives seat 0's win rate (decided games) against seat 0's / seat 1's mean reaction time."""
    keys = ctx.apart("reaction_ratio")
    frame = ctx.collect(
        ctx.scan("games", ["reaction_ratio", "winner"])
        .filter(pl.col("winner").is_not_null())
        .group_by(*ctx.apart(), pl.col("reaction_ratio").round(3))
        .agg(pl.len().alias("n"), (pl.col("winner") == 0).cast(pl.Int64).sum().alias("wins")),
        "games").sort(keys)
    frame = with_wilson(frame).with_columns(
        (1 / (1 + pl.col("reaction_ratio"))).alias("speed share"))
    n = int(frame["n"].sum())
    title = f"{ctx.game.title}: seat 0's win rate against the reaction-time ratio"
    series = {part["variant"][0] if ctx.split else "seat 0's win rate":
              (part["reaction_ratio"], part["rate"], part["low"], part["high"])
              for part in ctx.per_variant(frame)}
    # equal players (a ratio of 1) are balanced at 50%
    path = charts.rate_lines(
        ctx.chart("win_rate_by_reaction_ratio"), series, target=ctx.target_at([2])[0],
        title=title, xlabel="seat 0's mean reaction time / seat 1's (< 1: seat 0 faster)",
        ylabel="seat 0's game-win rate (%)", caption=_n_caption(n, "decided games"))
    return Section("Win rate against the reaction-time ratio", [Table(
        "Seat 0's win rate by reaction-time ratio",
        frame.select(*keys, "n", "wins", "rate", "low", "high", "speed share"),
        ("rate", "low", "high", "speed share"), chart=path,
        chart_caption=_n_caption(n, "decided games"),
        note="n = decided games (stalled ones left out), pooled over strategies and spreads; "
             "speed share = 1/(1 + ratio): seat 0's share of the two players' speed, the rate a "
             "game decided by speed alone in proportion would give" + _apart_note(ctx))])


def _as_text(value) -> str:
    """Gives a rule option's value as polars writes it as text (true/false, 5, slap)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def variant_effects(ctx: ReportContext) -> Section:
    """Gives, per set of rule options in force: game length, stalls, stalled games and seat 0's
    win rate, each set named by how it differs from the rules as printed."""
    length = _length(ctx)
    variants = _variants(ctx)
    defaults = {k: _as_text(v) for k, v in ctx.game.options(ctx.game.load_rules(None, [])).items()}
    frame = ctx.collect(
        ctx.scan("games", [*variants, length, "sim_seconds", "stalls", "stalled", "winner"])
        .group_by(*ctx.apart(), *[pl.col(v).cast(pl.Utf8) for v in variants])
        .agg(pl.len().alias("n"),
             pl.col(length).cast(pl.Float64).mean().alias(f"mean {length}"),
             pl.col(length).cast(pl.Float64).std().alias("sd"),
             (pl.col("sim_seconds").mean() / 60).alias("mean minutes"),
             (pl.col("stalls").sum() / pl.col(length).sum()).alias(f"stalls per {length[:-1]}"),
             pl.col("stalled").cast(pl.Int64).sum().alias("stalled"),
             (pl.col("winner") == 0).cast(pl.Int64).sum().alias("wins")), "games")
    labels = [", ".join(f"{k}={row[k]}" for k in variants if row[k] != defaults[k]) or "as printed"
              for row in frame.iter_rows(named=True)]
    frame = frame.with_columns(pl.Series("rules", labels)).sort(
        *ctx.apart(), pl.col("rules") != "as printed", "rules")
    frame = with_mean_interval(frame, f"mean {length}", "sd").rename(
        {"low": f"{length} low", "high": f"{length} high"})
    base = frame.filter(pl.col("rules") == "as printed")
    frame = frame.with_columns(
        (pl.col(f"mean {length}") - (base[f"mean {length}"][0] if base.height else None))
        .alias(f"{length} vs printed"))
    frame = gap_tests(with_wilson(frame))
    note = (f"n = games; {length} low/high: 95% interval of the mean; rate = seat 0's game-win "
            "rate (stalled games count as not won); vs first: its difference to the first row "
            "(the rules as printed, when a run has them). Pass runs with other --set values "
            "together to `simulate report` to compare them.")
    return Section("Effect of each rule variant", [Table(
        "Game length, stalls and seat 0's win rate by rule variant", frame.select(
            *ctx.apart(), "rules", "n", f"mean {length}", f"{length} low", f"{length} high",
            f"{length} vs printed", "mean minutes", f"stalls per {length[:-1]}", "stalled",
            "rate", "low", "high", "vs first", "p", "significance"),
        ("rate", "low", "high", "vs first"), note=note)])


def game_length(ctx: ReportContext) -> Section:
    """Gives deals (hands) and simulated minutes per game by configuration, with a histogram."""
    length = _length(ctx)
    lf = ctx.scan("games", [length, "sim_seconds"]).with_columns(
        (pl.col("sim_seconds") / 60).alias("minutes"))
    frame = ctx.collect(lf.group_by("configuration").agg(
        pl.len().alias("n"),
        pl.col(length).cast(pl.Float64).mean().alias(f"mean {length}"),
        *[pl.col(length).quantile(q, "nearest").alias(f"{length} p{int(100 * q)}")
          for q in (0.1, 0.5, 0.9)],
        pl.col("minutes").mean().alias("mean minutes"),
        pl.col("minutes").std().alias("sd"),
        *[pl.col("minutes").quantile(q, "nearest").alias(f"minutes p{int(100 * q)}")
          for q in (0.1, 0.5, 0.9)]), "games")
    frame = with_mean_interval(frame, "mean minutes", "sd").sort(ctx.config_rank())
    counts = ctx.collect(lf.group_by("configuration", pl.col("minutes").round(1)).agg(
        pl.len().alias("count")), "games")
    series = {config: (part["minutes"].to_numpy(), part["count"].to_numpy())
              for (config,), part in counts.sort("configuration", "minutes").group_by(
                  "configuration", maintain_order=True)}
    shown = dict(list(series.items())[:6])
    n = int(frame["n"].sum())
    path = charts.histograms(ctx.chart("simulated_minutes"), shown,
                             title=f"{ctx.game.title}: simulated minutes per game",
                             xlabel="simulated minutes per game", caption=f"n = {n:,} games"
                             + ("" if len(shown) == len(series) else "; first 6 configurations"))
    return Section(f"Game length in {length} and simulated minutes", [Table(
        f"{length.capitalize()} and simulated minutes per game", frame.select(
            "configuration", "n", f"mean {length}", f"{length} p10", f"{length} p50",
            f"{length} p90", "mean minutes", "low", "high", "minutes p10", "minutes p50",
            "minutes p90"), chart=path, chart_caption=f"n = {n:,} games",
        note="low/high: 95% interval of the mean minutes; simulated time adds up reaction "
             "times (moves, stalls, slaps), not shuffling or dealing")])


def stall_frequency(ctx: ReportContext) -> Section:
    """Gives stalls per deal (hand) and per game, and the share of games stalled for good."""
    length = _length(ctx)
    frame = ctx.collect(ctx.scan("games", ["stalls", length, "stalled"]).group_by(
        "configuration").agg(
        pl.len().alias("n"), pl.col("stalls").sum().alias("total stalls"),
        pl.col(length).sum().alias(f"total {length}"),
        pl.col("stalls").cast(pl.Float64).mean().alias("stalls per game"),
        pl.col("stalled").cast(pl.Int64).sum().alias("wins")), "games")
    frame = with_wilson(frame).with_columns(
        (pl.col("total stalls") / pl.col(f"total {length}")).alias(f"stalls per {length[:-1]}"),
    ).sort(ctx.config_rank())
    return Section("Stall frequency", [Table(
        "Stalls (nobody can move)", frame.select(
            "configuration", "n", f"stalls per {length[:-1]}", "stalls per game",
            pl.col("wins").alias("stalled games"), "rate", "low", "high"),
        ("rate", "low", "high"),
        note="a stall is resolved by spitting (Spit) or turning up side-pile cards (Speed); "
             "rate = games that could not be resolved within the caps (recorded as stalled)")])


# two players: balanced is 50% for seat 0

# the report's own sections, in order (Spit and Speed declare them: RealTimeGame)
SECTIONS = (win_rate_by_reaction_ratio, variant_effects, game_length, stall_frequency)
