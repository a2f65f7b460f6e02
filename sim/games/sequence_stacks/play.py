"""Playing whole Sequence Stacks games: the jitted loop for many games, the Python driver for
one (traces, Python strategies), and the result arrays both fill."""

from collections import namedtuple

import numpy as np

from sim import progress, search, usage
from sim.jit import rule
from sim.turns import AFTER, DECIDE, MOVE, START, drive, python_flags
from sim.games.sequence_stacks import bots, engine
from sim.games.sequence_stacks.cards import TO_WIN
from sim.games.sequence_stacks.cards import ACTIONS
from sim.games.sequence_stacks.forbid import USES, use_of
from sim.games.sequence_stacks.state import (
    ACTIONS_PLAYED,
    CHIPS,
    COMPLETED,
    N_ACTIONS,
    OVER,
    RESHUFFLES,
    SEQUENCES_BLOCKED,
    TURNS,
    WINNER,
    State,
)
from sim.games.sequence_stacks.search import missing


@rule
def chips_toward_win(s, rs, values):
    """Writes each seat's progress: the chips that count toward its win (the chips to win
    less those it still lacks, the colours' minimum counted)."""
    for seat in range(values.shape[0]):
        values[seat] = rs.numbers[TO_WIN] - missing(s.m, rs, seat)


progress.register(State, chips_toward_win)


@rule
def record_game(m, out, row):
    """Copies a finished game's outcome into the result arrays of game row `row`."""
    out.winner[row] = m[WINNER]
    out.turns[row] = m[TURNS]
    out.reshuffles[row] = m[RESHUFFLES]
    out.blocked[row] = m[SEQUENCES_BLOCKED]
    for seat in range(out.chips.shape[1]):
        out.chips[row, seat, 0] = m[CHIPS + 2 * seat]
        out.chips[row, seat, 1] = m[CHIPS + 2 * seat + 1]
        out.completed[row, seat] = m[COMPLETED + seat]
        for k in range(N_ACTIONS):
            out.actions[row, seat, k] = m[ACTIONS_PLAYED + seat * N_ACTIONS + k]


@rule
def play_games(s, rs, families, params, seed, start, stop, out, searching):
    """Plays games [start, stop) with the jitted bots and fills `out` (row = game - start).

    searching: True when a seat searches, None when none does (sim/search.py: the loop is then
    compiled without the search)."""
    m, rngs, move = s.m, s.rngs, s.move
    for game in range(start, stop):
        engine.start_game(m, rngs, rs, seed, game)
        while m[OVER] == 0:
            seat = engine.to_move(m)
            if searching is None:
                bots.builtin_choose(s, rs, seat, families[seat], params[seat], move)
            else:
                bots.choose(s, rs, seat, families[seat], params[seat], move)
            usage.tally(out.uses, game - start, seat, use_of(move))
            progress.step(out.progress, s, rs, seat)
            engine.apply_move(m, rngs, rs, seat, move)
        progress.finish(out.progress, s, rs, game - start)
        record_game(m, out, game - start)


Results = namedtuple("Results", [
    "winner",     # int64[games]: the winning seat, -1 when stalled
    "turns",      # int64[games]
    "reshuffles", # int64[games]: times the removed piles became the draw pile
    "blocked",    # int64[games]: completed sequences that were blocked
    "chips",      # int64[games, players, 2]: red and blue chips held at the end
    "completed",  # int64[games, players]: sequences completed (blocked ones included)
    "actions",    # int64[games, players, 5]: action cards played, by type (cards.ACTIONS)
    "uses",       # int64[games, players, len(USES)]: moves of each kind (sim/usage.py)
    "progress",   # sim.progress.Recorder: each seat's chips toward the win through the game
])


def new_results(games: int, players: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    return Results(
        winner=np.zeros(games, np.int64), turns=np.zeros(games, np.int64),
        reshuffles=np.zeros(games, np.int64), blocked=np.zeros(games, np.int64),
        chips=np.zeros((games, players, 2), np.int64), completed=np.zeros((games, players), np.int64),
        actions=np.zeros((games, players, len(ACTIONS)), np.int64),
        uses=usage.new_counts(games, players, len(USES)),
        progress=progress.new(games, players),
    )


@rule
def python_steps(s, rs, families, params, seed, game, out, row, python, watched, searching):
    """Plays one game as `play_games` does, stopping where Python has a part (sim/turns.py's
    `drive` runs it): yields (DECIDE, seat) when a seat with python[seat] set is to decide
    (Python writes its move into s.move before the next step) and, when `watched`, (START, -1)
    once dealt, (MOVE, seat) before each move is applied and (AFTER, seat) after it.

    A generator: its arguments are unboxed once per game, where calling the rules from Python
    unboxes them at every call, several times a move. searching: as for `play_games`."""
    m, rngs, move = s.m, s.rngs, s.move
    engine.start_game(m, rngs, rs, seed, game)
    if watched:
        yield START, -1
    while m[OVER] == 0:
        seat = engine.to_move(m)
        if python[seat]:
            yield DECIDE, seat
        elif searching is None:
            bots.builtin_choose(s, rs, seat, families[seat], params[seat], move)
        else:
            bots.choose(s, rs, seat, families[seat], params[seat], move)
        usage.tally(out.uses, row, seat, use_of(move))
        progress.step(out.progress, s, rs, seat)
        if watched:
            yield MOVE, seat
        engine.apply_move(m, rngs, rs, seat, move)
        if watched:
            yield AFTER, seat
    progress.finish(out.progress, s, rs, row)
    record_game(m, out, row)


def play_python(s, rs, families, params, seed, game, out, row=0, python_seats=None,
                watch=None):
    """Plays one game over the same jitted rules and bots as `play_games`, filling row `row`
    of `out`, with Python taking part: the Python driver, used by trace and by Python
    strategies.

    python_seats: {seat: player(seat)} for the seats Python strategies play (also asked,
    out of turn, whether to Block); a player writes its move into s.move. The other seats play
    their jitted bots. watch: as for sim/turns.py's `drive`.
    """
    python = python_flags(python_seats, len(families))
    drive(python_steps(s, rs, families, params, seed, game, out, row, python, watch is not None,
                       search.searching(families)), python_seats, s.move, watch)
