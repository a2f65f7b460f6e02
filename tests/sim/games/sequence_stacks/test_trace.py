"""`simulate trace sequence-stacks`: the traced game is the game a run plays, told in words."""

import io
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from sim.game import Setup
from sim.games.sequence_stacks import GAME
from strategies import seats

EXAMPLES = Path(__file__).parents[4] / "strategies" / "examples"

SETUPS = [
    Setup(2, ("random", "default")),
    Setup(4, ("default",) * 4),
    Setup(6, ("default", "chip-thieves", "random", "eager-blockers", "reckless", "never-block")),
]


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: s.label())
@pytest.mark.parametrize("seed, index", [(7, 0), (123456789, 5)])
def test_a_traced_game_is_the_game_a_run_plays(rules, setup, seed, index):
    traced = GAME.trace(rules, setup, seed, index, io.StringIO())
    run = GAME.play(rules, setup, seed, 0, index + 1, 0)
    for name, table in traced.items():
        assert table.equals(run[name].filter(pl.col("game_id") == index)), name


def test_the_trace_tells_every_turn_every_move_and_the_end(rules):
    out = io.StringIO()
    tables = GAME.trace(rules, Setup(4, ("default",) * 4), 7, 0, out)
    text = out.getvalue()
    games, seats = tables["games"], tables["seats"]
    assert text.startswith("Sequence Stacks, 4 players, seed 7, game 0")
    assert len(re.findall(r"^--- turn \d+: seat \d", text, re.MULTILINE)) == games["turns"][0]
    assert text.count(" discards ") >= games["turns"][0] - 1
    assert len(re.findall(r"takes a (red|blue) chip \(", text)) == seats["chips_red"].sum() \
        + seats["chips_blue"].sum(), "stolen chips only change hands"
    winner = games["winner"][0]
    assert re.search(rf"^Seat {winner} \(default\) wins after {games['turns'][0]} turns", text, re.MULTILINE)


def test_a_python_strategy_can_play_a_seat(rules):
    """The Python driver asks a Python strategy for every decision of its seat."""
    first = seats.canonical(GAME, f"{EXAMPLES / 'first_move.py'}:FirstMove")
    out = io.StringIO()
    tables = GAME.trace(rules, Setup(3, (first, "default", "default")), 1, 0, out)
    assert "seats: 0:first_move.py:FirstMove, 1:default, 2:default" in out.getvalue()
    assert tables["games"].height == 1
    assert tables["seats"]["strategy"].to_list()[0] == "first_move.py:FirstMove"


def test_simulate_trace_sequence_stacks_prints_a_game_and_exits_0():
    simulate = Path(sys.executable).parent / "simulate"
    done = subprocess.run([str(simulate), "trace", "sequence-stacks", "--players", "3", "--seed", "7"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "Sequence Stacks, 3 players, seed 7" in done.stdout and " wins after " in done.stdout
