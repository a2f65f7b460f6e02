"""Fixtures every test folder may use."""

import fcntl
import io
import sys
from pathlib import Path

import pytest

from sim import games
from sim.game import Setup


# The suite tests the games the project ships: a game installed from elsewhere (such as
# examples/games/no_thanks) runs its own tests with sim/testing.py, and the conformance
# adapters (tests/conformance/game_adapters/) know only the built-in games.
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


@pytest.fixture(scope="session", autouse=True)
def engines_compiled_once(request, worker_id, tmp_path_factory):
    """Under pytest-xdist, compiles each game's engine in one worker while the others compile
    other games, before any test runs; the workers then load each other's from numba's cache.

    Left to the tests, every worker compiles every engine it meets, at the same time as the
    others (a cold compile is minutes of CPU per game): the suite would take as long on two
    cores as on one. A lock per game shares out the games, largest first, as workers come
    free; a worker goes on to its tests only once every game is compiled. A run of a few
    files (under WHOLE_SUITE tests) leaves each engine to compile when a test plays it."""
    if worker_id == "master" or len(request.session.items) < WHOLE_SUITE:
        return
    shared = tmp_path_factory.getbasetemp().parent  # the run's folder, shared by its workers
    waiting = ["saboteur", "deep-space", "sequence-stacks", "spit", "speed"]
    assert sorted(waiting) == games.names()
    for wait in (False, True):  # first the games no other worker has taken, then the rest
        for name in list(waiting):
            with open(shared / f"{name}.lock", "w") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
                except BlockingIOError:
                    continue  # another worker is compiling it
                compiled = shared / f"{name}.compiled"
                if not compiled.exists():
                    compile_engine(games.get(name))
                    compiled.touch()
                waiting.remove(name)


WHOLE_SUITE = 300  # tests collected: the whole suite is over 1,400


def compile_engine(game) -> None:
    """Compiles what a game's tests play: its jitted loop with the built-in bots and the
    search family, and its Python driver (which traces also play)."""
    rules = game.load_rules(None, [])
    players = game.min_players
    search = [name for name, (family, _) in game.bots.presets.items() if family == "search"]
    others = ("default",) * (players - 1)
    game.compile(rules, [Setup(players, (search[0], *others))] if search else [])
    first_move = str(Path(__file__).parents[1] / "strategies/examples/first_move.py")
    game.trace(rules, Setup(players, (f"{first_move}:FirstMove", *others)), 1, 0, io.StringIO())
