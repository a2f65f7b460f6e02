"""Sequence Stacks' Python driver: with every built-in bot played as a Python strategy (through
the readable view and legal moves), it plays the jitted loop's games move for move; user bots
play reproducible games that only their player's knowledge shapes."""

import io
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.errors import UserError
from sim.game import Setup
from sim.sequence_stacks import GAME, engine, play, view
from sim.sequence_stacks.engine import ACT, BLOCK_IT, DISCARD, PASS, PLAY, TOP
from sim.sequence_stacks.state import DRAW, DRAW_N, HAND
from sim.sequence_stacks.tables import build as build_tables
from strategies import python_bots, seats
from strategies import sequence_stacks as bots

EXAMPLES = Path(__file__).parents[3] / "strategies" / "examples"
FINISHER = f"{EXAMPLES / 'sequence_stacks_finisher.py'}:Finisher"


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


class Builtin:
    """A built-in jitted bot as a Python strategy: it asks the jitted bot for its move on the
    game's state and answers with the same move taken from the readable list."""

    def __init__(self, s, rs, family, params):
        self.s, self.rs, self.family, self.params = s, rs, family, params

    def choose(self, view_, legal_moves, rng):
        s, move = self.s, np.zeros(5, np.int64)
        bots.choose(s.m, s.rngs, self.rs, s.moves, view_.seat, self.family, self.params, move)
        chosen = view.readable(move.tolist())
        assert chosen in legal_moves
        return chosen


def python_driver(rules, setup, seed, games, wrapped):
    """Gives (tables, moves per game) of games 0..games-1 played by the Python driver, the
    seats in `wrapped` as Python strategies wrapping their built-in bots."""
    rs, families, params, s = GAME.prepare(rules, setup)
    out = play.new_results(games, setup.players)
    logs = []
    for game in range(games):
        log: list = []
        players = {}
        for seat in wrapped:
            strategy = python_bots.PythonSeat(
                "builtin", lambda seat=seat: Builtin(s, rs, families[seat], params[seat]),
                seed, game, seat)
            players[seat] = view.PythonSeatPlayer(s, rs, strategy)
        play.play_python(s, rs, families, params, seed, game, out, game, players,
                         lambda event, *args, log=log: log.append((args[0], args[1].tolist()))
                         if event == "move" else None)
        logs.append(log)
    return build_tables(out, np.arange(games, dtype=np.int64), setup.players,
                        setup.strategies()), logs


def assert_same_games(rules, setup, seed, games=3):
    jitted = GAME.play(rules, setup, seed, 0, games, 0)
    native, native_moves = python_driver(rules, setup, seed, games, wrapped=())
    wrapped, wrapped_moves = python_driver(rules, setup, seed, games, wrapped=range(setup.players))
    assert wrapped_moves == native_moves  # move for move
    for name in jitted:
        assert native[name].equals(jitted[name]), name
        assert wrapped[name].equals(jitted[name]), name
    return native_moves


@pytest.mark.parametrize("players, seed", [(2, 11), (3, 0), (4, 2**40 + 3), (6, 7)])
@pytest.mark.parametrize("strategy", bots.strategy_names())
def test_every_built_in_bot_plays_the_same_games_through_the_python_driver(rules, strategy,
                                                                          players, seed):
    setup = Setup(players, tuple((strategy, "default", strategy, "random")[i % 4]
                                 for i in range(players)))
    moves = assert_same_games(rules, setup, seed)
    assert any(m[1][0] in (BLOCK_IT, PASS) for log in moves for m in log) or players == 2 \
        or strategy == "never-block", "Python seats were asked out of turn too"


def test_a_python_bots_games_do_not_depend_on_chunking_and_trace_equals_play(rules):
    setup = Setup(3, (seats.canonical(GAME, FINISHER), "default", "chip-thieves"))
    whole = GAME.play(rules, setup, 5, 0, 4, 0)
    parts = [GAME.play(rules, setup, 5, a, b, 0) for a, b in ((0, 1), (1, 4))]
    for name in whole:
        assert whole[name].equals(pl.concat([p[name] for p in parts])), name
    text = io.StringIO()
    traced = GAME.trace(rules, setup, 5, 2, text)
    for name in traced:
        assert traced[name].equals(whole[name].filter(pl.col("game_id") == 2)), name
    assert "0:sequence_stacks_finisher.py:Finisher" in text.getvalue()
    finisher = whole["seats"].filter(pl.col("seat") == 0)
    assert finisher["strategy"].unique().to_list() == ["sequence_stacks_finisher.py:Finisher"]
    assert finisher["sequences_completed"].sum() > 0, "the finisher completes sequences"


def test_a_python_seat_changes_the_play_but_not_the_deal(rules):
    def dealt(strategies):
        rs, families, params, s = GAME.prepare(rules, Setup(3, strategies))
        classes = python_bots.python_classes(strategies)
        hands = []
        play.play_python(s, rs, families, params, 9, 1, play.new_results(1, 3), 0,
                         GAME._python_seats(s, rs, classes, 9, 1),
                         lambda event, *_: hands.append(s.m.copy()) if event == "start" else None)
        return hands[0]

    base = dealt(("default",) * 3)
    mixed = dealt(("default", seats.canonical(GAME, FINISHER), "default"))
    assert (base == mixed).all()
    plain = GAME.play(rules, Setup(3, ("default",) * 3), 9, 0, 4, 0)["games"]
    other = GAME.play(rules, Setup(3, ("default", seats.canonical(GAME, FINISHER), "default")),
                      9, 0, 4, 0)["games"]
    assert not plain["turns"].equals(other["turns"])


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
        bots.choose(s.m, s.rngs, rs, s.moves, seat, families[seat], params[seat], s.move)
        engine.apply_move(s.m, s.rngs, rs, seat, s.move)
    raise AssertionError(f"no position with {wanted}")


def test_the_readable_legal_moves_are_the_engines_in_order(rules):
    seen = set()
    for wanted in ({(PLAY, TOP), (ACT, 0), (DISCARD, 0)}, {(BLOCK_IT, 0)}):
        s, rs, seat = play_until(rules, wanted)
        rows, moves = view.moves(s, rs, seat)
        assert len(moves) == len(rows) == engine.legal_moves(s.m, rs, s.moves, seat)
        for (action, source, t, a, b), move in zip(rows.tolist(), moves):
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


def test_the_rng_of_a_python_seat_depends_on_seed_game_and_seat_only(rules, tmp_path):
    file = tmp_path / "dice.py"
    file.write_text("class Dice:\n    def choose(self, view, legal_moves, rng):\n"
                    "        return rng.choice(legal_moves)\n")
    setup = Setup(2, (seats.canonical(GAME, f"{file}:Dice"), "default"))
    a = GAME.play(rules, setup, 3, 0, 2, 0)["games"]
    assert a.equals(GAME.play(rules, setup, 3, 0, 2, 0)["games"])
    assert not a["turns"].equals(GAME.play(rules, setup, 4, 0, 2, 0)["games"]["turns"])


def test_an_illegal_move_names_the_bot_the_move_and_the_game(rules, tmp_path):
    file = tmp_path / "cheats.py"
    file.write_text("class Cheat:\n    def choose(self, view, legal_moves, rng):\n"
                    "        return legal_moves[-1]._replace(action='play', pile='R9')\n")
    setup = Setup(3, ("random", seats.canonical(GAME, f"{file}:Cheat"), "random"))
    with pytest.raises(UserError) as e:
        GAME.play(rules, setup, 1, 4, 6, 0)
    message = str(e.value)
    assert message.startswith(f"strategy {file}:Cheat (seat 1) played an illegal move in game 4: ")
    assert "Move(action='play'" in message and "pile='R9'" in message and "\n" not in message


def test_a_bot_that_raises_is_one_line_naming_its_file_line(rules, tmp_path):
    file = tmp_path / "broken.py"
    file.write_text("class Broken:\n    def choose(self, view, legal_moves, rng):\n"
                    "        return legal_moves[len(legal_moves)]\n")
    setup = Setup(2, (seats.canonical(GAME, f"{file}:Broken"),) * 2)
    with pytest.raises(UserError, match=r"^strategy .*broken.py:Broken \(seat \d\) failed in "
                                        r"game 2: IndexError: .* \(broken.py:3\)$"):
        GAME.play(rules, setup, 1, 2, 3, 0)
