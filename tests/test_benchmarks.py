"""The asv benchmark suite (benchmarks/) still imports and names what exists: a rename of what
it uses breaks here, not months later in `asv continuous`. Nothing is timed."""

import importlib
import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["benchmarks.common", "benchmarks.engines", "benchmarks.commands"]


@pytest.fixture(autouse=True)
def root_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))


@pytest.mark.parametrize("name", MODULES)
def test_a_benchmark_module_imports(name):
    importlib.import_module(name)


def test_every_module_of_the_suite_is_imported_here():
    found = {f"benchmarks.{p.stem}" for p in (ROOT / "benchmarks").glob("*.py")} - {"benchmarks.__init__"}
    assert found == set(MODULES)


def test_every_game_is_timed_with_configurations_it_accepts():
    from benchmarks import common, engines
    from sim import games

    assert sorted(common.PLAYERS) == games.names()
    assert Path(common.FIRST_MOVE).is_file()
    for bench in (engines.Engine, engines.SearchSeat, engines.PythonDriver):
        for args in itertools.product(*bench.params):
            game, _, setup = common.configured(args[0], bench.table(*args))  # checks the count
            assert set(setup.seats) <= {*game.strategy_names(), common.PYTHON_BOT}
