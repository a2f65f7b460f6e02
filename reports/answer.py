"""The report's Answer: three to six plain sentences generated from the figures, beside one
hero chart, before every other section.

Each sentence comes from a function over a small frame (the verdicts by player count, the
What-if's comparisons, the ladder's stability, the game's driver), so that each can be tested
against the figures it states.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl

from reports import plays
from reports.render import ANSWER
from reports.stats import ALPHA, Z95, holm, two_sided_p, wilson_arrays
from reports.sections import ReportContext, Section, headline_by_players
from reports.verdicts import (TOLERANCE, UNDECIDED, WITHIN, Driver, band, driver_of,
                              games_to_settle)

# the charts that can lead the report, the first found: a ladder's headline by rung and
# variant against the target (does the answer hold with skill?), a sweep's response against
# the target band, a What-if's forest with the target marked, the headline by player count
# against the target
HEROES = ("balance_by_rung", "whatif_response", "whatif_forest", "headline_by_players")
SHARE = 0.05  # a level of the driver rarer than this is left out of its sentence
SETTINGS = 2  # the What-if settings (player counts, options, bots) the Answer names
SENTENCES: list = []  # sentences other modules add at the end (`answer_sentence`)


def answer_sentence(fn):
    """Registers fn, (ReportContext) -> str ("" when it has nothing to say), as the Answer's
    last sentence (reports.profile's)."""
    SENTENCES.append(fn)
    return fn


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _interval(low: float, high: float) -> str:
    return f"[{100 * low:.1f}, {100 * high:.1f}]"


def _rate(row: dict) -> str:
    """Gives a rate with its interval: "46.5% [45.2, 47.8]"."""
    return f"{_pct(row['rate'])} {_interval(row['low'], row['high'])}"


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _kind(verdict: str) -> str:
    """Gives what a verdict says, without its figures: "favours miners", "balanced",
    "not distinguishable", "no interval"."""
    found = re.match(r"favours (.+?) by ", verdict)
    if found:
        return f"favours {found[1]}"
    return verdict.split(" ", 1)[0] if verdict.startswith("balanced") else (
        "not distinguishable" if verdict.startswith("not distinguishable") else verdict)


def verdict_sentence(frame: pl.DataFrame, headline: str, lead: str = "") -> str:
    """Gives one sentence of the verdicts by player count against the target, player counts
    with the same verdict together, in the order of their first player count.

    `frame`: players, rate, low, high, target, vs target, verdict (one row per player count);
    `lead`: what the rows are, when the report holds several variants ("with default
    rules", "at the top rung, search")."""
    goals = set(frame["target"].round(6).to_list())
    if len(goals) == 1:
        goal = f"a target of {100 * goals.pop():g}%"
    else:
        goal = "its target (a fair share, 1 / players)"
    groups: dict[str, list[dict]] = {}
    for row in frame.sort("players").iter_rows(named=True):
        groups.setdefault(_kind(row["verdict"]), []).append(row)
    parts = []
    for kind, rows in groups.items():
        at = f"at {_and([str(r['players']) for r in rows])} players"
        if kind.startswith("favours"):
            if len(rows) == 1:
                parts.append(f"{at} it {rows[0]['verdict']}")
            else:  # "by 23.7 points at 3 players, 42.5 at 4 and 2.5 at 10"
                gaps = [f"{abs(100 * r['vs target']):.1f} at {r['players']}" for r in rows]
                gaps[0] = gaps[0].replace(" at ", " points at ") + " players"
                parts.append(f"it {kind} by {_and(gaps)}")
        elif kind == "balanced":
            rates = "; ".join(_rate(r) for r in rows)
            parts.append(f"{at} it is balanced within ±{100 * TOLERANCE:g} points ({rates})")
        elif kind == "not distinguishable":
            rates = "; ".join(_settling(r) for r in rows)
            parts.append(f"{at} these games cannot tell it from balanced ({rates})")
        else:
            parts.append(f"{at} there is no interval (no trials)")
    lead = f", {lead}" if lead else ""
    return (f"Against {goal} for the {headline}{lead}: " + "; ".join(parts) + ".")


def closest_count_sentence(frame: pl.DataFrame) -> str:
    """Gives which of several player counts come closest to the target ("" for one): the set
    that Holm-adjusted tests cannot tell from the closest (`closest_counts`), with intervals
    joint over the counts; `frame`: players, rate, low, high, vs target, eff_n."""
    if frame.height < 2:
        return ""
    kept = frame.filter(pl.Series(closest_counts(frame))).sort("players")
    joint = wilson_arrays(kept["rate"] * kept["eff_n"], kept["eff_n"], ALPHA / frame.height)
    rates = [f"{_pct(r['rate'])} {_interval(lo, hi)}"
             for r, lo, hi in zip(kept.iter_rows(named=True), *joint)]
    named = [f"{r['players']} ({rate})" for r, rate in zip(kept.iter_rows(named=True), rates)]
    intervals = f"95% intervals joint over the {frame.height} counts played"
    if kept.height == 1:
        return (f"Of the player counts played, {kept['players'][0]} comes closest to the "
                f"target, closer than every other (Holm-adjusted tests): {rates[0]} "
                f"({intervals}).")
    return (f"Of the player counts played, {_and(named)} come closest to the target: these "
            f"games cannot tell them apart in closeness (Holm-adjusted tests; {intervals}).")


def closest_counts(frame: pl.DataFrame) -> list[bool]:
    """Gives, per row of a frame of independent rows (player counts: rate, low, high, target),
    whether Holm-adjusted tests cannot tell it from the row closest to the target: a row is
    farther when its distance's difference from the closest's and their sum have one sign,
    each a z-test on the rows' standard errors (their 95% intervals' half-widths / 1.96), the
    intersection-union of the two (as reports.whatif.farther_p, for rows sharing no games)."""
    d = (frame["rate"] - frame["target"]).to_numpy()
    se = ((frame["high"] - frame["low"]) / (2 * Z95)).to_numpy()
    best = int(np.argmin(np.abs(d)))
    spread = np.sqrt(se ** 2 + se[best] ** 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        p_diff, p_sum = (two_sided_p(x / spread) for x in (d - d[best], d + d[best]))
    same = np.sign(d - d[best]) == np.sign(d + d[best])
    p = np.where(same, np.maximum(p_diff, p_sum), 1.0)
    p[best] = np.nan
    return [bool(np.isnan(x) or x >= ALPHA) for x in holm(p)]


def changed_keys(ctx: ReportContext) -> dict[str, list[str]]:
    """Gives every rule key a configuration of the report changes from the game's defaults
    (--set, a --config file, a sweep's values, the default value of a sweep included), with
    the values played, in the order first met: what the runs' manifests say was changed."""
    from reports.variants import as_set, rule_changes

    found: dict[str, list[str]] = {}
    for run in ctx.runs:
        for setup in run.setups:
            changes = dict(rule_changes(ctx.game, run.manifest.get("rules") or {}, setup))
            changes.update(setup.rules)
            for key, value in changes.items():
                text = as_set(setup, ((key, value),)).partition("=")[2]
                if text not in found.setdefault(key, []):
                    found[key].append(text)
    return found


def untried_sentence(driver: Driver | None, changed: dict[str, list[str]] | None = None,
                     players: list[int] = ()) -> str:
    """Gives what a report without rule variants changed from the game's defaults (`changed`,
    from the runs' manifests) and did not try: a rule change, such as of the driver's keys."""
    changed = changed or {}
    said = ""
    if changed:
        said = ("The runs play " + _and([f"{k} = {', '.join(v)}" for k, v in changed.items()])
                + " (changed from the game's defaults); no other rule change was tried: ")
    else:
        said = "No rule change was tried: "
    said += "--set KEY=A,B plays a sweep of one, which the report then compares on the same deals"
    if driver is None or not driver.keys:
        return said + "."
    if len(players) == 1:  # the keys at that count, but those the runs changed
        keys = [k for k in driver.keys_at(players[0]) if k not in changed]
        return said + (f"; {_and(keys)} set the number of {driver.name}." if keys else ".")
    return said + (f"; {_and(list(driver.keys))} (N: the player count) set the number of "
                   f"{driver.name}.")


def varied_keys(variants: list[str]) -> list[str]:
    """Gives the rule keys the variants' labels set ("hand_size.7=5 (default)" sets
    hand_size.7), in the order first met."""
    keys = [m[1] for label in variants for m in re.finditer(r"(?:^|\s)([\w.\-]+)=\S", label)]
    return list(dict.fromkeys(k for k in keys if k != "rung"))


def _says(verdict: str) -> str:
    """Gives a verdict as what "it" does: "favours miners by …", "is balanced …", "is not
    distinguishable …", "has no interval"."""
    if verdict.startswith("favours"):
        return verdict
    return "has no interval" if verdict == "no interval" else f"is {verdict}"


def _settling(row: dict) -> str:
    """Gives an undecided row's rate with the games that would settle its band question:
    "50.4% [48.6, 52.2]: about 2,667 games would settle it"."""
    n = games_to_settle(row["games"], row["vs target"], row["vs target low"],
                        row["vs target high"])
    return f"{_rate(row)}: " + (f"about {n:,} games would settle it" if n is not None else
                                "it sits on the band's edge, which no number of games settles")


def _settle(rows: list[dict]) -> str:
    """Gives the undecided variants of a band question with the games that would settle each."""
    return _and([f"{r['variant']} ({_settling(r)})" for r in rows])


def closest_sentence(frame: pl.DataFrame, keys: list[str], bots: bool = False) -> str:
    """Gives, for one setting of a What-if (its rows from reports.whatif.comparisons), which
    variants bring the headline within the tolerance of its target (their intervals inside
    the band), that none does (every interval wholly outside it), or that these games cannot
    tell, with the games that would settle it; and, unless some are within, the set of variants
    indistinguishable from the closest (Holm-adjusted paired tests), with intervals joint over
    the setting's variants (the closest is picked after the fact). With `bots` (several
    settings of the report share a player count: rungs, or bots by role) the player count is
    named with the setting's bots, e.g. "4 players (rung=deduce deduce)"."""
    count = int(frame["players"][0])
    players = f"{count} players ({frame['setting'][0].removeprefix(f'{count}p ')})" if bots \
        else f"{count} players"
    what = f"value of {keys[0]}" if len(keys) == 1 else "rule variant"
    band_of = f"within ±{100 * TOLERANCE:g} points of the target"
    rows = list(frame.iter_rows(named=True))
    states = [band(r["vs target low"], r["vs target high"]) for r in rows]
    within = [r for r, b in zip(rows, states) if b == WITHIN]
    open_ = [r for r, b in zip(rows, states) if b == UNDECIDED]
    if within:
        named = [f"{r['variant']} ({_rate(r)})" for r in within]
        said = f"{_and(named)} {'brings' if len(within) == 1 else 'bring'} {players} " \
               f"{band_of}"
        if open_:
            said += f"; for {_settle(open_)} these games cannot tell"
        return said + "."
    if open_:
        said = (f"These games cannot tell whether a {what} tried brings {players} "
                f"{band_of}: {_settle(open_)}")
    else:
        said = (f"No {what} tried brings {players} {band_of} (every interval lies "
                "wholly outside the band)")
    return said + "; " + _closest_set(frame) + "."


def _closest_set(frame: pl.DataFrame) -> str:
    """Gives the set of a setting's variants indistinguishable from the closest to the target,
    with intervals joint over the setting's variants."""
    k = frame.height
    rows = [r for r in frame.iter_rows(named=True) if r["closest"]]
    joint = f"95% intervals joint over the {k} tried, as the closest is picked after the fact"
    if k == 1:
        return f"it {_says(rows[0]['verdict'])}"
    if len(rows) > 1:
        named = [f"{r['variant']} ({_pct(r['rate'])} {_interval(r['joint low'], r['joint high'])})"
                 for r in rows]
        return (f"the closest to the target are {_and(named)}, which these games cannot tell "
                f"apart in closeness (Holm-adjusted paired tests; {joint})")
    best = rows[0]
    moved = ""
    if best["vs baseline"] is not None and best["variant"] != best["baseline"]:
        moved = (f", {100 * best['vs baseline']:+.1f} points "
                 f"[{100 * best['vs baseline low']:+.1f}, {100 * best['vs baseline high']:+.1f}]"
                 f" against {best['baseline']}")
    return (f"the closest is {best['variant']}, closer than every other tried (Holm-adjusted "
            f"paired tests): {_pct(best['rate'])} "
            f"{_interval(best['joint low'], best['joint high'])} ({joint}){moved}, where it "
            f"{_says(best['verdict'])}")


def _natural(text: str) -> tuple:
    """Gives a sort key that puts "4" before "10" and numbers before words."""
    try:
        return (0, float(text), text)
    except ValueError:
        return (1, 0.0, text)


def tried_sentence(frame: pl.DataFrame, keys: list[str], driver: Driver | None,
                   changed: dict[str, list[str]] | None = None) -> str:
    """Gives what the What-if varied and changed from the game's defaults (its variants'
    labels, and `changed`: the keys the runs' manifests change, a --config file's included),
    and what it did not try: the driver's keys at its player counts that nothing changed."""
    values: dict[str, list[str]] = {}
    for label in frame["variant"].to_list():
        for key, value in re.findall(r"(?:^|\s)([\w.\-]+)=(\S+)", label):
            values.setdefault(key, []).append(value)
    for key, more in (changed or {}).items():
        values.setdefault(key, []).extend(more)
    keys = list(dict.fromkeys([*keys, *(changed or {})]))
    tried = "; ".join(f"{k} = {', '.join(sorted(set(values.get(k, [])), key=_natural))}"
                      for k in keys)
    said = f"Tried: {tried}; every other rule as the game ships it." if tried else ""
    if driver is not None and driver.keys:
        players = sorted(set(frame["players"].to_list()))
        untried = [k for p in players for k in driver.keys_at(p) if k not in keys]
        if untried:
            said += f" Not tried: {_and(untried)}, which set the number of {driver.name}."
    return said.strip()


def driver_sentence(frame: pl.DataFrame, driver: Driver, headline: str,
                    spread: float = 0.2, lead: str = "") -> str:
    """Gives what the game's driver does to the headline at the player count where it matters
    most (its levels' rates furthest apart, levels rarer than SHARE left out), and the rule keys
    that move it; "" when its levels' rates lie within `spread` of each other everywhere.

    `frame`: players, level, n, rate, low, high (one variant's rows); `lead`: which variant
    and rung they are, when the report holds several ("with fix, at the top rung, search")."""
    best, widest = None, spread
    for (players,), part in frame.sort("players", "level").group_by("players",
                                                                    maintain_order=True):
        part = part.with_columns((pl.col("n") / pl.col("n").sum()).alias("share")).filter(
            pl.col("share") >= SHARE)
        if part.height > 1 and part["rate"].max() - part["rate"].min() >= widest:
            best, widest = (players, part), part["rate"].max() - part["rate"].min()
    if best is None:
        return ""
    players, part = best
    levels = [f"{_rate(r)} with {driver.level.format(r['level'])} ({100 * r['share']:.0f}% of "
              f"the {driver.unit})" for r in part.iter_rows(named=True)]
    keys = driver.keys_at(int(players))
    why = driver.why.format(keys=_and(keys)) if driver.why else ""
    lead = f" ({lead})" if lead else ""
    return (f"What decides most {driver.unit}{lead} is the number of {driver.name}: at "
            f"{players} players the {headline} is {_and(levels)}" + (f"; {why}." if why else "."))


def stability_sentence(frame: pl.DataFrame) -> str:
    """Gives one sentence of whether each player count's verdict holds across the top two
    rungs of a ladder (reports.ladder.stable's frame)."""
    pairs = set(zip(frame["lower rung"].to_list(), frame["top rung"].to_list()))
    rungs = f" ({' and '.join(pairs.pop())})" if len(pairs) == 1 else ""
    said = {}
    for r in frame.iter_rows(named=True):
        at = str(r["players"]) + (f" ({r['variant']})" if "variant" in r else "")
        said.setdefault(r["across the top two rungs"], []).append(at)
    words = {"stable": "is stable", "depends on skill": "depends on skill",
             "not settled": "is not settled (more games would tell)"}
    parts = [f"{words[state]} at {_and(counts)} players" for state, counts in said.items()]
    return f"Across the top two rungs{rungs} the verdict " + "; it ".join(parts) + "."


def _reference(ctx: ReportContext) -> tuple[list[str] | None, str]:
    """Gives the variants (kept-apart labels) the verdict sentence reads when the report holds
    several (a ladder's top rung at each player count, of its default rules where it plays
    them; else the first playing the default rules; None for one) and how the sentence names
    them."""
    if not ctx.split:
        return None, ""
    from reports.ladder import levels

    ladder = levels(ctx)
    if ladder:
        variants = {r.variant for r in ladder}
        variant = "default rules" if "default rules" in variants else \
            max(ladder, key=lambda r: r.order).variant
        top: dict[int, object] = {}
        for r in ladder:
            if r.variant == variant and (r.players not in top or r.order > top[r.players].order):
                top[r.players] = r
        configs = [r.configuration for r in top.values()]
        names = {r.rung for r in top.values()}
        from sim.game import RUNGS

        # a rung the ladder does not know is placed by the order the runs were given in,
        # which measures nothing: say so rather than call it the top
        top_rung = ("top rung (measured head to head)" if all(r.measured for r in top.values())
                    else "top rung" if all(r.order < len(RUNGS) for r in top.values()) else
                    "last rung given (the runs' order: no strength measured)")
        lead = f"at the {top_rung}, {names.pop()}" if len(names) == 1 else \
            f"at each player count's {top_rung}"
        if len(variants) > 1 or variant != "default rules":  # name which rules it plays
            lead = f"with {variant}, {lead}"
    else:
        defaults = ctx.configs.filter(pl.col("default"))
        configs = [(defaults if defaults.height else ctx.configs)["configuration"][0]]
        lead = None
    aparts = ctx.configs.filter(pl.col("configuration").is_in(configs))["apart"].unique(
        maintain_order=True).to_list()
    return aparts, lead or f"with {aparts[0]}"


def _hero(sections: list[Section]) -> tuple[Path | None, str]:
    charts = {t.chart.stem: t for s in sections for t in s.tables if t.chart is not None}
    for name in HEROES:
        if name in charts:
            return charts[name].chart, charts[name].chart_caption
    return None, ""


def sentences(ctx: ReportContext, sections: list[Section]) -> list[str]:
    """Gives the Answer's sentences for a report of `ctx` whose other sections are built."""
    head = ctx.game.headline.title
    reference, lead = _reference(ctx)
    frame = headline_by_players(ctx)
    said = []
    if reference is not None:
        frame = frame.filter(pl.col("variant").is_in(reference))
    said.append(verdict_sentence(frame, head, lead))
    titles = {s.title for s in sections}
    driver = driver_of(ctx.game)
    whatif = next((s for s in sections if s.title.startswith("What-if")), None)
    if whatif is None:
        said.append(closest_count_sentence(frame))
        if len(ctx.variants) == 1:
            said.append(untried_sentence(driver, changed_keys(ctx),
                                         sorted(set(frame["players"].to_list()))))
    else:
        from reports.whatif import comparisons

        rows = ctx.once("whatif", lambda: comparisons(ctx))
        keys = varied_keys(rows["variant"].to_list())
        settings = [part for _, part in rows.group_by("setting", maintain_order=True)]
        counts = [int(part["players"][0]) for part in settings]
        for part in settings[:SETTINGS]:
            said.append(closest_sentence(part, keys, bots=len(set(counts)) < len(counts)))
        if len(settings) > SETTINGS:  # six sentences at most: the table has the rest
            more = len(settings) - SETTINGS
            said[-1] = (said[-1][:-1] + f" (the What-if table has the other {more} "
                        f"setting{'s' if more > 1 else ''}).")
        said.append(tried_sentence(rows, keys, driver, changed_keys(ctx)))
    if "Balance across skill levels" in titles:
        from reports import ladder

        stable = ladder.stable(ctx)
        if stable.height:
            said.append(stability_sentence(stable))
    if "Skill and luck" in titles:  # a dominant rung, where the intervals show one
        from reports import skill

        said += skill.dominance(ctx)
    if driver is not None:
        rates = driver.rates(ctx)
        if reference is not None and "variant" in rates.columns:
            rates = rates.filter(pl.col("variant").is_in(reference))
        said.append(driver_sentence(rates, driver, head, lead=lead))
    said += [fn(ctx) for fn in SENTENCES]
    said.append(plays.runaway_sentence(ctx))
    return [s for s in said if s]


def section(ctx: ReportContext, sections: list[Section]) -> Section:
    """Gives the Answer: its sentences and the hero chart."""
    chart, caption = _hero(sections)
    return Section(ANSWER, text="\n".join(sentences(ctx, sections)), figure=chart,
                   figure_caption=caption)
