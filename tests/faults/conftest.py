"""Fault-injection tests: the coin-flip game of tests/sim stands in for the real games (its
fixtures are shared from there, so these tests need no engine compiled)."""

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "faults_sim_conftest", Path(__file__).parents[1] / "sim" / "conftest.py")
_sim = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_sim)

fake_game = _sim.fake_game
pool_for_any_run = _sim.pool_for_any_run
