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


def test_a_legend_of_any_width_leaves_the_plot_its_width(tmp_path, monkeypatch):
    # the figure widened for the legend by a margin too small: the plot narrowed by 3% of the
    # legend's width, and a legend wider than about 130 inches left it none (matplotlib:
    # "left cannot be >= right")
    kept = []
    monkeypatch.setattr(charts, "save", lambda fig, path: kept.append(
        (fig.subplotpars.right - fig.subplotpars.left) * fig.get_figwidth()))
    x, rate = np.array([2, 3]), np.array([0.4, 0.5])
    for label in ("a", "miner=search-belief-strong saboteur=default " * 4,
                  "a label of a legend wider than any figure " * 40):
        charts.rate_lines(tmp_path / "lines.png", {label: (x, rate, rate - 0.1, rate + 0.1)},
                          band=False, title="t", xlabel="x", ylabel="y", caption="c")
    assert all(width >= charts.PLOT_INCHES - 1e-9 for width in kept), kept
    assert len(kept) == 3


def edge_ink(path) -> int:
    """Gives how many pixels on the image's outermost rows and columns are not white: ink
    there is a title, label or legend cut by the image's edge."""
    from PIL import Image

    with Image.open(path) as image:
        pixels = np.asarray(image.convert("L"), int)
    edges = np.concatenate([pixels[0], pixels[-1], pixels[:, 0], pixels[:, -1]])
    return int((edges < 250).sum())


def test_the_forest_plot_cuts_nothing(tmp_path):
    labels = ["hand_size.7=5 (default, baseline)",
              "hand_size.7=4 saboteur_cards.7=3 miner_cards.7=6", "hand_size.7=6"]
    path = charts.forest(tmp_path / "forest.png", labels, [0.0, -0.012, 0.011],
                         [np.nan, -0.03, -0.009], [np.nan, 0.006, 0.031],
                         unpaired=([np.nan, -0.04, -0.02], [np.nan, 0.016, 0.04]),
                         title="Saboteur: what if the rules changed? A title as long as a "
                               "report's can be",
                         xlabel="difference in the miners' round-win rate (points)",
                         caption="n = 1,000 games per variant; whiskers: 95% interval (paired "
                                 "where the seeds match); grey: unpaired, for comparison")
    assert edge_ink(path) == 0


def test_the_role_mix_facets_wrap_into_rows(tmp_path):
    from PIL import Image

    facets = {f"{n} players": ([f"{k} of 3" for k in range(4)], [0.3, 0.2, 0.4, 0.5],
                               [0.25, 0.15, 0.3, 0.3], [0.35, 0.25, 0.5, 0.7])
              for n in range(3, 11)}
    path = charts.faceted_bars(tmp_path / "mix.png", facets, title="Saboteur: game-win rate "
                               "by role mix", xlabel="rounds played as a saboteur",
                               ylabel="game-win rate (%)", caption="n = 100 seat-games")
    with Image.open(path) as image:
        assert image.width <= 3000 and image.height < image.width  # two rows of four
    assert edge_ink(path) == 0


def test_a_long_rung_name_wraps_on_its_tick_rather_than_running_into_the_next(tmp_path,
                                                                               monkeypatch):
    # issue 40's designer ladder: "deduce" and "miner=search-belief saboteur=search-belief
    # (preset search-belief)" printed over each other on the axis
    ticks = []
    finish = charts._finish
    monkeypatch.setattr(charts, "_finish", lambda fig, ax, *a, **k: (
        ticks.extend(t.get_text() for t in ax.get_xticklabels()), finish(fig, ax, *a, **k))[1])
    rung = "miner=search-belief saboteur=search-belief (preset search-belief)"
    charts.category_lines(tmp_path / "c.png", ["deduce", rung],
                          {"7 players": ([0, 1], [0.5, 0.45], [0.48, 0.41], [0.52, 0.49])},
                          {"7 players": 0.5}, title="t", xlabel="x", ylabel="y", caption="c")
    assert ticks[0] == "deduce"
    assert ticks[1].split("\n") == ["miner=search-belief", "saboteur=search-belief",
                                    "(preset search-belief)"]
