"""Strategies head to head on the same deals: each deal's score of one strategy against
another (the deal the unit: its seat assignments share its cards), the head-to-head table with
Wilson intervals over deals and sign tests, and Bradley–Terry ratings from it. Read by
`simulate compare` (reports/compare.py) and by a ladder's rungs played against each other
(reports/strength.py, reports/skill.py)."""

from __future__ import annotations

import numpy as np
import polars as pl

from reports import runs as runs_mod
from reports.sections import ReportContext
from reports.stats import (
    bradley_terry,
    elo_from_strengths,
    holm,
    sign_test,
    significance_level,
    wilson_arrays,
)


def strategy_scores(ctx: ReportContext) -> pl.LazyFrame:
    """Gives each strategy's score in each game, the share of its seats that won, with the
    game's deal (reports.runs.with_deal)."""
    return (runs_mod.with_deal(ctx.scan("seats", ["game_id", "strategy", "won"]), ctx.runs)
            .group_by("run", "deal", "game_id", "strategy")
            .agg(pl.col("won").cast(pl.Float64).mean().alias("score")))


def deal_scores(ctx: ReportContext) -> pl.DataFrame:
    """Gives, per ordered pair (strategy, opponent) that met and per deal, the strategy's score
    on the deal: the mean over the seat assignments that seated both on it of 1 where its
    seats did better than the opponent's, ½ as well, 0 worse. Columns: run, deal, strategy,
    opponent, score; rows in that order (the same run gives the same table).

    The deal is the unit: a deal's assignments share its cards and dice (a copy of a bot in the
    other seats even replays the same game), so they are not independent games."""
    scores = strategy_scores(ctx)
    better = pl.col("score") > pl.col("score_opp")
    level = pl.col("score") == pl.col("score_opp")
    return ctx.collect(
        scores.join(scores, on=["run", "game_id", "deal"], suffix="_opp")
        .filter(pl.col("strategy") != pl.col("strategy_opp"))
        .group_by("run", "deal", "strategy", pl.col("strategy_opp").alias("opponent"))
        .agg((better.cast(pl.Float64) + 0.5 * level.cast(pl.Float64)).mean().alias("score"))
        .sort("run", "deal", "strategy", "opponent"),
        "seats")


def head_to_head(ctx: ReportContext) -> pl.DataFrame:
    """Gives the head-to-head table of the context's runs (`head_to_head_of` their deal
    scores)."""
    return head_to_head_of(deal_scores(ctx))


def head_to_head_of(deals: pl.DataFrame) -> pl.DataFrame:
    """Gives, per ordered pair (strategy, opponent) that met, over the deals both played
    (`deal_scores`): n deals, the deals on which the strategy scored better (wins), as well
    (ties) or worse (losses), and its rate, the mean score (the share of games in which its
    seats did better, ties as halves).

    low, high: the 95% Wilson interval of the rate with deals as trials (a deal's score lies in
    [0, 1], so it varies no more than a win or a loss: the interval is never too narrow).
    p: exact two-sided sign test of the deals won against the deals lost (ties dropped) — does
    the strategy do better on more deals than it does worse — Holm-adjusted over the pairs of
    strategies.
    """
    score = pl.col("score")
    frame = (deals.group_by("strategy", "opponent")
             .agg(pl.len().alias("n"), (score > 0.5).sum().cast(pl.Int64).alias("wins"),
                  (score == 0.5).sum().cast(pl.Int64).alias("ties"),
                  (score < 0.5).sum().cast(pl.Int64).alias("losses"),
                  score.mean().alias("rate"))
             .sort("strategy", "opponent"))
    n = frame["n"].to_numpy()
    low, high = wilson_arrays(frame["rate"].to_numpy() * n, n)
    # (a, b) and (b, a) are one test: adjust over unordered pairs
    pairs = sorted({tuple(sorted(r)) for r in frame.select("strategy", "opponent").iter_rows()})
    rows = {(r["strategy"], r["opponent"]): r for r in frame.iter_rows(named=True)}
    raw = sign_test([rows[pair]["wins"] for pair in pairs], [rows[pair]["losses"] for pair in pairs])
    adjusted = dict(zip(pairs, holm(raw)))
    p = [adjusted[tuple(sorted(r))] for r in frame.select("strategy", "opponent").iter_rows()]
    return frame.with_columns(pl.Series("low", low), pl.Series("high", high),
                              pl.Series("p", p, dtype=pl.Float64),
                              pl.Series("significance", [significance_level(x) for x in p])
                              ).select("strategy", "opponent", "n", "wins", "ties", "losses",
                                       "rate", "low", "high", "p", "significance")


def ratings(h2h: pl.DataFrame) -> pl.DataFrame:
    """Gives Bradley–Terry strengths and Elo-scale ratings from the head-to-head points (each
    pair's deal scores summed: rate · n)."""
    names = sorted(set(h2h["strategy"]) | set(h2h["opponent"]))
    wins = np.zeros((len(names), len(names)))
    for r in h2h.iter_rows(named=True):
        wins[names.index(r["strategy"]), names.index(r["opponent"])] = r["rate"] * r["n"]
    s = bradley_terry(wins)
    elo = elo_from_strengths(s)
    return pl.DataFrame({"strategy": names, "strength": s, "elo": elo}).sort(
        "elo", descending=True).with_row_index("rank", offset=1).with_columns(
        pl.col("rank").cast(pl.Int64))
