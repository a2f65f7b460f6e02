"""Playing whole Spit games: the race step by step, the jitted loop for many games, the results.

One step of the race: every seat without a planned move lets its bot plan one (which move) and
the clock schedule it (when); then the earliest planned move lands. When nobody can move, the
table stalls and both spit. `play_games` and `play_python` take exactly these steps, over the
same jitted rules and bots.
"""

from collections import namedtuple

import numpy as np

from sim.jit import rule, small_rule
from sim.spit import engine, race
from sim.spit.state import DEAL, LONE_PILE, MOVES, OVER, STALLED, STALLS, WINNER
from strategies import spit as bots


@small_rule
def plan_moves(s, rs, c, families, params):
    """Lets every seat without a planned move plan one, due after its reaction time; a seat
    that finds none is idle until a spit pile changes."""
    idle = s.idle
    for seat in range(2):
        if not c.pending[seat] and not idle[seat]:
            if bots.choose(s, rs, seat, families[seat], params[seat], c.plan[seat]):
                race.schedule(c, seat)
            else:
                idle[seat] = 1


@small_rule
def resolve_stall(s, rs, c, families, params):
    """Handles a stall: recycles spit cards if need be, lets a lone spitter choose its pile,
    spits. Gives whether the game ended as stalled."""
    if engine.stall(s, rs, c):
        return True
    seat = engine.lone_spitter(s)
    if seat >= 0:
        s.g[LONE_PILE] = bots.choose_pile(s, rs, seat, families[seat], params[seat])
    engine.spit(s, rs)
    return False


@rule
def record_game(s, c, out, row):
    """Copies a finished game's outcome into row `row` of the result arrays."""
    g = s.g
    out.winner[row] = g[WINNER]
    out.stalled[row] = g[STALLED]
    out.deals[row] = g[DEAL] + 1
    out.stalls[row] = g[STALLS]
    out.moves[row] = g[MOVES]
    out.seconds[row] = c.now[0]
    for seat in range(2):
        out.cards_left[row, seat] = engine.cards_held(s, seat)
        out.played[row, seat] = s.played[seat]


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
                resolve_stall(s, rs, c, families, params)
            elif engine.land(s, rs, c, seat) == engine.OUT:
                engine.end_deal(s, rs, c)
        record_game(s, c, out, game - start)


Results = namedtuple("Results", ["winner", "stalled", "deals", "stalls", "moves", "seconds",
                                 "cards_left", "played"])


def new_results(games: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    return Results(
        winner=np.zeros(games, np.int64), stalled=np.zeros(games, np.int64),
        deals=np.zeros(games, np.int64), stalls=np.zeros(games, np.int64),
        moves=np.zeros(games, np.int64), seconds=np.zeros(games, np.float64),
        cards_left=np.zeros((games, 2), np.int64), played=np.zeros((games, 2), np.int64))


def play_python(s, rs, c, families, params, seed, game, out, row=0, python_seats=None,
                watch=None):
    """Plays one game in a Python loop over the same jitted rules and bots as `play_games`,
    filling row `row` of `out`: the Python driver, used by trace and by Python strategies.

    python_seats: {seat: player} for the seats Python strategies play (sim/spit/view.py):
    player(seat) -> bool plans the seat's move into c.plan[seat] (False: it has none), and
    player.pile(seat) -> pile chooses the pile a lone spitter spits onto. The other seats
    play their jitted bots. Either way the clock alone decides when a planned move lands.
    watch(event, ...), if given, is called at each step: ("deal",) when a deal is laid out;
    ("plan", seat) when a seat plans a move; ("land", seat, status, card) when a planned move
    lands (status: engine.DROPPED, PLAYED, OUT, CAPPED; card: the card moved); ("stall", over)
    after a stall is resolved; ("deal_end", over) after a deal ends.
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
            over = engine.stall(s, rs, c)
            if not over:
                lone = engine.lone_spitter(s)
                if lone >= 0:
                    player = python_seats.get(lone)
                    g[LONE_PILE] = (bots.choose_pile(s, rs, lone, families[lone], params[lone])
                                    if player is None else player.pile(lone))
                engine.spit(s, rs)
            watch("stall", over)
            continue
        a = int(c.plan[seat, 1])
        top = int(s.stock[seat, a, s.stock_n[seat, a] - 1]) if s.stock_n[seat, a] > 0 else -1
        status = engine.land(s, rs, c, seat)
        watch("land", seat, status, top)
        if status == engine.OUT:
            over = engine.end_deal(s, rs, c)
            watch("deal_end", over)
            if not over:
                watch("deal")
    record_game(s, c, out, row)


def _unwatched(event, *args):
    pass
