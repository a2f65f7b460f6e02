"""Playing whole Saboteur games: one turn, the jitted loop for many games, and the results."""

from collections import namedtuple

import numpy as np

from sim import progress, search, usage
from sim.jit import rule, small_rule
from sim.games.saboteur import bots, engine
from sim.games.saboteur.cards import ROCKFALL, ROUNDS
from sim.games.saboteur.forbid import USES, use_of
from sim.games.saboteur.state import (
    DRAW_AT,
    FINDER,
    GAME_TURNS,
    MINER_ROUNDS,
    MINERS_WON,
    ROUND_TURNS,
    SABOTEURS,
    STAMP,
    THROUGH,
    TURN_SEAT,
    UNBELIEVED,
    State,
)
from strategies import bot_timeout

MINERS, SABOTEURS_TEAM = 0, 1  # the sides of the progress table: the teams, as roles number them


@rule
def teams_progress(s, rs, values):
    """Writes each team's progress through the round, each from 0 at its start to 1 at its
    win: the miners', the share of the way from the start card to the gold that the path has
    covered (its nearest open end's distance, averaged over the goals that may still hide the
    gold, against that distance from the start card); the saboteurs', the share of the cards
    played (the round is theirs when the deck and every hand run out)."""
    start = 0.0  # the start card's distance, as expected_distance counts it on an empty board
    for i in range(3):
        start += (abs(rs.goal_xy[i, 0]) + abs(rs.goal_xy[i, 1])) / 3
    # once the gold is reached the path's front no longer measures anything: the race is won
    values[MINERS] = 1.0 if s.g[MINERS_WON] else max(
        0.0, 1.0 - bots.expected_distance(s, rs, -1) / start)
    cards = s.deck.shape[0]
    left = cards - s.g[DRAW_AT]
    for seat in range(s.hand_n.shape[0]):
        left += s.hand_n[seat]
    values[SABOTEURS_TEAM] = 1.0 - left / cards


progress.register(State, teams_progress)


@small_rule
def turn(s, rs, seat, move, observed):
    """Plays `seat`'s move, lets the table observe it (when a bot at the table keeps the public
    record), draws; gives True when the round is over."""
    card = s.hand[seat, move[1]]
    before, cut_path = 0.0, False
    goals_before = (99, 99, 99)
    if observed:
        cell, reach, stamp = s.cell, s.reach, s.g[STAMP]
        if move[0] == engine.PLACE:
            before = bots.expected_distance(s, rs, -1)
            if bots.believed(s) and bots.looked(s, seat):
                goals_before = bots.goal_distances(s, rs)
        cut_path = move[0] == ROCKFALL and cell[move[3], move[2]] == THROUGH \
            and reach[move[3], move[2]] == stamp
    engine.apply_move(s, rs, seat, move)
    if observed:
        bots.observe(s, rs, seat, move, card, before, cut_path, goals_before)
    return engine.end_turn(s, rs)


@rule
def play_turn(s, rs, seat, move, observed):
    """`turn`, compiled once as a function of its own: what the loops call that need not have
    it inline, the Python driver's generator and the search's rollouts (numba inlines a
    small_rule by copying its code, and a generator or a rollout holding every rule so copied
    takes minutes to compile)."""
    return turn(s, rs, seat, move, observed)


@rule
def record_round(s, out, row, r):
    """Copies a finished round's outcome into the result arrays of game row `row`."""
    out.round_saboteurs[row, r] = s.g[SABOTEURS]
    out.round_miners_won[row, r] = s.g[MINERS_WON]
    out.round_finder[row, r] = s.g[FINDER]
    out.round_turns[row, r] = s.g[ROUND_TURNS]
    role, round_gold = s.role, s.round_gold
    for seat in range(role.shape[0]):
        out.round_role[row, r, seat] = role[seat]
        out.round_gold[row, r, seat] = round_gold[seat]


@rule
def record_game(s, out, row):
    """Copies a finished game's totals into the result arrays of game row `row`."""
    out.turns[row] = s.g[GAME_TURNS]
    out.miner_rounds[row] = s.g[MINER_ROUNDS]
    gold = s.gold
    for seat in range(gold.shape[0]):
        out.gold[row, seat] = gold[seat]
        out.rank[row, seat] = engine.rank(gold, seat)


@rule
def play_games(s, rs, families, params, seed, start, stop, fixed_saboteurs, out, searching):
    """Plays games [start, stop) with the jitted bots and fills `out` (row = game - start).

    families[role, seat], params[role, seat]: the bot a seat plays while it holds that role
    (MINER 0, SABOTEUR 1; both rows alike unless strategies go by role).

    searching: True when a seat searches, None when none does (sim/search.py: the loop is then
    compiled without the search). The table keeps the belief's records only where a bot reads
    them (bots.reads_belief; State g[UNBELIEVED])."""
    move = s.move
    rounds = rs.numbers[ROUNDS]
    observed = bots.keeps_record(families[0]) or bots.keeps_record(families[1])
    believed = bots.reads_belief(families[0], params[0]) or bots.reads_belief(families[1],
                                                                               params[1])
    for game in range(start, stop):
        row = game - start
        engine.start_game(s, rs, seed, game, fixed_saboteurs)
        s.g[UNBELIEVED] = not believed
        for r in range(rounds):
            if r > 0:
                engine.start_round(s, rs, r, engine.next_round_first_seat(s, rs))
            over = False
            while not over:
                seat = s.g[TURN_SEAT]
                role = s.role[seat]
                if searching is None:
                    bots.builtin_choose(s, rs, seat, families[role, seat], params[role, seat],
                                        move)
                else:
                    bots.choose(s, rs, seat, families[role, seat], params[role, seat], move)
                usage.tally(out.uses, row, seat, use_of(s, rs, seat, move))
                progress.step(out.progress, s, rs, role)
                over = turn(s, rs, seat, move, observed)
            progress.finish(out.progress, s, rs, row * rounds + r)
            engine.end_round(s, rs)
            record_round(s, out, row, r)
        record_game(s, out, row)


Results = namedtuple("Results", [
    "turns", "miner_rounds", "gold", "rank",
    "round_saboteurs", "round_miners_won", "round_finder", "round_turns", "round_role",
    "round_gold",
    "uses",  # int64[games, players, len(USES)]: moves of each kind (sim/usage.py)
    "progress",  # sim.progress.Recorder: each team's progress through each round (row:
                 # game row * rounds + round)
])


def new_results(games: int, players: int, rounds: int) -> Results:
    """Gives zeroed result arrays for `games` games."""
    return Results(
        turns=np.zeros(games, np.int64), miner_rounds=np.zeros(games, np.int64),
        gold=np.zeros((games, players), np.int64), rank=np.zeros((games, players), np.int64),
        round_saboteurs=np.zeros((games, rounds), np.int64),
        round_miners_won=np.zeros((games, rounds), np.int64),
        round_finder=np.zeros((games, rounds), np.int64),
        round_turns=np.zeros((games, rounds), np.int64),
        round_role=np.zeros((games, rounds, players), np.int64),
        round_gold=np.zeros((games, rounds, players), np.int64),
        uses=usage.new_counts(games, players, len(USES)),
        progress=progress.new(games * rounds, 2),
    )


# What python_steps stops for (its first yielded number).
DECIDE, ROUND, MOVE, ROUND_END = range(4)


@rule
def python_steps(s, rs, families, params, seed, game, fixed_saboteurs, out, row, python,
                 observed, believed, watched, searching, picked):
    """Plays one game as `play_games` does, stopping where Python has a part: yields
    (DECIDE, seat, r) when a seat with python[seat] set is to move, its legal moves listed in
    s.moves[:picked[0]] (Python writes the index of the one it plays into picked[0] before
    the next step) and, when `watched`, (ROUND, -1, r) as round r starts, (MOVE, seat, card)
    after each move and (ROUND_END, -1, r) after each round.

    A generator: its arguments are unboxed once per game, where calling the rules from Python
    unboxes the state's arrays at every call, several times a move. observed: whether the
    table keeps the suspicion; believed: the belief's records too; searching: as for
    `play_games`."""
    move = s.move
    engine.start_game(s, rs, seed, game, fixed_saboteurs)
    s.g[UNBELIEVED] = not believed
    for r in range(rs.numbers[ROUNDS]):
        if r > 0:
            engine.start_round(s, rs, r, engine.next_round_first_seat(s, rs))
        if watched:
            yield ROUND, -1, r
        over = False
        while not over:
            seat = s.g[TURN_SEAT]
            if python[seat]:
                picked[0] = engine.legal_moves(s, rs, seat)
                yield DECIDE, seat, r
                for k in range(move.shape[0]):  # a row's slice would need numba's allocator
                    move[k] = s.moves[picked[0], k]
            elif searching is None:
                bots.builtin_choose(s, rs, seat, families[s.role[seat], seat],
                                    params[s.role[seat], seat], move)
            else:
                bots.choose(s, rs, seat, families[s.role[seat], seat], params[s.role[seat], seat],
                            move)
            usage.tally(out.uses, row, seat, use_of(s, rs, seat, move))
            progress.step(out.progress, s, rs, s.role[seat])
            card = s.hand[seat, move[1]]
            over = play_turn(s, rs, seat, move, observed)
            if watched:
                yield MOVE, seat, card
        progress.finish(out.progress, s, rs, row * rs.numbers[ROUNDS] + r)
        engine.end_round(s, rs)
        record_round(s, out, row, r)
        if watched:
            yield ROUND_END, -1, r
    record_game(s, out, row)


def play_python(s, rs, families, params, seed, game, fixed_saboteurs, out, row=0,
                python_seats=None, watch=None):
    """Plays one game over the same jitted rules and bots as `play_games`, filling row `row`
    of `out`, with Python taking part: the Python driver, used by trace and by Python
    strategies.

    python_seats: {seat: player(seat, round_index, n)} for the seats Python strategies play;
    a player gives the index of its move among the seat's legal moves, s.moves[:n]. The other
    seats play their jitted bots.
    watch(event, ...), if given, is called at each step: ("round", r), ("move", seat, move,
    card) after each move, ("round_end", r).
    """
    python_seats = python_seats or {}
    python = np.array([seat in python_seats for seat in range(s.hand.shape[0])], np.int64)
    # A Python seat may ask a built-in bot what it would play (View.suggest): keep the records.
    observed = bots.keeps_record(families.ravel()) or bool(python_seats)
    believed = bots.reads_belief(families.ravel(), params.reshape(-1, params.shape[-1])) \
        or bool(python_seats)
    picked = np.zeros(1, np.int64)
    for event, seat, value in python_steps(s, rs, families, params, seed, game,
                                           fixed_saboteurs, out, row, python, observed,
                                           believed, watch is not None, search.searching(families),
                                           picked):
        if event == DECIDE:
            picked[0] = python_seats[seat](seat, value, picked[0])
        elif event == MOVE:
            watch("move", seat, s.move.copy(), value)
        else:
            watch("round" if event == ROUND else "round_end", value)
    bot_timeout.rest()
