"""A Deep Space game depends only on (seed, game index, rules, setup): not on chunking, and not
on the other seats' bots as far as the deal goes; a traced game is the game a run plays."""

import io
import itertools

import polars as pl
import pytest

from sim.deep_space import GAME, engine
from sim.game import Setup

GAMES = 16
MIXED = Setup(4, ("default", "random", "raider", "turtle"))


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def assert_same(a, b):
    for name in a:
        assert a[name].equals(b[name]), name


@pytest.mark.parametrize("cuts", [[1], [5, 11]])
def test_a_run_in_chunks_plays_the_same_games_as_one_chunk(rules, cuts):
    whole = GAME.play(rules, MIXED, 17, 0, GAMES, 0)
    bounds = [0, *cuts, GAMES]
    parts = [GAME.play(rules, MIXED, 17, a, b, 0) for a, b in itertools.pairwise(bounds)]
    assert_same(whole, {name: pl.concat([p[name] for p in parts]) for name in whole})


def test_another_seed_plays_other_games(rules):
    assert not GAME.play(rules, MIXED, 0, 0, GAMES, 0)["seats"].equals(
        GAME.play(rules, MIXED, 1, 0, GAMES, 0)["seats"])


@pytest.mark.parametrize("seed, game", [(0, 0), (2**40, 77)])
def test_changing_a_seats_bot_does_not_change_the_deal_or_the_starter(rules, seed, game):
    dealt = []
    for seats in (("default",) * 3, ("random", "rush", "default")):
        rs, _, _, _, _, s = GAME.prepare(rules, Setup(3, seats))
        engine.start_game(s, rs, seed, game)
        dealt.append((s.deck.tolist(), s.hand.tolist(), int(s.g[engine.FIRST_SEAT])))
    assert dealt[0] == dealt[1]


@pytest.mark.parametrize("setup", [MIXED, Setup(2, ("random", "default")),
                                   Setup(3, ("rush",) * 3)], ids=lambda s: s.label())
def test_a_traced_game_is_the_game_a_run_plays(rules, setup):
    out = io.StringIO()
    traced = GAME.trace(rules, setup, 7, 3, out)
    run = GAME.play(rules, setup, 7, 3, 4, 0)
    assert_same(traced, run)
    text = out.getvalue()
    assert text.startswith(f"Deep Space, {setup.players} players, seed 7, game 3")
    assert text.count("-- turn ") == traced["games"]["turns"][0]
    assert "Final: " in text
