"""`simulate balance --profile`: searches the rule values that bring every target of a designer's
profile (reports.profile) within its range at once, then measures the answer again on fresh
seeds.

The problems are balance's (sim.studies.balance: the --vary keys, player counts searched
together when a key is shared). A setting is scored by one distance per target: how far its
estimate lies outside the target's range, in range widths (0 inside), the farthest of the
problem's player counts. A problem of at most SCAN_MAX settings, or of no more than the
trials, is played in full (one run, every setting on the same games, each to the headline's
--precision); a larger one is searched by Optuna's multi-objective TPE sampler over the
distances, the defaults first. The
settings whose estimates meet every target are the answer, fewest rules changed first; when
none does, the targets conflict over the values tried and the answer is the Pareto set (the
settings no other comes nearer on every target). Each is played again on a seed the search
never used, and each target is then met, missed or undecided by its 95% interval, as
`report --profile` decides.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import polars as pl

from reports import profile as profiles
from reports.sections import ReportContext
from sim.errors import UserError
from sim.game import Game
from sim.studies.balance import (FRESH, SCAN_MAX, SEARCH, Bots, Problem, Search, _counts_text,
                                 _toml, _values_text, derived_seed, problems, tried_by_optuna)

SHOWN = 5  # settings the answer lists at most (re-measured on fresh seeds)


@dataclass
class Scored:
    """A setting measured on one run: its targets' rows (configuration per player count) and
    its distance to each target (the farthest player count's)."""

    candidate: tuple
    rows: pl.DataFrame  # reports.profile.Checked.rows, with `players`
    distances: tuple[float, ...]

    @property
    def meets(self) -> bool:
        return not any(self.distances)


@dataclass
class Result:
    """A finished profile search: the settings recommended (measured on fresh seeds) per
    problem, every setting scored, and how each problem was searched."""

    profile: profiles.Profile
    problems: list[Problem]
    scored: dict[tuple[int, ...], list[Scored]]  # a problem's counts -> its settings
    answers: dict[tuple[int, ...], list[Scored]]  # the same, the recommended, fresh seeds
    conflict: dict[tuple[int, ...], bool]  # no setting met every target: the Pareto set
    methods: dict[tuple[int, ...], str]
    search_seeds: list[int]
    fresh_seed: int
    bots: Bots


def score(search: Search, profile: profiles.Profile, problem_of: list[tuple[Problem, tuple]],
          games: int, seed: int, precision: float, folder: Path | None = None) -> list[Scored]:
    """Gives each (problem, setting) scored on one run of all their configurations on `seed`;
    UserError when a target cannot be measured on it (nothing to search for). A configuration
    two settings share (at a player count that plays a key neither changes there) plays once:
    two setups of one label would be one configuration, its games counted twice."""
    index: dict[tuple, int] = {}  # (players, rule values) -> its setup in the run
    owners = [(k, n, index.setdefault((n, problem.keys_at(candidate, n)), len(index)))
              for k, (problem, candidate) in enumerate(problem_of) for n in problem.counts]
    run = search.run(list(index), games, seed, precision, folder)
    ctx = ReportContext([run], search.game, search.out / "charts")
    found = profiles.check(ctx, profile)
    if found.unmeasured:
        key, why = next(iter(found.unmeasured.items()))
        raise UserError(f"--profile {profile.name}: {key} cannot be searched: {why}")
    labels = ctx.configs.sort("setup")["configuration"].to_list()
    scored = []
    for k, (problem, candidate) in enumerate(problem_of):
        mine = pl.concat([found.rows.filter(pl.col("configuration") == labels[setup])
                          .with_columns(pl.lit(n).alias("players"))
                          for owner, n, setup in owners if owner == k])
        scored.append(Scored(candidate, mine, tuple(
            max((profiles.distance(key, bounds, e) for e in
                 mine.filter(pl.col("target") == key)["estimate"].to_list()), default=math.inf)
            for key, bounds in profile.targets.items())))
    return scored


def pareto(scored: list[Scored]) -> list[Scored]:
    """Gives the settings no other is at least as near on every target and nearer on one."""
    def beaten(a: Scored) -> bool:
        return any(all(y <= x for x, y in zip(a.distances, b.distances)) and
                   b.distances != a.distances for b in scored)

    return [a for a in scored if not beaten(a)]


def recommended(problem: Problem, scored: list[Scored]) -> tuple[list[Scored], bool]:
    """Gives the settings to recommend, fewest rules changed first, then nearest (the sum of
    the distances): those meeting every target, or (True) the Pareto set when none does."""
    meeting = [s for s in scored if s.meets]
    chosen = meeting or pareto(scored)
    chosen.sort(key=lambda s: (problem.changes(s.candidate), sum(s.distances)))
    return chosen[:SHOWN], not meeting


def optimise(search: Search, profile: profiles.Profile, problem: Problem, games: int,
             seed: int, precision: float, trials: int) -> list[Scored]:
    """Gives the `trials` settings Optuna's multi-objective TPE sampler tried over the
    targets' distances (balance's `tried_by_optuna`), each scored on its own run on the one
    search seed."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.ERROR)  # a failed trial is the command's line
    study = optuna.create_study(directions=["minimize"] * len(profile.targets),
                                sampler=optuna.samplers.TPESampler(seed=seed % 2**32))
    search_seed = derived_seed(seed, SEARCH, 0)
    search.say(f"Optuna multi-objective TPE {_counts_text(problem.counts)}: {trials} of "
               f"{problem.size:,} settings, seed {search_seed}")
    tried = 0

    def evaluate(candidate: tuple) -> tuple[Scored, list[float]]:
        nonlocal tried
        (scored,) = score(search, profile, [(problem, candidate)], games, search_seed, precision)
        tried += 1
        search.say(f"trial {tried}/{trials} {_counts_text(problem.counts)}: "
                   f"{_values_text(candidate)} {_distances_text(profile, scored)}")
        # an unmeasurable figure (no estimate) is infinitely far; Optuna takes finite values
        return scored, [min(d, 1e9) for d in scored.distances]

    return list(tried_by_optuna(study, search, problem, trials, evaluate).values())


def _distances_text(profile: profiles.Profile, scored: Scored) -> str:
    return ", ".join(f"{k} {'ok' if not d else f'off by {d:.2f} ranges'}"
                     for k, d in zip(profile.targets, scored.distances))


def balance(game: Game, counts: list[int], varies: list[str], profile: profiles.Profile, *,
            precision: float, most_games: int, trials: int, seed: int, workers: int, out: Path,
            bots: Bots = Bots("default"),
            say: Callable[[str], None] = lambda line: print(line, file=sys.stderr)) -> Result:
    """Gives the profile search's answer, every run it played written under `out` (search/,
    fresh/)."""
    for key in profile.targets:
        if profiles.KEYS[key].unsearchable:
            raise UserError(f"--profile {profile.name}: {key} cannot be searched: "
                            f"{profiles.KEYS[key].unsearchable}")
    rules = game.load_rules(None, [])
    scans = max(SCAN_MAX, trials)  # a problem no larger is played in full (as balance's)
    searched = problems(game, counts, varies, bots, say, scans)
    search = Search(game, rules, bots, out, workers, None, say)
    scored: dict[tuple[int, ...], list[Scored]] = {}
    methods = {}
    small = [p for p in searched if p.size <= scans]
    if small:
        pairs = [(p, c) for p in small for c in p.candidates()]
        wave_seed = derived_seed(seed, SEARCH, 1)
        say(f"full scan: {len(pairs)} setting(s) × up to {most_games:,} games, seed {wave_seed}")
        for (p, _), s in zip(pairs, score(search, profile, pairs, most_games, wave_seed,
                                          precision)):
            scored.setdefault(p.counts, []).append(s)
        methods.update({p.counts: f"full scan of {p.size:,} settings" for p in small})
    for p in searched:
        if p.size > scans:
            scored[p.counts] = optimise(search, profile, p, most_games, seed, precision, trials)
            methods[p.counts] = (f"Optuna multi-objective TPE, {len(scored[p.counts])} trials "
                                 f"of {p.size:,} settings")
    chosen, conflict = {}, {}
    for p in searched:
        chosen[p.counts], conflict[p.counts] = recommended(p, scored[p.counts])
    fresh_seed = derived_seed(seed, FRESH)
    pairs = [(p, s.candidate) for p in searched for s in chosen[p.counts]]
    say(f"fresh measure: {len(pairs)} setting(s), seed {fresh_seed}")
    fresh = iter(score(search, profile, pairs, most_games, fresh_seed, precision, out / "fresh"))
    answers = {p.counts: [next(fresh) for _ in chosen[p.counts]] for p in searched}
    return Result(profile, searched, scored, answers, conflict, methods, search.seeds,
                  fresh_seed, bots)


def table(result: Result) -> str:
    """Gives the recommended settings as a text table: a row per setting, player count and
    target, with the fresh estimate, its interval, the range and the verdict."""
    head = ["setting", "changed", "players", "target", "estimate (95% CI, fresh seeds)",
            "range", "verdict"]
    rows = []
    for problem in result.problems:
        for s in result.answers[problem.counts]:
            for r in s.rows.sort("players").iter_rows(named=True):
                key = r["target"]
                scale = 100 if profiles.KEYS[key].share else 1
                rows.append([_values_text(s.candidate) or "(defaults)",
                             f"{problem.changes(s.candidate)}", f"{r['players']}", key,
                             f"{profiles.figure(key, r['estimate'])} [{scale * r['low']:.1f}, "
                             f"{scale * r['high']:.1f}]",
                             profiles.bounds_text(key, r["target low"], r["target high"]),
                             r["verdict"]])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in [head, *rows]]
    return "\n".join([lines[0], "  ".join("-" * w for w in widths), *lines[1:]])


def report(game: Game, result: Result, out: Path) -> str:
    """Writes the answer's files into `out` (balanced.toml: the first setting recommended per
    problem; evaluations.csv: every setting on the search seeds) and gives what the command
    prints: how each problem was searched, what it found, the table, the files."""
    from sim.run.runner import _command

    files = [write_config(out / "balanced.toml", game, result, _command()),
             write_evaluations(out / "evaluations.csv", result)]
    searched = "; ".join(f"{_counts_text(c)} {m}" for c, m in result.methods.items())
    lines = [f"{game.title}: rules searched for the targets of {result.profile.name} "
             f"({', '.join(result.profile.targets)}; {searched}), played by "
             f"{result.bots.label}.",
             f"Search seeds {', '.join(map(str, result.search_seeds))}; the settings measured "
             f"again on seed {result.fresh_seed} (never used by the search)."]
    for problem in result.problems:
        n = len(result.answers[problem.counts])
        if result.conflict[problem.counts]:
            lines.append(f"{_counts_text(problem.counts)}: no setting tried met every target on "
                         f"the search seeds: {_why_not(result, problem)}; below, the Pareto set "
                         f"({n} setting(s) no other comes nearer on every target), fewest rules "
                         "changed first.")
        else:
            lines.append(f"{_counts_text(problem.counts)}: {n} setting(s) met every target on "
                         "the search seeds, fewest rules changed first.")
    lines += ["", table(result), ""]
    lines += [f"wrote {path}" for path in files]
    return "\n".join(lines)


def _why_not(result: Result, problem: Problem) -> str:
    """Gives why no setting of a problem met every target: the targets none met, or that each
    was met by some setting but never all at once."""
    keys = list(result.profile.targets)
    never = [k for i, k in enumerate(keys)
             if all(s.distances[i] > 0 for s in result.scored[problem.counts])]
    if never:
        return f"none met {', '.join(never)}"
    return ("each target was met by some setting, never all at once: they conflict over these "
            "values")


def write_config(path: Path, game: Game, result: Result, command: str) -> Path:
    """Writes the first setting recommended for each problem as a --config TOML file."""
    tables: dict[str, list[tuple[str, object]]] = {}
    for problem in result.problems:
        first = result.answers[problem.counts][0]
        for key, value in first.candidate:
            name, _, last = key.rpartition(".")
            if (last, value) not in tables.setdefault(name, []):
                tables[name].append((last, value))
    lines = [f"# {game.title} rules found by: {command}",
             f"# The first setting recommended per player count for the targets of "
             f"{result.profile.name}, played by {result.bots.label}; see the verdicts printed."]
    for name in sorted(tables, key=lambda t: (t != "", t)):
        lines += [""] + ([f"[{name}]"] if name else [])
        lines += [f"{key} = {_toml(value)}" for key, value in tables[name]]
    path.write_text("\n".join(lines) + "\n")
    return path


def write_evaluations(path: Path, result: Result) -> Path:
    """Writes every setting scored by the search as CSV: setting, player count, target,
    estimate with its 95% interval on the search seeds, verdict, and whether it is recommended."""
    frames = []
    for problem in result.problems:
        picked = {s.candidate for s in result.answers[problem.counts]}
        for s in result.scored[problem.counts]:
            frames.append(s.rows.with_columns(
                pl.lit(_values_text(s.candidate)).alias("setting"),
                pl.lit(s.candidate in picked).alias("recommended")))
    pl.concat(frames).select("setting", "players", "target", "estimate", "low", "high",
                             "target low", "target high", "verdict", "recommended"
                             ).write_csv(path)
    return path

