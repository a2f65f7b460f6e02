"""Statistics against values worked out by hand."""

import math

import numpy as np
import pytest

from reports.stats import (balance, bradley_terry, chi2_sf, chi_square_equal, chi_square_rates,
                           elo_from_strengths, elo_ratings, significance_level, two_proportion,
                           wilson, wilson_arrays)


def test_wilson_8_of_10_at_95_percent():
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)


def test_wilson_at_any_z():
    # z = 1: centre (0.8 + 0.05) / 1.1, half-width sqrt(0.016 + 0.0025) / 1.1
    assert wilson(8, 10, z=1.0) == pytest.approx((0.649077, 0.896377), abs=1e-6)


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


@pytest.mark.parametrize("x, dof, p", [
    (3.841459, 1, 0.05), (5.991465, 2, 0.05), (7.814728, 3, 0.05), (18.307038, 10, 0.05),
    (6.634897, 1, 0.01), (0.0, 4, 1.0), (2.0, 2, math.exp(-1)),
    (50.0, 4, math.exp(-25) * 26),  # even dof closed form: e^(-x/2) (1 + x/2)
    (0.5, 7, 0.99944648),  # odd dof: checked by numerical integration of the density
])
def test_chi_square_survival(x, dof, p):
    assert chi2_sf(x, dof) == pytest.approx(p, rel=1e-5, abs=1e-12)


def test_chi_square_against_equal_seats():
    test = chi_square_equal([30, 20, 10])
    # expected 20 each: (100 + 0 + 100) / 20
    assert test.statistic == pytest.approx(10.0)
    assert test.dof == 2
    assert test.p == pytest.approx(math.exp(-5))


def test_chi_square_of_rates_counts_losses_too():
    test = chi_square_rates([30, 20, 10], [100, 100, 100])
    # overall 20%: wins part 10, losses part (100 + 0 + 100) / 80
    assert test.statistic == pytest.approx(12.5)
    assert test.p == pytest.approx(math.exp(-6.25))


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
