"""What `simulate` loads before it answers: a run never waits for the report stack, and
`simulate --help` for nothing heavy (each of these libraries costs a quarter to a whole CPU
second to import)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]
REPORT_STACK = ("scipy.stats", "scipy.optimize", "statsmodels", "pandas", "matplotlib", "optuna")


def imported(tmp_path, *args) -> set[str]:
    """Gives the modules `simulate ARGS...` imports, run in a fresh process (as a user runs it)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "sim.cli", *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-2000:]
    # lines "import time: self [us] | cumulative | name", the name indented by depth
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:") and "|" in line}


def loaded(modules: set[str], packages) -> list[str]:
    return sorted(m for m in modules for p in packages if m == p or m.startswith(p + "."))


def test_a_run_imports_none_of_the_report_stack(tmp_path):
    # numba itself imports scipy.linalg (its BLAS check): not scipy's statistics
    modules = imported(tmp_path, "saboteur", "--players", "7", "--games", "5", "--workers",
                       "1", "--seed", "1", "--out", "run")
    assert {"polars", "numba", "reports.summary"} <= modules  # it did play and summarise
    assert loaded(modules, REPORT_STACK) == []


def test_a_warm_run_loads_its_engine_without_numbas_compiler_registries(tmp_path):
    # once the engine is cached, loading it needs none of numba's implementations (the
    # registries it imports to compile: numba.np.arraymath and the like), nor scipy's BLAS,
    # which numba's array maths checks for: together about 0.3 CPU-s
    run = ("saboteur", "--players", "4", "--games", "3", "--workers", "1", "--seed", "1")
    imported(tmp_path, *run, "--out", "first")  # compiles, if the cache is cold
    modules = imported(tmp_path, *run, "--out", "again")
    assert "numba" in modules
    assert loaded(modules, ("numba.np.arraymath", "scipy.linalg")) == []


def test_help_imports_neither_the_report_stack_nor_the_engines(tmp_path):
    modules = imported(tmp_path, "--help")
    assert "typer" in modules  # it did load the command line
    assert loaded(modules, (*REPORT_STACK, "scipy", "polars", "numba")) == []


def test_a_report_imports_no_statistics_it_does_not_use(tmp_path):
    # scipy.stats holds about 45 MiB more than scipy.special, which the report's intervals use:
    # a million-game report stays under its 400 MiB only without it (docs/development.md)
    imported(tmp_path, "saboteur", "--players", "4", "--games", "5", "--workers", "1",
             "--seed", "1", "--out", "run")
    modules = imported(tmp_path, "report", "run", "--out", "report")
    assert {"polars", "matplotlib", "reports.sections"} <= modules  # it did report
    assert loaded(modules, ("scipy.stats", "scipy.optimize", "statsmodels")) == []


WATCH_POLARS = """
import os, sys
class Watch:  # notes the allocator setting polars' jemalloc reads as it loads
    seen = "polars not loaded"
    def find_spec(self, name, path, target=None):
        if name == "polars" and Watch.seen == "polars not loaded":
            Watch.seen = os.environ.get("_RJEM_MALLOC_CONF")
sys.meta_path.insert(0, Watch())
from sim.cli import main
sys.argv = ["simulate", "report", "no-such-run"]
try:
    main()
finally:
    print(Watch.seen, flush=True)
"""


def test_a_report_gives_polars_one_allocator_arena_unless_the_user_sets_one(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "_RJEM_MALLOC_CONF"}

    def seen(**more) -> str:
        done = subprocess.run([sys.executable, "-c", WATCH_POLARS], cwd=tmp_path, timeout=600,
                              capture_output=True, text=True,
                              env={**env, "PYTHONPATH": str(ROOT), **more})
        assert "no-such-run: no such run folder" in done.stderr
        return done.stdout.strip()

    assert seen() == "narenas:1"
    assert seen(_RJEM_MALLOC_CONF="narenas:4") == "narenas:4"
