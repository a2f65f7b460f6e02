"""Spit and Speed bots: names and parameters, the random family's uniform pick, and what the
default family prefers, each on a position built for it."""

import numpy as np
import pytest

from sim.games.speed import bots as speed_bots
from sim.games.spit import bots
from sim.games.spit.state import PLAY, TURN
from strategies import presets


def test_every_strategy_name_resolves_to_a_family_and_named_parameters():
    searches = ["search-fast", "search", "search-strong"]
    assert bots.strategy_names() == ["random", "default", "greedy", "blocker", "turner",
                                     *searches]
    assert speed_bots.strategy_names() == ["random", "default", "greedy", *searches]
    family, params = bots.resolve("turner")
    assert family == presets.DEFAULT and params[bots.TURN_FIRST] == 1.0
    assert bots.resolve("random")[0] == presets.RANDOM
    assert speed_bots.resolve("greedy")[1][speed_bots.KEEP] == 0.0
    for p in bots.PARAMETERS:
        assert p.low <= p.default <= p.high


def plan_of(t, seat=0):
    assert bots.choose(t.s, t.rs, seat, t.families[seat], t.params[seat], t.c.plan[seat])
    return tuple(int(x) for x in t.c.plan[seat])


def test_the_random_bot_picks_every_legal_move(new_table):
    t = new_table(seats=("random", "random"))
    t.centre(0, "5h")
    t.centre(1, "Tc")
    t.layout(0, "-2c 6s", "-3c", "9d", "-4c Jh")
    seen = {plan_of(t) for _ in range(200)}
    # 6s on 5h; turn up the 3c; 9d and Jh on Tc; 6s and Jh into the empty space
    assert seen == t.moves(0) and len(seen) == 6


def test_the_default_bot_plays_before_turning_up_and_the_turner_the_other_way(new_table):
    t = new_table(seats=("default", "turner"))
    for seat in (0, 1):
        t.layout(seat, "-2c 6s", "-3c")
    t.centre(0, "5h")
    assert plan_of(t, 0)[0] == PLAY
    assert plan_of(t, 1)[0] == TURN


def test_the_default_bot_prefers_a_play_that_uncovers_a_face_down_card(table):
    table.centre(0, "5h")
    table.layout(0, "6s", "-9c 4d", "Qc", "Qd", "Qh")
    assert plan_of(table) == (PLAY, 1, 0)


def test_the_default_bot_keeps_options_and_the_blocker_denies_them(new_table):
    # 6s on 5h lets our own 7d follow; 4d on 5h would let the other player's 3c in.
    t = new_table(seats=("default", "default"))
    t.centre(0, "5h")
    t.layout(0, "6s", "4d", "7d", "Qd", "Qh")
    t.layout(1, "Qs", "Qc", "Ks", "Kc", "5c")
    assert plan_of(t)[:2] == (PLAY, 0)
    blocker = new_table(seats=("blocker", "default"))
    blocker.centre(0, "5h")
    blocker.layout(0, "6s", "4d", "Jd", "Qd", "Qh")
    blocker.layout(1, "7c", "7s", "Ks", "Kc", "5c")  # two 7s wait for a 6, no 3 for a 4
    assert plan_of(blocker)[:2] == (PLAY, 1)


def test_no_legal_move_means_no_plan(table):
    table.centre(0, "5h")
    table.layout(0, "Qs", "Qd", "Qc", "Qh", "Ks")
    assert not bots.choose(table.s, table.rs, 0, table.families[0], table.params[0], table.c.plan[0])


@pytest.mark.parametrize("on_larger", [1.0, 0.0])
def test_the_lone_spitter_picks_the_larger_or_the_smaller_pile(table, on_larger):
    table.centre(0, "5h", "6h", "7h")
    table.centre(1, "5c")
    params = table.params[0].copy()
    params[bots.SPIT_ON_LARGER] = on_larger
    assert bots.choose_pile(table.s, table.rs, 0, presets.DEFAULT, params) == (0 if on_larger else 1)


def test_the_speed_default_bot_keeps_cards_playable(new_table):
    from sim.game import Setup
    from sim.games.speed import GAME, engine

    rs, names, families, params, s, c, _, _ = GAME.prepare(GAME.load_rules(None, []),
                                                           Setup(2, ("default", "default")))
    engine.start_game(s, rs, c, 0, 0)
    card = names.index
    s.centre[0, 0], s.centre[1, 0] = card("5h"), card("Kc")
    s.hand[0] = [card("4d"), card("6s"), card("7d"), card("9c"), card("9d")]
    plan = c.plan[0]
    assert speed_bots.choose(s, rs, 0, families[0], params[0], plan)
    assert tuple(plan) == (0, 1, 0), "6s on 5h keeps 7d playable"
    n = engine.legal_moves(s, rs, 0)
    assert n == 2 and np.all(s.moves[:n, 2] == 0)
