"""A designer's profile: the ranges a game's figures should fall in (its headline rate, seat
fairness, length, the leader at half-time, skill expression), read from a TOML file and checked
per configuration against each figure's 95% interval.

A profile is a `[targets]` table of KEY = [LOW, HIGH]. Each key of KEYS names the function
that measures it, `(ReportContext) -> frame of configuration, estimate, low, high`; a target is
*met* when the interval lies inside its range, *missed* when it lies wholly outside, and
otherwise these games cannot tell (as every sentence of the Answer decides).
"""

from __future__ import annotations

import difflib
import importlib
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from reports import answer
from reports.sections import (ReportContext, Section, Table, with_mean_interval, with_wilson,
                              headline_totals)
from reports.stats import ALPHA, wilson_arrays
from sim.errors import UserError

MET, MISSED, UNTOLD = "met", "missed", "cannot tell at this sample size"


@dataclass(frozen=True)
class Key:
    """A figure a profile can target: what it is in words, the function that measures it per
    configuration ("module:function"), whether it is a share or a difference of shares (shown
    in %, its range within [lowest, 1]: lowest 0 for a share, -1 for a difference), and why
    balance --profile cannot search for it ("" when it can)."""

    what: str
    measure: str
    share: bool = True
    unsearchable: str = ""
    lowest: float = 0.0


KEYS = {
    "headline": Key("the headline rate", "reports.profile:headline"),
    "headline_vs_target": Key("the headline rate minus its target at the player count (the "
                              "game's own, e.g. a fair share, 1 / players)",
                              "reports.profile:headline_vs_target", lowest=-1.0),
    "first_seat": Key("the first seat's game-win rate", "reports.profile:first_seat"),
    "first_seat_vs_fair": Key("the first seat's game-win rate minus a fair share, 1 / players",
                              "reports.profile:first_seat_vs_fair", lowest=-1.0),
    "seat_gap": Key("the largest gap between two seats' game-win rates",
                    "reports.profile:seat_gap"),
    "turns": Key("the mean game length in turns", "reports.profile:turns", share=False),
    "stalled": Key("the share of stalled or turn-capped games", "reports.profile:stalled"),
    "leader_at_half_wins": Key("the share of games the leader at half-time wins",
                               "reports.plays:leader_at_half_wins"),
    "skill_expression": Key("how often the top rung beats the bottom one",
                            "reports.skill:skill_expression",
                            unsearchable="it compares a ladder's rungs, and a search plays one "
                                         "skill (--strategy, --role-strategy); check it with "
                                         "report --profile on a ladder's runs"),
}


class Unmeasured(Exception):
    """A figure these runs cannot give (the game rolls its starter, no ladder was played, ...):
    its message says why, in one line."""


@dataclass(frozen=True)
class Profile:
    """A designer's targets: key -> (low, high), in the file's order."""

    path: Path
    targets: dict[str, tuple[float, float]]

    @property
    def name(self) -> str:
        return self.path.name


def load(path: str | Path) -> Profile:
    """Gives the profile in `path`; UserError, one line naming the file and the key, for a file
    that cannot be read, is not TOML, has no [targets], names an unknown key (with the nearest
    known one) or a range that is not two numbers LOW <= HIGH (within [0, 1] for a share).
    configs/NAME is the package's example when the working folder has no such file."""
    from sim.packaged import user_file

    path = user_file(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"--profile: cannot read {path}: {getattr(e, 'strerror', None) or e}") \
            from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"--profile {path}: not a TOML file ({e})") from None
    others = [k for k in data if k != "targets"]
    if others:
        raise UserError(f"--profile {path}: unknown table or key {others[0]!r}; a profile holds "
                        "one [targets] table")
    targets = data.get("targets")
    if not isinstance(targets, dict) or not targets:
        raise UserError(f"--profile {path}: no targets; write them under [targets], e.g. "
                        "first_seat = [0.40, 0.60]")
    return Profile(path, {key: _range(path, key, value) for key, value in targets.items()})


def _range(path: Path, key: str, value) -> tuple[float, float]:
    """Gives a target's (low, high), checked against its key."""
    if key not in KEYS:
        near = difflib.get_close_matches(key, list(KEYS), n=1)
        hint = f" (did you mean {near[0]}?)" if near else ""
        raise UserError(f"--profile {path}: unknown target {key!r}{hint}; the targets are "
                        f"{', '.join(KEYS)}")
    numbers = (isinstance(value, list) and len(value) == 2
               and all(isinstance(v, int | float) and not isinstance(v, bool)
                       and math.isfinite(v) for v in value))
    if not numbers or value[0] > value[1]:
        raise UserError(f"--profile {path}: {key} takes [LOW, HIGH], two numbers with LOW <= "
                        f"HIGH, got {value!r}")
    lowest = KEYS[key].lowest
    if KEYS[key].share and not lowest <= value[0] <= value[1] <= 1:
        what = "a share" if lowest == 0 else "a difference of shares"
        raise UserError(f"--profile {path}: {key} is {what}: its range lies within "
                        f"[{lowest:g}, 1], got {value!r}")
    return float(value[0]), float(value[1])


# --- the measures ------------------------------------------------------------------------------

def _frame(frame: pl.DataFrame, estimate: str = "rate") -> pl.DataFrame:
    return frame.select("configuration", pl.col(estimate).alias("estimate"), "low", "high")


def headline(ctx: ReportContext) -> pl.DataFrame:
    """Gives the headline rate per configuration with its 95% interval (games as clusters)."""
    return _frame(with_wilson(headline_totals(ctx, "configuration")))


def _seat_totals(ctx: ReportContext) -> pl.DataFrame:
    return ctx.collect(ctx.scan("seats", ["seat", "won"]).group_by("configuration", "seat").agg(
        pl.len().alias("n"), pl.col("won").cast(pl.Int64).sum().alias("wins")), "seats")


def first_seat(ctx: ReportContext) -> pl.DataFrame:
    """Gives seat 0's game-win rate per configuration with its 95% Wilson interval (a seat plays
    a game once); Unmeasured when the game rolls its starter (seat 0 is then not the first)."""
    if getattr(ctx.game, "rolled_starter", False):
        raise Unmeasured("the game rolls who starts, so seat 0 is not the first player")
    return _frame(with_wilson(_seat_totals(ctx).filter(pl.col("seat") == 0)))


def _less(ctx: ReportContext, frame: pl.DataFrame, goal) -> pl.DataFrame:
    """Gives the frame's estimates and intervals less `goal(players)`, each configuration's."""
    counts = ctx.configs.unique("configuration").select("configuration", "cfg_players")
    at = frame.join(counts, on="configuration", how="left", maintain_order="left")
    less = pl.Series(goal(at["cfg_players"].to_numpy()), dtype=pl.Float64)
    return at.select("configuration", *(pl.col(c) - less for c in ("estimate", "low", "high")))


def headline_vs_target(ctx: ReportContext) -> pl.DataFrame:
    """Gives the headline rate less its target at each configuration's player count (--target,
    else the game's), with its 95% interval: a range that holds at every player count."""
    return _less(ctx, headline(ctx), ctx.target_at)


def first_seat_vs_fair(ctx: ReportContext) -> pl.DataFrame:
    """Gives the first seat's game-win rate less a fair share (1 / players) per configuration,
    with its 95% interval: a range that holds at every player count."""
    return _less(ctx, first_seat(ctx), lambda players: 1 / players)


def seat_gap(ctx: ReportContext) -> pl.DataFrame:
    """Gives the gap between the best and the worst seat's game-win rate per configuration,
    with a 95% interval from the seats' simultaneous intervals (Wilson at 5% / seats,
    Bonferroni): if every seat's rate lies in its interval, the gap lies between the highest
    low less the lowest high (at least 0) and the highest high less the lowest low."""
    rows = []
    for (config,), part in _seat_totals(ctx).group_by("configuration", maintain_order=True):
        wins, n = part["wins"].to_numpy().astype(float), part["n"].to_numpy().astype(float)
        low, high = wilson_arrays(wins, n, ALPHA / part.height)
        rate = wins / n
        rows.append((config, float(rate.max() - rate.min()),
                     float(max(0.0, low.max() - high.min())), float(high.max() - low.min())))
    return pl.DataFrame(rows, orient="row", schema={
        "configuration": pl.Utf8, "estimate": pl.Float64, "low": pl.Float64, "high": pl.Float64})


def turns(ctx: ReportContext) -> pl.DataFrame:
    """Gives the mean turns per game per configuration with its 95% t interval (games are
    independent)."""
    frame = ctx.collect(ctx.scan("games", ["turns"]).group_by("configuration").agg(
        pl.len().alias("n"), pl.col("turns").cast(pl.Float64).mean().alias("mean"),
        pl.col("turns").cast(pl.Float64).std().alias("sd")), "games")
    return _frame(with_mean_interval(frame, "mean", "sd"), "mean")


def stalled(ctx: ReportContext) -> pl.DataFrame:
    """Gives the share of games stalled or turn-capped per configuration with its 95% Wilson
    interval."""
    frame = ctx.collect(ctx.scan("games", ["stalled"]).group_by("configuration").agg(
        pl.len().alias("n"), pl.col("stalled").cast(pl.Int64).sum().alias("wins")), "games")
    return _frame(with_wilson(frame))


def measure(ctx: ReportContext, key: str) -> pl.DataFrame:
    """Gives KEYS[key]'s frame (configuration, estimate, low, high); Unmeasured, saying why,
    when these runs or this installation cannot give it."""
    module, _, name = KEYS[key].measure.partition(":")
    try:
        fn = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        raise Unmeasured(f"it needs {module}.{name}, which this installation lacks") from None
    try:
        return fn(ctx)
    except UserError as e:  # a figure that needs what the runs lack (a ladder, a progress table)
        raise Unmeasured(str(e)) from None


# --- the verdicts ------------------------------------------------------------------------------

def verdict(low: float, high: float, bounds: tuple[float, float]) -> str:
    """Gives a target's verdict from the 95% interval: met when it lies inside the range,
    missed when wholly outside it, else cannot tell (no interval included)."""
    if any(map(math.isnan, (low, high))):
        return UNTOLD
    if bounds[0] <= low and high <= bounds[1]:
        return MET
    if high < bounds[0] or low > bounds[1]:
        return MISSED
    return UNTOLD


def verdicts(frame: pl.DataFrame, bounds: tuple[float, float]) -> pl.Series:
    """Gives the verdict of each row (estimate, low, high) against a range."""
    return pl.Series("verdict", [verdict(lo, hi, bounds) for lo, hi in
                                 zip(frame["low"].to_list(), frame["high"].to_list())],
                     dtype=pl.Utf8)


@dataclass
class Checked:
    """A profile checked on runs: a row per target and configuration, and the targets these
    runs cannot measure, with why."""

    profile: Profile
    rows: pl.DataFrame  # target, configuration, estimate, low, high, target low/high, verdict
    unmeasured: dict[str, str]


def check(ctx: ReportContext, profile: Profile) -> Checked:
    """Gives every target of the profile checked per configuration of the report."""
    parts, unmeasured = [], {}
    for key, bounds in profile.targets.items():
        try:
            frame = measure(ctx, key)
        except Unmeasured as e:
            unmeasured[key] = str(e)
            continue
        parts.append(frame.with_columns(
            pl.lit(key).alias("target"), pl.col("estimate").cast(pl.Float64),
            pl.col("low").cast(pl.Float64), pl.col("high").cast(pl.Float64),
            pl.lit(bounds[0]).alias("target low"), pl.lit(bounds[1]).alias("target high"),
            verdicts(frame, bounds)))
    columns = ["target", "configuration", "estimate", "low", "high", "target low",
               "target high", "verdict"]
    rows = (pl.concat([p.select(columns) for p in parts]) if parts else
            pl.DataFrame(schema={c: pl.Float64 if c in columns[2:7] else pl.Utf8
                                 for c in columns}))
    return Checked(profile, rows, unmeasured)


def checked(ctx: ReportContext) -> Checked | None:
    """Gives the report's profile checked (computed once: the section and the Answer read it),
    None without --profile."""
    profile = getattr(ctx, "profile", None)
    return None if profile is None else ctx.once("profile", lambda: check(ctx, profile))


def figure(key: str, x: float) -> str:
    """Gives a figure as the key shows it: a share in %, a difference in points, else a
    number."""
    if KEYS[key].share and KEYS[key].lowest < 0:
        return f"{100 * x:+.1f} points"
    return f"{100 * x:.1f}%" if KEYS[key].share else f"{x:,.1f}"


def bounds_text(key: str, lo: float, hi: float) -> str:
    """Gives a target's range as the key shows it: "40–60%", "-5 to 5 points", "10–200"."""
    if KEYS[key].share and KEYS[key].lowest < 0:
        return f"{100 * lo:g} to {100 * hi:g} points"
    if KEYS[key].share:
        return f"{100 * lo:g}–{100 * hi:g}%"
    return f"{lo:g}–{hi:g}"


def _said(row: dict) -> str:
    """Gives a row's figure against its range: "first_seat at 4p default: 62.0% [58.1, 65.8],
    target 40–60%"."""
    key = row["target"]
    scale = 100 if KEYS[key].share else 1
    return (f"{key} at {row['configuration']}: {figure(key, row['estimate'])} "
            f"[{scale * row['low']:.1f}, {scale * row['high']:.1f}], target "
            f"{bounds_text(key, row['target low'], row['target high'])}")


def sentence(found: Checked) -> str:
    """Gives the Answer's sentence on the profile: the targets missed (each configuration with
    its figure), those these games cannot tell, those met everywhere, those not measured."""
    rows = found.rows
    by = {v: rows.filter(pl.col("verdict") == v) for v in (MET, MISSED, UNTOLD)}
    parts = []
    if not rows.height:
        parts.append("none of its targets is measured on these runs")
    elif by[MISSED].height:
        parts.append("it fails " + "; ".join(_said(r) for r in by[MISSED].iter_rows(named=True)))
    else:
        parts.append("no target is missed")
    if by[UNTOLD].height:  # by target, its configurations only: the table has the figures
        untold = {}
        for r in by[UNTOLD].iter_rows(named=True):
            untold.setdefault(r["target"], []).append(r["configuration"])
        parts.append("these games cannot tell for " + "; ".join(
            f"{k} at {', '.join(where)}" for k, where in untold.items()))
    everywhere = [k for k in found.profile.targets if k not in found.unmeasured
                  and not rows.filter((pl.col("target") == k) & (pl.col("verdict") != MET)).height]
    if everywhere:
        parts.append(f"met in every configuration: {', '.join(everywhere)}")
    if found.unmeasured:
        parts.append("not measured: " + "; ".join(f"{k} ({why})"
                                                  for k, why in found.unmeasured.items()))
    return f"Against the profile {found.profile.name}: " + "; ".join(parts) + "."


# the table's headers: the report's "target" and "verdict" are the headline's (reports.glossary)
SHOWN = {"target": "profile key", "target low": "range low", "target high": "range high",
         "verdict": "against its range"}
NOTE = ("estimate with low/high its 95% interval (shares: Wilson, games as clusters; turns: a t "
        "interval of the mean; seat_gap: from the seats' Bonferroni-adjusted intervals); "
        f"against its range: {MET} when the interval lies inside the target's range, {MISSED} "
        f"when it lies wholly outside, else {UNTOLD}")


def section(ctx: ReportContext) -> Section | None:
    """Gives the section "Designer's profile": each target per configuration with its verdict;
    None without --profile."""
    found = checked(ctx)
    if found is None:
        return None
    shares = [k for k in found.profile.targets if KEYS[k].share]
    frame = found.rows.sort(pl.col("target").replace_strict(
        list(found.profile.targets), list(range(len(found.profile.targets)))),
        ctx.config_rank(), maintain_order=True)
    shown = frame.with_columns(*[
        pl.when(pl.col("target").is_in(shares)).then(pl.col(c) * 100).otherwise(pl.col(c))
        .round(2).alias(c) for c in ("estimate", "low", "high", "target low", "target high")]
    ).rename(SHOWN)
    text = "; ".join(f"{k} is not measured: {why}" for k, why in found.unmeasured.items())
    what = "; ".join(f"{k}: {KEYS[k].what}" + (f" ({ctx.game.headline.title})" if k ==
                                               "headline" else "") for k in found.profile.targets)
    tables = [Table(f"Targets of {found.profile.name} by configuration", shown,
                    note=f"{what} (shares and their differences in %); {NOTE}")] if shown.height else []
    return Section("Designer's profile", tables, text=f"{text}." if text else "")


@answer.answer_sentence
def answer_sentence(ctx: ReportContext) -> str:
    """Gives the Answer's sentence on the profile, "" without --profile."""
    found = checked(ctx)
    return "" if found is None else sentence(found)


def distance(key: str, bounds: tuple[float, float], estimate: float) -> float:
    """Gives how far an estimate lies outside a target's range, in units of the range's width
    (of 1 for a range of one point): 0 inside it."""
    width = bounds[1] - bounds[0] or (1.0 if not KEYS[key].share else 0.01)
    if np.isnan(estimate):
        return math.inf
    return max(0.0, bounds[0] - estimate, estimate - bounds[1]) / width
