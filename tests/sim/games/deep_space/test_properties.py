"""Invariants of whole Deep Space games, whatever the seed, player count, bots and rule options:
a dog stays with a recruit, combat always leaves one colour on a planet, nobody stands on
another's home or a covered planet, and every turn ends. (Recruits, dogs and cards are
conserved, and only legal moves happen: tests/conformance.)"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games.deep_space import GAME, bots, engine
from sim.games.deep_space.state import OVER, PLAYERS, TURN_SEAT, TURNS
from sim.game import Setup

OPTIONS = [[], ["options.mining=fixed"], ["options.redraw=always"],
           ["options.redraw=never"], ["supply.gems=6", "supply.ore=6"], ["turn_cap=40"]]


def assert_board_holds(s, rs):
    p = int(s.g[PLAYERS])
    assert (s.units >= 0).all() and (s.supply >= 0).all()
    assert ((s.dogs == 0) | (s.units > 0)).all(), "a dog stays with a recruit"
    assert ((s.units > 0).sum(axis=0) <= 1).all(), "combat leaves one colour on a planet"
    for seat in range(p):
        for q in np.flatnonzero(s.units[seat]):
            assert not rs.covered[p, q]
            assert not rs.home[q] or q == rs.seat_home[p, seat], "nobody enters another's home"
    assert (s.bases == s.base.sum(axis=1)).all() and (s.gems >= 0).all() and (s.ore >= 0).all()


def play_checked(rules, strategies, seed, game):
    """Plays one game in a Python loop over the engine and the jitted bots, checking the
    invariants at every move."""
    players = len(strategies)
    rs, _, _, families, params, s = GAME.prepare(rules, Setup(players, tuple(strategies)))
    engine.start_game(s, rs, seed, game)
    assert_board_holds(s, rs)
    decisions = 0
    while not s.g[OVER]:
        seat = int(s.g[TURN_SEAT])
        n = engine.legal_moves(s, rs, seat)
        listed = {tuple(row) for row in s.moves[:n].tolist()}
        assert len(listed) == n, "no move is listed twice"
        bots.choose(s, rs, seat, families[seat], params[seat], s.move)
        assert tuple(s.move.tolist()) in listed
        engine.apply_move(s, rs, seat, s.move)
        assert_board_holds(s, rs)
        decisions += 1
        assert decisions < 200 * (int(s.g[TURNS]) + 1), "every turn ends"
    assert s.g[TURNS] <= rs.numbers[engine.TURN_CAP], "every game ends"


games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**63 - 1),
    "game": st.integers(0, 10**6),
    "strategies": st.integers(2, 4).flatmap(lambda n: st.lists(
        st.sampled_from(["random", "default", "rush", "turtle", "raider"]), min_size=n, max_size=n)),
    "sets": st.sampled_from(OPTIONS),
})


@settings(max_examples=25, deadline=None)
@given(games)
def test_the_board_holds_its_rules_move_by_move_and_every_turn_ends(g):
    play_checked(GAME.load_rules(None, g["sets"]), g["strategies"], g["seed"], g["game"])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4),
       strategy=st.sampled_from(["random", "default", "raider"]))
def test_the_result_tables_agree_with_each_other(seed, players, strategy):
    rules = GAME.load_rules(None, [])
    tables = GAME.play(rules, Setup(players, (strategy,) * players), seed, 0, 20, 0)
    games, seats, bases = tables["games"], tables["seats"], tables["bases"]
    to_win = rules["bases"]["to_win"][str(players)]
    won = seats.filter(seats["won"])
    assert won["game_id"].to_list() == games.filter(~games["stalled"])["game_id"].to_list()
    assert (won["bases"] == to_win).all() and (seats["bases"] <= to_win).all()
    counted = bases.group_by("game_id", "seat").len()
    joined = seats.join(counted, on=["game_id", "seat"], how="left").fill_null(0)
    assert (joined["bases"] == joined["len"]).all(), "one bases row per base built"
    assert (bases["turn"] <= bases.join(games, on="game_id")["turns"]).all()
    assert not bases.select("game_id", "seat", "planet").is_duplicated().any()
