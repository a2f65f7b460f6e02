"""Statistics against values worked out by hand."""

import math

import numpy as np
import pytest

from statsmodels.stats.contingency_tables import cochrans_q

from reports.stats import (balance, bradley_terry, design_effect, elo_from_strengths,
                           elo_ratings, holm, seat_test, sign_test, significance_level,
                           two_proportion, wilson, wilson_arrays)


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


def test_two_proportion_60_vs_40_of_100():
    d = two_proportion(60, 100, 40, 100)
    # pooled 0.5: se = sqrt(0.25 * 0.02)
    assert d.diff == pytest.approx(0.2)
    assert d.z == pytest.approx(2.828427, abs=1e-6)
    assert d.p == pytest.approx(0.004678, abs=1e-6)
    assert d.level == "p<0.01"


def test_equal_rates_are_not_significant():
    assert two_proportion(50, 100, 50, 100).level == "n.s."
    assert significance_level(0.0004) == "p<0.001"
    assert significance_level(0.04) == "p<0.05"


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


def test_sign_test_is_the_exact_binomial():
    # 9 of 10: P(X >= 9) = 11/1024, doubled
    assert sign_test(9, 1) == pytest.approx(22 / 1024)
    assert math.isnan(sign_test(0, 0))


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
