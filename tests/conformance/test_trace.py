"""`trace` prints a game move by move and gives the tables `play` records for that game."""

import io

import game_adapters
import polars as pl
import pytest

from sim import games


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("which", [0, 1])
def test_a_traced_game_is_the_game_a_run_plays(name, which):
    game, setup = games.get(name), game_adapters.of(name).setups[which]
    rules = game.load_rules(None, [])
    run = game.play(rules, setup, 7, 0, 4, 0)
    for index in (0, 3):
        out = io.StringIO()
        traced = game.trace(rules, setup, 7, index, out)
        assert traced.keys() == run.keys()
        for table, rows in traced.items():
            assert rows.equals(run[table].filter(pl.col("game_id") == index)), table
        header, *moves = out.getvalue().splitlines()
        assert header.startswith(f"{game.title}, ") and f"seed 7, game {index}" in header
        assert len(moves) > 10, "the moves are printed"
