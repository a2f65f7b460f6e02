"""A tiny pure-numpy game for testing the machinery: every seat flips coins, most heads wins.

Game i depends only on (seed, players, i), like a real engine's games, so the runner's
determinism, chunking and resume can be checked without compiling anything.

Environment variables, inherited by worker processes, let tests break runs on purpose:
FAKE_GAME_PAUSE (seconds each chunk takes, so a run can be stopped midway),
FAKE_GAME_HOLD (a file path: a chunk is not played while it exists, so a run stays live until
the test removes it) and FAKE_GAME_DIE_ONCE (a file path: the first process to play a chunk not
starting at game 0 creates it and kills itself with SIGKILL, as the OOM killer or a `kill -9`
would).
"""

from __future__ import annotations

import copy
import os
import signal
import time
from pathlib import Path

import numpy as np
import polars as pl

from sim import rules as rule_files
from sim.errors import UserError
from sim.game import COUNTS, Column, Flag, Headline, Setup

STRATEGIES = ["default", "random", "lucky"]


class CoinGame:
    name = "fake"
    title = "Coin flips"
    min_players = 2
    max_players = 6
    tables = ("games", "seats")
    columns = {"games": (Column("winner", "seat with most heads"),),
               "seats": (Column("heads", "heads flipped"),)}
    headline = Headline("first seat wins", (pl.col("winner") == 0).cast(pl.Int64), pl.lit(1))
    summary = ()
    # standing in for saboteur (tests/sim/conftest.py), it takes a number of saboteurs
    flags = (Flag("saboteurs", "Saboteurs in play.", kind=COUNTS),)

    def __init__(self):
        self.compiled = []
        self.played = []  # (seats, start, stop) of each play in this process

    def strategy_names(self) -> list[str]:
        return STRATEGIES

    def load_rules(self, config_file, overrides) -> dict:
        return rule_files.load_rules(self.name, config_file, overrides)

    def check(self, rules: dict, setup: Setup) -> None:
        if setup.option("saboteurs") is not None and setup.option("saboteurs") >= setup.players:
            raise UserError(f"{setup.option('saboteurs')} saboteurs need more than {setup.players} players")

    def compile(self, rules: dict, setups=()) -> None:
        self.compiled.append(rules)

    def play(self, rules, setup, seed, start, stop, id_offset):
        self.played.append((setup.seats, start, stop))
        time.sleep(float(os.environ.get("FAKE_GAME_PAUSE", 0)))
        hold = os.environ.get("FAKE_GAME_HOLD")
        while hold and Path(hold).exists():
            time.sleep(0.02)
        marker = os.environ.get("FAKE_GAME_DIE_ONCE")
        if marker and start > 0 and not Path(marker).exists():
            Path(marker).touch()
            os.kill(os.getpid(), signal.SIGKILL)
        heads = np.empty((stop - start, setup.players), np.int64)
        for row, i in enumerate(range(start, stop)):
            rng = np.random.default_rng([seed, setup.players, i])
            heads[row] = rng.binomial(rules["flips"], rules["bias"], setup.players)
        lucky = np.array([s == "lucky" for s in setup.seats])
        heads += lucky  # a strategy must matter for strategy tests to mean anything
        ids = np.arange(start, stop, dtype=np.int64) + id_offset
        winner = heads.argmax(axis=1)
        games = pl.DataFrame({"game_id": ids, "players": np.full(len(ids), setup.players),
                              "winner": winner, "stalled": heads.max(axis=1) == 0,
                              "turns": np.full(len(ids), rules["flips"] * setup.players)})
        seats = pl.DataFrame({
            "game_id": np.repeat(ids, setup.players),
            "players": np.full(len(ids) * setup.players, setup.players),
            "seat": np.tile(np.arange(setup.players), len(ids)),
            "strategy": np.tile(np.array(setup.seats), len(ids)),
            "heads": heads.ravel(),
            "won": (np.arange(setup.players)[None, :] == winner[:, None]).ravel(),
        })
        return {"games": games, "seats": seats}

    def trace(self, rules, setup, seed, index, out):
        tables = self.play(rules, setup, seed, index, index + 1, 0)
        for seat, heads in enumerate(tables["seats"]["heads"]):
            print(f"seat {seat} flips {heads} heads", file=out)
        return tables


GAME = CoinGame()
# The same game standing in for saboteur, under that name (a game is registered under its own
# name; configs/saboteur.toml is fake.toml): it records its compiles and plays in GAME's lists.
SABOTEUR = copy.copy(GAME)
SABOTEUR.name = "saboteur"
