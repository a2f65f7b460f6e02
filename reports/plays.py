"""How the game plays, from the progress each game records (sim/progress.py, the `progress`
table): whether the leader at 25%, 50% and 75% of a game goes on to win (the decisiveness curve),
from when the winner leads for good, how often the lead changes, how often a seat trailing at
half-time wins and by how much it trailed, how long games are and how many decisions a seat
makes, and which kinds of move the seats use.

The leader at a point is the one side (seat or team) with the highest progress there; a point
where several share the highest has no leader. A game counts where it has a winner (stalled
games have none); every figure's unit is the game, so its interval is a plain 95% one (Wilson's
for shares, Student's t for means).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from reports.sections import (INTERVAL_NOTE, ReportContext, Section, Slab, Table, common_section,
                              with_mean_interval, with_quantiles, with_wilson)
from sim.errors import UserError
from sim.game import progress_of
from sim.progress import PERCENTS
from sim.usage import PREFIX

RUNAWAY = 0.80
"""A runaway leader: the leader at half-time wins more than this share of the games it leads,
its whole 95% interval above it (the Answer's sentence)."""
QUARTILES = (25, 50, 75)
HALF = 50
END = PERCENTS[-1]
_NEXT = dict(zip(PERCENTS[:-1], PERCENTS[1:]))  # each point's next, for "leads for good from"
_MEANS = ("lead changes", "leads for good from", "deficit", "decisions per seat")
SHARE_NOTE = ("low/high: the shares the games played are consistent with (95% Wilson interval, "
              "games as the unit)")
MEAN_NOTE = "low/high: a 95% Student t interval of the mean, games as the unit"


def _points(ctx: ReportContext, slab: Slab, progress) -> pl.DataFrame:
    """Gives one row per game (or round) and point of a slab: the top progress, the sole
    leader (null where several share the top), the winner and its progress, the decisions
    made so far."""
    keys = ["run", "game_id", *(["round"] if progress.by_round else [])]
    winners = (ctx.scan("rounds" if progress.by_round else "games", slab=slab)
               .select(*keys, progress.winner.cast(pl.Utf8).alias("winner")).unique(keys))
    rows = (ctx.scan("progress", slab=slab)
            .with_columns(pl.col(progress.side).cast(pl.Utf8).alias("side"))
            .join(winners, on=keys, how="left"))
    return ctx.collect(leaders(rows), "progress")


def leaders(rows: pl.LazyFrame) -> pl.LazyFrame:
    """Gives per game and point, from progress rows with their `side` and the game's `winner`
    (both as text; winner null when nobody won): the top progress, the sole leader (null where
    several share the top), the winner's progress, whether the game is decided and the
    leader is its winner (`leads`), and the decisions made so far by all sides."""
    top = pl.col("value") == pl.col("value").max()
    lf = rows.group_by(*_unit(rows.collect_schema().names()), "point").agg(
        pl.col("value").max().alias("top"), top.sum().alias("at_top"),
        pl.col("side").filter(top).first().alias("leader"),
        pl.col("value").filter(pl.col("side") == pl.col("winner")).first().alias("won_value"),
        pl.col("winner").first(), pl.col("decisions").sum(), pl.col("players").first())
    lf = lf.with_columns(pl.when(pl.col("at_top") == 1).then(pl.col("leader")).alias("leader"))
    return lf.with_columns(pl.col("winner").is_not_null().alias("decided"),
                           (pl.col("leader") == pl.col("winner")).fill_null(False).alias("leads"))


def _unit(columns) -> list[str]:
    """Gives the columns naming a game (with a round column: a round) of a configuration."""
    return ["configuration", "run", "game_id", *(["round"] if "round" in columns else [])]


def _sums(value: pl.Expr, name: str) -> list[pl.Expr]:
    """Gives a mean's sums over games where `value` is not null: its n, Σ and Σ²."""
    v = value.cast(pl.Float64)
    return [v.is_not_null().sum().alias(f"{name}|n"), v.sum().alias(f"{name}|sum"),
            (v * v).sum().alias(f"{name}|sq")]


def slab_totals(points: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Gives a slab's sums per configuration and point (the curve's) and per configuration
    (the games' own figures)."""
    decided = pl.col("decided")
    curve = points.group_by("configuration", "point").agg(
        (decided & pl.col("leader").is_not_null()).sum().alias("n"),
        (decided & pl.col("leads")).sum().alias("wins"),
        decided.sum().alias("decided"))
    ordered = pl.col("leader").sort_by("point").filter(pl.col("leader").sort_by("point")
                                                        .is_not_null())
    at = lambda expr, point: expr.filter(pl.col("point") == point).first()  # noqa: E731
    games = points.group_by(*_unit(points.columns)).agg(
        decided.first(),
        (ordered != ordered.shift(1)).sum().alias("lead changes"),
        pl.col("point").filter(~pl.col("leads")).max().alias("last_not_leading"),
        at(pl.col("won_value") < pl.col("top"), HALF).alias("trailed"),
        at(pl.col("top") - pl.col("won_value"), HALF).alias("deficit"),
        at(pl.col("decisions") / pl.col("players"), END).alias("decisions per seat"))
    games = games.with_columns(
        pl.when(pl.col("last_not_leading").is_null()).then(0)
        .when(pl.col("last_not_leading") < END)
        .then(pl.col("last_not_leading").replace_strict(_NEXT, default=None))
        .alias("leads for good from"))
    d = pl.col("decided")
    totals = games.group_by("configuration").agg(
        pl.len().alias("games"), d.sum().alias("decided"),
        (d & pl.col("trailed")).sum().alias("comebacks"),
        (d & pl.col("leads for good from").is_not_null()).sum().alias("settled"),
        *_sums(pl.col("lead changes"), "lead changes"),
        *_sums(pl.col("leads for good from").filter(d), "leads for good from"),
        *_sums(pl.col("deficit").filter(d & pl.col("trailed")), "deficit"),
        *_sums(pl.col("decisions per seat").filter(d), "decisions per seat"))
    return curve, totals


def figures(ctx: ReportContext) -> tuple[pl.DataFrame, pl.DataFrame] | None:
    """Gives the decisiveness curve (per configuration and point: n games with a leader, wins
    by it, rate, low, high) and the games' figures per configuration (sums and counts), once per
    report; None when the game declares no progress or the runs recorded none."""
    progress = progress_of(ctx.game)
    if progress is None:
        return None

    def make():
        try:
            parts = [slab_totals(_points(ctx, slab, progress))
                     for slab in ctx.slabs()]
        except (UserError, pl.exceptions.ColumnNotFoundError):
            return None  # runs from before the progress table
        curve = pl.concat([c for c, _ in parts]).group_by("configuration", "point").agg(
            pl.all().sum())
        totals = pl.concat([t for _, t in parts]).group_by("configuration").agg(pl.all().sum())
        return (with_wilson(curve).sort(ctx.config_rank(), "point"),
                totals.sort(ctx.config_rank()))

    return ctx.once("plays", make)


def _mean(totals: pl.DataFrame, name: str) -> pl.DataFrame:
    """Gives per configuration the mean of `name` with its n and 95% t interval."""
    n, s, sq = (pl.col(f"{name}|{k}") for k in ("n", "sum", "sq"))
    frame = totals.select("configuration", n.alias("n"), (s / n).alias("mean"),
                          ((sq - s * s / n) / (n - 1)).clip(0).sqrt().alias("sd"))
    return with_mean_interval(frame, "mean", "sd").drop("sd")


def leader_at_half_wins(ctx: ReportContext) -> pl.DataFrame:
    """Gives per configuration the share of decided games with a leader at half-time that the
    leader won: configuration, estimate, low, high (empty when no progress was recorded)."""
    found = figures(ctx)
    schema = {"configuration": pl.Utf8, "estimate": pl.Float64, "low": pl.Float64,
              "high": pl.Float64}
    if found is None:
        return pl.DataFrame(schema=schema)
    return found[0].filter(pl.col("point") == HALF).select(
        "configuration", pl.col("rate").alias("estimate"), "low", "high")


def runaway_sentence(ctx: ReportContext) -> str:
    """Gives the Answer's sentence on a runaway leader, naming the configurations whose leader
    at half-time wins more than RUNAWAY of the games, its whole interval above ("" if none)."""
    found = leader_at_half_wins(ctx).filter(pl.col("low") > RUNAWAY)
    if not found.height:
        return ""
    progress = progress_of(ctx.game)
    unit = "rounds" if progress.by_round else "games"
    rows = [f"{r['configuration']} ({100 * r['estimate']:.1f}% [{100 * r['low']:.1f}, "
            f"{100 * r['high']:.1f}])" for r in found.iter_rows(named=True)]
    listed = rows[0] if len(rows) == 1 else ", ".join(rows[:-1]) + " and " + rows[-1]
    return (f"A runaway leader: the leader at half-time goes on to win more than "
            f"{RUNAWAY:.0%} of the {unit} with a leader then, the whole interval above, at "
            f"{listed}.")


def _curve_chart(ctx: ReportContext, curve: pl.DataFrame, unit: str, sides: int | None
                 ) -> tuple:
    """Gives the decisiveness curve's chart (at most 8 configurations) and its caption; the
    dashed fair share is 1/players, or 1/sides where teams are the sides."""
    from reports import charts

    shown = [c for c in ctx.order if c in set(curve["configuration"])][:8]
    players = dict(ctx.configs.select("configuration", "cfg_players").iter_rows())
    series, fair = {}, {}
    for config in shown:
        part = curve.filter((pl.col("configuration") == config) & (pl.col("n") > 0))
        series[config] = (part["point"], part["rate"], part["low"], part["high"])
        fair[config] = 1 / (sides or players[config])
    decided = int(curve.filter(pl.col("point") == 0)["decided"].sum())
    caption = (f"n = {decided:,} decided {unit}s; bands are 95% Wilson intervals; dashed: a "
               f"fair share (1/{'teams' if sides else 'players'}), a leader no likelier to win "
               "than any other")
    more = "" if len(shown) == curve["configuration"].n_unique() else " (first 8 configurations)"
    path = charts.rate_lines(ctx.chart("decisiveness"), series, targets=fair,
                             title=f"{ctx.game.title}: does the leader win?{more}",
                             xlabel=f"share of the {unit} played (% of its moves)",
                             ylabel=f"{unit}s won by the leader (%)", caption=caption)
    return path, caption


@common_section
def how_it_plays(ctx: ReportContext) -> Section | None:
    """Gives "How the game plays": the decisiveness curve with its chart, when the winner leads
    for good, lead changes, comebacks, length and decisions, and the moves' use."""
    progress = progress_of(ctx.game)
    found = figures(ctx)
    if found is None:
        why = ("the game declares no progress signal" if progress is None
               else "these runs recorded no progress (made before the progress table existed)")
        return Section("How the game plays", [_length(ctx), *_usage(ctx)],
                       text=f"Only length and the moves' use: {why}.")
    curve, totals = found
    unit = "round" if progress.by_round else "game"
    side = "team" if progress.teams else "seat"
    path, caption = _curve_chart(ctx, curve, unit, len(progress.teams) or None)
    quartiles = (curve.filter(pl.col("point").is_in(QUARTILES))
                 .select("configuration", pl.col("point").alias("at %"), "decided",
                         pl.col("n").alias("with a leader"), pl.col("wins").alias("leader won"),
                         "rate", "low", "high"))
    changes, settled, deficit = (_mean(totals, name) for name in _MEANS[:3])
    comebacks = with_wilson(totals.select("configuration", "comebacks", "decided"),
                            "comebacks", "decided")
    shares = SHARE_NOTE.replace("games", f"{unit}s")
    means = MEAN_NOTE.replace("games", f"{unit}s")
    return Section("How the game plays", [
        Table("Does the leader win? (the decisiveness curve)", quartiles,
              ("rate", "low", "high"), chart=path, chart_caption=caption,
              note=f"the leader: the one {side} with the highest progress at that share of the "
                   f"{unit}'s moves (none where several share it); decided: {unit}s with a "
                   f"winner; rate: the share of those with a leader that the leader won; "
                   f"{shares}"),
        Table("When the winner takes the lead for good", settled.join(
            totals.select("configuration", "decided", "settled"), on="configuration",
            maintain_order="left"),
            note=f"mean: the share of the {unit}'s moves (%) from which its winner leads at "
                 f"every point read (0, 10, 20, 25, ... 100%); settled: decided {unit}s whose "
                 f"winner leads at the end (the others count in no mean); {means}"),
        Table(f"Lead changes per {unit}", changes,
              note=f"changes of the {side} in the lead between the points read, a point "
                   f"without a sole leader skipped; every {unit} counts; {means}"),
        Table(f"Comebacks: {unit}s won by a {side} trailing at half-time", comebacks.select(
            "configuration", pl.col("decided").alias("n"), pl.col("comebacks").alias("won"),
            "rate", "low", "high").join(
                deficit.select("configuration",
                               pl.col("mean").alias(f"trailed by ({progress.unit})"),
                               pl.col("low").alias("by low"), pl.col("high").alias("by high")),
                on="configuration", how="left", maintain_order="left"),
              ("rate", "low", "high"),
              note=f"n: decided {unit}s; won: those whose winner had less progress than the "
                   f"leader at 50% of the moves; trailed by: how far behind the leader it was "
                   f"then, in {progress.unit} (mean over the comebacks, with its 95% t "
                   f"interval); {shares}"),
        _length(ctx, _mean(totals, "decisions per seat"), unit),
        *_usage(ctx)],
        text=f"From each {unit}'s progress, read at 0%, 10%, 20%, 25%, ... 100% of its moves, "
             f"per {side}: {progress.meaning} ({progress.unit}; higher is closer to winning). "
             "Not recorded: the share of a seat's turns with a real choice and the number of "
             "legal moves (the fast bots do not all list every legal move at a turn, so "
             "counting them would add that listing to every turn).")


def _length(ctx: ReportContext, decisions: pl.DataFrame | None = None, unit: str = "game"
            ) -> Table:
    """Gives the table of game length per configuration: turns (mean with its interval and
    quantiles) and, from the progress, a seat's decisions per game."""
    lf = ctx.scan("games", ["turns"])
    frame = ctx.collect(lf.group_by("configuration").agg(
        pl.len().alias("n"), pl.col("turns").mean().alias("mean turns"),
        pl.col("turns").std().alias("sd")), "games")
    frame = with_mean_interval(frame, "mean turns", "sd").drop("sd")
    frame = with_quantiles(ctx, frame, lf, ["configuration"], "turns", (0.1, 0.5, 0.9))
    frame = frame.sort(ctx.config_rank())
    note = (f"turns as the games table counts them; p10/p50/p90: their distribution "
            f"(the histogram is in Game length); {MEAN_NOTE}")
    if decisions is not None:
        frame = frame.join(decisions.select(
            "configuration", pl.col("mean").alias("decisions per seat"),
            pl.col("low").alias("decisions low"), pl.col("high").alias("decisions high")),
            on="configuration", how="left", maintain_order="left")
        note += (f"; decisions per seat: the moves a seat made in a {unit} (the progress "
                 "table's), over the decided ones (a stalled one runs to the move cap)")
    return Table("Length: turns per game and a seat's decisions", frame, note=note)


def _usage(ctx: ReportContext) -> list[Table]:
    """Gives the share of seat-games that played each kind of move at least once and the
    uses per seat-game, per configuration (none for a game that counts no kinds)."""
    names = [c for c in ctx.scan("seats").collect_schema().names() if c.startswith(PREFIX)]
    if not names:
        return []
    rows = []
    for name in names:
        used = (pl.col(name) > 0).cast(pl.Float64)
        part = ctx.collect(ctx.scan("seats", ["game_id", name]).group_by(
            "configuration", "run", "game_id").agg(used.sum().alias("s"), pl.len().alias("t"),
                                                   pl.col(name).sum().alias("u"))
            .group_by("configuration").agg(
                pl.len().alias("games"), pl.col("s").sum().alias("wins"),
                pl.col("t").sum().alias("n"), pl.col("u").sum().alias("uses"),
                (pl.col("s") ** 2).sum().alias("__ss"), (pl.col("t") ** 2).sum().alias("__tt"),
                (pl.col("s") * pl.col("t")).sum().alias("__st")), "seats")
        rows.append(with_wilson(part).with_columns(pl.lit(name[len(PREFIX):]).alias("move")))
    frame = pl.concat(rows).sort(ctx.config_rank(), "rate", descending=[False, True])
    frame = frame.select("configuration", "move", pl.col("n").alias("seat-games"),
                         pl.col("wins").alias("used"), "rate", "low", "high",
                         (pl.col("uses") / pl.col("n")).alias("uses per seat-game"))
    return [Table("Moves used: seat-games playing each kind at least once", frame,
                  ("rate", "low", "high"),
                  note="a kind no seat-game uses (rate 0) is one nobody plays; how often a kind "
                       "could have been played is not recorded, so this is its use, not its "
                       f"use when available; {INTERVAL_NOTE}")]
