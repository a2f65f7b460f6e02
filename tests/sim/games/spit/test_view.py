"""What a Spit or Speed Python strategy sees: its view (own layout or hand, counts of the
other's cards) and the legal moves in words, in the engine's order; the lone spitter's pile
choice answered wrongly is one line."""

import pytest

from sim.games import speed, spit
from sim.errors import UserError
from sim.game import Setup
from sim.games.spit import engine
from sim.games.spit.state import PLAY, SHIFT, TURN
from sim.games.spit.view import StockPile
from strategies import seats


def test_the_spit_view_shows_the_players_layout_and_counts_only():
    rules = spit.GAME.load_rules(None, [])
    rs, names, _, _, s, c, _, _ = spit.GAME.prepare(rules, Setup(2, ("random", "random")))
    engine.start_game(s, rs, c, 3, 0)
    v = spit.view.view(s, c, names, 1)
    assert v.seat == 1 and v.deal == 1 and v.time == 0.0 and not v.choosing_pile
    assert [p.face_down for p in v.layout] == [0, 1, 2, 3, 4]
    assert v.layout[4] == StockPile(4, (names[s.stock[1, 4, 4]],))
    assert v.other_layout[0] == StockPile(0, (names[s.stock[0, 0, 0]],))
    assert v.spit_piles[0].top == names[s.centre[0, 0]] and v.spit_piles[0].cards == 1
    assert v.spit_cards == (26 - 15 - 1,) * 2 and v.cards_held == (25, 25)
    assert not any(hasattr(v, hidden) for hidden in ("spit", "stock", "hold"))


def test_the_readable_spit_moves_are_the_engines_in_order():
    rules = spit.GAME.load_rules(None, ["options.stack_equal_ranks=true"])
    rs, names, _, _, s, c, _, _ = spit.GAME.prepare(rules, Setup(2, ("random", "random")))
    engine.start_game(s, rs, c, 4, 0)
    s.stock_up[0] = [1, 1, 0, 0, 0]
    s.stock_n[0, 0] = 0  # an empty space, so that a card may be moved into it
    rows, moves = spit.view.moves(s, names, 0, rs)
    assert len(moves) == engine.legal_moves(s, rs, 0) == len(rows)
    for (kind, a, b), move in zip(rows, moves):
        assert move.stock == a
        assert move.action == {PLAY: "play", TURN: "turn", SHIFT: "fill_space"}[kind]
        if kind == TURN:
            assert move.card is None
        else:
            assert move.card == names[s.stock[0, a, s.stock_n[0, a] - 1]]
        assert (move.spit_pile if kind == PLAY else move.to_stock) == (b if kind != TURN else None)
    assert {"turn", "fill_space"} <= {m.action for m in moves}


def test_the_speed_view_and_moves():
    rules = speed.GAME.load_rules(None, [])
    rs, names, _, _, s, c, _, _ = speed.GAME.prepare(rules, Setup(2, ("random", "random")))
    speed.engine.start_game(s, rs, c, 4, 0)
    s.hand[0, 2] = -1
    v = speed.view.view(s, c, names, 0)
    assert v.hand[2] is None and v.hand[0] == names[s.hand[0, 0]]
    assert v.other_hand == 5 and v.draw_pile == v.other_draw_pile == 10
    assert v.side_piles == (10, 10) and v.score == (0, 0) and v.hand_no == 1
    assert [p.cards for p in v.centre] == [1, 1]
    rows, moves = speed.view.moves(s, names, 0, rs)
    assert [(m.slot, m.pile) for m in moves] == [(slot, pile) for _, slot, pile in rows]
    assert all(m.card == names[s.hand[0, m.slot]] and m.action == "play" for m in moves)


def test_a_bot_that_answers_the_pile_choice_wrongly_is_named(tmp_path):
    file = tmp_path / "piles.py"
    file.write_text("class NoPile:\n    def choose(self, view, legal_moves, rng):\n"
                    "        if view.choosing_pile:\n            return 'left'\n"
                    "        return legal_moves[0]\n")
    rules = spit.GAME.load_rules(None, [])
    setup = Setup(2, (seats.canonical(spit.GAME, f"{file}:NoPile"),) * 2)
    with pytest.raises(UserError, match=r"played an illegal move in game \d+: 'left' is not one "
                                        r"of its 2 legal moves"):
        spit.GAME.play(rules, setup, 1, 0, 20, 0)
