"""The What-if section: every rule variant's headline, its difference from the baseline with a
95% interval and p-value that use the pairing of deals, and a verdict against the target.

Variants of one run (or of runs with the same seed) play the same game indices with the same
seeds (common random numbers), so the difference is taken game by game: a paired t-test on
per-game differences (scipy), which is the clustered-by-game interval of the difference.
Runs with different seeds share no deals: their difference gets Welch's unpaired interval.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import polars as pl

from reports import charts
from reports.runs import with_deal
from reports.variants import DEFAULT_MARK
from reports.sections import ReportContext, Section, Table, cluster_sums, with_wilson
from reports.stats import ALPHA, holm, wilson_arrays
from reports.verdicts import TOLERANCE, verdicts
from sim.errors import UserError
from sim.rule_keys import idle_sweeps


@dataclass(frozen=True)
class Difference:
    """A variant's headline minus the baseline's: estimate, 95% interval, two-sided p, and
    whether the games were paired (and how many), with the unpaired interval beside it."""

    estimate: float
    low: float
    high: float
    p: float
    paired: bool
    games: int
    unpaired_low: float
    unpaired_high: float


def influence(successes, trials) -> np.ndarray:
    """Gives each game's contribution to the headline rate S/T: p + (s_i − p·t_i) / t̄, whose
    mean is p and whose spread is the ratio estimator's (linearised, games as clusters); it is
    s_i / t_i, the game's own rate, when every game has as many trials."""
    s, t = np.asarray(successes, float), np.asarray(trials, float)
    p = s.sum() / t.sum()
    return p + (s - p * t) / t.mean()


def _interval(test) -> tuple[float, float]:
    ci = test.confidence_interval(1 - ALPHA)
    return float(ci.low), float(ci.high)


def unpaired_difference(variant: tuple, baseline: tuple) -> tuple[float, float, float, float]:
    """Gives (estimate, low, high, p) of the difference of two headlines from independent games:
    Welch's t on the games' influence values. `variant`, `baseline`: (successes, trials)."""
    return _welch(influence(*variant), influence(*baseline))


def paired_difference(variant: tuple, baseline: tuple) -> tuple[float, float, float, float]:
    """Gives (estimate, low, high, p) of the difference of two headlines over the same games
    (arrays aligned game by game): the paired t-test on per-game differences of influence
    values (s_i/t_i − s'_i/t'_i when games have fixed trials)."""
    return _one_sample(influence(*variant) - influence(*baseline))


def farther_p(variant: tuple, best: tuple, goal: float, paired: bool) -> float:
    """Gives the p-value that `variant`'s headline lies farther from `goal` than `best`'s
    (`variant`, `best`: (successes, trials) per game, aligned game by game when `paired`).

    |d_v| > |d_b| (d the distance to the goal) exactly when d_v − d_b and d_v + d_b have one
    sign, so the test is the intersection-union of two: the difference of the headlines and
    their sum less twice the goal, each the paired t-test (Welch's unpaired) on the games'
    influence values; its p is the larger of the two where their estimates share a sign, else
    1 (an intersection-union test holds its level without adjustment)."""
    a, b = influence(*variant), influence(*best)
    if paired:
        tests = [_one_sample(a - b), _one_sample(a + b - 2 * goal)]
    else:
        tests = [_welch(a, b), _welch(a - goal, goal - b)]
    if np.sign(tests[0][0]) != np.sign(tests[1][0]) or tests[0][0] == 0:
        return 1.0
    return max(tests[0][3], tests[1][3])


def farther_than_closest(pairs: list[tuple | None], goal: float,
                         paired: list[bool]) -> np.ndarray:
    """Gives, per member of a setting, the Holm-adjusted p-value that its headline lies farther
    from `goal` than the closest member's (nan for the closest itself): members whose p is 5%
    or more are indistinguishable from the closest, and the set of them holds every truly
    closest member with probability 95% at least.

    `pairs[i]`: (member i's games, the closest's games), each (successes, trials) per game and
    aligned game by game where `paired[i]` (the same deals); None for the closest."""
    return holm([np.nan if pair is None else farther_p(*pair, goal, flag)
                 for pair, flag in zip(pairs, paired)])


def _one_sample(d: np.ndarray) -> tuple[float, float, float, float]:
    """Gives (estimate, low, high, p) of a mean of per-game values against 0: the t-test."""
    estimate = float(d.mean())
    if np.ptp(d) == 0:  # every game moved by the same amount: no spread to test against
        return estimate, estimate, estimate, 1.0 if estimate == 0 else 0.0
    from scipy import stats

    test = stats.ttest_1samp(d, 0.0)
    return (estimate, *_interval(test), float(test.pvalue))


def _welch(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    """Gives (estimate, low, high, p) of mean(a) − mean(b) from independent games: Welch's t."""
    estimate = float(a.mean() - b.mean())
    if np.ptp(a) == 0 and np.ptp(b) == 0:
        return estimate, estimate, estimate, 1.0 if estimate == 0 else 0.0
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        test = stats.ttest_ind(a, b, equal_var=False)
    return (estimate, *_interval(test), float(test.pvalue))


def difference(variant: pl.DataFrame, baseline: pl.DataFrame, paired: bool) -> Difference:
    """Gives the Difference of two variants' per-game frames (index, __s, __t): paired over
    the game indices both played when `paired` (same seeds), else unpaired."""
    both = variant.join(baseline, on="index", how="inner", suffix="_b") if paired else None
    unpaired = unpaired_difference((variant["__s"], variant["__t"]),
                                   (baseline["__s"], baseline["__t"]))
    if both is None or both.height < 2:
        return Difference(*unpaired, False, min(variant.height, baseline.height),
                          unpaired[1], unpaired[2])
    # the unpaired interval of the same games, to say what the pairing gained
    same = unpaired_difference((both["__s"], both["__t"]), (both["__s_b"], both["__t_b"]))
    return Difference(*paired_difference((both["__s"], both["__t"]),
                                         (both["__s_b"], both["__t_b"])),
                      True, both.height, same[1], same[2])


def _names(label: str, several_runs: bool) -> set[str]:
    """Gives the names --baseline may call a variant by: its label, and without its run's
    folder name or its "(default)" mark ("hand_size.7=5 (default) (run1)", "hand_size.7=5")."""
    text = label.rsplit(" (", 1)[0] if several_runs else label
    return {label, text, text.removesuffix(f" {DEFAULT_MARK}")}


def check_baseline(ctx: ReportContext) -> None:
    """Raises UserError when --baseline names no variant of the report's runs."""
    if ctx.baseline is None:
        return
    several = len(ctx.runs) > 1
    known = set().union(*(_names(v, several) for v in ctx.variants))
    if ctx.baseline not in known:
        raise UserError(f"--baseline {ctx.baseline!r} is not a variant of these runs; they hold: "
                        + ", ".join(repr(v) for v in ctx.variants))


def _setting(setup) -> str:
    """Gives what a configuration is apart from its rules: players, options, bots."""
    from dataclasses import replace

    return replace(setup, rules=(), rule_file=None, file_rules=()).label()


def per_game(ctx: ReportContext) -> pl.DataFrame:
    """Gives each game's headline successes and trials with its run, setup and index (the
    position in its configuration, which pairs it with the same deal of another variant)."""
    return ctx.collect(
        with_deal(ctx.scan("games").with_columns(*ctx.game.headline.per_game()), ctx.runs)
        .select("run", "setup", pl.col("deal").alias("index"), "__s", "__t"),
        "games")


def comparisons(ctx: ReportContext) -> pl.DataFrame:
    """Gives a row per variant and setting (players, options, bots): its headline with its 95%
    interval, its difference from the setting's baseline (the default rules, or --baseline)
    with interval and p (paired where the games are), and the distance to the target with a
    verdict. Columns: setting, variant, baseline, games, rate, low, high, vs baseline,
    vs baseline low, vs baseline high, p, pairing, width vs unpaired, target, vs target,
    vs target low, vs target high, verdict."""
    games = per_game(ctx)
    totals = with_wilson(games.group_by("run", "setup").agg(
        *cluster_sums(pl.col("__s"), pl.col("__t"))))
    configs = ctx.configs.join(totals, on=["run", "setup"], how="inner", maintain_order="left")
    several = len(ctx.runs) > 1
    rows = []
    by_setting: dict[str, list[dict]] = {}
    for row in configs.iter_rows(named=True):
        setup = ctx.runs[row["run"]].setups[row["setup"]]
        by_setting.setdefault(_setting(setup), []).append(row)
    for setting, members in by_setting.items():
        base = _baseline(ctx, members, several)
        for row in members:
            own = games.filter((pl.col("run") == row["run"]) & (pl.col("setup") == row["setup"]))
            diff = None
            if base is not None and row is not base:
                other = games.filter((pl.col("run") == base["run"])
                                     & (pl.col("setup") == base["setup"]))
                same_seed = (ctx.runs[row["run"]].manifest.get("seed")
                             == ctx.runs[base["run"]].manifest.get("seed"))
                diff = difference(own.select("index", "__s", "__t"),
                                  other.select("index", "__s", "__t"), same_seed)
            rows.append((*_row(setting, row, base, diff), len(rows), row is not base,
                         list(by_setting).index(setting), row["eff_n"]))
        rows[-len(members):] = [(*r, *c) for r, c in zip(
            rows[-len(members):], _closest(ctx, games, members))]
    # the table puts each setting's baseline first; `order` keeps the runs' own
    frame = pl.DataFrame(rows, orient="row", schema={
        **_SCHEMA, "order": pl.Int64, "__later": pl.Boolean, "__setting": pl.Int64,
        "__eff": pl.Float64, "closest p": pl.Float64, "closest": pl.Boolean})
    frame = frame.sort("__setting", "__later", "order").drop("__later", "__setting")
    # each row's interval at 95% jointly over its setting's rows (Bonferroni), for the rows
    # the Answer names after picking them as the closest
    k = frame.group_by("setting").len().rename({"len": "__k"})
    k = frame.join(k, on="setting", how="left", maintain_order="left")["__k"].to_numpy()
    eff = frame["__eff"].to_numpy()
    low, high = wilson_arrays(frame["rate"].to_numpy() * eff, eff, ALPHA / k)
    frame = frame.with_columns(pl.Series("joint low", low), pl.Series("joint high", high)
                               ).drop("__eff")
    target = ctx.balance
    goal = target.at(frame["players"].to_numpy(), ctx.target)
    frame = frame.with_columns(
        pl.Series("p", holm(frame["p"].to_numpy()), dtype=pl.Float64),
        pl.Series("target", goal), pl.Series("vs target", frame["rate"].to_numpy() - goal),
        pl.Series("vs target low", frame["low"].to_numpy() - goal),
        pl.Series("vs target high", frame["high"].to_numpy() - goal))
    return frame.with_columns(pl.Series("verdict", verdicts(
        frame["vs target"], frame["vs target low"], frame["vs target high"], target)))


def _closest(ctx: ReportContext, games: pl.DataFrame, members: list[dict]) -> list[tuple]:
    """Gives, per member of a setting, the Holm-adjusted p that its headline lies farther from
    the target than the closest member's (`closest_set`; paired over the deals both played
    where their runs share a seed) and whether it is in the set indistinguishable from the
    closest."""
    goal = float(ctx.balance.at([members[0]["cfg_players"]], ctx.target)[0])
    rates = [m["rate"] for m in members]
    best = members[int(np.argmin(np.abs(np.asarray(rates) - goal)))]
    seed = ctx.runs[best["run"]].manifest.get("seed")

    def own(m):
        return games.filter((pl.col("run") == m["run"]) & (pl.col("setup") == m["setup"])
                            ).select("index", "__s", "__t")

    pairs, paired = [], []
    for m in members:
        same = ctx.runs[m["run"]].manifest.get("seed") == seed
        both = own(m).join(own(best), on="index", how="inner", suffix="_b") if same else None
        paired.append(same)
        pairs.append(None if m is best else
                     ((both["__s"], both["__t"]), (both["__s_b"], both["__t_b"])) if same else
                     ((own(m)["__s"], own(m)["__t"]), (own(best)["__s"], own(best)["__t"])))
    p = farther_than_closest(pairs, goal, paired)
    return [(None if np.isnan(x) else float(x), bool(np.isnan(x) or x >= ALPHA)) for x in p]


_SCHEMA = {"setting": pl.Utf8, "players": pl.Int64, "variant": pl.Utf8, "baseline": pl.Utf8,
           "games": pl.Int64, "rate": pl.Float64, "low": pl.Float64, "high": pl.Float64,
           "vs baseline": pl.Float64, "vs baseline low": pl.Float64,
           "vs baseline high": pl.Float64, "p": pl.Float64, "pairing": pl.Utf8,
           "width vs unpaired": pl.Float64, "unpaired low": pl.Float64,
           "unpaired high": pl.Float64}


def _baseline(ctx: ReportContext, members: list[dict], several: bool) -> dict | None:
    """Gives the setting's baseline: the variant --baseline names, else the first playing the
    game's default rules, else the first; None when --baseline names none of this setting."""
    if ctx.baseline is not None:
        return next((m for m in members if ctx.baseline in _names(m["variant"], several)), None)
    return next((m for m in members if m["default"]), members[0])


NO_DIFFERENCE = "no difference on any of the"  # a pairing: every deal gave both one headline


def _row(setting: str, row: dict, base: dict | None, diff: Difference | None) -> tuple:
    """Gives a comparisons row (without the target columns)."""
    head = (setting, row["cfg_players"], row["variant"], base["variant"] if base else None,
            row["games"], row["rate"], row["low"], row["high"])
    if diff is None:
        return (*head, None, None, None, None, "baseline" if row is base else "no baseline",
                None, None, None)
    width = diff.high - diff.low
    unpaired = diff.unpaired_high - diff.unpaired_low
    if not diff.paired:
        pairing = "unpaired (the runs' seeds differ: no deal in common)"
    elif width == 0 and diff.estimate == 0:  # e.g. a run reported against its own copy
        pairing = f"{NO_DIFFERENCE} {diff.games:,} paired deals"
    else:
        pairing = f"paired on {diff.games:,} deals"
    return (*head, diff.estimate, diff.low, diff.high, diff.p, pairing,
            width / unpaired if diff.paired and width > 0 and unpaired > 0 else None,
            diff.unpaired_low, diff.unpaired_high)


def _marked(label: str, baseline: bool) -> str:
    """Gives a forest plot's row label, the baseline's marked: "hand_size.7=5 (default,
    baseline)", "default rules (baseline)"."""
    if not baseline:
        return label
    return label[:-1] + ", baseline)" if label.endswith(")") else label + " (baseline)"


def sweep(frame: pl.DataFrame) -> tuple[str, pl.DataFrame] | None:
    """Gives the one rule key a sweep varies and the rows of the settings it varies, a `value`
    column added (the number each sets), when the variants of every setting with several
    differ in one KEY=NUMBER of that one key (the rules they share and the default's mark
    aside), taking two values or more; None otherwise (rule files, several keys, words)."""
    import re

    several = frame.group_by("setting").len().filter(pl.col("len") > 1)["setting"].to_list()
    swept = frame.filter(pl.col("setting").is_in(several))
    if swept.is_empty():
        return None
    changes = [set(v.replace(DEFAULT_MARK, "").split()) for v in swept["variant"].to_list()]
    shared = set.intersection(*changes)
    found = [re.fullmatch(r"([\w.]+)=(-?\d+(?:\.\d+)?)", next(iter(own - shared)))
             if len(own - shared) == 1 else None for own in changes]
    if not all(found) or len({m[1] for m in found}) != 1:
        return None
    values = [float(m[2]) for m in found]
    if len(set(values)) < 2:
        return None
    return found[0][1], swept.with_columns(value=pl.Series(values))


def response(ctx: ReportContext, frame: pl.DataFrame) -> Table | None:
    """Gives the sweep's response, a table and its chart (the report's hero where there is no
    ladder): each setting's headline against the swept value with 95% intervals, against the
    target and its ±TOLERANCE band; None when the runs are no sweep of one numeric key."""
    found = sweep(frame)
    if found is None:
        return None
    key, rows = found
    head = ctx.game.headline
    values = sorted(set(rows["value"].to_list()))
    categories = [f"{v:g}" for v in values]
    series, targets = {}, {}
    for (setting,), part in rows.sort("value").group_by("setting", maintain_order=True):
        series[setting] = ([values.index(v) for v in part["value"]], part["rate"], part["low"],
                           part["high"])
        targets[setting] = float(part["target"][0])
    games = rows.group_by("setting").agg(pl.col("games").min())["games"].min()
    path = charts.category_lines(
        ctx.chart("whatif_response"), categories, series, targets,
        title=f"{ctx.game.title}: {head.title} against {key}", xlabel=key, ylabel=head.title,
        caption=f"One line per setting (players and bots); at least {games:,} games per value; "
                "whiskers: 95% Wilson intervals (games as clusters); dashed: the target, "
                f"shaded its ±{100 * TOLERANCE:g} points.")
    return Table(f"{head.title} against {key}",
                 rows.sort("setting", "value").select("setting", "variant", "games", "rate",
                                                      "low", "high", "target", "verdict"),
                 ("rate", "low", "high", "target"), chart=path,
                 chart_caption=f"n = {int(rows['games'].sum()):,} games",
                 note=f"The sweep's response: each value of {key} the runs played, by setting "
                      "(the What-if table below compares each with the baseline).")


PERCENT = ("rate", "low", "high", "vs baseline", "vs baseline low", "vs baseline high",
           "target", "vs target", "vs target low", "vs target high")


def section(ctx: ReportContext) -> Section | None:
    """Gives the What-if section (a table and a forest plot) when the report holds more than
    one variant of a setting; None otherwise (e.g. runs that differ only in player counts)."""
    if not ctx.split:
        return None
    frame = ctx.once("whatif", lambda: comparisons(ctx))  # the Answer reads it too
    head = ctx.game.headline
    several_settings = frame["setting"].n_unique() > 1
    compared = frame.filter(pl.col("vs baseline").is_not_null())
    if compared.is_empty():
        return None
    # the forest keeps the runs' order (a sweep reads 3, 4, 5, 6), the baselines among them
    drawn = frame.filter(pl.col("baseline").is_not_null()).sort("order")
    labels = [_marked(f"{v} · {s}" if several_settings else v, v == b) + f" · n = {n:,}"
              for v, s, b, n in drawn.select("variant", "setting", "baseline",
                                             "games").iter_rows()]
    # where every row has one baseline and one target, the difference that reaches it
    bases = drawn.filter(pl.col("variant") == pl.col("baseline"))
    reach = (float(bases["target"][0] - bases["rate"][0])
             if bases.height == 1 and drawn["target"].n_unique() == 1 else None)
    baselines = sorted(set(compared["baseline"].to_list()))
    ratios = compared["width vs unpaired"].drop_nulls()
    paired = compared.filter(~pl.col("pairing").str.starts_with("unpaired"))
    same = paired.filter(pl.col("pairing").str.starts_with(NO_DIFFERENCE))
    gain = (f"Pairing: the paired interval is {ratios.median():.2f}× the width of the unpaired "
            f"one on the same games (median over {ratios.len()} comparison(s); range "
            f"{ratios.min():.2f}–{ratios.max():.2f}), i.e. as precise as "
            f"{1 / ratios.median() ** 2:.1f}× the games unpaired. " if ratios.len() else
            "" if paired.height else
            "No comparison is paired (the runs' seeds differ), so every interval is unpaired. ")
    gain += "".join(f"{v} against {b}: {pairing}. "
                    for v, b, pairing in same.select("variant", "baseline", "pairing").iter_rows())
    # a swept key of one player count's table plays once at the run's other counts
    gain += "".join(f"{line}. " for run in ctx.runs
                    for line in idle_sweeps(run.game, run.setups))
    path = charts.forest(
        ctx.chart("whatif_forest"), labels, drawn["vs baseline"].fill_null(0.0),
        drawn["vs baseline low"].fill_null(np.nan), drawn["vs baseline high"].fill_null(np.nan),
        unpaired=(drawn["unpaired low"].fill_null(np.nan), drawn["unpaired high"].fill_null(np.nan)),
        title=f"{ctx.game.title}: what if the rules changed?",
        xlabel=f"difference in the {head.title} (points)",
        target=reach,
        caption="n: each row's games; whiskers: 95% interval (paired where the seeds match); "
                "grey: unpaired, for comparison"
                + ("; dashed: the difference that puts a variant on the target, shaded its "
                   f"±{100 * TOLERANCE:g} points" if reach is not None else ""))
    columns = ["setting"] if several_settings else []
    table = frame.select(*columns, "variant", "games", "rate", "low", "high", "vs baseline",
                         "vs baseline low", "vs baseline high", "p", "pairing",
                         "width vs unpaired", "target", "vs target", "verdict")
    # a sweep's response follows (the Answer leads with its chart; the terminal shows a
    # section's first table, the comparisons)
    swept = [t for t in [response(ctx, frame)] if t]
    return Section("What-if: rule variants against the baseline", [Table(
        f"{head.title} by variant, against {' / '.join(baselines) or 'the baseline'}", table,
        PERCENT, chart=path, chart_caption=f"n = {int(frame['games'].sum()):,} games",
        note=f"rate, low/high: the variant's {head.title} with its 95% Wilson interval on the "
             "effective trials; vs baseline: its difference from the baseline (the variant "
             "playing the game's default rules, or --baseline) with its 95% interval: a paired "
             "t-test on the per-game differences over the deals both played (games as "
             "clusters), or Welch's unpaired interval where the runs' seeds differ; p asks: could "
             "the rule change make no difference, this one luck? Method: that test, "
             "Holm-adjusted over the table's comparisons (the intervals are not); "
             "width vs unpaired: the paired interval's width over the unpaired one's on the "
             f"same games; verdict: the interval of the distance to the target (vs target) "
             f"within ±{100 * TOLERANCE:g} points is balanced, one excluding 0 favours a side"),
        *swept],
        text=gain + "Each variant plays the same game indices with the same seeds as its "
                    "baseline (common random numbers), so luck of the deal cancels in the "
                    "difference.")
