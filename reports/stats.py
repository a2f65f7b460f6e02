"""Statistics the reports quote: intervals, tests whose false-positive rate holds by construction,
seat fairness by permutation, ratings.

A thin layer over scipy and statsmodels (Wilson intervals, normal and binomial tests, Holm's
correction, the Bradley–Terry fit); what is the project's own is how a balance question maps
onto them: games are the independent units (rounds and seats of one game are not), seat labels
are permuted within games, and a table that tests many rows controls its family-wise error.
tests/reports/test_calibration.py checks every test's false-positive rate and every interval's
coverage on simulated nulls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np
from scipy import optimize, stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

ALPHA = 0.05
Z95 = float(stats.norm.ppf(1 - ALPHA / 2))
PERMUTATIONS = 9_999  # a permutation p-value resolves 1e-4, below the 0.001 level it reports
SEED = 20_150  # permutation draws are seeded: the same run gives the same report


def wilson(successes: float, n: float) -> tuple[float, float]:
    """Gives the 95% Wilson score interval (low, high) of a rate; (nan, nan) when n is 0."""
    low, high = wilson_arrays([successes], [n])
    return float(low[0]), float(high[0])


def wilson_arrays(successes, n) -> tuple[np.ndarray, np.ndarray]:
    """Gives the 95% Wilson bounds (low, high) element-wise (statsmodels proportion_confint);
    nan where there are no trials."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    some = n > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        low, high = proportion_confint(np.where(some, s, 0), np.where(some, n, 1), alpha=ALPHA,
                                       method="wilson")
    # statsmodels leaves a rounding error at rates of 0 or 1 (e.g. 1 + 1e-16)
    return (np.where(some, np.clip(low, 0, 1), np.nan), np.where(some, np.clip(high, 0, 1), np.nan))


def design_effect(successes, trials, games, ss, tt, st) -> np.ndarray:
    """Gives the design effect of rates whose trials come in games (clusters), floored at 1.

    A rate is the ratio estimator p = S/T over m games; its variance by linearisation is
    Σ(s_i − p·t_i)² / T², from the sums Σs², Σt², Σs·t (`ss`, `tt`, `st`). The design effect
    is that variance over the binomial one, p(1−p)/T (exactly 1 when every game is one trial).
    It is floored at 1 (as Korn & Graubard 1998 do): trials of a game that offset each other
    never narrow an interval. 1 where it cannot be estimated (one game, or a rate of 0 or 1).
    """
    s, t, m, ss, tt, st = (np.asarray(x, dtype=float) for x in (successes, trials, games, ss, tt, st))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / t
        residual = np.maximum(ss - 2 * p * st + p * p * tt, 0.0)
        cluster = residual / (t * t)
        binomial = p * (1 - p) / t
        deff = cluster / binomial
    return np.where(np.isfinite(deff) & (m > 1), np.maximum(deff, 1.0), 1.0)


def two_sided_p(z) -> np.ndarray:
    """Gives the two-sided normal p-value of z statistics (nan stays nan)."""
    return 2 * stats.norm.sf(np.abs(np.asarray(z, dtype=float)))


@dataclass(frozen=True)
class Difference:
    """A difference of two rates and its two-sided p-value."""

    diff: float
    z: float
    p: float

    @property
    def level(self) -> str:
        """Gives the strongest conventional level the difference passes ('n.s.' if none)."""
        return significance_level(self.p)


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


def two_proportion(s1: float, n1: float, s2: float, n2: float) -> Difference:
    """Gives the two-sided pooled two-proportion z-test of rate1 − rate2 (independent samples;
    with clustered trials pass effective counts: rate · n/deff and n/deff)."""
    if n1 <= 0 or n2 <= 0:
        return Difference(math.nan, math.nan, math.nan)
    p1, p2 = s1 / n1, s2 / n2
    pooled = (s1 + s2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return Difference(p1 - p2, 0.0, 1.0)
    z = (p1 - p2) / se
    return Difference(p1 - p2, z, float(two_sided_p(z)))


def holm(p) -> np.ndarray:
    """Gives Holm-adjusted p-values (statsmodels multipletests); nan entries are left out of
    the family and stay nan."""
    p = np.asarray(p, dtype=float)
    out = np.full(p.shape, np.nan)
    tested = ~np.isnan(p)
    if tested.any():
        out[tested] = multipletests(p[tested], method="holm")[1]
    return out


def sign_test(wins: int, losses: int) -> float:
    """Gives the exact two-sided binomial p-value of wins against losses at 50% (ties dropped
    beforehand); nan when there is nothing to test."""
    if wins + losses == 0:
        return math.nan
    return float(stats.binomtest(int(wins), int(wins + losses), 0.5).pvalue)


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
    null = _null_wins(m, permutations, seed)
    # integer deviations k·W_j − ΣW: exact comparisons with the null draws
    dev = k * w - w.sum()
    null_dev = k * null - null.sum(axis=1, keepdims=True)
    ss, null_ss = (dev * dev).sum(), (null_dev * null_dev).sum(axis=1)
    spread_w, null_range = w.max() - w.min(), null.max(axis=1) - null.min(axis=1)
    null_max = np.abs(null_dev).max(axis=1)
    at_least = lambda observed, drawn: (1 + int((drawn >= observed).sum())) / (permutations + 1)
    q = (k - 1) * ss / k / k / spread
    seat_p = np.sort(null_max)
    seat_p = (1 + permutations - np.searchsorted(seat_p, np.abs(dev), side="left")) / (permutations + 1)
    return SeatTest(float(q), at_least(ss, null_ss), float(gap), at_least(spread_w, null_range),
                    seat_p, expected / games, permutations)


@lru_cache(maxsize=64)
def _null_wins(winners_per_game: tuple[int, ...], permutations: int, seed: int) -> np.ndarray:
    """Gives `permutations` draws of every seat's wins under within-game permutation (rows)."""
    rng = np.random.default_rng(seed)
    k = len(winners_per_game) - 1
    out = np.zeros((permutations, k), dtype=np.int64)
    for c, games in enumerate(winners_per_game):
        if games == 0 or c == 0:
            continue
        if c == k:
            out += games
            continue
        subsets = np.zeros((math.comb(k, c), k), dtype=np.int64)
        for row, seats in enumerate(combinations(range(k), c)):
            subsets[row, list(seats)] = 1
        counts = rng.multinomial(games, np.full(len(subsets), 1 / len(subsets)), size=permutations)
        out += counts @ subsets
    out.setflags(write=False)
    return out


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
