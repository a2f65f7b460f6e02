"""Command-line configurations: seat strategies, sweeps (the player counts: test_counts.py)."""

import json

import pytest

from sim.errors import UserError
from sim.game import Setup
from sim.run.setups import build_setups, parse_seat_strategies


def test_seat_strategies_are_seat_equals_name():
    assert parse_seat_strategies(["0=default", "2=lucky"]) == {0: "default", 2: "lucky"}


@pytest.mark.parametrize("value", ["default", "a=default", "0=", "-1=lucky"])
def test_malformed_seat_strategies_are_refused(value):
    with pytest.raises(UserError, match="--seat-strategy takes SEAT=NAME"):
        parse_seat_strategies([value])


def test_a_sweep_plays_every_player_count_with_every_option(fake_game):
    setups = build_setups(fake_game, [3, 4], {"saboteurs": [1, 2]}, "random", {0: "lucky"})
    assert setups == [
        Setup(3, ("lucky", "random", "random"), (("saboteurs", 1),)),
        Setup(3, ("lucky", "random", "random"), (("saboteurs", 2),)),
        Setup(4, ("lucky", "random", "random", "random"), (("saboteurs", 1),)),
        Setup(4, ("lucky", "random", "random", "random"), (("saboteurs", 2),)),
    ]


def test_player_counts_outside_the_games_range_are_refused(fake_game):
    with pytest.raises(UserError) as e:
        build_setups(fake_game, [3, 7], {}, "default", {})
    assert str(e.value) == "fake takes 2–6 players, got 7"


def test_an_unknown_strategy_lists_the_known_ones(fake_game):
    with pytest.raises(UserError) as e:
        build_setups(fake_game, [3], {}, "default", {1: "clever"})
    assert str(e.value) == "unknown strategy 'clever'; known strategies: default, random, lucky"


def test_a_seat_missing_from_some_configuration_is_refused(fake_game):
    with pytest.raises(UserError, match="no seat 3 with 3 players"):
        build_setups(fake_game, [3, 5], {}, "default", {3: "lucky"})


def test_rule_variants_multiply_every_player_count(fake_game):
    from sim.run.setups import build_setups, rule_variants

    rules, variants = rule_variants(fake_game, [], ["flips=7", "bias=0.25,0.75"])
    assert rules["flips"] == 7 and rules["bias"] == 0.5  # the run's rules: no swept value
    setups = build_setups(fake_game, [2, 3], {}, "random", {}, rules, variants)
    assert [(s.players, s.rules) for s in setups] == [
        (2, (("bias", 0.25),)), (2, (("bias", 0.75),)),
        (3, (("bias", 0.25),)), (3, (("bias", 0.75),))]


def test_a_setup_with_rule_values_round_trips_through_json():
    setup = Setup(7, ("default",) * 7, (("saboteurs", None),),
                  (("gold.saboteur_payout", (1, 1)), ("hand_size.7", 6)), "house",
                  (("rounds", 2),))
    assert Setup.from_json(json.loads(json.dumps(setup.to_json()))) == setup
    assert setup.label() == "7p house gold.saboteur_payout=[1, 1] hand_size.7=6 default"
    assert setup.rule_values() == (("rounds", 2), *setup.rules)


def test_a_setup_without_rule_values_writes_what_it_did_before_them():
    assert Setup(3, ("default",) * 3).to_json() == {"players": 3, "seats": ["default"] * 3,
                                                    "options": {}}
