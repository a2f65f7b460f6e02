"""Spit's and Speed's Python drivers: with every built-in bot played as a Python strategy
(through the readable view and legal moves, the lone spitter's pile choice included), they
play the jitted loop's games move for move; user bots play reproducible games that only their
player's knowledge shapes, and their errors are one line."""

import io
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim import speed, spit
from sim.errors import UserError
from sim.game import Setup
from sim.spit import engine
from sim.spit.state import PLAY, SHIFT, TURN
from sim.spit.view import PILE_CHOICES, StockPile
from strategies import python_bots, seats

EXAMPLES = Path(__file__).parents[3] / "strategies" / "examples"
RACER = f"{EXAMPLES / 'spit_racer.py'}:Racer"
PAIRS = f"{EXAMPLES / 'speed_pairs.py'}:Pairs"
GAMES = {"spit": spit.GAME, "speed": speed.GAME}


class Builtin:
    """A built-in jitted bot as a Python strategy: it asks the jitted bot for its move (or its
    pile) on the game's state and answers with the same move taken from the readable list."""

    piles_chosen = 0

    def __init__(self, game, s, rs, names, family, params):
        self.game, self.s, self.rs, self.names = game, s, rs, names
        self.family, self.params = family, params

    def choose(self, view_, legal_moves, rng):
        bots, seat = self.game.bots.strategies, view_.seat
        if getattr(view_, "choosing_pile", False):
            assert legal_moves == PILE_CHOICES
            Builtin.piles_chosen += 1
            return legal_moves[bots.choose_pile(self.s, self.rs, seat, self.family, self.params)]
        plan = np.zeros(3, np.int64)
        assert bots.choose(self.s, self.rs, seat, self.family, self.params, plan)
        chosen = self.game.view.readable(self.s, self.names, seat, plan.tolist())
        assert chosen in legal_moves
        return chosen


def python_driver(game, rules, setup, seed, games, wrapped):
    """Gives (tables, landed moves per game) of games 0..games-1 played by the Python driver,
    the seats in `wrapped` as Python strategies wrapping their built-in bots."""
    rs, names, families, params, s, c, means, spreads = game.prepare(rules, setup)
    out = game.loop.new_results(games)
    logs = []
    for index in range(games):
        log: list = []
        players = {}
        for seat in wrapped:
            strategy = python_bots.PythonSeat(
                "builtin", lambda seat=seat: Builtin(game, s, rs, names, families[seat],
                                                     params[seat]), seed, index, seat)
            players[seat] = game.view.PythonSeatPlayer(s, rs, c, names, strategy)

        def watch(event, *args, log=log):
            if event == "land":
                log.append((args[0], args[1], c.plan[args[0]].tolist(), float(c.now[0])))

        game.loop.play_python(s, rs, c, families, params, seed, index, out, index, players, watch)
        logs.append(log)
    return game.tables_of(rules, setup, out, np.arange(games, dtype=np.int64), means,
                          spreads), logs


CASES = [("spit", name, sets) for name in spit.GAME.strategy_names()
         for sets in ((), ("options.stack_equal_ranks=true", "options.smaller_pile=out_player_chooses"))]
CASES += [("speed", name, sets) for name in speed.GAME.strategy_names()
          for sets in ((), ("options.scoring=points",))]
CASES += [("spit", "default-no-uncover-no-play_up", ()), ("speed", "random-no-play_down", ())]


@pytest.mark.parametrize("game_name, strategy, sets", CASES)
def test_every_built_in_bot_plays_the_same_games_through_the_python_driver(game_name, strategy,
                                                                          sets):
    game = GAMES[game_name]
    rules = game.load_rules(None, list(sets))
    seed = 2**63 + 5 if sets else 17  # also a seed above the int64 range
    for seat_strategies in ((strategy, "default"), ("random", strategy)):
        setup = Setup(2, seat_strategies)
        jitted = game.play(rules, setup, seed, 0, 2, 0)
        native, native_moves = python_driver(game, rules, setup, seed, 2, wrapped=())
        wrapped, wrapped_moves = python_driver(game, rules, setup, seed, 2, wrapped=(0, 1))
        assert wrapped_moves == native_moves  # move for move, at the same times
        for name in jitted:
            assert native[name].equals(jitted[name]), name
            assert wrapped[name].equals(jitted[name]), name


def test_the_lone_spitters_pile_choice_reaches_python_bots():
    before = Builtin.piles_chosen
    rules = spit.GAME.load_rules(None, [])
    setup = Setup(2, ("default", "blocker"))
    wrapped, _ = python_driver(spit.GAME, rules, setup, 17, 2, wrapped=(0, 1))
    assert Builtin.piles_chosen > before, "these games have lone spitters"
    assert wrapped["games"].equals(spit.GAME.play(rules, setup, 17, 0, 2, 0)["games"])


def test_a_python_bots_games_do_not_depend_on_chunking_and_trace_equals_play():
    for game, bot in ((spit.GAME, RACER), (speed.GAME, PAIRS)):
        rules = game.load_rules(None, [])
        setup = Setup(2, (seats.canonical(game, bot), "default"))
        whole = game.play(rules, setup, 5, 0, 4, 0)
        parts = [game.play(rules, setup, 5, a, b, 0) for a, b in ((0, 1), (1, 4))]
        for name in whole:
            assert whole[name].equals(pl.concat([p[name] for p in parts])), name
        traced = game.trace(rules, setup, 5, 2, io.StringIO())
        for name in traced:
            assert traced[name].equals(whole[name].filter(pl.col("game_id") == 2)), name
        label = Path(bot).name
        assert whole["seats"].filter(pl.col("seat") == 0)["strategy"].unique().to_list() == [label]


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


@pytest.mark.parametrize("game, answer", [
    (spit.GAME, "legal_moves[0]._replace(stock=9)"),
    (speed.GAME, "legal_moves[0]._replace(pile=2)"),
])
def test_an_illegal_move_names_the_bot_the_move_and_the_game(game, answer, tmp_path):
    file = tmp_path / "cheats.py"
    file.write_text(f"class Cheat:\n    def choose(self, view, legal_moves, rng):\n"
                    f"        return {answer}\n")
    rules = game.load_rules(None, [])
    setup = Setup(2, ("random", seats.canonical(game, f"{file}:Cheat")))
    with pytest.raises(UserError) as e:
        game.play(rules, setup, 1, 4, 6, 0)
    message = str(e.value)
    assert message.startswith(f"strategy {file}:Cheat (seat 1) played an illegal move in game 4: ")
    assert "Move(action=" in message and "\n" not in message


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
