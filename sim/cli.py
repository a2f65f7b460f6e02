"""The `simulate` command: one subcommand per game, plus trace, bench, resume, report, compare.

A game's commands are thin: they turn the game's own flags into setup options and hand over
to the shared `_run_game`, `_trace_game` and `_bench_game`. Modules that import polars or
numba are imported inside those helpers so that `simulate --help` answers at once.
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
import contextlib
import errno
import functools
import gc
import inspect
import sys
from datetime import datetime
from pathlib import Path
from typing import Annotated, Callable, Iterator

import typer

# typer carries its own click; its usage errors are raised from there.
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer._click.utils import PacifyFlushWrapper

from sim import games as registry
from sim.run import limits
from sim.api import Interrupted
from sim.api import check_new_out as _check_new_out
from sim.api import configure as _configure
from sim.api import default_out as _default_out
from sim.api import play as _play
from sim.api import seed_of as _seed
from sim.api import with_presets as _with_presets
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
RoleStrategies = Annotated[list[str] | None, typer.Option(
    "--role-strategy", help="ROLE=NAME (repeatable, or miner=search,saboteur=default): the "
                            "strategy of whichever seat holds that role, round by round (games "
                            "with roles: saboteur); a role not named plays --strategy.")]
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
    """The flags of every game's run command."""


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
    from sim.counts import parse_counts

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
    from sim.games.spit.reaction import flag_options

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


@app.command("balance")
def balance_rules(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game, e.g. saboteur.")],
    players: Players,
    vary: Annotated[list[str], typer.Option(
        "--vary", help="KEY=LO-HI or KEY=V1,V2,...: a rule to search (repeatable); {n} in KEY "
                       "stands for the player count, e.g. 'saboteur_cards.{n}=0-4'.")],
    target: Annotated[float | None, typer.Option(
        help="The headline rate wanted (default: balanced, 0.5 for Saboteur's miners, else "
             "1/players).")] = None,
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
    seed: Seed = None,
    workers: Workers = os.cpu_count() or 1,
    out: Annotated[Path | None, typer.Option(
        help="Folder for the search's runs and answer (default: runs/balance-<game>-<time>).",
        parser=_folder)] = None,
) -> None:
    """Search the rule values that bring the game's headline rate to its target; print them with
    the rate measured on fresh seeds, write OUT/balanced.toml (a --config) and a response chart."""
    from sim.studies import balance as search
    from sim.counts import parse_counts
    from sim.run.setups import build_setups, check_players

    game = registry.get(game_name)
    counts = parse_counts("--players", players, functools.partial(check_players, game))
    search.check_options(target, precision, trials)
    limits.check_games(games)
    limits.check_workers(workers)
    seat = build_setups(game, counts, {}, strategy, {})[0].seats[0]  # checks the strategy
    out = out or _default_out(f"balance-{game_name}")
    _check_new_out(out)
    try:
        result = search.balance(game, counts, vary, target=target, keep=search.parse_keep(keep),
                                precision=precision, most_games=games, trials=trials,
                                seed=_seed(seed), workers=workers, out=out, seat=seat)
    except KeyboardInterrupt:
        _fail(f"interrupted: the runs the search played are kept in {out}", _interrupted_code())
    print(search.report(game, result, out))


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
) -> None:
    """Write a balance report (Markdown, HTML and charts) of one or more runs."""
    from reports.report import write_report

    try:
        write_report(runs, out, allow_partial=allow_partial, target=target, baseline=baseline,
                     formats=formats, dpi=dpi)
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
    from reports.compare import print_comparison
    from reports.render import check_table_format
    from sim.studies.compare import plan
    from sim.rules import split_sweeps
    from sim.counts import parse_counts
    from sim.run.setups import check_counts_of_sets, check_players, parse_role_strategies
    from strategies.seats import forbid_strategies

    check_table_format(output_format)
    game = registry.get(game_name)
    if split_sweeps(game.name, sets or [])[1]:
        raise UserError("compare plays one set of rules: give each --set one value")
    counts = parse_counts("--players", players, functools.partial(check_players, game))
    check_counts_of_sets(game.name, sets or [], counts)
    rules = _with_presets(game, game.load_rules(str(config) if config else None, sets or []),
                          strategies_file)
    named = forbid_strategies(strategies.split(","), forbid or [])
    roles = parse_role_strategies(role_strategy or [])
    setups = [setup for n in counts for setup in plan(game, named, n, {}, rules, roles)]
    for setup in setups:
        game.check(rules, setup)
    run = _play(game, rules, setups, games=games, seed=seed, workers=workers,
                out=out or _default_out(f"{game_name}-compare"), quiet=quiet, backend=backend,
                scheduler=scheduler, bot_timeout=bot_timeout, output_format=output_format)
    print_comparison(run, fmt=output_format)


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
    from sim.studies import tune as tuning
    from sim.rules import split_sweeps
    from sim.run.runner import check_backend

    game = registry.get(game_name)
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
    if split_sweeps(game.name, sets or [])[1]:
        raise UserError("tune plays one set of rules: give each --set one value")
    from sim.run.setups import check_counts_of_sets, check_players

    check_players(game, players)
    check_counts_of_sets(game.name, sets or [], [players])
    rules = _with_presets(game, game.load_rules(str(config) if config else None, sets or []),
                          strategies_file)
    if role_strategy and alternate:
        raise UserError("--role-strategy fixes the roles not tuned: it takes no --alternate")
    from sim.run.setups import parse_role_strategies

    side = tuning.make_side(game, rules, players, family, params, role, seat, against,
                            parse_role_strategies(role_strategy or []))
    for setup in tuning.setups(side, players):
        game.check(tuning.rules_with(rules, family, side, dict(side.start)), setup)
    out = out or Path("tuned") / f"{game_name}-{datetime.now():%Y%m%d-%H%M%S}"
    settings = tuning.Settings(game.name, players, family, rules, side, trials, games,
                               gain_games or max(games, 2_000),
                               _seed(seed if seed is not None else tuning.stored_seed(out)),
                               sampler, pruner, alternate)
    tuning.open_folder(out, settings, resume)
    with _interruptible_tuning(out):
        steps = tuning.run(settings, out, " ".join(["simulate", *sys.argv[1:]]), workers, quiet,
                           backend=backend, scheduler=scheduler)
    print(tuning.report(settings, steps, out))


class _TuningInterrupted(Interrupted):
    """Ctrl-C stopped a tuning: its finished trials are kept."""

    def __init__(self, folder: Path):
        Exception.__init__(self, f"interrupted: finished trials are kept in {folder}; rerun "
                                 "the same command (or add --resume) to continue")


@contextlib.contextmanager
def _interruptible_tuning(folder: Path) -> Iterator[None]:
    """Turns Ctrl-C during a tuning into `_TuningInterrupted`."""
    try:
        yield
    except KeyboardInterrupt:
        raise _TuningInterrupted(folder) from None


@app.command()
def ladder(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="The game, e.g. saboteur.")],
    players: Players,
    games: Games = 2_000,
    rungs: Annotated[str | None, typer.Option(
        help="Rungs, in order: random,default,tuned,search (default: random, default, tuned "
             "with --tuned or --tune-trials, search where the game has it).")] = None,
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
    import tempfile

    from sim.rules import with_values
    from sim.studies import ladder as ladders
    from sim.counts import parse_counts
    from sim.run.setups import check_players, parse_role_strategies, rule_variants

    game = registry.get(game_name)
    counts = parse_counts("--players", players, functools.partial(check_players, game))
    wanted = ladders.parse_rungs(rungs)
    on_the_fly = ladders.check_tuning(tune_trials, tune_games, tuned)
    # the tuned rung's presets: --tuned FILE's, a tuning's on the fly, else the game's shipped
    shipped = None if tuned or on_the_fly else ladders.shipped_tuned(game)
    strategies = ladders.rung_strategies(
        game, wanted, ladders.ON_THE_FLY if on_the_fly else
        ladders.FROM_FILE if tuned or shipped else None, shipped is not None)
    if shipped and "tuned" in dict(strategies):
        tuned = shipped
    named, presets, gains = ladders.tuned_presets(game, tuned, counts) if tuned else ({}, {}, {})
    # a rule sweep (--set KEY=V1,V2, several --config): every rung of every variant, same deals
    rules, variants = rule_variants(game, [str(c) for c in config or []], sets or [],
                                    len(counts) * len(wanted or ladders.RUNGS) ** (2 if by_role else 1))
    if presets:
        from strategies.presets import with_presets
        rules = with_presets(rules, presets)
    roles = parse_role_strategies(role_strategy or [])
    if by_role and roles:
        raise UserError("--by-role plays every role at every rung: drop --role-strategy")
    setups = ladders.setups(game, counts, {}, strategies, rules, named, by_role, roles, variants)
    for setup in setups:
        game.check(with_values(rules, setup.rule_values()), setup)
    out = out or _default_out(f"{game_name}-ladder")
    limits.check_games(games)
    _check_new_out(out)
    seed = _seed(seed)
    with tempfile.TemporaryDirectory() as folder:
        tunings = Path(folder) / ladders.TUNINGS
        if tuned and "tuned" in dict(strategies):
            ladders.keep_gains(tunings, named, gains, tuned)
        if on_the_fly and "tuned" in dict(strategies):
            names, rules = ladders.tune(game, rules, counts, tune_trials, tune_games, seed,
                                        tunings, workers, quiet)
            setups = ladders.setups(game, counts, {}, strategies, rules, names, by_role, roles,
                                    variants)
        run = _play(game, rules, setups, games=games, seed=seed, workers=workers, out=out,
                    quiet=quiet, backend=backend, scheduler=scheduler)
        if tunings.exists():
            ladders.keep_tunings(tunings, out)
    _print_summary(run)


def _run_game(name: str, *, players: str, options: dict[str, list], games: int, seed: int | None,
              workers: int, out: Path | None, strategy: str, seat_strategy: list[str] | None,
              role_strategy: list[str] | None, config: list[Path] | None, sets: list[str] | None, quiet: bool,
              chunk_size: int | None, resume: bool, backend: str, scheduler: str | None,
              until_ci: float | None, strategies_file: Path | None,
              forbid: list[str] | None, bot_timeout: float, output_format: str) -> None:
    """Plays every configuration of a game's sweep into one run folder and prints the summary."""
    from reports.render import check_table_format

    check_table_format(output_format)
    game, rules, setups = _configure(name, players, options, strategy, seat_strategy, config, sets,
                                     strategies_file, forbid, role_strategy)
    if resume and out is None:
        raise UserError("--resume needs --out: the run folder to continue")
    run = _play(game, rules, setups, games=games, seed=seed, workers=workers,
                out=out or _default_out(name), quiet=quiet, chunk_size=chunk_size, resume=resume,
                backend=backend, scheduler=scheduler, until_ci=until_ci, bot_timeout=bot_timeout,
                output_format=output_format)
    _print_summary(run, output_format)


def _trace_game(name: str, *, players: int, options: dict, seed: int | None, game_index: int,
                strategy: str, seat_strategy: list[str] | None,
                role_strategy: list[str] | None, config: Path | None,
                sets: list[str] | None, strategies_file: Path | None,
                forbid: list[str] | None, bot_timeout: float) -> None:
    """Prints one game of a game's configuration move by move."""
    limits.check_game_index(game_index)
    bot_limit.check(bot_timeout)
    game, rules, setups = _configure(name, str(players), {k: [v] for k, v in options.items()},
                                     strategy, seat_strategy, [config] if config else [], sets,
                                     strategies_file, forbid, role_strategy)
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

    from sim.studies.bench import bench
    from sim.counts import parse_counts
    from sim.run.setups import build_setups, check_players

    # A measurement's games are played in one call, their results held in memory as a chunk's.
    limits.check_games(games, most=limits.MAX_CHUNK_SIZE, per="per measurement (one chunk)")
    for flag, count in (("--scaling-games", scaling_games), ("--memory-games", memory_games)):
        if count < 0:
            raise UserError(f"{flag} must be at least 0 (0: skip), got {count}")
        if count:
            limits.check_games(count, flag)
    if repeat < 1:
        raise UserError(f"--repeat must be at least 1, got {repeat}")
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


def _plugin_commands(name: str) -> None:
    """Adds the run, trace and bench commands of an installed game that has none of its own
    here (a plugin, e.g. a simple-level game: sim/simple.py), taking no flags of its own."""
    @app.command(name, help=f"Play {name} games and summarise them.")
    @_with(_run_flags)
    def run_plugin(players: Players, **run) -> None:
        _run_game(name, players=players, options={}, **run)

    @trace_app.command(name, help=f"Print one {name} game move by move.")
    @_with(_trace_flags)
    def trace_plugin(players: PlayerCount, **trace) -> None:
        _trace_game(name, players=players, options={}, **trace)

    @bench_app.command(name, help=f"Measure {name}'s speed per core and worker scaling.")
    @_with(_bench_flags)
    def bench_plugin(players: Annotated[str | None, typer.Option(help="Player counts.")] = None,
                     scaling_games: _scaling(20_000) = 20_000, **bench) -> None:
        _bench_game(name, players=players, scaling_games=scaling_games, **bench)


def _command_names() -> set[str]:
    """Gives the names of the commands `simulate` has (a game's among them)."""
    return ({c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands}
            | {group.name for group in app.registered_groups})


for _name in sorted(set(registry.names()) - _command_names()):
    _plugin_commands(_name)


@app.command("new-game")
def new_game(
    name: Annotated[str, typer.Argument(help="The game's name, e.g. my-game (lower case, '-').")],
    folder: Annotated[Path | None, typer.Option(
        help="Where to write the package (default: ./NAME).")] = None,
) -> None:
    """Write a working package skeleton of a simple-level game: pyproject with the entry point,
    rules module, rules TOML, a bot family and tests. Install it with pip install -e FOLDER."""
    from sim.new_game import write

    print(write(name, folder, _command_names()))


def _print_summary(run, output_format: str = "table") -> None:
    from reports.summary import print_summary

    print_summary(run, fmt=output_format)


for _signum, _handler in _LOADING.items():
    signal.signal(_signum, _handler)

if __name__ == "__main__":
    main()
