"""Statistics the reports quote: Wilson intervals, tests of differences, seat fairness, ratings.

Plain numpy and math: scipy is not a dependency.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Gives the Wilson score interval (low, high) of a rate; (nan, nan) when n is 0."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def wilson_arrays(successes, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Gives the Wilson bounds (low, high) element-wise for arrays of successes and trials."""
    s = np.asarray(successes, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = s / n
        z2 = z * z
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = z / (1 + z2 / n) * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
        return np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1)


def normal_sf(x: float) -> float:
    """Gives P(Z > x) for a standard normal Z."""
    return 0.5 * math.erfc(x / math.sqrt(2))


@dataclass(frozen=True)
class Difference:
    """A difference of two rates and whether it is significant."""

    diff: float
    z: float
    p: float

    @property
    def level(self) -> str:
        """Gives the strongest conventional level the difference passes ('n.s.' if none)."""
        return significance_level(self.p)


def significance_level(p: float) -> str:
    """Gives 'p<0.001', 'p<0.01', 'p<0.05' or 'n.s.' (not significant at 5%) for a p-value."""
    if not p == p:  # nan: nothing to test
        return "n/a"
    if p < 0.001:
        return "p<0.001"
    if p < 0.01:
        return "p<0.01"
    if p < 0.05:
        return "p<0.05"
    return "n.s."


def two_proportion(s1: float, n1: float, s2: float, n2: float) -> Difference:
    """Gives the two-sided pooled two-proportion z-test of rate1 - rate2."""
    if n1 <= 0 or n2 <= 0:
        return Difference(math.nan, math.nan, math.nan)
    p1, p2 = s1 / n1, s2 / n2
    pooled = (s1 + s2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return Difference(p1 - p2, 0.0, 1.0)
    z = (p1 - p2) / se
    return Difference(p1 - p2, z, 2 * normal_sf(abs(z)))


def gamma_q(a: float, x: float) -> float:
    """Gives the regularized upper incomplete gamma Q(a, x) (Numerical Recipes gser/gcf)."""
    if x < 0 or a <= 0:
        raise ValueError("gamma_q needs a > 0 and x >= 0")
    if x == 0:
        return 1.0
    lg = math.lgamma(a)
    if x < a + 1:  # series for P, converges fast here
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - lg))
    # continued fraction for Q (modified Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - lg) * h


def chi2_sf(x: float, dof: int) -> float:
    """Gives P(X > x) for X chi-square distributed with `dof` degrees of freedom."""
    return gamma_q(dof / 2, x / 2)


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    dof: int
    p: float


def chi_square_equal(counts) -> ChiSquare:
    """Gives the chi-square goodness-of-fit test of counts against equal expected counts.

    For seats: the wins of each seat, when every seat played the same games.
    """
    c = np.asarray(counts, dtype=float)
    if len(c) < 2 or c.sum() == 0:
        return ChiSquare(math.nan, max(len(c) - 1, 0), math.nan)
    expected = c.sum() / len(c)
    stat = float(((c - expected) ** 2 / expected).sum())
    return ChiSquare(stat, len(c) - 1, chi2_sf(stat, len(c) - 1))


def chi_square_rates(wins, trials) -> ChiSquare:
    """Gives the chi-square test that all rates wins/trials are equal (k x 2 contingency table).

    Equals `chi_square_equal(wins)` minus the losses' share when trials are equal; use it when
    seats played different numbers of games (several configurations pooled).
    """
    w = np.asarray(wins, dtype=float)
    t = np.asarray(trials, dtype=float)
    keep = t > 0
    w, t = w[keep], t[keep]
    if len(w) < 2:
        return ChiSquare(math.nan, 0, math.nan)
    p = w.sum() / t.sum()
    if p in (0.0, 1.0):
        return ChiSquare(0.0, len(w) - 1, 1.0)
    expected_w, expected_l = t * p, t * (1 - p)
    stat = float(((w - expected_w) ** 2 / expected_w + ((t - w) - expected_l) ** 2 / expected_l).sum())
    return ChiSquare(stat, len(w) - 1, chi2_sf(stat, len(w) - 1))


def balance(rates) -> float:
    """Gives 1 − the largest gap between win rates (1 = perfectly even seats)."""
    r = np.asarray([x for x in rates if x == x], dtype=float)
    if len(r) == 0:
        return math.nan
    return float(1 - (r.max() - r.min()))


def bradley_terry(wins, iterations: int = 10_000, tol: float = 1e-10) -> np.ndarray:
    """Gives Bradley–Terry strengths (geometric mean 1) fitted by the MM algorithm.

    `wins[i, j]` is how often i beat j (ties may be given as halves). P(i beats j) is
    s_i / (s_i + s_j). Hunter (2004): s_i <- W_i / sum_j n_ij / (s_i + s_j).
    """
    w = np.asarray(wins, dtype=float)
    k = len(w)
    n = w + w.T
    total_wins = w.sum(axis=1)
    s = np.ones(k)
    for _ in range(iterations):
        denom = (n / (s[:, None] + s[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1), s)
        new = np.maximum(new, 1e-12)  # a winless player would collapse to 0; keep it finite
        new /= math.exp(np.log(new).mean())
        if np.abs(new - s).max() < tol:
            s = new
            break
        s = new
    return s


def elo_from_strengths(strengths, base: float = 1500.0) -> np.ndarray:
    """Gives Elo-scale ratings (mean `base`) equivalent to Bradley–Terry strengths.

    400·log10 turns strengths into Elo points: a 400-point gap means 10:1 odds.
    """
    r = 400 * np.log10(np.asarray(strengths, dtype=float))
    return base + r - r.mean()


def elo_ratings(wins) -> np.ndarray:
    """Gives Elo-style ratings from a win matrix (the Bradley–Terry fit on the Elo scale)."""
    return elo_from_strengths(bradley_terry(wins))
