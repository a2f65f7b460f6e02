"""Spit's and Speed's rules and reaction settings as data: defaults, options, bad values."""

import polars as pl
import pytest

from sim.errors import UserError
from sim.game import Setup
from sim.games.speed import GAME as SPEED
from sim.games.spit import GAME, reaction


def test_the_default_rules_are_the_rules_file():
    rules = GAME.load_rules(None, [])
    assert rules["layout"]["stock_piles"] == 5
    assert rules["options"] == {"smaller_pile": "slap", "alternating_colours": False,
                                "stack_equal_ranks": False, "both_out_of_spit_cards": "new_layout",
                                "win": "no_cards_left"}
    assert SPEED.load_rules(None, [])["deal"] == {"cards_each": 15, "hand": 5}


@pytest.mark.parametrize("game, sets, message", [
    (GAME, ["options.smaller_pile=grab"], "options.smaller_pile must be one of slap, out_player_chooses"),
    (GAME, ["options.win=first_out"], "options.win must be one of no_cards_left, spit_and_layout_played"),
    (GAME, ["options.both_out_of_spit_cards=reshuffle"],
     "must be one of new_layout, take_back_started_pile, split_both_piles"),
    (GAME, ["layout.stock_piles=0"], "layout.stock_piles must be a whole number from 1 to 8"),
    (GAME, ["layout.stock_piles=7"], "cannot deal two layouts of 28 cards"),
    (GAME, ["deck.ranks=2"], "deck.ranks must be a whole number from 3 to 13"),
    (GAME, ["reaction.profile=pro"], "reaction.profile 'pro' is not a profile"),
    (GAME, ["reaction_profiles.club.mean=-1.0"], "the mean reaction time must be a positive"),
    (SPEED, ["deal.cards_each=26"], "must split into two equal side piles"),
    (SPEED, ["options.scoring=best_of_3"], "options.scoring must be one of one_hand, points"),
])
def test_bad_rule_values_are_one_clear_error(game, sets, message):
    with pytest.raises(UserError, match=message):
        game.load_rules(None, sets)


def test_reaction_flags_become_setup_options_and_a_list_sweeps():
    rules = GAME.load_rules(None, [])
    assert reaction.setup_options(rules, [], None) == {"reaction_0": ["club"], "reaction_1": ["club"]}
    options = reaction.setup_options(rules, ["1=0.6,0.8:0.1,expert", "0=0.9"], "novice")
    assert options == {"reaction_0": ["0.9:0.45"], "reaction_1": ["0.6:0.45", "0.8:0.1", "expert"]}
    assert reaction.setup_options(rules, [], "novice,expert")["reaction_1"] == ["novice", "expert"]


@pytest.mark.parametrize("flags, profile, message", [
    (["1=-0.5"], None, "the mean reaction time must be a positive number of seconds, got -0.5"),
    (["1=0"], None, "must be a positive number"),
    (["1=0.5:-1"], None, "the spread must be a number >= 0"),
    (["2=0.5"], None, "--reaction takes SEAT=MEAN"),
    (["1=fast"], None, "--reaction takes SEAT=MEAN"),
    (["1=0.5"], "novice,club", "give the spread"),
    ([], "pro", "unknown profile 'pro'"),
])
def test_bad_reaction_flags_are_one_clear_error(flags, profile, message):
    with pytest.raises(UserError, match=message):
        reaction.setup_options(GAME.load_rules(None, []), flags, profile)


def test_a_seat_reaction_option_resolves_to_mean_and_spread_and_check_refuses_bad_ones():
    rules = GAME.load_rules(None, [])
    assert reaction.seat_reaction(rules, None) == (0.9, 0.35)
    assert reaction.seat_reaction(rules, "expert") == (0.6, 0.25)
    assert reaction.seat_reaction(rules, "1.5:0.2") == (1.5, 0.2)
    with pytest.raises(UserError, match="unknown reaction profile 'pro'"):
        GAME.check(rules, Setup(2, ("default",) * 2, (("reaction_0", "pro"),)))
    with pytest.raises(UserError, match="two players"):
        GAME.check(rules, Setup(3, ("default",) * 3))


def test_the_tables_record_reactions_and_rule_options():
    rules = GAME.load_rules(None, ["options.alternating_colours=true"])
    setup = Setup(2, ("default", "random"), (("reaction_0", "expert"), ("reaction_1", "0.9:0.1")))
    tables = GAME.play(rules, setup, 1, 0, 4, 0)
    games, seats = tables["games"], tables["seats"]
    assert games["alternating_colours"].all() and (games["smaller_pile"] == "slap").all()
    assert (games["win"] == "no_cards_left").all()
    assert games["reaction_ratio"].to_list() == [pytest.approx(0.6 / 0.9)] * 4
    assert seats.filter(seats["seat"] == 1)["reaction_spread"].to_list() == [0.1] * 4
    assert seats["strategy"].to_list() == ["default", "random"] * 4
    assert (seats.group_by("game_id").agg(pl.col("won").sum())["won"] == 1).all()
    for name, columns in GAME.columns.items():
        assert {c.name for c in columns} <= set(tables[name].columns)
