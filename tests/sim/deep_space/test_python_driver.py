"""Deep Space's Python driver: with every built-in bot played as a Python strategy (through the
readable view and legal moves), it plays the jitted loop's games move for move; user bots play
reproducible games that only their player's knowledge shapes."""

import io
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.deep_space import GAME, engine, play, view
from sim.deep_space.engine import BUILD, DISCARD, MOVE, PLAY, TAKE, TRADE
from sim.deep_space.state import PHASE, REDRAW, TURN_SEAT
from sim.deep_space.tables import build as build_tables
from sim.errors import UserError
from sim.game import Setup
from strategies import deep_space as bots
from strategies import python_bots, seats

EXAMPLES = Path(__file__).parents[3] / "strategies" / "examples"
SETTLER = f"{EXAMPLES / 'deep_space_settler.py'}:Settler"


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


class Builtin:
    """A built-in jitted bot as a Python strategy: it asks the jitted bot for its move on the
    game's state and answers with the same move taken from the readable list."""

    def __init__(self, s, rs, planets, kinds, family, params):
        self.s, self.rs, self.planets, self.kinds = s, rs, planets, kinds
        self.family, self.params = family, params

    def choose(self, view_, legal_moves, rng):
        move = np.zeros(6, np.int64)
        bots.choose(self.s, self.rs, view_.seat, self.family, self.params, move)
        chosen = view.readable(self.s, self.rs, self.planets, self.kinds, view_.seat,
                               move.tolist())
        assert chosen in legal_moves
        return chosen


def python_driver(rules, setup, seed, games, wrapped):
    """Gives (tables, moves per game) of games 0..games-1 played by the Python driver, the
    seats in `wrapped` as Python strategies wrapping their built-in bots."""
    rs, planets, kinds, families, params, s = GAME.prepare(rules, setup)
    out = play.new_results(games, setup.players, len(planets))
    logs = []
    for game in range(games):
        log: list = []
        players = {}
        for seat in wrapped:
            strategy = python_bots.PythonSeat(
                "builtin", lambda seat=seat: Builtin(s, rs, planets, kinds, families[seat],
                                                     params[seat]), seed, game, seat)
            players[seat] = view.PythonSeatPlayer(s, rs, planets, kinds, strategy)
        play.play_python(s, rs, families, params, seed, game, out, game, players,
                         lambda event, *args, log=log: log.append((args[0], args[1].tolist()))
                         if event == "move" else None)
        logs.append(log)
    ids = np.arange(games, dtype=np.int64)
    return build_tables(out, ids, setup.players, setup.strategies(), rules["board"]["name"],
                        planets), logs


@pytest.mark.parametrize("players, seed", [(2, 11), (3, 0), (4, 2**40 + 3)])
@pytest.mark.parametrize("strategy", bots.strategy_names())
def test_every_built_in_bot_plays_the_same_games_through_the_python_driver(rules, strategy,
                                                                          players, seed):
    setup = Setup(players, tuple((strategy, "default", strategy, "random")[i]
                                 for i in range(players)))
    games = 3
    jitted = GAME.play(rules, setup, seed, 0, games, 0)
    native, native_moves = python_driver(rules, setup, seed, games, wrapped=())
    wrapped, wrapped_moves = python_driver(rules, setup, seed, games, wrapped=range(players))
    assert wrapped_moves == native_moves  # move for move
    for name in jitted:
        assert native[name].equals(jitted[name]), name
        assert wrapped[name].equals(jitted[name]), name


def test_a_python_bots_games_do_not_depend_on_chunking_and_trace_equals_play(rules):
    setup = Setup(3, (seats.canonical(GAME, SETTLER), "default", "raider"))
    whole = GAME.play(rules, setup, 5, 0, 4, 0)
    parts = [GAME.play(rules, setup, 5, a, b, 0) for a, b in ((0, 1), (1, 4))]
    for name in whole:
        assert whole[name].equals(pl.concat([p[name] for p in parts])), name
    text = io.StringIO()
    traced = GAME.trace(rules, setup, 5, 2, text)
    for name in traced:
        assert traced[name].equals(whole[name].filter(pl.col("game_id") == 2)), name
    assert "0:deep_space_settler.py:Settler" in text.getvalue()
    assert whole["seats"].filter(pl.col("seat") == 0)["strategy"].unique().to_list() == \
        ["deep_space_settler.py:Settler"]
    assert whole["seats"].filter(pl.col("seat") == 0)["bases"].sum() > 0, "the settler builds"


def test_a_python_seat_changes_the_play_but_not_the_deal_or_the_starter(rules):
    base = GAME.play(rules, Setup(4, ("default",) * 4), 9, 0, 4, 0)["games"]
    mixed = GAME.play(rules, Setup(4, ("default", seats.canonical(GAME, SETTLER), "default",
                                       "default")), 9, 0, 4, 0)["games"]
    assert base["first_seat"].equals(mixed["first_seat"])
    assert not base["turns"].equals(mixed["turns"])


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
        for row, move in zip(rows.tolist(), moves):
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


def test_the_rng_of_a_python_seat_depends_on_seed_game_and_seat_only(rules, tmp_path):
    file = tmp_path / "dice.py"
    file.write_text("class Dice:\n    def choose(self, view, legal_moves, rng):\n"
                    "        return rng.choice(legal_moves)\n")
    setup = Setup(2, (seats.canonical(GAME, f"{file}:Dice"), "default"))
    a = GAME.play(rules, setup, 3, 0, 3, 0)["games"]
    assert a.equals(GAME.play(rules, setup, 3, 0, 3, 0)["games"])
    assert not a["turns"].equals(GAME.play(rules, setup, 4, 0, 3, 0)["games"]["turns"])


def test_an_illegal_move_names_the_bot_the_move_and_the_game(rules, tmp_path):
    file = tmp_path / "cheats.py"
    file.write_text("class Cheat:\n    def choose(self, view, legal_moves, rng):\n"
                    "        return legal_moves[-1]._replace(planet='Pluto')\n")
    setup = Setup(3, ("random", seats.canonical(GAME, f"{file}:Cheat"), "random"))
    with pytest.raises(UserError) as e:
        GAME.play(rules, setup, 1, 4, 6, 0)
    message = str(e.value)
    assert message.startswith(f"strategy {file}:Cheat (seat 1) played an illegal move in game 4: ")
    assert "Move(action=" in message and "planet='Pluto'" in message and "\n" not in message


def test_a_bot_that_raises_is_one_line_naming_its_file_line(rules, tmp_path):
    file = tmp_path / "broken.py"
    file.write_text("class Broken:\n    def choose(self, view, legal_moves, rng):\n"
                    "        return legal_moves[len(legal_moves)]\n")
    setup = Setup(2, (seats.canonical(GAME, f"{file}:Broken"),) * 2)
    with pytest.raises(UserError, match=r"^strategy .*broken.py:Broken \(seat \d\) failed in "
                                        r"game 2: IndexError: .* \(broken.py:3\)$"):
        GAME.play(rules, setup, 1, 2, 3, 0)
