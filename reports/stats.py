"""Statistics the reports quote: intervals, tests whose false-positive rate holds by construction,
seat fairness by permutation, ratings.

A thin layer over scipy (normal and binomial tests, the Bradley–Terry fit), with the Wilson
interval and Holm's correction written out as statsmodels computes them (test_stats checks
they agree); what is the project's own is how a balance question maps onto them: games are
the independent units (rounds and seats of one game are not), seat labels are permuted within
games, and a table that tests many rows controls its family-wise error.
tests/reports/test_calibration.py checks every test's false-positive rate and every interval's
coverage on simulated nulls.

A run's summary and its --until-ci stopping rule use the Wilson interval and the design effect
only, written with numpy; scipy is imported by the functions that use it, so that playing games
never waits for scipy's statistics (0.6 CPU-s to import; statsmodels took a second more).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from statistics import NormalDist

import numpy as np

ALPHA = 0.05
Z95 = NormalDist().inv_cdf(1 - ALPHA / 2)
PERMUTATIONS = 9_999  # a permutation p-value resolves 1e-4, below the 0.001 level it reports
SEED = 20_150  # permutation draws are seeded: the same run gives the same report


def wilson(successes: float, n: float) -> tuple[float, float]:
    """Gives the 95% Wilson score interval (low, high) of a rate; (nan, nan) when n is 0."""
    low, high = wilson_arrays([successes], [n])
    return float(low[0]), float(high[0])


def wilson_arrays(successes, n, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Gives the 95% Wilson bounds (low, high) element-wise (1 − `alpha` in general); nan where
    there are no trials.

    statsmodels' proportion_confint(method="wilson") written out (test_stats checks they
    agree): the summary of every run needs it, and importing statsmodels costs a second."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    some = n > 0
    n = np.where(some, n, 1)
    p = np.where(some, s, 0) / n
    if np.ndim(alpha) == 0 and alpha == ALPHA:
        z = Z95
    else:  # scipy.stats.norm.isf's own ndtri, element-wise
        from scipy.special import ndtri

        z = ndtri(1 - np.asarray(alpha, dtype=float) / 2)
    z2 = z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # the bounds of a rate of 0 or 1 carry a rounding error (e.g. 1 + 1e-16)
    return (np.where(some, np.clip(centre - half, 0, 1), np.nan),
            np.where(some, np.clip(centre + half, 0, 1), np.nan))


def design_effect(successes, trials, games, ss, tt, st, floor: bool = True) -> np.ndarray:
    """Gives the design effect of rates whose trials come in games (clusters), floored at 1
    unless `floor` is off.

    A rate is the ratio estimator p = S/T over m games; its variance by linearisation is
    Σ(s_i − p·t_i)² / T², from the sums Σs², Σt², Σs·t (`ss`, `tt`, `st`). The design effect
    is that variance over the binomial one, p(1−p)/T (exactly 1 when every game is one trial).
    It is floored at 1 (as Korn & Graubard 1998 do): trials of a game that offset each other
    never narrow an interval. Without the floor, trials that offset each other by design (the
    seats of one game, of which one wins; a deal replayed with the seats rotated) keep the
    narrower interval they earn: tests/reports/test_calibration.py checks its coverage.
    1 where it cannot be estimated (one game, or a rate of 0 or 1).
    """
    s, t = np.asarray(successes, dtype=float), np.asarray(trials, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / t
        return _floored(ratio_variance(s, t, ss, tt, st) / (p * (1 - p) / t), games,
                        1.0 if floor else 0.0)


def mean_design_effect(total, n, games, ss, tt, st, sd) -> np.ndarray:
    """Gives the design effect of means of values that come in games (e.g. gold per seat-round,
    a game holding several), floored at 1: the ratio estimator's variance (`ratio_variance`,
    `total` = Σ values, `n` = values, the sums per game) over that of independent values,
    sd²/n. 1 where it cannot be estimated (one game, or no spread)."""
    n, sd = np.asarray(n, dtype=float), np.asarray(sd, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _floored(ratio_variance(total, n, ss, tt, st) / (sd * sd / n), games)


def ratio_variance(successes, trials, ss, tt, st) -> np.ndarray:
    """Gives the variance of the ratio S/T over games by linearisation, Σ(s_i − p·t_i)² / T²,
    from the per-game sums Σs², Σt², Σs·t."""
    s, t, ss, tt, st = (np.asarray(x, dtype=float) for x in (successes, trials, ss, tt, st))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / t
        return np.maximum(ss - 2 * p * st + p * p * tt, 0.0) / (t * t)


def _floored(deff, games, floor: float = 1.0) -> np.ndarray:
    """Gives design effects floored at `floor`, and 1 where not finite or from fewer than 2
    games (or 0: an estimate without spread, e.g. seats of which exactly one wins every game,
    whose share of winning seats is fixed)."""
    deff, m = np.asarray(deff, dtype=float), np.asarray(games, dtype=float)
    return np.where(np.isfinite(deff) & (m > 1) & (deff > 0), np.maximum(deff, floor), 1.0)


def two_sided_p(z) -> np.ndarray:
    """Gives the two-sided normal p-value of z statistics (nan stays nan): scipy.stats.norm.sf's
    own ndtr, from scipy.special (a fifth of scipy.stats' import, which a tuning paid for one
    p-value)."""
    from scipy.special import ndtr

    return 2 * ndtr(-np.abs(np.asarray(z, dtype=float)))


def significance_level(p: float) -> str:
    """Gives 'p<0.001', 'p<0.01', 'p<0.05', 'n.s.' (not significant at 5%) or 'n/a' (no test)."""
    if p is None or not p == p:
        return "n/a"
    if p < 0.001:
        return "p<0.001"
    if p < 0.01:
        return "p<0.01"
    if p < 0.05:
        return "p<0.05"
    return "n.s."


def holm(p) -> np.ndarray:
    """Gives Holm-adjusted p-values; nan entries are left out of the family and stay nan.

    The step-down of statsmodels' multipletests(method="holm"), which test_stats checks this
    equals: written out here because statsmodels runs gc.collect() on every Holm call (0.2 s
    in a process holding polars and numba), and a report or a calibration calls it often.
    """
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    tested = np.flatnonzero(~np.isnan(p))
    order = tested[np.argsort(p[tested], kind="stable")]
    steps = np.arange(len(order), 0, -1)
    out[order] = np.minimum(1.0, np.maximum.accumulate(p[order] * steps))
    return out


def sign_test(wins, losses) -> np.ndarray | float:
    """Gives the exact two-sided binomial p-value of wins against losses at 50% (ties dropped
    beforehand), element-wise; nan when there is nothing to test.

    At 50% the binomial is symmetric, so scipy's binomtest p-value is twice the smaller tail
    (at most 1): written with the distribution's cdf so that many pairs cost one call.
    """
    from scipy import stats

    w, l = np.asarray(wins, dtype=float), np.asarray(losses, dtype=float)
    with np.errstate(invalid="ignore"):
        p = np.minimum(1.0, 2 * stats.binom.cdf(np.minimum(w, l), w + l, 0.5))
    p = np.where(w + l > 0, p, np.nan)
    return float(p) if p.ndim == 0 else p


MAX_T_DRAWS = 20_000


def simultaneous_p(rates, cov, pairs: list[tuple[int, int]], draws: int = MAX_T_DRAWS,
                   seed: int = SEED) -> np.ndarray:
    """Gives the two-sided p-value of each difference rates[a] − rates[b] in `pairs`, adjusted
    for testing all of them: a single-step max-|z| test (as multcomp's Tukey and Dunnett
    contrasts), so that the family's false-positive rate is 5% at a nominal 5%.

    `cov` is the covariance of the rates (the rates may be dependent). The null distribution
    of max |z| over the pairs is drawn (seeded) from the normal the rates follow under
    equal means; pairs whose difference has no spread get nan and stay out of the family.
    """
    r = np.asarray(rates, dtype=float)
    cov = np.asarray(cov, dtype=float)
    a = np.array([i for i, _ in pairs], dtype=int)
    b = np.array([j for _, j in pairs], dtype=int)
    out = np.full(len(pairs), np.nan)
    if len(pairs) == 0:
        return out
    known = np.isfinite(np.diag(cov)) & np.isfinite(r)
    cov = np.where(known[:, None] & known[None, :], cov, 0.0)
    var = cov[a, a] + cov[b, b] - 2 * cov[a, b]
    ok = (var > 0) & known[a] & known[b]
    if not ok.any():
        return out
    a, b, sd = a[ok], b[ok], np.sqrt(var[ok])
    observed = np.abs(r[a] - r[b]) / sd
    values, vectors = np.linalg.eigh(cov)
    root = vectors * np.sqrt(np.clip(values, 0, None))
    x = _standard_normal(draws, len(r), seed) @ root.T
    largest = np.sort(np.abs((x[:, a] - x[:, b]) / sd).max(axis=1))
    at_least = draws - np.searchsorted(largest, observed, side="left")
    out[ok] = (1 + at_least) / (1 + draws)
    return out


@lru_cache(maxsize=16)
def _standard_normal(draws: int, k: int, seed: int) -> np.ndarray:
    """Gives the seeded standard normal draws of `simultaneous_p` (the same for every table of
    k rows: cached)."""
    z = np.random.default_rng(seed).standard_normal((draws, k))
    z.setflags(write=False)
    return z


# --- seat fairness: seat labels permuted within games ---------------------------------------

@dataclass(frozen=True)
class SeatTest:
    """Whether the seats of one configuration win equally often, by permutation.

    The null is that seats are exchangeable: within each game, any relabelling of the seats is
    as likely as the one played. Permuting labels within games keeps each game's number of
    winning seats (ties, stalled games where nobody wins) and the dependence of one game's
    seats, so the p-values are exact up to the Monte Carlo error of `permutations` draws.
    """

    q: float              # Cochran's Q of the seats' wins (≈ chi-square, k − 1 dof)
    p: float              # permutation p of Q: do the seats differ at all
    gap: float            # best seat's win rate − worst seat's
    gap_p: float          # permutation p of that range: the best and worst picked after the fact
    seat_p: np.ndarray    # per seat: max-|deviation| (single-step) adjusted p of its difference
    expected: float       # a seat's win rate under the null: mean winning seats per game / k
    permutations: int


def seat_test(wins, winners_per_game, permutations: int = PERMUTATIONS,
              seed: int = SEED) -> SeatTest:
    """Gives the permutation tests that a configuration's seats win equally often.

    `wins[j]`: games seat j won; `winners_per_game[c]`: games in which exactly c seats won
    (c = 0..k). Every seat plays every game of a configuration, so these two are all the test
    needs: under the null each game's c winners are a uniformly random c-subset of the seats,
    and the sum over games of such subsets is drawn exactly (a multinomial over the subsets).
    """
    w = np.asarray(wins, dtype=np.int64)
    m = tuple(int(x) for x in winners_per_game)
    k = len(w)
    games = sum(m)
    if k < 2 or games == 0 or len(m) != k + 1:
        return SeatTest(math.nan, math.nan, math.nan, math.nan, np.full(k, math.nan), math.nan, 0)
    expected = sum(c * mc for c, mc in enumerate(m)) / k
    spread = sum(c * (k - c) * mc for c, mc in enumerate(m)) / k
    gap = (w.max() - w.min()) / games
    if spread == 0:  # every game won by all seats or none: nothing tells the seats apart
        return SeatTest(math.nan, math.nan, gap, math.nan, np.full(k, math.nan),
                        expected / games, 0)
    null = _null_distribution(m, permutations, seed)
    # integer deviations k·W_j − ΣW: exact comparisons with the null draws
    dev = k * w - w.sum()
    q = (k - 1) * int((dev * dev).sum()) / k / k / spread
    return SeatTest(float(q), null.p_at_least("ss", int((dev * dev).sum())), float(gap),
                    null.p_at_least("range", int(w.max() - w.min())),
                    np.array([null.p_at_least("max_dev", int(abs(d))) for d in dev]),
                    expected / games, permutations)


@dataclass(frozen=True)
class _Null:
    """The sorted permutation distributions of the seat statistics."""

    ss: np.ndarray        # Σ_j (k·W_j − ΣW)²: Cochran's Q up to a constant
    range: np.ndarray     # max_j W_j − min_j W_j
    max_dev: np.ndarray   # max_j |k·W_j − ΣW|

    def p_at_least(self, statistic: str, observed: int) -> float:
        """Gives (1 + draws at least `observed`) / (1 + draws): a valid permutation p-value."""
        drawn = getattr(self, statistic)
        return (1 + len(drawn) - int(np.searchsorted(drawn, observed, side="left"))) / (1 + len(drawn))


@lru_cache(maxsize=64)
def _null_distribution(winners_per_game: tuple[int, ...], permutations: int, seed: int) -> _Null:
    """Gives the seat statistics of `permutations` draws of every seat's wins under
    within-game permutation (cached: a report asks again per table, the calibration per
    sample)."""
    rng = np.random.default_rng(seed)
    k = len(winners_per_game) - 1
    wins = np.zeros((permutations, k), dtype=np.int64)
    for c, games in enumerate(winners_per_game):
        if games == 0 or c == 0:
            continue
        if c == k:
            wins += games
            continue
        subsets = np.zeros((math.comb(k, c), k), dtype=np.int64)
        for row, seats in enumerate(combinations(range(k), c)):
            subsets[row, list(seats)] = 1
        counts = rng.multinomial(games, np.full(len(subsets), 1 / len(subsets)), size=permutations)
        wins += counts @ subsets
    dev = k * wins - wins.sum(axis=1, keepdims=True)
    return _Null(np.sort((dev * dev).sum(axis=1)), np.sort(wins.max(axis=1) - wins.min(axis=1)),
                 np.sort(np.abs(dev).max(axis=1)))


# --- ratings ----------------------------------------------------------------------------

def balance(rates) -> float:
    """Gives 1 − the largest gap between win rates (1 = perfectly even seats)."""
    r = np.asarray([x for x in rates if x == x], dtype=float)
    if len(r) == 0:
        return math.nan
    return float(1 - (r.max() - r.min()))


LOG_STRENGTH_BOUND = 30.0  # a winless player's strength tends to 0: keep it e^-30, finite


def bradley_terry(wins) -> np.ndarray:
    """Gives Bradley–Terry strengths (geometric mean 1): the maximum-likelihood fit (scipy
    L-BFGS-B) of P(i beats j) = s_i / (s_i + s_j).

    `wins[i, j]` is how often i beat j (ties may be given as halves).
    """
    from scipy import optimize, stats

    w = np.asarray(wins, dtype=float)
    k = len(w)

    def minus_log_likelihood(theta):
        diff = theta[:, None] - theta[None, :]
        # log P(i beats j) = −log(1 + e^(θj − θi)); logaddexp keeps it finite
        loss = (w * np.logaddexp(0.0, -diff)).sum()
        grad_pair = w * stats.logistic.cdf(-diff)  # w_ij · P(j beats i)
        return loss, -(grad_pair.sum(axis=1) - grad_pair.sum(axis=0))

    fit = optimize.minimize(minus_log_likelihood, np.zeros(k), jac=True, method="L-BFGS-B",
                            bounds=[(-LOG_STRENGTH_BOUND, LOG_STRENGTH_BOUND)] * k,
                            options={"ftol": 1e-15, "gtol": 1e-10, "maxiter": 10_000})
    theta = fit.x - fit.x.mean()
    return np.exp(theta)


def elo_from_strengths(strengths, base: float = 1500.0) -> np.ndarray:
    """Gives Elo-scale ratings (mean `base`) equivalent to Bradley–Terry strengths.

    400·log10 turns strengths into Elo points: a 400-point gap means 10:1 odds.
    """
    r = 400 * np.log10(np.asarray(strengths, dtype=float))
    return base + r - r.mean()


def elo_ratings(wins) -> np.ndarray:
    """Gives Elo-style ratings from a win matrix (the Bradley–Terry fit on the Elo scale)."""
    return elo_from_strengths(bradley_terry(wins))
