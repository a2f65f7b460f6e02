"""The `simulate` command: one subcommand per game, plus trace, bench, resume, report, compare.

Every game's run, trace and bench commands are built from what the game declares (sim/game.py:
its own flags, data files, roles, whether a move can be forbidden, bench's defaults) when the
command is used, the built-in games' as any plugin's; each parses its flags and hands over to
sim.api, which checks them. Modules that import polars or numba (a game's included) are
imported inside the commands so that `simulate --help` answers at once.
"""

from __future__ import annotations

import os
import signal
import threading


def _stopped_loading(signum, frame) -> None:
    """Ends the command stopped (Ctrl-C, `kill`) while its modules load, before main() handles
    signals: one line and 130 or 143, not a traceback of whatever was importing."""
    os.write(2, b"interrupted\n")
    os._exit(128 + signum)


# The handlers in force before loading, put back once loaded (main() sets its own).
_LOADING = ({signum: signal.signal(signum, _stopped_loading)
             for signum in (signal.SIGINT, signal.SIGTERM)}
            if threading.current_thread() is threading.main_thread() else {})

import atexit  # noqa: E402 - below: what the handler above covers
import difflib
import errno
import gc
import inspect
import sys
from pathlib import Path
from typing import Annotated, Callable

import typer

# typer carries its own click; its usage errors are raised from there.
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer._click.utils import PacifyFlushWrapper
from typer.core import TyperCommand, TyperGroup

from sim import games as registry
from sim.api import Interrupted
from sim.api import with_presets as _with_presets
from sim.errors import Interruption, UserError, os_error_line
from strategies import bot_timeout as bot_limit

# ---- each game's run, trace and bench commands, built from what the game declares -------------

class _GameCommands(TyperGroup):
    """A group holding, besides its own commands, one command per installed game, built from
    the game's declarations (sim/game.py) when it is used: listing them (`simulate --help`)
    imports no game, nor its engine."""

    kind: str  # run, trace or bench: _BUILD[kind](name, game) gives (the command's function, its help)
    short: str  # a game command's line in the listing, {} standing for the game's name
    listing = False

    def list_commands(self, ctx) -> list[str]:
        own = super().list_commands(ctx)
        return [*(name for name in registry.names() if name not in own), *own]

    def get_command(self, ctx, name: str):
        found = super().get_command(ctx, name)
        if found is None and name in registry.REFUSED:  # why it is left out, not "no such command"
            raise UserError(registry.REFUSED[name])
        if found is not None or name not in registry.names():
            return found
        if self.listing:
            return TyperCommand(name=name, help=self.short.format(name))
        function, help = _BUILD[self.kind](name, registry.get(name))
        holder = typer.Typer(add_completion=False)
        holder.command(name, help=help)(function)
        return typer.main.get_command(holder)

    def format_help(self, ctx, formatter) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False

    def resolve_command(self, ctx, args):
        try:
            return super().resolve_command(ctx, args)
        except UsageError as e:  # suggest a game's name as typer suggests a command's
            close = difflib.get_close_matches(args[0], registry.names()) if args else []
            if close and "Did you mean" not in e.message:
                e.message = f"{e.message.rstrip('.')}. Did you mean {close[0]!r}?"
            raise


class _Run(_GameCommands):
    kind, short = "run", "Play {} games and summarise them."


class _Trace(_GameCommands):
    kind, short = "trace", "Print one {} game."


class _Bench(_GameCommands):
    kind, short = "bench", "Measure {}'s speed per core."


app = typer.Typer(
    help="Monte Carlo balance simulator for tabletop games. "
         f"Games: {', '.join(registry.names())} ('simulate games' shows their player counts).",
    no_args_is_help=True,
    add_completion=False,
    cls=_Run,
)
trace_app = typer.Typer(help="Print one game move by move.", no_args_is_help=True, cls=_Trace)
bench_app = typer.Typer(help="Measure how fast a game plays.", no_args_is_help=True, cls=_Bench)
app.add_typer(trace_app, name="trace")
app.add_typer(bench_app, name="bench")

# The flags every game's commands share.
Players = Annotated[str, typer.Option(help="Player counts: 7, a list 5,7 or a range 3-10.")]
PlayerCount = Annotated[int, typer.Option(help="Player count.")]
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
RoleStrategies = Annotated[list[str] | None, typer.Option(
    "--role-strategy", help="ROLE=NAME (repeatable, or miner=search,saboteur=default): the "
                            "strategy of whichever seat holds that role, round by round; a role "
                            "not named plays --strategy.")]
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
                     "card or action, e.g. rockfall ('simulate strategies GAME' lists them); "
                     "ROLE:NAME only in that role, e.g. miner:break.")]
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


def main() -> None:
    """Runs the `simulate` command line: user errors end in one line and exit code 2."""
    _collect_less()
    # Ctrl-C, `kill` and a closed terminal (SIGHUP) stop a run alike, as an Interruption: a bot
    # raising KeyboardInterrupt is then told apart from the user's. The exit code says which:
    # 130 (Ctrl-C), 143 (kill), 129 (hang-up).
    global _signalled
    _signalled = signal.SIGINT
    previous = {signum: signal.signal(signum, _stop)
                for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
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
        _fail("interrupted", _interrupted_code())
    except UserError as e:
        _fail(f"error: {e}", 2)
    except Interrupted as e:
        _fail(str(e), _interrupted_code())
    except OSError as e:
        if e.errno == errno.EPIPE:  # a reader such as `head` stopped reading: not an error
            sys.stderr = PacifyFlushWrapper(sys.stderr)
            sys.stdout = PacifyFlushWrapper(sys.stdout)
            sys.exit(1)
        _fail(f"error: {os_error_line(e)}", 2)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        bot_limit.rest()  # a game stopped midway leaves the per-move alarm on: not at exit
    if code == 130:  # typer's answer to Ctrl-C outside a run
        _fail("interrupted", _interrupted_code())
    sys.exit(code or 0)


def _collect_less() -> None:
    """Spares the garbage collector most of its start-up work: loading typer, polars and the
    cached engines leaves about 150,000 objects for it to track, alive until the process ends.
    Collecting the young ones every 50,000 allocations instead of 700, and never walking them
    all again at exit, saves over a quarter of a warm 10-game run's CPU (0.3 of 1.1 CPU-s)."""
    gc.set_threshold(50_000, *gc.get_threshold()[1:])
    atexit.unregister(gc.freeze)  # registered once however often main() runs (the tests)
    atexit.register(gc.freeze)


def _usage_line(error: UsageError) -> str:
    """Gives click's complaint about a command line in one line, pointing at the command's help."""
    path = error.ctx.command_path if error.ctx else "simulate"
    return f"{_one_line(error.format_message()).rstrip('.')} (see '{path} --help')"


def _one_line(text: str) -> str:
    return " ".join(text.split())


_signalled = signal.SIGINT  # the signal that stopped the command (SIGINT: Ctrl-C or typer's)


def _stop(signum, frame) -> None:
    global _signalled
    _signalled = signum
    bot_limit.stop_move(Interruption(), signum)  # raises it, even past a bot that catches it


def _interrupted_code() -> int:
    """Gives the exit code of a command stopped by a signal: 128 + its number (the shell's
    convention), 130 for Ctrl-C and 143 for `kill` (SIGTERM)."""
    return 128 + _signalled


def _fail(message: str, code: int) -> None:
    print(message, file=sys.stderr)
    sys.exit(code)


@app.command("games")
def list_games() -> None:
    """List the games and their player counts."""
    for refused in registry.REFUSED.values():  # a plugin left out is one line; the rest listed
        print(f"error: {refused}", file=sys.stderr)
    for name in registry.names():
        try:
            game = registry.get(name)
        except UserError as e:  # a broken plugin is one line; the other games are listed
            print(f"error: {e}", file=sys.stderr)
            continue
        counts = (f"{game.min_players}" if game.min_players == game.max_players
                  else f"{game.min_players}–{game.max_players}")
        print(f"{name:<16} {game.title:<20} {counts} players")


@app.command("compile")
def compile_games(
    names: Annotated[list[str] | None, typer.Argument(
        metavar="GAME", help="The games to compile (default: all).")] = None,
    quiet: Annotated[bool, typer.Option(help="No spinner while compiling.")] = False,
) -> None:
    """Compile games' engines into numba's cache ahead of their first run (for images, clusters
    and CI): the built-in bots, a search seat and the Python driver."""
    import time

    from sim.run.warm import everything, first_compile, warm

    for game in [registry.get(name) for name in names or registry.names()]:  # all known first
        started = time.process_time()
        with first_compile(game.name, game.title, not quiet) as say:
            warm(game, game.load_rules(None, []), everything(game), say)
        print(f"{game.name}: {time.process_time() - started:.1f} CPU-s")


def _run_flags(
    games: Games = 10_000,
    seed: Seed = None,
    workers: Workers = os.cpu_count() or 1,
    out: Out = None,
    strategy: Strategy = "default",
    seat_strategy: SeatStrategies = None,
    role_strategy: RoleStrategies = None,
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
    """The flags of every game's run command (--role-strategy and --forbid where the game
    takes them)."""


def _trace_flags(
    seed: Seed = None,
    game_index: Annotated[int, typer.Option(help="Which game of the seed to show.")] = 0,
    strategy: Strategy = "default",
    seat_strategy: SeatStrategies = None,
    role_strategy: RoleStrategies = None,
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


def _signature(params: list[inspect.Parameter], body: Callable[..., None]) -> Callable:
    """Gives `body` (which takes keyword arguments) as a function of these parameters, as typer
    reads a command's flags."""
    params = [p.replace(kind=p.KEYWORD_ONLY) for p in params]

    def command(**flags) -> None:
        body(**flags)

    command.__signature__ = inspect.Signature(params, return_annotation=None)
    command.__annotations__ = {p.name: p.annotation for p in params}
    return command


def _flag(name: str, annotation, default=None) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                             default=default)


def _shared(flags: Callable, game) -> list[inspect.Parameter]:
    """Gives the shared flags of a kind of command that `game` takes: --role-strategy only
    where it has roles, --forbid only where a move can be forbidden."""
    from sim.game import forbids, role_names

    left_out = {"role_strategy": not role_names(game), "forbid": not forbids(game)}
    return [p for p in inspect.signature(flags, eval_str=True).parameters.values()
            if not left_out.get(p.name)]


def _players(game, run: bool) -> inspect.Parameter:
    """Gives a game's --players: player counts (a trace: one count); where the game takes one
    count only, that count by default."""
    if game.min_players == game.max_players:
        return _flag("players", Annotated[str, typer.Option(
            help=f"Player count: {game.min_players} (the only one this game takes).")],
            str(game.min_players))
    return _flag("players", Players if run else PlayerCount, inspect.Parameter.empty)


def _own_flags(game, trace: bool) -> list[inspect.Parameter]:
    """Gives the flags of a game's own options (sim.game.Flag) and data files (RuleFile)."""
    from sim.game import COUNTS, TEXTS, files_of, flags_of

    found = []
    for option in flags_of(game):
        help = (option.trace_help or option.help) if trace else option.help
        kind = (int if trace else str) if option.kind == COUNTS else str
        if option.kind == TEXTS:
            annotation = Annotated[list[str] | None, typer.Option(
                f"--{option.name.replace('_', '-')}", help=help)]
        else:
            annotation = Annotated[kind | None, typer.Option(help=help)]
        found.append(_flag(option.name, annotation))
    found += [_flag(f.key, Annotated[Path | None, typer.Option(help=f.help)]) for f in files_of(game)]
    return found


def _split(game, flags: dict) -> tuple[dict, dict]:
    """Takes the game's own flags out of a command's: (their values by option, the data files
    by rule key)."""
    from sim.game import files_of, flags_of

    own = {option.name: flags.pop(option.name) for option in flags_of(game)}
    files = {f.key: flags.pop(f.key) for f in files_of(game)}
    flags.setdefault("role_strategy", None)
    flags.setdefault("forbid", None)
    return own, files


def _run_command(name: str, game):
    """Gives the run command of a game (its function and help)."""
    def run(players: str, **flags) -> None:
        own, files = _split(game, flags)
        _run_game(name, players=players, own=own, files=files, **flags)

    blurb = getattr(game, "blurb", "")
    return (_signature([_players(game, True), *_own_flags(game, False),
                        *_shared(_run_flags, game)], run),
            f"Play {game.title} games{f' ({blurb})' if blurb else ''} and summarise them.")


def _trace_command(name: str, game):
    """Gives the trace command of a game (its function and help)."""
    def trace(players, **flags) -> None:
        own, files = _split(game, flags)
        _trace_game(name, players=str(players), own=own, files=files, **flags)

    return (_signature([_players(game, False), *_own_flags(game, True),
                        *_shared(_trace_flags, game)], trace),
            f"Print one {game.title} game {getattr(game, 'traces', 'move by move')}.")


def _bench_command(name: str, game):
    """Gives the bench command of a game (its function and help)."""
    from sim.game import bench_counts, bench_scaling

    counts = ",".join(map(str, bench_counts(game)))
    scaling = bench_scaling(game)
    fixed = str(game.min_players) if game.min_players == game.max_players else None

    def bench(players: str | None = None, **flags) -> None:
        _bench_game(name, players=players if players is not None else fixed, **flags)

    players = [] if game.min_players == game.max_players else [_flag("players", Annotated[
        str | None, typer.Option(help=f"Player counts (default: {counts}).")])]
    scaling_games = _flag("scaling_games", Annotated[int, typer.Option(
        help=f"Games of the runs timed with 1 and with 2 worker processes (0: skip; default "
             f"{scaling:,}).")], scaling)
    return (_signature([*players, scaling_games, *_shared(_bench_flags, game)], bench),
            f"Measure {game.title}'{'' if game.title.endswith('s') else 's'} speed per core, "
            "worker scaling and memory.")


_BUILD = {"run": _run_command, "trace": _trace_command, "bench": _bench_command}


@app.command()
def resume(
    run: Annotated[Path, typer.Argument(help="The run folder to finish.")],
    workers: Workers = os.cpu_count() or 1,
    backend: Backend = "local",
    scheduler: Scheduler = None,
    quiet: Quiet = False,
    bot_timeout: BotTimeout = bot_limit.DEFAULT,
    output_format: OutputFormat = "table",
    force: Annotated[bool, typer.Option(
        "--force", help="When the run's code differs from today's (the game's or bots' sources, "
        "a Python bot file, simulate's version), play the games it is missing with today's code "
        "into a new run folder (--out), which names the run it continues; the run itself is "
        "left as it is, and report refuses to pool the two.")] = False,
    out: Annotated[Path | None, typer.Option(
        "--out", help="With --force: the new run folder for the missing games.")] = None,
) -> None:
    """Finish an interrupted run: play the games it is missing, then summarise it."""
    from reports.render import check_table_format
    from sim import api

    check_table_format(output_format)
    if force != (out is not None):
        raise UserError("--force needs --out NEW (a new run folder for the missing games), and "
                        "--out is only for --force")
    _print_summary(api.resume(run, workers=workers, backend=backend, scheduler=scheduler,
                              bot_timeout=bot_timeout, quiet=quiet, force_into=out)._store,
                   output_format)


@app.command("balance")
def balance_rules(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game, e.g. saboteur.")],
    players: Players,
    vary: Annotated[list[str], typer.Option(
        "--vary", help="KEY=LO-HI or KEY=V1,V2,...: a rule to search (repeatable); {n} in KEY "
                       "stands for the player count, e.g. 'saboteur_cards.{n}=0-4'.")],
    target: Annotated[float | None, typer.Option(
        help="The headline rate wanted (default: the game's declared target: a team's 0.5, "
             "else 1/players).")] = None,
    keep: Annotated[str | None, typer.Option(
        help="COLUMN<=NUMBER or COLUMN>=NUMBER: the mean of a games-table column to keep in "
             "range, e.g. turns<=180.")] = None,
    precision: Annotated[float, typer.Option(
        help="Stop measuring a setting once its rate's 95% interval is at most ± this.")] = 0.01,
    games: Annotated[int, typer.Option(help="The most games a setting plays.")] = 20_000,
    trials: Annotated[int, typer.Option(
        help="Settings Optuna tries per problem, each a new one, where there are too many to "
             "scan (a problem of no more settings than this is scanned in full).")] = 30,
    strategy: Strategy = "default",
    role_strategy: RoleStrategies = None,
    seed: Seed = None,
    workers: Workers = os.cpu_count() or 1,
    out: Annotated[Path | None, typer.Option(
        help="Folder for the search's runs and answer (default: runs/balance-<game>-<time>).",
        parser=_folder)] = None,
    designer: Annotated[Path | None, typer.Option(
        "--profile", help="A designer's profile: a TOML file of targets, KEY = [LOW, HIGH] (e.g. "
                          "turns = [20, 45]); search for every target at once instead of --target "
                          "and --keep.")] = None,
) -> None:
    """Search the rule values that bring the game's headline rate to its target; print them with
    the rate measured on fresh seeds, write OUT/balanced.toml (a --config) and a response chart."""
    from sim import api
    from sim.run.setups import parse_role_strategies

    print(api.balance(game_name, players=players, vary=vary, target=target, keep=keep,
                      precision=precision, games=games, trials=trials, strategy=strategy,
                      role_strategies=parse_role_strategies(role_strategy or []), seed=seed,
                      workers=workers, out=out, profile=designer))


@app.command()
def report(
    runs: Annotated[list[Path], typer.Argument(help="Run folders (of one game) to report on.")],
    out: Annotated[Path | None, typer.Option(help="Report folder (default: RUN/report).")] = None,
    allow_partial: Annotated[bool, typer.Option(
        "--allow-partial", help="Report a run that is not whole (interrupted, a chunk missing or "
                                "damaged) on the games it holds, with a warning.")] = False,
    target: Annotated[float | None, typer.Option(
        help="What balanced means for the headline, a rate in [0, 1] (default: the game's "
             "own, e.g. 0.5 for Saboteur's miners, 1/players for a seat).")] = None,
    baseline: Annotated[str | None, typer.Option(
        help="The variant differences are taken from, by its label (default: the one playing "
             "the default rules), e.g. 'hand_size.7=5'.")] = None,
    formats: Annotated[str, typer.Option(
        "--format", help="Chart formats beside the PNGs (svg, pdf) and how the key tables print "
                         "(table, or csv, json, markdown for other tools), comma-separated: "
                         "e.g. png,svg,pdf or svg,csv.")] = "png,table",
    dpi: Annotated[int, typer.Option(help="Resolution of the PNG charts.")] = 200,
    designer: Annotated[Path | None, typer.Option(
        "--profile", help="A designer's profile: a TOML file of targets, KEY = [LOW, HIGH] (e.g. "
                          "turns = [20, 45]); check each per configuration; the Answer says which "
                          "fail.")] = None,
) -> None:
    """Write a balance report (Markdown, HTML and charts) of one or more runs."""
    # polars' allocator (jemalloc) keeps freed pages per arena, one per thread by default: the
    # report's many aggregations then hold far more than any one needs. One arena reuses them
    # (1M Saboteur games: 373 MiB peak against 331, and less CPU). Read when polars loads,
    # which is below; a user's own setting wins.
    os.environ.setdefault("_RJEM_MALLOC_CONF", "narenas:1")
    from reports.report import write_report

    try:
        write_report(runs, out, allow_partial=allow_partial, target=target, baseline=baseline,
                     formats=formats, dpi=dpi, designer=designer)
    except OSError as e:
        if not e.filename:  # a failed write() names no file
            e.filename = str(out or runs[0] / "report")
        raise


@app.command()
def compare(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game, e.g. saboteur.")],
    strategies: Annotated[str, typer.Option(help="Strategies to compare: a,b[,c...].")],
    players: Annotated[str, typer.Option(
        help="Player count, or several: 5,7 or 3-6 (each compared on its own).")],
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
    role_strategy: Annotated[list[str] | None, typer.Option(
        "--role-strategy", help="ROLE=NAME (repeatable, or comma-separated): that role plays "
                                "NAME whichever seat holds it; the strategies compared play "
                                "the roles left open.")] = None,
    bot_timeout: BotTimeout = bot_limit.DEFAULT,
    output_format: OutputFormat = "table",
) -> None:
    """Play strategies against each other on the same deals, in every seat, and compare them."""
    from sim import api
    from sim.run.setups import parse_role_strategies

    api.compare(game_name, strategies.split(","), players=players, games=games, seed=seed,
                sets=sets or [], config=config, forbid=forbid or [],
                strategies_file=strategies_file, workers=workers, out=out, backend=backend,
                scheduler=scheduler, bot_timeout=bot_timeout, quiet=quiet,
                role_strategies=parse_role_strategies(role_strategy or []),
                output_format=output_format)


@app.command()
def tune(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game, e.g. saboteur.")],
    players: Annotated[int, typer.Option(help="Player count.")],
    family: Annotated[str, typer.Option(help="Bot family whose parameters are searched.")] = "default",
    params: Annotated[str | None, typer.Option(
        help="Parameters to search, comma-separated (default: all of the family's; with --role, "
             "those only that role reads).")] = None,
    role: Annotated[str | None, typer.Option(
        help="Tune this role (e.g. saboteur): objective, its round-win rate.")] = None,
    seat: Annotated[int | None, typer.Option(
        help="Tune this seat alone (default: one seat, each in turn).")] = None,
    against: Annotated[str, typer.Option(
        help="What the other seats (or roles) play: a strategy or preset; also the start.")] = "default",
    trials: Annotated[int, typer.Option(help="Candidates tried (per step).")] = 100,
    games: Annotated[int, typer.Option(help="Games per candidate (the same for each).")] = 2_000,
    gain_games: Annotated[int | None, typer.Option(
        help="Held-out games measuring the gain (default: --games, at least 2,000).")] = None,
    alternate: Annotated[int, typer.Option(
        help="Steps of iterated best response: the other role (or the field) against the bot "
             "tuned before, and back.")] = 0,
    role_strategy: Annotated[list[str] | None, typer.Option(
        "--role-strategy", help="ROLE=NAME, with --role: a role not tuned plays NAME "
                                "(e.g. saboteur=search) instead of --against.")] = None,
    sampler: Annotated[str, typer.Option(help="Optuna sampler: tpe or cmaes.")] = "tpe",
    pruner: Annotated[str, typer.Option(help="Optuna pruner: halving, median or none.")] = "halving",
    seed: Seed = None,
    workers: Workers = os.cpu_count() or 1,
    out: Annotated[Path | None, typer.Option(
        help="Tuning folder (default: tuned/<game>-<time>); the same folder resumes.",
        parser=_folder)] = None,
    config: Config = None,
    sets: OneValueSets = None,
    strategies_file: StrategiesFile = None,
    resume: Resume = False,
    quiet: Quiet = False,
    backend: Backend = "local",
    scheduler: Scheduler = None,
) -> None:
    """Search a bot family's parameters (Optuna) for the best result against the field, and
    measure the gain on fresh seeds."""
    from sim import api
    from sim.run.setups import parse_role_strategies

    print(api.tune(game_name, players=players, family=family, params=params, role=role,
                   seat=seat, against=against, trials=trials, games=games,
                   gain_games=gain_games, alternate=alternate,
                   role_strategies=parse_role_strategies(role_strategy or []), sampler=sampler,
                   pruner=pruner, seed=seed, workers=workers, out=out, config=config,
                   sets=sets or [], strategies_file=strategies_file, resume=resume,
                   quiet=quiet, backend=backend, scheduler=scheduler))


@app.command()
def ladder(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game, e.g. saboteur.")],
    players: Players,
    games: Games = 2_000,
    rungs: Annotated[str | None, typer.Option(
        help="Rungs, in order: random, default, tuned, search, any other strategy or preset "
             "(search-belief), or strategies by role (ROLE=NAME,ROLE=NAME: "
             "ROLE=NAME items, one rung until a role comes again) (default: random, default, "
             "tuned with --tuned or --tune-trials, search where the game has it).")] = None,
    tuned: Annotated[Path | None, typer.Option(
        help="Presets file of the tuned rung (as 'simulate tune' writes it; loaded like "
             "--strategies-file): at N players its preset NAME-<N>p, else its first (default: "
             "the game's shipped tunings, configs/GAME-tuned.toml, where it has them).")] = None,
    tune_trials: Annotated[int | None, typer.Option(
        help="Tune the tuned rung on the fly at each player count: candidates tried (with "
             "--tune-games; the presets go into RUN/tuned).")] = None,
    tune_games: Annotated[int | None, typer.Option(
        help="Games per candidate of the on-the-fly tuning (and its held-out gain).")] = None,
    by_role: Annotated[bool, typer.Option(
        "--by-role", help="Play the skill matrix: each rung of one role (Saboteur's miners) "
                          "against each rung of the other, on the same deals.")] = False,
    head_to_head: Annotated[bool, typer.Option(
        "--head-to-head", help="Also play every pair of rungs at one table, each in every seat, "
                               "on the same deals: the report orders the rungs by measured "
                               "strength and shows the skill matrix, skill expression, the "
                               "upset rate and whether one rung dominates.")] = False,
    role_strategy: RoleStrategies = None,
    config: Configs = None,
    sets: Sets = None,
    seed: Seed = None,
    workers: Workers = os.cpu_count() or 1,
    out: Out = None,
    quiet: Quiet = False,
    backend: Backend = "local",
    scheduler: Scheduler = None,
) -> None:
    """Play the same deals with every seat at each rung of skill (random to search), into one
    run: 'simulate report' then shows balance across skill levels."""
    from sim import api
    from sim.run.setups import parse_role_strategies

    run = api.ladder(game_name, players=players, games=games, rungs=rungs, tuned=tuned,
                     tune_trials=tune_trials, tune_games=tune_games, by_role=by_role,
                     head_to_head=head_to_head, role_strategies=parse_role_strategies(role_strategy or []),
                     config=config or [], sets=sets or [], seed=seed, workers=workers, out=out,
                     quiet=quiet, backend=backend, scheduler=scheduler)
    _print_summary(run._store)


def _run_game(name: str, *, players: str, own: dict, files: dict, seat_strategy: list[str] | None,
              role_strategy: list[str] | None, config: list[Path] | None, sets: list[str] | None,
              forbid: list[str] | None, output_format: str, **flags) -> None:
    """Plays every configuration of a game's sweep into one run folder and prints the summary."""
    from reports.render import check_table_format
    from sim import api
    from sim.run.setups import parse_role_strategies, parse_seat_strategies

    check_table_format(output_format)
    run = api.run(name, players=players, seats=parse_seat_strategies(seat_strategy or []),
                  role_strategies=parse_role_strategies(role_strategy or []), config=config or [],
                  sets=sets or [], forbid=forbid or [], output_format=output_format,
                  **flags, **own, **files)
    _print_summary(run._store, output_format)


def _trace_game(name: str, *, players: str, own: dict, files: dict,
                seat_strategy: list[str] | None, role_strategy: list[str] | None,
                config: Path | None, sets: list[str] | None, forbid: list[str] | None,
                **flags) -> None:
    """Prints one game of a game's configuration move by move."""
    from sim import api
    from sim.run.setups import parse_role_strategies, parse_seat_strategies

    api.trace(name, players=players, seats=parse_seat_strategies(seat_strategy or []),
              role_strategies=parse_role_strategies(role_strategy or []), config=config,
              sets=sets or [], forbid=forbid or [], **flags, **own, **files)


def _bench_game(name: str, *, players: str | None, strategies: str, games: int,
                scaling_games: int, memory_games: int, repeat: int, dask: bool) -> None:
    """Prints a game's benchmark table."""
    from sim import api

    api.bench(name, players=players, strategies=strategies, games=games,
              scaling_games=scaling_games, memory_games=memory_games, repeat=repeat, dask=dask)


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


def _command_names() -> set[str]:
    """Gives the names of the commands `simulate` has of its own (a game's are the games')."""
    return ({c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands}
            | {group.name for group in app.registered_groups})


@app.command("new-game")
def new_game(
    name: Annotated[str, typer.Argument(help="The game's name, e.g. my-game (lower case, '-').")],
    folder: Annotated[Path | None, typer.Option(
        help="Where to write the package (default: ./NAME).")] = None,
    fast: Annotated[bool, typer.Option(
        "--fast", help="The fast level: jitted rules and bots (numba) on the shell of "
                       "turn-based games.")] = False,
) -> None:
    """Write a working package skeleton of a simple-level game (--fast: a fast-level one):
    pyproject with the entry point, rules, rules TOML, a bot family and tests. Install it with
    pip install -e FOLDER."""
    from sim.new_game import write

    print(write(name, folder, _command_names(), fast))


def _print_summary(run, output_format: str = "table") -> None:
    from reports.summary import print_summary

    print_summary(run, fmt=output_format)


for _signum, _handler in _LOADING.items():
    signal.signal(_signum, _handler)

if __name__ == "__main__":
    main()
