"""Opening run folders for the reports: the game they hold, checked runs and shards, one clear
error (or, for a partial run the user asked to see, the warnings its report carries)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from sim.errors import UserError


def game_named(name: str):
    """Gives the game object called `name` (its headline, summary and tables)."""
    from sim.games import get

    return get(name)


def open_run(path: Path | str):
    """Gives the Run at `path`; UserError if it is not a run folder."""
    from sim.run.store import Run

    path = Path(path)
    if not path.is_dir():
        raise UserError(f"{path}: no such run folder")
    return Run.open(path)


def open_runs(paths: list[Path]) -> list:
    """Gives the Runs at `paths`, all of one game, no game in two of them; UserError when runs
    of different games mix or two hold one game (`check_distinct`)."""
    if not paths:
        raise UserError("give at least one run folder")
    runs = [open_run(p) for p in paths]
    games = sorted({r.game for r in runs})
    if len(games) > 1:
        raise UserError(f"cannot report runs of different games together: {', '.join(games)}")
    from sim.run.store import check_apart

    check_apart(runs)
    check_distinct(runs)
    return runs


def played_as(run, setup) -> str:
    """Gives what decides the games of a configuration besides their index (seed, rules as
    played, seats, options, roles; `sim.game.Game.play`), as a key equal across runs exactly
    when their games of one index are the same game: labels, paths and chunking left out."""
    from sim.rules import with_values

    decided = {"game": run.game, "seed": run.manifest.get("seed"),
               "rules": with_values(run.manifest.get("rules") or {}, setup.rule_values()),
               "players": setup.players, "seats": list(setup.seats),
               "options": dict(setup.options), "roles": [list(r) for r in setup.roles]}
    return json.dumps(decided, sort_keys=True, default=str)


def held_ranges(run) -> list[tuple[int, int, int, frozenset | None]]:
    """Gives (setup, start, stop, tables) of every chunk of games a report of the run reads:
    its finished chunks, in order, with the tables their records name (a run from before chunk
    records: its shards, counted, every table)."""
    from sim.run.store import shard_name

    if not run.legacy:
        done = run.done_chunks()
        return [(c.setup, c.start, c.stop, frozenset(record["tables"]))
                for c, record in run.records().items() if (c.setup, c.start) in done]
    rows = []
    for setup, start in sorted(run.done_chunks()):
        shard = Path(run.path) / "games" / shard_name(setup, start)
        rows.append((setup, start, start + pl.scan_parquet(shard).select(pl.len()).collect().item(),
                     None))
    return rows


def slabs(run, games: int) -> list[list[tuple] | None]:
    """Gives the chunks a report of the run reads (`held_ranges`) in slabs of consecutive
    chunks holding at most `games` games (or one chunk): what one pass of an aggregation by
    game reads, so that its memory does not grow with the run. A run from before chunk
    records is one slab (None: all of it), its shards not known to hold whole games."""
    if run.legacy:
        return [None]
    found, slab, held = [], [], 0
    for chunk in held_ranges(run):
        size = chunk[2] - chunk[1]
        if slab and held + size > games:
            found.append(slab)
            slab, held = [], 0
        slab.append(chunk)
        held += size
    return found + [slab] if slab else found


def check_distinct(runs: list) -> None:
    """Raises UserError when two of `runs` hold one game (same seed, configuration as played
    and game index, whatever their folders: a copy, a link, a folder given twice, a run
    played again or extended), which a report would count twice, naming both folders."""
    held: dict[str, dict[int, list[tuple[int, int]]]] = {}  # key → run → its (start, stop)s
    for i, run in enumerate(runs):
        setups = run.setups
        for setup, start, stop, _ in held_ranges(run):
            held.setdefault(played_as(run, setups[setup]), {}).setdefault(i, []).append(
                (start, stop))
    for key, by_run in held.items():
        order = sorted(by_run)
        for n, a in enumerate(order):
            for b in order[n + 1:]:
                shared = overlap(by_run[a], by_run[b])
                if shared:
                    _refuse_twice(runs[a], runs[b], json.loads(key)["players"], shared)


def overlap(spans_a: list[tuple[int, int]], spans_b: list[tuple[int, int]]
            ) -> list[tuple[int, int]]:
    """Gives the (start, stop) ranges of game indices both lists of ranges cover."""
    return sorted((max(a0, b0), min(a1, b1)) for a0, a1 in spans_a for b0, b1 in spans_b
                  if max(a0, b0) < min(a1, b1))


def _refuse_twice(run_a, run_b, players: int, shared: list[tuple[int, int]]) -> None:
    if Path(run_a.path).resolve() == Path(run_b.path).resolve():
        raise UserError(f"{run_a.path} and {run_b.path} are the same run folder: a report would "
                        "count its games twice; give it once")
    games = sum(stop - start for start, stop in shared)
    raise UserError(f"{run_a.path} and {run_b.path} hold {games:,} of the same games (seed "
                    f"{run_a.manifest.get('seed')}, {players} players, the same rules and bots; "
                    f"game {shared[0][0]:,} to {shared[-1][1] - 1:,} of the configuration): a "
                    "report would count them twice; leave one of the folders out")


def collect(frame: pl.LazyFrame, run, table: str) -> pl.DataFrame:
    """Gives the collected frame; shards that do not fit together become one UserError."""
    try:
        return frame.collect(engine="streaming")
    except (pl.exceptions.PolarsError, OSError) as e:
        run.check_shards()  # a damaged shard gets its own message
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UserError(f"{run.path}/{table}: shards do not fit this run's game ({first})") from None


def scan(run, table: str, chunks: list[tuple] | None = None) -> pl.LazyFrame:
    """Gives the lazy table of a run, or of some of its chunks (a slab: `slabs`); UserError
    when the run has no shards for it."""
    if chunks is None:
        return run.scan(table)
    from sim.run.store import shard_name

    shards = [str(Path(run.path) / table / shard_name(setup, start))
              for setup, start, _, tables in chunks if tables is None or table in tables]
    return pl.scan_parquet(shards) if shards else run.scan(table).head(0)


def with_deal(frame: pl.LazyFrame, runs: list) -> pl.LazyFrame:
    """Adds `deal` to a frame with `run` (the index in `runs`), `setup` and `game_id`: the game's
    index in its configuration, game_id − setup·G (G: its run's games per configuration). A
    game's deal depends on (seed, index) alone, so configurations of one seed that share an
    index played the same deal."""
    offsets = pl.DataFrame(
        [(i, int(run.manifest.get("games_per_setup") or 0)) for i, run in enumerate(runs)],
        orient="row", schema={"run": pl.Int16, "__per_setup": pl.Int64})
    return (frame.join(offsets.lazy(), on="run")
            .with_columns((pl.col("game_id") - pl.col("setup").cast(pl.Int64)
                           * pl.col("__per_setup")).alias("deal"))
            .drop("__per_setup"))


def check_setups(run, setup_ids) -> None:
    """Raises UserError when shards name configurations the manifest does not have."""
    bad = [s for s in setup_ids if s is None or not 0 <= s < len(run.setups)]
    if bad:
        raise UserError(f"{run.path}: shards hold configuration {bad[0]}, which the manifest "
                        f"does not list (shards of another run mixed in?)")


def check_run(run, allow_partial: bool = False) -> list[str]:
    """Gives the warnings a report of the run must carry (none for a whole run); UserError when
    it has no games, its shards do not fit, or it is not whole (interrupted, a chunk missing or
    damaged, games not those its manifest says) and `allow_partial` is off."""
    problems = run.audit()
    if problems and not allow_partial:
        what, remedy = problems[0]
        more = f" (and {len(problems) - 1} more problem(s))" if len(problems) > 1 else ""
        raise UserError(f"{run.path} is not a whole run: {what}{more}; {remedy}, or report "
                        "what it holds with --allow-partial")
    per_setup = collect(scan(run, "games").group_by("setup").agg(pl.len().alias("games")),
                        run, "games")
    if per_setup.is_empty() or per_setup["games"].sum() == 0:
        raise UserError(f"{run.path}: the run has no finished games")
    check_setups(run, per_setup["setup"].to_list())
    return [f"{run.path}: {what}" for what, _ in problems]
