"""Writes seat_outcomes.npz, the recorded games test_calibration.py permutes: who won, by seat.

Recorded from three small real runs (the engines' default bots, seed 15):

    simulate saboteur --players 7 --games 3000 --seed 15 --out RUNS/saboteur-7
    simulate sequence-stacks --players 4 --games 3000 --seed 15 --out RUNS/sequence-stacks-4
    simulate deep-space --players 3 --games 3000 --seed 15 --out RUNS/deep-space-3
    python tests/reports/data/record_seat_outcomes.py RUNS

Each array is games × seats (uint8, 1 = the seat won); Deep Space's columns are turn orders,
the position its report tests.
"""

import sys
from pathlib import Path

import numpy as np
import polars as pl

POSITION = {"saboteur-7": "seat", "sequence-stacks-4": "seat", "deep-space-3": "turn_order"}


def outcomes(run: Path, position: str) -> np.ndarray:
    """Gives the run's games × positions matrix of wins."""
    seats = pl.read_parquet(run / "seats" / "*.parquet").sort("game_id", position)
    players = int(seats["players"][0])
    return seats["won"].cast(pl.UInt8).to_numpy().reshape(-1, players)


if __name__ == "__main__":
    runs = Path(sys.argv[1])
    np.savez_compressed(Path(__file__).with_name("seat_outcomes.npz"),
                        **{name: outcomes(runs / name, pos) for name, pos in POSITION.items()})
