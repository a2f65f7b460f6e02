"""The report section "Skill and luck", for a ladder whose rungs played each other (`simulate
ladder --head-to-head`): the skill matrix (every rung against every other on the same deals,
with intervals over deals), skill expression (how often the top rung does better than the
bottom one at one table), the upset rate (how often the weaker of two rungs does better), how
much of the spread of who wins is the deal's and how much the play's, and whether one rung
beats all the others (the empirical game's equilibrium, bootstrapped over deals).

Rungs are ordered by measured strength (reports.strength). `skill_expression` gives the
figure a designer's profile checks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl

from reports import charts, equilibrium, strength
from reports import runs as runs_mod
from reports.ladder import rungs
from reports.sections import ReportContext, Section, Table, common_section, with_mean_interval

RESAMPLES = equilibrium.RESAMPLES


@dataclass
class Group:
    """What one player count (and rule variant) of a ladder says about skill and luck."""

    players: int
    variant: str
    order: list[str]           # the rungs, weakest first (measured head to head)
    top: str                   # the configuration of the top rung
    matrix: pl.DataFrame       # head to head (reports.head_to_head.head_to_head_of)
    steps: pl.DataFrame        # each rung against the one below (reports.strength.steps)
    expression: dict           # top against bottom: n, rate, low, high
    upsets: dict               # the weaker's share: n, estimate, low, high
    luck: dict                 # the deal's share of the spread: estimate, low, high, deals
    weights: pl.DataFrame      # the equilibrium (reports.equilibrium.equilibrium)
    answer: str                # "is there a strategy that beats all the others?"


def upset_rate(deals: pl.DataFrame, order: list[str]) -> dict:
    """Gives how often the weaker rung of a pair does better at one table: per deal, the mean
    over every pair of rungs of the weaker's score (`order`: weakest first, as measured), then
    the mean over deals with a 95% Student t interval (deals independent). Ties count half."""
    place = {name: i for i, name in enumerate(order)}
    weaker = deals.filter(pl.col("strategy").replace_strict(place)
                          < pl.col("opponent").replace_strict(place))
    per_deal = weaker.group_by("run", "deal").agg(pl.col("score").mean())["score"]
    frame = pl.DataFrame({"n": [per_deal.len()], "estimate": [per_deal.mean()],
                          "sd": [per_deal.std()]})
    return with_mean_interval(frame, "estimate", "sd").drop("sd").row(0, named=True)


def deal_share(won: np.ndarray, seed: int = 0, resamples: int = RESAMPLES) -> dict:
    """Gives the share of the spread of who wins that is the deal's: `won` is deals × rungs ×
    seats (1 where the seat won the deal's game at that rung). Per seat, a one-way analysis of
    variance with the deal as the group: the between-deal component (MSB − MSW) / rungs, the
    within-deal one MSW (what changing the play changes on one deal: the rungs' bots, their
    random draws); summed over seats, the deal's share of the total. 95% percentile interval
    by bootstrap over deals."""
    deals, k, _ = won.shape
    means = won.mean(axis=1)                               # deals × seats
    within = ((won - means[:, None, :]) ** 2).sum(axis=(1, 2))  # per deal, summed over seats

    def share(counts: np.ndarray) -> np.ndarray:
        # counts: resamples × deals, how often each deal is drawn
        grand = counts @ means / deals                           # resamples × seats
        between = (counts @ (means ** 2)).sum(axis=1) - deals * (grand ** 2).sum(axis=1)
        msb = k * between / (deals - 1)
        msw = (counts @ within) / (deals * (k - 1))
        deal_part = np.clip((msb - msw) / k, 0, None)
        total = deal_part + msw
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(total > 0, deal_part / total, np.nan)

    estimate = float(share(np.ones((1, deals)))[0])
    rng = np.random.default_rng(seed)
    drawn = share(rng.multinomial(deals, np.full(deals, 1 / deals), size=resamples))
    low, high = np.nanpercentile(drawn, [2.5, 97.5])
    return {"deals": deals, "estimate": estimate, "low": float(low), "high": float(high)}


def _won(ctx: ReportContext, group: list) -> np.ndarray:
    """Gives deals × rungs × seats: who won each deal's game at each rung of `group` (the
    rungs of the run of its pairings, the deals all of them played)."""
    labels = [r.configuration for r in group]
    lf = runs_mod.with_deal(ctx.scan("seats", ["game_id", "seat", "won"]), ctx.runs).filter(
        pl.col("configuration").is_in(labels))
    frame = ctx.collect(lf.select("configuration", "run", "deal", "seat",
                                  pl.col("won").cast(pl.Float64)), "seats")
    seats = int(frame["seat"].max()) + 1
    wide = frame.pivot(on="configuration", index=["run", "deal", "seat"], values="won")
    wide = wide.drop_nulls().sort("run", "deal", "seat")
    return np.stack([wide[label].to_numpy().reshape(-1, seats) for label in labels], axis=1)


def _group(ctx: ReportContext, players: int, variant: str, group: list) -> Group | None:
    """Gives what the rungs of one player count and variant say, where they all met."""
    h2h = strength.head_to_head(ctx, group)
    if h2h is None:
        return None
    order = strength.measured_order(h2h)
    deals = strength.deals(ctx, group)
    by_label = {r.label: r for r in group}
    top = h2h.filter((pl.col("strategy") == order[-1]) & (pl.col("opponent") == order[0]))
    names = sorted(order)
    weights = equilibrium.equilibrium(equilibrium.deal_matrix(deals, names), names)
    return Group(players, variant, order, by_label[order[-1]].configuration, h2h,
                 strength.steps(h2h, order),
                 top.select("n", "rate", "low", "high").row(0, named=True),
                 upset_rate(deals, order), deal_share(_won(ctx, group)), weights,
                 equilibrium.dominance_sentence(h2h, weights, f" at {players} players"))


def groups(ctx: ReportContext) -> list[Group]:
    """Gives what each player count (and variant) of the report's ladder says about skill and
    luck, where its rungs all met head to head; computed once per report."""
    def make():
        found = []
        for (players, variant), group in strength.groups(rungs(ctx)).items():
            if all(r.measured for r in group):
                made = _group(ctx, players, variant, group)
                if made is not None:
                    found.append(made)
        return found
    return ctx.once("skill", make)


def skill_expression(ctx: ReportContext) -> pl.DataFrame:
    """Gives the skill expression of each player count (and variant) of the report's ladder
    whose rungs met head to head: the top rung's share of its games against the bottom rung
    doing better (ties half), with a 95% Wilson interval over deals. Columns: configuration
    (the top rung's), estimate, low, high."""
    rows = [(g.top, g.expression["rate"], g.expression["low"], g.expression["high"])
            for g in groups(ctx)]
    return pl.DataFrame(rows, orient="row", schema={
        "configuration": pl.Utf8, "estimate": pl.Float64, "low": pl.Float64,
        "high": pl.Float64})


def dominance(ctx: ReportContext) -> list[str]:
    """Gives the Answer's sentences naming a rung that beats all the others, where the
    intervals show one (none otherwise)."""
    return [g.answer for g in groups(ctx) if equilibrium.dominant(g.matrix) is not None]


def _interval(row: dict, value: str = "estimate") -> str:
    return f"{100 * row[value]:.1f}% [{100 * row['low']:.1f}, {100 * row['high']:.1f}]"


def _heatmap(ctx: ReportContext, g: Group, at: str) -> tuple[object, str]:
    """Draws the skill matrix of one group, strongest rung first on both axes."""
    names = g.order[::-1]
    values, text = charts.grid(
        g.matrix, names, names, "strategy", "opponent",
        lambda r: f"{100 * r['rate']:.1f}%\n[{100 * r['low']:.1f}, {100 * r['high']:.1f}]")
    for i in range(len(names)):
        text[i][i] = "itself"
    caption = (f"n = {int(g.matrix['n'].max()):,} shared deals per pair, each rung in every "
               "seat; cell: the row rung's share of their games doing better than the column's "
               "(ties half) [95% Wilson over deals]; rungs by measured strength, strongest "
               "first")
    path = charts.heatmap(ctx.chart(f"skill_matrix_head_to_head_{at}"), values, names, names,
                          title=f"{ctx.game.title}, {g.players} players: rungs head to head",
                          xlabel="opponent rung", ylabel="rung", centre=0.5, cell_text=text,
                          colour_label="share of games doing better (%)", caption=caption)
    return path, caption


def _text(g: Group, several: bool) -> str:
    """Gives what one group's figures say, in words."""
    at = f"At {g.players} players" + (f" ({g.variant})" if several else "")
    top, bottom = g.order[-1], g.order[0]
    return (f"{at}, {top} does better than {bottom} in {_interval(g.expression, 'rate')} of "
            f"their games at one table (skill expression); the weaker rung of a pair does "
            f"better in {_interval(g.upsets)} (the upset rate); the deal accounts for "
            f"{_interval(g.luck)} of the spread of who wins, the play for the rest. {g.answer}")


@common_section
def skill_and_luck(ctx: ReportContext) -> Section | None:
    """Gives the skill matrix, skill expression, the upset rate, luck against play and the
    dominant strategy of a ladder whose rungs played each other; None otherwise."""
    found = groups(ctx)
    if not found:
        return None
    several = len({g.variant for g in found}) > 1
    tables, said = [], []
    for g in found:
        at = f"{g.players}p" + (f"_{found.index(g)}" if several else "")
        title = f"{g.players} players" + (f", {g.variant}" if several else "")
        path, caption = _heatmap(ctx, g, at)
        tables.append(Table(
            f"{title}: skill matrix, rungs head to head", g.matrix.select(
                pl.col("strategy").alias("rung"), pl.col("opponent").alias("opponent rung"),
                "n", "wins", "ties", "losses", "rate", "low", "high", "p", "significance"),
            ("rate", "low", "high"), chart=path, chart_caption=caption,
            note="n: deals both rungs played at one table (the unit: a deal's seat assignments "
                 "share its cards); a deal's score: the rung's mean over them of 1 (its seats "
                 "did better than the opponent's), ½ (as well) or 0 (worse); rate: the mean "
                 "score, 95% Wilson interval over deals; p: exact sign test of deals won against "
                 "deals lost, Holm-adjusted over the pairs"))
        tables.append(Table(
            f"{title}: rungs by measured strength", g.steps,
            ("rate", "low", "high"),
            note="weakest first by Bradley–Terry strength over every pair's games; each rung "
                 "against the one below: beats it (p < 5% and rate above ½), loses to it, or "
                 "is not shown to beat it"))
        rows = pl.DataFrame([
            ("skill expression", f"{g.order[-1]} against {g.order[0]}", g.expression["n"],
             g.expression["rate"], g.expression["low"], g.expression["high"]),
            ("upset rate", "the weaker of each pair", g.upsets["n"], g.upsets["estimate"],
             g.upsets["low"], g.upsets["high"]),
            ("luck: the deal's share", "of the spread of who wins", g.luck["deals"],
             g.luck["estimate"], g.luck["low"], g.luck["high"])], orient="row", schema={
            "figure": pl.Utf8, "of": pl.Utf8, "deals": pl.Int64, "estimate": pl.Float64,
            "low": pl.Float64, "high": pl.Float64})
        tables.append(Table(
            f"{title}: skill expression, upsets and luck", rows, ("estimate", "low", "high"),
            note="skill expression: the top rung's share of its games against the bottom rung "
                 "doing better (ties half), 95% Wilson over deals; upset rate: per deal, the "
                 "weaker rung's mean score over every pair (weaker as measured: the same games "
                 "chose it, so the rate leans low), 95% Student t over deals; luck: the "
                 "between-deal share of the variance of each seat's win across the rungs' "
                 "games of one deal (one-way analysis of variance, summed over seats: 1 when "
                 "the deal decides who wins whoever plays, 0 when it says nothing), 95% "
                 f"percentile bootstrap over deals ({RESAMPLES} resamples)"))
        tables.append(Table(
            f"{title}: the empirical game's equilibrium", g.weights,
            ("weight", "low", "high", "played in"),
            note="the symmetric zero-sum game whose payoff is the head-to-head rate less ½; "
                 "weight: its equilibrium mix (linear program, scipy's HiGHS); low/high: 95% "
                 f"percentile interval over {RESAMPLES} bootstrap resamples of the deals; "
                 "played in: the share of resamples whose equilibrium gives the rung more than "
                 f"{100 * equilibrium.SUPPORT:g}%"))
        said.append(_text(g, several))
    return Section("Skill and luck", tables, text=" ".join(said))


def frames(ctx: ReportContext) -> dict[str, pl.DataFrame]:
    """Gives the section's figures as frames, a `players` (and `variant`) column on each:
    matrix (head to head), order (each rung against the one below, weakest first), figures
    (skill expression, upset rate, the deal's share), equilibrium, answer (the sentence)."""
    found = groups(ctx)

    def joined(make) -> pl.DataFrame:
        parts = [make(g).with_columns(pl.lit(g.players, pl.Int64).alias("players"),
                                      pl.lit(g.variant).alias("variant")) for g in found]
        return (pl.concat(parts).select("players", "variant", pl.exclude("players", "variant"))
                if parts else pl.DataFrame())

    return {
        "matrix": joined(lambda g: g.matrix),
        "order": joined(lambda g: g.steps),
        "figures": joined(lambda g: pl.DataFrame({
            "figure": ["skill expression", "upset rate", "luck"],
            "estimate": [g.expression["rate"], g.upsets["estimate"], g.luck["estimate"]],
            "low": [g.expression["low"], g.upsets["low"], g.luck["low"]],
            "high": [g.expression["high"], g.upsets["high"], g.luck["high"]]})),
        "equilibrium": joined(lambda g: g.weights),
        "answer": joined(lambda g: pl.DataFrame({"sentence": [g.answer]})),
    }
