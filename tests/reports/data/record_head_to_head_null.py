"""Writes head_to_head_null.npz, the recorded comparison test_calibration.py splits into null
replicates of the head-to-head test: two different strategies of equal strength (equal_bots.py:
a uniformly random mover and the same from its own random stream) on the same deals.

Recorded from one real comparison (Speed, seed 15; 160,000 games, a few minutes on one core):

    simulate compare speed --players 2 --games 80000 --seed 15 --workers 1 --out RUN \\
        --strategies tests/reports/data/equal_bots.py:Uniform,tests/reports/data/equal_bots.py:OwnStream
    python tests/reports/data/record_head_to_head_null.py RUN

`won`: assignments × deals × seats (uint8, 1 = the seat won); `seats`: assignments × seats,
the strategy in each seat (by its class name).
"""

import json
import sys
from pathlib import Path

import numpy as np
import polars as pl

if __name__ == "__main__":
    run = Path(sys.argv[1])
    manifest = json.loads((run / "manifest.json").read_text())
    games = manifest["games_per_setup"]
    seats = pl.read_parquet(run / "seats" / "*.parquet").sort("setup", "game_id", "seat")
    setups = seats["setup"].n_unique()
    players = int(seats["players"][0])
    won = seats["won"].cast(pl.UInt8).to_numpy().reshape(setups, games, players)
    names = np.array([[s.rsplit(":", 1)[-1] for s in setup["seats"]]
                      for setup in manifest["setups"]])
    np.savez_compressed(Path(__file__).with_name("head_to_head_null.npz"), won=won, seats=names)
