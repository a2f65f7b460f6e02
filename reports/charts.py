"""Charts readable at a glance and on a slide: titled, labelled, intervals drawn, n in the
caption; PNG at 200 dpi, and SVG or PDF beside it when asked for (`output`).

Headless (Agg) and colour-blind safe: the Okabe–Ito palette for lines and bars; heatmaps of
rates with a target in a diverging scale centred on it (blue above, red below), else cividis.
"""

from __future__ import annotations

import contextlib
import textwrap
from pathlib import Path
from typing import Iterator

import matplotlib

matplotlib.use("Agg")
import matplotlib.patches  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from sim.errors import UserError  # noqa: E402

FORMATS = ("png", "svg", "pdf")
DPI = 200
"""PNG resolution: a 10-inch chart is 2,000 pixels wide, sharp at full-slide width."""
_output = {"formats": ("png",), "dpi": DPI}
TICK_WIDTH = 22
"""Characters of a category's tick label per line (about the room one category has)."""


def check_dpi(dpi: int) -> None:
    """Raises a one-line UserError for a --dpi no chart can be drawn at."""
    if not 50 <= dpi <= 1200:
        raise UserError(f"--dpi takes 50 to 1200, got {dpi}")


@contextlib.contextmanager
def output(formats: tuple[str, ...], dpi: int) -> Iterator[None]:
    """Draws the charts made inside in these formats (each chart's PNG, which the report pages
    show, and e.g. an SVG and a PDF of the same name beside it), PNGs at `dpi`."""
    before = dict(_output)
    _output.update(formats=formats, dpi=dpi)
    try:
        yield
    finally:
        _output.update(before)


OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
             "#000000"]
# Sizes that read on a slide, where the chart is shown 10 inches wide or more.
matplotlib.rcParams.update({"font.size": 12, "axes.titlesize": 15, "axes.labelsize": 13,
                            "xtick.labelsize": 11, "ytick.labelsize": 11, "legend.fontsize": 11,
                            "legend.title_fontsize": 11})
CAPTION_SIZE = 10
LEGEND_RIGHT = 0.76
"""The axes' right edge when the legend stands outside them, right of the plot: a legend
inside may cover a bar or a point wherever it goes."""


def _figure(width: float = 10.0, height: float = 5.6):
    """Gives a figure and its axes: 10 × 5.6 inches by default (16:9, a slide's shape)."""
    fig, ax = plt.subplots(figsize=(width, height), dpi=100)
    ax.grid(True, axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    return fig, ax


def save(fig, path: Path, tight: bool = False) -> Path:
    """Gives `path` after writing the figure there as PNG, and beside it in every other format
    asked for (`output`); closes the figure. `tight`: the image is cut to what is drawn,
    however far it reaches (a long label or a legend below the axes is never clipped)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    extra = {"bbox_inches": "tight", "pad_inches": 0.15} if tight else {}
    for fmt in _output["formats"]:
        fig.savefig(path.with_suffix(f".{fmt}"), format=fmt, dpi=_output["dpi"], **extra)
    plt.close(fig)
    return path


def _below(ax, points: float):
    """Gives a transform for a legend anchored `points` below the axes' bottom edge."""
    return ax.transAxes + matplotlib.transforms.ScaledTranslation(
        0, -points / 72, ax.figure.dpi_scale_trans)


PLOT_INCHES = 4.0  # the least width a chart's plot keeps beside a legend outside it
LEGEND_INCHES = 12.0  # the most width a figure gives a legend outside its plot


def _finish(fig, ax, path: Path, title: str, xlabel: str, ylabel: str, caption: str,
            left: float | None = None, bottom: float = 0.2, right: float = 0.97) -> Path:
    """Gives the saved chart after titling, labelling and captioning it; `left` by default
    leaves 1.15 inches for the y tick labels and the y label, whatever the figure's width."""
    ax.set_title(title, fontweight="bold")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.text(0.01, 0.01, caption, fontsize=CAPTION_SIZE, color="#444444", ha="left",
             va="bottom", wrap=True)
    legend = ax.get_legend()
    if legend is not None and right < 0.97:  # outside: as much room as the legend is wide
        # at most LEGEND_INCHES: a wider legend runs off the image rather than make it huge
        inches = min(legend.get_window_extent(fig.canvas.get_renderer()).width / fig.dpi,
                     LEGEND_INCHES)
        # a legend of long labels widens the figure rather than squeeze the plot away
        margin = 1.15 if left is None else left * fig.get_figwidth()  # the y labels'
        # the plot keeps PLOT_INCHES between the margin and the legend, with 3% on the right
        fig.set_figwidth(max(fig.get_figwidth(),
                             (margin + PLOT_INCHES + inches + 0.1) / 0.97))
        right = 0.97 - (inches + 0.1) / fig.get_figwidth()
    if left is None:
        left = 1.15 / fig.get_figwidth()
    # fixed margins: tight_layout costs more than drawing the chart
    fig.subplots_adjust(left=left, right=right, top=0.9, bottom=bottom)
    return save(fig, path)


def _whiskers(value, low, high) -> list[np.ndarray]:
    """Gives errorbar's yerr for intervals [low, high] around values: never negative (a Wilson
    bound at a rate of 0 or 1 can miss the rate by a rounding error) and 0 where the interval
    or the value is missing (nan), so that stalled or empty groups still draw."""
    below, above = np.asarray(value, float) - low, high - np.asarray(value, float)
    return [np.clip(np.nan_to_num(e, nan=0.0), 0.0, None) for e in (below, above)]


def _percent_axis(ax, axis: str = "y") -> None:
    fmt = matplotlib.ticker.PercentFormatter(xmax=1, decimals=None)
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


def _legend_outside(ax, **kwargs) -> None:
    """Puts the legend right of the axes, where it covers no data."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kwargs)


def _interval_note(value, low, high) -> str:
    """Gives the caption's statement of the widest 95% interval, in percentage points, so that
    the uncertainty is known even where the whiskers or bands are too short to see."""
    half = np.fmax(np.asarray(value, float) - np.asarray(low, float),
                   np.asarray(high, float) - np.asarray(value, float))
    half = half[np.isfinite(half)]
    return f"; widest 95% interval ± {100 * half.max():.1f} pp" if half.size else ""


def _xticks(ax, x, labels: list[str], width: float) -> float:
    """Sets the x tick labels, wrapped to the room each has, turned 30° where wrapping is not
    enough; gives the bottom margin (a fraction of the figure) they need."""
    labels = [str(label) for label in labels]
    room = max(6, int(width * 0.8 * 72 / (0.6 * 11) / max(1, len(labels))) - 1)
    wrapped = [textwrap.fill(label, room, break_long_words=False) for label in labels]
    lines = max((w.count("\n") + 1 for w in wrapped), default=1)
    widest = max((len(part) for w in wrapped for part in w.split("\n")), default=1)
    if lines <= 3 and widest <= room + 2:
        ax.set_xticks(x, wrapped)
        return 0.17 + 0.04 * lines
    ax.set_xticks(x, labels, rotation=30, ha="right", rotation_mode="anchor")
    return min(0.5, 0.2 + 0.011 * max(len(label) for label in labels))


def rate_bars(path: Path, labels: list[str], rate, low, high, *, title: str, xlabel: str,
              ylabel: str, caption: str, target: float | None = None) -> Path:
    """Gives a bar chart of rates with 95% interval whiskers (rates in 0..1), and the target
    balanced means as a dashed line."""
    width = max(8.0, 0.8 * len(labels) + 4.0)
    fig, ax = _figure(width)
    x = np.arange(len(labels))
    rate, low, high = (np.asarray(a, float) for a in (rate, low, high))
    ax.bar(x, rate, color=OKABE_ITO[0], width=0.6)
    ax.errorbar(x, rate, yerr=_whiskers(rate, low, high), fmt="none", ecolor="black", capsize=5,
                label="95% Wilson interval")
    for xi, r, h in zip(x, rate, high):
        ax.annotate(f"{100 * r:.1f}%", (xi, h if np.isfinite(h) else r), xytext=(0, 4),
                    textcoords="offset points", ha="center", fontsize=10)
    _target_line(ax, target)
    bottom = _xticks(ax, x, labels, width * LEGEND_RIGHT)
    ax.set_ylim(0, min(1.0, max(1e-3, float(np.nanmax(high, initial=0.0))) * 1.15))
    _percent_axis(ax)
    _legend_outside(ax)
    return _finish(fig, ax, path, title, xlabel, ylabel,
                   caption + _interval_note(rate, low, high), bottom=bottom, right=LEGEND_RIGHT)


def faceted_bars(path: Path, facets: dict[str, tuple], *, title: str, xlabel: str,
                 ylabel: str, caption: str, columns: int = 4) -> Path:
    """Gives bar charts of rates with 95% interval whiskers, one small chart (facet) per key
    of `facets`, wrapped into rows of at most `columns`, on one shared rate scale.

    `facets` maps a facet's title to (labels, rate, low, high)."""
    count = max(1, len(facets))
    cols = min(columns, count)
    rows = -(-count // cols)
    widest = max((len(f[0]) for f in facets.values()), default=1)
    fig, axes = plt.subplots(rows, cols, figsize=(max(3.2, 0.55 * widest + 1.2) * cols,
                                                  3.2 * rows + 0.6),
                             dpi=100, sharey=True, squeeze=False, layout="constrained")
    top = max((float(np.nanmax(np.asarray(f[3], float), initial=0.0)) for f in facets.values()),
              default=0.0)
    every = []
    for ax, (name, (labels, rate, low, high)) in zip(axes.flat, facets.items()):
        rate, low, high = (np.asarray(a, float) for a in (rate, low, high))
        every.append((rate, low, high))
        x = np.arange(len(labels))
        ax.bar(x, rate, color=OKABE_ITO[0], width=0.6)
        ax.errorbar(x, rate, yerr=_whiskers(rate, low, high), fmt="none", ecolor="black",
                    capsize=4)
        for xi, r, h in zip(x, rate, high):
            ax.annotate(f"{100 * r:.0f}%", (xi, h if np.isfinite(h) else r), xytext=(0, 3),
                        textcoords="offset points", ha="center", fontsize=9)
        ax.set_xticks(x, [str(label) for label in labels])
        ax.set_title(name, fontsize=12)
        ax.grid(True, axis="y", alpha=0.3)
        ax.set_axisbelow(True)
        ax.set_ylim(0, min(1.0, max(1e-3, top) * 1.18))
        _percent_axis(ax)
    for ax in list(axes.flat)[len(facets):]:
        ax.set_visible(False)
    fig.suptitle(title, fontweight="bold", fontsize=15)
    fig.supxlabel(xlabel, fontsize=12)
    fig.supylabel(ylabel, fontsize=12)
    note = _interval_note(*(np.concatenate([e[k] for e in every]) for k in range(3))
                          ) if every else ""
    fig.text(0.0, 0.0, textwrap.fill(caption + note,
                                     int(14 * fig.get_figwidth())),
             fontsize=CAPTION_SIZE, color="#444444", ha="left", va="top")
    return save(fig, path, tight=True)


def rate_lines(path: Path, series: dict[str, tuple], *, title: str, xlabel: str, ylabel: str,
               caption: str, band: bool = True, target: tuple | float | None = None,
               targets: dict[str, tuple | float] | None = None) -> Path:
    """Gives one line per series of rates over x with its 95% interval as a band (or whiskers),
    and the target balanced means as a dashed line.

    `series` maps a label to (x, rate, low, high); `target` is a rate, or (x, rates) when it
    changes along x (a fair share 1/players), shared by every series; `targets` maps a series'
    label to its own target instead (rates of different kinds on one chart), each drawn
    dashed in the series' colour.
    """
    fig, ax = _figure()
    _target_line(ax, target)
    for i, (label, (x, rate, low, high)) in enumerate(series.items()):
        colour = OKABE_ITO[i % len(OKABE_ITO)]
        if targets and label in targets:
            _target_line(ax, targets[label], colour=colour, label=f"target: {label}")
        x, rate, low, high = (np.asarray(a, float) for a in (x, rate, low, high))
        if not band:  # dodge the whiskers of neighbouring series so each stays readable
            x = x + 0.07 * (i - (len(series) - 1) / 2)
        ax.plot(x, rate, marker="o", color=colour, label=label)
        if band:
            ax.fill_between(x, low, high, color=colour, alpha=0.25, linewidth=0)
            # a band thinner than the line is still seen as its ends' ticks
            ax.errorbar(x, rate, yerr=_whiskers(rate, low, high), fmt="none", ecolor=colour,
                        capsize=4, linewidth=1)
        else:
            ax.errorbar(x, rate, yerr=_whiskers(rate, low, high), fmt="none", ecolor=colour,
                        capsize=4)
    xs = sorted({float(v) for _, (x, *_r) in series.items() for v in np.asarray(x, float)})
    if xs and all(v == int(v) for v in xs):
        ax.set_xticks(xs, [str(int(v)) for v in xs])
    _percent_axis(ax)
    _legend_outside(ax, title="shaded and bars: 95% interval" if band else "bars: 95% interval")
    note = _interval_note(*(np.concatenate([np.asarray(v[k], float) for v in series.values()])
                            for k in (1, 2, 3))) if series else ""
    return _finish(fig, ax, path, title, xlabel, ylabel, caption + note, right=LEGEND_RIGHT)


def category_lines(path: Path, categories: list[str], series: dict[str, tuple],
                   targets: dict[str, float], *, title: str, xlabel: str, ylabel: str,
                   caption: str) -> Path:
    """Gives one line per series of rates over ordered categories (x = a category's index),
    95% interval whiskers, and each series' target as a dashed line of its colour (one grey
    line with the ±TOLERANCE band the verdicts read around it, when every target is the same).

    `series` maps a label to (x, rate, low, high); `targets` a label to its target rate.
    """
    from reports.verdicts import TOLERANCE

    fig, ax = _figure(max(6.5, 1.4 * len(categories) + 3.5))
    shared = len(set(targets.values())) == 1
    # dodged so that whiskers stay readable, within a fifth of a category however many series:
    # wider, eight player counts slant their lines apart and read as a trend of their own
    dodge = min(0.05, 0.2 / max(1, len(series) - 1))
    for i, (label, (x, rate, low, high)) in enumerate(series.items()):
        colour = OKABE_ITO[i % len(OKABE_ITO)]
        x, rate, low, high = (np.asarray(a, float) for a in (x, rate, low, high))
        x = x + dodge * (i - (len(series) - 1) / 2)
        ax.plot(x, rate, marker="o", color=colour, label=label)
        ax.errorbar(x, rate, yerr=_whiskers(rate, low, high), fmt="none", ecolor=colour, capsize=3)
        if not shared and label in targets:
            ax.axhline(targets[label], color=colour, linestyle="--", linewidth=1, alpha=0.7)
    if shared and targets:
        value = next(iter(targets.values()))
        ax.axhline(value, color="#444444", linestyle="--", linewidth=1.2,
                   label=f"target {100 * value:.0f}%")
        ax.axhspan(value - TOLERANCE, value + TOLERANCE, color=OKABE_ITO[2], alpha=0.15,
                   zorder=0, label=f"balanced: ±{100 * TOLERANCE:g} points")
    # a long rung name (roles and preset) wraps at its spaces rather than running into the next
    ax.set_xticks(range(len(categories)),
                  [textwrap.fill(c, TICK_WIDTH, break_long_words=False) for c in categories])
    ax.set_xlim(-0.4, len(categories) - 0.6)
    ax.set_ylim(-0.02, 1.02)  # the whole scale: a rung's jump reads as large as it is
    _percent_axis(ax)
    # outside the axes: ten player counts would cover the lines
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8,
              title="bars: 95% interval" + ("" if shared else "\ndashed: targets"),
              title_fontsize=8)
    return _finish(fig, ax, path, title, xlabel, ylabel, caption, right=0.78)


def grouped_bars(path: Path, groups: list[str], series: dict[str, tuple], *, title: str,
                 xlabel: str, ylabel: str, caption: str, percent: bool = False) -> Path:
    """Gives bars per group and series with 95% interval whiskers.

    `series` maps a label to (value, low, high) arrays aligned with `groups` (nan = absent).
    """
    width = max(8.0, 0.5 * len(groups) * max(1, len(series)) + 4)
    fig, ax = _figure(width)
    bar = 0.8 / max(1, len(series))
    x = np.arange(len(groups))
    for i, (label, (value, low, high)) in enumerate(series.items()):
        value, low, high = (np.asarray(a, float) for a in (value, low, high))
        xi = x - 0.4 + bar * (i + 0.5)
        ax.bar(xi, value, width=bar, color=OKABE_ITO[i % len(OKABE_ITO)], label=label)
        ax.errorbar(xi, value, yerr=_whiskers(value, low, high), fmt="none", ecolor="black",
                    capsize=3)
    bottom = _xticks(ax, x, groups, width * LEGEND_RIGHT)
    if percent:
        _percent_axis(ax)
    _legend_outside(ax, title="whiskers: 95% interval")
    note = ""
    if series and percent:
        note = _interval_note(*(np.concatenate([np.asarray(v[k], float) for v in series.values()])
                                for k in (0, 1, 2)))
    return _finish(fig, ax, path, title, xlabel, ylabel, caption + note, bottom=bottom,
                   right=LEGEND_RIGHT)


def heatmap(path: Path, values, rows: list[str], cols: list[str], *, title: str, xlabel: str,
            ylabel: str, caption: str, cell_text=None, colour_label: str = "rate",
            percent: bool = True, vmin: float | None = None, vmax: float | None = None,
            centre: float | None = None) -> Path:
    """Gives a heatmap with each cell's number written in it (a cell without one: hatched,
    with its `cell_text`, else "no data").

    With a `centre` (the target: 50% head-to-head, a fair share), the colours diverge from it,
    blue above and red below, on a scale as wide as the farthest cell from it (at least 2
    points), so that 48% and 52% read as different colours; else cividis from vmin to vmax."""
    v = np.asarray(values, float)
    width = max(8.0, 1.3 * len(cols) + 4)
    fig, ax = _figure(width, max(5.0, 0.75 * len(rows) + 2.5))
    ax.grid(False)
    masked = np.ma.masked_invalid(v)
    if centre is not None:
        span = max(0.02, float(np.nanmax(np.abs(v - centre), initial=0.0)))
        cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#eeeeee")
        norm = matplotlib.colors.TwoSlopeNorm(centre, centre - span, centre + span)
        image = ax.imshow(masked, cmap=cmap, norm=norm, aspect="auto")
    else:
        cmap = matplotlib.colormaps["cividis"].with_extremes(bad="#eeeeee")
        image = ax.imshow(masked, cmap=cmap, aspect="auto",
                          vmin=np.nanmin(v) if vmin is None else vmin,
                          vmax=np.nanmax(v) if vmax is None else vmax)
    bar = fig.colorbar(image, ax=ax, fraction=0.05, pad=0.03)
    bar.set_label(textwrap.fill(colour_label, 22))
    if percent:
        bar.ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(xmax=1, decimals=None))
    norm = image.norm
    for i in range(v.shape[0]):
        for j in range(v.shape[1]):
            if not np.isfinite(v[i, j]):  # say so: the blank grey is close to the centre's white
                ax.add_patch(matplotlib.patches.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False,
                                                          hatch="//", edgecolor="#bbbbbb", lw=0))
                ax.text(j, i, (cell_text[i][j] if cell_text is not None else "") or "no data",
                        ha="center", va="center", fontsize=10,
                        color="#666666", style="italic")
                continue
            text = cell_text[i][j] if cell_text is not None else (
                f"{100 * v[i, j]:.0f}%" if percent else f"{v[i, j]:.2g}")
            shade = float(norm(v[i, j]))
            # white on the dark ends of the scale, black on its light middle (or cividis' top)
            dark = abs(shade - 0.5) > 0.3 if centre is not None else shade < 0.55
            ax.text(j, i, text, ha="center", va="center", fontsize=11,
                    color="white" if dark else "black")
    bottom = _xticks(ax, range(len(cols)), cols, width * 0.7)
    ax.set_yticks(range(len(rows)), rows)
    left = min(0.4, 0.08 + 0.011 * max((len(r) for r in rows), default=1))
    # room right of the colour bar for its ticks and its label, on two lines at most
    return _finish(fig, ax, path, title, xlabel, ylabel, caption, left=left, bottom=bottom,
                   right=0.97 - 2.2 / width)


def histograms(path: Path, series: dict[str, tuple], *, title: str, xlabel: str, caption: str,
               bins: int = 40) -> Path:
    """Gives overlaid step histograms (share of games per bin) from value counts.

    `series` maps a label to (values, counts): the distinct values and how often each occurred.
    """
    fig, ax = _figure()
    lo = min(float(np.min(v)) for v, _ in series.values() if len(v))
    hi = max(float(np.max(v)) for v, _ in series.values() if len(v))
    edges = np.histogram_bin_edges([lo, hi + 1], bins=min(bins, int(hi - lo) + 1 or 1))
    for i, (label, (values, counts)) in enumerate(series.items()):
        h, _ = np.histogram(np.asarray(values, float), bins=edges,
                            weights=np.asarray(counts, float))
        total = h.sum()
        ax.stairs(h / total if total else h, edges, color=OKABE_ITO[i % len(OKABE_ITO)],
                  label=label, linewidth=1.5)
    _percent_axis(ax)
    _legend_outside(ax)
    return _finish(fig, ax, path, title, xlabel, "share of games (%)", caption,
                   right=LEGEND_RIGHT)


def grid(frame, rows: list, cols: list, row: str, col: str, label) -> tuple[np.ndarray, list[list[str]]]:
    """Gives a heatmap's values (the frame's `rate`, NaN where it has no row) and the text of
    each cell, `label(row)`, laid out rows × cols by the frame's `row` and `col` columns."""
    values = np.full((len(rows), len(cols)), np.nan)
    text = [["" for _ in cols] for _ in rows]
    for r in frame.iter_rows(named=True):
        i, j = rows.index(r[row]), cols.index(r[col])
        values[i, j] = r["rate"]
        text[i][j] = label(r)
    return values, text


def _target_line(ax, target: tuple | float | None, colour: str = OKABE_ITO[3],
                 label: str | None = None) -> None:
    """Draws the target (a rate, or (x, rates) along x) as a dashed line (vermilion unless a
    series' own colour is given)."""
    if target is None:
        return
    if isinstance(target, tuple):
        x, y = (np.asarray(a, float) for a in target)
        if len(y) and np.ptp(y) == 0:  # the same everywhere (or one x): across the chart
            target = float(y[0])
    if isinstance(target, tuple):
        ax.plot(x, y, color=colour, linestyle="--", linewidth=1.2,
                label=label or "target (balanced)", zorder=1)
    else:
        ax.axhline(float(target), color=colour, linestyle="--", linewidth=1.2,
                   label=f"{label or 'target'} {100 * float(target):.3g}%", zorder=1)


def forest(path: Path, labels: list[str], estimate, low, high, *, title: str, xlabel: str,
           caption: str, unpaired: tuple | None = None, target: float | None = None) -> Path:
    """Gives a forest plot: one row per label (top down), its difference (rates, drawn in
    percentage points) with its 95% interval as whiskers, a zero line, and under each the
    unpaired interval, thin and grey, when `unpaired` = (low, high) is given. A row without an
    interval (nan), such as the baseline itself, is drawn as a diamond on the zero line.
    `target`: the difference that would put a row on its target (the target less the
    baseline's rate), drawn dashed with the ±TOLERANCE band around it."""
    k = len(labels)
    fig, ax = _figure(8.0, max(2.8, 0.45 * k + 1.9))
    ax.grid(True, axis="x", alpha=0.3)
    ax.grid(False, axis="y")
    y = np.arange(k)[::-1].astype(float)  # the first row on top
    estimate, low, high = (100 * np.asarray(a, float) for a in (estimate, low, high))
    reference = np.isnan(low)
    ax.axvline(0, color="#444444", linewidth=1, zorder=1)
    ends = [low, high, [0.0]]
    if target is not None:
        from reports.verdicts import TOLERANCE

        centre = 100 * target
        ax.axvspan(centre - 100 * TOLERANCE, centre + 100 * TOLERANCE, color=OKABE_ITO[2],
                   alpha=0.12, zorder=0, label=f"on target ±{100 * TOLERANCE:g} points")
        ax.axvline(centre, color=OKABE_ITO[2], linestyle="--", linewidth=1.2, zorder=1)
        ends.append([centre - 100 * TOLERANCE, centre + 100 * TOLERANCE])
    if unpaired is not None:
        u_low, u_high = (100 * np.asarray(a, float) for a in unpaired)
        ax.hlines(y - 0.2, u_low, u_high, color="#999999", linewidth=1.5,
                  label="unpaired interval", zorder=2)
        ends += [u_low, u_high]
    shown = ~reference
    ax.errorbar(estimate[shown], y[shown], xerr=np.array(_whiskers(estimate, low, high))[:, shown],
                fmt="o",
                color=OKABE_ITO[0], ecolor=OKABE_ITO[0], capsize=4, markersize=6,
                label="difference (paired 95% interval)", zorder=3)
    if reference.any():
        ax.scatter(np.zeros(int(reference.sum())), y[reference], marker="D", s=36,
                   color="#444444", label="baseline", zorder=3)
    for yi, e, hi in zip(y[shown], estimate[shown], high[shown]):
        value = round(float(e), 1) + 0.0  # never "-0.0"
        ax.annotate(f"{value:+.1f}" if value else "0.0", (hi if np.isfinite(hi) else e, yi),
                    xytext=(7, 0), textcoords="offset points", va="center", fontsize=8)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.6, k - 0.4)
    ends = np.concatenate([np.asarray(e, float).ravel() for e in ends])
    lo, hi = float(np.nanmin(ends)), float(np.nanmax(ends))
    pad = max(hi - lo, 0.5) * 0.08
    ax.set_xlim(lo - pad, hi + 2.5 * pad)  # room on the right for the values
    handles, names = ax.get_legend_handles_labels()
    first = names.index("difference (paired 95% interval)")
    order = [first] + [i for i in range(len(names)) if i != first]
    ax.set_title(textwrap.fill(title, 60), fontweight="bold")
    ax.set_xlabel(xlabel)
    # below the x label: the legend, then the caption; the image is cut to hold them all
    ax.legend([handles[i] for i in order], [names[i] for i in order], loc="upper center",
              bbox_to_anchor=(0.5, 0.0), bbox_transform=_below(ax, 40), ncol=len(order),
              fontsize=9, frameon=False)
    ax.annotate(textwrap.fill(caption, 100), (0.0, 0.0), xycoords="axes fraction",
                xytext=(0, -64), textcoords="offset points", va="top", ha="left",
                fontsize=CAPTION_SIZE - 1, color="#444444", annotation_clip=False)
    return save(fig, path, tight=True)
