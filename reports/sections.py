"""Report sections: the ones every game gets, and the registry through which a game adds its own.

A section is a function `(ReportContext) -> Section`. Every game gets `COMMON`; a game adds
its own by declaring them on its game object (`report_sections`, and `compare_sections` for
`simulate compare`; see sim.game.Game), e.g. those of `sim/games/saboteur/report.py`. The machinery
(scanning runs, rates with intervals, charts, rendering) is shared, never copied per game.

A run's summary prints through `Table` and reports/render.py: the sections that draw charts
import reports.charts (matplotlib) and scipy themselves, so that a run never loads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from reports import runs as runs_mod
from reports.variants import configuration_label, rule_changes, variant_label
from reports.verdicts import TOLERANCE, Target, verdicts
from reports.stats import (PERMUTATIONS, balance, design_effect, seat_test, significance_level,
                           simultaneous_p, two_sided_p, wilson_arrays)
from sim.game import target_of as declared_target

# games per slab of an aggregation by game (`ReportContext.summed`, which holds one slab's games
# at a time): a chunk or a few (default chunks hold at most 20,000: sim.run.chunks.MAX_CHUNK);
# larger slabs took more memory and more time on a million Saboteur games
SLAB = 20_000
Slab = tuple  # (the run's index, its chunks: reports.runs.slabs, None for all)
Rows = Callable[[Slab], pl.LazyFrame]  # a slab's rows of a table, filtered or joined


@dataclass
class Table:
    """A table of a report: its raw numbers, and how to show them."""

    title: str
    frame: pl.DataFrame
    percent: tuple[str, ...] = ()       # columns shown as percentages
    note: str = ""
    chart: Path | None = None           # shown beside the table
    chart_caption: str = ""


@dataclass
class Section:
    title: str
    tables: list[Table] = field(default_factory=list)
    text: str = ""
    figure: Path | None = None  # a chart of its own, beside the text (the Answer's hero chart)
    figure_caption: str = ""


def _bots(setup) -> str:
    """Gives who plays a configuration, as its label names them ("default, 0=random",
    "forbid=rockfall default"), or a ladder's rung ("rung=tuned": a rung's preset may differ
    between player counts, the rung does not)."""
    from dataclasses import replace

    from sim.game import RUNG

    rung = setup.option(RUNG)
    if rung is not None:
        return f"{RUNG}={rung}"
    bare = replace(setup, options=(), rules=(), rule_file=None, file_rules=())
    return bare.label().split(" ", 1)[1]


def apart_labels(players: list[int], rules: list[str], bots: list[str]) -> list[str]:
    """Gives each configuration's variant as the report's rows keep it apart: what it changes
    from the defaults (and its run) where those differ between the configurations, then its
    bots where configurations of one player count and rules differ in them ("hand_size.7=5",
    "rung=random", "default rules (A) · greedy"); the rules' label when neither differs.

    Bots that differ only between player counts (`--players 2,4` with other bots at each)
    need no label: no row pools player counts that a variant would keep apart."""
    seated: dict[tuple, set] = {}
    for p, r, b in zip(players, rules, bots):
        seated.setdefault((p, r), set()).add(b)
    show_rules = len(set(rules)) > 1
    show_bots = any(len(names) > 1 for names in seated.values())
    return [" · ".join([r] * show_rules + [b] * show_bots) or r for r, b in zip(rules, bots)]


class ReportContext:
    """What sections read: the runs' tables (pooled, with `configuration` and `variant` labels),
    the game, and what balanced means for its headline (`target`, or the game's own).

    A configuration's `variant` is everything but its player count that a row must never pool:
    the rules it changes, the run it is from, and the bots it seats (`apart_labels`; in
    `configs` its `apart` column, listed in `kept_apart`). `configs`' own `variant` column
    (listed in `variants`) is the rules' label alone, which the What-if compares."""

    def __init__(self, runs: list, game, charts_dir: Path, target: float | None = None,
                 baseline: str | None = None):
        self.runs = runs
        self.game = game
        self.charts_dir = charts_dir
        self.target = target
        self.baseline = baseline
        self.profile = None  # a designer's targets the report checks (reports.profile)
        several = len(runs) > 1
        rows = []
        for i, run in enumerate(runs):
            for sid, setup in enumerate(run.setups):
                # several runs: the folder names the run, even when their rules are the same
                label = configuration_label(game, run.manifest["rules"], setup)
                if several:
                    label = f"{label} ({Path(run.path).name})"
                rows.append((i, sid, label, variant_label(game, runs, i, setup),
                             not rule_changes(game, run.manifest["rules"], setup), setup.players,
                             _bots(setup)))
        self.configs = pl.DataFrame(rows, orient="row", schema={
            "run": pl.Int16, "setup": pl.Int16, "configuration": pl.Utf8, "variant": pl.Utf8,
            "default": pl.Boolean, "cfg_players": pl.Int64, "bots": pl.Utf8})
        self.configs = self.configs.with_columns(pl.Series("apart", apart_labels(
            *(self.configs[c].to_list() for c in ("cfg_players", "variant", "bots"))),
            dtype=pl.Utf8))
        # configurations in a stable reading order: by player count, then label
        self.order = (self.configs.unique("configuration").sort("cfg_players", "configuration")
                      ["configuration"].to_list())
        # the rule variants (the What-if's), and what rows keep apart (`scan`'s `variant`)
        self.variants = self.configs["variant"].unique(maintain_order=True).to_list()
        self.kept_apart = self.configs["apart"].unique(maintain_order=True).to_list()
        self._once: dict[str, object] = {}

    def once(self, name: str, make: Callable[[], object]):
        """Gives `make()`, computed once per report: a frame two sections read (the Answer
        reads the What-if's comparisons and the ladder's stability)."""
        if name not in self._once:
            self._once[name] = make()
        return self._once[name]

    @property
    def split(self) -> bool:
        """Gives whether the report holds several variants (rules, runs or bots), which no row
        pools."""
        return len(self.kept_apart) > 1

    def per_variant(self, frame: pl.DataFrame) -> list[pl.DataFrame]:
        """Gives the frame's rows of each variant in turn (the whole frame when there is one),
        for tests and charts that compare rows within a variant."""
        if not self.split:
            return [frame]
        parts = [frame.filter(pl.col("variant") == name) for name in self.kept_apart]
        return [part for part in parts if part.height]

    def group_label(self, frame: pl.DataFrame) -> pl.Expr:
        """Gives a chart's label for each row's group: its player count ("7"), or with several
        variants, the variant and the player count on two lines ("hand_size.7=6", "7p"; the
        variant alone when every row has one player count)."""
        if not self.split:
            return pl.col("players").cast(pl.Utf8)
        # "(default)" and a run's name on a line of their own keep bar labels narrow
        variant = pl.col("variant").str.replace_all(" (", "\n(", literal=True)
        if frame["players"].n_unique() == 1:
            return variant
        return variant + "\n" + pl.col("players").cast(pl.Utf8) + "p"

    @property
    def balance(self) -> Target:
        """Gives what balanced means for the game's headline, as the game declares it."""
        return declared_target(self.game)

    def target_at(self, players) -> np.ndarray:
        """Gives the headline's target at each player count (--target, else the game's)."""
        return self.balance.at(players, self.target)

    def apart(self, *keys: str) -> list[str]:
        """Gives the grouping keys that keep variants (and runs) apart: `variant` first when
        the report holds several, then `keys`."""
        return ["variant", *keys] if self.split else list(keys)

    def scan(self, table: str, columns: list[str] | None = None, slab: Slab | None = None
             ) -> pl.LazyFrame:
        """Gives the table of all runs (or of one slab of games: `slabs`), lazily, with `run`,
        `configuration` and `variant` (what keeps the configuration apart besides its player
        count: the rules changed from the game's defaults, the run, the bots; `apart_labels`)
        added."""
        frames = []
        for i, run in enumerate(self.runs) if slab is None else [(slab[0], self.runs[slab[0]])]:
            lf = runs_mod.scan(run, table, slab and slab[1])
            if columns is not None:
                lf = lf.select(["setup", *[c for c in columns if c not in ("setup", "variant")]])
            elif "variant" in lf.collect_schema().names():  # the shards' own label: ours names
                lf = lf.drop("variant")                      # the run too, and what a file set
            frames.append(lf.with_columns(pl.lit(i, pl.Int16).alias("run"),
                                          pl.col("setup").cast(pl.Int16)))
        lf = frames[0] if len(frames) == 1 else pl.concat(frames, how="diagonal_relaxed")
        return lf.join(self.configs.lazy().select("run", "setup", "configuration",
                                                  pl.col("apart").alias("variant")),
                       on=["run", "setup"], how="left")

    def slabs(self) -> list[Slab]:
        """Gives the report's games as slabs: (run, chunks of it holding at most SLAB games),
        what one pass of an aggregation by game reads (`summed`)."""
        return self.once("slabs", lambda: [(i, chunks) for i, run in enumerate(self.runs)
                                           for chunks in runs_mod.slabs(run, SLAB)])

    def summed(self, make: Callable[[Slab], pl.LazyFrame], keys: list[str], table: str,
               slabs: list[Slab] | None = None) -> pl.DataFrame:
        """Gives the sums by `keys` of the columns of `make(slab)` over every slab of games:
        an aggregation by game (whose groups are as many as the games) holds one slab's games
        at a time, so the report's memory does not grow with the runs; a game lies in one
        slab, so sums of per-game values are those of the whole. `slabs`: others to read
        (`whole_slabs`)."""
        parts = [self.collect(make(slab), table) for slab in slabs or self.slabs()]
        return pl.concat(parts, how="vertical_relaxed").group_by(keys).agg(pl.all().sum())

    def collect(self, lf: pl.LazyFrame, table: str) -> pl.DataFrame:
        """Gives the collected frame (streaming); unfit shards become one UserError."""
        run = self.runs[0] if len(self.runs) == 1 else type("Runs", (), {"path": ", ".join(
            str(r.path) for r in self.runs)})()
        return runs_mod.collect(lf, run, table)

    def seat_strategies(self) -> pl.LazyFrame:
        """Gives (run, setup, seat, strategy) from the manifests: who sat where, each strategy
        named as the tables name it (a Python strategy by its file name, not its path)."""
        rows = [(i, sid, seat, name) for i, run in enumerate(self.runs) for sid, setup in
                enumerate(run.setups) for seat, name in enumerate(setup.strategies())]
        return pl.DataFrame(rows, orient="row", schema={
            "run": pl.Int16, "setup": pl.Int16, "seat": pl.Int64, "strategy": pl.Utf8}).lazy()

    def chart(self, name: str) -> Path:
        return self.charts_dir / f"{name}.png"

    def config_rank(self) -> pl.Expr:
        """Gives an expression sorting `configuration` in reading order."""
        return pl.col("configuration").replace_strict(
            self.order, list(range(len(self.order))), default=len(self.order))


CLUSTER = ("run", "game_id")  # a game: the independent unit of every run


def cluster_sums(successes: pl.Expr, trials: pl.Expr) -> list[pl.Expr]:
    """Gives the aggregates `with_wilson` needs over rows that are one game each: games, wins,
    n (trials) and the sums of squares and products the design effect is estimated from."""
    s, t = successes.cast(pl.Float64), trials.cast(pl.Float64)
    return [pl.len().alias("games"), s.sum().alias("wins"), t.sum().alias("n"),
            (s * s).sum().alias("__ss"), (t * t).sum().alias("__tt"), (s * t).sum().alias("__st")]


def clustered_totals(ctx: ReportContext, table: str, keys: list[str], successes: pl.Expr,
                     trials: pl.Expr = pl.lit(1), lf: Rows | None = None,
                     cluster: tuple[str, ...] = CLUSTER) -> pl.DataFrame:
    """Gives, per value of `keys`, games, wins, n and the cluster sums, from a table whose rows
    several of one game may share (seats, rounds): each game's rows (each cluster's:
    `cluster`, e.g. a deal replayed with the seats rotated) are summed first, a slab of games
    at a time. `lf`: a slab's rows to read, when not `table`'s own."""
    rows = lf or (lambda slab: ctx.scan(table, slab=slab))
    return ctx.summed(lambda slab: per_game(rows(slab), keys, successes, trials, cluster)
                      .group_by(*keys).agg(*cluster_sums(pl.col("__s"), pl.col("__t"))),
                      keys, table, whole_slabs(cluster))


def whole_slabs(cluster: tuple[str, ...]) -> list[Slab] | None:
    """Gives the slabs an aggregation by `cluster` reads: the report's (None) where a cluster
    is a game, which lies in one slab; otherwise all the games at once, as a cluster (a deal,
    played in every configuration) may span slabs and its sums must not be split."""
    return None if cluster == CLUSTER else [None]


def per_game(lf: pl.LazyFrame, keys: list[str], successes: pl.Expr,
              trials: pl.Expr, cluster: tuple[str, ...] = CLUSTER) -> pl.LazyFrame:
    """Gives each game's (each cluster's) successes `__s` and trials `__t` per value of
    `keys`."""
    # columns first: a literal (pl.lit(1)) aggregated alone would count once per group
    return (lf.with_columns(successes.cast(pl.Float64).alias("__s"),
                            trials.cast(pl.Float64).alias("__t"))
            .group_by(*keys, *cluster).agg(pl.col("__s").sum(), pl.col("__t").sum()))


def with_wilson(frame: pl.DataFrame, successes: str = "wins", n: str = "n",
                floor: bool = True) -> pl.DataFrame:
    """Gives the frame with rate, low, high (95% Wilson) and eff_n from a successes and a trials
    column.

    When the frame has the cluster sums (`cluster_sums`), trials of one game are not taken as
    independent: the interval is Wilson's on the effective number of trials n / deff, deff the
    design effect with games as clusters (`stats.design_effect`; `floor`: at 1 at least).
    eff_n is n otherwise.
    """
    s, t = frame[successes].to_numpy(), frame[n].to_numpy()
    if "__ss" in frame.columns:
        deff = design_effect(s, t, frame["games"].to_numpy(), frame["__ss"].to_numpy(),
                             frame["__tt"].to_numpy(), frame["__st"].to_numpy(), floor)
        frame = frame.drop("__ss", "__tt", "__st")
    else:
        deff = np.ones(len(frame))
    eff = t / deff
    with np.errstate(divide="ignore", invalid="ignore"):
        low, high = wilson_arrays(s / t * eff, eff)
    return frame.with_columns((pl.col(successes) / pl.col(n)).alias("rate"),
                              pl.Series("low", low), pl.Series("high", high),
                              pl.Series("eff_n", eff, dtype=pl.Float64))


def with_mean_interval(frame: pl.DataFrame, mean: str, sd: str, n: str = "n") -> pl.DataFrame:
    """Gives the frame with low, high: the 95% Student t interval of a mean (rows independent)."""
    # scipy.stats' t.ppf is this function: scipy.special is a fraction of scipy.stats' memory
    from scipy.special import stdtrit

    counts = frame[n].cast(pl.Float64).to_numpy()
    spread = frame[sd].cast(pl.Float64).fill_null(0).to_numpy()
    half = stdtrit(np.maximum(counts - 1, 1), 0.975) * spread / np.sqrt(counts)
    centre = frame[mean].cast(pl.Float64).to_numpy()
    return frame.with_columns(pl.Series("low", centre - half), pl.Series("high", centre + half))


def rate_covariance(ctx: ReportContext, table: str, frame: pl.DataFrame, keys: list[str],
                    successes: pl.Expr, trials: pl.Expr = pl.lit(1),
                    lf: Rows | None = None,
                    cluster: tuple[str, ...] = CLUSTER) -> np.ndarray:
    """Gives the covariance matrix of the rates of `frame`'s rows (in its order), with games as
    clusters: rows that share games (strategies or roles at one table) are dependent. `lf`:
    a slab's rows to read when `keys` are not columns of `table` itself.

    Linearisation of the ratio estimators: row r's residual in game i is
    e_ir = (s_ir − p_r·t_ir) / T_r; the covariance is Σ_i e_i e_iᵀ over the games (the
    variance `stats.design_effect` uses).
    """
    index = frame.select(*keys, pl.int_range(pl.len()).alias("__row"), pl.col("rate"),
                         pl.col("n").cast(pl.Float64).alias("__n"))
    rows = lf or (lambda slab: ctx.scan(table, slab=slab))

    def products(slab: Slab) -> pl.LazyFrame:
        residuals = (per_game(rows(slab), keys, successes, trials, cluster)
                     .join(index.lazy(), on=list(keys), how="inner")
                     .select(*cluster, "__row",
                             ((pl.col("__s") - pl.col("rate") * pl.col("__t")) / pl.col("__n"))
                             .alias("__e")))
        # pairs of rows met in one game: a game holds a few rows, so the join stays small
        return (residuals.join(residuals, on=list(cluster), suffix="_b")
                .group_by("__row", "__row_b")
                .agg((pl.col("__e") * pl.col("__e_b")).sum().alias("__ee")))

    sums = ctx.summed(products, ["__row", "__row_b"], table, whole_slabs(cluster))
    cov = np.zeros((frame.height, frame.height))
    cov[sums["__row"].to_numpy(), sums["__row_b"].to_numpy()] = sums["__ee"].to_numpy()
    if "games" in frame.columns:  # one game says nothing about a rate's spread
        alone = frame["games"].to_numpy() < 2
        cov[alone, :] = np.nan
        cov[:, alone] = np.nan
    return cov


def pairwise_p(frame: pl.DataFrame, cov: np.ndarray) -> np.ndarray:
    """Gives the unadjusted two-sided p-values of every pair of the frame's rates (a symmetric
    matrix, nan on the diagonal): z = difference / its standard error from `cov`."""
    rate = frame["rate"].to_numpy().astype(float)
    var = np.diag(cov)[:, None] + np.diag(cov)[None, :] - 2 * cov
    diff = rate[:, None] - rate[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(var > 0, diff / np.sqrt(var), 0.0)
    raw = np.where(np.isnan(diff + var), np.nan, two_sided_p(z))
    np.fill_diagonal(raw, np.nan)
    return raw


def independent_covariance(frame: pl.DataFrame) -> np.ndarray:
    """Gives the covariance of the frame's rates under equal rates when rows are independent
    samples (e.g. different player counts): the pooled rate's binomial variance over each
    row's effective trials (`eff_n` from `with_wilson`) on the diagonal, as a pooled
    two-proportion z-test has it."""
    eff = frame["eff_n"].to_numpy().astype(float)
    rate = frame["rate"].to_numpy().astype(float)
    known = np.isfinite(rate) & (eff > 0)
    pooled = (rate[known] * eff[known]).sum() / eff[known].sum() if known.any() else np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.diag(np.where(known, pooled * (1 - pooled) / eff, np.nan))


def gap_tests(frame: pl.DataFrame, against: int = 0, cov: np.ndarray | None = None
              ) -> pl.DataFrame:
    """Gives the frame (from `with_wilson`) with the difference of each row's rate to row
    `against` ("vs first"), its two-sided p-value adjusted for the table's comparisons, and
    its significance level.

    `cov`: the rates' covariance when rows share games (`rate_covariance`); without it rows
    are independent samples (`independent_covariance`). The adjustment is the single-step
    max-|z| test (`stats.simultaneous_p`) over the rows' comparisons with row `against`, or
    over every pair of rows when that row has the best or worst rate, which the data may
    have picked (a larger family: valid either way).
    """
    if frame.is_empty():
        return frame.with_columns(pl.lit(None, pl.Float64).alias("vs first"),
                                  pl.lit(None, pl.Float64).alias("p"),
                                  pl.lit(None, pl.Utf8).alias("significance"))
    rate = frame["rate"].to_numpy().astype(float)
    cov = independent_covariance(frame) if cov is None else cov
    k = len(rate)
    finite = rate[~np.isnan(rate)]
    picked = len(finite) > 0 and rate[against] in (finite.max(), finite.min())
    pairs = ([(a, b) for a in range(k) for b in range(a + 1, k)] if picked
             else [(r, against) for r in range(k) if r != against])
    p = np.full(k, np.nan)
    for (a, b), value in zip(pairs, simultaneous_p(rate, cov, pairs)):
        if against in (a, b):
            p[b if a == against else a] = value
    return frame.with_columns(pl.Series("vs first", rate - rate[against]),
                              pl.Series("p", p, dtype=pl.Float64),
                              pl.Series("significance", [significance_level(x) for x in p]))


def seat_fairness(ctx: ReportContext, block: str | list[str], seat: str = "seat"
                  ) -> tuple[pl.DataFrame, dict]:
    """Gives each seat's game-win rate per `block` (a configuration, a player count, or several
    columns such as variant and player count), tested against an even share by permuting seat
    labels within games, and each block's SeatTest (keyed by its value, a tuple for several).

    Frame columns: block(s), seat, n, wins, rate, low, high (95% Wilson: a seat plays a game
    once), even (a seat's rate if seats were exchangeable: winning seats per game / seats),
    vs even, p (max-|deviation| permutation p over the block's seats), significance.
    """
    blocks = [block] if isinstance(block, str) else list(block)
    columns = [seat, "won", "game_id"] + [b for b in blocks if b not in ("configuration", "variant")]
    frame = ctx.collect(
        ctx.scan("seats", columns)
        .group_by(*blocks, seat)
        .agg(pl.len().alias("n"), pl.col("won").cast(pl.Int64).sum().alias("wins")), "seats")
    winners = ctx.summed(
        lambda slab: ctx.scan("seats", columns, slab)
        .group_by(*blocks, *CLUSTER).agg(pl.col("won").cast(pl.Int64).sum().alias("c"))
        .group_by(*blocks, "c").agg(pl.len().alias("games")), [*blocks, "c"], "seats")
    frame = with_wilson(frame).with_columns(pl.col(seat).cast(pl.Int64)).sort(*blocks, seat)
    parts, tests = [], {}
    for values, part in frame.group_by(blocks, maintain_order=True):
        counts = winners.filter(*[pl.col(b) == v for b, v in zip(blocks, values)])
        per_c = np.zeros(part.height + 1, dtype=np.int64)
        for c, g in counts.select("c", "games").iter_rows():
            per_c[min(c, part.height)] += g
        test = tests[values[0] if isinstance(block, str) else tuple(values)] = seat_test(
            part["wins"].to_numpy(), per_c)
        parts.append(part.with_columns(
            pl.lit(test.expected, pl.Float64).alias("even"),
            (pl.col("rate") - test.expected).alias("vs even"),
            pl.Series("p", test.seat_p, dtype=pl.Float64),
            pl.Series("significance", [significance_level(x) for x in test.seat_p])))
    return pl.concat(parts), tests


SEAT_TEST_NOTE = ("even = a seat's rate if all seats were equally strong (winning seats per "
                  "game / seats); p asks: could this seat's lead or lag over even be luck, "
                  "every seat being equally strong? Method: seat labels permuted within games "
                  f"({PERMUTATIONS:,} seeded draws; exact when seats are exchangeable, ties and "
                  "stalled games included), adjusted for testing every seat (max-statistic)")


# --- the registry -------------------------------------------------------------------------

SectionFn = Callable[[ReportContext], "Section | None"]
COMMON: list[SectionFn] = []


def common_section(fn: SectionFn) -> SectionFn:
    COMMON.append(fn)
    return fn


def sections_for(game) -> list[SectionFn]:
    """Gives the common sections, then the game's own (its declared `report_sections`)."""
    return COMMON + list(getattr(game, "report_sections", ()))


def compare_sections_for(game) -> list[SectionFn]:
    """Gives the extra sections `simulate compare` adds for the game (its declared
    `compare_sections`, e.g. Saboteur's results by role; none for most games)."""
    return list(getattr(game, "compare_sections", ()))


def _n_caption(n_games: int, unit: str = "games", per_point: str = "") -> str:
    return f"n = {n_games:,} {unit}{per_point}; whiskers/bands are 95% Wilson intervals"


def _per_point_caption(games: pl.Series) -> str:
    """Gives a chart's caption with the games behind each of its points (a range where they
    differ), then their total: the total alone reads as each point's sample."""
    low, high = int(games.min()), int(games.max())
    each = f"{low:,}" if low == high else f"{low:,}–{high:,}"
    return _n_caption(int(games.sum()), per_point=f" in all, {each} per point")


# --- sections every game has --------------------------------------------------------------

def headline_totals(ctx: ReportContext, by: str | list[str], *more: pl.Expr) -> pl.DataFrame:
    """Gives, per value of `by` (a column or several): games, the headline's successes (`wins`) and trials (`n`),
    the cluster sums `with_wilson` takes (a game's trials are not independent when it has
    several, e.g. Saboteur's rounds), and any further aggregates over the `games` table."""
    head = ctx.game.headline
    return ctx.collect(
        ctx.scan("games")
        .with_columns(*head.per_game())
        .group_by(by)
        .agg(*cluster_sums(pl.col("__s"), pl.col("__t")), *more), "games")


ADJUSTED = ("adjusted for the table's comparisons (single-step max-|z|, so at most 5% of "
            "tables of equal rates show one p<0.05)")
INTERVAL_NOTE = ("low/high: the rates the games played are consistent with (a 95% Wilson "
                 "interval on the effective trials: n over the design effect of trials "
                 "clustered in games, at least 1)")


VERDICT_NOTE = ("target: what balanced means for the headline; vs target: the distance to it, "
                "with low/high its 95% interval; verdict: balanced when that interval lies "
                f"within ±{100 * TOLERANCE:g} points, favouring a side when it excludes 0")
TARGET_PERCENT = ("target", "vs target", "vs target low", "vs target high")


def with_verdicts(ctx: ReportContext, frame: pl.DataFrame, players: str = "players"
                  ) -> pl.DataFrame:
    """Gives the frame (rate, low, high per row; player counts in column `players`) with the
    target, the distance to it (vs target) with its interval, and the verdict in words."""
    goal = ctx.target_at(frame[players].to_numpy())
    rate, low, high = (frame[c].to_numpy().astype(float) for c in ("rate", "low", "high"))
    return frame.with_columns(
        pl.Series("target", goal, dtype=pl.Float64),
        pl.Series("vs target", rate - goal), pl.Series("vs target low", low - goal),
        pl.Series("vs target high", high - goal),
        pl.Series("verdict", verdicts(rate - goal, low - goal, high - goal, ctx.balance),
                  dtype=pl.Utf8))


def pooled(ctx: ReportContext) -> bool:
    """Gives whether a row by player count pools several configurations (that differ only in
    game options, e.g. Saboteur's --saboteurs): only then does the Overview show them apart."""
    counts = ctx.configs.unique("configuration").group_by("apart", "cfg_players").len()
    return bool((counts["len"] > 1).any())


@common_section
def overview(ctx: ReportContext) -> Section | None:
    """Gives games, the headline rate, its verdict and the game's summary aggregates per
    configuration; None when each configuration is a row of its own by player count (that
    table then holds these very numbers)."""
    if not pooled(ctx):
        return None
    head = ctx.game.headline
    frame = headline_totals(ctx, "configuration",
                            *[expr.alias(title) for title, expr in ctx.game.summary])
    frame = with_wilson(frame).sort(ctx.config_rank()).join(
        ctx.configs.unique("configuration").select("configuration", "cfg_players"),
        on="configuration", how="left", maintain_order="left")
    frame = with_verdicts(ctx, frame, "cfg_players").select(
        "configuration", "games", "n", "wins", "rate", "low", "high", "target", "vs target",
        "verdict", *[t for t, _ in ctx.game.summary])
    return Section("Overview", [Table(
        f"{head.title} by configuration", frame,
        ("rate", "low", "high", *TARGET_PERCENT, *getattr(ctx.game, "summary_rates", ())),
        note=f"n = trials ({head.title}); {INTERVAL_NOTE}; {VERDICT_NOTE}")])


def headline_by_players(ctx: ReportContext) -> pl.DataFrame:
    """Gives the headline per player count (and variant: `ctx.apart`) with its interval and
    its verdict against the target; computed once per report (the Answer reads it)."""
    def make() -> pl.DataFrame:
        keys = ctx.apart("players")
        games = with_wilson(headline_totals(ctx, keys)).sort(keys).with_columns(
            pl.col("players").cast(pl.Int64))
        return with_verdicts(ctx, games)
    return ctx.once("headline_by_players", make)


@common_section
def by_player_count(ctx: ReportContext) -> Section:
    """Gives the headline rate with its verdict against the target, and the share of seats
    that win, by player count (per variant and run when the report holds several)."""
    from reports import charts

    head = ctx.game.headline
    keys = ctx.apart("players")
    games = headline_by_players(ctx)
    # a game's seats offset each other (one wins, others lose): their design effect is below 1
    seats = with_wilson(clustered_totals(ctx, "seats", keys, pl.col("won")), floor=False)
    seats = seats.sort(keys).with_columns(
        pl.col("players").cast(pl.Int64), (1 / pl.col("players")).alias("fair share"))
    if ctx.split:  # one line per variant: a line pooling them would show a rate none has
        series = {name: (part["players"], part["rate"], part["low"], part["high"])
                  for (name,), part in games.group_by("variant", maintain_order=True)}
    else:
        series = {head.title: (games["players"], games["rate"], games["low"], games["high"]),
                  "seat game-win rate": (seats["players"], seats["rate"], seats["low"],
                                         seats["high"])}
    xs = np.array(sorted(set(games["players"].to_list())), dtype=float)
    caption = _n_caption(int(games["games"].sum()))
    path = charts.rate_lines(
        ctx.chart("headline_by_players"), series,
        title=f"{ctx.game.title}: rates by player count", xlabel="players (count)",
        ylabel=f"{head.title} (%)" if ctx.split else "rate (%)", caption=caption,
        # the headline's target only: the seat rate is the share of seats that win, ties
        # included, which no balance moves (the seat tables test seats against each other)
        band=not ctx.split, **({"target": (xs, ctx.target_at(xs))} if ctx.split else {
            "targets": {head.title: (xs, ctx.target_at(xs))}}))
    return Section("Win rate by player count", [
        Table(f"{head.title} by player count", games.select(
            *keys, "games", "n", "wins", "rate", "low", "high", "target", "vs target",
            "vs target low", "vs target high", "verdict"),
            ("rate", "low", "high", *TARGET_PERCENT), chart=path, chart_caption=caption,
            note=f"n = trials ({head.title}); {INTERVAL_NOTE}; {VERDICT_NOTE}"
                 + ("; a row pools the configurations of its player count that differ only "
                    "in game options (the Overview keeps them apart), never rules, runs or "
                    "bots" if pooled(ctx) else "") + _apart_note(ctx)),
        Table("Seat game-win rate by player count", seats.select(
            *keys, "n", "wins", "rate", "low", "high", "fair share"),
            ("rate", "low", "high", "fair share"),
            note=f"n = seat-games; tied seats all win, so rates may sum past 100%; "
                 f"{INTERVAL_NOTE}; the design effect is not floored at 1 here: a game's seats "
                 "offset each other (when one wins others lose), so its seat-games are worth "
                 "more than independent ones")])


def _apart_note(ctx: ReportContext) -> str:
    """Gives the note's last words when rows are per variant: what a variant is."""
    if not ctx.split:
        return ""
    what = [name for name, shown in (
        ("the rules changed from the defaults", len(ctx.variants) > 1 and len(ctx.runs) == 1),
        ("the rules changed from the defaults and the run", len(ctx.runs) > 1),
        ("the ladder's rung" if ctx.configs["bots"].str.starts_with("rung=").any()
         else "the bots", len(ctx.kept_apart) > len(ctx.variants))) if shown]
    return "; variant: " + ", then ".join(what) + ", never pooled"


@common_section
def by_seat(ctx: ReportContext) -> Section:
    """Gives the game-win rate by seat per configuration, balance, and permutation tests that
    seats differ and that the best and worst seat differ."""
    from reports import charts

    frame, tests = seat_fairness(ctx, "configuration")
    frame = frame.sort(ctx.config_rank(), "seat")
    rows, series = [], {}
    for (config,), part in frame.group_by("configuration", maintain_order=True):
        test = tests[config]
        rates = part["rate"].to_numpy()
        rows.append((config, int(part["n"].max()), balance(part["rate"].to_list()),
                     int(part["seat"][int(np.argmax(rates))]),
                     int(part["seat"][int(np.argmin(rates))]), test.gap, test.gap_p,
                     significance_level(test.gap_p), test.q, part.height - 1, test.p,
                     significance_level(test.p)))
        if len(series) < 8:
            series[config] = (part["seat"], part["rate"], part["low"], part["high"])
    fairness = pl.DataFrame(rows, orient="row", schema={
        "configuration": pl.Utf8, "games": pl.Int64, "balance": pl.Float64,
        "best seat": pl.Int64, "worst seat": pl.Int64, "gap": pl.Float64, "gap p": pl.Float64,
        "gap significance": pl.Utf8, "Q": pl.Float64, "dof": pl.Int64, "p": pl.Float64,
        "seats differ": pl.Utf8})
    games = int(fairness["games"].sum())
    shown = "" if len(series) == frame["configuration"].n_unique() else " (first 8 configurations)"
    path = charts.rate_lines(ctx.chart("win_rate_by_seat"), series, band=False,
                             title=f"{ctx.game.title}: game-win rate by seat{shown}",
                             xlabel=("seat number (not turn order: the starter is rolled)"
                                     if getattr(ctx.game, "rolled_starter", False)
                                     else "seat (0 = first player)"),
                             ylabel="game-win rate (%)", caption=_n_caption(games))
    return Section("Win rate by seat", [
        Table("Game-win rate by seat", frame.select(
            "configuration", "seat", "n", "wins", "rate", "low", "high", "even", "vs even", "p",
            "significance"), ("rate", "low", "high", "even", "vs even"),
            chart=path, chart_caption=_n_caption(games), note="n = games; " + SEAT_TEST_NOTE),
        Table("Seat balance", fairness, ("balance", "gap"),
              note="balance = 1 − largest win-rate gap between seats. gap p asks: is the "
                   "best seat ahead of the worst by more than luck would put one, every seat "
                   "being equally strong? Method: the range of the seats' wins against its "
                   "distribution with seat labels permuted within games, so picking the best "
                   "and worst is accounted for. p (seats differ) asks: could the seats all be "
                   "equally strong? Method: Cochran's Q of the seats' wins and its permutation "
                   f"p-value ({PERMUTATIONS:,} seeded permutations)")])


UNRANKED = ("No game seated two different strategies (every configuration seats one strategy "
            "at all its seats, as the rungs of a ladder do), so no strategy is ranked: "
            "strategies that never shared a game are not compared. Each configuration's rates "
            "are in the tables by player count.")


def mixed_configurations(ctx: ReportContext) -> list[str]:
    """Gives the configurations whose games seat at least two different strategies, in reading
    order: the only ones in which strategies can be ranked against each other."""
    found = {label for i, sid, label in ctx.configs.select("run", "setup", "configuration")
             .iter_rows() if len(set(ctx.runs[i].setups[sid].strategies())) > 1}
    return [label for label in ctx.order if label in found]


@common_section
def by_strategy(ctx: ReportContext) -> Section:
    """Gives the game-win rate by strategy (seat-games) within each configuration that seats
    several, with each gap to the best tested; only a sentence when no game seats two."""
    from reports import charts

    mixed = mixed_configurations(ctx)
    if not mixed:
        return Section("Win rate by strategy", text=UNRANKED)
    keys = ["configuration", "strategy"]

    def lf(slab: Slab) -> pl.LazyFrame:
        return ctx.scan("seats", slab=slab).filter(pl.col("configuration").is_in(mixed))

    totals = with_wilson(clustered_totals(ctx, "seats", keys, pl.col("won"), lf=lf))
    parts = []
    for config in mixed:
        part = totals.filter(pl.col("configuration") == config).sort(
            "rate", "strategy", descending=[True, False])
        # strategies at one table share its games: their rates are dependent
        parts.append(gap_tests(part, cov=rate_covariance(ctx, "seats", part, keys, pl.col("won"),
                                                         lf=lf)))
    frame = pl.concat(parts)
    n = int(frame["n"].sum())
    labels = [" · ".join(r) if len(mixed) > 1 else r[0]
              for r in frame.select("strategy", "configuration").iter_rows()]
    path = charts.rate_bars(ctx.chart("win_rate_by_strategy"), labels,
                            frame["rate"], frame["low"], frame["high"],
                            title=f"{ctx.game.title}: game-win rate by strategy",
                            xlabel="strategy", ylabel="game-win rate (%)",
                            caption=_n_caption(n, "seat-games"))
    single = len(ctx.order) - len(mixed)
    left_out = (f"; {single} configuration(s) seating one strategy only are left out "
                "(a strategy is ranked only against those it shared games with)" if single else "")
    return Section("Win rate by strategy", [Table(
        "Game-win rate by strategy", frame.select(*keys, "n", "wins", "rate", "low", "high",
                                                  "vs first", "p", "significance"),
        ("rate", "low", "high", "vs first"), chart=path,
        chart_caption=_n_caption(n, "seat-games"),
        note=f"n = seat-games; strategies are ranked within each configuration, whose games "
             f"seat them all; vs first: difference to the configuration's best strategy; p "
             f"asks: could this strategy be as strong as the best, the gap luck? Method: a "
             f"z-test with games as clusters (strategies at one table are dependent), "
             f"{ADJUSTED} (every pair of strategies: the data picked the best); {INTERVAL_NOTE}"
             + left_out)])


def with_quantiles(ctx: ReportContext, frame: pl.DataFrame, lf: pl.LazyFrame, keys: list[str],
                   column: str, qs: tuple[float, ...]) -> pl.DataFrame:
    """Gives the frame (a row per value of `keys`) with the quantiles `qs` of `column` of `lf`
    (p10, p50, ...; integers): polars' "nearest", the value at index round(q·(n − 1)) of the
    sorted values, read from the counts of each value, which stay few where the values
    themselves are as many as the games."""
    counts = ctx.collect(lf.group_by(*keys, column).agg(pl.len().alias("__count")), "games")
    rows = []
    for group, part in counts.sort(*keys, column).group_by(keys, maintain_order=True):
        upto = part["__count"].cum_sum().to_numpy()
        values = part[column].to_numpy()
        at = [values[np.searchsorted(upto, np.floor(q * (upto[-1] - 1) + 0.5), side="right")]
              for q in qs]
        rows.append((*group, *map(float, at)))
    names = [f"p{int(100 * q)}" for q in qs]
    found = pl.DataFrame(rows, orient="row", schema={
        **{k: frame.schema[k] for k in keys}, **{name: pl.Float64 for name in names}})
    return frame.join(found, on=keys, how="left", maintain_order="left")


@common_section
def game_length(ctx: ReportContext) -> Section:
    """Gives turns per game (mean, quantiles, histogram) and the stalled rate per configuration."""
    from reports import charts

    lf = ctx.scan("games", ["turns", "stalled", "players"])
    frame = ctx.collect(
        lf.group_by("configuration").agg(
            pl.len().alias("n"), pl.col("stalled").cast(pl.Int64).sum().alias("wins"),
            pl.col("turns").mean().alias("mean turns"), pl.col("turns").max().alias("max")),
        "games")
    frame = with_quantiles(ctx, frame, lf, ["configuration"], "turns",
                           (0.1, 0.25, 0.5, 0.75, 0.9))
    frame = with_wilson(frame).sort(ctx.config_rank())
    keys = ctx.apart("players")
    counts = ctx.collect(lf.group_by(*keys, "turns").agg(pl.len().alias("count")), "games")
    series = {" · ".join([*map(str, group[:-1]), f"{group[-1]} players"]):
              (part["turns"].to_numpy(), part["count"].to_numpy())
              for group, part in counts.sort(*keys, "turns").group_by(keys, maintain_order=True)}
    n = int(frame["n"].sum())
    path = charts.histograms(ctx.chart("game_length"), series,
                             title=f"{ctx.game.title}: game length", xlabel="turns per game",
                             caption=f"n = {n:,} games")
    return Section("Game length and stalled games", [
        Table("Turns per game", frame.select("configuration", "n", "mean turns", "p10", "p25",
                                             "p50", "p75", "p90", "max"),
              chart=path, chart_caption=f"n = {n:,} games"),
        Table("Stalled / turn-cap games", frame.select(
            "configuration", "n", pl.col("wins").alias("stalled"), "rate", "low", "high"),
            ("rate", "low", "high"), note="n = games")])
