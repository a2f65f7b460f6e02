"""No Thanks! at the fast level (no_thanks_fast) keeps every promise of a game
(sim/testing.py), plays the rules of the simple level on exact positions, and agrees with the
simple level's game under the same bots."""

import numpy as np
import pytest
from statsmodels.stats.proportion import proportions_ztest

from no_thanks import GAME as SIMPLE
from no_thanks_fast import GAME, bots, engine
from no_thanks_fast.state import CARD, DECK_N, PASS, POT, SEAT, TAKE, TURNS
from sim import testing
from sim.game import Setup


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda check: check.__name__)
def test_conformance(check):
    check(GAME)


def position(players=3, card=20, pot=0, chips=(11, 11, 11), held=()):
    """Gives a dealt 3-player state with the face-up `card` and `pot`, each seat's chips, and
    seat 0 holding the cards `held`."""
    rules = GAME.load_rules(None, [])
    p = GAME.prepare(rules, Setup(players, ("default",) * players))
    s = p.state
    engine.start_game(s, p.rs, 1, 0)
    s.g[CARD], s.g[POT] = card, pot
    s.chips[:] = chips
    for c in held:
        s.held[0, c] = 1
    return p, s


def test_a_pass_pays_a_chip_onto_the_card_and_the_next_seat_decides():
    p, s = position(card=20, pot=2)
    s.move[0] = PASS
    engine.apply_move(s, p.rs, 0, s.move)
    assert (s.chips[0], s.g[POT], s.g[SEAT], s.g[CARD], s.g[TURNS]) == (10, 3, 1, 20, 1)


def test_a_take_gives_the_card_and_its_chips_and_the_taker_decides_on_the_next_card():
    p, s = position(card=20, pot=3)
    left, top = s.g[DECK_N], s.deck[s.g[DECK_N] - 1]
    s.move[0] = TAKE
    engine.apply_move(s, p.rs, 0, s.move)
    assert (s.chips[0], s.g[POT], s.g[SEAT], s.held[0, 20]) == (14, 0, 0, 1)
    assert (s.g[CARD], s.g[DECK_N]) == (top, left - 1)


def test_the_last_card_taken_ends_the_game():
    p, s = position(card=20)
    s.g[DECK_N] = 0
    s.move[0] = TAKE
    engine.apply_move(s, p.rs, 0, s.move)
    assert engine.over(s)


def test_each_run_scores_its_lowest_card():
    p, s = position(held=(3, 4, 5, 10, 20, 21))
    assert engine.card_points(s, 0) == 3 + 10 + 20


@pytest.mark.parametrize("card, pot, chips, held, move", [
    (20, 0, 11, (21,), PASS),  # joins a run, but no chip on it yet (run_wait 1)
    (20, 1, 11, (19,), TAKE),  # joins a run with a chip on it
    (20, 8, 11, (), TAKE),     # 8 chips reach greed 0.4 of its 20 points
    (20, 7, 11, (), PASS),
    (20, 7, 2, (), PASS),      # short of chips, but it costs 13, more than half its value
    (12, 6, 2, (), TAKE),      # short of chips, and it costs 6, half its value
    (20, 0, 0, (), TAKE),      # without chips a seat must take
])
def test_the_default_bot_plays_as_the_simple_levels(card, pot, chips, held, move):
    p, s = position(card=card, pot=pot, chips=(chips, 11, 11), held=held)
    bots.choose(s, p.rs, 0, p.families[0], p.params[0], s.move)
    assert s.move[0] == move


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize("strategy", ["default", "random", "greedy"])
def test_the_fast_level_wins_as_the_simple_level_by_seat(players, strategy):
    """Each seat's win rate over 3,000 games of each level agrees (two-proportion z-test, |z|
    below 3.5: a 1-in-2,000 chance per seat that a true agreement fails)."""
    rules, setup, games = GAME.load_rules(None, []), Setup(players, (strategy,) * players), 3000
    fast = GAME.play(rules, setup, 7, 0, games, 0)["seats"]
    simple = SIMPLE.play(rules, setup, 7, 0, games, 0)["seats"]
    assert fast.columns == simple.columns and fast.dtypes == simple.dtypes
    for seat in range(players):
        wins = [int(t.filter(t["seat"] == seat)["won"].sum()) for t in (fast, simple)]
        z, _ = proportions_ztest(wins, [games, games])
        assert abs(z) < 3.5, f"seat {seat}: {wins[0]} fast wins, {wins[1]} simple, of {games}"
