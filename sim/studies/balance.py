"""`simulate balance`: searches the rule values that bring a game's headline rate closest to its
target, then measures the answer again on fresh seeds.

The player counts are independent problems when every varied key belongs to one count (a key of
a per-count table, `saboteur_cards.{n}`); a key every count plays (`rounds`) joins them into
one problem, whose objective is the root mean square of the counts' distances to their targets.

A problem of at most SCAN_MAX candidate settings, or of no more than the trials, is scanned in
full: every candidate plays the same games (the same seed and game indices) in waves of doubling
size, each wave on a new seed, until the best candidate's interval is separated from every
other's or is at most ± precision. A larger problem is searched with Optuna's TPE sampler, each
trial an adaptive run (--until-ci at the precision) of a setting not tried before, on the one
search seed, so that trials too play the same games. Among the settings as near the target as
the nearest within one standard error of its rate, the answer is the one that changes the
fewest rules from their defaults. Every evaluation is an ordinary run folder
under OUT/search; the answer is played again into OUT/fresh on a seed the search never used.
"""

from __future__ import annotations

import itertools
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from reports.stats import design_effect, wilson
from sim import rules as rule_files
from sim.errors import UserError
from sim.game import Game, Setup, target_of
from sim.rule_keys import count_of

SCAN_MAX = 16  # candidates a problem scans in full (or up to --trials); beyond, Optuna searches
TOLERANCE = 0.02  # the verdict's "balanced within ±2 points"
_KEEP = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_.]*)\s*(<=|>=)\s*(-?\d+(?:\.\d*)?(?:[eE]-?\d+)?)\s*")


@dataclass(frozen=True)
class Keep:
    """A second figure kept in range: the mean of a games-table column, at most or at least a
    bound."""

    column: str
    at_most: bool
    bound: float

    def holds(self, mean: float) -> bool:
        return mean <= self.bound if self.at_most else mean >= self.bound


@dataclass
class Problem:
    """Player counts searched together, the rule keys varied and the values each takes."""

    counts: tuple[int, ...]
    values: dict[str, tuple]  # dotted key -> its candidate values
    templates: dict[str, str]  # dotted key -> the --vary template it comes from
    owners: dict[str, int | None]  # dotted key -> the player count it belongs to (None: all)
    defaults: dict[str, object] = field(default_factory=dict)  # dotted key -> its default value
    # the settings the game cannot play (each value alone can, not together) -> why
    skipped: dict[tuple, str] = field(default_factory=dict)

    def keys_at(self, candidate: tuple, players: int) -> tuple:
        """Gives the (key, value) pairs of a candidate that a player count plays."""
        return tuple((k, v) for k, v in candidate if self.owners[k] in (None, players))

    @property
    def size(self) -> int:
        """Gives how many settings the problem holds, less those skipped."""
        return math.prod(len(v) for v in self.values.values()) - len(self.skipped)

    def candidates(self) -> list[tuple]:
        """Gives every setting of the keys' values, but those skipped."""
        keys = sorted(self.values)
        return [c for combo in itertools.product(*(self.values[k] for k in keys))
                if (c := tuple(zip(keys, combo))) not in self.skipped]

    def changes(self, candidate: tuple) -> int:
        """Gives how many of a candidate's keys differ from their default values."""
        return sum(value != self.defaults.get(key) for key, value in candidate)


@dataclass(frozen=True)
class Bots:
    """Who plays the search's games: every seat's strategy, or strategies by role (Setup.roles,
    a seat playing its role's)."""

    seat: str
    roles: tuple[tuple[str, str], ...] = ()

    def setup(self, players: int, values: tuple = ()) -> Setup:
        """Gives the configuration of `players` these bots play with the rule values."""
        return Setup(players, (self.seat,) * players, (), values, roles=self.roles)

    @property
    def label(self) -> str:
        """Gives the bots as tables show them: 'default', or by role 'ROLE=NAME ROLE=NAME'."""
        return self.setup(1).strategies()[0]


@dataclass
class Measure:
    """A configuration's headline counts summed over the games played, and the keep column's
    sum."""

    games: int = 0
    successes: float = 0.0
    trials: float = 0.0
    sums: np.ndarray = field(default_factory=lambda: np.zeros(3))
    keep_total: float = 0.0

    def add(self, games: int, successes: float, trials: float, sums, keep_total: float) -> None:
        self.games += games
        self.successes += successes
        self.trials += trials
        self.sums = self.sums + np.asarray(sums, float)
        self.keep_total += keep_total

    @property
    def rate(self) -> float:
        return self.successes / self.trials if self.trials else math.nan

    def interval(self) -> tuple[float, float]:
        """Gives the rate's 95% Wilson interval on the effective trials (games as clusters)."""
        if not self.trials:
            return math.nan, math.nan
        deff = float(design_effect(self.successes, self.trials, self.games, *self.sums))
        effective = self.trials / deff
        return wilson(self.rate * effective, effective)

    def half_width(self) -> float:
        low, high = self.interval()
        return (high - low) / 2

    @property
    def keep_mean(self) -> float:
        return self.keep_total / self.games if self.games else math.nan


@dataclass
class Answer:
    """What the search recommends for one player count, as measured on fresh seeds."""

    players: int
    values: tuple  # (key, value) pairs this count plays
    target: float
    fresh: Measure
    keep_holds: bool | None


# --- Reading the command line ------------------------------------------------------------------


def parse_keep(text: str | None) -> Keep | None:
    """Gives the --keep bound (`turns<=180`), or None."""
    if text is None:
        return None
    match = _KEEP.fullmatch(text)
    if not match:
        raise UserError(f"--keep takes COLUMN<=NUMBER or COLUMN>=NUMBER (e.g. turns<=180), "
                        f"got {text!r}")
    return Keep(match[1], match[2] == "<=", float(match[3]))


def check_options(target: float | None, precision: float, trials: int) -> None:
    """Raises UserError for a --target outside [0, 1], a --precision outside (0, 0.5) or fewer
    than one trial."""
    if target is not None and not 0 <= target <= 1:
        raise UserError(f"--target is a rate between 0 and 1, got {target}")
    if not 0 < precision < 0.5:
        raise UserError(f"--precision takes a half-width between 0 and 0.5 (e.g. 0.01), got "
                        f"{precision}")
    if trials < 1:
        raise UserError(f"--trials must be at least 1, got {trials}")


def problems(game: Game, counts: list[int], varies: list[str], bots: Bots,
             say: Callable[[str], None] = lambda line: None,
             scans: int = SCAN_MAX) -> list[Problem]:
    """Gives the search problems of the --vary flags over the player counts, every key and value
    checked: the key is a rule (not a table), each value loads as the rules take it; a value the
    game cannot play at a count it belongs to is left out (and said); in a problem of at most
    `scans` settings (one scanned in full), so is every setting the game cannot play, its
    values together (an Optuna search checks each setting it draws). A `{n}` key gives one key
    per player count."""
    if not varies:
        raise UserError("--vary is needed: the rule to search, e.g. "
                        "--vary 'saboteur_cards.{n}=0-4'")
    values: dict[str, tuple] = {}
    templates: dict[str, str] = {}
    owner: dict[str, int | None] = {}
    for text in varies:
        template, sep, spec = text.partition("=")
        template = template.strip()
        if not sep or not template or not spec.strip():
            raise UserError(f"--vary takes KEY=LO-HI or KEY=V1,V2,... (e.g. "
                            f"'saboteur_cards.{{n}}=0-4'), got {text!r}")
        keys = ([template.replace("{n}", str(n)) for n in counts] if "{n}" in template
                else [template])
        for key in keys:
            values[key] = _values(game, key, spec.strip())
            templates[key] = template
            owner[key] = count_of(game.name, key)
            if owner[key] is not None and owner[key] not in counts:
                raise UserError(f"--vary {key}: it is a rule of {owner[key]} players, which "
                                "--players does not name")
    shared = [k for k, n in owner.items() if n is None]
    for n in counts:
        if not shared and not any(owner[k] == n for k in values):
            raise UserError(f"--vary changes no rule at {n} players: vary a key of every count "
                            "(e.g. hand_size.{n}) or leave that count out of --players")
    groups = [tuple(counts)] if shared else [(n,) for n in counts]
    found = []
    for group in groups:
        keys = [k for k in values if owner[k] is None or owner[k] in group]
        defaults = rule_files.defaults(game.name)
        problem = Problem(group, {k: values[k] for k in sorted(keys)},
                          {k: templates[k] for k in keys}, {k: owner[k] for k in keys},
                          {k: rule_files.frozen(rule_files.value_at(defaults, k)) for k in keys})
        found.append(_combinations(game, _playable(game, problem, bots, say), bots, scans, say))
    return found


def _values(game: Game, key: str, spec: str) -> tuple:
    """Gives the values --vary KEY=SPEC names, each loaded as the rules take it."""
    default = rule_files.value_at(rule_files.defaults(game.name), key)
    if default is None:
        raise UserError(f"--vary: unknown rule {key!r} (simulate rules {game.name} lists them)")
    if isinstance(default, dict):
        raise UserError(f"--vary {key} is a table; vary one of its keys, e.g. "
                        f"{key}.{next(iter(default))}")
    fixed, swept = rule_files.split_sweeps(game.name, [f"{key}={spec}"])
    found = []
    for override in swept[0] if swept else fixed:
        try:  # the rule's type and range; whether the game plays it is _playable's business
            rules = rule_files.load_rules(game.name, None, [override])
        except UserError as e:
            raise UserError(f"--vary {override}: {str(e).replace(' in --set', '')}") from None
        found.append(rule_files.frozen(rule_files.value_at(rules, key)))
    return tuple(found)


def _playable(game: Game, problem: Problem, bots: Bots,
              say: Callable[[str], None]) -> Problem:
    """Gives the problem without the values the game cannot play at a player count they belong
    to (e.g. fewer role cards than players), saying which were left out; raises UserError
    when a key has none left."""
    from sim.rules import with_values

    for key, options in problem.values.items():
        kept = []
        for value in options:
            try:
                rules = game.load_rules(None, [f"{key}={_toml(value)}"])
                for n in problem.counts:
                    if problem.owners[key] in (None, n):
                        game.check(with_values(rules, ((key, value),)), bots.setup(n))
                kept.append(value)
            except UserError as e:
                say(f"--vary {key}={_text(value)} left out: {e}")
        if not kept:
            raise UserError(f"--vary {key}: the game can play none of its values")
        problem.values[key] = tuple(kept)
    return problem


def _combinations(game: Game, problem: Problem, bots: Bots, scans: int,
                  say: Callable[[str], None]) -> Problem:
    """Gives the problem with the settings the game cannot play (its values together, at any of
    the problem's counts) skipped and said, when it has no more than `scans`; raises UserError,
    naming the first, when it can play none."""
    from sim.rules import with_values

    if problem.size > scans:
        return problem
    rules = game.load_rules(None, [])
    for candidate in problem.candidates():
        for n in problem.counts:
            try:
                game.check(with_values(rules, problem.keys_at(candidate, n)), bots.setup(n))
            except UserError as e:
                where = f" at {n}p" if len(problem.counts) > 1 else ""
                played = _values_text(problem.keys_at(candidate, n))
                problem.skipped[candidate] = f"{played}{where}: {e}"
                break
    if not problem.size:
        raise UserError(f"--vary: the game can play none of the {len(problem.skipped)} settings "
                        f"at {_counts_text(problem.counts)}; the first, "
                        f"{next(iter(problem.skipped.values()))}")
    if problem.skipped:
        say(skipped_line(problem))
    return problem


def skipped_line(problem: Problem) -> str:
    """Gives the line naming the settings of a problem the game cannot play, and why."""
    total = problem.size + len(problem.skipped)
    return (f"{_counts_text(problem.counts)}: {len(problem.skipped)} of {total} settings skipped, "
            f"the game cannot play them: {'; '.join(problem.skipped.values())}")


def check_keep_column(game: Game, keep: Keep | None, rules: dict, bots: Bots,
                      players: int) -> None:
    """Raises UserError unless --keep names a numeric column of the games table (read from one
    game played here)."""
    if keep is None:
        return
    import polars as pl

    games = game.play(rules, bots.setup(players), 0, 0, 1, 0)["games"]
    numeric = [c for c, t in games.schema.items() if t.is_numeric() or t == pl.Boolean]
    if keep.column not in numeric:
        raise UserError(f"--keep: the games table has no numeric column {keep.column!r} "
                        f"(it has {', '.join(numeric)})")


# --- Searching ---------------------------------------------------------------------------------


def derived_seed(seed: int, purpose: int, index: int = 0) -> int:
    """Gives a seed of its own for one purpose (1: the search's waves, 2: the fresh measure)
    and index, from the run's seed; distinct seeds never share a game."""
    state = np.random.SeedSequence(seed, spawn_key=(purpose, index)).generate_state(2, np.uint64)
    return int(state[0] >> np.uint64(1))


SEARCH, FRESH = 1, 2


@dataclass
class Search:
    """Plays the evaluations of a balance search as ordinary runs under `out`/search."""

    game: Game
    rules: dict
    bots: Bots
    out: Path
    workers: int
    keep: Keep | None
    say: Callable[[str], None]
    runs: int = 0
    seeds: list[int] = field(default_factory=list)  # the seeds the search played

    def run(self, configurations: list[tuple[int, tuple]], games: int, seed: int,
            until_ci: float | None, folder: Path | None = None):
        """Gives the run (sim.run.store.Run) of `games` games of each (players, rule values)
        configuration (or fewer, to --until-ci) on `seed`, its setups in their order."""
        from sim.run import runner

        setups = [self.bots.setup(n, values) for n, values in configurations]
        self.runs += 1
        if folder is None:
            folder = self.out / "search" / f"run-{self.runs:03d}"
            if seed not in self.seeds:
                self.seeds.append(seed)
        return runner.run(self.game, self.rules, setups, games, seed, folder, self.workers,
                          progress=False, until_ci=until_ci)

    def play(self, configurations: list[tuple[int, tuple]], games: int, seed: int,
             until_ci: float | None, folder: Path | None = None) -> list[Measure]:
        """Gives the Measure of each (players, rule values) configuration after playing
        `games` games of each (or fewer, to --until-ci) on `seed`, as one run."""
        run = self.run(configurations, games, seed, until_ci, folder)
        measures = [Measure() for _ in configurations]
        done = run.done_chunks()
        for chunk, (successes, trials, *sums) in run.counts().items():
            if (chunk.setup, chunk.start) in done:
                measures[chunk.setup].add(chunk.games, successes, trials, sums, 0.0)
        if self.keep:
            import polars as pl

            totals = (run.scan("games").group_by("setup")
                      .agg(pl.col(self.keep.column).cast(pl.Float64).sum()).collect().iter_rows())
            for k, total in totals:
                measures[k].keep_total = total
        return measures


def distance(problem: Problem, targets: dict[int, float], by_count: dict[int, Measure]) -> float:
    """Gives a candidate's objective: the root mean square over the problem's counts of its
    rates' distances to their targets."""
    return math.sqrt(sum((by_count[n].rate - targets[n]) ** 2 for n in problem.counts)
                     / len(problem.counts))


def _distance_bounds(measure: Measure, target: float) -> tuple[float, float]:
    """Gives the interval of a rate's distance to its target (0 at best when it covers it)."""
    low, high = measure.interval()
    far = max(abs(low - target), abs(high - target))
    near = 0.0 if low <= target <= high else min(abs(low - target), abs(high - target))
    return near, far


def scan(search: Search, searched: list[Problem], targets: dict[int, float], precision: float,
         most_games: int, seed: int) -> dict[int, dict[tuple, dict[int, Measure]]]:
    """Gives every candidate's Measure per player count, each problem scanned in full in waves
    of doubling size on new seeds until its best candidate is separated from the others or
    measured to ± precision (or has played `most_games` games)."""
    found = {id(p): {c: {n: Measure() for n in p.counts} for c in p.candidates()}
             for p in searched}
    active = list(searched)
    played, wave = 0, 0
    size = max(100, math.ceil(_first_guess(precision) / 4))
    while active and played < most_games:
        wave += 1
        games = min(size if wave == 1 else played, most_games - played)
        configurations, owners = [], []
        for p in active:
            for candidate in found[id(p)]:
                for n in p.counts:
                    configurations.append((n, p.keys_at(candidate, n)))
                    owners.append((p, candidate, n))
        wave_seed = derived_seed(seed, SEARCH, wave)
        search.say(f"wave {wave}: {len(configurations)} configuration(s) × {games:,} games, "
                   f"seed {wave_seed}")
        for (p, candidate, n), measure in zip(owners, search.play(configurations, games,
                                                                    wave_seed, None)):
            m = found[id(p)][candidate][n]
            m.add(measure.games, measure.successes, measure.trials, measure.sums,
                  measure.keep_total)
        played += games
        still = []
        for p in active:
            best, done = _scan_state(p, found[id(p)], targets, precision, search.keep)
            search.say(f"  {_counts_text(p.counts)}: best {_values_text(best)}"
                       f" {_rates_text(found[id(p)][best], p.counts)}"
                       f"{' (stops)' if done or played >= most_games else ''}")
            if not done:
                still.append(p)
        active = still
    return found


def _scan_state(problem: Problem, measures: dict[tuple, dict[int, Measure]],
                targets: dict[int, float], precision: float, keep: Keep | None):
    """Gives (the answer so far, whether the problem's scan may stop): it stops when the nearest
    candidate is measured to ± precision, or (one player count) separated from every other."""
    best = choose(problem, measures, targets, keep)
    nearest = _nearest(problem, measures, targets, keep)
    if max(measures[nearest][n].half_width() for n in problem.counts) <= precision:
        return best, True
    if len(problem.counts) > 1:  # several counts: only the precision stops a joint scan
        return best, False
    n = problem.counts[0]
    _, worst = _distance_bounds(measures[nearest][n], targets[n])
    separated = all(_distance_bounds(m[n], targets[n])[0] > worst
                    for c, m in measures.items() if c != nearest)
    return best, separated


def _kept(problem: Problem, measures: dict[tuple, dict[int, Measure]],
          keep: Keep | None) -> list[tuple]:
    """Gives the candidates that keep the --keep bound (all when none does)."""
    def kept(c):
        return keep is None or all(keep.holds(measures[c][n].keep_mean) for n in problem.counts)

    return [c for c in measures if kept(c)] or list(measures)


def _nearest(problem: Problem, measures: dict[tuple, dict[int, Measure]],
             targets: dict[int, float], keep: Keep | None) -> tuple:
    """Gives the candidate measured nearest its targets among those _kept."""
    return min(_kept(problem, measures, keep),
               key=lambda c: distance(problem, targets, measures[c]))


def choose(problem: Problem, measures: dict[tuple, dict[int, Measure]],
           targets: dict[int, float], keep: Keep | None) -> tuple:
    """Gives the answer: among the candidates that keep the --keep bound (all when none does)
    and are as near the target as the nearest within its precision (at every player count,
    their distance exceeds the nearest's by at most one standard error of the nearest's
    rate), the one that changes the fewest rules from their defaults, the nearest of those
    that change as few."""
    from reports.stats import Z95

    nearest = _nearest(problem, measures, targets, keep)
    slack = {n: measures[nearest][n].half_width() / Z95 for n in problem.counts}
    far = {n: abs(measures[nearest][n].rate - targets[n]) + slack[n] for n in problem.counts}

    def tied(c):
        return all(abs(measures[c][n].rate - targets[n]) <= far[n] for n in problem.counts)

    return min((c for c in _kept(problem, measures, keep) if tied(c)),
               key=lambda c: (problem.changes(c), distance(problem, targets, measures[c])))


def _objective(search: Search, problem: Problem, targets: dict[int, float],
               by_count: dict[int, Measure]) -> float:
    """Gives what Optuna minimises: the distance, plus 1 outside the --keep bound (any setting
    within the bound beats every one outside it)."""
    value = distance(problem, targets, by_count)
    if search.keep and not all(search.keep.holds(by_count[n].keep_mean) for n in problem.counts):
        value += 1.0
    return value


def optimise(search: Search, problem: Problem, targets: dict[int, float], precision: float,
             most_games: int, seed: int, trials: int) -> dict[tuple, dict[int, Measure]]:
    """Gives the Measure per player count of the `trials` settings Optuna's TPE sampler tried
    (`tried_by_optuna`), each an adaptive run (to ± precision) on the one search seed."""
    import optuna

    # a failed trial (a bot's error, an interruption) is the command's one line, not Optuna's
    # warning with its traceback first (as in tune)
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    study = optuna.create_study(sampler=optuna.samplers.TPESampler(seed=seed % 2**32))
    search_seed = derived_seed(seed, SEARCH, 0)
    search.say(f"Optuna TPE {_counts_text(problem.counts)}: {trials} of {problem.size:,} "
               f"settings, seed {search_seed}")
    found: dict[tuple, dict[int, Measure]] = {}

    def evaluate(candidate: tuple) -> tuple[dict[int, Measure], float]:
        measures = search.play([(n, problem.keys_at(candidate, n)) for n in problem.counts],
                               most_games, search_seed, precision)
        found[candidate] = dict(zip(problem.counts, measures))
        best = choose(problem, found, targets, search.keep)
        search.say(f"trial {len(found)}/{trials} {_counts_text(problem.counts)}: "
                   f"{_values_text(candidate)} {_rates_text(found[candidate], problem.counts)}"
                   f"; best {_values_text(best)}")
        return found[candidate], _objective(search, problem, targets, found[candidate])

    return tried_by_optuna(study, search, problem, trials, evaluate)


def tried_by_optuna(study, search: Search, problem: Problem, trials: int,
                    evaluate: Callable[[tuple], tuple[object, object]]) -> dict[tuple, object]:
    """Gives, for each setting an Optuna `study` tried (at most `trials`, the defaults first
    when the ranges hold them), what `evaluate(setting) -> (result, value)` gave, the trial
    told its value (a number, or a list for a multi-objective study). A setting the game
    cannot play is pruned. No setting is played twice: when the sampler proposes one it has
    tried, it is told that setting's value again and its next trial is an untried setting near
    it (`_untried_near`). A key of ordered numbers is an integer to the sampler (the index of
    its value), any other a category."""
    import optuna

    from sim.rules import with_values

    keys = sorted(problem.values)
    ordered = {k: _ordered(problem.values[k]) for k in keys}
    labels = {k: [_text(v) for v in problem.values[k]] for k in keys}

    def suggest(trial, key: str) -> int:  # gives the index of the key's value
        if ordered[key]:
            return trial.suggest_int(key, 0, len(labels[key]) - 1)
        return labels[key].index(trial.suggest_categorical(key, labels[key]))

    def enqueue(index: tuple) -> None:
        study.enqueue_trial({k: i if ordered[k] else labels[k][i] for k, i in zip(keys, index)})

    sizes = [len(labels[k]) for k in keys]
    if all(problem.defaults.get(k) in problem.values[k] for k in keys):
        enqueue(tuple(problem.values[k].index(problem.defaults[k]) for k in keys))
    found: dict[tuple, object] = {}
    told: dict[tuple, object] = {}  # a tried setting's index -> its value (None: unplayable)
    while len(found) < trials and len(told) < problem.size:
        trial = study.ask()
        index = tuple(suggest(trial, k) for k in keys)
        if index in told:
            if told[index] is None:
                study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            else:
                study.tell(trial, told[index])
            enqueue(_untried_near(index, sizes, told))
            continue
        candidate = tuple((k, problem.values[k][i]) for k, i in zip(keys, index))
        try:
            for n in problem.counts:
                search.game.check(with_values(search.rules, problem.keys_at(candidate, n)),
                                  search.bots.setup(n))
        except UserError:
            told[index] = None
            study.tell(trial, state=optuna.trial.TrialState.PRUNED)
            continue
        found[candidate], told[index] = evaluate(candidate)
        study.tell(trial, told[index])
    if not found:
        raise UserError("no setting the search tried can be played")
    return found


def _ordered(values: tuple) -> bool:
    """Gives whether a key's values are numbers in increasing or decreasing order."""
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return False
    steps = [b - a for a, b in itertools.pairwise(values)]
    return all(d > 0 for d in steps) or all(d < 0 for d in steps)


def _untried_near(index: tuple, sizes: list[int], tried) -> tuple:
    """Gives the untried setting (value indices) nearest `index` with one key changed, by the
    fewest steps; when every such one is tried, the first untried setting."""
    near = [index[:k] + (i,) + index[k + 1:] for k, size in enumerate(sizes)
            for i in range(size) if i != index[k]]
    near = [u for u in near if u not in tried]
    if near:
        return min(near, key=lambda u: (sum(abs(a - b) for a, b in zip(u, index)), u))
    return next(u for u in itertools.product(*map(range, sizes)) if u not in tried)


def _first_guess(precision: float) -> int:
    from reports.stats import Z95

    return math.ceil(Z95 ** 2 * 0.25 / precision ** 2)


# --- The whole command -------------------------------------------------------------------------


@dataclass
class Result:
    """A finished balance search: the answers per player count and every evaluation."""

    answers: list[Answer]
    evaluations: list[tuple[Problem, dict[tuple, dict[int, Measure]], tuple]]  # and the best
    search_seeds: list[int]
    fresh_seed: int
    methods: dict[tuple[int, ...], str]
    keep: Keep | None
    bots: Bots


def balance(game: Game, counts: list[int], varies: list[str], *, target: float | None,
            keep: Keep | None, precision: float, most_games: int, trials: int, seed: int,
            workers: int, out: Path, bots: Bots = Bots("default"),
            say: Callable[[str], None] = lambda line: print(line, file=sys.stderr)) -> Result:
    """Gives the search's answer, every run it played written under `out` (search/, fresh/)."""
    rules = game.load_rules(None, [])
    scans = max(SCAN_MAX, trials)  # a problem no larger is scanned in full
    searched = problems(game, counts, varies, bots, say, scans)
    check_keep_column(game, keep, rules, bots, counts[0])
    # the game's declared target (a team's 50%, else a seat's fair share 1/players)
    targets = {n: float(target_of(game).at(n, target)) for n in counts}
    search = Search(game, rules, bots, out, workers, keep, say)
    small = [p for p in searched if p.size <= scans]
    evaluations = []
    methods = {}
    if small:
        found = scan(search, small, targets, precision, most_games, seed)
        for p in small:
            evaluations.append((p, found[id(p)], choose(p, found[id(p)], targets, keep)))
            methods[p.counts] = "full scan"
    for p in searched:
        if p.size > scans:
            found = optimise(search, p, targets, precision, most_games, seed, trials)
            evaluations.append((p, found, choose(p, found, targets, keep)))
            methods[p.counts] = f"Optuna TPE, {len(found)} trials of {p.size:,} settings"
    evaluations.sort(key=lambda e: e[0].counts)
    fresh_seed = derived_seed(seed, FRESH)
    configurations = [(n, p.keys_at(best, n)) for p, _, best in evaluations for n in p.counts]
    say(f"fresh measure: {len(configurations)} configuration(s), seed {fresh_seed}")
    fresh = search.play(configurations, most_games, fresh_seed, precision, out / "fresh")
    answers = [Answer(n, values, targets[n], measure,
                      keep.holds(measure.keep_mean) if keep else None)
               for (n, values), measure in zip(configurations, fresh)]
    return Result(answers, evaluations, search.seeds, fresh_seed, methods, keep, bots)


# --- Telling the answer ------------------------------------------------------------------------


def verdict(game: Game, answer: Answer) -> str:
    """Gives the answer's verdict against its target, from its fresh 95% interval."""
    low, high = answer.fresh.interval()
    t = answer.target
    above, below = target_of(game).named()
    if t - TOLERANCE <= low and high <= t + TOLERANCE:
        return f"balanced within ±{TOLERANCE * 100:g} points"
    if low > t:
        return f"favours {above}"
    if high < t:
        return f"favours {below}"
    return f"on target; ±{TOLERANCE * 100:g} points needs more games"


def crossings(result: Result) -> list[str]:
    """Gives a line for each player count whose answer misses its target because the rate
    jumps across it between two neighbouring values of its one varied key (no value of the
    range comes nearer: a step between them, or another rule, is needed)."""
    lines = []
    for problem, found, best in result.evaluations:
        if len(problem.values) != 1 or len(problem.counts) != 1 or len(found) < problem.size:
            continue  # only a full scan of one key knows every neighbour
        (key, values), n = next(iter(problem.values.items())), problem.counts[0]
        answer = next(a for a in result.answers if a.players == n)
        low, high = answer.fresh.interval()
        if low <= answer.target <= high:
            continue
        rates = [(v, found[((key, v),)][n].rate) for v in values]
        for (a, rate_a), (b, rate_b) in itertools.pairwise(rates):
            if (rate_a - answer.target) * (rate_b - answer.target) < 0:
                lines.append(f"{n}p: the rate jumps across the target between {key}={_text(a)} "
                             f"({rate_a:.1%}) and {_text(b)} ({rate_b:.1%}); no value of the "
                             "range comes nearer")
    return lines


def unreached(result: Result) -> list[str]:
    """Gives a line for each player count whose answer misses its target (on fresh seeds) when
    no setting the search measured reached it (its interval covering the target) and no line of
    `crossings` says why: the search could not come nearer."""
    jumps = crossings(result)
    lines = []
    for problem, found, best in result.evaluations:
        for n in problem.counts:
            answer = next(a for a in result.answers if a.players == n)
            low, high = answer.fresh.interval()
            if (low <= answer.target <= high or any(line.startswith(f"{n}p:") for line in jumps)
                    or any(m[n].interval()[0] <= answer.target <= m[n].interval()[1]
                           for m in found.values())):
                continue
            settings = (f"of the {problem.size:,} settings" if len(found) == problem.size else
                        f"of the {len(found):,} settings tried (of {problem.size:,})")
            chosen = ", the defaults" if problem.changes(best) == 0 else ""
            lines.append(f"{n}p: no setting {settings} reaches the target {answer.target:.1%}; "
                         f"none comes nearer, within the precision, than the one recommended "
                         f"({_values_text(answer.values)}{chosen})")
    return lines


def report(game: Game, result: Result, out: Path) -> str:
    """Writes the answer's files into `out` (balanced.toml, response.png, evaluations.csv) and
    gives what the command prints: how each problem was searched, the table, the files."""
    from reports.balance_chart import response_chart
    from sim.run.runner import _command

    command = _command()
    files = [write_config(out / "balanced.toml", game, result, command),
             response_chart(out / "response.png", result, game.headline.title),
             write_evaluations(out / "evaluations.csv", result)]
    searched = "; ".join(f"{_counts_text(counts)} {method}"
                         for counts, method in result.methods.items())
    lines = [f"{game.title}: {game.headline.title} brought to its target ({searched}), "
             f"played by {result.bots.label}.",
             (f"Search seeds {', '.join(map(str, result.search_seeds))}; the answer measured "
              f"again on seed {result.fresh_seed} (never used by the search)."), "",
             table(game, result, result.keep), ""]
    notes = ([skipped_line(p) for p, _, _ in result.evaluations if p.skipped]
             + crossings(result) + unreached(result))
    lines += [*notes, ""] if notes else []
    lines += [f"wrote {path}" for path in files]
    return "\n".join(lines)


def table(game: Game, result: Result, keep: Keep | None) -> str:
    """Gives the answer as a text table, one row per player count."""
    head = ["players", "recommended", "rate (95% CI, fresh seeds)", "target", "distance",
            "games", "verdict"]
    if keep:
        head.insert(-1, f"mean {keep.column}")
    rows = []
    for a in result.answers:
        low, high = a.fresh.interval()
        row = [f"{a.players}", _values_text(a.values) or "(defaults)",
               f"{a.fresh.rate:.1%} [{low * 100:.1f}, {high * 100:.1f}]", f"{a.target:.1%}",
               f"{(a.fresh.rate - a.target) * 100:+.1f} pts", f"{a.fresh.games:,}",
               verdict(game, a)]
        if keep:
            row.insert(-1, f"{a.fresh.keep_mean:.1f}{'' if a.keep_holds else ' (outside)'}")
        rows.append(row)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head, *rows]]
    return "\n".join([lines[0], "  ".join("-" * w for w in widths), *lines[1:]])


def write_config(path: Path, game: Game, result: Result, command: str) -> Path:
    """Writes the recommended values as a --config TOML file (tables by dotted key)."""
    tables: dict[str, list[tuple[str, object]]] = {}
    for a in result.answers:
        for key, value in a.values:
            table_name, _, last = key.rpartition(".")
            if (last, value) not in tables.setdefault(table_name, []):
                tables[table_name].append((last, value))
    lines = [f"# {game.title} rules found by: {command}",
             (f"# Use: simulate {game.name} --config {path.name} (these values change the "
              "defaults).")]
    for a in result.answers:
        low, high = a.fresh.interval()
        lines.append(f"# {a.players}p: {a.fresh.rate:.1%} [{low:.1%}, {high:.1%}] on fresh seeds,"
                     f" target {a.target:.1%}, played by {result.bots.label}")
    for name in sorted(tables, key=lambda t: (t != "", t)):
        lines.append("")
        if name:
            lines.append(f"[{name}]")
        for key, value in tables[name]:
            lines.append(f"{key} = {_toml(value)}")
    path.write_text("\n".join(lines) + "\n")
    return path


def _toml(value) -> str:
    import json

    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def write_evaluations(path: Path, result: Result) -> Path:
    """Writes every evaluation of the search as CSV: player count, key values, games, rate and
    its 95% interval on the search seeds."""
    import polars as pl

    rows = []
    for p, found, best in result.evaluations:
        for candidate, by_count in found.items():
            for n in p.counts:
                m = by_count[n]
                low, high = m.interval()
                row = {"players": n, "setting": _values_text(p.keys_at(candidate, n)),
                       "chosen": candidate == best, "games": m.games, "rate": m.rate,
                       "low": low, "high": high}
                if result.keep:
                    row[f"mean {result.keep.column}"] = m.keep_mean
                rows.append(row)
    pl.DataFrame(rows).write_csv(path)
    return path


def _text(value) -> str:
    from sim.game import _rule_text

    return _rule_text(value)


def _values_text(values: tuple) -> str:
    return " ".join(f"{k}={_text(v)}" for k, v in values)


def _counts_text(counts: tuple[int, ...]) -> str:
    return f"{counts[0]}p" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}p"


def _rates_text(by_count: dict[int, Measure], counts: tuple[int, ...]) -> str:
    parts = []
    for n in counts:
        parts.append(f"{by_count[n].rate:.1%} ±{by_count[n].half_width() * 100:.1f}")
    return ", ".join(parts)
