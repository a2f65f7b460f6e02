"""What a Sequence Stacks Python strategy sees: its view (own hand, the public table, a Block
to decide) and the legal moves in words, in the engine's order."""

import pytest

from sim.game import Setup
from sim.games.sequence_stacks import GAME, bots, engine, view
from sim.games.sequence_stacks.engine import ACT, BLOCK_IT, DISCARD, PLAY, TOP
from sim.games.sequence_stacks.state import DRAW, DRAW_N, HAND


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def play_until(rules, wanted, players=4, seed=3, steps=3000):
    """Plays random moves from a deal until a listing holds every action in `wanted`; gives
    (state, rule arrays, seat)."""
    rs, families, params, s = GAME.prepare(rules, Setup(players, ("random",) * players))
    engine.start_game(s.m, s.rngs, rs, seed, 0)
    for _ in range(steps):
        seat = int(engine.to_move(s.m))
        n = engine.legal_moves(s.m, rs, s.moves, seat)
        if wanted <= {(int(a), int(src)) for a, src in s.moves[:n, :2]}:
            return s, rs, seat
        bots.choose(s, rs, seat, families[seat], params[seat], s.move)
        engine.apply_move(s.m, s.rngs, rs, seat, s.move)
    raise AssertionError(f"no position with {wanted}")


def test_the_readable_legal_moves_are_the_engines_in_order(rules):
    seen = set()
    for wanted in ({(PLAY, TOP), (ACT, 0), (DISCARD, 0)}, {(BLOCK_IT, 0)}):
        s, rs, seat = play_until(rules, wanted)
        rows, moves = view.moves(s, rs, seat)
        assert len(moves) == len(rows) == engine.legal_moves(s.m, rs, s.moves, seat)
        for (action, source, t, a, b), move in zip(rows, moves):
            seen.add(move.action)
            assert move.action == view.ACTION_NAMES[action]
            if action in (PLAY, ACT, DISCARD, BLOCK_IT):
                assert move.card == view.CARD_NAMES[t]
            if action == PLAY:
                assert move.pile == "RB"[a // 4] + str(a % 4 + 1)
                assert move.from_discard == (source == TOP)
            elif action == ACT and move.card == "steal-a-chip":
                assert (move.target, move.colour) == (a, ("red", "blue")[b])
            elif action == ACT and move.card == "steal-a-card":
                assert move.target == a and move.colour is None
    assert seen >= {"play", "action", "discard", "block", "pass"}


def test_the_view_shows_the_players_own_hand_and_the_public_table_only(rules):
    s, rs, seat = play_until(rules, {(PLAY, TOP)})
    v = view.view(s, seat, view.rules_of(rs))
    m = s.m
    assert v.seat == seat and v.players == 4 and v.phase == "turn"
    assert sorted(v.hand) == sorted(
        view.CARD_NAMES[t] for t in range(17) for _ in range(m[HAND + seat * 17 + t]))
    assert len(v.hand) == v.hand_sizes[seat] and v.discard_tops[seat] is not None
    assert v.rules == view.Rules(5, 2, 5, 2, True, False)
    assert all(label[0] in "RB" and 0 < len(cards) < 5 for label, cards in v.piles.items())
    # Another player's hand and the draw pile's order are hidden: changing them changes nothing.
    other = (seat + 1) % 4
    hand = slice(HAND + other * 17, HAND + (other + 1) * 17)
    m[hand] = m[hand][::-1].copy()
    draw = slice(DRAW, DRAW + m[DRAW_N])
    m[draw] = m[draw][::-1].copy()
    assert view.view(s, seat, view.rules_of(rs)) == v


def test_the_view_of_a_block_names_the_completion(rules):
    s, rs, seat = play_until(rules, {(BLOCK_IT, 0)})
    v = view.view(s, seat, view.rules_of(rs))
    assert v.phase == "block" and v.completion.seat != seat
    assert len(v.piles[v.completion.pile]) == 5
    assert v.completion.colour == ("red" if v.completion.pile[0] == "R" else "blue")
