"""Playing whole Speed games: the race step by step, the jitted loop for many games, the results.

The steps are Spit's (sim/spit/play.py): seats without a planned move plan one, the earliest
lands; when nobody can play, the table stalls and side-pile cards are turned up.
"""

from collections import namedtuple

import numpy as np

from sim.jit import rule, small_rule
from sim.speed import engine
from sim.speed.state import HAND_NO, MOVES, OVER, STALLED, STALLS, WINNER
from sim.spit import race
from sim.spit.play import _unwatched
from strategies import speed as bots


@small_rule
def plan_moves(s, rs, c, families, params):
    """Lets every seat without a planned move plan one, due after its reaction time; a seat
    that finds none is idle until a centre pile changes."""
    idle = s.idle
    for seat in range(2):
        if not c.pending[seat] and not idle[seat]:
            if bots.choose(s, rs, seat, families[seat], params[seat], c.plan[seat]):
                race.schedule(c, seat)
            else:
                idle[seat] = 1


@rule
def record_game(s, c, out, row):
    """Copies a finished game's outcome into row `row` of the result arrays."""
    g = s.g
    out.winner[row] = g[WINNER]
    out.stalled[row] = g[STALLED]
    out.hands[row] = g[HAND_NO] + 1
    out.stalls[row] = g[STALLS]
    out.moves[row] = g[MOVES]
    out.seconds[row] = c.now[0]
    for seat in range(2):
        out.cards_left[row, seat] = engine.cards_held(s, seat)
        out.played[row, seat] = s.played[seat]
        out.score[row, seat] = s.score[seat]


@rule
def play_games(s, rs, c, families, params, seed, start, stop, out):
    """Plays games [start, stop) with the jitted bots and fills `out` (row = game - start)."""
    g = s.g
    for game in range(start, stop):
        engine.start_game(s, rs, c, seed, game)
        while not g[OVER]:
            plan_moves(s, rs, c, families, params)
            seat = race.next_due(c)
            if seat < 0:
                engine.stall(s, rs, c)
            elif engine.land(s, rs, c, seat) == engine.OUT:
                engine.end_hand(s, rs, c)
        record_game(s, c, out, game - start)


Results = namedtuple("Results", ["winner", "stalled", "hands", "stalls", "moves", "seconds",
                                 "cards_left", "played", "score"])


def new_results(games: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    return Results(
        winner=np.zeros(games, np.int64), stalled=np.zeros(games, np.int64),
        hands=np.zeros(games, np.int64), stalls=np.zeros(games, np.int64),
        moves=np.zeros(games, np.int64), seconds=np.zeros(games, np.float64),
        cards_left=np.zeros((games, 2), np.int64), played=np.zeros((games, 2), np.int64),
        score=np.zeros((games, 2), np.int64))


def play_python(s, rs, c, families, params, seed, game, out, row=0, python_seats=None,
                watch=None):
    """Plays one game in a Python loop over the same jitted rules and bots as `play_games`,
    filling row `row` of `out`: the Python driver, used by trace and by Python strategies.

    python_seats: {seat: player} for the seats Python strategies play (sim/speed/view.py):
    player(seat) -> bool plans the seat's play into c.plan[seat] (False: it has none). The
    other seats play their jitted bots; the clock alone decides when a planned play lands.
    watch(event, ...), if given, is called at each step: ("deal",) when a hand is dealt;
    ("plan", seat); ("land", seat, status, card) (status: engine.DROPPED, PLAYED, OUT, CAPPED);
    ("stall", over); ("hand_end", over).
    """
    python_seats = python_seats or {}
    watch = watch or _unwatched
    g = s.g
    engine.start_game(s, rs, c, race.seed_bits(seed), game)
    watch("deal")
    while not g[OVER]:
        for seat in range(2):
            if not c.pending[seat] and not s.idle[seat]:
                player = python_seats.get(seat)
                if (bots.choose(s, rs, seat, families[seat], params[seat], c.plan[seat])
                        if player is None else player(seat)):
                    race.schedule(c, seat)
                    watch("plan", seat)
                else:
                    s.idle[seat] = 1
        seat = race.next_due(c)
        if seat < 0:
            watch("stall", engine.stall(s, rs, c))
            continue
        card = int(s.hand[seat, c.plan[seat, 1]])
        status = engine.land(s, rs, c, seat)
        watch("land", seat, status, card)
        if status == engine.OUT:
            over = engine.end_hand(s, rs, c)
            watch("hand_end", over)
            if not over:
                watch("deal")
    record_game(s, c, out, row)
