"""The search family in Sequence Stacks: a decision leaves the game as it was, and a search
seat plays its games like every bot (the same games in any chunking; the default's with one
candidate)."""

import numpy as np

from sim.game import Setup
from sim.games.sequence_stacks import GAME, bots, cards, engine, search, state
from sim.games.sequence_stacks.state import new_state
from strategies import presets

PLAYERS = 3
SMALL = {"family": "search", "rollouts": 1.0, "determinizations": 1.0, "candidates": 2.0}


def seats(strategy):
    """Gives a table with `strategy` in seat 0 and the default family elsewhere."""
    return Setup(PLAYERS, (strategy,) + ("default",) * (PLAYERS - 1))


def test_a_decision_leaves_the_game_as_it_was_but_the_seats_own_stream(rules):
    rs = cards.build(rules)
    s = new_state(PLAYERS)
    engine.start_game(s.m, s.rngs, rs, 4, 0)
    seat = int(engine.to_move(s.m))
    m, streams = s.m.copy(), s.rngs.copy()
    bots.choose(s, rs, seat, presets.SEARCH, bots.resolve("mine", {"mine": SMALL})[1], s.move)
    assert np.array_equal(m, s.m)
    others = [q for q in range(1 + PLAYERS) if q != 1 + seat]
    assert np.array_equal(streams[others], s.rngs[others]) and streams[1 + seat] != s.rngs[1 + seat]
    assert engine.is_legal(s.m, rs, s.moves, seat, s.move)


def test_with_one_candidate_the_search_plays_the_default_familys_games(rules):
    one = presets.with_presets(rules, {"one": {**SMALL, "candidates": 1.0}})
    searched = GAME.play(one, seats("one"), 5, 0, 3, 0)
    default = GAME.play(rules, seats("default"), 5, 0, 3, 0)
    assert searched["games"].equals(default["games"])


def test_a_search_seat_plays_the_same_games_in_any_chunking_and_not_the_defaults(rules):
    small = presets.with_presets(rules, {"small": SMALL})
    whole = GAME.play(small, seats("small"), 7, 0, 4, 0)
    parts = [GAME.play(small, seats("small"), 7, a, b, 0) for a, b in ((0, 1), (1, 4))]
    for table in whole:
        assert whole[table].equals(parts[0][table].vstack(parts[1][table])), table
    assert not whole["games"].equals(GAME.play(rules, seats("default"), 7, 0, 4, 0)["games"])


def opening(rules, seed, game, decisions):
    """Gives (rule arrays, state) of a 2-player game after `decisions` moves of the default
    family."""
    rs, params = cards.build(rules), bots.resolve("default")[1]
    s = new_state(2)
    engine.start_game(s.m, s.rngs, rs, seed, game)
    for _ in range(decisions):
        seat = engine.to_move(s.m)
        bots.builtin_choose(s, rs, seat, presets.DEFAULT, params, s.move)
        engine.apply_move(s.m, s.rngs, rs, seat, s.move)
    return rs, s


def test_the_search_plays_the_defaults_move_where_the_rollouts_cannot_tell_the_moves_apart(rules):
    # Seat 1 may play its blue 4 on a pile (the default's move) or discard and end its turn.
    # Rolled out to the game's end, a few rollouts' wins and losses were noise that chose the
    # discard; up to seat 1's next turn, no chip changes hands either way: a tie, so the
    # default's move.
    rs, s = opening(rules, 1, 0, 12)
    seat = int(engine.to_move(s.m))
    streams, default, searched = s.rngs.copy(), s.move.copy(), s.move.copy()
    bots.builtin_choose(s, rs, seat, presets.DEFAULT, bots.resolve("search")[1], default)
    s.rngs[:] = streams  # the search's first candidate is the default's move from this stream
    bots.choose(s, rs, seat, presets.SEARCH, bots.resolve("search")[1], searched)
    assert tuple(default) == (engine.PLAY, engine.HAND, 10, 5, 0)
    assert tuple(searched) == tuple(default)


def test_a_rollout_stops_at_the_seats_next_turn_and_scores_the_chip_lead(rules):
    rs, s = opening(rules, 1, 0, 0)
    bots.builtin_choose(s, rs, 0, presets.DEFAULT, bots.resolve("default")[1], s.move)
    r = np.zeros(1, np.uint64)
    score = search.play_out(s, rs, 0, s.move.copy(), bots.resolve("search")[1], r)
    assert s.m[state.OVER] == 0 and s.m[state.TURNS] > 1 and s.m[state.TURN_SEAT] == 0
    assert score == 0.5  # nobody has a chip yet
