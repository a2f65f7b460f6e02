"""Fixtures every test folder may use."""

import importlib
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim import games


# The suite tests the games the project ships: a game installed from elsewhere (such as
# examples/games/no_thanks) runs its own tests with sim/testing.py, which
# tests/conformance/test_public_suite.py runs on every installed game too.
for _name in [name for name, target in games.GAMES.items() if not target.startswith("sim.games.")]:
    del games.GAMES[_name]


# Test files whose tests are independent and long (the first test of a game compiles what the
# others call): under --dist loadfile their tests go to the workers by game, where every other
# file stays on one worker.
SPREAD = ("conformance/test_hidden_information.py", "conformance/test_public_suite.py")


def pytest_xdist_make_scheduler(config, log):
    """Under --dist loadfile (pyproject's addopts), keeps each test file on one worker, so that
    its module fixtures (a shared run) are played once, but spreads the tests of the SPREAD
    files over the workers, a game's tests together (its compiles done once, on one worker);
    their tests of no game stay together too."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    names = sorted(games.names(), key=len, reverse=True)  # the longest of two prefixes first

    class SpreadScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            file, _, test = nodeid.partition("::")
            if not file.endswith(SPREAD):
                return file
            parameters = test.partition("[")[2]
            return f"{file}::{next((n for n in names if parameters.startswith(n)), '')}"

    return SpreadScheduling(config, log)


@pytest.fixture
def simulate(monkeypatch, capsys, tmp_path):
    """Gives a function running `simulate ARGS...` in-process from an empty folder, and giving
    (exit code, stdout, stderr)."""
    from sim import cli

    monkeypatch.chdir(tmp_path)

    def run(*args):
        monkeypatch.setattr(sys, "argv", ["simulate", *map(str, args)])
        with pytest.raises(SystemExit) as exit:
            cli.main()
            sys.exit(0)  # typer exits by itself; this only makes a missing exit visible
        out, err = capsys.readouterr()
        return exit.value.code or 0, out, err

    return run


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """Gives (folder, game package) of the game `simulate new-game card-race` writes,
    importable while the module's tests run."""
    from sim.new_game import write

    folder = tmp_path_factory.mktemp("own") / "card-race"
    write("card-race", folder)
    sys.path.insert(0, str(folder))
    try:
        yield folder, importlib.import_module("card_race")
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n.startswith("card_race")]:
            del sys.modules[name]


def pytest_sessionstart(session):
    """Under pytest-xdist, compiles the games' engines into numba's cache before the workers
    start (`simulate compile`, a game per process, as many at once as workers), saying which
    game compiles and its CPU time as each ends; the workers then load them from the cache.

    Left to the tests, every worker compiles every engine it meets, cold, before its first
    test reports: on a busy machine, minutes with nothing shown but "bringing up nodes". Only
    a cold cache compiles (a game `simulate compile` or a run marked compiled is skipped), and
    only for a run of whole folders (the suite): a run of a few files compiles what it plays."""
    config = session.config
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 1:
        return
    if not any(Path(arg.split("::")[0]).is_dir() for arg in config.args):
        return
    from sim.run.warm import is_compiled

    known = len(LARGEST_FIRST)  # a game not listed there last
    cold = sorted((name for name in games.names() if not is_compiled(name)),
                  key=lambda name: LARGEST_FIRST.index(name) if name in LARGEST_FIRST else known)
    if not cold:
        return
    say = config.pluginmanager.get_plugin("terminalreporter").write_line
    say(f"compiling the engines of {', '.join(cold)} into numba's cache before the workers "
        f"start (a cold cache: minutes of CPU)")
    compiling: dict[str, subprocess.Popen] = {}
    started = time.monotonic()
    while cold or compiling:
        while cold and len(compiling) < workers:
            name = cold.pop(0)
            compiling[name] = subprocess.Popen(
                [sys.executable, "-c", "from sim.cli import main; main()", "compile", name,
                 "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for name, process in list(compiling.items()):
            if process.poll() is not None:
                out = process.stdout.read().strip()
                if process.returncode != 0:
                    raise pytest.UsageError(f"simulate compile {name} failed:\n{out}")
                say(f"compiled {out} ({time.monotonic() - started:.0f} s)")
                del compiling[name]
        time.sleep(0.2)


LARGEST_FIRST = ["saboteur", "deep-space", "sequence-stacks", "spit", "speed"]
"""The built-in games, the longest to compile first (they are shared out as workers free)."""
