"""The Python API: what the `simulate` command does, for notebooks and scripts.

    from sim import api

    run = api.run("no-thanks", players="3-5", games=2_000, seed=1)
    run.summary()                   # one row per configuration, with 95% intervals
    run.table("seats")              # a polars DataFrame, labels joined
    api.report(run)                 # report.md, report.html and charts; gives the folder
    duel = api.compare("no-thanks", ["default", "random"], players=4, games=2_000)
    duel.head_to_head

Every function checks its arguments as the command line does and raises `UserError` (one
line, saying what is wrong) for anything a user can get wrong. Games run exactly as with the
command: the same seeds give the same games, in worker processes (`workers`) or on Dask
(`backend="dask"`), into a run folder that `resume` continues. The command line is a thin
layer over this module.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import secrets
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from sim import games as registry
from sim.run import limits
from sim.errors import UserError, os_error_line
from strategies import bot_timeout as bot_limit

if TYPE_CHECKING:  # polars is imported where a table is read: `simulate --help` does not wait for it
    import polars as pl

__all__ = ["Run", "Comparison", "UserError", "balance", "bench", "compare", "games", "ladder",
           "open_run", "report", "resume", "rule_keys", "run", "skill", "strategies", "trace",
           "tune"]

Values = object | Sequence  # one value, or a list of values to sweep


class Interrupted(Exception):
    """Ctrl-C stopped a run: the message says whether and how it can be resumed."""

    def __init__(self, folder: Path, message: str | None = None):
        if message is not None:  # a study's folder (a tuning's, a balance search's)
            super().__init__(message)
        elif (folder / "manifest.json").exists():
            super().__init__(f"interrupted: finished games are kept; continue with"
                             f" 'simulate resume {folder}'")
        else:
            super().__init__("interrupted before any game finished; nothing was kept")


class Run:
    """A run folder: its games, seats and the game's own tables, with readable labels."""

    def __init__(self, store):
        self._store = store

    @property
    def path(self) -> Path:
        """The run folder."""
        return Path(self._store.path)

    @property
    def game(self) -> str:
        """The game's name, e.g. "no-thanks"."""
        return self._store.game

    @property
    def seed(self) -> int:
        """The run seed: the same seed plays the same games."""
        return int(self._store.manifest["seed"])

    @property
    def manifest(self) -> dict:
        """The run's manifest.json: game, rules, configurations, seed, versions, command."""
        return self._store.manifest

    @property
    def configurations(self) -> list[str]:
        """The label of each configuration (player count, rule variant, seats' strategies), in
        the order of the tables' `setup` column, as the summary and the reports name it."""
        from reports.variants import configuration_label

        game = registry.get(self.game)
        return [configuration_label(game, self.manifest["rules"], setup)
                for setup in self._store.setups]

    @property
    def tables(self) -> tuple[str, ...]:
        """The names of the run's tables, e.g. ("games", "seats", "rounds")."""
        return tuple(registry.get(self.game).tables)

    def table(self, name: str = "games") -> pl.DataFrame:
        """Gives one of the run's tables with the `configuration` label joined (and, where the
        game has roles, `role` in words): one row per game, per seat, ... as the game records.
        UserError for a table the game does not have."""
        if name not in self.tables:
            raise UserError(f"{self.game} has no table {name!r}; its tables: "
                            f"{', '.join(self.tables)}")
        import polars as pl

        from reports import runs as runs_mod

        labels = pl.DataFrame({"setup": range(len(self.configurations)),
                               "configuration": self.configurations},
                              schema={"setup": pl.Int64, "configuration": pl.String})
        frame = runs_mod.collect(runs_mod.scan(self._store, name), self._store, name)
        frame = frame.with_columns(pl.col("setup").cast(pl.Int64)).join(
            labels, on="setup", how="left")
        from sim.game import role_names

        roles = role_names(registry.get(self.game))
        if roles and "role" in frame.columns and frame.schema["role"].is_integer():
            frame = frame.with_columns(pl.col("role").replace_strict(
                list(range(len(roles))), list(roles), return_dtype=pl.String))
        first = ["game_id", "setup", "configuration"]
        return frame.select(*[c for c in first if c in frame.columns],
                            *[c for c in frame.columns if c not in first])

    def games(self) -> pl.DataFrame:
        """Gives the games table (one row per game), labels joined."""
        return self.table("games")

    def seats(self) -> pl.DataFrame:
        """Gives the seats table (one row per seat per game), labels joined."""
        return self.table("seats")

    def summary(self) -> pl.DataFrame:
        """Gives the summary the command prints: one row per configuration, the headline rate
        with its 95% interval (low, high), the game's aggregates and each seat's win rate."""
        from reports.summary import summary_frame

        return summary_frame(self._store)

    def __repr__(self) -> str:
        return f"Run({str(self.path)!r}, game={self.game!r}, seed={self.seed})"


class Comparison:
    """A strategy comparison: its run, and its head-to-head and ranking tables."""

    def __init__(self, run: Run, folder: Path):
        self.run, self.folder = run, folder

    @functools.cached_property
    def _sections(self) -> list:
        from reports.compare import sections_by_count

        return sections_by_count(self.run._store, self.folder / "charts")

    def _tables(self, title: str) -> pl.DataFrame:
        import polars as pl

        frames = [t.frame.with_columns(pl.lit(players, pl.Int64).alias("players"))
                  for players, sections in self._sections for s in sections
                  if s.title.startswith("Strategy comparison")
                  for t in s.tables if t.title.startswith(title)]
        return pl.concat(frames).select("players", pl.exclude("players"))

    @property
    def head_to_head(self) -> pl.DataFrame:
        """Per player count and ordered pair of strategies: shared deals (the unit), the deals
        won, tied and lost, the rate of doing better in their games (ties half) with its 95%
        interval over deals, and the sign test's Holm-adjusted p (docs/compare.md)."""
        return self._tables("Head-to-head")

    @property
    def ranking(self) -> pl.DataFrame:
        """Per player count: each strategy's game-win rate against the field, best first."""
        return self._tables("Ranking: game-win rate")


def games() -> dict[str, tuple[int, int]]:
    """Gives every game's name with its (fewest, most) players."""
    return {name: (registry.get(name).min_players, registry.get(name).max_players)
            for name in registry.names()}


def strategies(game: str, strategies_file: str | Path | None = None) -> str:
    """Gives the text of `simulate strategies GAME`: bot families, parameters, presets and
    what `forbid` takes."""
    from strategies import presets

    found = registry.get(game)
    return presets.describe(found, with_presets(found, found.load_rules(None, []),
                                                strategies_file))


def rule_keys(game: str) -> str:
    """Gives the text of `simulate rules GAME`: every rule key with its default, what it takes
    and its meaning (what `rules=` takes)."""
    from sim.rule_keys import describe

    return describe(game, registry.get(game).title)


def run(game: str, *, players: int | str | Sequence[int], games: int = 10_000,
        seed: int | None = None, strategy: str = "default",
        seats: Mapping[int, str] | None = None,
        role_strategies: Mapping[str, str] | None = None,
        rules: Mapping[str, Values] | None = None,
        config: str | Path | Sequence[str | Path] | None = None,
        forbid: Sequence[str] = (), strategies_file: str | Path | None = None,
        workers: int | None = None, out: str | Path | None = None,
        until_ci: float | None = None, backend: str = "local", scheduler: str | None = None,
        bot_timeout: float = bot_limit.DEFAULT, quiet: bool = False, sets: Sequence[str] = (),
        resume: bool = False, chunk_size: int | None = None, output_format: str = "table",
        **own) -> Run:
    """Plays `games` games of every configuration asked for into a new run folder; gives it.

    players: 7, "5,7", "3-10" or a list. rules: rule keys (`rule_keys(game)`) to values; a
    list of values sweeps the key (one rule variant per value, all on the same deals), e.g.
    {"hand_size.7": [5, 6]}. config: a rules TOML file, or several (one variant each).
    strategy: every seat's (a built-in, a preset of `strategies_file`, or
    "path/to/file.py:Class"); seats: {seat: strategy} for some seats; role_strategies:
    {role: strategy}, e.g. {"miner": "search"}: whichever seat holds the role plays it, round
    by round (a role not named plays `strategy`). forbid: "rockfall",
    "2=rockfall" or "miner:break". own: the game's own options and data files, by the names
    it declares (`simulate GAME --help` shows them as flags), e.g. a number of something in
    play (a list sweeps it) or a board file. workers: processes (default: every core). out:
    the run folder (default runs/GAME-DATE-TIME). until_ci: stop each configuration once its headline's 95% interval
    is this narrow (half-width). quiet: no line saying what plays and no progress bar (shown
    on a terminal and in a notebook, the first compile of a game's engine included). sets:
    --set KEY=VALUE texts, as the command takes them. resume: finish the interrupted run in
    `out` instead. output_format: the command's --format (not table: the line saying what
    plays goes to stderr).
    """
    from sim.game import files_of

    found = registry.get(game)
    keys = {f.key for f in files_of(found)}
    sets = [*sets, *_sets(rules), *file_sets(found, {k: v for k, v in own.items() if k in keys})]
    options = game_options(found, {k: _flag_text(v) for k, v in own.items() if k not in keys},
                           _counts(players), _paths(config), sets)
    found, ruled, setups = configure(found.name, _counts(players), options, strategy,
                                     [f"{k}={v}" for k, v in (seats or {}).items()],
                                     _paths(config), sets, strategies_file, list(forbid),
                                     [f"{k}={v}" for k, v in (role_strategies or {}).items()])
    if resume and out is None:
        raise UserError("--resume needs --out: the run folder to continue")
    return Run(play(found, ruled, setups, games=games, seed=seed, workers=_workers(workers),
                    out=Path(out) if out is not None else default_out(game),
                    quiet=quiet, chunk_size=chunk_size, resume=resume, backend=backend,
                    scheduler=scheduler, until_ci=until_ci, bot_timeout=bot_timeout,
                    output_format=output_format))


def trace(game: str, *, players: int | str, seed: int | None = None, game_index: int = 0,
          strategy: str = "default", seats: Mapping[int, str] | None = None,
          role_strategies: Mapping[str, str] | None = None,
          rules: Mapping[str, object] | None = None, sets: Sequence[str] = (),
          config: str | Path | None = None, forbid: Sequence[str] = (),
          strategies_file: str | Path | None = None, bot_timeout: float = bot_limit.DEFAULT,
          out: TextIO | None = None, **own) -> dict:
    """Prints game `game_index` of the run seed `seed` move by move to `out` (default stdout)
    and gives its tables, as a run records them; without a seed, a fresh one is drawn and said
    on stderr first (the one thing needed to show this game again). The other arguments are
    `run`'s, one value each; `own`: the game's own options and data files."""
    from sim.game import files_of

    limits.check_game_index(game_index)
    bot_limit.check(bot_timeout)
    found = registry.get(game)
    keys = {f.key for f in files_of(found)}
    sets = [*sets, *_sets(rules), *file_sets(found, {k: v for k, v in own.items() if k in keys})]
    configs = _paths(config)
    options = game_options(found, {k: v for k, v in own.items() if k not in keys},
                           _counts(players), configs, sets, sweep=False)
    found, ruled, setups = configure(game, _counts(players), options, strategy,
                                     [f"{k}={v}" for k, v in (seats or {}).items()], configs,
                                     sets, strategies_file, list(forbid),
                                     [f"{k}={v}" for k, v in (role_strategies or {}).items()])
    if len(setups) > 1:
        raise UserError("a trace shows one game: give each --set one value")
    drawn = seed is None
    seed = seed_of(seed)
    if drawn:
        print(f"seed {seed}", file=sys.stderr)
    with bot_limit.limit_for_run(bot_timeout):
        return found.trace(ruled, setups[0], seed, game_index, out or sys.stdout)


def resume(folder: str | Path, *, workers: int | None = None, backend: str = "local",
           scheduler: str | None = None, bot_timeout: float = bot_limit.DEFAULT,
           quiet: bool = False, force_into: str | Path | None = None) -> Run:
    """Plays the games an interrupted run is missing (its seed and parameters); gives it.
    quiet: no progress bar. UserError if its games were played by other code than today's
    (the game's, the bots', simulate's version); with `force_into`, plays them by today's code
    into a new run folder there instead and gives that run."""
    from sim.run import runner
    from sim.run.store import Run as Store

    folder = Path(folder)
    stored = Store.open(folder)
    manifest = stored.manifest
    game = registry.get(stored.game)
    with interruptible(Path(force_into) if force_into is not None else folder), \
            bot_limit.limit_for_run(bot_timeout):
        return Run(runner.run(game, manifest["rules"], stored.setups,
                              manifest["games_per_setup"], manifest["seed"], folder,
                              workers or os.cpu_count() or 1, resume=True, progress=not quiet,
                              backend=backend, scheduler=scheduler,
                              until_ci=manifest.get("until_ci"), force_into=force_into))


def open_run(folder: str | Path) -> Run:
    """Gives the run in `folder` (made by `run`, `compare` or the command line)."""
    from reports import runs as runs_mod

    return Run(runs_mod.open_run(Path(folder)))


def report(*runs: Run | str | Path, out: str | Path | None = None,
           allow_partial: bool = False, profile: str | Path | None = None) -> Path:
    """Writes the balance report of one or more runs (report.md, report.html, charts) and
    gives its folder (default: RUN/report of the first run). profile: a designer's targets
    (TOML) the report checks."""
    import io

    from rich.console import Console

    from reports.report import write_report

    if not runs:
        raise UserError("report() needs at least one run")
    paths = [r.path if isinstance(r, Run) else Path(r) for r in runs]
    return write_report(paths, Path(out) if out is not None else None,
                        Console(file=io.StringIO()), allow_partial,
                        designer=Path(profile) if profile is not None else None)


def skill(*runs: Run | str | Path) -> dict[str, pl.DataFrame]:
    """Gives what a ladder whose rungs played each other (`ladder(..., head_to_head=True)`)
    says about skill and luck, per player count, as the report's "Skill and luck" section
    does: matrix (every rung against every other on the same deals, intervals over deals),
    order (the rungs by measured strength, each against the one below), figures (skill
    expression, upset rate, the deal's share of the spread of who wins, with 95% intervals),
    equilibrium (the empirical game's, bootstrapped over deals) and answer ("is there a
    strategy that beats all the others?"). Raises UserError when no rungs met head to head."""
    import tempfile

    from reports import runs as runs_mod
    from reports import skill as skills
    from reports.report import report_context

    if not runs:
        raise UserError("skill() needs at least one run")
    stores = [runs_mod.open_run(r.path if isinstance(r, Run) else Path(r)) for r in runs]
    for store in stores:
        runs_mod.check_run(store)
    with tempfile.TemporaryDirectory() as charts_dir:
        ctx = report_context(stores, runs_mod.game_named(stores[0].game), Path(charts_dir))
        found = skills.frames(ctx)
    if found["matrix"].height == 0:
        raise UserError("no rungs of these runs played each other: play the ladder with "
                        "head_to_head=True (simulate ladder --head-to-head)")
    return found


def compare(game: str, strategies: Sequence[str], *, players: int | str | Sequence[int],
            games: int = 10_000, seed: int | None = None, rules: Mapping[str, object] | None = None,
            sets: Sequence[str] = (), config: str | Path | None = None, forbid: Sequence[str] = (),
            strategies_file: str | Path | None = None, workers: int | None = None,
            out: str | Path | None = None, backend: str = "local",
            scheduler: str | None = None, bot_timeout: float = bot_limit.DEFAULT,
            quiet: bool = False, role_strategies: Mapping[str, str] | None = None,
            output_format: str | None = None) -> Comparison:
    """Plays `strategies` against each other on the same deals, each in every seat, at each
    player count of `players`; gives the comparison (head-to-head, ranking) and writes its
    report into RUN/compare/. rules: one value per key (sets: the same as --set KEY=VALUE
    texts). forbid: "rockfall" (every strategy) or "STRATEGY=rockfall". role_strategies:
    {role: strategy} played whichever seat holds the role; the strategies compared play the
    roles left open. quiet: no line saying what plays, no progress bar. output_format: print
    the comparison as the command does (table, csv, json, markdown); None: print nothing."""
    import io

    from rich.console import Console

    from reports.compare import print_comparison
    from reports.render import check_table_format
    from sim.counts import parse_counts
    from sim.rules import split_sweeps
    from sim.run.setups import check_counts_of_sets, check_players
    from sim.studies.compare import plan
    from strategies.seats import forbid_strategies

    if output_format is not None:
        check_table_format(output_format)
    found = registry.get(game)
    if isinstance(strategies, str):
        strategies = strategies.split(",")
    sweeps = [k for k, v in (rules or {}).items() if _is_sweep(v)]
    if sweeps:
        raise UserError(f"compare plays one set of rules: give {sweeps[0]} one value")
    sets = [*sets, *_sets(rules)]
    if split_sweeps(found.name, sets)[1]:
        raise UserError("compare plays one set of rules: give each --set one value")
    counts = parse_counts("--players", _counts(players), functools.partial(check_players, found))
    check_counts_of_sets(found.name, sets, counts)
    ruled = with_presets(found, found.load_rules(str(config) if config else None, sets),
                         strategies_file)
    named = forbid_strategies(list(strategies), list(forbid))
    setups = [setup for n in counts for setup in plan(found, named, n, {}, ruled,
                                                      dict(role_strategies or {}))]
    for setup in setups:
        found.check(ruled, setup)
    played = Run(play(found, ruled, setups, games=games, seed=seed,
                      workers=workers or os.cpu_count() or 1,
                      out=Path(out) if out is not None else default_out(f"{game}-compare"),
                      quiet=quiet, backend=backend, scheduler=scheduler,
                      bot_timeout=bot_timeout, output_format=output_format or "table"))
    if output_format is None:
        folder = print_comparison(played._store, Console(file=io.StringIO()))
    else:
        folder = print_comparison(played._store, fmt=output_format)
    return Comparison(played, folder)


def tune(game: str, *, players: int, family: str = "default", params: str | None = None,
         role: str | None = None, seat: int | None = None, against: str = "default",
         trials: int = 100, games: int = 2_000, gain_games: int | None = None,
         alternate: int = 0, role_strategies: Mapping[str, str] | None = None,
         sampler: str = "tpe", pruner: str = "halving", seed: int | None = None,
         workers: int | None = None, out: str | Path | None = None,
         config: str | Path | None = None, rules: Mapping[str, object] | None = None,
         sets: Sequence[str] = (), strategies_file: str | Path | None = None,
         resume: bool = False, quiet: bool = False, backend: str = "local",
         scheduler: str | None = None) -> str:
    """Searches a bot family's parameters (Optuna) for the best result against the field and
    measures the gain on fresh seeds, into the tuning folder `out` (default
    tuned/GAME-DATE-TIME; the same folder resumes); gives the report `simulate tune` prints
    (the presets it writes are OUT/tuned.toml). params: "a,b" (default: all of the family's;
    with `role`, those only that role reads); role: tune that role of the game's (its
    round-win rate); seat: tune one seat alone (default: one seat, each in turn); against:
    what the others play; alternate: steps of iterated best response; role_strategies:
    {role: strategy}, with `role`, for the roles not tuned."""
    from sim.rules import split_sweeps
    from sim.run.runner import check_backend
    from sim.run.setups import check_counts_of_sets, check_players
    from sim.studies import tune as tuning

    found = registry.get(game)
    workers = _workers(workers)
    limits.check_workers(workers)
    check_backend(backend, scheduler)
    for flag, value in (("--trials", trials), ("--games", games), ("--gain-games", gain_games)):
        if value is not None and value < 1:
            raise UserError(f"{flag} must be at least 1, got {value}")
    limits.check_games(games)
    if alternate < 0:
        raise UserError(f"--alternate must be 0 or more, got {alternate}")
    if sampler not in tuning.SAMPLERS or pruner not in tuning.PRUNERS:
        raise UserError(f"--sampler takes {', '.join(tuning.SAMPLERS)} and --pruner "
                        f"{', '.join(tuning.PRUNERS)}, got {sampler!r} and {pruner!r}")
    sets = [*sets, *_sets(rules)]
    if split_sweeps(found.name, sets)[1]:
        raise UserError("tune plays one set of rules: give each --set one value")
    check_players(found, players)
    check_counts_of_sets(found.name, sets, [players])
    ruled = with_presets(found, found.load_rules(str(config) if config else None, sets),
                         strategies_file)
    if role_strategies and alternate:
        raise UserError("--role-strategy fixes the roles not tuned: it takes no --alternate")
    side = tuning.make_side(found, ruled, players, family, params, role, seat, against,
                            dict(role_strategies or {}))
    for setup in tuning.setups(side, players):
        found.check(tuning.rules_with(ruled, family, side, dict(side.start)), setup)
    out = Path(out) if out is not None else Path("tuned") / f"{game}-{datetime.now():%Y%m%d-%H%M%S}"
    settings = tuning.Settings(found.name, players, family, ruled, side, trials, games,
                               gain_games or max(games, 2_000),
                               seed_of(seed if seed is not None else tuning.stored_seed(out)),
                               sampler, pruner, alternate)
    tuning.open_folder(out, settings, resume)
    try:
        steps = tuning.run(settings, out, _command(), workers, quiet, backend=backend,
                           scheduler=scheduler)
    except KeyboardInterrupt:
        raise Interrupted(out, f"interrupted: finished trials are kept in {out}; rerun the "
                               "same command (or add --resume) to continue") from None
    return tuning.report(settings, steps, out)


def ladder(game: str, *, players: int | str | Sequence[int], games: int = 2_000,
           rungs: str | Sequence[str] | None = None, tuned: str | Path | None = None,
           tune_trials: int | None = None, tune_games: int | None = None,
           by_role: bool = False, role_strategies: Mapping[str, str] | None = None,
           head_to_head: bool = False,
           config: str | Path | Sequence[str | Path] | None = None,
           rules: Mapping[str, Values] | None = None, sets: Sequence[str] = (),
           seed: int | None = None, workers: int | None = None,
           out: str | Path | None = None, quiet: bool = False, backend: str = "local",
           scheduler: str | None = None) -> Run:
    """Plays the same deals with every seat at each rung of skill (random, default, tuned,
    search) into one run; gives it (`report` then shows balance across skill levels).
    rungs: those to play, in order (default: random, default, tuned where there are tuned
    presets, search where the game has it): a named rung, any strategy or preset, or
    strategies by role ("ROLE=NAME,ROLE=NAME", one rung); tuned: the tuned rung's presets file (default:
    the game's shipped tunings); tune_trials, tune_games: tune the tuned rung on the fly;
    by_role: the skill matrix, each rung of one role against each of the other; head_to_head:
    every pair of rungs at one table too, on the same deals (the report then orders the rungs
    by measured strength and shows the skill matrix, skill expression and the upset rate)."""
    import tempfile

    from sim.counts import parse_counts
    from sim.rules import with_values
    from sim.run.setups import check_players, rule_variants
    from sim.studies import ladder as ladders

    found = registry.get(game)
    counts = parse_counts("--players", _counts(players), functools.partial(check_players, found))
    wanted = ladders.parse_rungs(rungs if rungs is None or isinstance(rungs, str)
                                 else ",".join(rungs))
    on_the_fly = ladders.check_tuning(tune_trials, tune_games, tuned)
    # the tuned rung's presets: `tuned`'s, a tuning's on the fly, else the game's shipped
    shipped = None if tuned or on_the_fly else ladders.shipped_tuned(found)
    strategies = ladders.rung_strategies(
        found, wanted, ladders.ON_THE_FLY if on_the_fly else
        ladders.FROM_FILE if tuned or shipped else None, shipped is not None)
    if shipped and "tuned" in dict(strategies):
        tuned = shipped
    named, presets, gains = (ladders.tuned_presets(found, Path(tuned), counts) if tuned
                             else ({}, {}, {}))
    # a rule sweep (KEY=V1,V2, several configs): every rung of every variant, same deals
    ruled, variants = rule_variants(found, [str(c) for c in _paths(config)],
                                    [*sets, *_sets(rules)],
                                    len(counts) * len(wanted or ladders.RUNGS) ** (2 if by_role else 1))
    if presets:
        from strategies.presets import with_presets as presets_in
        ruled = presets_in(ruled, presets)
    roles = dict(role_strategies or {})
    if by_role and roles:
        raise UserError("--by-role plays every role at every rung: drop --role-strategy")
    if by_role and head_to_head:
        raise UserError("--by-role plays each role's rung against the other's: drop --head-to-head")
    setups = ladders.setups(found, counts, {}, strategies, ruled, named, by_role, roles, variants,
                            head_to_head)
    for setup in setups:
        found.check(with_values(ruled, setup.rule_values()), setup)
    out = Path(out) if out is not None else default_out(f"{game}-ladder")
    limits.check_games(games)
    check_new_out(out)
    seed = seed_of(seed)
    workers = _workers(workers)
    with tempfile.TemporaryDirectory() as folder:
        tunings = Path(folder) / ladders.TUNINGS
        if tuned and "tuned" in dict(strategies):
            ladders.keep_gains(tunings, named, gains, Path(tuned))
        if on_the_fly and "tuned" in dict(strategies):
            names, ruled = ladders.tune(found, ruled, counts, tune_trials, tune_games, seed,
                                        tunings, workers, quiet)
            setups = ladders.setups(found, counts, {}, strategies, ruled, names, by_role, roles,
                                    variants, head_to_head)
        played = play(found, ruled, setups, games=games, seed=seed, workers=workers, out=out,
                      quiet=quiet, backend=backend, scheduler=scheduler)
        if tunings.exists():
            ladders.keep_tunings(tunings, out)
    return Run(played)


def balance(game: str, *, players: int | str | Sequence[int], vary: Sequence[str],
            target: float | None = None, keep: str | None = None, precision: float = 0.01,
            games: int = 20_000, trials: int = 30, strategy: str = "default",
            role_strategies: Mapping[str, str] | None = None, seed: int | None = None,
            workers: int | None = None, out: str | Path | None = None,
            profile: str | Path | None = None) -> str:
    """Searches the rule values that bring the game's headline rate to its target (default:
    the one the game declares), measures them again on fresh seeds, and writes OUT/balanced.toml
    (a `config`) and a response chart; gives the answer `simulate balance` prints. vary:
    "KEY=LO-HI" or "KEY=V1,V2" ({n} in KEY stands for the player count); keep:
    "COLUMN<=NUMBER" or "COLUMN>=NUMBER", a games-table mean kept in range; role_strategies:
    {role: strategy}, the bots of the roles named (a role not named plays `strategy`);
    profile: a designer's targets (TOML) searched for all at once instead of target and keep
    (sim.studies.balance_profile)."""
    from sim.counts import parse_counts
    from sim.run.setups import build_setups, check_players
    from sim.studies import balance as search

    found = registry.get(game)
    counts = parse_counts("--players", _counts(players), functools.partial(check_players, found))
    search.check_options(target, precision, trials)
    targets = _profile(profile, target, keep)
    limits.check_games(games)
    workers = _workers(workers)
    limits.check_workers(workers)
    # checks the strategies
    setup = build_setups(found, counts, {}, strategy, {}, None, None,
                         dict(role_strategies or {}))[0]
    out = Path(out) if out is not None else default_out(f"balance-{game}")
    check_new_out(out)
    if targets is not None:
        return _balance_profile(found, counts, list(vary), targets, precision, games, trials,
                                seed_of(seed), workers, out, search.Bots(setup.seats[0],
                                                                         setup.roles))
    try:
        result = search.balance(found, counts, list(vary), target=target,
                                keep=search.parse_keep(keep), precision=precision,
                                most_games=games, trials=trials, seed=seed_of(seed),
                                workers=workers, out=out,
                                bots=search.Bots(setup.seats[0], setup.roles))
    except KeyboardInterrupt:
        raise Interrupted(out, f"interrupted: the runs the search played are kept in {out}") \
            from None
    return search.report(found, result, out)


def _profile(path: str | Path | None, target: float | None, keep: str | None):
    """Gives balance's profile (reports.profile.Profile) or None; UserError for a bad one or
    one given with --target or --keep, which it replaces."""
    if path is None:
        return None
    from reports import profile

    if target is not None or keep is not None:
        raise UserError("--profile sets the targets: give it without --target and --keep "
                        "(write them as targets of the profile, e.g. headline, turns)")
    return profile.load(path)


def _balance_profile(found, counts, vary, targets, precision, games, trials, seed, workers,
                     out, bots) -> str:
    """Gives what `simulate balance --profile` prints, the search played into `out`."""
    from sim.studies import balance_profile

    try:
        result = balance_profile.balance(found, counts, vary, targets, precision=precision,
                                         most_games=games, trials=trials, seed=seed,
                                         workers=workers, out=out, bots=bots)
    except KeyboardInterrupt:
        raise Interrupted(out, f"interrupted: the runs the search played are kept in {out}") \
            from None
    return balance_profile.report(found, result, out)


def bench(game: str, *, players: int | str | Sequence[int] | None = None,
          strategies: str | Sequence[str] = ("random", "default"), games: int = 20_000,
          scaling_games: int | None = None, memory_games: int = 0, repeat: int = 3,
          dask: bool = False) -> None:
    """Prints (to stdout) how fast the game plays: games per CPU-second per core for each
    strategy and player count (default: those the game declares), against the yardstick bot;
    worker scaling over `scaling_games` games (default: the game's; 0: skip) and peak memory
    over `memory_games` (0: skip)."""
    from rich.console import Console

    from sim.counts import parse_counts
    from sim.game import bench_counts, bench_scaling
    from sim.run.setups import build_setups, check_players
    from sim.studies.bench import bench as measure

    found = registry.get(game)
    scaling_games = bench_scaling(found) if scaling_games is None else scaling_games
    # A measurement's games are played in one call, their results held in memory as a chunk's.
    limits.check_games(games, most=limits.MAX_CHUNK_SIZE, per="per measurement (one chunk)")
    for flag, count in (("--scaling-games", scaling_games), ("--memory-games", memory_games)):
        if count < 0:
            raise UserError(f"{flag} must be at least 0 (0: skip), got {count}")
        if count:
            limits.check_games(count, flag)
    if repeat < 1:
        raise UserError(f"--repeat must be at least 1, got {repeat}")
    rules = found.load_rules(None, [])
    names = [s.strip() for s in (strategies.split(",") if isinstance(strategies, str)
                                 else strategies) if s.strip()]
    counts = (parse_counts("--players", _counts(players), functools.partial(check_players, found))
              if players is not None else list(bench_counts(found)))
    if not names:
        raise UserError("--strategies names no strategy")
    # Validates the counts and the names; a Python strategy's file is made absolute.
    names = [build_setups(found, counts, {}, strategy, {})[0].seats[0] for strategy in names]
    measure(found, rules, counts, names, games, repeat, scaling_games, memory_games, Console(),
            dask)


def _workers(workers: int | None) -> int:
    """Gives the worker processes asked for (None: every core); a study checks the number."""
    return (os.cpu_count() or 1) if workers is None else workers


def _command() -> str:
    """Gives the command line a study records (`simulate ...`, or the script's)."""
    return " ".join(["simulate", *sys.argv[1:]])


# ---- what the command line and the functions above share -----------------------------------

def configure(name: str, players: str, options: dict[str, list], strategy: str,
              seat_strategy: list[str] | None, configs: list[Path] | None,
              sets: list[str] | None, strategies_file: Path | None = None,
              forbid: list[str] | None = None, role_strategy: list[str] | None = None):
    """Gives (game, rules, setups) for a command line, each setup checked by the game with the
    rules it plays (the run's rules updated by its rule variant's values).

    The presets of --strategies-file ride in the rules (strategies/presets.py); --forbid
    restrictions in the seats' strategy strings (strategies/seats.py)."""
    from sim.counts import parse_counts
    from sim.rules import with_values
    from sim.run.setups import (
        build_setups,
        check_counts_of_sets,
        check_players,
        parse_role_strategies,
        parse_seat_strategies,
        rule_variants,
    )
    from strategies.seats import forbid as restrict

    game = registry.get(name)
    counts = parse_counts("--players", players, functools.partial(check_players, game))
    check_counts_of_sets(game.name, sets or [], counts)
    base, variants = rule_variants(game, [str(c) for c in configs or []], sets or [],
                                   len(counts) * math.prod(len(v) for v in options.values()))
    rules = with_presets(game, base, strategies_file)
    strategy, seats = restrict(strategy, parse_seat_strategies(seat_strategy or []), forbid or [])
    # --forbid NAME (or ROLE:NAME, that role's) restricts the roles' strategies too
    roles = {role: restrict(name, {}, [f for f in forbid or [] if "=" not in f
                                       and f.rpartition(":")[0] in ("", role)])[0]
             for role, name in parse_role_strategies(role_strategy or []).items()}
    setups = build_setups(game, counts, options, strategy, seats, rules, variants, roles)
    for setup in setups:
        game.check(with_values(rules, setup.rule_values()), setup)
    return game, rules, setups


def play(game, rules: dict, setups: list, *, games: int, seed: int | None, workers: int,
         out: Path, quiet: bool, chunk_size: int | None = None, resume: bool = False,
         backend: str = "local", scheduler: str | None = None, until_ci: float | None = None,
         bot_timeout: float = bot_limit.DEFAULT, output_format: str = "table"):
    """Gives the run folder (sim.run.store.Run) after playing `games` games of each setup into
    `out` (or after finishing the run there, with `resume`; its seed is the default seed
    then). The preamble goes to stderr when the summary prints for other tools
    (`output_format` not table)."""
    from sim.run import runner
    from sim.run.store import Run as Store
    from sim.run.store import unstarted

    limits.check_games(games)
    bot_limit.check(bot_timeout)
    if resume and unstarted(out):  # stopped before it began: nothing to continue, start it
        resume = False
    if not resume:
        check_new_out(out)
    seed = seed_of(Store.open(out).manifest["seed"] if resume and seed is None else seed)
    if not quiet:
        variants = len({(s.rules, s.rule_file) for s in setups})
        among = f" ({variants} rule variants)" if variants > 1 else ""
        print(f"{game.title}: {len(setups)} configuration(s){among} × {games:,} games, seed {seed},"
              f" run folder {out}{' (resumed)' if resume else ''}",
              file=sys.stdout if output_format == "table" else sys.stderr)
    with interruptible(out), bot_limit.limit_for_run(bot_timeout):
        return runner.run(game, rules, setups, games, seed, out, workers, chunk_size=chunk_size,
                          resume=resume, progress=not quiet, backend=backend,
                          scheduler=scheduler, until_ci=until_ci)


def with_presets(game, rules: dict, strategies_file: str | Path | None) -> dict:
    """Gives the rules carrying the presets of --strategies-file, if one is given."""
    if strategies_file is None:
        return rules
    from strategies import presets

    return presets.with_presets(rules, presets.load(game, Path(strategies_file)))


def seed_of(seed: int | None) -> int:
    """Gives the user's seed, checked, or a fresh random one."""
    if seed is None:
        return secrets.randbits(63)
    limits.check_seed(seed)
    return seed


def default_out(name: str) -> Path:
    """Gives a new run folder's default path: runs/NAME-DATE-TIME."""
    return Path("runs") / f"{name}-{datetime.now():%Y%m%d-%H%M%S}"


def check_new_out(out: Path) -> None:
    """Raises UserError when --out cannot become a new run folder, saying what it is instead
    (a folder holding only the lock of a run stopped before it began is as good as empty)."""
    from sim.run.store import unstarted

    if out.is_file():
        raise UserError(f"--out {out} is a file; name a folder for the run")
    if out.is_dir() and any(out.iterdir()) and not unstarted(out):
        if (out / "manifest.json").is_file():
            raise UserError(f"{out} already holds a run; choose another --out or continue it "
                            f"with 'simulate resume {out}'")
        raise UserError(f"--out {out} is a folder of other files, not a run; name a new or "
                        "empty folder")


@contextlib.contextmanager
def interruptible(folder: Path) -> Iterator[None]:
    """Turns Ctrl-C during a run into `Interrupted`, which says what became of the run; and
    adds to a failure while playing (a bot's, the disk's, the cluster's) that the games
    finished are kept, and how to continue, when the run folder kept them."""
    started = time.time()

    def kept(cause: str) -> str:
        return (f"{cause}; the finished games are kept: once that is solved, continue with "
                f"'simulate resume {folder}'")

    def said_at_once(line: str, interrupted: bool) -> str:
        # A bot that would not stop ends the process at once: its line says what an
        # interruption or a failure would have said of the run.
        if interrupted:
            return f"{Interrupted(folder)} ({line.removeprefix('interrupted (')}"
        return kept(line) if _written_since(folder, started) else line

    try:
        with bot_limit.before_hard_stop(said_at_once):
            yield
    except KeyboardInterrupt:
        raise Interrupted(folder) from None
    except (UserError, OSError) as e:
        if isinstance(e, OSError) and not e.filename:  # a failed write() names no file
            e.filename = str(folder)
        if not _written_since(folder, started):
            raise
        raise UserError(kept(str(e) if isinstance(e, UserError) else os_error_line(e))) from None


def _written_since(folder: Path, started: float) -> bool:
    """Tells whether the run folder's manifest was written at or after `started`."""
    try:
        return (folder / "manifest.json").stat().st_mtime >= started
    except OSError:
        return False


def _counts(players: int | str | Sequence[int]) -> str:
    """Gives player counts as --players takes them."""
    if isinstance(players, bool):
        raise UserError(f"players must be a count, a list or a range such as '3-10', got {players!r}")
    if isinstance(players, int):
        return str(players)
    if isinstance(players, str):
        return players
    return ",".join(str(n) for n in players)


def _is_sweep(value) -> bool:
    return isinstance(value, (list, tuple, range))


def _literal(value) -> str:
    """Gives a rule value as --set writes it (TOML)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(str(value))


def _sets(rules: Mapping[str, Values] | None) -> list[str]:
    """Gives rules={key: value or [values]} as --set KEY=V or KEY=V1,V2 (a sweep)."""
    sets = []
    for key, value in (rules or {}).items():
        if _is_sweep(value):
            if not value:
                raise UserError(f"rules[{key!r}]: an empty list sweeps nothing")
            sets.append(f"{key}={','.join(_literal(v) for v in value)}")
        else:
            sets.append(f"{key}={_literal(value)}")
    return sets


def _flag_text(value):
    """Gives an option's value as its flag takes it: a list of numbers as "1,2"."""
    if isinstance(value, (list, tuple, range)) and all(isinstance(v, int) for v in value):
        return _counts(value)
    return value


def _paths(config) -> list[Path]:
    if config is None:
        return []
    return [Path(config)] if isinstance(config, (str, Path)) else [Path(c) for c in config]


def game_options(game, given: Mapping[str, object], players: str, configs: Sequence[Path],
                 sets: Sequence[str], sweep: bool = True) -> dict[str, list]:
    """Gives a configuration's options from the values of the game's own flags (its declared
    sim.game.Flag's; None: not given), read against the run's rules where the game needs them
    (the --config file if there is one, the --set keys of one value). UserError for an option
    the game does not take."""
    from sim.game import flags_of, setup_options
    from sim.rules import split_sweeps

    takes = {option.name for option in flags_of(game)}
    wrong = [k for k, v in given.items() if v is not None and k not in takes]
    if wrong:
        raise UserError(f"{game.name} does not take {wrong[0]}")

    def rules() -> dict:
        return game.load_rules(str(configs[0]) if len(configs) == 1 else None,
                               split_sweeps(game.name, list(sets))[0])

    return setup_options(game, {k: v for k, v in given.items() if k in takes}, players, rules,
                         sweep)


def file_sets(game, files: Mapping[str, str | Path | None]) -> list[str]:
    """Gives the --set overrides naming the data files the game's rules take (its declared
    sim.game.RuleFile's, e.g. a board), as TOML strings. UserError for a file the game does
    not take."""
    from sim.game import files_of

    takes = {f.key for f in files_of(game)}
    named = [(key, path) for key, path in files.items() if path is not None]
    wrong = [key for key, _ in named if key not in takes]
    if wrong:
        raise UserError(f"{game.name} does not take {wrong[0]}")
    return [f"{key}={json.dumps(str(path))}" for key, path in named]
