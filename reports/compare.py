"""`simulate compare`: head-to-head win rates, a ranking and the significance of each gap,
from a run whose configurations seat the strategies against each other on the same deals."""

from __future__ import annotations

from pathlib import Path

import polars as pl
from rich.console import Console

from reports import charts
from reports import runs as runs_mod
from reports.report import _writable, publish
from reports.sections import (
    ADJUSTED,
    ReportContext,
    Section,
    Table,
    clustered_totals,
    compare_sections_for,
    rate_covariance,
    with_wilson,
)
from reports.head_to_head import head_to_head, ratings
from reports.stats import significance_level, simultaneous_p
from sim.errors import UserError


DEAL = ("run", "deal")  # compare's unit: a deal, replayed with the seats rotated


def field_ranking(ctx: ReportContext) -> pl.DataFrame:
    """Gives each strategy's game-win rate against the field (seat-games), best first, with
    the significance of the gap to the next strategy: a z-test with deals as clusters (a
    deal's seat assignments share its cards, and strategies at one table are dependent),
    adjusted over every pair of strategies (the ranking picked which pairs are next to each
    other). The design effect is not floored: a deal's rotations offset each other's luck of
    the seat, so its games are worth more than independent ones (docs/compare.md)."""
    def lf(slab):
        return runs_mod.with_deal(ctx.scan("seats", ["game_id", "strategy", "won"], slab=slab),
                                  ctx.runs)

    totals = clustered_totals(ctx, "seats", ["strategy"], pl.col("won"), lf=lf, cluster=DEAL)
    frame = with_wilson(totals, floor=False).sort("rate", "strategy", descending=[True, False])
    cov = rate_covariance(ctx, "seats", frame, ["strategy"], pl.col("won"), lf=lf, cluster=DEAL)
    k = frame.height
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    adjusted = dict(zip(pairs, simultaneous_p(frame["rate"].to_numpy(), cov, pairs)))
    rate = frame["rate"].to_list()
    gaps = [rate[i] - rate[i + 1] if i + 1 < k else None for i in range(k)]
    p = [adjusted[(i, i + 1)] if i + 1 < k else None for i in range(k)]
    return frame.with_columns(pl.Series("rank", range(1, k + 1)),
                              pl.Series("gap to next", gaps, dtype=pl.Float64),
                              pl.Series("p", p, dtype=pl.Float64),
                              pl.Series("gap significance",
                                        [significance_level(x) if x is not None else ""
                                         for x in p])
                              ).select("rank", "strategy", "n", "wins", "rate", "low", "high",
                                       "gap to next", "p", "gap significance")


def pairing_note(ctx: ReportContext) -> str:
    """Gives a sentence saying whether every assignment played the same game indices."""
    spans = ctx.collect(ctx.scan("games", ["game_id"]).group_by("run", "setup").agg(
        pl.len().alias("n"), (pl.col("game_id").max() - pl.col("game_id").min() + 1).alias("span")),
        "games")
    paired = spans["n"].n_unique() == 1 and (spans["n"] == spans["span"]).all()
    per = int(spans["n"][0])
    return (f"{spans.height} seat assignments × {per:,} games each; "
            + ("every assignment played the same game indices, hence the same deals (paired)."
               if paired else "assignments did not play the same number of consecutive games: "
               "the comparison is not fully paired."))


class CountContext(ReportContext):
    """A comparison's tables at one player count (a comparison over several plays each count's
    assignments on the same deals, but counts are different games: never pooled)."""

    def __init__(self, run, game, charts_dir: Path, players: int):
        super().__init__([run], game, charts_dir)
        self.players = players
        self.setups = [i for i, setup in enumerate(run.setups) if setup.players == players]

    def chart(self, name: str) -> Path:
        return self.charts_dir / f"{name}_{self.players}p.png"

    def scan(self, table: str, columns: list[str] | None = None, slab=None) -> pl.LazyFrame:
        return super().scan(table, columns, slab).filter(pl.col("setup").is_in(self.setups))


def comparison_sections(run, charts_dir: Path) -> list[Section]:
    """Gives the comparison's sections, one group per player count, and draws their charts."""
    return [section for _, group in sections_by_count(run, charts_dir) for section in group]


def sections_by_count(run, charts_dir: Path) -> list[tuple[int, list[Section]]]:
    """Gives the comparison's sections as (player count, its sections), fewest players first,
    and draws their charts."""
    runs_mod.check_run(run)
    game = runs_mod.game_named(run.game)
    counts = sorted({s.players for s in run.setups})
    return [(players, _count_sections(
                run, ReportContext([run], game, charts_dir) if len(counts) == 1
                else CountContext(run, game, charts_dir, players),
                players, "" if len(counts) == 1 else f"{players}p"))
            for players in counts]


def _count_sections(run, ctx: ReportContext, players: int, tag: str) -> list[Section]:
    """Gives the comparison's sections at one player count (`tag` names it in titles and chart
    files when the run has several)."""
    game = ctx.game
    title = f"{game.title}, {players} players" if tag else game.title
    h2h = head_to_head(ctx)
    names = sorted(set(h2h["strategy"]))
    if len(names) < 2:
        raise UserError(f"{run.path}: the run seats fewer than two strategies against "
                                 "each other; nothing to compare")
    matrix, text = charts.grid(
        h2h, names, names, "strategy", "opponent",
        lambda r: f"{100 * r['rate']:.1f}%\n[{100 * r['low']:.1f}, {100 * r['high']:.1f}]")
    deals = int(h2h["n"].max())
    path = charts.heatmap(ctx.chart("head_to_head"), matrix, names, names,
                          title=f"{title}: head-to-head", xlabel="opponent",
                          ylabel="strategy", centre=0.5, cell_text=text,
                          colour_label="share of games doing better (%)",
                          caption=f"n ≤ {deals:,} shared deals per pair; cell: rate [95% Wilson "
                                  "over deals]; ties count half; colour: distance from 50%")
    tables = [Table("Head-to-head", h2h, ("rate", "low", "high"), chart=path,
                    chart_caption=f"n up to {deals:,} deals per pair",
                    note="n: deals both strategies played (the unit: a deal's seat assignments "
                         "share its cards); a deal's score: the strategy's mean over those "
                         "assignments of 1 (its seats did better than the opponent's), ½ (as "
                         "well) or 0 (worse); wins/ties/losses: deals it scored above/at/below ½; "
                         "rate: the mean score (the share of games doing better, ties half), 95% "
                         "Wilson interval over deals; p: exact sign test of deals won against "
                         "deals lost (ties dropped), Holm-adjusted over the pairs")]
    if players == 2:
        tables.append(Table("Ranking (Bradley–Terry / Elo)", ratings(h2h),
                            note="strength: Bradley–Terry maximum-likelihood fit to the head-to-head "
                                 "points (geometric mean 1); elo: 400·log10 scale, mean 1500"))
    ranking = field_ranking(ctx)
    rank_chart = charts.rate_bars(ctx.chart("ranking"),
                                  ranking["strategy"].to_list(),
                                  ranking["rate"], ranking["low"], ranking["high"],
                                  title=f"{title}: win rate against the field",
                                  xlabel="strategy", ylabel="game-win rate (%)",
                                  caption=f"n = {int(ranking['n'].sum()):,} seat-games; "
                                          "whiskers: 95% Wilson intervals")
    tables.append(Table("Ranking: game-win rate against the field", ranking,
                        ("rate", "low", "high", "gap to next"), chart=rank_chart,
                        chart_caption=f"n = {int(ranking['n'].sum()):,} seat-games",
                        note="n = seat-games; p: the gap to the next strategy, z-test with deals "
                             "as clusters (a deal's seat assignments share its cards; strategies "
                             f"at one table are dependent), {ADJUSTED} "
                             "(every pair of strategies); low/high: a 95% Wilson interval on the "
                             "effective trials, n over the design effect of deals as clusters, "
                             "which may be below 1 (a deal's rotations offset each other's luck "
                             "of the seat)"))
    heading = f"Strategy comparison, {players} players" if tag else "Strategy comparison"
    sections = [Section(heading, tables, text=pairing_note(ctx))]
    for fn in compare_sections_for(ctx.game):
        section = fn(ctx)
        if section is not None:
            if tag:
                section.title = f"{section.title}, {players} players"
            sections.append(section)
    return sections


def print_comparison(run, console: Console | None = None, out: Path | None = None,
                     fmt: str = "table") -> Path:
    """Gives the comparison folder after printing the comparison (for a terminal, or in `fmt`
    for other tools: render.TABLE_FORMATS) and writing compare.md, compare.html and
    charts/*.png into it (default: RUN/compare/)."""
    console = console or Console()
    out = _writable(Path(out) if out is not None else Path(run.path) / "compare")
    sections = comparison_sections(run, out / "charts")
    game = runs_mod.game_named(run.game)
    title = f"{getattr(game, 'title', run.game)} strategy comparison"
    where = console if fmt == "table" else Console(stderr=True)
    for section in sections:
        if section.title.startswith("Strategy comparison"):
            where.print(f"{section.title}: {section.text}" if len(sections) > 1 and
                        section.title != "Strategy comparison" else section.text)
    publish(out, "compare", title, sections, console, fmt=fmt)
    return out
