"""Charts draw whatever the statistics give: rates of exactly 0 or 1, empty groups (nan)."""

import math

import numpy as np
import pytest

from reports import charts
from reports.stats import wilson, wilson_arrays


def nobody_won(n):
    """Gives (rate, low, high) of a group that never won in n tries: Wilson's low bound at 0 can
    miss the rate by a rounding error (slightly above 0)."""
    low, high = wilson_arrays(np.zeros(len(n)), n)
    return np.zeros(len(n)), low, high


def test_the_rounding_error_this_guards_against_is_real():
    _, low, _ = nobody_won(np.arange(1, 50))
    assert (low > 0.0).any()


@pytest.mark.parametrize("make", [
    lambda: nobody_won(np.array([7, 9, 40])),                       # every game stalled
    lambda: (np.ones(2), *wilson_arrays(np.array([10.0, 13.0]), np.array([10.0, 13.0]))),
    lambda: (np.array([math.nan, 0.5]), np.array([math.nan, 0.3]), np.array([math.nan, 0.7])),
    lambda: (np.array([math.nan]), np.array([math.nan]), np.array([math.nan])),
], ids=["all-zero", "all-one", "one-empty", "all-empty"])
def test_rate_bars_draws_rates_at_the_edges_and_empty_groups(tmp_path, make):
    rate, low, high = make()
    labels = [f"s{i}" for i in range(len(rate))]
    path = charts.rate_bars(tmp_path / "bars.png", labels, rate, low, high, title="t",
                            xlabel="x", ylabel="y", caption="c")
    assert path.read_bytes().startswith(b"\x89PNG")


def test_the_other_interval_charts_draw_rates_of_zero_too(tmp_path):
    rate, low, high = nobody_won(np.array([7, 9]))
    charts.rate_lines(tmp_path / "lines.png", {"a": (np.array([2, 3]), rate, low, high)},
                      band=False, title="t", xlabel="x", ylabel="y", caption="c")
    charts.grouped_bars(tmp_path / "groups.png", ["2", "3"], {"a": (rate, low, high)},
                        title="t", xlabel="x", ylabel="y", caption="c")
    assert (tmp_path / "lines.png").exists() and (tmp_path / "groups.png").exists()
    assert wilson(0, 7)[0] >= 0.0
