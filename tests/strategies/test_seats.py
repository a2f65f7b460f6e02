"""Seat strategy strings: built-in names, presets, Python bots and restrictions, as the command
line writes them and as workers read them."""

from pathlib import Path

import pytest

from sim.errors import UserError
from sim.game import Setup
from sim.games.saboteur import GAME
from strategies import seats

EXAMPLES = Path(__file__).parents[2] / "strategies" / "examples"


@pytest.mark.parametrize("text, parsed", [
    ("default", ("default", ())),
    ("naive-miners", ("naive-miners", ())),
    ("default-no-rockfall", ("default", ("rockfall",))),
    ("naive-miners-no-rockfall-no-broken_cart", ("naive-miners", ("rockfall", "broken_cart"))),
    ("/a/no-x/bots.py:Cautious", ("/a/no-x/bots.py:Cautious", ())),
    ("/a/no-x/bots.py:Cautious-no-map", ("/a/no-x/bots.py:Cautious", ("map",))),
])
def test_a_strategy_string_names_a_bot_and_what_it_never_plays(text, parsed):
    assert seats.parse(text) == parsed
    assert seats.compose(*parsed) == text


def test_forbid_adds_restrictions_to_every_seat_or_one_seat():
    strategy, per_seat = seats.forbid("default", {1: "random"}, ["pass", "2=rockfall", "1=map"])
    assert strategy == "default-no-pass"
    assert per_seat == {1: "random-no-pass-no-map", 2: "default-no-pass-no-rockfall"}
    assert seats.forbid("default", {}, []) == ("default", {})


@pytest.mark.parametrize("value", ["x=rockfall", "2=", ""])
def test_a_malformed_forbid_is_one_line(value):
    with pytest.raises(UserError, match=r"^--forbid takes NAME or SEAT=NAME"):
        seats.forbid("default", {}, [value])


def test_compare_forbids_for_every_strategy_or_one_of_them():
    assert seats.forbid_strategies(["default", "random"], ["map", "random=pass"]) == \
        ["default-no-map", "random-no-map-no-pass"]
    with pytest.raises(UserError, match="STRATEGY one of default, random"):
        seats.forbid_strategies(["default", "random"], ["covert=map"])


def test_canonical_makes_a_python_bots_path_absolute(monkeypatch):
    monkeypatch.chdir(EXAMPLES)
    assert seats.canonical(GAME, "first_move.py:FirstMove-no-rockfall") == \
        f"{EXAMPLES / 'first_move.py'}:FirstMove-no-rockfall"


@pytest.mark.parametrize("text, message", [
    ("clever", "unknown strategy 'clever'; known strategies: random, default, "),
    ("default-no-rockfal", "saboteur cannot forbid 'rockfal'; it can forbid: path, dead_end, "),
])
def test_canonical_refuses_unknown_names_listing_the_known_ones(text, message):
    with pytest.raises(UserError) as e:
        seats.canonical(GAME, text, GAME.load_rules(None, []))
    assert str(e.value).startswith(message)


def test_a_game_without_bots_refuses_python_strategies_and_restrictions():
    class Plain:
        name = "plain"

        def strategy_names(self):
            return ["default"]

    with pytest.raises(UserError, match="plain does not take --forbid yet"):
        seats.canonical(Plain(), "default-no-map")
    with pytest.raises(UserError, match="plain does not take Python strategies yet"):
        seats.canonical(Plain(), f"{EXAMPLES / 'first_move.py'}:FirstMove")


@pytest.mark.parametrize("seat_strings, label", [
    (("default",) * 4, "4p default"),
    (("default", "random", "default", "default"), "4p default, 1=random"),
    (("default-no-rockfall",) * 3, "3p forbid=rockfall default"),
    (("default-no-pass", "random-no-pass-no-map", "default-no-pass"),
     "3p forbid=pass default, 1=random-no-map"),
    (("/x/y/bots.py:Cautious", "default", "default"), "3p default, 0=bots.py:Cautious"),
])
def test_a_configuration_label_names_strategies_and_restrictions_shortly(seat_strings, label):
    assert Setup(len(seat_strings), seat_strings).label() == label
