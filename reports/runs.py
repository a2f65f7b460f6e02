"""Opening run folders for the reports: the game they hold, checked runs and shards, one clear
error (or, for a partial run the user asked to see, the warnings its report carries)."""

from __future__ import annotations

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
    """Gives the Runs at `paths`, all of one game; UserError when runs of different games mix."""
    if not paths:
        raise UserError("give at least one run folder")
    runs = [open_run(p) for p in paths]
    games = sorted({r.game for r in runs})
    if len(games) > 1:
        raise UserError(f"cannot report runs of different games together: {', '.join(games)}")
    from sim.run.store import check_apart

    check_apart(runs)
    return runs


def collect(frame: pl.LazyFrame, run, table: str) -> pl.DataFrame:
    """Gives the collected frame; shards that do not fit together become one UserError."""
    try:
        return frame.collect(engine="streaming")
    except (pl.exceptions.PolarsError, OSError) as e:
        run.check_shards()  # a damaged shard gets its own message
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UserError(f"{run.path}/{table}: shards do not fit this run's game ({first})") from None


def scan(run, table: str) -> pl.LazyFrame:
    """Gives the lazy table of a run; UserError when the run has no shards for it."""
    return run.scan(table)


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
