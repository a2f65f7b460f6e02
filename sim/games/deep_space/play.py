"""Playing whole Deep Space games: the jitted loop for many games, the Python loop for one
(trace, user bots), and the result arrays both fill."""

from collections import namedtuple

import numpy as np

from sim import progress, search, usage
from sim.games.deep_space import bots, engine, forbid
from sim.games.deep_space.ruleset import BASE_ORE, BASE_RECRUITS
from sim.games.deep_space.state import (FIRST_SEAT, OVER, PLAYERS, TURN_SEAT, TURNS, WINNER,
                                        State)
from sim.jit import rule
from sim.turns import AFTER, DECIDE, MOVE, START, drive, python_flags

NEXT_BASE = 0.9  # the most the next base's resources add to the bases built: never a base


@rule
def bases_and_next(s, rs, values):
    """Writes each colour's progress: its bases, plus up to NEXT_BASE for what the next one
    costs that it holds, half for the ore, half for the recruits standing on the best planet it
    may build on."""
    ore, recruits = rs.numbers[BASE_ORE], rs.numbers[BASE_RECRUITS]
    for seat in range(values.shape[0]):
        best = 0
        for q in range(s.units.shape[1]):
            if s.site_dist[seat, q] == 0:
                best = max(best, s.units[seat, q])
        held = min(s.ore[seat], ore) / ore if ore > 0 else 1.0
        values[seat] = s.bases[seat] + NEXT_BASE / 2 * (held + min(best, recruits) / recruits)


progress.register(State, bases_and_next)

Results = namedtuple("Results", [
    "turns", "winner", "first_seat",
    "bases", "lost", "won_fights", "lost_fights", "gems_mined", "ore_mined", "played",
    "base_turn",
    "uses",  # int64[games, players, len(forbid.uses(kinds))]: moves of each kind (State.uses)
    "progress",  # sim.progress.Recorder: each colour's bases and next base through the game
])
_PER_SEAT = ("bases", "lost", "won_fights", "lost_fights", "gems_mined", "ore_mined", "played")


def new_results(games: int, players: int, planets: int, kinds: list[str]) -> Results:
    """Gives zeroed result arrays for `games` games (`kinds`: the deck's card kinds)."""
    per_seat = {name: np.zeros((games, players), np.int64) for name in _PER_SEAT}
    return Results(turns=np.zeros(games, np.int64), winner=np.zeros(games, np.int64),
                   first_seat=np.zeros(games, np.int64), **per_seat,
                   base_turn=np.zeros((games, players, planets), np.int64),
                   uses=usage.new_counts(games, players, len(forbid.uses(kinds))),
                   progress=progress.new(games, players))


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
        for k in range(s.uses.shape[1]):
            out.uses[row, seat, k] = s.uses[seat, k]


@rule
def play_games(s, rs, families, params, seed, start, stop, out, searching):
    """Plays games [start, stop) with the jitted bots and fills `out` (row = game - start).

    searching: True when a seat searches, None when none does (sim/search.py: the loop is then
    compiled without the search)."""
    move = s.move
    for game in range(start, stop):
        engine.start_game(s, rs, seed, game)
        while not s.g[OVER]:
            seat = s.g[TURN_SEAT]
            if searching is None:
                bots.builtin_choose(s, rs, seat, families[seat], params[seat], move)
            else:
                bots.choose(s, rs, seat, families[seat], params[seat], move)
            progress.step(out.progress, s, rs, seat)
            engine.apply_move(s, rs, seat, move)
        progress.finish(out.progress, s, rs, game - start)
        record_game(s, out, game - start)


@rule
def python_steps(s, rs, families, params, seed, game, out, row, python, watched, searching):
    """Plays one game as `play_games` does, stopping where Python has a part: yields
    (DECIDE, seat) when a seat with python[seat] set is to move (Python writes its move into
    s.move before the next step) and, when `watched`, (START, -1) once set up, (MOVE, seat)
    before each move is played and (AFTER, seat) after it.

    sim/turns.py's `drive` runs it. A generator: its arguments are unboxed once per game, where
    calling the rules from Python unboxes the state's arrays at every call, several times a
    move. searching: as for `play_games`."""
    move = s.move
    engine.start_game(s, rs, seed, game)
    if watched:
        yield START, -1
    while not s.g[OVER]:
        seat = s.g[TURN_SEAT]
        if python[seat]:
            yield DECIDE, seat
        elif searching is None:
            bots.builtin_choose(s, rs, seat, families[seat], params[seat], move)
        else:
            bots.choose(s, rs, seat, families[seat], params[seat], move)
        progress.step(out.progress, s, rs, seat)
        if watched:
            yield MOVE, seat
        engine.apply_move(s, rs, seat, move)
        if watched:
            yield AFTER, seat
    progress.finish(out.progress, s, rs, row)
    record_game(s, out, row)


def play_python(s, rs, families, params, seed, game, out, row=0, python_seats=None,
                watch=None):
    """Plays one game over the same jitted rules and bots as `play_games`, filling row `row`
    of `out`, with Python taking part: the Python driver, used by trace and by Python
    strategies.

    python_seats: {seat: player(seat)} for the seats Python strategies play; a player writes
    its move into s.move. The other seats play their jitted bots. watch: as for sim/turns.py's
    `drive`.
    """
    python = python_flags(python_seats, len(families))
    drive(python_steps(s, rs, families, params, seed, game, out, row, python, watch is not None,
                       search.searching(families)), python_seats, s.move, watch)
