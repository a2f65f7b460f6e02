"""What the benchmarks share: the configurations timed, CPU-time timers, running `simulate`."""

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import sim
from sim import games
from sim.game import Setup

PLAYERS = {"saboteur": 7, "deep-space": 4, "sequence-stacks": 4, "spit": 2, "speed": 2}
"""The player count each game is timed at (the one its speed target names)."""

FIRST_MOVE = str(Path(__file__).resolve().parents[1] / "strategies/examples/first_move.py")
PYTHON_BOT = f"{FIRST_MOVE}:FirstMove"
"""The simplest Python strategy: what times a game's Python driver."""

SEED = 1

COMPILE_TIMEOUT = 1800
"""Seconds a step that may compile engines into a cold numba cache may take (minutes of CPU
each; on a loaded machine several times that in wall-clock time)."""

process_cpu = time.process_time
"""The timer of a benchmark playing in its own process: that process's CPU seconds."""


def children_cpu() -> float:
    """The timer of a benchmark running a command: the CPU seconds of its finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def configured(game_name: str, seats: tuple[str, ...]):
    """Gives (game, rules, setup) of `game_name` at its default rules with those seats."""
    game = games.get(game_name)
    rules = game.load_rules(None, [])
    setup = Setup(len(seats), seats)
    game.check(rules, setup)
    return game, rules, setup


def simulate(*args: str, env: dict | None = None) -> None:
    """Runs `simulate ARGS` in a new process, from the copy of the project that this process
    imports (asv drops PYTHONPATH: see docs/development.md#benchmark-history)."""
    root = str(Path(sim.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    subprocess.run([sys.executable, "-m", "sim.cli", *args], check=True,
                   stdout=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": path, **(env or {})})
