"""What a Saboteur Python strategy sees: its view (own hand and role, the goals it knows, the
public table) and the legal moves in words, in the engine's order."""

import pytest

from sim.game import Setup
from sim.games.saboteur import GAME, engine, view
from sim.games.saboteur.state import ORIGIN, TURN_SEAT


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def dealt(rules, players=4, seed=2):
    rs, names, _, _, s, _ = GAME.prepare(rules, Setup(players, ("random",) * players))
    engine.start_game(s, rs, seed, 0, -1)
    return s, rs, names


def test_the_readable_legal_moves_are_the_engines_in_order(rules):
    s, rs, names = dealt(rules)
    seat = int(s.g[TURN_SEAT])
    rows, moves = view.moves(s, rs, names, seat)
    assert len(moves) == engine.legal_moves(s, rs, seat) == len(rows)
    for row, move in zip(rows, moves):
        assert move.card == names[s.hand[seat, row[1]]] and move.slot == row[1]
        if move.action == "place":
            assert (move.x, move.y) == (row[2] - ORIGIN, row[3] - ORIGIN)
            assert move.exits == view.SIDES[row[4]]
    assert {m.action for m in moves} >= {"pass"}


def test_the_view_shows_the_players_own_hand_and_role_and_only_the_goals_it_knows(rules):
    s, rs, names = dealt(rules, players=5)
    s.seen[1, 2] = 1  # seat 1 looked at the southern goal with a map
    cards = view.deck_cards(rs, names)
    for seat in range(5):
        v = view.view(s, rs, names, seat, 0, cards)
        assert v.hand == tuple(names[c] for c in s.hand[seat, :s.hand_n[seat]])
        assert v.role == ("miner", "saboteur")[s.role[seat]]
        known = [g.kind for g in v.goals]
        expected = ("gold" if s.goal_kind[2] == 0 else "coal") if seat == 1 else None
        assert known == [None, None, expected]
        assert v.maze[0].card == "start" and len(v.maze) == 1
        assert v.pile == len(names) - 5 * int(rs.hand_size[5])
        assert v.gold == 0 and v.hand_sizes == (int(rs.hand_size[5]),) * 5
