"""The empirical game of a population of strategies played head to head on the same deals:
its Nash equilibrium (a linear program, scipy.optimize.linprog), its uncertainty by bootstrap
over deals, and whether one strategy beats all the others.

The game: two strategies meet; the row's payoff is its head-to-head rate against the column
(its share of their games doing better, ties half) less ½. It is symmetric and zero-sum (the
two rates of a pair sum to 1), so its value is 0 and an equilibrium is a mix of strategies
that no strategy beats on average: a strategy that beats every other is the equilibrium alone.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from reports.stats import ALPHA

RESAMPLES = 500  # bootstrap resamples of the deals
SUPPORT = 0.01  # an equilibrium weight above this counts the strategy as played


def nash(rates: np.ndarray) -> np.ndarray:
    """Gives an equilibrium mix of the symmetric zero-sum game whose row strategy i earns
    rates[i, j] − ½ against column j: the maximin mix, from a linear program (maximise v
    subject to every column earning the mix at least v; weights ≥ 0 summing to 1)."""
    # imported here: every report would hold scipy.optimize; only a head-to-head ladder's uses it
    from scipy.optimize import linprog

    payoff = np.asarray(rates, float) - 0.5
    k = payoff.shape[0]
    found = linprog(np.r_[np.zeros(k), -1.0],
                    A_ub=np.c_[-payoff.T, np.ones(k)], b_ub=np.zeros(k),
                    A_eq=np.r_[np.ones(k), 0.0][None], b_eq=[1.0],
                    bounds=[(0, None)] * k + [(None, None)], method="highs")
    weights = np.clip(found.x[:k], 0, None)
    return weights / weights.sum()


def deal_matrix(deals: pl.DataFrame, names: list[str]) -> np.ndarray:
    """Gives the deal scores (reports.head_to_head.deal_scores) as an array deals × names ×
    names (½ on the diagonal), over the deals every pair played."""
    wide = deals.with_columns(pl.format("{} vs {}", "strategy", "opponent").alias("pair")).pivot(
        on="pair", index=["run", "deal"], values="score").drop_nulls().sort("run", "deal")
    k = len(names)
    scores = np.full((wide.height, k, k), 0.5)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i != j:
                scores[:, i, j] = wide[f"{a} vs {b}"].to_numpy()
    return scores


def equilibrium(scores: np.ndarray, names: list[str], seed: int = 0,
                resamples: int = RESAMPLES) -> pl.DataFrame:
    """Gives each strategy's equilibrium weight in the empirical game of `scores` (deals ×
    strategies × strategies, `deal_matrix`), with a 95% percentile interval and the share of
    bootstrap resamples of the deals whose equilibrium plays it (weight above SUPPORT)."""
    deals = scores.shape[0]
    weight = nash(scores.mean(axis=0))
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(deals, np.full(deals, 1 / deals), size=resamples)
    rates = np.einsum("bd,dij->bij", counts, scores) / deals
    drawn = np.array([nash(m) for m in rates])
    low, high = np.percentile(drawn, [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)], axis=0)
    return pl.DataFrame({"strategy": names, "weight": weight, "low": low, "high": high,
                         "played in": (drawn > SUPPORT).mean(axis=0)})


def dominant(h2h: pl.DataFrame) -> str | None:
    """Gives the strategy that beats every other head to head (each pair's rate above ½ with
    its Holm-adjusted sign test's p below 5%: reports.head_to_head.head_to_head_of), or None."""
    names = sorted(set(h2h["strategy"]))
    for name in names:
        rows = h2h.filter(pl.col("strategy") == name)
        if rows.height == len(names) - 1 and ((rows["rate"] > 0.5) & (rows["p"] < ALPHA)).all():
            return name
    return None


def dominance_sentence(h2h: pl.DataFrame, weights: pl.DataFrame, what: str = "") -> str:
    """Gives the answer to "is there a strategy that beats all the others?" in one sentence:
    yes (naming it, with each of its head-to-head rates) only where every one of its pairs'
    tests shows it; else that these games show none, with the equilibrium's mix."""
    lead = f"Is there a strategy that beats all the others{what}? "
    found = dominant(h2h)
    resamples = f"of {RESAMPLES} bootstrap resamples of the deals"
    if found is not None:
        rows = h2h.filter(pl.col("strategy") == found).sort("rate")
        rates = ", ".join(f"{r['opponent']} {100 * r['rate']:.1f}% [{100 * r['low']:.1f}, "
                          f"{100 * r['high']:.1f}]" for r in rows.iter_rows(named=True))
        alone = weights.filter(pl.col("strategy") == found)["played in"][0]
        return (lead + f"Yes: {found} beats each of the others head to head ({rates}; sign "
                f"tests over deals, Holm-adjusted), and the empirical game's equilibrium plays "
                f"it in {100 * alone:.0f}% {resamples}.")
    mixed = weights.filter(pl.col("weight") > SUPPORT).sort("weight", descending=True)
    mix = ", ".join(f"{r['strategy']} {100 * r['weight']:.0f}% [{100 * r['low']:.0f}, "
                    f"{100 * r['high']:.0f}]" for r in mixed.iter_rows(named=True))
    return (lead + "These games show none: no strategy beats every other head to head (sign "
            f"tests over deals, Holm-adjusted); the empirical game's equilibrium plays {mix} "
            f"(95% intervals {resamples}).")
