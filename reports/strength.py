"""A ladder's rungs played against each other (`simulate ladder --head-to-head`): each pair's
head-to-head table on the same deals, and the rungs' order by that measured strength.

A pairing is a configuration of a ladder's run that seats exactly two of one player count's
rungs (the same rule variant, no `rung` option), each in every seat over its rotations
(sim.studies.compare.pairwise). Its games are read as `simulate compare` reads a comparison's:
a deal's score of one rung against the other (the deal the unit), Wilson intervals over deals,
sign tests Holm-adjusted over the pairs (reports.head_to_head).
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl

from reports.head_to_head import deal_scores, head_to_head_of, ratings
from reports.stats import ALPHA

BEATS, LOSES, UNSHOWN = "beats it", "loses to it", "not shown to beat it"


class Pairings:
    """The context's tables restricted to some configurations (a group's pairings): what
    reports.head_to_head reads of a comparison."""

    def __init__(self, ctx, configurations: list[str]):
        self.ctx, self.runs, self.configurations = ctx, ctx.runs, configurations

    def scan(self, table: str, columns: list[str] | None = None, slab=None) -> pl.LazyFrame:
        return self.ctx.scan(table, columns, slab).filter(
            pl.col("configuration").is_in(self.configurations))

    def collect(self, lf: pl.LazyFrame, table: str) -> pl.DataFrame:
        return self.ctx.collect(lf, table)


def groups(ladder: list) -> dict[tuple[int, str], list]:
    """Gives the rungs (reports.ladder.Rung) of each player count and rule variant."""
    found: dict[tuple[int, str], list] = {}
    for r in ladder:
        found.setdefault((r.players, r.variant), []).append(r)
    return found


def pairings(ctx, rungs: list) -> list[str]:
    """Gives the configurations that seat two of `rungs` (one player count and variant) head
    to head, in reading order."""
    from sim.game import RUNG

    first = rungs[0]
    strategies = {r.strategy for r in rungs}
    found = set()
    for i, sid, label in ctx.configs.select("run", "setup", "configuration").iter_rows():
        setup = ctx.runs[i].setups[sid]
        seated = set(setup.strategies())
        if (setup.players == first.players and setup.variant() == first.variant
                and setup.option(RUNG) is None and len(seated) == 2 and seated <= strategies):
            found.add(label)
    return [label for label in ctx.order if label in found]


def deals(ctx, rungs: list) -> pl.DataFrame:
    """Gives the deal scores (reports.head_to_head.deal_scores) of the pairings of `rungs`,
    strategies named by their rungs' labels; an empty frame without pairings."""
    found = pairings(ctx, rungs)
    if not found:
        return pl.DataFrame(schema={"run": pl.Int16, "deal": pl.Int64, "strategy": pl.Utf8,
                                    "opponent": pl.Utf8, "score": pl.Float64})
    names = {r.strategy: r.label for r in rungs}
    frame = deal_scores(Pairings(ctx, found))
    return frame.with_columns(pl.col("strategy").replace_strict(names),
                              pl.col("opponent").replace_strict(names))


def complete(h2h: pl.DataFrame, labels: list[str]) -> bool:
    """Tells whether every pair of `labels` met head to head."""
    met = set(zip(h2h["strategy"].to_list(), h2h["opponent"].to_list()))
    return all((a, b) in met for a in labels for b in labels if a != b)


def measured_order(h2h: pl.DataFrame) -> list[str]:
    """Gives the strategies of a complete head-to-head table, weakest first, by their
    Bradley–Terry strength (reports.head_to_head.ratings: every pair's points at once, so that
    a cycle still gets an order)."""
    return ratings(h2h).sort("strength", "strategy")["strategy"].to_list()


def steps(h2h: pl.DataFrame, order: list[str]) -> pl.DataFrame:
    """Gives each rung of `order` (weakest first) against the one below it, head to head:
    deals, rate (its share of their games doing better, ties half) with its 95% interval over
    deals, the Holm-adjusted sign test's p, and whether it beats the rung below (p < 5% and
    rate above ½), loses to it (p < 5%, rate below ½), or is not shown to beat it."""
    rows = {(r["strategy"], r["opponent"]): r for r in h2h.iter_rows(named=True)}
    found = []
    for lower, upper in zip(order, order[1:]):
        r = rows[(upper, lower)]
        said = (UNSHOWN if r["p"] >= ALPHA else BEATS if r["rate"] > 0.5 else LOSES)
        found.append((upper, lower, r["n"], r["rate"], r["low"], r["high"], r["p"], said))
    return pl.DataFrame(found, orient="row", schema={
        "rung": pl.Utf8, "rung below": pl.Utf8, "deals": pl.Int64, "rate": pl.Float64,
        "low": pl.Float64, "high": pl.Float64, "p": pl.Float64, "against the rung below": pl.Utf8})


def head_to_head(ctx, rungs: list) -> pl.DataFrame | None:
    """Gives the head-to-head table of `rungs` (one player count and variant), named by their
    labels, where every pair of them met; None otherwise. Read once per report and group (the
    order, the ladder's text and the section "Skill and luck" read it)."""
    key = f"head to head {rungs[0].players}p {rungs[0].variant}: " + " | ".join(
        r.label for r in rungs)
    return ctx.once(key, lambda: _head_to_head(ctx, rungs))


def _head_to_head(ctx, rungs: list) -> pl.DataFrame | None:
    labels = [r.label for r in rungs]
    if len(labels) < 2 or len(set(labels)) < len(labels):
        return None
    scores = deals(ctx, rungs)
    if scores.height == 0:
        return None
    h2h = head_to_head_of(scores)
    return h2h if complete(h2h, labels) else None


def placed(ctx, ladder: list) -> list:
    """Gives the rungs with their places (`order`) measured: in each player count and variant
    whose rungs all met head to head, by Bradley–Terry strength, weakest first, and `measured`
    set; elsewhere as given (the ladder's named order, then the runs')."""
    found = []
    for rungs in groups(ladder).values():
        h2h = head_to_head(ctx, rungs)
        if h2h is None:
            found += rungs
            continue
        order = measured_order(h2h)
        found += [replace(r, order=order.index(r.label), measured=True) for r in rungs]
    return found


def _step_text(r: dict) -> str:
    """Gives one step of the measured order in words: "default beats random (100.0% of their
    games [99.1, 100.0], p < 0.001)"."""
    rate = f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"
    p = "p < 0.001" if r["p"] < 0.001 else f"p = {r['p']:.3f}"
    verb = {BEATS: "beats", LOSES: "loses to", UNSHOWN: "is not shown to beat"}[
        r["against the rung below"]]
    return f"{r['rung']} {verb} {r['rung below']} ({rate} head to head, {p})"


def order_text(ctx, ladder: list) -> str:
    """Gives, per player count and variant with several rungs, how its rungs are ordered:
    by measured strength, each step said (a rung that does not beat the one below named as
    such), or in the order named where its rungs did not all meet head to head."""
    said = []
    several = len({r.variant for r in ladder}) > 1
    for (players, variant), rungs in groups(ladder).items():
        if len(rungs) < 2:
            continue
        at = f"At {players} players" + (f" ({variant})" if several else "")
        if not all(r.measured for r in rungs):
            said.append(f"{at} the rungs are in the order named (random, default, tuned, "
                        "search, then the runs' order), not by measured strength: they did not "
                        "all play each other (simulate ladder --head-to-head plays every pair "
                        "at one table).")
            continue
        h2h = head_to_head(ctx, rungs)
        order = measured_order(h2h)
        every = steps(h2h, order)
        short = every.filter(pl.col("against the rung below") != BEATS)
        said.append(f"{at} the rungs are ordered by measured strength head to head, weakest "
                    f"first: {' < '.join(order)}; "
                    + "; ".join(_step_text(r) for r in every.iter_rows(named=True))
                    + (f" — so {', '.join(short['rung'].to_list())} "
                       f"{'does' if short.height == 1 else 'do'} not beat the rung below."
                       if short.height else "."))
    return " ".join(said)
