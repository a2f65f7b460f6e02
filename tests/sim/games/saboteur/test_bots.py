"""Saboteur bots: the random family's pick and the names a seat's strategy may have. (How the
command line refuses an unknown one: tests/conformance/test_cli.py.)"""

import numpy as np
import pytest

from sim import rng
from sim.games.saboteur import GAME, bots, cards, engine, maze, play
from sim.games.saboteur.state import MINERS_WON, ORIGIN, ROUND_OVER, TURN_SEAT, new_state
from strategies import presets


def dealt(players, seed):
    rs, names = cards.build(GAME.load_rules(None, []))
    s = new_state(players, len(names))
    engine.start_game(s, rs, seed, 0, -1)
    return s, rs, names


@pytest.mark.parametrize("players, seed", [(3, 0), (6, 1), (10, 2)])
def test_the_random_bot_picks_uniformly_from_the_legal_moves_in_their_listed_order(players, seed):
    s, rs, _ = dealt(players, seed)
    family, params = bots.resolve("random")
    move = np.zeros(5, np.int64)
    turns = 0
    over = False
    while not over:
        seat = int(s.g[TURN_SEAT])
        expected_rng = s.bot_rng[seat].copy()
        n = engine.legal_moves(s, rs, seat)
        expected = s.moves[rng.below(expected_rng, n)].copy()
        bots.choose(s, rs, seat, family, params, move)
        assert move.tolist() == expected.tolist()
        assert s.bot_rng[seat, 0] == expected_rng[0], "one draw from the seat's own stream"
        over = play.turn(s, rs, seat, move, False)
        turns += 1
    assert turns > 10


def test_the_strategy_names_are_random_and_every_preset():
    names = bots.strategy_names()
    assert names == ["random", *bots.PRESETS]
    assert "default" in names and GAME.strategy_names() == names
    families = {name: bots.resolve(name)[0] for name in names}
    assert families.pop("random") == presets.RANDOM
    assert families == {name: presets.SEARCH if spec.get("family") == "search" else presets.DEFAULT
                        for name, spec in bots.PRESETS.items()}


def test_a_preset_changes_only_its_own_parameters():
    default = bots.resolve("default")[1]
    covert = bots.resolve("covert-saboteurs")[1]
    changed = {p.name for p, a, b in zip(bots.PARAMETERS, default, covert) if a != b}
    assert changed == set(bots.PRESETS["covert-saboteurs"])


def path_to_the_gold(players, role):
    """A position where seat 0 (of `role`) knows the gold is the middle goal and holds the
    straight that joins the path (1..6, 0) to it, beside a map and a broken tool."""
    s, rs, names = dealt(players, 4)
    maze.clear(s, rs)
    s.goal_kind[:] = [1, 0, 2]
    straight = names.index("straight_ew")
    for x in range(1, 7):
        maze.place(s, rs, ORIGIN + x, ORIGIN, straight, rs.exits[straight])
    maze.refresh(s, rs)
    s.role[:] = engine.MINER
    s.role[0] = role
    s.seen[0, 1] = 1
    s.hand[0, :] = -1
    s.hand[0, :3] = [straight, names.index("map"), names.index("broken_cart")]
    s.hand_n[0] = 3
    s.g[TURN_SEAT] = 0
    return s, rs


def test_a_default_miner_who_knows_the_gold_reaches_it():
    s, rs = path_to_the_gold(5, engine.MINER)
    family, params = bots.resolve("default")
    move = np.zeros(5, np.int64)
    bots.choose(s, rs, 0, family, params, move)
    assert move.tolist() == [engine.PLACE, 0, ORIGIN + 7, ORIGIN, cards.E | cards.W]
    play.turn(s, rs, 0, move, True)
    assert s.g[ROUND_OVER] == 1 and s.g[MINERS_WON] == 1


def test_a_default_saboteur_who_knows_the_gold_does_not_reach_it():
    s, rs = path_to_the_gold(5, engine.SABOTEUR)
    family, params = bots.resolve("default")
    move = np.zeros(5, np.int64)
    for _ in range(20):
        bots.choose(s, rs, 0, family, params, move)
        assert move.tolist() != [engine.PLACE, 0, ORIGIN + 7, ORIGIN, cards.E | cards.W]
