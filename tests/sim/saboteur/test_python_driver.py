"""Saboteur's Python driver: with every built-in bot played as a Python strategy (through the
readable view and legal moves), it plays the jitted loop's games move for move; user bots play
reproducible games that only their player's knowledge shapes."""

import io
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.errors import UserError
from sim.game import Setup
from sim.saboteur import GAME, engine, play, view
from sim.saboteur.state import ORIGIN, TURN_SEAT
from sim.saboteur.tables import build as build_tables
from strategies import python_bots, seats
from strategies import saboteur as bots

EXAMPLES = Path(__file__).parents[3] / "strategies" / "examples"
DIGGER = f"{EXAMPLES / 'saboteur_digger.py'}:Digger"
FIRST = f"{EXAMPLES / 'first_move.py'}:FirstMove"


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


class Builtin:
    """A built-in jitted bot as a Python strategy: it asks the jitted bot for its move on the
    game's state and answers with the same move taken from the readable list."""

    def __init__(self, s, rs, names, family, params):
        self.s, self.rs, self.names, self.family, self.params = s, rs, names, family, params

    def choose(self, view_, legal_moves, rng):
        move = np.zeros(5, np.int64)
        bots.choose(self.s, self.rs, view_.seat, self.family, self.params, move)
        chosen = view.readable(self.names, self.s.hand, view_.seat, move.tolist())
        assert chosen in legal_moves
        return chosen


def python_driver(rules, setup, seed, games, wrapped):
    """Gives (tables, moves per game) of games 0..games-1 played by the Python driver, the
    seats in `wrapped` as Python strategies wrapping their built-in bots."""
    rs, names, families, params, s, fixed = GAME.prepare(rules, setup)
    out = play.new_results(games, setup.players, 3)
    logs = []
    for game in range(games):
        log: list = []
        players = {}
        for seat in wrapped:
            strategy = python_bots.PythonSeat(
                "builtin", lambda seat=seat: Builtin(s, rs, names, families[seat], params[seat]),
                seed, game, seat)
            players[seat] = view.PythonSeatPlayer(s, rs, names, strategy)
        play.play_python(s, rs, families, params, seed, game, fixed, out, game, players,
                         lambda event, *args, log=log: log.append((args[0], args[1].tolist()))
                         if event == "move" else None)
        logs.append(log)
    ids = np.arange(games, dtype=np.int64)
    return build_tables(out, ids, setup.players, setup.strategies(), None), logs


@pytest.mark.parametrize("players, seed", [(5, 11), (8, 2**40 + 3)])
@pytest.mark.parametrize("strategy", bots.strategy_names())
def test_every_built_in_bot_plays_the_same_games_through_the_python_driver(rules, strategy,
                                                                          players, seed):
    setup = Setup(players, tuple((strategy, "default", strategy, "random")[i % 4]
                                 for i in range(players)))
    games = 6
    jitted = GAME.play(rules, setup, seed, 0, games, 0)
    native, native_moves = python_driver(rules, setup, seed, games, wrapped=())
    wrapped, wrapped_moves = python_driver(rules, setup, seed, games, wrapped=range(players))
    assert wrapped_moves == native_moves  # move for move
    for name in jitted:
        assert native[name].equals(jitted[name]), name
        assert wrapped[name].equals(jitted[name]), name


def test_a_python_bots_games_do_not_depend_on_chunking_and_trace_equals_play(rules):
    setup = Setup(4, (seats.canonical(GAME, DIGGER), "default", "random", "default"))
    whole = GAME.play(rules, setup, 5, 0, 6, 0)
    parts = [GAME.play(rules, setup, 5, a, b, 0) for a, b in ((0, 2), (2, 6))]
    for name in whole:
        assert whole[name].equals(pl.concat([p[name] for p in parts])), name
    traced = GAME.trace(rules, setup, 5, 3, io.StringIO())
    for name in traced:
        assert traced[name].equals(whole[name].filter(pl.col("game_id") == 3)), name
    assert whole["seats"].filter(pl.col("seat") == 0)["strategy"].unique().to_list() == \
        ["saboteur_digger.py:Digger"]


def test_a_python_seat_changes_the_play_but_not_the_deals(rules):
    base = Setup(4, ("default",) * 4)
    mixed = Setup(4, ("default", seats.canonical(GAME, FIRST), "default", "default"))
    a = GAME.play(rules, base, 9, 0, 4, 0)["rounds"]
    b = GAME.play(rules, mixed, 9, 0, 4, 0)["rounds"]
    assert a["role"].equals(b["role"])  # every round's roles are dealt from the deal's stream
    assert not a["turns"].equals(b["turns"])


def test_the_rng_of_a_python_seat_depends_on_seed_game_and_seat_only():
    draw = [python_bots.bot_rng(7, 3, 1).random() for _ in range(2)]
    assert draw[0] == draw[1]
    assert python_bots.bot_rng(7, 3, 2).random() != draw[0]
    assert python_bots.bot_rng(7, 4, 1).random() != draw[0]
    assert python_bots.bot_rng(8, 3, 1).random() != draw[0]


def dealt(rules, players=4, seed=2):
    rs, names, _, _, s, _ = GAME.prepare(rules, Setup(players, ("random",) * players))
    engine.start_game(s, rs, seed, 0, -1)
    return s, rs, names


def test_the_readable_legal_moves_are_the_engines_in_order(rules):
    s, rs, names = dealt(rules)
    seat = int(s.g[TURN_SEAT])
    rows, moves = view.moves(s, rs, names, seat)
    assert len(moves) == engine.legal_moves(s, rs, seat) == len(rows)
    for row, move in zip(rows.tolist(), moves):
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


def test_an_illegal_move_names_the_bot_the_move_and_the_game(rules, tmp_path):
    file = tmp_path / "cheats.py"
    file.write_text("class Cheat:\n    def choose(self, view, legal_moves, rng):\n"
                    "        return legal_moves[0]._replace(slot=7)\n")
    setup = Setup(3, ("random", seats.canonical(GAME, f"{file}:Cheat"), "random"))
    with pytest.raises(UserError) as e:
        GAME.play(rules, setup, 1, 4, 6, 0)
    message = str(e.value)
    assert message.startswith(f"strategy {file}:Cheat (seat 1) played an illegal move in game 4: ")
    assert "Move(action=" in message and "slot=7" in message and "\n" not in message


def test_a_bot_that_raises_is_one_line_naming_its_file_line(rules, tmp_path):
    file = tmp_path / "broken.py"
    file.write_text("class Broken:\n    def choose(self, view, legal_moves, rng):\n"
                    "        return legal_moves[len(legal_moves)]\n")
    setup = Setup(3, (seats.canonical(GAME, f"{file}:Broken"),) * 3)
    with pytest.raises(UserError, match=r"^strategy .*broken.py:Broken \(seat \d\) failed in "
                                        r"game 2: IndexError: .* \(broken.py:3\)$"):
        GAME.play(rules, setup, 1, 2, 3, 0)
