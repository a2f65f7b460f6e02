"""Runs the `simulate` command line with the coin-flip game registered (as `fake`, and under
`saboteur` for the run command), so tests can stop a real command process from outside."""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # spawned workers inherit sys.path, so they find fake_game too

from sim import games, rules  # noqa: E402
from sim.cli import main  # noqa: E402

if __name__ == "__main__":  # spawned workers import this file again as __mp_main__
    games.GAMES.update({"fake": "fake_game", "saboteur": "fake_game:SABOTEUR"})
    rules.CONFIGS = HERE / "configs"
    main()
