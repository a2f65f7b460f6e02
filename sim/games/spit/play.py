"""Playing whole Spit games: Spit's part of the real-time loop (sim/games/spit/loop.py), and the results.

The loop is the real-time games' own; Spit gives it its rules, its bots and what a stall does
here: the lone spitter may have to choose its spit pile before both spit.
"""

from collections import namedtuple

import numpy as np

from sim import progress, usage
from sim.jit import rule, small_rule
from sim.games.spit import bots, engine, loop
from sim.games.spit.forbid import USES, use_of
from sim.games.spit.loop import play_games, play_python  # noqa: F401  (the game's loop: RealTimeGame.loop)
from sim.games.spit.state import DEAL, LONE_PILE, MOVES, OVER, STALLED, STALLS, WINNER, State


@small_rule
def resolve_stall(s, rs, c, families, params):
    """Handles a stall: deals a new layout or recycles spit cards if need be, lets a lone
    spitter choose its pile, spits. Gives whether the game ended as stalled."""
    status = engine.stall(s, rs, c)
    if status == engine.SPIT_NEXT:
        seat = engine.lone_spitter(s)
        if seat >= 0:
            s.g[LONE_PILE] = bots.choose_pile(s, rs, seat, families[seat], params[seat])
        engine.spit(s, rs)
    return status == engine.ENDED


def _resolve_stall_python(s, rs, c, families, params, python_seats):
    """resolve_stall, asking a lone spitter that a Python strategy plays for its pile."""
    status = engine.stall(s, rs, c)
    if status == engine.SPIT_NEXT:
        seat = engine.lone_spitter(s)
        if seat >= 0:
            player = python_seats.get(seat)
            s.g[LONE_PILE] = (bots.choose_pile(s, rs, seat, families[seat], params[seat])
                              if player is None else player.pile(seat))
        engine.spit(s, rs)
    return status == engine.ENDED


def _moving_card(s, c, seat) -> int:
    """Gives the top card of the stock pile `seat`'s planned move takes from (-1: empty)."""
    a = int(c.plan[seat, 1])
    return int(s.stock[seat, a, s.stock_n[seat, a] - 1]) if s.stock_n[seat, a] > 0 else -1


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


@small_rule
def over(s):
    """Gives whether the game has ended."""
    return s.g[OVER] != 0


Results = namedtuple("Results", ["winner", "stalled", "deals", "stalls", "moves", "seconds",
                                 "cards_left", "played", "uses", "progress"])


def new_results(games: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    return Results(
        winner=np.zeros(games, np.int64), stalled=np.zeros(games, np.int64),
        deals=np.zeros(games, np.int64), stalls=np.zeros(games, np.int64),
        moves=np.zeros(games, np.int64), seconds=np.zeros(games, np.float64),
        cards_left=np.zeros((games, 2), np.int64), played=np.zeros((games, 2), np.int64),
        uses=usage.new_counts(games, 2, len(USES)), progress=progress.new(games, 2))


@rule
def cards_to_go(s, rs, values):
    """Writes each seat's progress: minus the cards it owns (0: out of cards, the game won)."""
    for seat in range(2):
        values[seat] = -engine.cards_held(s, seat)


progress.register(State, cards_to_go)


RULES = loop.register(State, loop.Rules(
    start_game=engine.start_game, bots=bots, use_of=use_of, land=engine.land, stall=resolve_stall,
    end_round=engine.end_deal, record_game=record_game, over=over,
    stall_python=_resolve_stall_python, moving_card=_moving_card, round_end="deal_end"))
