"""The Python API: what the `simulate` command does, for notebooks and scripts.

    from sim import api

    run = api.run("saboteur", players="5,7", games=2_000, seed=1)
    run.summary()                   # one row per configuration, with 95% intervals
    run.table("seats")              # a polars DataFrame, labels joined
    api.report(run)                 # report.md, report.html and charts; gives the folder
    duel = api.compare("saboteur", ["default", "covert-saboteurs"], players=7, games=2_000)
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
from typing import TYPE_CHECKING

from sim import games as registry
from sim.run import limits
from sim.errors import UserError, os_error_line
from strategies import bot_timeout as bot_limit

if TYPE_CHECKING:  # polars is imported where a table is read: `simulate --help` does not wait for it
    import polars as pl

__all__ = ["Run", "Comparison", "UserError", "compare", "games", "open_run", "report", "resume",
           "rule_keys", "run", "strategies"]

Values = object | Sequence  # one value, or a list of values to sweep


class Interrupted(Exception):
    """Ctrl-C stopped a run: the message says whether and how it can be resumed."""

    def __init__(self, folder: Path):
        if (folder / "manifest.json").exists():
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
        """The game's name, e.g. "saboteur"."""
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
        roles = getattr(getattr(registry.get(self.game), "bots", None), "roles", ())
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
        saboteurs: int | Sequence[int] | None = None, reaction: str | None = None,
        reaction_profile: str | None = None, board: str | Path | None = None,
        deck: str | Path | None = None, workers: int | None = None,
        out: str | Path | None = None, until_ci: float | None = None,
        backend: str = "local", scheduler: str | None = None,
        bot_timeout: float = bot_limit.DEFAULT, quiet: bool = False) -> Run:
    """Plays `games` games of every configuration asked for into a new run folder; gives it.

    players: 7, "5,7", "3-10" or a list. rules: rule keys (`rule_keys(game)`) to values; a
    list of values sweeps the key (one rule variant per value, all on the same deals), e.g.
    {"hand_size.7": [5, 6]}. config: a rules TOML file, or several (one variant each).
    strategy: every seat's (a built-in, a preset of `strategies_file`, or
    "path/to/file.py:Class"); seats: {seat: strategy} for some seats; role_strategies:
    {role: strategy}, e.g. {"miner": "search"}: whichever seat holds the role plays it, round
    by round (a role not named plays `strategy`). forbid: "rockfall",
    "2=rockfall" or "miner:break". Game options: saboteurs (Saboteur: fixed number in play;
    a list sweeps), reaction and reaction_profile (Spit, Speed), board and deck (Deep Space).
    workers: processes (default: every core). out: the run folder (default
    runs/GAME-DATE-TIME). until_ci: stop each configuration once its headline's 95% interval
    is this narrow (half-width). quiet: no line saying what plays and no progress bar (shown
    on a terminal and in a notebook, the first compile of a game's engine included).
    """
    found = registry.get(game)
    options = _options(found, players, saboteurs, reaction, reaction_profile, config, rules)
    sets = _sets(rules) + _board_and_deck(found, board, deck)
    found, ruled, setups = configure(found.name, _counts(players), options, strategy,
                                     [f"{k}={v}" for k, v in (seats or {}).items()],
                                     _paths(config), sets, strategies_file, list(forbid),
                                     [f"{k}={v}" for k, v in (role_strategies or {}).items()])
    return Run(play(found, ruled, setups, games=games, seed=seed,
                    workers=workers or os.cpu_count() or 1,
                    out=Path(out) if out is not None else default_out(found.name),
                    quiet=quiet, backend=backend, scheduler=scheduler,
                    until_ci=until_ci, bot_timeout=bot_timeout))


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
           allow_partial: bool = False) -> Path:
    """Writes the balance report of one or more runs (report.md, report.html, charts) and
    gives its folder (default: RUN/report of the first run)."""
    import io

    from rich.console import Console

    from reports.report import write_report

    if not runs:
        raise UserError("report() needs at least one run")
    paths = [r.path if isinstance(r, Run) else Path(r) for r in runs]
    return write_report(paths, Path(out) if out is not None else None,
                        Console(file=io.StringIO()), allow_partial)


def compare(game: str, strategies: Sequence[str], *, players: int | str | Sequence[int],
            games: int = 10_000, seed: int | None = None, rules: Mapping[str, object] | None = None,
            config: str | Path | None = None, forbid: Sequence[str] = (),
            strategies_file: str | Path | None = None, workers: int | None = None,
            out: str | Path | None = None, backend: str = "local",
            scheduler: str | None = None, bot_timeout: float = bot_limit.DEFAULT,
            quiet: bool = False, role_strategies: Mapping[str, str] | None = None
            ) -> Comparison:
    """Plays `strategies` against each other on the same deals, each in every seat, at each
    player count of `players`; gives the comparison (head-to-head, ranking) and writes its
    report into RUN/compare/. forbid: "rockfall" (every strategy) or "STRATEGY=rockfall".
    role_strategies: {role: strategy} played whichever seat holds the role; the strategies
    compared play the roles left open. quiet: no line saying what plays, no progress bar."""
    from reports.compare import print_comparison
    from sim.studies.compare import plan
    from sim.counts import parse_counts
    from sim.run.setups import check_counts_of_sets, check_players
    from strategies.seats import forbid_strategies

    found = registry.get(game)
    if isinstance(strategies, str):
        strategies = strategies.split(",")
    sweeps = [k for k, v in (rules or {}).items() if _is_sweep(v)]
    if sweeps:
        raise UserError(f"compare plays one set of rules: give {sweeps[0]} one value")
    counts = parse_counts("--players", _counts(players), functools.partial(check_players, found))
    check_counts_of_sets(found.name, _sets(rules), counts)
    ruled = with_presets(found, found.load_rules(str(config) if config else None, _sets(rules)),
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
                      bot_timeout=bot_timeout))
    import io

    from rich.console import Console

    folder = print_comparison(played._store, Console(file=io.StringIO()))
    return Comparison(played, folder)


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
    try:
        yield
    except KeyboardInterrupt:
        raise Interrupted(folder) from None
    except (UserError, OSError) as e:
        if isinstance(e, OSError) and not e.filename:  # a failed write() names no file
            e.filename = str(folder)
        if not _written_since(folder, started):
            raise
        cause = str(e) if isinstance(e, UserError) else os_error_line(e)
        raise UserError(f"{cause}; the finished games are kept: once that is solved, continue "
                        f"with 'simulate resume {folder}'") from None


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


def _paths(config) -> list[Path]:
    if config is None:
        return []
    return [Path(config)] if isinstance(config, (str, Path)) else [Path(c) for c in config]


def _options(game, players, saboteurs, reaction, reaction_profile, config, rules) -> dict:
    """Gives the game options of `run` as the game's command builds them; UserError for an
    option the game does not take."""
    given = {"saboteurs": saboteurs, "reaction": reaction, "reaction_profile": reaction_profile}
    takes = {"saboteur": {"saboteurs"}, "spit": {"reaction", "reaction_profile"},
             "speed": {"reaction", "reaction_profile"}}.get(game.name, set())
    wrong = [k for k, v in given.items() if v is not None and k not in takes]
    if wrong:
        raise UserError(f"{game.name} does not take {wrong[0]}")
    if game.name == "saboteur":
        from sim.counts import parse_counts

        text = _counts(saboteurs) if saboteurs is not None else None
        return {"saboteurs": parse_counts("--saboteurs", text) if text else [None]}
    if game.name in ("spit", "speed"):
        from sim.rules import split_sweeps
        from sim.games.spit.reaction import flag_options

        configs = _paths(config)
        return flag_options(game.name, _counts(players), reaction, reaction_profile,
                            str(configs[0]) if len(configs) == 1 else None,
                            split_sweeps(game.name, _sets(rules))[0], True)
    return {}


def _board_and_deck(game, board, deck) -> list[str]:
    """Gives the --set overrides naming Deep Space's board and deck files."""
    named = [(key, path) for key, path in (("board", board), ("deck", deck)) if path is not None]
    if named and game.name != "deep-space":
        raise UserError(f"{game.name} does not take {named[0][0]}")
    return [f"{key}={json.dumps(str(path))}" for key, path in named]
