"""The response chart of `simulate balance`: the headline rate against each varied rule value,
one line per player count, with 95% whiskers, the target and the values chosen."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
from matplotlib.lines import Line2D

from reports.charts import OKABE_ITO, _percent_axis, _whiskers, plt

_STYLES = ("-", "--", ":", "-.")
_LEFT, _PLOT, _LEGEND = 0.9, 4.4, 2.2  # inches: the y labels' margin, a plot, its legend
# Okabe-Ito without its yellow, which a thin line on white hides, and with a grey instead.
_COLOURS = [c for c in OKABE_ITO if c != "#F0E442"] + ["#999999"]


def response_chart(path: Path, result, headline: str) -> Path:
    """Gives a PNG of the rate against the varied rules, with 95% whiskers on the search seeds,
    the target, a ring on the setting chosen and a diamond for it on fresh seeds: a player count
    that plays two varied keys gets a panel of its own with the full grid (the first key along
    the axis, one line per value of the second); the others share one panel per key template,
    a line per player count (where other keys vary too, the best setting found with each
    value)."""
    grids = [(n, keys) for p, _, _ in result.evaluations for n in p.counts
             if len(keys := _keys_at(p, n)) == 2]
    gridded = {n for n, _ in grids}
    templates = sorted({t for p, _, _ in result.evaluations for n in p.counts
                        if n not in gridded for k, t in p.templates.items() if k in _keys_at(p, n)})
    counts = [n for p, _, _ in result.evaluations for n in p.counts if n not in gridded]
    panels = len(templates) + len(grids)
    width = (_LEFT + _PLOT + _LEGEND) * panels
    fig, axes = plt.subplots(1, panels, figsize=(width, 5.4), dpi=110, squeeze=False)
    targets = {a.players: a.target for a in result.answers}
    for ax, (n, keys) in zip(axes[0][:len(grids)], grids):
        _grid(ax, result, n, keys)
    for ax, template in zip(axes[0][len(grids):], templates):
        offsets = np.linspace(-0.15, 0.15, len(counts)) if len(counts) > 1 else [0.0]
        for i, n in enumerate(counts):
            points = _profile(result, template, n)
            style = _STYLES[i // len(_COLOURS) % len(_STYLES)]
            _series(ax, result, n, points, offsets[i], _COLOURS[i % len(_COLOURS)], style,
                    f"{n}p")
        xs = sorted({v for n in counts for v, *_ in _profile(result, template, n)})
        ax.set_xticks(xs, [f"{v:g}" for v in xs])
        ax.set_xlabel(template.replace("{n}", "N") + ("  (N: the player count)"
                                                      if "{n}" in template else ""))
        if counts:
            _legend(ax, "players")
    for ax in axes[0]:
        ax.grid(True, axis="y", alpha=0.3)
        ax.set_axisbelow(True)
        for value in sorted(set(targets.values())):
            ax.axhline(value, color="#444444", linestyle="--", linewidth=1)
        ax.set_ylim(-0.02, 1.02)
        _percent_axis(ax)
        ax.set_ylabel(headline)
    games = sum(m.games for _, found, _ in result.evaluations for by_count in found.values()
                for m in by_count.values())
    several = any(len(_keys_at(p, n)) > 2 for p, _, _ in result.evaluations for n in p.counts)
    several = several or any(len(_keys_at(p, n)) == 2 and n not in gridded
                             for p, _, _ in result.evaluations for n in p.counts)
    skipped = any(p.skipped for p, _, _ in result.evaluations)
    caption = "\n".join(textwrap.wrap(
        f"Played by {result.bots.label}. Search: {games:,} games in all; each point is a "
        "setting's rate on the search seeds"
        f"{' (where other keys vary too, the best setting found with that value)' if several else ''}"
        f"{'; a setting the game cannot play has no point' if skipped else ''}"
        "; the ring marks the setting chosen, the diamond it played again on seeds the search "
        "never used; dashed: the target. Whiskers: 95% intervals (games as clusters).",
        int(width * 13)))
    fig.suptitle(f"{headline[0].upper()}{headline[1:]} against the varied rules",
                 fontsize=12, fontweight="bold")
    fig.text(0.01, 0.01, caption, fontsize=8, color="#444444", ha="left", va="bottom")
    # fixed margins, each panel's legend to its right
    fig.subplots_adjust(left=_LEFT / width, right=1 - _LEGEND / width, top=0.9, bottom=0.2,
                        wspace=(_LEGEND + _LEFT) / _PLOT)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    plt.close(fig)
    return path


def _keys_at(problem, players: int) -> list[str]:
    """Gives the varied keys a player count plays, sorted."""
    return sorted(k for k in problem.values if problem.owners[k] in (None, players))


def _grid(ax, result, players: int, keys: list[str]) -> None:
    """Draws every setting of a player count's two keys: the one of more values along the axis,
    a line per value of the other, shaded in its order."""
    problem, found, best = next(e for e in result.evaluations if players in e[0].counts)
    across, lines = sorted(keys, key=lambda k: -len(problem.values[k]))
    shades = plt.get_cmap("viridis")(np.linspace(0.0, 0.85, len(problem.values[lines])))
    offsets = np.linspace(-0.12, 0.12, len(shades)) if len(shades) > 1 else [0.0]
    for i, value in enumerate(problem.values[lines]):
        points = []
        for candidate, by_count in found.items():
            setting = dict(candidate)
            if setting[lines] == value and isinstance(setting[across], int | float):
                low, high = by_count[players].interval()
                points.append((setting[across], by_count[players].rate, low, high,
                               candidate == best))
        _series(ax, result, players, sorted(points), offsets[i], shades[i],
                _STYLES[i % len(_STYLES)], f"{_value_text(value)}")
    xs = sorted({v for v in problem.values[across] if isinstance(v, int | float)})
    ax.set_xticks(xs, [f"{v:g}" for v in xs])
    ax.set_xlabel(across)
    ax.set_title(f"{players}p: every setting of the two keys", fontsize=10)
    _legend(ax, lines)


def _series(ax, result, players: int, points: list[tuple], offset: float, colour, style: str,
            label: str) -> None:
    """Draws one line of (value, rate, low, high, chosen) points with their whiskers, a ring on
    the chosen one and, beside it, the chosen setting's rate on fresh seeds."""
    if not points:
        return
    x = np.array([v for v, *_ in points], float) + offset
    rate, low, high = (np.array(col, float) for col in list(zip(*points))[1:4])
    ax.plot(x, rate, marker="o", markersize=4, color=colour, linestyle=style, label=label)
    ax.errorbar(x, rate, yerr=_whiskers(rate, low, high), fmt="none", ecolor=colour, capsize=2,
                linewidth=1)
    chosen = [j for j, point in enumerate(points) if point[4]]
    if not chosen:
        return
    ax.scatter(x[chosen], rate[chosen], s=110, facecolors="none", edgecolors=colour,
               linewidths=1.8, zorder=3)
    fresh = next(a.fresh for a in result.answers if a.players == players)
    f_low, f_high = fresh.interval()
    ax.errorbar(x[chosen] + 0.06, [fresh.rate] * len(chosen),
                yerr=_whiskers([fresh.rate] * len(chosen), f_low, f_high), fmt="D", markersize=5,
                color=colour, markeredgecolor="black", capsize=2, linewidth=1, zorder=4)


def _legend(ax, title: str) -> None:
    """Puts a panel's legend to its right, with the marks every panel shares."""
    handles, labels = ax.get_legend_handles_labels()
    handles += [Line2D([], [], color="#444444", linestyle="--", linewidth=1),
                Line2D([], [], marker="o", markersize=9, linestyle="", markerfacecolor="none",
                       markeredgecolor="#444444"),
                Line2D([], [], marker="D", markersize=5, linestyle="", color="#888888",
                       markeredgecolor="black")]
    labels += ["target", "chosen", "chosen, fresh seeds"]
    ax.legend(handles, labels, loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8,
              title=title, title_fontsize=8)


def _value_text(value) -> str:
    from sim.game import _rule_text

    return _rule_text(value)


def _profile(result, template: str, players: int) -> list[tuple]:
    """Gives (value, rate, low, high, chosen) per value of the template's key at a player count:
    the evaluation nearest the target among those with that value."""
    for problem, found, best in result.evaluations:
        if players not in problem.counts:
            continue
        keys = [k for k, t in problem.templates.items() if t == template
                and problem.owners[k] in (None, players)]
        if not keys:
            return []
        key = keys[0]
        target = next(a.target for a in result.answers if a.players == players)
        by_value: dict = {}
        for candidate, by_count in found.items():
            value = dict(candidate)[key]
            m = by_count[players]
            if value not in by_value or abs(m.rate - target) < abs(by_value[value][0] - target):
                low, high = m.interval()
                by_value[value] = (m.rate, low, high, dict(best)[key] == value)
        return [(v, *by_value[v]) for v in sorted(by_value) if isinstance(v, (int, float))]
    return []
