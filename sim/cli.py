"""The `simulate` command: one subcommand per game, plus trace, bench, resume, report, compare.

A game's commands are thin: they turn the game's own flags into setup options and hand over
to the shared `_run_game`, `_trace_game` and `_bench_game`. Modules that import polars or
numba are imported inside those helpers so that `simulate --help` answers at once.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import inspect
import math
import os
import secrets
import signal
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Annotated, Callable, Iterator

import typer
# typer carries its own click; its usage errors are raised from there.
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer._click.utils import PacifyFlushWrapper

from sim import games as registry
from sim import limits
from sim.errors import Interruption, UserError, os_error_line
from strategies import bot_timeout as bot_limit

app = typer.Typer(
    help="Monte Carlo balance simulator for tabletop games. "
         f"Games: {', '.join(registry.names())} ('simulate games' shows their player counts).",
    no_args_is_help=True,
    add_completion=False,
)
trace_app = typer.Typer(help="Print one game move by move.", no_args_is_help=True)
bench_app = typer.Typer(help="Measure how fast a game plays.", no_args_is_help=True)
app.add_typer(trace_app, name="trace")
app.add_typer(bench_app, name="bench")

# The flags every game's commands share.
Players = Annotated[str, typer.Option(help="Player counts: 7, a list 5,7 or a range 3-10.")]
Games = Annotated[int, typer.Option(help="Games per configuration.")]
Seed = Annotated[int | None, typer.Option(help="Run seed (default: a fresh random one).")]
Workers = Annotated[int, typer.Option(help="Worker processes (default: all cores).")]
def _folder(text: str) -> Path:
    """Gives the folder a flag names; an empty name (which a Path reads as '.') is refused."""
    if not text.strip():
        raise typer.BadParameter("an empty name is no folder")
    return Path(text)


Out = Annotated[Path | None, typer.Option(help="Run folder (default: runs/<game>-<time>).",
                                          parser=_folder)]
Strategy = Annotated[str, typer.Option(help="Strategy of every seat.")]
SeatStrategies = Annotated[list[str] | None, typer.Option(
    "--seat-strategy", help="SEAT=NAME: another strategy for one seat (seats count from 0).")]
Config = Annotated[Path | None, typer.Option(help="TOML file of rule changes.")]
Configs = Annotated[list[Path] | None, typer.Option(
    "--config", help="TOML file of rule changes; repeated, one rule variant per file (named by "
                     "the file's name).")]
Sets = Annotated[list[str] | None, typer.Option(
    "--set", help="KEY=VALUE rule change, e.g. hand_size.7=6 ('simulate rules GAME' lists the "
                  "keys); a list 5,6 or a range 3-8 sweeps the rule.")]
OneValueSets = Annotated[list[str] | None, typer.Option(
    "--set", help="KEY=VALUE rule change, e.g. hand_size.7=6 ('simulate rules GAME' lists the "
                  "keys).")]
Quiet = Annotated[bool, typer.Option(help="No progress bar and no preamble.")]
StrategiesFile = Annotated[Path | None, typer.Option(
    help="TOML file of strategy presets ([preset.NAME] family = ..., parameters); "
         "'simulate strategies GAME' lists families and parameters.")]
Forbid = Annotated[list[str] | None, typer.Option(
    "--forbid", help="NAME or SEAT=NAME (repeatable): every seat, or one seat, never plays that "
                     "card or action, e.g. rockfall ('simulate strategies GAME' lists them).")]
ChunkSize = Annotated[int | None, typer.Option(hidden=True, help="Games per chunk.")]
Resume = Annotated[bool, typer.Option(
    "--resume", help="Continue the interrupted run in --out (same parameters): play only its missing games.")]
Backend = Annotated[str, typer.Option(help="Where games run: local (worker processes) or dask.")]
Scheduler = Annotated[str | None, typer.Option(
    help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (default: a local cluster).")]
BotTimeout = Annotated[float, typer.Option(
    help="Seconds a Python strategy may take for one move before the run stops (0: no limit).")]
OutputFormat = Annotated[str, typer.Option(
    "--format", help="How the summary prints: table (for a terminal), or csv, json or markdown "
                     "(for other tools; the run's other lines then go to stderr).")]
UntilCi = Annotated[float | None, typer.Option(
    help="Stop a configuration once its headline rate's 95% interval is at most ± this "
         "(e.g. 0.005); --games is then the most games per configuration.")]


class Interrupted(Exception):
    """Ctrl-C stopped a run: the message says whether and how it can be resumed."""

    def __init__(self, folder: Path):
        if (folder / "manifest.json").exists():
            super().__init__(f"interrupted: finished games are kept; continue with"
                             f" 'simulate resume {folder}'")
        else:
            super().__init__("interrupted before any game finished; nothing was kept")


def main() -> None:
    """Runs the `simulate` command line: user errors end in one line and exit code 2."""
    # Ctrl-C and `kill` stop a run alike, as an Interruption: a bot raising KeyboardInterrupt
    # is then told apart from the user's.
    previous = {signum: signal.signal(signum, _stop) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        code = app(standalone_mode=False, prog_name="simulate")
    except NoArgsIsHelpError as e:
        e.show()
        code = e.exit_code
    except UsageError as e:  # also a flag's bad value (BadParameter), an unknown command
        _fail(f"error: {_usage_line(e)}", 2)
    except typer.TyperException as e:
        _fail(f"error: {_one_line(e.format_message())}", 2)
    except typer.Abort:
        _fail("interrupted", 130)
    except UserError as e:
        _fail(f"error: {e}", 2)
    except Interrupted as e:
        _fail(str(e), 130)
    except OSError as e:
        if e.errno == errno.EPIPE:  # a reader such as `head` stopped reading: not an error
            sys.stderr = PacifyFlushWrapper(sys.stderr)
            sys.stdout = PacifyFlushWrapper(sys.stdout)
            sys.exit(1)
        _fail(f"error: {os_error_line(e)}", 2)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if code == 130:  # typer's answer to Ctrl-C outside a run
        _fail("interrupted", 130)
    sys.exit(code or 0)


def _usage_line(error: UsageError) -> str:
    """Gives click's complaint about a command line in one line, pointing at the command's help."""
    path = error.ctx.command_path if error.ctx else "simulate"
    return f"{_one_line(error.format_message()).rstrip('.')} (see '{path} --help')"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _stop(signum, frame) -> None:
    raise Interruption


def _fail(message: str, code: int) -> None:
    print(message, file=sys.stderr)
    sys.exit(code)


@app.command("games")
def list_games() -> None:
    """List the games and their player counts."""
    for name in registry.names():
        game = registry.get(name)
        counts = (f"{game.min_players}" if game.min_players == game.max_players
                  else f"{game.min_players}–{game.max_players}")
        print(f"{name:<16} {game.title:<20} {counts} players")


def _with(shared: Callable) -> Callable:
    """Gives a decorator adding the flags `shared` declares (those every game's command of a kind
    takes) to a command's own flags: typer sees one signature, and the command receives the
    shared flags in its **kwargs."""
    extra = list(inspect.signature(shared, eval_str=True).parameters.values())

    def decorate(command: Callable) -> Callable:
        own = [p for p in inspect.signature(command, eval_str=True).parameters.values()
               if p.kind is not p.VAR_KEYWORD]
        params = [p.replace(kind=p.KEYWORD_ONLY) for p in own + extra]

        @functools.wraps(command)
        def with_shared(**flags):
            return command(**flags)

        with_shared.__signature__ = inspect.Signature(params, return_annotation=None)
        with_shared.__annotations__ = {p.name: p.annotation for p in params}
        return with_shared

    return decorate


def _run_flags(
    games: Games = 10_000,
    seed: Seed = None,
    workers: Workers = os.cpu_count() or 1,
    out: Out = None,
    strategy: Strategy = "default",
    seat_strategy: SeatStrategies = None,
    config: Configs = None,
    sets: Sets = None,
    strategies_file: StrategiesFile = None,
    forbid: Forbid = None,
    quiet: Quiet = False,
    resume: Resume = False,
    backend: Backend = "local",
    scheduler: Scheduler = None,
    until_ci: UntilCi = None,
    bot_timeout: BotTimeout = bot_limit.DEFAULT,
    output_format: OutputFormat = "table",
    chunk_size: ChunkSize = None,
) -> None:
    """The flags of every game's run command."""


def _trace_flags(
    seed: Seed = None,
    game_index: Annotated[int, typer.Option(help="Which game of the seed to show.")] = 0,
    strategy: Strategy = "default",
    seat_strategy: SeatStrategies = None,
    config: Config = None,
    sets: OneValueSets = None,
    strategies_file: StrategiesFile = None,
    forbid: Forbid = None,
    bot_timeout: BotTimeout = bot_limit.DEFAULT,
) -> None:
    """The flags of every game's trace command."""


def _bench_flags(
    strategies: Annotated[str, typer.Option(help="Strategies to time, comma-separated.")] = "random,default",
    games: Annotated[int, typer.Option(help="Games per measurement.")] = 20_000,
    memory_games: Annotated[int, typer.Option(help="Games of a run measured for peak memory (0: skip).")] = 0,
    dask: Annotated[bool, typer.Option(
        "--dask", help="Also time the scaling run on a 2-worker Dask LocalCluster.")] = False,
    repeat: Annotated[int, typer.Option(help="Timings per measurement (the median is shown).")] = 3,
) -> None:
    """The flags of every game's bench command."""


def _scaling(default: int):
    return Annotated[int, typer.Option(
        help=f"Games of the runs timed with 1 and with 2 worker processes (0: skip; default {default:,}).")]


PlayerCount = Annotated[int, typer.Option(help="Player count.")]


@app.command()
@_with(_run_flags)
def saboteur(
    players: Players,
    saboteurs: Annotated[str | None, typer.Option(
        help="Saboteurs in play: 2, a list 1,2 or a range 1-3 (default: dealt from role cards).")] = None,
    **run,
) -> None:
    """Play Saboteur games for every configuration asked for and summarise them."""
    from sim.setups import parse_counts

    _run_game("saboteur", players=players,
              options={"saboteurs": parse_counts("--saboteurs", saboteurs) if saboteurs else [None]},
              **run)


@trace_app.command("saboteur")
@_with(_trace_flags)
def trace_saboteur(
    players: PlayerCount,
    saboteurs: Annotated[int | None, typer.Option(help="Saboteurs in play (default: dealt).")] = None,
    **trace,
) -> None:
    """Print one Saboteur game move by move."""
    _trace_game("saboteur", players=players, options={"saboteurs": saboteurs}, **trace)


@bench_app.command("saboteur")
@_with(_bench_flags)
def bench_saboteur(
    players: Annotated[str | None, typer.Option(help="Player counts (default: 3,7,10).")] = None,
    scaling_games: _scaling(1_000_000) = 1_000_000,
    **bench,
) -> None:
    """Measure Saboteur's speed per core, worker scaling and memory."""
    _bench_game("saboteur", players=players, scaling_games=scaling_games, **bench)


# Spit and Speed: two players, no turns; each seat's reaction time decides when it moves.
TwoPlayers = Annotated[str, typer.Option(help="Player count: 2 (the only one these games take).")]
Reaction = Annotated[list[str] | None, typer.Option(
    "--reaction", help="SEAT=MEAN[:SPREAD] or SEAT=PROFILE: a seat's reaction time (mean seconds; "
                       "spread = sigma of log-seconds, default the profile's). A list sweeps: "
                       "1=0.6,0.8,1.0. Repeatable, once per seat.")]
ReactionProfile = Annotated[str | None, typer.Option(
    help="Reaction profile of every seat: novice, club, expert (default: the rules' reaction.profile); "
         "a list sweeps every combination.")]


def _realtime_options(name, players, reaction, profile, configs, sets, sweep=True) -> dict:
    """Gives the reaction options; the reaction profiles they name come from the run's rules
    (the --config file if there is one, the --set keys of one value)."""
    from sim.rules import split_sweeps
    from sim.spit.reaction import flag_options

    configs = configs if isinstance(configs, list) else [configs] if configs else []
    return flag_options(name, players, reaction, profile,
                        str(configs[0]) if len(configs) == 1 else None,
                        split_sweeps(name, sets or [])[0], sweep)


def _realtime_commands(name: str, title: str, race: str) -> None:
    """Registers the run, trace and bench commands of a real-time game (Spit, Speed): the same
    flags, the game named in each."""

    @app.command(name, help=f"Play {title} games ({race}) and summarise them.")
    @_with(_run_flags)
    def run_realtime(players: TwoPlayers = "2", reaction: Reaction = None,
                     reaction_profile: ReactionProfile = None, **run) -> None:
        _run_game(name, players=players, options=_realtime_options(
            name, players, reaction, reaction_profile, run["config"], run["sets"]), **run)

    @trace_app.command(name, help=f"Print one {title} game event by event, with simulated "
                                  "timestamps.")
    @_with(_trace_flags)
    def trace_realtime(players: TwoPlayers = "2", reaction: Reaction = None,
                       reaction_profile: ReactionProfile = None, **trace) -> None:
        options = _realtime_options(name, players, reaction, reaction_profile, trace["config"],
                                    trace["sets"], False)
        _trace_game(name, players=2, options={k: v[0] for k, v in options.items()}, **trace)

    @bench_app.command(name, help=f"Measure {title}'s speed per core, worker scaling and memory.")
    @_with(_bench_flags)
    def bench_realtime(scaling_games: _scaling(200_000) = 200_000, **bench) -> None:
        _bench_game(name, players="2", scaling_games=scaling_games, **bench)


_realtime_commands("spit", "Spit", "two players race to play out their cards")
_realtime_commands("speed", "Speed", "two players race to empty their hands")


@app.command()
def resume(
    run: Annotated[Path, typer.Argument(help="The run folder to finish.")],
    workers: Workers = os.cpu_count() or 1,
    backend: Backend = "local",
    scheduler: Scheduler = None,
    quiet: Quiet = False,
    bot_timeout: BotTimeout = bot_limit.DEFAULT,
    output_format: OutputFormat = "table",
) -> None:
    """Finish an interrupted run: play the games it is missing, then summarise it."""
    from reports.render import check_table_format
    from sim import runner
    from sim.store import Run

    check_table_format(output_format)
    stored = Run.open(run)
    manifest = stored.manifest
    game = registry.get(stored.game)
    with _interruptible(run), bot_limit.limit_for_run(bot_timeout):
        finished = runner.run(game, manifest["rules"], stored.setups, manifest["games_per_setup"],
                              manifest["seed"], run, workers, resume=True, progress=not quiet,
                              backend=backend, scheduler=scheduler,
                              until_ci=manifest.get("until_ci"))
    _print_summary(finished, output_format)


# Deep Space: the board and the action deck are data files, given by name in the rules.
Board = Annotated[Path | None, typer.Option(
    help="Board TOML file (default: the stand-in configs/deep_space/board.toml).")]
Deck = Annotated[Path | None, typer.Option(
    help="Action deck TOML file (default: the stand-in configs/deep_space/deck.toml).")]


def _board_and_deck(sets: list[str] | None, board: Path | None, deck: Path | None) -> list[str]:
    """Gives the --set overrides naming the board and deck files (TOML strings, quoted)."""
    import json

    named = [f"{key}={json.dumps(str(path))}" for key, path in (("board", board), ("deck", deck))
             if path is not None]
    return [*(sets or []), *named]


@app.command("deep-space")
@_with(_run_flags)
def deep_space(players: Players, board: Board = None, deck: Deck = None, **run) -> None:
    """Play Deep Space games (a race to build bases on a map of planets) and summarise them."""
    _run_game("deep-space", players=players, options={},
              **{**run, "sets": _board_and_deck(run["sets"], board, deck)})


@trace_app.command("deep-space")
@_with(_trace_flags)
def trace_deep_space(players: PlayerCount, board: Board = None, deck: Deck = None,
                     **trace) -> None:
    """Print one Deep Space game turn by turn."""
    _trace_game("deep-space", players=players, options={},
                **{**trace, "sets": _board_and_deck(trace["sets"], board, deck)})


@bench_app.command("deep-space")
@_with(_bench_flags)
def bench_deep_space(
    players: Annotated[str | None, typer.Option(help="Player counts (default: 2,4).")] = None,
    scaling_games: _scaling(1_000_000) = 1_000_000,
    **bench,
) -> None:
    """Measure Deep Space's speed per core, worker scaling and memory."""
    _bench_game("deep-space", players=players, scaling_games=scaling_games, **bench)


@app.command("sequence-stacks")
@_with(_run_flags)
def sequence_stacks(players: Players, **run) -> None:
    """Play Sequence Stacks games (a race for red and blue chips) and summarise them."""
    _run_game("sequence-stacks", players=players, options={}, **run)


@trace_app.command("sequence-stacks")
@_with(_trace_flags)
def trace_sequence_stacks(players: PlayerCount, **trace) -> None:
    """Print one Sequence Stacks game move by move."""
    _trace_game("sequence-stacks", players=players, options={}, **trace)


@bench_app.command("sequence-stacks")
@_with(_bench_flags)
def bench_sequence_stacks(
    players: Annotated[str | None, typer.Option(help="Player counts (default: 2,4,6).")] = "2,4,6",
    scaling_games: _scaling(1_000_000) = 1_000_000,
    **bench,
) -> None:
    """Measure Sequence Stacks' speed per core, worker scaling and memory."""
    _bench_game("sequence-stacks", players=players, scaling_games=scaling_games, **bench)


@app.command()
def report(
    runs: Annotated[list[Path], typer.Argument(help="Run folders (of one game) to report on.")],
    out: Annotated[Path | None, typer.Option(help="Report folder (default: RUN/report).")] = None,
    allow_partial: Annotated[bool, typer.Option(
        "--allow-partial", help="Report a run that is not whole (interrupted, a chunk missing or "
                                "damaged) on the games it holds, with a warning.")] = False,
    formats: Annotated[str, typer.Option(
        "--format", help="Chart formats beside the PNGs (svg, pdf) and how the key tables print "
                         "(table, or csv, json, markdown for other tools), comma-separated: "
                         "e.g. png,svg,pdf or svg,csv.")] = "png,table",
    dpi: Annotated[int, typer.Option(help="Resolution of the PNG charts.")] = 200,
) -> None:
    """Write a balance report (Markdown, HTML and charts) of one or more runs."""
    from reports.report import write_report

    try:
        write_report(runs, out, allow_partial=allow_partial, formats=formats, dpi=dpi)
    except OSError as e:
        if not e.filename:  # a failed write() names no file
            e.filename = str(out or runs[0] / "report")
        raise


@app.command()
def compare(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game, e.g. saboteur.")],
    strategies: Annotated[str, typer.Option(help="Strategies to compare: a,b[,c...].")],
    players: Annotated[int, typer.Option(help="Player count.")],
    games: Games = 10_000,
    seed: Seed = None,
    workers: Workers = os.cpu_count() or 1,
    out: Out = None,
    config: Config = None,
    sets: OneValueSets = None,
    quiet: Quiet = False,
    backend: Backend = "local",
    scheduler: Scheduler = None,
    strategies_file: StrategiesFile = None,
    forbid: Annotated[list[str] | None, typer.Option(
        "--forbid", help="NAME (every strategy) or STRATEGY=NAME (one of --strategies), "
                         "repeatable: never play that card or action. Or compare "
                         "default,default-no-rockfall directly.")] = None,
    bot_timeout: BotTimeout = bot_limit.DEFAULT,
    output_format: OutputFormat = "table",
) -> None:
    """Play strategies against each other on the same deals, in every seat, and compare them."""
    from reports.compare import print_comparison
    from reports.render import check_table_format
    from sim.compare import plan
    from sim.rules import split_sweeps
    from strategies.seats import forbid_strategies

    check_table_format(output_format)
    game = registry.get(game_name)
    if split_sweeps(game.name, sets or [])[1]:
        raise UserError("compare plays one set of rules: give each --set one value")
    rules = _with_presets(game, game.load_rules(str(config) if config else None, sets or []),
                          strategies_file)
    setups = plan(game, forbid_strategies(strategies.split(","), forbid or []), players, {}, rules)
    for setup in setups:
        game.check(rules, setup)
    run = _play(game, rules, setups, games=games, seed=seed, workers=workers,
                out=out or _default_out(f"{game_name}-compare"), quiet=quiet, backend=backend,
                scheduler=scheduler, bot_timeout=bot_timeout, output_format=output_format)
    print_comparison(run, fmt=output_format)


def _run_game(name: str, *, players: str, options: dict[str, list], games: int, seed: int | None,
              workers: int, out: Path | None, strategy: str, seat_strategy: list[str] | None,
              config: list[Path] | None, sets: list[str] | None, quiet: bool,
              chunk_size: int | None, resume: bool, backend: str, scheduler: str | None,
              until_ci: float | None, strategies_file: Path | None,
              forbid: list[str] | None, bot_timeout: float, output_format: str) -> None:
    """Plays every configuration of a game's sweep into one run folder and prints the summary."""
    from reports.render import check_table_format

    check_table_format(output_format)
    game, rules, setups = _configure(name, players, options, strategy, seat_strategy, config, sets,
                                     strategies_file, forbid)
    if resume and out is None:
        raise UserError("--resume needs --out: the run folder to continue")
    run = _play(game, rules, setups, games=games, seed=seed, workers=workers,
                out=out or _default_out(name), quiet=quiet, chunk_size=chunk_size, resume=resume,
                backend=backend, scheduler=scheduler, until_ci=until_ci, bot_timeout=bot_timeout,
                output_format=output_format)
    _print_summary(run, output_format)


def _play(game, rules: dict, setups: list, *, games: int, seed: int | None, workers: int,
          out: Path, quiet: bool, chunk_size: int | None = None, resume: bool = False,
          backend: str = "local", scheduler: str | None = None, until_ci: float | None = None,
          bot_timeout: float = bot_limit.DEFAULT, output_format: str = "table"):
    """Gives the run folder after playing `games` games of each setup into `out` (or after
    finishing the run there, with `resume`; its seed is the default seed then). The preamble
    goes to stderr when the summary prints for other tools (`output_format` not table)."""
    from sim import runner
    from sim.store import Run

    limits.check_games(games)
    bot_limit.check(bot_timeout)
    if not resume:
        _check_new_out(out)
    seed = _seed(Run.open(out).manifest["seed"] if resume and seed is None else seed)
    if not quiet:
        variants = len({(s.rules, s.rule_file) for s in setups})
        among = f" ({variants} rule variants)" if variants > 1 else ""
        print(f"{game.title}: {len(setups)} configuration(s){among} × {games:,} games, seed {seed},"
              f" run folder {out}{' (resumed)' if resume else ''}",
              file=sys.stdout if output_format == "table" else sys.stderr)
    with _interruptible(out), bot_limit.limit_for_run(bot_timeout):
        return runner.run(game, rules, setups, games, seed, out, workers, chunk_size=chunk_size,
                          resume=resume, progress=not quiet, backend=backend,
                          scheduler=scheduler, until_ci=until_ci)


def _default_out(name: str) -> Path:
    return Path("runs") / f"{name}-{datetime.now():%Y%m%d-%H%M%S}"


def _trace_game(name: str, *, players: int, options: dict, seed: int | None, game_index: int,
                strategy: str, seat_strategy: list[str] | None, config: Path | None,
                sets: list[str] | None, strategies_file: Path | None,
                forbid: list[str] | None, bot_timeout: float) -> None:
    """Prints one game of a game's configuration move by move."""
    limits.check_game_index(game_index)
    bot_limit.check(bot_timeout)
    game, rules, setups = _configure(name, str(players), {k: [v] for k, v in options.items()},
                                     strategy, seat_strategy, [config] if config else [], sets,
                                     strategies_file, forbid)
    if len(setups) > 1:
        raise UserError("a trace shows one game: give each --set one value")
    drawn = seed is None
    seed = _seed(seed)
    if drawn:
        print(f"seed {seed}", file=sys.stderr)  # the one thing needed to show this game again
    with bot_limit.limit_for_run(bot_timeout):
        game.trace(rules, setups[0], seed, game_index, sys.stdout)


def _bench_game(name: str, *, players: str | None, strategies: str, games: int,
                scaling_games: int, memory_games: int, repeat: int, dask: bool) -> None:
    """Prints a game's benchmark table."""
    from rich.console import Console

    from sim.bench import bench
    from sim.setups import build_setups, check_players, parse_counts

    if games < 1 or repeat < 1 or memory_games < 0 or scaling_games < 0:
        raise UserError("--games and --repeat must be at least 1, --memory-games and "
                        "--scaling-games at least 0")
    game = registry.get(name)
    rules = game.load_rules(None, [])
    names = [s.strip() for s in strategies.split(",") if s.strip()]
    counts = (parse_counts("--players", players, functools.partial(check_players, game)) if players
              else sorted({game.min_players, min(7, game.max_players), game.max_players}))
    if not names:
        raise UserError("--strategies names no strategy")
    # Validates the counts and the names; a Python strategy's file is made absolute.
    names = [build_setups(game, counts, {}, strategy, {})[0].seats[0] for strategy in names]
    bench(game, rules, counts, names, games, repeat, scaling_games, memory_games, Console(), dask)


def _configure(name: str, players: str, options: dict[str, list], strategy: str,
               seat_strategy: list[str] | None, configs: list[Path] | None,
               sets: list[str] | None, strategies_file: Path | None = None,
               forbid: list[str] | None = None):
    """Gives (game, rules, setups) for a command line, each setup checked by the game with the
    rules it plays (the run's rules updated by its rule variant's values).

    The presets of --strategies-file ride in the rules (strategies/presets.py); --forbid
    restrictions in the seats' strategy strings (strategies/seats.py)."""
    from sim.rules import with_values
    from sim.setups import (build_setups, check_players, parse_counts, parse_seat_strategies,
                            rule_variants)
    from strategies.seats import forbid as restrict

    game = registry.get(name)
    counts = parse_counts("--players", players, functools.partial(check_players, game))
    base, variants = rule_variants(game, [str(c) for c in configs or []], sets or [],
                                   len(counts) * math.prod(len(v) for v in options.values()))
    rules = _with_presets(game, base, strategies_file)
    strategy, seats = restrict(strategy, parse_seat_strategies(seat_strategy or []), forbid or [])
    setups = build_setups(game, counts, options, strategy, seats, rules, variants)
    for setup in setups:
        game.check(with_values(rules, setup.rule_values()), setup)
    return game, rules, setups


def _with_presets(game, rules: dict, strategies_file: Path | None) -> dict:
    """Gives the rules carrying the presets of --strategies-file, if one is given."""
    if strategies_file is None:
        return rules
    from strategies import presets

    return presets.with_presets(rules, presets.load(game, strategies_file))


@app.command("strategies")
def list_strategies(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game, e.g. saboteur.")],
    strategies_file: StrategiesFile = None,
) -> None:
    """List a game's bot families with their parameters, its presets, and what --forbid takes."""
    from strategies import presets

    game = registry.get(game_name)
    print(presets.describe(game, _with_presets(game, game.load_rules(None, []), strategies_file)))


@app.command("rules")
def list_rules(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game, e.g. saboteur.")],
) -> None:
    """List a game's rule keys with their defaults, what they take and their meaning: what --set
    and --config take."""
    from sim.rule_keys import describe

    print(describe(game_name, registry.get(game_name).title))


def _seed(seed: int | None) -> int:
    """Gives the user's seed, checked, or a fresh random one."""
    if seed is None:
        return secrets.randbits(63)
    limits.check_seed(seed)
    return seed


def _check_new_out(out: Path) -> None:
    """Raises UserError when --out cannot become a new run folder, saying what it is instead."""
    if out.is_file():
        raise UserError(f"--out {out} is a file; name a folder for the run")
    if out.is_dir() and any(out.iterdir()):
        if (out / "manifest.json").is_file():
            raise UserError(f"{out} already holds a run; choose another --out or continue it "
                            f"with 'simulate resume {out}'")
        raise UserError(f"--out {out} is a folder of other files, not a run; name a new or "
                        "empty folder")


@contextlib.contextmanager
def _interruptible(folder: Path) -> Iterator[None]:
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


def _print_summary(run, output_format: str = "table") -> None:
    from reports.summary import print_summary

    print_summary(run, fmt=output_format)


if __name__ == "__main__":
    main()
