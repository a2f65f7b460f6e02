"""Deep Space bots: the random family's pick, the default family's competence and presets, and a
Python callable standing in for the jitted bots."""

import numpy as np
import polars as pl
import pytest

from sim import rng
from sim.games.deep_space import GAME, bots, engine, play
from sim.games.deep_space.state import OVER, TURN_SEAT, WINNER
from sim.game import Setup
from strategies import presets


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def test_strategy_names_are_random_and_the_presets():
    assert bots.strategy_names() == ["random", "default", "rush", "turtle", "raider",
                                     "search-fast", "search", "search-strong"]
    assert set(bots.STYLES) == set(bots.strategy_names())


@pytest.mark.parametrize("name", ["rush", "turtle", "raider"])
def test_a_preset_changes_only_the_parameters_it_names(name):
    family, params = bots.resolve(name)
    _, default = bots.resolve("default")
    names = [p.name for p in bots.VECTOR]
    assert family == presets.DEFAULT
    for i, value in enumerate(params):
        assert value == bots.PRESETS[name].get(names[i], default[i])
        assert bots.VECTOR[i].low <= value <= bots.VECTOR[i].high


def test_a_user_preset_resolves_to_its_family_with_its_parameters_over_the_defaults():
    user = {"cautious": {"family": "default", "attack_margin": 6.0},
               "dice": {"family": "random"}}
    family, params = bots.resolve("cautious", user)
    _, default = bots.resolve("default")
    margin = [p.name for p in bots.PARAMETERS].index("attack_margin")
    assert family == presets.DEFAULT and params[margin] == 6.0
    assert np.delete(params, margin).tolist() == np.delete(default, margin).tolist()
    assert bots.resolve("dice", user)[0] == presets.RANDOM
    assert bots.resolve("rush", user)[1].tolist() == bots.resolve("rush")[1].tolist()


def test_the_families_list_every_parameter_and_the_presets():
    assert [f.name for f in bots.FAMILIES] == ["random", "default", "search"]
    assert bots.FAMILIES[1].parameters == bots.PARAMETERS
    assert list(bots.BUILT_IN) == bots.strategy_names()


def test_the_random_bot_picks_uniformly_from_the_legal_moves_in_their_listed_order(rules):
    rs, _, _, _, _, s = GAME.prepare(rules, Setup(3, ("random",) * 3))
    family, params = bots.resolve("random")
    engine.start_game(s, rs, 4, 0)
    decisions = 0
    while not s.g[OVER] and decisions < 400:
        seat = int(s.g[TURN_SEAT])
        expected_rng = s.bot_rng[seat].copy()
        n = engine.legal_moves(s, rs, seat)
        expected = s.moves[rng.below(expected_rng, n)].copy()
        bots.choose(s, rs, seat, family, params, s.move)
        assert s.move.tolist() == expected.tolist()
        assert s.bot_rng[seat, 0] == expected_rng[0], "one draw from the seat's own stream"
        engine.apply_move(s, rs, seat, s.move)
        decisions += 1
    assert decisions > 50


@pytest.mark.parametrize("players", [2, 4])
def test_default_bots_beat_random_bots(rules, players):
    seats = tuple("default" if i % 2 == 0 else "random" for i in range(players))
    won = GAME.play(rules, Setup(players, seats), 11, 0, 200, 0)["seats"]
    rate = won.group_by("strategy").agg(pl.col("won").mean())
    assert dict(rate.iter_rows())["default"] > 0.8 * 2 / players


def test_every_style_builds_bases_and_wins_games(rules):
    seats = ("default", "rush", "turtle", "raider")
    tables = GAME.play(rules, Setup(4, seats), 2, 0, 400, 0)
    per = tables["seats"].group_by("strategy").agg(pl.col("won").sum())
    assert dict(per.iter_rows()).keys() == set(seats)
    assert all(wins > 20 for wins in dict(per.iter_rows()).values())
    assert tables["games"]["stalled"].sum() == 0


def test_a_python_callable_can_play_a_seat_in_the_python_loop(rules):
    """The Python loop asks a seat's player(seat) for each of its moves: here a Python bot that
    always takes the last listed legal move (building when it can, else ending); the other seat
    plays its jitted bot."""
    rs, planets, kinds, families, params, s = GAME.prepare(rules, Setup(2, ("default", "default")))
    asked = []

    def last_move(seat):
        n = engine.legal_moves(s, rs, seat)
        s.move[:] = s.moves[n - 1]
        asked.append(seat)

    out = play.new_results(1, 2, len(planets), kinds)
    play.play_python(s, rs, families, params, 3, 0, out, 0, {1: last_move})
    assert asked and set(asked) == {1} and out.winner[0] == s.g[WINNER]
    assert out.winner[0] in (-1, 0, 1) and np.all(out.bases[0] >= 0)
