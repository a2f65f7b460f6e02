"""Fixtures of the run-folder fault tests (test_run_folder, test_resume): the coin-flip game of
tests/sim stands in for saboteur (so no engine is compiled), `simulate` runs in this process,
and the helpers comparing run folders. Each test module takes them with `fixtures_of_this_kit`
(a module, not a conftest, so that other fault tests keep their own conftest)."""

import importlib.util
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

_spec = importlib.util.spec_from_file_location(
    "run_folder_sim_conftest", Path(__file__).parents[1] / "sim" / "conftest.py")
_sim = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_sim)

fake_game = _sim.fake_game
pool_for_any_run = _sim.pool_for_any_run


@pytest.fixture
def simulate(fake_game, simulate):
    """Gives `simulate` (tests/conftest.py) with the coin-flip game standing in for saboteur."""
    return simulate


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


def load() -> dict:
    """Gives this module's fixtures by name, for a test module's globals."""
    return {name: globals()[name] for name in
            ("fake_game", "pool_for_any_run", "simulate", "run_tools")}
