"""`simulate new-game NAME --fast`: the files of a fast-level game (jitted rules and bots on
sim/turns.py's shell) for a designer to change, all passing as written: the same small
push-your-luck game as the simple level's skeleton (sim/new_game.py), with its rules on numpy
arrays (state.py, engine.py), its bots (bots.py) and its view for Python strategies and traces
(view.py); the shell and sim/turn_loops.py do the rest. sim/new_game.py writes them, with
the simple level's pyproject, rules TOML and conformance test."""

INIT = '''\
"""{title} for tabletop-balance: a fast-level game (jitted rules and bots) on the shell of
turn-based games (sim/turns.py), its play loops made by sim/turn_loops.py."""

from pathlib import Path

import polars as pl

from {package} import bots, engine
from {package}.state import new_state
from {package}.view import PythonSeatPlayer, end_line, move_line
from sim.game import Column, Headline, Setup
from sim.turn_loops import loops
from sim.turns import JittedBots, Prepared, TurnGame, score_tables


class Game(TurnGame):
    name = "{name}"
    title = "{title}"
    min_players, max_players = 2, 6
    rules_file = Path(__file__).with_name("rules.toml")
    tables = ("games", "seats")
    columns = {{
        "games": (Column("winner", "the winning seat (null: a shared win)"),
                  Column("winners", "how many seats won (several: a shared win)"),
                  Column("first_won", "whether seat 0 is among the winners")),
        "seats": (Column("score", "the seat's score at the end (0: bust)"),),
    }}
    # seat 0's share of the wins (a shared win split among its winners), against 1/players
    headline = Headline("first player's win share",
                        pl.col("first_won").cast(pl.Float64) / pl.col("winners"), pl.lit(1))
    summary = (("avg turns", pl.col("turns").mean()),)
    loop = loops(engine.start_game, engine.over, engine.to_move, bots.choose,
                 engine.apply_move, engine.record_game)
    bots = JittedBots(bots)  # no move can be forbidden: --forbid is not offered
    # its View is plain fields, without suggest(): the conformance check that follows the
    # built-in bots from Python (legal_moves_only) cannot play it
    suggests = False
    rule_arrays = staticmethod(engine.numbers)
    new_state = staticmethod(new_state)
    move_line, end_line = staticmethod(move_line), staticmethod(end_line)  # the trace's

    def validate(self, rules: dict) -> None:
        engine.numbers(rules, self.min_players)

    def new_results(self, prepared: Prepared, games: int, setup: Setup):
        return engine.new_results(games, setup.players)

    def tables_of(self, rules, setup, prepared, results, ids, labels):
        won = results.scores == results.scores.max(axis=1, keepdims=True)  # ties share
        return score_tables(ids, setup.players, labels, results.turns, won, results.scores)

    def python_player(self, prepared: Prepared, rules: dict, seat: int) -> PythonSeatPlayer:
        return PythonSeatPlayer(prepared.state)

GAME = Game()
'''

STATE = '''\
"""{title}'s state: numpy arrays the jitted rules read and write."""

from typing import NamedTuple

import numpy as np

SEAT, DECK_N, TURNS = range(3)  # g[...]: the game's numbers
TARGET, HIGHEST, COPIES = range(3)  # the rule numbers (engine.numbers)
DRAW, STOP = 0, 1  # a move: move[0]
MOVES = ("draw", "stop")  # as Python strategies and traces name them


class State(NamedTuple):
    g: np.ndarray        # int64[3]: the numbers above
    deck: np.ndarray     # int64[cards]: deck[:g[DECK_N]] face down, the last comes next
    scores: np.ndarray   # int64[players]
    stopped: np.ndarray  # int64[players]: 1 once a seat has stopped (or bust)
    rngs: np.ndarray     # uint64[1 + players, 1]: the deal's stream, then each seat's bot's
    move: np.ndarray     # int64[1]: DRAW or STOP


def new_state(players: int, rs: np.ndarray) -> State:
    """Gives an empty state for `players` under the rule numbers `rs`."""
    return State(np.zeros(3, np.int64), np.zeros(int(rs[HIGHEST] * rs[COPIES]), np.int64),
                 np.zeros(players, np.int64), np.zeros(players, np.int64),
                 np.zeros((1 + players, 1), np.uint64), np.zeros(1, np.int64))
'''

ENGINE = '''\
"""{title}: the rules, jitted (sim.jit.rule), on the arrays of state.py.

A push-your-luck card game to replace with yours: on their turn a player draws the top card of
a shuffled deck onto their score, or stops for the rest of the game. Going over `target` busts
the player: their score is 0 and they stop. The game ends when every player has stopped or the
deck is empty; the highest score wins (ties share the win).
"""

from typing import NamedTuple

import numpy as np

from {package}.state import COPIES, DECK_N, DRAW, HIGHEST, SEAT, TARGET, TURNS
from sim import rng
from sim.errors import UserError
from sim.jit import rule, small_rule


def numbers(rules: dict, players: int) -> np.ndarray:
    """Gives the rule numbers the engine reads (state.TARGET ...); UserError for rules no game
    can be played with."""
    if rules["target"] < 1 or rules["highest_card"] < 1 or rules["copies"] < 1:
        raise UserError("target, highest_card and copies must be at least 1")
    return np.array([rules["target"], rules["highest_card"], rules["copies"]], np.int64)


@rule
def start_game(s, rs, seed, game):
    """Deals game `game` of the run seeded `seed`: the deck shuffled, every score 0."""
    for k in range(s.rngs.shape[0]):  # stream 0 deals, 1 + seat is the seat's bot's
        rng.start(s.rngs[k], seed, game, k)
    for i in range(s.deck.shape[0]):
        s.deck[i] = 1 + i // rs[COPIES]
    rng.shuffle(s.rngs[0], s.deck)
    s.g[:] = 0
    s.g[DECK_N] = s.deck.shape[0]
    s.scores[:] = 0
    s.stopped[:] = 0


@small_rule
def over(s):
    return s.g[DECK_N] == 0 or s.stopped.sum() == s.stopped.shape[0]


@small_rule
def to_move(s):
    return s.g[SEAT]


@rule
def apply_move(s, rs, seat, move):
    """Plays `seat`'s move, then passes the turn to the next player still in."""
    s.g[TURNS] += 1
    if move[0] == DRAW:
        s.g[DECK_N] -= 1
        s.scores[seat] += s.deck[s.g[DECK_N]]
        if s.scores[seat] > rs[TARGET]:
            s.scores[seat] = 0
            s.stopped[seat] = 1
    else:
        s.stopped[seat] = 1
    players = s.scores.shape[0]
    for step in range(1, players + 1):
        if not s.stopped[(seat + step) % players]:
            s.g[SEAT] = (seat + step) % players
            return


class Results(NamedTuple):
    turns: np.ndarray   # int64[games]: moves played
    scores: np.ndarray  # int64[games, players]


def new_results(games: int, players: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    return Results(np.zeros(games, np.int64), np.zeros((games, players), np.int64))


@rule
def record_game(s, out, row):
    """Copies a finished game into row `row` of the result arrays."""
    out.turns[row] = s.g[TURNS]
    for seat in range(s.scores.shape[0]):
        out.scores[row, seat] = s.scores[seat]
'''

BOTS = '''\
"""{title}'s bots, jitted: `random` and the `default` family, with named presets."""

from {package}.state import DRAW, STOP, TARGET
from sim import rng
from sim.jit import rule
from strategies import presets
from strategies.presets import RANDOM, Family, Parameter

PARAMETERS = (Parameter("stop_at", 6.0, 0.0, 20.0, "how far below the target it stops"),)
STOP_AT = 0
FAMILIES = (Family("random", "uniform over the legal moves"),
            Family("default", "draws while its score is more than `stop_at` below the target",
                   PARAMETERS))
PRESETS = {{"default": {{}}, "bold": {{"stop_at": 3.0}}, "careful": {{"stop_at": 9.0}}}}
BUILT_IN = presets.built_in(PRESETS)
strategy_names, resolve = presets.lookups(PRESETS, PARAMETERS, FAMILIES)


@rule
def choose(s, rs, seat, family, params, move):
    """Writes the seat's move (DRAW or STOP) into `move`."""
    if family == RANDOM:
        move[0] = rng.below(s.rngs[1 + seat], 2)
    else:
        move[0] = DRAW if s.scores[seat] < rs[TARGET] - params[STOP_AT] else STOP
'''

VIEW = '''\
"""{title} for Python strategies and traces: what a seat sees, and its moves, in words."""

from typing import NamedTuple

from {package}.state import DECK_N, MOVES, TURNS


class View(NamedTuple):
    """What a seat sees: every score and who has stopped, and how many cards are left."""

    seat: int
    scores: tuple[int, ...]
    stopped: tuple[bool, ...]
    cards_left: int


class PythonSeatPlayer:
    """Plays a Python strategy's seat (docs/bots.md): offers it the moves in words and writes
    the one it picks into the state's move (python_bots.seated gives it its `seat` each
    game)."""

    def __init__(self, s):
        self.s = s

    def __call__(self, seat: int) -> None:
        s = self.s
        view = View(seat, tuple(s.scores.tolist()), tuple(bool(x) for x in s.stopped),
                    int(s.g[DECK_N]))
        s.move[0] = self.seat.pick(view, MOVES)


def move_line(s, seat: int, label: str, move) -> str:
    """Gives the trace's line of a move, before it is played."""
    return (f"seat {{seat}} ({{label}}): {{MOVES[move[0]]!r}} at {{s.scores[seat]}}; "
            f"{{int(s.g[DECK_N])}} cards left")


def end_line(s) -> str:
    """Gives the trace's last line."""
    return f"over after {{int(s.g[TURNS])}} moves: scores {{s.scores.tolist()}}"
'''

TEST_RULES = '''\
"""{title}'s rules on exact positions: write one test per rule."""

from {package} import GAME, engine
from {package}.state import DECK_N, DRAW, SEAT
from sim.game import Setup


def test_drawing_over_the_target_busts_to_zero_and_stops():
    rules = GAME.load_rules(None, [])
    p = GAME.prepare(rules, Setup(2, ("default", "default")))
    s = p.state
    engine.start_game(s, p.rs, 1, 0)
    s.scores[0], s.deck[s.g[DECK_N] - 1] = 20, 5
    s.move[0] = DRAW
    engine.apply_move(s, p.rs, 0, s.move)
    assert s.scores.tolist() == [0, 0] and s.stopped.tolist() == [1, 0] and s.g[SEAT] == 1
'''

README = '''\
# {title}

A fast-level game for [tabletop-balance](https://example.invalid/tabletop-balance), written
by `simulate new-game {name} --fast`: its rules and bots are jitted (numba).

    pip install -e .          # registers the game: `simulate games` lists it
    pytest                    # its rules and the conformance checks
    simulate {name} --players 2-4 --games 100000 --out runs/{package}
    simulate report runs/{package}

Change `{package}/state.py` (the state's arrays), `{package}/engine.py` (the rules),
`{package}/bots.py` (the bots), `{package}/view.py` (what a Python strategy sees) and
`{package}/rules.toml` (the rules' defaults); the tests in `tests/` say what still holds.
'''
