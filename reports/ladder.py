"""The report section "Balance across skill levels": the headline, seat and role rates per rung
of a skill ladder (`simulate ladder`), a flag wherever the intervals establish that a verdict
changes between rungs, and what the bots at each rung exercise (the seats' `uses_<kind>`
counts).

A report has rungs when, at one player count, several configurations each seat every player
with one and the same strategy (and differ in nothing else): the rung is that strategy, or the
configuration's `rung` option where `simulate ladder` set one. The configurations may come from
several run folders (e.g. a slow search rung played in a run of its own, with the same seed).

A rung is shown by its name where it plays its family at the family's defaults (`random`,
`default`), else with the preset it plays (`search (preset search)`, `tuned (preset
tuned-saboteur-7p)`). A tuned rung whose tuning measured no held-out gain (RUN/tuned/<N>p/
gain.json: no step's 95% interval above 0) is `default` in strength: it is named "tuned =
default" with its gains and is not a level of the ladder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from reports import charts, strength
from reports.sections import (
    INTERVAL_NOTE,
    SEAT_TEST_NOTE,
    VERDICT_NOTE,
    ReportContext,
    Section,
    Table,
    _per_point_caption,
    clustered_totals,
    common_section,
    headline_totals,
    seat_fairness,
    with_verdicts,
    with_wilson,
)
from reports.stats import significance_level, two_sided_p
from reports.verdicts import TOLERANCE
from reports.whatif import difference, per_game
from sim.usage import PREFIX, kinds_of

@dataclass(frozen=True)
class Rung:
    """One configuration of a ladder: its player count, rung, configuration label and the
    strategy its seats play (e.g. the tuned rung's preset)."""

    players: int
    rung: str
    configuration: str
    order: int  # the rung's place on the ladder: by measured strength where the rungs met head
    # to head (reports.strength), else the ladder's named order, then the runs' order
    strategy: str
    variant: str = "default rules"  # the rule variant the ladder plays (--set, --config)
    label: str = ""  # the rung as the report names it (`rung_label`)
    held_out: tuple[dict, ...] | None = None  # a tuned rung's held-out gains, where recorded
    measured: bool = False  # `order` is by measured strength, head to head (reports.strength)

    def equals_default(self) -> bool:
        """Tells whether this is a tuned rung whose tuning measured no gain: every step's
        held-out gain has its 95% interval reaching 0 or below."""
        return self.held_out is not None and all(step["low"] <= 0 for step in self.held_out)


def rung_label(game, rung: str, strategy: str) -> str:
    """Gives a rung's name in the report: the rung alone where it plays the preset of its name
    and that preset is its family at the family's defaults (`random`, `default`), else the rung
    and the preset it plays, e.g. 'search (preset search)': the search family's `search`
    preset, whose budget is not the family's defaults."""
    if strategy != rung:
        return f"{rung} (preset {strategy})"
    family, changed = getattr(getattr(game, "bots", None), "presets", {}).get(strategy, (None, {}))
    return f"{rung} (preset {strategy})" if family == rung and changed else rung


def tuning_gains(run, players: int) -> tuple[dict, ...] | None:
    """Gives the held-out gains a ladder run recorded for its tuned rung at this player count
    (RUN/tuned/<N>p/gain.json: each step's `held_out`, with `tuned`, what was measured), or
    None when it recorded none."""
    from sim.game import TUNINGS

    path = Path(run.path) / TUNINGS / f"{players}p" / "gain.json"
    try:
        steps = json.loads(path.read_text())["steps"]
        return tuple({"tuned": step["tuned"], **{k: float(step["held_out"][k])
                                                 for k in ("gain", "low", "high")}}
                     for step in steps)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def gains_text(steps: tuple[dict, ...]) -> str:
    """Gives a tuned rung's held-out gains in words, e.g. '+0.1 pp [-0.7, +0.8] (saboteurs'
    round-win rate per saboteur seat)'."""
    return ", ".join(f"{100 * s['gain']:+.1f} pp [{100 * s['low']:+.1f}, {100 * s['high']:+.1f}]"
                     + (f" ({s['tuned']})" if len(steps) > 1 else "") for s in steps)


def rungs(ctx: ReportContext) -> list[Rung]:
    """Gives the runs' configurations that are rungs of a ladder (none if there is no ladder):
    uniform-strategy configurations that share their player count and everything else but the
    strategy with at least one other, in any of the report's runs."""
    from sim.game import RUNG, RUNGS

    groups: dict[tuple, list[Rung]] = {}
    labels = {(r, s): c for r, s, c in ctx.configs.select("run", "setup", "configuration").iter_rows()}
    later = len(RUNGS)
    for i, run in enumerate(ctx.runs):
        for sid, setup in enumerate(run.setups):
            later += 1
            # with strategies by role: a rung of a ladder with roles fixed (--role-strategy),
            # or a matrix's cell where every role plays one strategy (--by-role)
            played = {name for _, name in setup.roles} if setup.roles else set(setup.seats)
            if len(played) != 1 and setup.option(RUNG) is None:
                continue
            rest = tuple((k, v) for k, v in setup.options if k != RUNG)
            key = (setup.players, rest, setup.rules, setup.rule_file)
            strategy = setup.strategies()[0] if len(played) != 1 else next(iter(played))
            name = setup.option(RUNG) or strategy.rpartition("/")[2]
            order = RUNGS.index(name) if name in RUNGS else later
            gains = tuning_gains(run, setup.players) if name == "tuned" else None
            groups.setdefault(key, []).append(Rung(
                setup.players, name, labels[(i, sid)], order, strategy, setup.variant(),
                rung_label(ctx.game, name, strategy), gains))
    found = [r for members in groups.values() if len({m.rung for m in members}) > 1
             for r in members]
    if found:  # said by the section: a configuration left out is never dropped silently
        ctx.once("not rungs", lambda: [(r, _why_not(r, found)) for members in groups.values()
                                       if len({m.rung for m in members}) == 1
                                       for r in members])
    variants = list(dict.fromkeys(r.variant for r in found))
    found = ctx.once("rung strength", lambda: strength.placed(ctx, found))
    return sorted(found, key=lambda r: (r.players, variants.index(r.variant), r.order))


def _inside(low: float, high: float) -> bool:
    """Tells whether an interval of a distance to the target lies within the tolerance band."""
    return -TOLERANCE <= low and high <= TOLERANCE


def _beyond(low: float, high: float) -> bool:
    """Tells whether an interval of a distance to the target lies wholly outside the band."""
    return low > TOLERANCE or high < -TOLERANCE


def shift(lower: tuple[float, float], top: tuple[float, float], low: float,
          high: float) -> str:
    """Gives how two rungs' verdicts differ, as their intervals establish it: 'changes sign'
    (one interval wholly above the target, the other wholly below, neither within the band),
    'leaves the band' (one within ±2 points, the other wholly beyond), 'moves by more than ±2
    points' (the interval [low, high] of their difference wholly beyond ±2), else ''.

    `lower`, `top`: each rung's 95% interval of its distance to the target. Each is a claim
    about the true rates that one interval missing its truth at least must make when the two
    rungs are the same bot, so none is made more often than the intervals miss (a verdict's
    category changing, its intervals overlapping, is not evidence: "balanced within ±2" and
    "favours saboteurs by 1.4 [0.1, 2.7]" can both hold of one rate)."""
    if not (_inside(*lower) or _inside(*top)) and (
            (lower[0] > 0 and top[1] < 0) or (lower[1] < 0 and top[0] > 0)):
        return "changes sign"
    if (_inside(*lower) and _beyond(*top)) or (_beyond(*lower) and _inside(*top)):
        return "leaves the band"
    if _beyond(low, high):
        return "moves by more than ±2 points"
    return ""


def across(lower: tuple[float, float], top: tuple[float, float], low: float,
           high: float) -> str:
    """Gives what two rungs say together: 'depends on skill' where their intervals establish a
    change (`shift`); 'stable' where the interval [low, high] of their difference lies within
    ±2 points (the rate moves less than the tolerance between them: an equivalence test);
    else 'not settled' (more games would tell). `lower`, `top`: each rung's 95% interval of its
    distance to the target."""
    if shift(lower, top, low, high):
        return "depends on skill"
    return "stable" if _inside(low, high) else "not settled"


def steps(ctx: ReportContext, head: pl.DataFrame, apart: list[str],
          top_only: bool = False) -> pl.DataFrame:
    """Gives, per player count (and rule variant: `apart`) with two rungs or more, each rung
    against the one below it (the top two only with `top_only`): both verdicts, their
    difference (paired on the deals both played, where their runs share a seed) with its 95%
    interval, the change their intervals establish (`shift`) and what they say together
    (`across`). Columns: players (, variant), lower rung, top rung, verdicts, vs lower rung
    (low, high), paired deals (none when unpaired), change, across the top two rungs."""
    where = {label: (run, setup) for run, setup, label
             in ctx.configs.select("run", "setup", "configuration").iter_rows()}
    games = per_game(ctx)

    def of(row):
        run, setup = where[row["configuration"]]
        return games.filter((pl.col("run") == run) & (pl.col("setup") == setup))

    def seed(row):
        return ctx.runs[where[row["configuration"]][0]].manifest.get("seed")

    rows = []
    for key, part in head.group_by(apart, maintain_order=True):
        # rows in ladder order (_headline): each rung against the one below it
        for i in range(max(part.height - 1 if top_only else 1, 1), part.height):
            lower, top = part.row(i - 1, named=True), part.row(i, named=True)
            intervals = [(r["vs target low"], r["vs target high"]) for r in (lower, top)]
            diff = difference(of(top), of(lower), seed(top) == seed(lower))
            rows.append((*key, lower["rung"], top["rung"], lower["verdict"], top["verdict"],
                         diff.estimate, diff.low, diff.high,
                         diff.games if diff.paired else None,
                         shift(*intervals, diff.low, diff.high),
                         across(*intervals, diff.low, diff.high)))
    return pl.DataFrame(rows, orient="row", schema={
        "players": pl.Int64, **({"variant": pl.Utf8} if len(apart) > 1 else {}),
        "lower rung": pl.Utf8, "top rung": pl.Utf8, "lower rung's verdict": pl.Utf8,
        "top rung's verdict": pl.Utf8, "vs lower rung": pl.Float64,
        "vs lower rung low": pl.Float64, "vs lower rung high": pl.Float64,
        "paired deals": pl.Int64, "change": pl.Utf8, "across the top two rungs": pl.Utf8})


def flags(frame: pl.DataFrame) -> pl.DataFrame:
    """Gives the rows of a `steps` frame whose two rungs' intervals establish a change of
    verdict (`shift`): player count (and variant), the rungs, the flag and both verdicts."""
    flagged = frame.filter(pl.col("change") != "")
    return flagged.select(
        *[c for c in ("players", "variant") if c in frame.columns], "lower rung", "top rung",
        pl.col("change").alias("flag"),
        pl.format("{}: {}; {}: {}", "lower rung", "lower rung's verdict", "top rung",
                  "top rung's verdict").alias("verdict by rung"))


def stability_text(frame: pl.DataFrame) -> str:
    """Gives a sentence per player count saying whether its verdict is stable across the top
    two rungs or depends on skill, with the difference and its interval."""
    said = []
    for r in frame.iter_rows(named=True):
        low_says, top_says = r["lower rung's verdict"], r["top rung's verdict"]
        at = f"At {r['players']} players" + (f" ({r['variant']})" if "variant" in r else "")
        gap = (f"{100 * r['vs lower rung']:+.1f} points [{100 * r['vs lower rung low']:+.1f}, "
               f"{100 * r['vs lower rung high']:+.1f}]")
        pair = f"{r['lower rung']} and {r['top rung']}"
        if r["across the top two rungs"] == "stable":
            said.append(f"{at} the verdict is stable across the top two rungs ({pair}: "
                        f"their difference {gap} lies within ±{100 * TOLERANCE:g} points; "
                        f"{r['top rung']} says {top_says}).")
        elif r["across the top two rungs"] == "depends on skill":
            said.append(f"{at} the verdict depends on skill (it {r['change']}): "
                        f"{r['lower rung']} says {low_says}, {r['top rung']} says {top_says} "
                        f"(difference {gap}).")
        else:
            said.append(f"{at} it is not settled whether the verdict "
                        f"holds across {pair} (difference {gap}): more games would tell.")
    return " ".join(said)


def _keys(ladder: list[Rung]) -> pl.DataFrame:
    """Gives each rung's configuration with its player count, rule variant, rung (its label;
    `__rung` its name), strategy and place on the ladder (`__variant`: the variant's, in the
    ladder's order)."""
    variants = list(dict.fromkeys(r.variant for r in ladder))
    return pl.DataFrame([(r.configuration, r.players, r.variant, r.label, r.rung, r.strategy,
                          r.order, variants.index(r.variant)) for r in ladder], orient="row",
                        schema={"configuration": pl.Utf8, "players": pl.Int64,
                                "variant": pl.Utf8, "rung": pl.Utf8, "__rung": pl.Utf8,
                                "strategy": pl.Utf8, "__order": pl.Int64, "__variant": pl.Int64})


def _presets_note(game, ladder: list[Rung]) -> str:
    """Gives what the built-in presets the rungs play set, where a rung is labelled with its
    preset, e.g. "preset search: family search, rollouts = 1, ...; "."""
    built_in = getattr(getattr(game, "bots", None), "presets", {})
    named = dict.fromkeys(r.strategy for r in ladder
                          if r.label != r.rung and r.strategy in built_in)
    return "".join(f"preset {name}: family {built_in[name][0]}"
                   + "".join(f", {k} = {v:g}" for k, v in built_in[name][1].items()) + "; "
                   for name in named)


def _why_not(left: Rung, ladder: list[Rung]) -> str:
    """Gives why a configuration that seats one strategy is not a rung: no rung plays its
    player count, or every rung that does differs from it in options or rules."""
    if not any(r.players == left.players for r in ladder):
        return f"no rung plays {left.players} players"
    return (f"it differs from the rungs at {left.players} players in its options or rules "
            "(a rung differs from the others in its bots only)")


def _same_as_default(same: list[Rung]) -> tuple[pl.DataFrame, str]:
    """Gives the tuned rungs equal to `default` (their tunings measured no held-out gain): a
    row per player count, rule variant and step of the tuning, and a sentence per count."""
    rows = [(r.players, r.variant, "tuned = default", r.strategy, step["tuned"], step["gain"],
             step["low"], step["high"]) for r in same for step in r.held_out]
    frame = pl.DataFrame(rows, orient="row", schema={
        "players": pl.Int64, "variant": pl.Utf8, "rung": pl.Utf8, "strategy": pl.Utf8,
        "held-out gain in": pl.Utf8, "vs start": pl.Float64, "vs start low": pl.Float64,
        "vs start high": pl.Float64})
    said = dict.fromkeys(f"At {r.players} players tuned = default: held-out gain "
                         f"{gains_text(r.held_out)}"
                         + ("; the tuning is significantly worse than its start (a 95% interval "
                            "below 0)" if any(step["high"] < 0 for step in r.held_out) else "")
                         + "." for r in same)
    return frame, " ".join(said) + " A tuned rung without a held-out gain is not a level of the " \
        "ladder: it is left out of the tables above and below."


def _headline(ctx: ReportContext, keys: pl.DataFrame) -> pl.DataFrame:
    """Gives the headline per rung with its interval, its distance to the target (the report's,
    --target included) with its interval and verdict, and the z-test of that distance on
    effective trials."""
    frame = with_verdicts(ctx, with_wilson(headline_totals(ctx, "configuration"))
                          .join(keys, on="configuration"))
    goal = frame["target"].to_numpy()
    eff = frame["eff_n"].to_numpy().astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (frame["rate"].to_numpy() - goal) / np.sqrt(goal * (1 - goal) / eff)
    p = two_sided_p(z)
    return frame.with_columns(
        pl.Series("p", p), pl.Series("significance", [significance_level(x) for x in p]),
    ).sort("players", "__variant", "__order")


def _seat_column(ctx: ReportContext) -> str:
    """Gives the seats table's column for a seat's place in the turn order: `turn_order` where
    the starter is rolled for (seat 0 need not start), else `seat`."""
    names = {n.strip() for c in ctx.game.columns.get("seats", ()) for n in c.name.split(",")}
    return "turn_order" if "turn_order" in names else "seat"


def _seats(ctx: ReportContext, keys: pl.DataFrame) -> tuple[pl.DataFrame, str]:
    """Gives each seat's game-win rate per rung (seat_fairness), and the seat column used."""
    seat = _seat_column(ctx)
    frame, _ = seat_fairness(ctx, "configuration", seat)
    return frame.join(keys, on="configuration").sort("players", "__variant", "__order", seat), seat


def _roles(ctx: ReportContext, keys: pl.DataFrame) -> pl.DataFrame | None:
    """Gives each role's round-win rate per rung (seat-rounds, games as clusters), for a game
    with roles (a `rounds` table with `role` and `winner_team`), else None."""
    if "rounds" not in ctx.game.tables:
        return None
    names = {n.strip() for c in ctx.game.columns.get("rounds", ()) for n in c.name.split(",")}
    if not {"role", "winner_team"} <= names:
        return None
    won = (pl.col("role") + "s") == pl.col("winner_team")
    frame = with_wilson(clustered_totals(ctx, "rounds", ["configuration", "role"], won))
    return frame.join(keys, on="configuration").sort("players", "__variant", "__order", "role")


def _uses(ctx: ReportContext, keys: pl.DataFrame) -> pl.DataFrame | None:
    """Gives the mean uses per game of each kind per rung (None when the runs have no
    `uses_*` columns: runs made before they existed)."""
    columns = ctx.collect(ctx.scan("seats").head(0), "seats").columns
    kinds = kinds_of(columns)
    if not kinds:
        return None
    per_game = ctx.scan("seats", ["game_id", *[PREFIX + k for k in kinds]]).group_by(
        "configuration", "run", "game_id").agg(pl.col(PREFIX + k).sum() for k in kinds)
    frame = ctx.collect(per_game.group_by("configuration").agg(
        pl.len().alias("games"), *[pl.col(PREFIX + k).mean().alias(k) for k in kinds]), "seats")
    return frame.join(keys, on="configuration").sort("players", "__variant", "__order")


def _chart(ctx: ReportContext, frame: pl.DataFrame, ladder_order: list[str],
           shown: list[str]) -> Path:
    """Draws the headline against the rung (`ladder_order`, named on the axis as `shown`), one
    line per player count, with the targets; the legend lists the counts by their rate at the
    top rung, highest first, as the lines end."""
    series, targets, top = {}, {}, {}
    several = frame["variant"].n_unique() > 1
    for (players, variant), part in frame.group_by("players", "variant", maintain_order=True):
        x = [ladder_order.index(r) for r in part["__rung"]]
        label = (f"{players} players{f', {variant}' if several else ''} "
                 f"({100 * part['rate'][-1]:.0f}%)")
        series[label] = (x, part["rate"], part["low"], part["high"])
        targets[label] = float(part["target"][0])
        top[label] = (-x[-1], -part["rate"][-1])
    series = {label: series[label] for label in sorted(series, key=top.get)}
    head = ctx.game.headline
    return charts.category_lines(
        ctx.chart("balance_by_rung"), shown, series, targets,
        title=f"{ctx.game.title}: {head.title} by skill rung", xlabel="rung (weakest first)",
        ylabel=f"{head.title} (%)", caption=_per_point_caption(frame["games"]))


def levels(ctx: ReportContext) -> list[Rung]:
    """Gives the ladder's levels: its rungs but the tuned ones equal to default (no held-out
    gain), which are named as such rather than shown as a level."""
    return [r for r in rungs(ctx) if not r.equals_default()]


def _read(ctx: ReportContext) -> tuple[pl.DataFrame, list[str], pl.DataFrame]:
    """Gives the headline per level of the ladder, the keys its rows are read apart by, and
    each level against the one below (`steps`); computed once per report (the Answer reads
    it)."""
    def make():
        head = _headline(ctx, _keys(levels(ctx)))
        # a ladder of rule variants (--set, --config): each variant's rungs, read apart
        apart = ["players", "variant"] if head["variant"].n_unique() > 1 else ["players"]
        return head, apart, steps(ctx, head, apart)
    return ctx.once("ladder", make)


def stable(ctx: ReportContext) -> pl.DataFrame:
    """Gives whether each verdict of the report's ladder is stable across its top two levels
    (the last row of `steps` per player count and variant; empty without a ladder)."""
    if not levels(ctx):
        return pl.DataFrame()
    _, apart, every = _read(ctx)
    return every.group_by(apart, maintain_order=True).last() if every.height else every


@common_section
def balance_across_skill(ctx: ReportContext) -> Section | None:
    """Gives the headline, seat and role rates per rung of a ladder, the flags where a
    conclusion changes between rungs, and what the bots exercise; None without a ladder."""
    ladder = rungs(ctx)
    if not ladder:
        return None
    same = [r for r in ladder if r.equals_default()]
    ladder = levels(ctx)
    keys = _keys(ladder)
    order = list(dict.fromkeys(r.rung for r in sorted(ladder, key=lambda r: r.order)))
    head, apart, every = _read(ctx)
    stable = every.group_by(apart, maintain_order=True).last() if every.height else every
    flagged = flags(every)
    # on the chart's axis a rung's label, where it has one label at every player count
    labels = {name: {r.label for r in ladder if r.rung == name} for name in order}
    path = _chart(ctx, head, order, [next(iter(labels[n])) if len(labels[n]) == 1 else n
                                     for n in order])
    caption = _per_point_caption(head["games"])
    tables = [Table(
        f"{ctx.game.headline.title} by rung", head.select(
            *apart, "rung", "strategy", "games", "n", "rate", "low", "high", "target",
            "vs target", "vs target low", "vs target high", "p", "significance", "verdict"),
        ("rate", "low", "high", "target", "vs target", "vs target low", "vs target high"),
        chart=path, chart_caption=caption,
        note="every rung plays the same deals (seed and game indices); rung: its name, with "
             "the preset it plays where that is not its family at the family's defaults; "
             f"{_presets_note(ctx.game, ladder)}strategy: what every "
             "seat plays (a tuned rung's preset: tuned-GAME-<N>p, from the game's shipped "
             "tunings, --tuned FILE or tuned on the fly, kept in RUN/tuned/<N>p); target: the "
             "report's (--target, else the game's fair value; dashed in the chart); p asks: "
             "could this rung's rate be on target, its distance luck? Method: a z-test of the "
             "rate against the target on effective trials (each row alone, unadjusted); "
             f"{VERDICT_NOTE}; {INTERVAL_NOTE}")]
    if flagged.height:
        tables.append(Table("Verdicts that change between rungs", flagged,
                            note="each rung against the one below it; a flag only where the "
                                 "intervals establish the change: changes sign (the rungs' "
                                 "intervals of the distance to the target lie on opposite "
                                 "sides of it), leaves the band (one within ±2 points, the "
                                 "other wholly beyond), moves by more than ±2 points (the "
                                 "interval of their difference wholly beyond); a verdict that "
                                 "changes rests on the bots: read it as a statement about "
                                 "that level of play"))
    if stable.height:
        tables.insert(1, Table(
            "Is the verdict stable across the top two rungs?", stable,
            ("vs lower rung", "vs lower rung low", "vs lower rung high"),
            note="stable: the 95% interval of the rungs' difference lies within ±2 points "
                 "(an equivalence test: the rate moves less than the tolerance); depends on "
                 "skill: the intervals establish a change (change: the verdicts change sign, "
                 "one is within ±2 points and the other wholly beyond, or the difference lies "
                 "wholly beyond ±2 points); not settled: neither, at this number of games; "
                 "verdicts in different words whose intervals overlap are no evidence of a "
                 "change. vs lower rung: the top rung's headline minus the lower one's, a paired "
                 "t-test over the deals both played (games as clusters), or Welch's unpaired "
                 "interval where the rungs' runs have different seeds"))
    if same:
        equal, said = _same_as_default(same)
        tables.insert(2 if stable.height else 1, Table(
            "Tuned rungs equal to default", equal if len(apart) > 1 else equal.drop("variant"),
            ("vs start", "vs start low", "vs start high"),
            note="each step of the tuning: what it measured, and the tuned bot's gain over its "
                 "start on held-out deals with its 95% interval (RUN/tuned/<N>p/gain.json, from "
                 "the tuning or the presets file's [tuning.NAME] table); no interval above 0: "
                 "not a rung"))
    order = strength.order_text(ctx, ladder)
    text = order + " " if order else ""
    text += stability_text(stable) + " " if stable.height else ""
    text += said + " " if same else ""
    text += "".join(f"Not a rung: {r.configuration} ({why}). "
                    for r, why in ctx.once("not rungs", list))
    text += ("No verdict is shown to change between rungs." if flagged.height == 0 else
             "Flag: " + "; ".join(f"at {r['players']} players"
                                  + (f" ({r['variant']})" if "variant" in r else "")
                                  + f" the verdict {r['flag']} from {r['lower rung']} to "
                                  f"{r['top rung']}"
                                  for r in flagged.iter_rows(named=True)) + ".")
    seats, seat = _seats(ctx, keys)
    tables.append(Table(
        f"Game-win rate by {seat.replace('_', ' ')} per rung", seats.select(
            *apart, "rung", seat, "n", "rate", "low", "high", "even", "vs even", "p",
            "significance"), ("rate", "low", "high", "even", "vs even"),
        note="n = games; " + SEAT_TEST_NOTE))
    roles = _roles(ctx, keys)
    if roles is not None:
        tables.append(Table(
            "Round-win rate by role per rung", roles.select(
                *apart, "rung", "role", "n", "wins", "rate", "low", "high"),
            ("rate", "low", "high"),
            note=f"n = seat-rounds in that role; a seat wins a round when its team does; "
                 f"{INTERVAL_NOTE}"))
    uses = _uses(ctx, keys)
    if uses is not None:
        kinds = [c for c in uses.columns if c not in ("configuration", "players", "variant",
                                                      "rung", "strategy", "__order",
                                                      "__variant", "games")]
        tables.append(Table(
            "What the bots exercise: mean uses per game", uses.select(
                *apart, "rung", "games", *kinds),
            note="all seats together; a kind is a name --forbid takes (the seats table's "
                 "uses_<kind>): a rule no rung uses cannot have shaped the results above"))
    return Section("Balance across skill levels", tables, text=text)
