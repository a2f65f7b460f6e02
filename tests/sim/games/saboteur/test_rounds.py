"""Turns and rounds: drawing, the end of a round, who starts, fixed numbers of saboteurs."""

import numpy as np
import polars as pl
import pytest

from sim.errors import UserError
from sim.game import Setup
from sim.games.saboteur import GAME, bots, cards, engine, play
from sim.games.saboteur.engine import PLACE
from sim.games.saboteur.state import (DRAW_AT, LAST_PATH_SEAT, LAST_SEAT, MINERS_WON, ROUND_OVER,
                                TURN_SEAT, new_state)


def end_turn(table) -> bool:
    return bool(engine.end_turn(table.s, table.rs))


def pass_round(table, seats):
    """Lets each of `seats` in turn discard its first card; gives whether the round ended, per turn."""
    over = []
    for seat in seats:
        assert table.s.g[TURN_SEAT] == seat
        table.discard(seat)
        over.append(end_turn(table))
    return over


# ---- a turn ----------------------------------------------------------------------------------

def test_after_a_turn_the_player_draws_one_card_from_the_pile():
    rs, names = cards.build(GAME.load_rules(None, []))
    s = new_state(5, len(names))
    engine.start_game(s, rs, 3, 0, -1)
    top = int(s.deck[s.g[DRAW_AT]])
    engine.apply_move(s, rs, 0, np.array([engine.DISCARD, 2, 0, 0, 0], np.int64))
    assert s.hand_n[0] == 5
    assert not engine.end_turn(s, rs)
    assert s.hand_n[0] == 6 and s.hand[0, 5] == top
    assert s.g[DRAW_AT] == 5 * 6 + 1
    assert s.g[TURN_SEAT] == 1


def test_once_the_pile_is_empty_nobody_draws(table):
    table.empty_pile()
    table.give(0, "map", "map")
    table.give(1, "map")
    table.discard(0)
    assert not end_turn(table)
    assert table.s.hand_n[0] == 1


def test_the_round_ends_when_the_pile_and_every_hand_are_empty_and_the_saboteurs_win(table):
    table.saboteurs(3)
    table.empty_pile()
    table.give(0, "map")
    table.discard(0)
    assert end_turn(table)
    assert table.s.g[ROUND_OVER] == 1 and table.s.g[MINERS_WON] == 0
    engine.end_round(table.s, table.rs)
    assert table.s.round_gold.tolist() == [0, 0, 0, 4]


def test_the_round_goes_on_while_any_hand_holds_a_card(table):
    table.empty_pile()
    for seat in range(4):
        table.give(seat, "map", "rockfall")
    assert pass_round(table, [0, 1, 2, 3, 0, 1, 2]) == [False] * 7


def test_a_player_with_an_empty_hand_has_no_turn_once_the_pile_is_empty(table):
    table.empty_pile()
    table.give(0, "map")
    table.give(2, "map")
    assert pass_round(table, [0]) == [False]
    assert table.s.g[TURN_SEAT] == 2


def test_under_all_pass_the_round_ends_once_every_player_in_turn_passes(new_table):
    table = new_table(sets=["options.round_end=all_pass"])
    table.saboteurs(1)
    table.empty_pile()
    for seat in range(4):
        table.give(seat, "map", "rockfall")
    assert pass_round(table, [0, 1, 2, 3]) == [False, False, False, True]
    assert table.s.g[MINERS_WON] == 0
    assert table.s.hand_n.tolist() == [1, 1, 1, 1]


def test_under_all_pass_a_card_played_starts_the_count_again(new_table):
    table = new_table(sets=["options.round_end=all_pass"])
    table.empty_pile()
    for seat in range(4):
        table.give(seat, "map", "map")
    assert pass_round(table, [0, 1]) == [False, False]
    table.play(2, cards.MAP, 0, 1)
    assert not end_turn(table)
    assert pass_round(table, [3, 0, 1, 2]) == [False, False, False, True]


def test_under_all_pass_only_passes_made_once_the_pile_is_empty_count(new_table):
    table = new_table(sets=["options.round_end=all_pass"])
    table.s.g[DRAW_AT] = table.s.deck.shape[0] - 1  # one card left
    for seat in range(4):
        table.give(seat, "map", "map")
    # Seat 0 passes and draws the last card: that pass does not count.
    assert pass_round(table, [0, 1, 2, 3]) == [False, False, False, False]
    assert pass_round(table, [0]) == [True]


# ---- who starts ------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 7, 10])
def test_round_one_starts_with_seat_0(players):
    rs, names = cards.build(GAME.load_rules(None, []))
    s = new_state(players, len(names))
    for seed in range(5):
        engine.start_game(s, rs, seed, seed, -1)
        assert s.g[TURN_SEAT] == 0


def place_then_pass(table):
    """Seat 2 places the round's last path card, then seat 3 plays the round's last card."""
    table.give(2, "cross")
    table.give(3, "map")
    table.place(2, 1, 0, "NESW")
    table.discard(3)
    assert (table.s.g[LAST_PATH_SEAT], table.s.g[LAST_SEAT]) == (2, 3)


def test_a_later_round_starts_with_the_player_who_placed_the_last_path_card(table):
    place_then_pass(table)
    assert engine.next_round_first_seat(table.s, table.rs) == 2


def test_under_after_round_ender_a_later_round_starts_after_the_player_who_ended_the_round(new_table):
    table = new_table(sets=["options.next_round_starter=after_round_ender"])
    place_then_pass(table)
    assert engine.next_round_first_seat(table.s, table.rs) == 0


def rounds_started(sets, players, seed, strategy):
    """Plays a game; gives per round (seat that started it, seat that placed the previous round's
    last path card, seat that made the previous round's last move)."""
    rules = GAME.load_rules(None, sets)
    rs, names = cards.build(rules)
    s = new_state(players, len(names))
    family, params = bots.resolve(strategy)
    families = np.full((2, players), family, np.int64)  # by (role, seat)
    params = np.tile(params, (2, players, 1))
    seen, last = [], {"path": -1, "move": -1}

    def watch(event, *args):
        if event == "round":
            seen.append((int(s.g[TURN_SEAT]), last["path"], last["move"]))
            last["path"] = -1
        elif event == "move":
            seat, move, _ = args
            last["move"] = seat
            if move[0] == PLACE:
                last["path"] = seat

    play.play_python(s, rs, families, params, seed, 0, -1, play.new_results(1, players, 3), watch=watch)
    return seen


@pytest.mark.parametrize("seed", range(4))
def test_in_play_each_round_starts_as_the_rules_say(seed):
    for first, last_path, _ in rounds_started([], 5, seed, "default")[1:]:
        if last_path >= 0:
            assert first == last_path
    for first, _, last_move in rounds_started(["options.next_round_starter=after_round_ender"],
                                              5, seed, "default")[1:]:
        assert first == (last_move + 1) % 5


def test_a_new_round_deals_afresh_and_keeps_the_gold(table):
    table.s.gold[:] = [3, 0, 5, 1]
    table.s.broken[:] = [cards.PICKAXE, 0, 0, cards.CART]
    table.row(0, 1, 3)
    engine.start_round(table.s, table.rs, 1, 2)
    s = table.s
    assert s.gold.tolist() == [3, 0, 5, 1]
    assert s.broken.tolist() == [0, 0, 0, 0] and s.seen.sum() == 0
    assert (s.card_at == -1).all() and s.goal_shown.sum() == 0
    assert s.hand_n.tolist() == [6] * 4 and s.g[TURN_SEAT] == 2
    assert sorted(s.goal_kind.tolist()) == [0, 1, 2]


# ---- a fixed number of saboteurs ---------------------------------------------------------------

@pytest.mark.parametrize("fixed", [0, 2, 4])
def test_a_fixed_number_of_saboteurs_is_in_play_every_round(fixed):
    rules = GAME.load_rules(None, [])
    setup = Setup(7, ("random",) * 7, (("saboteurs", fixed),))
    GAME.check(rules, setup)
    tables = GAME.play(rules, setup, 5, 0, 20, 0)
    per_round = tables["rounds"].group_by("game_id", "round").agg(
        (pl.col("role") == "saboteur").sum().alias("in_play"), pl.col("saboteurs").first())
    assert per_round["in_play"].to_list() == [fixed] * 60
    assert per_round["saboteurs"].to_list() == [fixed] * 60
    assert tables["games"]["saboteurs_fixed"].to_list() == [fixed] * 20


def test_fixed_saboteurs_are_dealt_to_different_seats():
    rules = GAME.load_rules(None, [])
    rounds = GAME.play(rules, Setup(7, ("random",) * 7, (("saboteurs", 2),)), 5, 0, 20, 0)["rounds"]
    seats = rounds.filter(pl.col("role") == "saboteur")["seat"].unique().to_list()
    assert sorted(seats) == list(range(7))


@pytest.mark.parametrize("players, fixed", [(3, 3), (7, 7), (10, 5), (5, -1)])
def test_a_number_of_saboteurs_out_of_range_is_refused(players, fixed):
    rules = GAME.load_rules(None, [])
    with pytest.raises(UserError, match="--saboteurs"):
        GAME.check(rules, Setup(players, ("random",) * players, (("saboteurs", fixed),)))


@pytest.mark.parametrize("players, fixed", [(3, 0), (3, 2), (10, 4)])
def test_a_number_of_saboteurs_in_range_is_accepted(players, fixed):
    GAME.check(GAME.load_rules(None, []), Setup(players, ("random",) * players, (("saboteurs", fixed),)))


# ---- how many rounds -----------------------------------------------------------------------------

@pytest.mark.parametrize("rounds", [1, 2, 4])
def test_a_game_plays_the_rounds_the_rules_give_and_its_rates_count_them(rounds):
    rules = GAME.load_rules(None, [f"rounds={rounds}"])
    tables = GAME.play(rules, Setup(4, ("default",) * 4), 11, 0, 30, 0)
    games, per_round = tables["games"], tables["rounds"].filter(pl.col("seat") == 0)
    assert games["rounds"].to_list() == [rounds] * 30
    assert per_round.group_by("game_id").len()["len"].to_list() == [rounds] * 30
    miners = int((per_round["winner_team"] == "miners").sum())
    # The headline and the summary are what `simulate`'s summary and the report print.
    successes, trials = games.select(*GAME.headline.per_game()).sum().row(0)
    assert (successes, trials) == (miners, 30 * rounds)
    (title, expr), = GAME.summary
    assert title == "avg rounds won by saboteurs"
    assert games.select(expr).item() == pytest.approx((30 * rounds - miners) / 30)
