"""The response chart of `simulate balance`: the headline rate against each varied rule value,
one line per player count, with 95% whiskers, the target and the values chosen."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
from matplotlib.lines import Line2D

from reports.charts import OKABE_ITO, _percent_axis, _whiskers, plt

_STYLES = ("-", "--", ":", "-.")
# Okabe-Ito without its yellow, which a thin line on white hides, and with a grey instead.
_COLOURS = [c for c in OKABE_ITO if c != "#F0E442"] + ["#999999"]


def response_chart(path: Path, result, headline: str) -> Path:
    """Gives a PNG with one panel per varied key template: for each player count, the rate
    measured at each value (where other keys vary too, the best setting found with that value),
    its 95% interval on the search seeds, the target, and a ring on the value chosen."""
    templates = sorted({t for p, _, _ in result.evaluations for t in p.templates.values()})
    counts = [n for p, _, _ in result.evaluations for n in p.counts]
    fig, axes = plt.subplots(1, len(templates), figsize=(4.6 + 4.4 * len(templates), 5.4),
                             dpi=110, squeeze=False)
    targets = {a.players: a.target for a in result.answers}
    for ax, template in zip(axes[0], templates):
        ax.grid(True, axis="y", alpha=0.3)
        ax.set_axisbelow(True)
        offsets = np.linspace(-0.15, 0.15, len(counts)) if len(counts) > 1 else [0.0]
        for i, n in enumerate(counts):
            points = _profile(result, template, n)
            if not points:
                continue
            colour = _COLOURS[i % len(_COLOURS)]
            x = np.array([v for v, *_ in points], float) + offsets[i]
            rate, low, high = (np.array(col, float) for col in list(zip(*points))[1:4])
            ax.plot(x, rate, marker="o", markersize=4, color=colour,
                    linestyle=_STYLES[i // len(_COLOURS) % len(_STYLES)], label=f"{n}p")
            ax.errorbar(x, rate, yerr=_whiskers(rate, low, high), fmt="none", ecolor=colour,
                        capsize=2, linewidth=1)
            chosen = [j for j, point in enumerate(points) if point[4]]
            ax.scatter(x[chosen], rate[chosen], s=110, facecolors="none", edgecolors=colour,
                       linewidths=1.8, zorder=3)
            fresh = next(a.fresh for a in result.answers if a.players == n)
            f_low, f_high = fresh.interval()
            # the answer as measured again on fresh seeds, beside the search's point
            ax.errorbar(x[chosen] + 0.06, [fresh.rate] * len(chosen),
                        yerr=_whiskers([fresh.rate] * len(chosen), f_low, f_high), fmt="D",
                        markersize=5, color=colour, markeredgecolor="black", capsize=2,
                        linewidth=1, zorder=4)
        for value in sorted(set(targets.values())):
            ax.axhline(value, color="#444444", linestyle="--", linewidth=1)
        xs = sorted({v for n in counts for v, *_ in _profile(result, template, n)})
        ax.set_xticks(xs, [f"{v:g}" for v in xs])
        ax.set_ylim(-0.02, 1.02)
        _percent_axis(ax)
        ax.set_xlabel(template.replace("{n}", "N") + ("  (N: the player count)"
                                                      if "{n}" in template else ""))
        ax.set_ylabel(headline)
    handles, labels = axes[0][-1].get_legend_handles_labels()
    handles += [Line2D([], [], color="#444444", linestyle="--", linewidth=1),
                Line2D([], [], marker="o", markersize=9, linestyle="", markerfacecolor="none",
                       markeredgecolor="#444444"),
                Line2D([], [], marker="D", markersize=5, linestyle="", color="#888888",
                       markeredgecolor="black")]
    labels += ["target", "value chosen", "chosen, fresh seeds"]
    axes[0][-1].legend(handles, labels, loc="center left", bbox_to_anchor=(1.01, 0.5),
                       fontsize=8, title="players", title_fontsize=8)
    games = sum(m.games for _, found, _ in result.evaluations for by_count in found.values()
                for m in by_count.values())
    several = any(len(p.values) > 1 for p, _, _ in result.evaluations)
    caption = "\n".join(textwrap.wrap(
        f"Search: {games:,} games in all; each point is a setting's rate on the search seeds"
        f"{' (where other keys vary too, the best setting found with that value)' if several else ''}"
        "; the diamond is the chosen setting played again on seeds the search never used. "
        "Whiskers: 95% intervals (games as clusters).", 150))
    fig.suptitle(f"{headline[0].upper()}{headline[1:]} against the varied rules",
                 fontsize=12, fontweight="bold")
    fig.text(0.01, 0.01, caption, fontsize=8, color="#444444", ha="left", va="bottom")
    # fixed margins, the legend to the right of the last panel
    fig.subplots_adjust(left=0.09, right=0.8, top=0.9, bottom=0.2, wspace=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    plt.close(fig)
    return path


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
