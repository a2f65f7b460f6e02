"""The search family in Spit and Speed: its budgets, the state that holds the race's clock, the
candidates, what a decision leaves behind, that it never reads what the seat cannot know, that
its games are played, end and depend on the seed alone, and that the reaction time stays the
seat's."""

import numpy as np
import pytest

from sim import search
from sim.game import Setup
from sim.games.speed import GAME as SPEED
from sim.games.speed import search as speed_pieces
from sim.games.spit import GAME as SPIT
from sim.games.speed import engine as speed_engine
from sim.games.speed import state as speed_state
from sim.games.speed import bots as speed_bots
from sim.games.spit import loop, race, rollout
from sim.games.spit import engine as spit_engine
from sim.games.spit import search as spit_pieces
from sim.games.spit import state as spit_state
from sim.games.spit import bots as spit_bots
from strategies import presets

GAMES = {"spit": (SPIT, spit_bots, spit_pieces), "speed": (SPEED, speed_bots, speed_pieces)}
# each game's state: the index of its moves landed, of its game over and of its deal (hand)
INDICES = {spit_pieces: (spit_state.MOVES, spit_state.OVER, spit_state.DEAL),
           speed_pieces: (speed_state.MOVES, speed_state.OVER, speed_state.HAND_NO)}
HELD = {spit_pieces: spit_engine.cards_held, speed_pieces: speed_engine.cards_held}
SMALL = {"family": "search", "rollouts": 1.0, "determinizations": 2.0, "candidates": 16.0}


@pytest.fixture(scope="module", params=sorted(GAMES))
def game(request):
    """Gives (game, its bots, its search pieces, its default rules)."""
    game, bots, pieces = GAMES[request.param]
    return game, bots, pieces, game.load_rules(None, [])


def mid_race(game, rules, moves=12):
    """Gives (rule arrays, state, clock, families, params) of a game played `moves` steps on by
    two default seats, the next seat to plan still to plan."""
    rs, _, families, params, s, c, _, _ = game.prepare(rules, Setup(2, ("default", "default")))
    loop.start_game(s, rs, c, 11, 0)
    for _ in range(moves):
        loop.plan_moves(s, rs, c, families, params, None)
        seat = race.next_due(c)
        if seat < 0:
            loop.stall(s, rs, c, families, params)
        elif loop.land(s, rs, c, seat) == race.OUT:
            loop.end_round(s, rs, c)
    return rs, s, c, families, params


def decisions(game):
    """Gives (rule arrays, state, the seat to plan, the search's parameter vector) at each
    mid-race decision with more than one candidate, 12 to 40 steps into a game."""
    game, bots, _, rules = game
    params = bots.resolve("mine", {"mine": SMALL})[1]
    for moves in range(12, 40):
        rs, s, c, _, _ = mid_race(game, rules, moves)
        seat = next((q for q in range(2) if not c.pending[q]), None)
        if seat is not None and not s.idle[seat] \
                and bots.legal_moves(s, rs, seat) > 1:
            yield rs, s, seat, params


def searching_seat(game):
    """Gives the first of `decisions`."""
    return next(decisions(game))


def test_search_is_the_third_family_and_its_presets_are_budgets():
    for bots in (spit_bots, speed_bots):
        assert [f.name for f in bots.FAMILIES] == ["random", "default", "search"]
        names = ("search-fast", "search", "search-strong")
        assert all(bots.resolve(name)[0] == presets.SEARCH for name in names)
        at = slice(bots.SEARCH_AT, bots.SEARCH_AT + len(search.PARAMETERS))  # the budget's
        budgets = [np.prod(bots.resolve(name)[1][at]) for name in names]
        assert budgets == sorted(set(budgets))


def test_the_state_holds_the_clocks_very_arrays(game):
    game, *_, rules = game
    _, _, _, _, s, c, _, _ = game.prepare(rules, Setup(2, ("default", "default")))
    for name, array in zip(race.CLOCK_FIELDS, c):
        assert getattr(s, name) is array, name


def test_the_candidates_are_the_defaults_move_then_every_other_legal_move(game):
    _, bots, pieces, _ = game
    rs, s, seat, params = searching_seat(game)
    stream = s.bot_rng.copy()
    n = pieces.candidates(s, rs, seat, params, s.search_moves)
    found = [tuple(m) for m in s.search_moves[:n].tolist()]
    s.bot_rng[:] = stream  # the default family's noise, drawn again
    plan = np.zeros(3, np.int64)
    assert bots.builtin_choose(s, rs, seat, presets.DEFAULT, params, plan)
    assert found[0] == tuple(plan.tolist())
    legal = bots.legal_moves(s, rs, seat)
    assert n > 1 and sorted(found) == sorted(tuple(m) for m in s.moves[:legal].tolist())


def test_a_decision_leaves_the_race_as_it_was_but_the_seats_own_stream(game):
    _, bots, pieces, _ = game
    rs, s, seat, params = searching_seat(game)
    kept = [a.copy() for a in pieces.saved.py_func(s)]
    assert bots.choose(s, rs, seat, presets.SEARCH, params, np.zeros(3, np.int64))
    for before, after in zip(kept, pieces.saved.py_func(s)):
        if after is s.bot_rng:
            assert before[1 - seat] == after[1 - seat] and before[seat] != after[seat]
        else:
            assert np.array_equal(before, after)


def test_with_one_candidate_the_search_plays_the_default_familys_games_at_the_same_times(game):
    game, _, _, rules = game
    one = presets.with_presets(rules, {"one": {**SMALL, "candidates": 1.0}})
    searched = game.play(one, Setup(2, ("one", "default")), 5, 0, 3, 0)
    default = game.play(rules, Setup(2, ("default", "default")), 5, 0, 3, 0)
    assert searched["games"].equals(default["games"]), "the same moves, landing at the same times"
    small = presets.with_presets(rules, {"small": SMALL})
    assert not game.play(small, Setup(2, ("small", "default")), 5, 0, 3, 0)["games"].equals(
        default["games"])


@pytest.mark.parametrize("horizon", [1, 5])
def test_a_rollout_stops_once_horizon_moves_have_landed(game, horizon):
    _, bots, pieces, _ = game
    rs, s, seat, params = searching_seat(game)
    moves, over, _ = INDICES[pieces]
    params[bots.SEARCH_AT + rollout.HORIZON] = horizon
    landed = s.g[moves]
    assert rollout.play_on(s, rs, seat, s.moves[0].copy(), params, np.array([3], np.uint64))
    assert s.g[moves] == landed + horizon and not s.g[over]


def test_a_rollout_stopped_at_the_horizon_is_scored_by_the_card_lead(game):
    _, bots, pieces, _ = game
    leads = set()
    for rs, s, seat, params in decisions(game):
        params[bots.SEARCH_AT + rollout.HORIZON] = 3
        score = pieces.play_out(s, rs, seat, s.moves[0].copy(), params, np.array([3], np.uint64))
        mine, theirs = (HELD[pieces](s, q) for q in (seat, 1 - seat))
        assert score == 0.5 + 0.5 * (theirs - mine) / (theirs + mine)
        leads.add(theirs - mine)
    assert len(leads) > 1, "positions with different leads"


def test_without_a_horizon_a_rollout_plays_to_the_end_of_the_deal_or_hand(game):
    _, bots, pieces, _ = game
    rs, s, seat, params = searching_seat(game)
    _, over, deal = INDICES[pieces]
    params[bots.SEARCH_AT + rollout.HORIZON] = 0
    dealt = s.g[deal]
    assert not rollout.play_on(s, rs, seat, s.moves[0].copy(), params, np.array([3], np.uint64))
    assert s.g[over] or s.g[deal] != dealt


def decision(bots, s, rs, seat, params):
    """Gives the move the search plans for `seat` in state `s`."""
    plan = np.zeros(3, np.int64)
    assert bots.choose(s, rs, seat, presets.SEARCH, params, plan)
    return tuple(plan.tolist())


def copied(s):
    """Gives a copy of state `s` (its clock's arrays copied with it)."""
    return type(s)(*[a.copy() for a in s])


def test_re_dealing_what_the_seat_cannot_know_does_not_change_the_decision(game):
    _, bots, pieces, _ = game
    rs, s, seat, params = searching_seat(game)
    real = decision(bots, copied(s), rs, seat, params)
    for k in range(4):
        redealt = copied(s)
        pieces.resample(redealt, rs, seat, np.array([1000 + k], np.uint64))
        assert decision(bots, redealt, rs, seat, params) == real


def test_a_search_that_rolls_out_the_real_deal_is_caught_by_the_same_check(game):
    # The control: each candidate rolled out once from the position as it really is (no
    # re-deal); the best one planned. Re-dealing what the seat cannot know changes its choice.
    pieces = game[2]

    def peeking(state, rs, seat, params):
        n = pieces.candidates(state, rs, seat, params, state.search_moves)
        scores = []
        for k in range(n):
            trial = copied(state)
            scores.append(sum(pieces.play_out(trial, rs, seat, state.search_moves[k].copy(),
                                              params, np.array([r], np.uint64))
                              for r in range(3)))
        return tuple(state.search_moves[int(np.argmax(scores))].tolist())

    changed = 0
    for rs, s, seat, params in decisions(game):
        real = peeking(copied(s), rs, seat, params)
        for k in range(4):
            redealt = copied(s)
            pieces.resample(redealt, rs, seat, np.array([2000 + k], np.uint64))
            changed += peeking(redealt, rs, seat, params) != real
    assert changed


@pytest.mark.parametrize("name", sorted(GAMES))
def test_search_seats_play_their_games_to_the_end(name):
    # Every game ends with a winner (none stalls at this budget), both seats play cards, and the
    # search seat wins some: a search that never lands a move stalls every game.
    game, *_ = GAMES[name]
    rules = presets.with_presets(game.load_rules(None, []), {"small": SMALL})
    games = game.play(rules, Setup(2, ("small", "default")), 3, 0, 6, 0)
    assert (games["games"]["winner"].is_not_null() | games["games"]["stalled"]).all()
    assert (games["seats"]["cards_played"] > 0).all()
    assert games["games"]["turns"].min() > 0


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_search_seat_plays_the_same_games_in_any_chunking(name):
    game, *_ = GAMES[name]
    rules = presets.with_presets(game.load_rules(None, []), {"small": SMALL})
    setup = Setup(2, ("default", "small"))
    whole = game.play(rules, setup, 7, 0, 4, 0)
    parts = [game.play(rules, setup, 7, a, b, 0) for a, b in ((0, 1), (1, 4))]
    for table in whole:
        assert whole[table].equals(parts[0][table].vstack(parts[1][table])), table
