"""Statistics against values worked out by hand."""

import math

import numpy as np
import pytest

from scipy.stats import binomtest, norm
from statsmodels.stats.contingency_tables import cochrans_q
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from reports.stats import (Z95, balance, bradley_terry, design_effect, elo_from_strengths,
                           elo_ratings, holm, seat_test, sign_test, significance_level,
                           simultaneous_p, two_sided_p, wilson, wilson_arrays)


def test_wilson_8_of_10_at_95_percent():
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)


def test_wilson_of_no_successes_starts_at_zero():
    # upper bound z² / (n + z²)
    assert wilson(0, 10) == pytest.approx((0.0, 3.841459 / 13.841459), abs=1e-6)


def test_wilson_of_no_trials_is_undefined():
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_wilson_arrays_agree_with_wilson():
    low, high = wilson_arrays([8, 0, 50], [10, 10, 100])
    for i, (s, n) in enumerate([(8, 10), (0, 10), (50, 100)]):
        assert (low[i], high[i]) == pytest.approx(wilson(s, n))


def test_wilson_arrays_equal_statsmodels():
    n = np.array([1, 2, 7, 10, 100, 2_000, 200_000, 3])
    successes = np.array([0, 1, 7, 8, 37, 1_999, 12_345, 0])
    low, high = proportion_confint(successes, n, alpha=0.05, method="wilson")
    assert wilson_arrays(successes, n) == (pytest.approx(low, abs=1e-15),
                                           pytest.approx(high, abs=1e-15))


def test_z95_is_scipys_normal_quantile():
    assert Z95 == pytest.approx(norm.ppf(0.975), abs=1e-15)


def test_significance_levels():
    assert significance_level(0.0004) == "p<0.001"
    assert significance_level(0.04) == "p<0.05"
    assert significance_level(0.5) == "n.s." and significance_level(math.nan) == "n/a"


def test_design_effect_of_independent_trials_is_one():
    # one trial a game: Σ(s − p)² = m·p(1 − p), the binomial variance itself
    s = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    assert design_effect(s.sum(), 8, 8, (s * s).sum(), 8, s.sum()) == pytest.approx(1.0)


def test_design_effect_of_games_won_or_lost_whole():
    # 3 rounds a game, a game's rounds all won or all lost: each game is one trial, deff = 3
    won = np.array([3, 0, 3, 0, 3, 0, 0, 3, 3, 0])
    deff = design_effect(won.sum(), 30, 10, (won * won).sum(), 90, (3 * won).sum())
    assert deff == pytest.approx(3.0)


def test_design_effect_never_narrows_an_interval():
    # rounds that offset each other (one of two won in every game) would give deff 0
    assert design_effect(10, 20, 10, 10, 40, 20) == 1.0


def test_holm_adjusts_sorted_p_values_and_leaves_nan_out():
    # sorted 0.01, 0.03, 0.04 -> 3·0.01, max(0.03, 2·0.03), max(0.06, 1·0.04)
    assert holm([0.04, 0.01, math.nan, 0.03]) == pytest.approx([0.06, 0.03, math.nan, 0.06],
                                                               nan_ok=True)


def test_holm_equals_statsmodels():
    p = np.random.default_rng(2).random(40) ** 3
    assert holm(p) == pytest.approx(multipletests(p, method="holm")[1])


def test_sign_test_is_scipys_exact_binomial():
    # 9 of 10: P(X >= 9) = 11/1024, doubled
    assert sign_test(9, 1) == pytest.approx(22 / 1024)
    assert math.isnan(sign_test(0, 0))
    for w, l in [(40, 60), (400, 401), (3, 0), (0, 17)]:
        assert sign_test(w, l) == pytest.approx(binomtest(w, w + l, 0.5).pvalue)


def test_one_simultaneous_difference_is_the_z_test():
    # one pair: max |z| over one pair is |z|, p = 2·P(Z > |z|) up to the draws' error
    cov = np.diag([0.0004, 0.0005])
    p = simultaneous_p([0.52, 0.47], cov, [(0, 1)])[0]
    z = 0.05 / math.sqrt(0.0009)
    assert p == pytest.approx(2 * norm.sf(z), abs=0.004)


def test_simultaneous_p_values_pay_for_the_family():
    # 6 independent rates: each pair's max-|z| p exceeds its own z-test's, under Bonferroni's
    rates, cov = np.array([0.5, 0.5, 0.5, 0.5, 0.5, 0.56]), np.diag([0.0004] * 6)
    pairs = [(a, b) for a in range(6) for b in range(a + 1, 6)]
    p = simultaneous_p(rates, cov, pairs)
    single = 2 * norm.sf(0.06 / math.sqrt(0.0008))
    assert single < p[-1] < min(1.0, 15 * single)
    assert p[0] == 1.0  # equal rates


def test_a_row_without_spread_stays_out_of_the_family():
    p = simultaneous_p([0.5, 0.4, 0.3], np.array([[0.001, 0, 0], [0, 0.001, 0], [0, 0, np.nan]]),
                       [(0, 1), (0, 2), (1, 2)])
    assert not math.isnan(p[0]) and math.isnan(p[1]) and math.isnan(p[2])


def test_seat_q_is_cochrans_q():
    rng = np.random.default_rng(4)
    won = rng.random((400, 5)) < [0.2, 0.25, 0.2, 0.3, 0.2]
    test = seat_test(won.sum(axis=0), np.bincount(won.sum(axis=1), minlength=6))
    assert test.q == pytest.approx(cochrans_q(won.astype(int)).statistic)
    assert test.expected == pytest.approx(won.mean())


def test_seat_tests_find_a_first_seat_that_wins_more():
    # one winner a game: seat 0 wins 40%, the others 15% each
    rng = np.random.default_rng(5)
    winner = rng.choice(5, size=2000, p=[0.4, 0.15, 0.15, 0.15, 0.15])
    wins = np.bincount(winner, minlength=5)
    test = seat_test(wins, [0, 2000, 0, 0, 0, 0])
    assert test.p < 0.001 and test.gap_p < 0.001 and test.seat_p[0] < 0.001
    assert test.gap == pytest.approx((wins.max() - wins.min()) / 2000)


def test_seats_that_all_win_or_all_lose_cannot_be_told_apart():
    test = seat_test([30, 30, 30], [70, 0, 0, 30])
    assert math.isnan(test.p) and significance_level(test.p) == "n/a"


def test_equal_seats_give_the_same_p_for_the_same_counts():
    # seeded draws: a report of the same run says the same
    assert seat_test([50, 40, 60], [10, 150, 0, 0]).p == seat_test([50, 40, 60], [10, 150, 0, 0]).p


def test_balance_is_one_minus_the_largest_gap():
    assert balance([0.31, 0.29, 0.20]) == pytest.approx(0.89)
    assert balance([0.25] * 4) == 1.0


def test_bradley_terry_recovers_strengths_from_a_proportional_matrix():
    # strengths 4 : 2 : 1, 60 games per pair, wins exactly in proportion
    wins = np.array([[0, 40, 48], [20, 0, 40], [12, 20, 0]])
    assert bradley_terry(wins) == pytest.approx([2.0, 1.0, 0.5], rel=1e-6)


def test_bradley_terry_of_two_players_is_their_odds():
    s = bradley_terry([[0, 3], [1, 0]])
    assert s[0] / s[1] == pytest.approx(3.0, rel=1e-6)


def test_elo_gap_of_four_to_one_odds():
    r = elo_from_strengths([4.0, 1.0])
    assert r[0] - r[1] == pytest.approx(400 * math.log10(4))
    assert r.mean() == pytest.approx(1500)
    e = elo_ratings([[0, 40, 48], [20, 0, 40], [12, 20, 0]])
    assert e[0] - e[1] == pytest.approx(400 * math.log10(2), rel=1e-5)


def test_a_two_sided_p_is_the_normal_tails_without_importing_scipy_stats():
    # a tuning's one held-out p-value imported scipy.stats (0.4-1.6 CPU-s)
    import os
    import subprocess
    import sys
    from pathlib import Path

    z = np.array([0.0, -0.4, 1.96, 3.3, -8.5, 40.0, np.nan])
    assert np.array_equal(two_sided_p(z), 2 * norm.sf(np.abs(z)), equal_nan=True)
    code = ("import sys; from reports.stats import two_sided_p; two_sided_p(1.5); "
            "print('scipy.stats' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    assert subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.strip() == "False"
