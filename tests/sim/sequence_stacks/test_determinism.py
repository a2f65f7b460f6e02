"""A game's result depends only on (seed, game index, parameters): not on chunking, workers or
what another seat's bot did with the same deal."""

import itertools

import polars as pl
import pytest

from sim import runner
from sim.game import Setup
from sim.sequence_stacks import GAME, play
from sim.sequence_stacks.state import DRAW, DRAW_N, views

GAMES = 24


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def mixed(players):
    return Setup(players, tuple(("default", "random", "eager-blockers")[i % 3] for i in range(players)))


def concat(parts):
    return {name: pl.concat([p[name] for p in parts]) for name in parts[0]}


def assert_same(a, b):
    for name in a:
        assert a[name].equals(b[name]), name


@pytest.mark.parametrize("cuts", [[1], [7, 8], [5, 11, 23]])
def test_a_run_in_chunks_plays_the_same_games_as_one_chunk(rules, cuts):
    setup = mixed(5)
    whole = GAME.play(rules, setup, 17, 0, GAMES, 0)
    bounds = [0, *cuts, GAMES]
    assert_same(whole, concat([GAME.play(rules, setup, 17, a, b, 0) for a, b in itertools.pairwise(bounds)]))


def test_the_same_seed_plays_the_same_games_and_another_seed_other_games(rules):
    setup = mixed(4)
    first = GAME.play(rules, setup, 0, 0, GAMES, 0)
    assert_same(first, GAME.play(rules, setup, 0, 0, GAMES, 0))
    other = GAME.play(rules, setup, 1, 0, GAMES, 0)
    assert not first["seats"].equals(other["seats"])


def test_the_id_offset_only_renumbers_the_games(rules):
    setup = mixed(3)
    plain = GAME.play(rules, setup, 3, 10, 20, 0)
    shifted = GAME.play(rules, setup, 3, 10, 20, 1000)
    for name in plain:
        assert (shifted[name]["game_id"] - plain[name]["game_id"]).unique().to_list() == [1000]
        assert shifted[name].drop("game_id").equals(plain[name].drop("game_id"))


def deal(rules, strategies, seed, game):
    """Gives the hands and draw pile dealt in a game with these bots, and the moves played."""
    rs, families, params, s = GAME.prepare(rules, Setup(len(strategies), tuple(strategies)))
    v = views(s)
    dealt, moves = [], []

    def watch(event, *args):
        if event == "start":
            dealt.append((v.hand.tolist(), s.m[DRAW:DRAW + v.g[DRAW_N]].tolist()))
        elif event == "move":
            moves.append(args[1].tolist())

    play.play_python(s, rs, families, params, seed, game, play.new_results(1, len(strategies)),
                     watch=watch)
    return dealt, moves


@pytest.mark.parametrize("seed, game", [(0, 0), (9, 4), (2**40, 123)])
def test_changing_one_seats_bot_does_not_change_the_deal(rules, seed, game):
    base, base_moves = deal(rules, ["default"] * 4, seed, game)
    changed, changed_moves = deal(rules, ["random"] + ["default"] * 3, seed, game)
    assert base == changed
    assert base_moves != changed_moves, "the bots did play differently"


def test_one_worker_and_two_workers_store_the_same_games(rules, tmp_path):
    def tables(out, workers, chunk_size):
        run = runner.run(GAME, rules, [mixed(2), mixed(6)], 30, 99, out, workers,
                         chunk_size=chunk_size, progress=False)
        return {name: run.scan(name).collect().sort(["game_id", *(["seat"] if name == "seats" else [])])
                for name in ("games", "seats")}

    serial = tables(tmp_path / "serial", 1, 30)
    pooled = tables(tmp_path / "pooled", 2, 7)
    assert_same(serial, pooled)
    assert serial["games"].height == 60
