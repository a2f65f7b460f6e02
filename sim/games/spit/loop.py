"""The play loop of the real-time games (Spit, Speed), written once: the race step by step, the
jitted loop for many games, and the Python driver over the same jitted functions.

One step of the race: every seat without a planned move lets its bot plan one (which move) and
the clock schedule it (when); then the earliest planned move lands. When nobody can move, the
table stalls. When a move was a seat's last card, the deal (Spit) or hand (Speed) ends.
`play_games` and `play_python` take exactly these steps.

A game plugs in by registering its `Rules` (its own few functions) under its State class. The
jitted loop calls them through the hooks below, which numba resolves from the state's type when
it compiles the loop (numba.extending.overload): each game gets its own compiled loop with its
functions inlined, and that loop is cached on disk like any rule, since its key is made of plain
types. Passing the functions as arguments instead compiles too, but numba keys a cached function
by its arguments' types, and a function's type names the function object of one process: every
new process would compile the loop again (measured with numba 0.68, NUMBA_DEBUG_CACHE=1).
numba checks a cached function against its own file only; `sim/jit.py` keys the whole cache by
the engines' source, so a change to a game's rules compiles the loop again.
"""

from collections import namedtuple

import numpy as np
from numba.extending import overload

from sim import progress, search, usage
from sim.jit import rule, small_rule
from sim.games.spit import race
from strategies import bot_timeout

Rules = namedtuple("Rules", [
    # jitted, called by both loops
    "start_game",   # (s, rs, c, seed, game): sets up a game and deals
    "bots",         # the game's strategies module: choose(s, rs, seat, family, params, plan)
                    # -> bool, the seat's bot plans a move, and builtin_choose, the same for
                    # every family but search
    "use_of",       # (s, rs, c, seat) -> the kinds (bits, the game's forbid.USES) of the
                    # seat's planned move, before it lands
    "land",         # (s, rs, c, seat) -> race.DROPPED, PLAYED, OUT or CAPPED
    "stall",        # (s, rs, c, families, params) -> bool: resolves a stall; True: game over
    "end_round",    # (s, rs, c) -> bool: ends the deal or hand a seat went out of; True: over
    "record_game",  # (s, c, out, row): copies a finished game into row `row` of the results
    "over",         # (s) -> bool: the game has ended
    # Python, for the Python driver
    "stall_python",  # (s, rs, c, families, params, python_seats) -> bool: `stall`, asking
                     # Python seats for the decisions a stall may need of them
    "moving_card",   # (s, c, seat) -> int: the card the seat's planned move would move
    "round_end",     # the name of the event reported when a deal or hand ends
])

_RULES = {}


def register(state_class, rules: Rules) -> Rules:
    """Makes `rules` what the loop plays games whose state is a `state_class`; gives them."""
    _RULES[state_class] = rules
    return rules


def rules_of(s) -> Rules:
    """Gives the Rules registered for the class of state `s`."""
    return _RULES[type(s)]


def rules_of_type(state_type) -> Rules:
    """Gives the Rules registered for the state class of numba type `state_type`."""
    return _RULES[state_type.instance_class]


# The hooks: in Python they call the state's Rules; in jitted code numba inlines the Rules'
# function for the state's type.
_HOOK = {"inline": "always", "jit_options": {"_nrt": False}}


def start_game(s, rs, c, seed, game):
    """Sets up game `game` of a run seeded `seed` (Rules.start_game)."""
    return rules_of(s).start_game(s, rs, c, seed, game)


@overload(start_game, **_HOOK)
def _start_game(s, rs, c, seed, game):
    f = rules_of_type(s).start_game
    return lambda s, rs, c, seed, game: f(s, rs, c, seed, game)


def choose(s, rs, seat, family, params, plan):
    """Lets `seat`'s bot write its move into plan; gives False when it has none (Rules.bots)."""
    return rules_of(s).bots.choose(s, rs, seat, family, params, plan)


@overload(choose, **_HOOK)
def _choose(s, rs, seat, family, params, plan):
    f = rules_of_type(s).bots.choose
    return lambda s, rs, seat, family, params, plan: f(s, rs, seat, family, params, plan)


def builtin_choose(s, rs, seat, family, params, plan):
    """`choose` for every family but search, which never recurses (Rules.bots.builtin_choose)."""
    return rules_of(s).bots.builtin_choose(s, rs, seat, family, params, plan)


@overload(builtin_choose, **_HOOK)
def _builtin_choose(s, rs, seat, family, params, plan):
    f = rules_of_type(s).bots.builtin_choose
    return lambda s, rs, seat, family, params, plan: f(s, rs, seat, family, params, plan)


def use_of(s, rs, c, seat):
    """Gives the kinds of `seat`'s planned move (Rules.use_of)."""
    return rules_of(s).use_of(s, rs, c, seat)


@overload(use_of, **_HOOK)
def _use_of(s, rs, c, seat):
    f = rules_of_type(s).use_of
    return lambda s, rs, c, seat: f(s, rs, c, seat)


def land(s, rs, c, seat):
    """Lands `seat`'s planned move; gives what that did (Rules.land)."""
    return rules_of(s).land(s, rs, c, seat)


@overload(land, **_HOOK)
def _land(s, rs, c, seat):
    f = rules_of_type(s).land
    return lambda s, rs, c, seat: f(s, rs, c, seat)


def stall(s, rs, c, families, params):
    """Resolves a stall; gives whether the game ended as stalled (Rules.stall)."""
    return rules_of(s).stall(s, rs, c, families, params)


@overload(stall, **_HOOK)
def _stall(s, rs, c, families, params):
    f = rules_of_type(s).stall
    return lambda s, rs, c, families, params: f(s, rs, c, families, params)


def end_round(s, rs, c):
    """Ends the deal or hand a seat went out of; gives whether the game is over (Rules.end_round)."""
    return rules_of(s).end_round(s, rs, c)


@overload(end_round, **_HOOK)
def _end_round(s, rs, c):
    f = rules_of_type(s).end_round
    return lambda s, rs, c: f(s, rs, c)


def record_game(s, c, out, row):
    """Copies a finished game's outcome into row `row` of the results (Rules.record_game)."""
    return rules_of(s).record_game(s, c, out, row)


@overload(record_game, **_HOOK)
def _record_game(s, c, out, row):
    f = rules_of_type(s).record_game
    return lambda s, c, out, row: f(s, c, out, row)


def over(s):
    """Gives whether the game has ended (Rules.over)."""
    return rules_of(s).over(s)


@overload(over, **_HOOK)
def _over(s):
    f = rules_of_type(s).over
    return lambda s: f(s)


# The planner branches on the bot's answer in place: passing a call of the `choose` hook as an
# argument to another inlined helper compiled (numba 0.68) to a loop that neither scheduled
# the move nor made the seat idle, so every game stalled without a move.
@small_rule
def plan_moves(s, rs, c, families, params, searching):
    """Lets every seat without a planned move plan one, due after its reaction time; a seat
    that finds none is idle until a centre pile changes. searching: None plans with the
    built-in bots alone (no seat searches, or a search's rollouts: numba prunes the search)."""
    for seat in range(2):
        if not c.pending[seat] and not s.idle[seat]:
            if searching is None:
                chosen = builtin_choose(s, rs, seat, families[seat], params[seat], c.plan[seat])
            else:
                chosen = choose(s, rs, seat, families[seat], params[seat], c.plan[seat])
            if chosen:
                race.schedule(c, seat)
            else:
                s.idle[seat] = 1


@small_rule
def landed(s, rs, c, seat, uses, row):
    """Lands `seat`'s planned move and counts its kinds in uses[row, seat] if it was played;
    gives what landing did (Rules.land)."""
    kinds = use_of(s, rs, c, seat)
    status = land(s, rs, c, seat)
    if status != race.DROPPED:
        usage.tally(uses, row, seat, kinds)
    return status


@rule
def play_games(s, rs, c, families, params, seed, start, stop, out, searching):
    """Plays games [start, stop) with the jitted bots and fills `out` (row = game - start).

    searching: True when a seat searches, None when none does (sim/search.py: the loop is then
    compiled without the search)."""
    for game in range(start, stop):
        start_game(s, rs, c, seed, game)
        while not over(s):
            plan_moves(s, rs, c, families, params, searching)
            seat = race.next_due(c)
            if seat < 0:
                stall(s, rs, c, families, params)
                continue
            progress.step(out.progress, s, rs, seat)
            if landed(s, rs, c, seat, out.uses, game - start) == race.OUT:
                end_round(s, rs, c)
        progress.finish(out.progress, s, rs, game - start)
        record_game(s, c, out, game - start)


# What python_steps stops for (its first yielded number).
PLAN, PLANNED, STALL, LANDING, LANDED, DEAL, ROUND_END = range(7)


@rule
def python_steps(s, rs, c, families, params, seed, game, out, row, python, planned, watched,
                 searching):
    """Plays one game as `play_games` does, stopping where Python has a part: yields
    (PLAN, seat, 0) when a seat with python[seat] set is to plan a move (Python plans it into
    c.plan[seat] and sets planned[0] to 1, or to 0 when it has none) and (STALL, -1, 0) when
    nobody can move (Python resolves the stall: it may ask a Python seat). When `watched`, also
    (DEAL, -1, 0) when cards are dealt, (PLANNED, seat, 0) when a seat plans a move,
    (LANDING, seat, 0) before a planned move lands, (LANDED, seat, status) after, and
    (ROUND_END, -1, over) after a deal or hand ends (over: 1 when the game is over).

    A generator: its arguments are unboxed once per game, where calling the rules from Python
    unboxes them at every call, several times a move. searching: as for `play_games`."""
    start_game(s, rs, c, seed, game)
    if watched:
        yield DEAL, -1, 0
    while not over(s):
        for seat in range(2):
            if not c.pending[seat] and not s.idle[seat]:
                if python[seat]:
                    yield PLAN, seat, 0
                    chosen = planned[0] != 0
                elif searching is None:
                    chosen = builtin_choose(s, rs, seat, families[seat], params[seat],
                                            c.plan[seat])
                else:
                    chosen = choose(s, rs, seat, families[seat], params[seat], c.plan[seat])
                if chosen:
                    race.schedule(c, seat)
                    if watched:
                        yield PLANNED, seat, 0
                else:
                    s.idle[seat] = 1
        seat = race.next_due(c)
        if seat < 0:
            yield STALL, -1, 0
            continue
        progress.step(out.progress, s, rs, seat)
        if watched:
            yield LANDING, seat, 0
        status = landed(s, rs, c, seat, out.uses, row)
        if watched:
            yield LANDED, seat, status
        if status == race.OUT:
            ended = end_round(s, rs, c)
            if watched:
                yield ROUND_END, -1, 1 if ended else 0
                if not ended:
                    yield DEAL, -1, 0
    progress.finish(out.progress, s, rs, row)
    record_game(s, c, out, row)


def play_python(s, rs, c, families, params, seed, game, out, row=0, python_seats=None,
                watch=None):
    """Plays one game over the same jitted rules and bots as `play_games`, filling row `row`
    of `out`, with Python taking part: the Python driver, used by trace and by Python
    strategies.

    python_seats: {seat: player} for the seats Python strategies play (the game's view.py):
    player(seat) -> bool plans the seat's move into c.plan[seat] (False: it has none); the
    other seats play their jitted bots. Either way the clock alone decides when a planned move
    lands. watch(event, ...), if given, is called at each step: ("deal",) when cards are dealt;
    ("plan", seat) when a seat plans a move; ("land", seat, status, card) when a planned move
    lands (status: race.DROPPED, PLAYED, OUT, CAPPED; card: the card moved); ("stall", over)
    after a stall is resolved; (Rules.round_end, over) after a deal or hand ends.
    """
    rules = rules_of(s)
    python_seats = python_seats or {}
    python = np.array([seat in python_seats for seat in range(2)], np.int64)
    planned = np.zeros(1, np.int64)
    for event, seat, value in python_steps(s, rs, c, families, params, race.seed_bits(seed),
                                           game, out, row, python, planned, watch is not None,
                                           search.searching(families)):
        if event == PLAN:
            planned[0] = python_seats[seat](seat)
        elif event == STALL:
            ended = rules.stall_python(s, rs, c, families, params, python_seats)
            if watch:
                watch("stall", ended)
        elif event == PLANNED:
            watch("plan", seat)
        elif event == LANDING:
            card = rules.moving_card(s, c, seat)
        elif event == LANDED:
            watch("land", seat, value, card)
        elif event == DEAL:
            watch("deal")
        else:
            watch(rules.round_end, bool(value))
    bot_timeout.rest()
