"""Fixtures of the fault-injection tests: the machinery's coin-flip test game, `simulate` run
in-process with it standing in for saboteur, `simulate_games` with the real games (as
tests/sim and tests/strategies define them, loaded from there), `own_game` (a designer's
installed plugin, as tests/sim/test_own_game.py makes it), and `run_tools` comparing run
folders."""

import importlib.util
import subprocess
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

TESTS = Path(__file__).resolve().parents[1]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"faults_{name.replace('/', '_')}",
                                                  TESTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_sim_fixtures = _load("sim/conftest")
fake_game = _sim_fixtures.fake_game
pool_for_any_run = _sim_fixtures.pool_for_any_run
simulate = _load("sim/test_cli").simulate
simulate_games = _load("strategies/test_cli_bots").simulate
_own_game = _load("sim/test_own_game")


def tables(path) -> dict:
    """Gives a run folder's tables as its shards hold them, in a fixed order."""
    return {name: pl.scan_parquet(str(Path(path) / name / "*.parquet")).collect()
            .sort("game_id", *(["seat"] if name == "seats" else []))
            for name in ("games", "seats")}


def same_tables(a, b) -> bool:
    """Tells whether two run folders hold exactly the same games."""
    one, other = tables(a), tables(b)
    return all(one[name].equals(other[name]) for name in one)


@pytest.fixture
def run_tools():
    """The helpers above, for the tests."""
    return SimpleNamespace(tables=tables, same=same_tables)


@pytest.fixture
def tmpfs():
    """Gives a function mounting a fresh tmpfs of a size (e.g. "64k") on a folder (we run as root
    in CI), or skipping the test where mounting is not permitted; unmounted after the test."""
    mounted: list[Path] = []

    def mount(folder: Path, size: str) -> None:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip() or 'not permitted'}")
        mounted.append(folder)

    yield mount
    for folder in reversed(mounted):
        subprocess.run(["umount", "-l", str(folder)], check=True)


@pytest.fixture
def own_game():
    """tests/sim/test_own_game.py: its `installed` plugins and `simulate` in a process."""
    return _own_game
