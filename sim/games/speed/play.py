"""Playing whole Speed games: Speed's part of the real-time loop (sim/games/spit/loop.py), and the
results. A stall here turns up side-pile cards; nobody chooses anything.
"""

from collections import namedtuple

import numpy as np

from sim import progress, usage
from sim.jit import rule, small_rule
from sim.games.speed import bots, engine
from sim.games.speed.forbid import USES, use_of
from sim.games.speed.state import HAND_NO, MOVES, OVER, STALLED, STALLS, WINNER, State
from sim.games.spit import loop
from sim.games.spit.loop import play_games, play_python  # noqa: F401  (the game's loop: RealTimeGame.loop)


@small_rule
def resolve_stall(s, rs, c, families, params):
    """Handles a stall (side-pile cards turned up); gives whether the game ended as stalled."""
    return engine.stall(s, rs, c)


def _resolve_stall_python(s, rs, c, families, params, python_seats):
    return engine.stall(s, rs, c)


def _moving_card(s, c, seat) -> int:
    """Gives the card in the hand slot `seat`'s planned play takes."""
    return int(s.hand[seat, c.plan[seat, 1]])


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


@small_rule
def over(s):
    """Gives whether the game has ended."""
    return s.g[OVER] != 0


Results = namedtuple("Results", ["winner", "stalled", "hands", "stalls", "moves", "seconds",
                                 "cards_left", "played", "score", "uses", "progress"])


def new_results(games: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    return Results(
        winner=np.zeros(games, np.int64), stalled=np.zeros(games, np.int64),
        hands=np.zeros(games, np.int64), stalls=np.zeros(games, np.int64),
        moves=np.zeros(games, np.int64), seconds=np.zeros(games, np.float64),
        cards_left=np.zeros((games, 2), np.int64), played=np.zeros((games, 2), np.int64),
        score=np.zeros((games, 2), np.int64), uses=usage.new_counts(games, 2, len(USES)),
        progress=progress.new(games, 2))


@rule
def points_and_cards(s, rs, values):
    """Writes each seat's progress: its points (scoring "points"; else 0) minus the cards it
    holds in this hand (hand and draw pile)."""
    for seat in range(2):
        values[seat] = s.score[seat] - engine.cards_held(s, seat)


progress.register(State, points_and_cards)


RULES = loop.register(State, loop.Rules(
    start_game=engine.start_game, bots=bots, use_of=use_of, land=engine.land, stall=resolve_stall,
    end_round=engine.end_hand, record_game=record_game, over=over,
    stall_python=_resolve_stall_python, moving_card=_moving_card, round_end="hand_end"))
