"""A Spit or Speed game depends only on (seed, game index, rules, configuration): not on
chunking or what the other seat's bot did with the same first deal; and the traced
game is the game a run plays."""

import io

import polars as pl
import pytest

from sim import speed, spit
from sim.game import Setup

GAMES = 16
SETUPS = [
    Setup(2, ("default", "random"), (("reaction_0", "expert"), ("reaction_1", "novice"))),
    Setup(2, ("greedy", "default"), (("reaction_0", "0.7:0.2"), ("reaction_1", "club"))),
]


def concat(parts):
    return {name: pl.concat([p[name] for p in parts]) for name in parts[0]}


def assert_same(a, b):
    for name in a:
        assert a[name].equals(b[name]), name


@pytest.mark.parametrize("game", [spit.GAME, speed.GAME], ids=["spit", "speed"])
def test_a_run_in_chunks_plays_the_same_games_as_one_chunk(game):
    rules = game.load_rules(None, [])
    whole = game.play(rules, SETUPS[0], 17, 0, GAMES, 0)
    parts = [game.play(rules, SETUPS[0], 17, a, b, 0) for a, b in ((0, 5), (5, 6), (6, GAMES))]
    assert_same(whole, concat(parts))
    other = game.play(rules, SETUPS[0], 18, 0, GAMES, 0)
    assert not whole["games"].equals(other["games"])


@pytest.mark.parametrize("game", [spit.GAME, speed.GAME], ids=["spit", "speed"])
@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: s.label())
def test_a_traced_game_is_the_game_a_run_plays(game, setup):
    rules = game.load_rules(None, [])
    for index in (0, 3):
        traced = game.trace(rules, setup, 7, index, io.StringIO())
        run = game.play(rules, setup, 7, 0, index + 1, 0)
        for name, table in traced.items():
            assert table.equals(run[name].filter(pl.col("game_id") == index)), name


def first_deal(rules, seats, seed, game):
    """Gives both layouts and spit piles of a Spit game's first deal, and its first 20 moves."""
    rs, _, families, params, s, c, _, _ = spit.GAME.prepare(rules, Setup(2, seats))
    dealt, moves = [], []

    def watch(event, *args):
        if event == "deal" and not dealt:
            dealt.append((s.stock.tolist(), s.stock_n.tolist(), s.spit.tolist(), s.centre.tolist()))
        elif event == "land" and len(moves) < 20:
            moves.append((args[0], c.plan[args[0]].tolist(), round(float(c.now[0]), 9)))

    spit.play.play_python(s, rs, c, families, params, seed, game, spit.play.new_results(1),
                          watch=watch)
    return dealt, moves


def test_changing_one_seats_bot_does_not_change_the_first_deal():
    rules = spit.GAME.load_rules(None, [])
    for seed, game in ((0, 0), (9, 4)):
        base, base_moves = first_deal(rules, ("default", "default"), seed, game)
        changed, changed_moves = first_deal(rules, ("random", "default"), seed, game)
        assert base == changed
        assert base_moves != changed_moves, "the bots did play differently"


@pytest.mark.parametrize("game", [spit.GAME, speed.GAME], ids=["spit", "speed"])
def test_seeds_up_to_2_64_play_and_trace_alike(game):
    rules = game.load_rules(None, [])
    for seed in (2**63, 2**64 - 1):
        traced = game.trace(rules, SETUPS[1], seed, 1, io.StringIO())
        run = game.play(rules, SETUPS[1], seed, 0, 2, 0)
        assert traced["games"].equals(run["games"].filter(pl.col("game_id") == 1))
    assert not game.play(rules, SETUPS[1], 2**63, 0, 4, 0)["games"].equals(
        game.play(rules, SETUPS[1], 2**64 - 1, 0, 4, 0)["games"])
