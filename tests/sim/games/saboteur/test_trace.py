"""`simulate trace saboteur`: the traced game is the game a run plays, told in words."""

import io
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from sim.game import Setup
from sim.games.saboteur import GAME


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


SETUPS = [
    Setup(3, ("random",) * 3),
    Setup(5, ("default",) * 5),
    Setup(7, ("default", "random", "covert-saboteurs", "naive-miners", "default", "random", "default")),
    Setup(10, ("aggressive-saboteurs",) * 10),
    Setup(6, ("default",) * 6, (("saboteurs", 3),)),
]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: s.label())
@pytest.mark.parametrize("seed, index", [(7, 0), (123456789, 5)])
def test_a_traced_game_is_the_game_a_run_plays(rules, setup, seed, index):
    traced = GAME.trace(rules, setup, seed, index, io.StringIO())
    run = GAME.play(rules, setup, seed, 0, index + 1, 0)
    for name, table in traced.items():
        assert table.equals(run[name].filter(pl.col("game_id") == index)), name
    offset = GAME.play(rules, setup, seed, index, index + 1, 500)
    for name, table in traced.items():
        assert table.equals(offset[name].with_columns(pl.col("game_id") - 500)), name


def test_the_trace_names_the_roles_every_move_and_the_gold_paid(rules):
    out = io.StringIO()
    tables = GAME.trace(rules, Setup(5, ("default",) * 5), 7, 0, out)
    text = out.getvalue()
    assert text.startswith("Saboteur, 5 players, seed 7, game 0")
    assert text.count("=== Round ") == 3
    roles = re.findall(r"^roles: (.*)$", text, re.M)
    rounds = tables["rounds"]
    for r, line in enumerate(roles, start=1):
        expected = rounds.filter(pl.col("round") == r).select("seat", "role").rows()
        assert line == ", ".join(f"{seat}:{role}" for seat, role in expected)
    moves = re.findall(r"^\[\d+\] seat \d \((miner|saboteur), default\) (places|breaks|repairs|looks|"
                       r"drops|passes)", text, re.M)
    assert len(moves) == tables["games"]["turns"][0]
    assert text.count("gold paid: ") == 3
    finals = re.search(r"^Final: (.*)$", text, re.M).group(1)
    for seat, gold in tables["seats"].select("seat", "gold").rows():
        assert f"seat {seat} {gold} nuggets" in finals


def test_simulate_trace_saboteur_prints_a_game_and_exits_0():
    simulate = Path(sys.executable).parent / "simulate"
    done = subprocess.run([str(simulate), "trace", "saboteur", "--players", "5", "--seed", "7"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Saboteur, 5 players, seed 7" in done.stdout and "Final: " in done.stdout
