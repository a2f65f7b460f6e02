"""Playing whole Deep Space games: the jitted loop for many games, the Python loop for one
(trace, user bots), and the result arrays both fill."""

from collections import namedtuple

import numpy as np

from sim.deep_space import engine
from sim.deep_space.state import FIRST_SEAT, OVER, PLAYERS, TURN_SEAT, TURNS, WINNER
from sim.jit import rule
from strategies import deep_space as bots

Results = namedtuple("Results", [
    "turns", "winner", "first_seat",
    "bases", "lost", "won_fights", "lost_fights", "gems_mined", "ore_mined", "played",
    "base_turn",
])
_PER_SEAT = ("bases", "lost", "won_fights", "lost_fights", "gems_mined", "ore_mined", "played")


def new_results(games: int, players: int, planets: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    per_seat = {name: np.zeros((games, players), np.int64) for name in _PER_SEAT}
    return Results(turns=np.zeros(games, np.int64), winner=np.zeros(games, np.int64),
                   first_seat=np.zeros(games, np.int64), **per_seat,
                   base_turn=np.zeros((games, players, planets), np.int64))


@rule
def record_game(s, out, row):
    """Copies a finished game into row `row` of the result arrays."""
    g = s.g
    # the winning turn ends the game before it is counted as finished
    out.turns[row] = g[TURNS] + (1 if g[WINNER] >= 0 else 0)
    out.winner[row] = g[WINNER]
    out.first_seat[row] = g[FIRST_SEAT]
    for seat in range(g[PLAYERS]):
        out.bases[row, seat] = s.bases[seat]
        out.lost[row, seat] = s.lost[seat]
        out.won_fights[row, seat] = s.won_fights[seat]
        out.lost_fights[row, seat] = s.lost_fights[seat]
        out.gems_mined[row, seat] = s.gems_mined[seat]
        out.ore_mined[row, seat] = s.ore_mined[seat]
        out.played[row, seat] = s.played[seat]
        for q in range(s.base_turn.shape[1]):
            out.base_turn[row, seat, q] = s.base_turn[seat, q]


@rule
def play_games(s, rs, families, params, seed, start, stop, out):
    """Plays games [start, stop) with the jitted bots and fills `out` (row = game - start)."""
    move = s.move
    for game in range(start, stop):
        engine.start_game(s, rs, seed, game)
        while not s.g[OVER]:
            seat = s.g[TURN_SEAT]
            bots.choose(s, rs, seat, families[seat], params[seat], move)
            engine.apply_move(s, rs, seat, move)
        record_game(s, out, game - start)


def jitted_bots(families, params):
    """Gives choose(s, rs, seat, out) playing the built-in jitted bots of each seat."""
    def choose(s, rs, seat, out):
        bots.choose(s, rs, seat, families[seat], params[seat], out)
    return choose


def play_traced(s, rs, choose, seed, game, out, watch):
    """Plays one game in a Python loop over the same jitted rules as `play_games`, each move
    chosen by choose(s, rs, seat, move) (the jitted bots, or any Python bot writing a legal
    move); calls watch("move", seat, move) before each move is played and watch("after", seat,
    move) after it; fills row 0 of `out`."""
    move = s.move
    engine.start_game(s, rs, seed, game)
    watch("start")
    while not s.g[OVER]:
        seat = int(s.g[TURN_SEAT])
        choose(s, rs, seat, move)
        watch("move", seat, move.copy())
        engine.apply_move(s, rs, seat, move)
        watch("after", seat, move.copy())
    record_game(s, out, 0)
    watch("end")
