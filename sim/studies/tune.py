"""`simulate tune`: a bot family's parameters searched (Optuna) for the best result of the tuned
seats against the field, and the gain re-measured on fresh seeds.

The project writes only the objective. A candidate is the family's parameter vector; it plays
game indices [0, games) of the search seed, in STEPS slices: after each slice it reports its
rate so far, and the pruner stops candidates clearly worse than the others at that point.
Every candidate plays the same indices, hence the same deals (common random numbers): the
differences between candidates are the bots', not the cards'. The best candidate's gain over
the starting one is measured again on a seed the search never played (no winner's curse), and
those games also give what the tuned seats did, kind by kind, against the start (`Usage`).
Games are played here, on local processes or on Dask (`Players`): a slice's score depends on
the slice alone, so where it is played changes nothing.

What the tuned bot is (a `Side`):
- with a role (Saboteur): the whole table plays the candidate, whose searched parameters are
  those only that role reads (its sim.game.Role's parameters), so the other roles keep playing as --against;
  objective: the round-win rate in that role;
- with a seat: that seat plays the candidate, the others --against; objective: its game-win rate;
- otherwise the candidate sits in each seat in turn (one configuration per seat, same deals),
  so that seat advantage cancels; objective: its game-win rate against the field;
- alternation's "field" step: every seat but one plays the candidate, the one left plays the
  bot tuned before, in each seat in turn; objective: the candidate seats' game-win rate.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from itertools import pairwise
from pathlib import Path

import numpy as np
import polars as pl

from reports.stats import Z95, design_effect, two_sided_p, wilson
from sim import games as registry
from sim import usage
from sim.errors import UserError
from sim.game import Setup, roles_of
from sim.run.warm import warm
from strategies import presets as presets_mod

CANDIDATE, FIELD = "tune-candidate", "tune-field"  # preset names while searching
STEPS = 8  # slices of a candidate's games: the pruner's rungs
MIN_SLICE = 25  # games: a slice is not cut finer than this across workers
SAMPLERS = ("tpe", "cmaes")
PRUNERS = ("halving", "median", "none")
MANIFEST = "tune.json"
TUNING = "tuning"  # a presets file's tables of how its presets were tuned


@dataclass(frozen=True)
class Side:
    """One search: the parameters searched, the candidate's starting vector, where it sits and
    what it plays against."""

    names: tuple[str, ...]
    start: tuple[tuple[str, float], ...]  # the family's full parameter vector to start from
    field: str | tuple[tuple[str, float], ...]  # the other seats: a strategy, or a vector
    role: str | None = None
    seat: int | None = None
    field_tuned: bool = False  # the candidate fills every seat but one
    # with --role, the other roles' strategies (--role-strategy; Setup.roles, "" for the
    # candidate's): they play those bots instead of --against's parameters
    roles: tuple[tuple[str, str], ...] = ()

    def describe(self, game: str) -> str:
        """Gives what this side's rate measures, e.g. "saboteurs' round-win rate"."""
        if self.role:
            return f"{self.role}s' round-win rate per {self.role} seat"
        if self.field_tuned:
            return "the field's game-win rate (per seat) against one seat of the bot tuned before"
        where = f"seat {self.seat}" if self.seat is not None else "one seat (each in turn)"
        against = self.field if isinstance(self.field, str) else "the bot tuned before"
        return f"{where}'s game-win rate against {against}"


@dataclass(frozen=True)
class Settings:
    """Everything a tuning's results depend on (a resumed tuning must have the same)."""

    game: str
    players: int
    family: str
    rules: dict
    side: Side
    trials: int
    games: int
    gain_games: int
    seed: int
    sampler: str = "tpe"
    pruner: str = "halving"
    alternate: int = 0

    def to_json(self) -> dict:
        d = asdict(self)
        d["side"] = asdict(self.side)
        if not self.side.roles:  # tunings before strategies by role resume as they were
            del d["side"]["roles"]
        return json.loads(json.dumps(d))


# ---- checking a command line ---------------------------------------------------------------

def family_parameters(game, family: str) -> tuple:
    """Gives the parameters (strategies.presets.Parameter) of one of the game's bot families."""
    bots = presets_mod.bots_of(game, "tune")
    families = {f.name: f for f in bots.families}
    if family not in families:
        raise UserError(f"{game.name} has no bot family {family!r}; its families: "
                        f"{', '.join(families)}")
    if not families[family].parameters:
        tunable = [f.name for f in bots.families if f.parameters]
        raise UserError(f"family {family!r} has no parameters to tune; tune {', '.join(tunable)}")
    return families[family].parameters


def vector_of(game, rules: dict, family: str, strategy: str) -> tuple[tuple[str, float], ...] | None:
    """Gives the full parameter vector of a strategy of `family` (a built-in preset or one of
    --strategies-file), or None when the strategy is not of that family."""
    parameters = family_parameters(game, family)
    spec = presets_mod.user_presets(rules).get(strategy)
    if spec is None:
        built_in = game.bots.presets.get(strategy)
        if built_in is None:
            return None
        spec = {"family": built_in[0], **built_in[1]}
    if spec["family"] != family:
        return None
    return tuple((p.name, float(spec.get(p.name, p.default))) for p in parameters)


def make_side(game, rules: dict, players: int, family: str, params: str | None,
              role: str | None, seat: int | None, against: str,
              role_strategies: dict[str, str] | None = None) -> Side:
    """Gives the side a command line tunes, or raises UserError (one line) for a family,
    parameter, role or seat the game lacks, or an --against it does not know.

    role_strategies ({role: strategy}, with `role` only): the roles not tuned that play a bot
    of their own rather than --against's parameters."""
    from sim.run.setups import role_setup
    from strategies.seats import canonical

    fixed = ()
    if role_strategies:
        if role is None:
            raise UserError("--role-strategy in tune goes with --role: the roles not tuned "
                            "play it")
        if role in role_strategies:
            raise UserError(f"--role-strategy names the role tuned ({role})")
        fixed = role_setup(game, role_strategies, None, rules)

    parameters = {p.name: p for p in family_parameters(game, family)}
    against = canonical(game, against, rules)
    start = vector_of(game, rules, family, against)
    if role is not None:
        roles = {r.name: r.parameters for r in roles_of(game)}
        if role not in roles:
            raise UserError(f"{game.name} has no roles to tune" if not roles else
                            f"{game.name} has no role {role!r}; its roles: {', '.join(roles)}")
        if seat is not None:
            raise UserError("--role and --seat exclude each other: a role moves between seats")
        if start is None:
            raise UserError(f"with --role, the other roles play --against's parameters: "
                            f"{against!r} is not of family {family!r}")
        allowed = roles[role]
    else:
        allowed = tuple(parameters)
        if seat is not None and not 0 <= seat < players:
            raise UserError(f"--seat: there is no seat {seat} with {players} players "
                            f"(seats are 0–{players - 1})")
    names = tuple(n.strip() for n in params.split(",") if n.strip()) if params else allowed
    if not names:
        raise UserError("--params names no parameter")
    for name in names:
        if name not in parameters:
            raise UserError(f"family {family!r} has no parameter {name!r}; its parameters: "
                            f"{', '.join(parameters)}")
        if name not in allowed:
            raise UserError(f"{name!r} also changes how the other roles play; with --role "
                            f"{role} the parameters are {', '.join(allowed)}")
    if start is None:  # the field plays another family: the search starts at the defaults
        start = tuple((p.name, p.default) for p in parameters.values())
    return Side(names, start, against, role, seat, roles=fixed)


def held_out_seed(seed: int) -> int:
    """Gives the seed of the held-out measurements: derived from the search seed, and never
    equal to it (the search's games are not measured again). Every step of an alternation is
    measured on it, so that the steps' rates differ by the bots alone (paired deals)."""
    digest = hashlib.sha256(f"{seed}:held-out".encode()).digest()
    derived = int.from_bytes(digest[:8], "little") >> 1
    return derived if derived != seed else derived ^ 1


# ---- playing candidates --------------------------------------------------------------------

def setups(side: Side, players: int) -> list[Setup]:
    """Gives the configurations a candidate plays (one per seat it takes in turn)."""
    field = side.field if isinstance(side.field, str) else FIELD
    if side.role is not None:
        return [Setup(players, (CANDIDATE,) * players, roles=side.roles)]
    if side.seat is not None:
        return [Setup(players, tuple(CANDIDATE if i == side.seat else field
                                     for i in range(players)))]
    if side.field_tuned:
        return [Setup(players, tuple(field if i == j else CANDIDATE for i in range(players)))
                for j in range(players)]
    return [Setup(players, tuple(CANDIDATE if i == j else field for i in range(players)))
            for j in range(players)]


def rules_with(rules: dict, family: str, side: Side, values: dict[str, float]) -> dict:
    """Gives the rules carrying the candidate `values` (and the field, when it is a vector) as
    presets of `family`."""
    extra = {CANDIDATE: {"family": family, **values}}
    if not isinstance(side.field, str):
        extra[FIELD] = {"family": family, **dict(side.field)}
    return presets_mod.with_presets(rules, {**presets_mod.user_presets(rules), **extra})


@dataclass(frozen=True)
class Task:
    """Games [start, stop) of one configuration, scored for the candidate."""

    game: str
    rules: dict
    setup: Setup
    role: str | None
    seed: int
    start: int
    stop: int
    usage: bool = False  # also count the candidate seats' moves of each kind

    def games(self) -> str:
        """Gives the task's games in words, for an error."""
        return f"games {self.start}-{self.stop - 1} of {', '.join(self.setup.seats)}"


Scores = dict[str, np.ndarray]  # a column's name -> its value per game, games in order


def score(task: Task) -> Scores:
    """Gives, per game of the task in order, the candidate's successes and trials `s`, `t`
    (won seat-games, or won seat-rounds in its role) and the game's headline successes and
    trials `__s`, `__t`; with `task.usage`, also the candidate's seat-games `seats` and their
    moves of each kind, `uses_<kind>` summed over them. From the engine's arrays when the game
    gives them (`outcomes`): a slice's tables cost a seventh of its games' time."""
    game = registry.get(task.game)
    if not hasattr(game, "outcomes"):
        return score_tables(task)
    played = game.outcomes(task.rules, task.setup, task.seed, task.start, task.stop)
    candidate = np.array([s == CANDIDATE for s in task.setup.seats])
    seats = np.full(task.stop - task.start, float(candidate.sum()))
    if task.role is not None:
        s, t = played.roles[task.role]
    else:
        s, t = played.won[:, candidate].sum(axis=1).astype(np.float64), seats
    scores = {"s": s, "t": t, "__s": played.headline[0], "__t": played.headline[1]}
    if task.usage:
        uses = played.uses[:, candidate].sum(axis=1).astype(np.float64)
        scores["seats"] = seats
        scores.update(zip(usage.names(played.kinds), uses.T))
    return scores


def score_tables(task: Task) -> Scores:
    """Gives `score` from the tables `play` gives (a game without `outcomes`)."""
    game = registry.get(task.game)
    tables = game.play(task.rules, task.setup, task.seed, task.start, task.stop, 0)
    ids = pl.DataFrame({"game_id": np.arange(task.start, task.stop, dtype=np.int64)})
    candidate = tables["seats"].filter(pl.col("seat").is_in(
        [i for i, s in enumerate(task.setup.seats) if s == CANDIDATE]))
    if task.role is not None:
        teams = {r.name: r.team for r in roles_of(game)}
        rows = (tables["rounds"].filter(pl.col("role") == task.role)
                .select("game_id", (pl.col("winner_team") == teams[task.role]).alias("won")))
    else:
        rows = candidate.select("game_id", "won")
    per_game = rows.group_by("game_id").agg(pl.col("won").cast(pl.Float64).sum().alias("s"),
                                            pl.len().cast(pl.Float64).alias("t"))
    headline = tables["games"].select("game_id", *game.headline.per_game())
    out = ids.join(per_game, on="game_id", how="left").join(headline, on="game_id", how="left")
    columns = ["s", "t", "__s", "__t"]
    if task.usage:
        kinds = usage.names(usage.kinds_of(candidate.columns))
        uses = candidate.group_by("game_id").agg(pl.len().cast(pl.Float64).alias("seats"),
                                                 *(pl.col(k).cast(pl.Float64).sum() for k in kinds))
        out, columns = out.join(uses, on="game_id", how="left"), [*columns, "seats", *kinds]
    out = out.sort("game_id").fill_null(0.0)
    return {c: out[c].to_numpy() for c in columns}


class Players:
    """Plays tasks here (one worker), on worker processes, or on a Dask cluster (`backend`
    "dask": a LocalCluster of `workers`, or the cluster at `scheduler`), giving their scores in
    order. A task's score depends on the task alone, so where it is played changes nothing."""

    def __init__(self, workers: int, backend: str = "local", scheduler: str | None = None):
        self.workers, self.backend, self.scheduler = workers, backend, scheduler
        self.pool = self.cluster = None

    def __enter__(self) -> Players:
        if self.backend == "dask":
            from sim.run.cluster import Dask

            self.cluster = Dask(None, None, self.workers, self.scheduler).__enter__()
            try:
                self.workers = self.cluster.threads()  # a cluster of the user's has its own size
            except BaseException as e:
                self.cluster.__exit__(type(e), e, e.__traceback__)
                raise
        elif self.workers > 1:
            import multiprocessing

            # this process plays a share too (`play`): one process fewer to start, and the
            # engine it loaded before (run's warm-up) plays. spawn: forking a process that
            # holds numba's and polars' threads is unsafe
            self.pool = ProcessPoolExecutor(self.workers - 1,
                                            mp_context=multiprocessing.get_context("spawn"))
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        if self.cluster is not None:
            self.cluster.__exit__(*exc)

    def play(self, tasks: list[Task]) -> Scores:
        """Gives the tasks' scores one after another (per game, tasks in order)."""
        if self.cluster is not None:
            results = self.cluster.map(score, tasks, Task.games)
        elif self.pool is not None:  # every workers-th task here, the others on the pool
            futures = {i: self.pool.submit(score, task) for i, task in enumerate(tasks)
                       if i % self.workers}
            results = [futures[i].result() if i in futures else score(task)
                       for i, task in enumerate(tasks)]
        else:
            results = [score(t) for t in tasks]
        return {c: np.concatenate([r[c] for r in results]) for c in results[0]}


def tasks(settings: Settings, side: Side, values: dict[str, float], seed: int, start: int,
          stop: int, workers: int, with_usage: bool = False) -> list[Task]:
    """Gives the tasks playing games [start, stop) of every configuration of the side, cut so
    that every worker gets a share (`with_usage`: counting the candidate's moves too)."""
    rules = rules_with(settings.rules, settings.family, side, values)
    configurations = setups(side, settings.players)
    pieces = max(1, min(math.ceil(workers / len(configurations)), (stop - start) // MIN_SLICE))
    bounds = np.linspace(start, stop, pieces + 1).astype(int)
    return [Task(settings.game, rules, setup, side.role, seed, int(a), int(b), with_usage)
            for setup in configurations for a, b in pairwise(bounds) if b > a]


# ---- the search ----------------------------------------------------------------------------

class Progress:
    """The progress line on a terminal: trial i/N, best so far, games/s (silent when piped)."""

    def __init__(self, label: str, trials: int, done: int, quiet: bool):
        self.label, self.trials, self.done = label, trials, done
        self.show = not quiet and sys.stderr.isatty()
        self.games, self.started = 0, time.monotonic()

    def played(self, games: int) -> None:
        self.games += games

    def trial(self, study, trial) -> None:
        self.done += 1
        if not self.show:
            return
        try:
            best = f"best {study.best_value:.4f} (trial {study.best_trial.number})"
        except ValueError:
            best = "best —"
        rate = self.games / max(time.monotonic() - self.started, 1e-9)
        sys.stderr.write(f"\r{self.label}: trial {self.done}/{self.trials} · {best} · "
                         f"{rate:,.0f} games/s   ")
        sys.stderr.flush()

    def close(self) -> None:
        if self.show:
            sys.stderr.write("\n")


def _sampler(name: str, seed: int):
    import optuna

    seed %= 2 ** 32  # the samplers' generators take 32-bit seeds; a run's seed has 63 bits
    if name == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed, warn_independent_sampling=False)
    return optuna.samplers.TPESampler(seed=seed)


def _pruner(name: str):
    import optuna

    if name == "halving":
        # first cut after a quarter of the games: one slice is too few to judge by
        return optuna.pruners.SuccessiveHalvingPruner(min_resource=2, reduction_factor=3)
    if name == "median":
        return optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=1)
    return optuna.pruners.NopPruner()


@dataclass
class Searched:
    """A finished search: the best vector, and what the search cost."""

    values: dict[str, float]
    value: float
    complete: int
    pruned: int
    games: int
    seconds: float


def search(settings: Settings, side: Side, out: Path, name: str, players: Players,
           quiet: bool) -> Searched:
    """Gives the best vector of the side's parameters found by `settings.trials` trials of the
    study `name` kept in `out` (`storage`; finished trials of an earlier attempt count)."""
    import optuna
    from optuna.trial import TrialState

    # Optuna logs a failed trial (a bot's error, an interruption) with its traceback before it
    # re-raises the error, which the command then says in one line: its warnings say no more.
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    started = time.monotonic()
    study = optuna.create_study(study_name=name, storage=storage(out),
                                load_if_exists=True, direction="maximize",
                                sampler=_sampler(settings.sampler, settings.seed),
                                pruner=_pruner(settings.pruner))
    parameters = {p.name: p for p in family_parameters(registry.get(settings.game),
                                                       settings.family)}
    start = dict(side.start)
    if not study.trials:  # the starting point is a candidate: the best is never worse in-sample
        study.enqueue_trial({n: start[n] for n in side.names})
    for stale in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study.tell(stale.number, state=TrialState.FAIL)  # cut short by an interruption
    finished = (TrialState.COMPLETE, TrialState.PRUNED)
    done = len(study.get_trials(deepcopy=False, states=finished))
    progress = Progress(name, settings.trials, done, quiet)
    bounds = np.linspace(0, settings.games, min(STEPS, settings.games) + 1).astype(int)

    def objective(trial) -> float:
        values = {**start, **{n: trial.suggest_float(n, parameters[n].low, parameters[n].high)
                              for n in side.names}}
        s = t = 0.0
        for step, (a, b) in enumerate(pairwise(bounds)):
            played = players.play(tasks(settings, side, values, settings.seed, a, b,
                                        players.workers))
            progress.played(len(played["s"]))
            s, t = s + float(played["s"].sum()), t + float(played["t"].sum())
            trial.report(s / t if t else 0.0, step)
            if trial.should_prune():
                raise optuna.TrialPruned()
        return s / t if t else 0.0

    try:
        study.optimize(objective, n_trials=max(0, settings.trials - done),
                       callbacks=[progress.trial])
    except UnboundLocalError as e:
        # Optuna (5.0, _run_trial) hides a Ctrl-C landing while it records a trial behind an
        # UnboundLocalError of its own: the interruption is what happened.
        if isinstance(e.__context__, KeyboardInterrupt):
            raise e.__context__ from None
        raise
    finally:
        progress.close()
    complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    pruned = study.get_trials(deepcopy=False, states=(TrialState.PRUNED,))
    best = study.best_trial
    values = {**start, **{n: _rounded(best.params[n], parameters[n]) for n in side.names}}
    return Searched(values, best.value, len(complete), len(pruned), progress.games,
                    time.monotonic() - started)


JOURNAL = "study.log"  # Optuna's trials (`storage`)
LEGACY_STUDY = "study.db"


def storage(out: Path):
    """Gives the Optuna storage of the tuning in `out`: the journal file JOURNAL, appended to
    as trials report (SQLite's commits cost a tuning of Saboteur a fifth of its CPU); a tuning
    begun in SQLite (LEGACY_STUDY, before the journal) continues there."""
    if (out / LEGACY_STUDY).exists():
        return f"sqlite:///{out / LEGACY_STUDY}"
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    return JournalStorage(JournalFileBackend(str(out / JOURNAL)))


def _rounded(value: float, parameter) -> float:
    """Gives a searched value as the presets file writes it (4 decimals, within its range)."""
    return float(min(max(round(value, 4), parameter.low), parameter.high))


# ---- measuring on fresh seeds --------------------------------------------------------------

@dataclass
class Measured:
    """A rate measured on held-out games, with its 95% interval (games as clusters)."""

    rate: float
    low: float
    high: float
    games: int


def _rate(s: np.ndarray, t: np.ndarray) -> Measured:
    """Gives the rate Σs/Σt over games with the summary's interval: Wilson's on the effective
    trials (trials over the design effect of games as clusters)."""
    S, T = float(s.sum()), float(t.sum())
    deff = float(design_effect(S, T, len(s), (s * s).sum(), (t * t).sum(), (s * t).sum()))
    low, high = wilson(S / T * (T / deff), T / deff) if T else (math.nan, math.nan)
    return Measured(S / T if T else math.nan, float(low), float(high), len(s))


@dataclass
class Usage:
    """How often the candidate's seats used each kind of move (the seats tables' `uses_<kind>`),
    per seat-game, when they played the start and when they played the tuned vector, on the
    same held-out deals."""

    kinds: tuple[str, ...]
    start: tuple[float, ...]
    tuned: tuple[float, ...]
    seat_games: int  # of the candidate's seats, each way
    # tuning a role: every seat plays the candidate in that role, and the tables count a seat's
    # moves over its whole game, so the figures are of every seat, in every role it held
    every_seat: bool = False

    def to_json(self) -> dict:
        return {"seat_games": self.seat_games, "every_seat": self.every_seat,
                "per_seat_game": {k: {"start": a, "tuned": b}
                                  for k, a, b in zip(self.kinds, self.start, self.tuned)}}


def usage_of(start: Scores, tuned: Scores, every_seat: bool) -> Usage:
    """Gives the use of each kind per candidate seat-game from the scores of the start's games
    and of the tuned vector's (the same games, `score` with usage); every_seat: a role's
    tuning (`Usage.every_seat`)."""
    columns = usage.names(usage.kinds_of(start))

    def means(played: Scores) -> tuple[float, ...]:
        seats = played["seats"].sum()
        return tuple(float(played[c].sum() / seats) if seats else math.nan for c in columns)

    return Usage(tuple(usage.kinds_of(start)), means(start), means(tuned),
                 int(start["seats"].sum()), every_seat)


@dataclass
class Gain:
    """The tuned vector against the starting one on the same held-out deals."""

    seed: int
    start: Measured
    tuned: Measured
    gain: float
    low: float
    high: float
    p: float
    headline: Measured  # the game's headline rate in the tuned configuration
    usage: Usage


def measure(settings: Settings, side: Side, start: dict, tuned: dict, seed: int,
            players: Players) -> Gain:
    """Gives the gain of `tuned` over `start` on games [0, gain_games) of `seed`, paired: both
    play the same deals, so the per-game differences carry the interval and the p-value
    (normal, by linearising the two ratio estimators over games); and what each used."""
    n = settings.gain_games
    a = players.play(tasks(settings, side, start, seed, 0, n, players.workers, True))
    b = players.play(tasks(settings, side, tuned, seed, 0, n, players.workers, True))
    (sa, ta), (sb, tb) = (a["s"], a["t"]), (b["s"], b["t"])
    ra, rb = sa.sum() / ta.sum(), sb.sum() / tb.sum()
    influence = (sb - rb * tb) / tb.sum() - (sa - ra * ta) / ta.sum()
    m = len(influence)
    se = float(np.sqrt((influence ** 2).sum() * m / max(m - 1, 1)))
    gain = float(rb - ra)
    p = float(two_sided_p(gain / se)) if se > 0 else (1.0 if gain == 0 else 0.0)
    return Gain(seed, _rate(sa, ta), _rate(sb, tb), gain, gain - Z95 * se, gain + Z95 * se, p,
                _rate(b["__s"], b["__t"]), usage_of(a, b, side.role is not None))


# ---- a tuning, from start to files ---------------------------------------------------------

def open_folder(out: Path, settings: Settings, resume: bool) -> bool:
    """Checks that `out` can hold this tuning; gives whether it continues an earlier one there
    (the same settings: rerunning the same command, or --resume)."""
    manifest = out / MANIFEST
    if out.is_file():
        raise UserError(f"--out {out} is a file; name a folder for the tuning")
    if manifest.is_file():
        try:
            earlier = json.loads(manifest.read_text())
        except (OSError, ValueError) as e:
            raise UserError(f"{manifest} cannot be read ({e}); name another --out") from None
        if _but_trials(earlier.get("settings")) != _but_trials(settings.to_json()):
            raise UserError(f"{out} holds a tuning with other settings; name another --out")
        return True
    if resume:
        raise UserError(f"--resume: {out} holds no tuning to continue")
    if out.is_dir() and any(out.iterdir()):
        raise UserError(f"--out {out} is a folder of other files; name a new or empty folder")
    return False


def _but_trials(settings) -> dict | None:
    """Gives the settings that must match to continue a tuning: all but the trial count (a
    tuning may be continued with more trials)."""
    return {k: v for k, v in settings.items() if k != "trials"} if isinstance(settings, dict) \
        else None


def stored_seed(out: Path) -> int | None:
    """Gives the search seed of the tuning in `out`, if it holds one (so rerunning resumes)."""
    try:
        return json.loads((out / MANIFEST).read_text())["settings"]["seed"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


@dataclass
class Step:
    """One step of a tuning (the only one without alternation): what was tuned, the search,
    the held-out gain."""

    number: int
    side: Side
    searched: Searched
    gain: Gain
    preset: str


def run(settings: Settings, out: Path, command: str, workers: int, quiet: bool,
        say: Callable[[str], None] = print, backend: str = "local",
        scheduler: str | None = None) -> list[Step]:
    """Gives the steps of a tuning after running them into `out`: one search (or
    `settings.alternate` searches, each side against the one tuned before) with its held-out
    gain, the presets of each step and gain.json. The games are played on `workers` local
    processes, or on Dask (`backend`, `scheduler`: as runs take them); the results are the same."""
    game = registry.get(settings.game)
    # what the candidates play, before any worker starts: workers load numba's cache
    warm(game, rules_with(settings.rules, settings.family, settings.side,
                          dict(settings.side.start)), setups(settings.side, settings.players))
    steps: list[Step] = []
    side = settings.side
    # connected before anything is written: an unreachable scheduler leaves no folder behind
    with Players(workers, backend, scheduler) as players:
        out.mkdir(parents=True, exist_ok=True)
        (out / MANIFEST).write_text(json.dumps(
            {"command": command, "settings": settings.to_json()}, indent=2) + "\n")
        for number in range(1, max(1, settings.alternate) + 1):
            if number > 1:
                side = next_side(settings, side, steps[-1].searched.values)
            searched = search(settings, side, out, f"step-{number}", players, quiet)
            gain = measure(settings, side, dict(side.start), searched.values,
                           held_out_seed(settings.seed), players)
            name = tuned_name(settings.game) + (f"-step-{number}" if settings.alternate else "")
            step = Step(number, side, searched, gain, name)
            steps.append(step)
            if settings.alternate:
                write_presets(out / f"step-{number}.toml", settings, [step], command)
                say(step_line(settings, step))
                say(usage_table(step.gain.usage, indent="  ") + "\n")
    final = [*steps[:-1], replace(steps[-1], preset=tuned_name(settings.game))]
    write_presets(out / "tuned.toml", settings, final, command)
    (out / "gain.json").write_text(json.dumps(
        {"command": command, "steps": [step_json(settings, s) for s in steps]}, indent=2) + "\n")
    return steps


def next_side(settings: Settings, side: Side, tuned: dict[str, float]) -> Side:
    """Gives the next step of an alternation: the other role against the roles just tuned, or
    (symmetric games) the field against one seat of the bot just tuned, and back."""
    vector = tuple(tuned.items())
    if side.role is not None:
        roles = roles_of(registry.get(settings.game))
        following = roles[([r.name for r in roles].index(side.role) + 1) % len(roles)]
        return Side(following.parameters, vector, side.field, following.name)
    # the tuned bot becomes the opponent; the other side starts where it was last
    start = side.field if not isinstance(side.field, str) else vector
    return Side(side.names, start, vector, None, None, not side.field_tuned)


def tuned_name(game: str) -> str:
    """Gives the name of a game's tuned preset, e.g. 'tuned-saboteur'; a '-no-' in the game's
    name (no-thanks) becomes '-no_', which a preset name may not hold (it marks a restriction:
    strategies/seats.py)."""
    return f"tuned-{game}".replace("-no-", "-no_")


def write_presets(path: Path, settings: Settings, steps: list[Step], command: str) -> None:
    """Writes a presets file holding the last step's tuned bot, which --strategies-file loads,
    with the command and every step's held-out gain in comments, and the gains as data in its
    [tuning.NAME] table (`held_out` reads it)."""
    step = steps[-1]
    lines = [f"# {command}"]
    for s in steps:
        g = s.gain
        lines += [(f"# step {s.number}: {s.side.describe(settings.game)}; "
                   f"{s.searched.complete + s.searched.pruned} trials "
                   f"({s.searched.pruned} pruned), search seed {settings.seed}"),
                  (f"# gain on held-out seed {g.seed} ({g.start.games:,} games, paired deals): "
                   f"{g.gain:+.4f} [{g.low:+.4f}, {g.high:+.4f}], p {g.p:.3g}")]
    lines += [f"[preset.{step.preset}]", f'family = "{settings.family}"']
    lines += [f"{name} = {value!r}" for name, value in step.searched.values.items()]
    lines += ["", f"[{TUNING}.{step.preset}]", f"players = {settings.players}", "held_out = ["]
    lines += [(f"  {{ step = {s.number}, tuned = {json.dumps(s.side.describe(settings.game))}, "
               f"seed = {s.gain.seed}, games = {s.gain.start.games}, gain = {s.gain.gain!r}, "
               f"low = {s.gain.low!r}, high = {s.gain.high!r}, p = {s.gain.p!r} }},")
              for s in steps]
    path.write_text("\n".join([*lines, "]"]) + "\n")


def held_out(path: Path) -> dict[str, list[dict]]:
    """Gives the held-out gains a presets file records for its presets (its [tuning.NAME]
    tables, as `write_presets` writes them): preset name -> the steps' gains, each with its
    `tuned` (what was measured), `games`, `gain`, `low`, `high`, `p`. Raises UserError (one
    line) for a table that does not read so."""
    from sim.packaged import user_file
    from sim.rules import read_toml

    tables = read_toml(user_file(path)).get(TUNING, {})
    found = {}
    for name, table in tables.items() if isinstance(tables, dict) else ():
        steps = table.get("held_out") if isinstance(table, dict) else None
        if not isinstance(steps, list) or not all(
                isinstance(s, dict) and isinstance(s.get("tuned"), str)
                and all(isinstance(s.get(k), (int, float)) for k in ("gain", "low", "high"))
                for s in steps):
            raise UserError(f"{path}: [{TUNING}.{name}] needs held_out = [{{ tuned = ..., "
                            "gain = ..., low = ..., high = ... }, ...]")
        found[name] = steps
    return found


def step_json(settings: Settings, step: Step) -> dict:
    """Gives a step as gain.json records it."""
    g, s = step.gain, step.searched
    return {"step": step.number, "tuned": step.side.describe(settings.game),
            "parameters_searched": list(step.side.names), "start": dict(step.side.start),
            "tuned_values": s.values, "preset": step.preset,
            "search": {"seed": settings.seed, "trials_complete": s.complete,
                       "trials_pruned": s.pruned, "games_played": s.games,
                       "seconds": round(s.seconds, 1), "best_in_search": s.value},
            "held_out": {"seed": g.seed, "games": g.start.games,
                         "start": asdict(g.start), "tuned": asdict(g.tuned),
                         "gain": g.gain, "low": g.low, "high": g.high, "p": g.p,
                         "headline": asdict(g.headline), "usage": g.usage.to_json()}}


def step_line(settings: Settings, step: Step) -> str:
    """Gives the line alternation prints after a step: what was tuned, its rate and the game's
    headline on fresh seeds, each with its 95% interval."""
    g = step.gain
    title = registry.get(settings.game).headline.title
    return (f"step {step.number}: {step.side.describe(settings.game)} "
            f"{_pct(g.tuned)} (was {_pct(g.start)}); {title} {_pct(g.headline)}")


def _pct(m: Measured) -> str:
    return f"{100 * m.rate:.1f}% [{100 * m.low:.1f}, {100 * m.high:.1f}]"


def report(settings: Settings, steps: list[Step], out: Path) -> str:
    """Gives the table `simulate tune` prints: the searched parameters, start and tuned, and
    the held-out gain with its interval and p-value."""
    game = registry.get(settings.game)
    last = steps[-1]
    s, g = last.searched, last.gain
    seconds = sum(step.searched.seconds for step in steps)
    games = sum(step.searched.games for step in steps)
    lines = [(f"{game.title} {settings.players}p, family {settings.family}: "
              f"{last.side.describe(settings.game)}"),
             (f"search: {len(steps)} step(s) × {settings.trials} trials × up to "
              f"{settings.games:,} games, seed {settings.seed}; {games:,} games in {seconds:.0f} s"
              f" ({games / max(seconds, 1e-9):,.0f} games/s); last step {s.complete} complete, "
              f"{s.pruned} pruned"), "",
             f"{'parameter':<20} {'start':>10} {'tuned':>10}"]
    start = dict(last.side.start)
    for name in last.side.names:
        lines.append(f"{name:<20} {start[name]:>10.4g} {s.values[name]:>10.4g}")
    lines += ["", f"held out (seed {g.seed}, {g.start.games:,} games, the same deals for both):",
              f"  start   {_pct(g.start)}", f"  tuned   {_pct(g.tuned)}",
              (f"  gain    {100 * g.gain:+.1f} points [{100 * g.low:+.1f}, "
               f"{100 * g.high:+.1f}], p {_p(g.p)}"),
              f"  {game.headline.title} (tuned): {_pct(g.headline)}", "",
              usage_table(g.usage), "",
              (f"presets: {out / 'tuned.toml'} (--strategies-file; strategy "
               f"{tuned_name(settings.game)}); gain: {out / 'gain.json'}")]
    return "\n".join(lines)


def usage_table(u: Usage, indent: str = "") -> str:
    """Gives the table of what the tuned seats used against the start, per seat-game on the
    same held-out deals: one row per kind the game counts."""
    whose = ("every seat, in whichever role it held (a role moves between seats)" if u.every_seat
             else "the tuned seats")
    lines = [f"uses per seat-game of {whose} (held out, {u.seat_games:,} seat-games each):",
             f"{'kind':<20} {'start':>10} {'tuned':>10} {'change':>10}"]
    lines += [f"{kind:<20} {a:>10.3f} {b:>10.3f} {b - a:>+10.3f}"
              for kind, a, b in zip(u.kinds, u.start, u.tuned)]
    return "\n".join(indent + line for line in lines)


def _p(p: float) -> str:
    return "< 0.001" if p < 0.001 else f"{p:.3f}"
