"""Chunks of games: how a run is cut up, where an adaptive run stops, and how one chunk is
played into shards.

A game is identified only by (seed, setup, index), so a chunk can be played anywhere (this
process, a local worker, a Dask worker) and gives the same shards and the same counts.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import polars as pl

from reports.stats import design_effect, wilson
from sim import games
from sim.game import Setup
from sim.rules import frozen, value_at, with_values

MIN_CHUNK = 200
MAX_CHUNK = 20_000
CHUNKS_PER_WORKER = 32


@dataclass(frozen=True)
class Chunk:
    """Games [start, stop) of the configuration numbered `setup`."""

    setup: int
    start: int
    stop: int

    @property
    def games(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class Job:
    """What a worker needs to play any chunk of a run, sent once per worker."""

    game: str  # where the Game object lives ("module:attribute"), importable by a fresh process
    rules: dict
    setups: tuple[Setup, ...]
    seed: int
    games_per_setup: int
    run: str  # the run's parameter hash, written into each chunk record


@dataclass(frozen=True)
class Played:
    """A played chunk: its headline counts (for adaptive stopping) and what its chunk record
    holds (the run it belongs to, each table's row count).

    `sums` are Σs², Σt², Σs·t over its games (s, t: a game's successes and trials): with them
    the design effect of trials clustered in games comes from the chunks' counts alone."""

    chunk: Chunk
    successes: float
    trials: float
    sums: tuple[float, float, float]
    run: str
    rows: dict[str, int]


@dataclass(frozen=True)
class Prefix:
    """A configuration's first chunks, in order, all played: how many, and their counts."""

    chunks: int
    games: int
    successes: float
    trials: float
    final: bool  # the run stops here: precise enough, or every chunk played
    deff: float = 1.0  # the design effect of its trials (games as clusters)


def half_width(successes: float, trials: float, deff: float = 1.0) -> float:
    """Gives the half-width of a rate's 95% Wilson interval on the effective trials (trials
    over the design effect `deff`), as the summary and the reports print it (1 when there are
    no trials)."""
    if trials <= 0:
        return 1.0
    effective = trials / deff
    low, high = wilson(successes / trials * effective, effective)
    return (high - low) / 2


def stopping_point(chunks: list[Chunk], counts: dict[Chunk, tuple[float, ...]],
                   until_ci: float | None) -> Prefix:
    """Gives the prefix of one configuration's chunks (in order) that its run keeps: the
    shortest whose headline interval is at most ± `until_ci`, else all of them; or, while a
    chunk before that point is unplayed, the played chunks before it (not final).

    `counts` holds (successes, trials, Σs², Σt², Σs·t) of the played chunks (`Played`); the
    interval is the summary's: Wilson's on the effective trials, with games as clusters. The
    point depends on the chunks' results alone, never on which were played first: an
    interrupted run resumes to the same games as an uninterrupted one.
    """
    games, total = 0, (0.0,) * 5
    for n, chunk in enumerate(chunks):
        if chunk not in counts:
            return _prefix(n, games, total, False)
        games += chunk.games
        total = tuple(a + b for a, b in zip(total, counts[chunk]))
        if until_ci is not None:
            point = _prefix(n + 1, games, total, True)
            if half_width(point.successes, point.trials, point.deff) <= until_ci:
                return point
    return _prefix(len(chunks), games, total, True)


def _prefix(chunks: int, games: int, total: tuple[float, ...], final: bool) -> Prefix:
    """Gives the Prefix of `chunks` chunks holding `games` games whose summed counts are
    `total` (successes, trials, Σs², Σt², Σs·t)."""
    successes, trials, ss, tt, st = total
    deff = float(design_effect(successes, trials, games, ss, tt, st))
    return Prefix(chunks, games, successes, trials, final, deff)


def default_chunk_size(total_games: int, workers: int) -> int:
    """Gives a chunk size that hands each worker about 32 chunks (a short wait for the last),
    within [200, 20000]."""
    return max(MIN_CHUNK, min(MAX_CHUNK, total_games // (workers * CHUNKS_PER_WORKER)))


def plan(setups: int, games_per_setup: int, chunk_size: int) -> list[Chunk]:
    """Gives the chunks covering every game of every configuration, in order."""
    return [Chunk(k, start, min(start + chunk_size, games_per_setup))
            for k in range(setups) for start in range(0, games_per_setup, chunk_size)]


def play(job: Job, chunk: Chunk) -> tuple[Played, dict[str, bytes]]:
    """Plays one chunk and gives its counts and its tables encoded as Parquet shards."""
    game = games.load(job.game)
    setup = job.setups[chunk.setup]
    rules = with_values(job.rules, setup.rule_values())
    tables = game.play(rules, setup, job.seed, chunk.start, chunk.stop,
                       chunk.setup * job.games_per_setup)
    s, t = pl.col("__s"), pl.col("__t")
    counts = (tables["games"].select(*game.headline.per_game())
              .select(s.sum(), t.sum(), (s * s).sum().alias("ss"), (t * t).sum().alias("tt"),
                      (s * t).sum().alias("st")).row(0))
    columns = [pl.lit(chunk.setup, dtype=pl.Int16).alias("setup"),
               *variant_columns(setup, job.setups, rules)]
    shards = {}
    for name, frame in tables.items():
        buffer = io.BytesIO()
        frame.select(*columns, pl.all()).write_parquet(buffer)
        shards[name] = buffer.getvalue()
    rows = {name: frame.height for name, frame in tables.items()}
    successes, trials, *sums = (float(x or 0) for x in counts)
    return Played(chunk, successes, trials, tuple(sums), job.run, rows), shards


def variant_columns(setup: Setup, setups: tuple[Setup, ...], rules: dict) -> list[pl.Expr]:
    """Gives the columns every table of a configuration starts with after `setup`: its rule
    variant's label (`variant`), and with a --set sweep, one column `rule.KEY` per key swept
    in the run (`setups`) holding the value it plays, so that the tables alone tell the
    variants apart. A configuration that does not sweep a key (a key of another player count's
    table) holds the value it plays (from `rules`, its own): every shard of a run has the same
    columns."""
    columns = [pl.lit(setup.variant(), dtype=pl.Utf8).alias("variant")]
    own = dict(setup.rules)
    keys = sorted({key for other in setups for key, _ in other.rules} | own.keys())
    for key in keys:
        value = own[key] if key in own else frozen(value_at(rules, key))
        value = f"[{', '.join(map(str, value))}]" if isinstance(value, tuple) else value
        columns.append(pl.lit(value).alias(f"rule.{key}"))
    return columns
