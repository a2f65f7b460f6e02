"""What a Deep Space Python strategy sees: its view (own hand, the public board, the phase)
and the legal moves in words, in the engine's order."""

import pytest

from sim.games.deep_space import GAME, bots, engine, view
from sim.games.deep_space.engine import BUILD, DISCARD, MOVE, PLAY, TAKE, TRADE
from sim.games.deep_space.state import PHASE, REDRAW, TURN_SEAT
from sim.game import Setup


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def dealt(rules, players=4, seed=2):
    rs, planets, kinds, _, _, s = GAME.prepare(rules, Setup(players, ("random",) * players))
    engine.start_game(s, rs, seed, 0)
    return s, rs, planets, kinds


def play_until(s, rs, wanted, steps=2000):
    """Plays random moves until a listing holds every action in `wanted`; gives the seat."""
    family, params = bots.resolve("random")
    for _ in range(steps):
        seat = int(s.g[TURN_SEAT])
        n = engine.legal_moves(s, rs, seat)
        if wanted <= {int(a) for a in s.moves[:n, 0]}:
            return seat
        bots.choose(s, rs, seat, family, params, s.move)
        engine.apply_move(s, rs, seat, s.move)
    raise AssertionError(f"no position with {wanted}")


def test_the_readable_legal_moves_are_the_engines_in_order(rules):
    s, rs, planets, kinds = dealt(rules)
    seen = set()
    for wanted in ({TAKE}, {MOVE, PLAY, TRADE}, {BUILD}, {DISCARD}):
        seat = play_until(s, rs, wanted)
        rows, moves = view.moves(s, rs, planets, kinds, seat)
        assert len(moves) == engine.legal_moves(s, rs, seat) == len(rows)
        for row, move in zip(rows, moves):
            action, a, b, c, d, e = row
            seen.add(move.action)
            assert move.action == engine.ACTION_NAMES[action]
            if action == MOVE:
                assert (move.origin, move.planet, move.recruits, move.dogs, move.warp) == \
                    (planets[a], planets[b], c, d, bool(e))
            elif action == TAKE:
                assert move.gems == a and move.gems + move.ore == engine.mine_count(s, rs, seat)
            elif action == TRADE:
                assert sum(1 << k for k in move.slots) == a
            elif action == BUILD:
                assert move.planet == planets[a]
            elif action in (PLAY, DISCARD):
                assert move.card == kinds[rs.card_kind[s.hand[seat, a]]] and move.slot == a
                if action == PLAY:
                    assert move.planet == (planets[b] if b >= 0 else None)
                    assert move.target == (c if c >= 0 else None)
    assert seen >= {"take", "move", "play", "trade", "build", "discard", "end"}


def test_the_view_shows_the_players_own_hand_and_the_public_board_only(rules):
    s, rs, planets, kinds = dealt(rules)
    card_kind = rs.card_kind.tolist()
    board = view.board(rs, planets, 4)
    cards = view.deck_cards(rs, kinds)
    seen = view.view(s, planets, kinds, card_kind, 0, board, cards)
    assert seen.hand == tuple(kinds[rs.card_kind[c]] for c in s.hand[0, :s.hand_n[0]])
    assert seen.hand_sizes == (2, 2, 2, 2) and seen.pile == len(card_kind) - 8
    assert [p.name for p in seen.planets] == planets
    assert seen.planets[planets.index("H1")].recruits == (0, 3, 0, 0)
    assert board.homes == ("H0", "H1", "H2", "H3") and board.to_win == 4
    assert board.distance["R0"]["R2"] == 2 and "I0" in board.links["R1"]
    assert cards["meteor_storm"] == view.Card("meteor_storm", 0, 1, 1)
    # Another player's hand and the pile's order are hidden: changing them changes nothing.
    s.hand[1, :2], s.deck[8:10] = s.deck[8:10].copy(), s.hand[1, :2].copy()
    s.deck[10:] = s.deck[10:][::-1].copy()
    assert view.view(s, planets, kinds, card_kind, 0, board, cards) == seen


def test_the_view_names_the_phase_and_the_redraw(rules):
    s, rs, planets, kinds = dealt(rules)
    seat = play_until(s, rs, {DISCARD})
    assert s.g[PHASE] == REDRAW
    v = view.view(s, planets, kinds, rs.card_kind.tolist(), seat, view.board(rs, planets, 4),
                  view.deck_cards(rs, kinds))
    assert v.phase == "redraw" and v.seat == seat
