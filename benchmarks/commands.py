"""Whole `simulate` commands, timed by the CPU seconds of the process they start: a warm start,
a cold compile, a report of 200,000 games, a tuning."""

import tempfile
from pathlib import Path

from benchmarks.common import COMPILE_TIMEOUT, SEED, children_cpu, configured, simulate

REPORT_GAMES = 200_000


class _Command:
    timer = staticmethod(children_cpu)
    number = 1  # each call starts a process: no batching

    def setup(self, *args):
        self.scratch = tempfile.TemporaryDirectory(prefix="asv-simulate-")
        self.calls = 0

    def teardown(self, *args):
        self.scratch.cleanup()

    def folder(self, name: str) -> str:
        """Gives a folder name in the scratch folder not given before (a run may not reuse one)."""
        self.calls += 1
        return str(Path(self.scratch.name) / f"{name}-{self.calls}")


class WarmStart(_Command):
    """`simulate saboteur --players 7 --games 10`, its engine in numba's cache: start-up."""

    repeat = (3, 10, 30.0)

    def setup_cache(self):
        game, rules, setup = configured("saboteur", ("default",) * 7)
        game.play(rules, setup, SEED, 0, 1, 0)

    setup_cache.timeout = COMPILE_TIMEOUT

    def time_saboteur_10_games(self):
        simulate("saboteur", "--players", "7", "--games", "10", "--seed", str(SEED),
                 "--quiet", "--out", self.folder("run"))


class ColdCompile(_Command):
    """The first `simulate saboteur --players 7 --games 2000` after an install: numba's cache
    empty, so most of it is compiling the engine."""

    repeat = 1
    rounds = 1
    min_run_count = 1
    warmup_time = 0
    timeout = COMPILE_TIMEOUT

    def time_first_saboteur_run(self):
        simulate("saboteur", "--players", "7", "--games", "2000", "--seed", str(SEED),
                 "--quiet", "--out", self.folder("run"),
                 env={"NUMBA_CACHE_DIR": self.folder("numba")})


class Report(_Command):
    """`simulate report` of a 200,000-game Saboteur run (7 `random` players): imports,
    tables, statistics and charts."""

    repeat = (1, 3, 60.0)
    rounds = 1
    warmup_time = 0
    timeout = 600

    def setup_cache(self):
        run = Path("report-run").resolve()  # asv keeps its working folder for the benchmark
        simulate("saboteur", "--players", "7", "--games", str(REPORT_GAMES), "--strategy",
                 "random", "--seed", str(SEED), "--quiet", "--out", str(run))
        return str(run)

    setup_cache.timeout = COMPILE_TIMEOUT

    def time_report_200000_games(self, run):
        simulate("report", run, "--out", self.folder("report"))


class Tune(_Command):
    """`simulate tune` of Saboteur's saboteurs at 7 players, 30 trials × 2,000 games on 2
    workers (36,250 games with the held-out ones): against Engine's time for as many games,
    what a tuning costs beyond its games (docs/tuning.md)."""

    repeat = (1, 3, 60.0)
    rounds = 1
    warmup_time = 0
    timeout = 600

    def setup_cache(self):
        game, rules, setup = configured("saboteur", ("default",) * 7)
        game.play(rules, setup, SEED, 0, 1, 0)

    setup_cache.timeout = COMPILE_TIMEOUT

    def time_tune_saboteur_30_trials(self):
        simulate("tune", "saboteur", "--players", "7", "--family", "default", "--role",
                 "saboteur", "--against", "default", "--trials", "30", "--games", "2000",
                 "--workers", "2", "--seed", str(SEED), "--quiet", "--out", self.folder("tune"))
