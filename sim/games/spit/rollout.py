"""What the search family (sim/search.py) does alike in the real-time games, Spit and Speed:
the scratch their states carry, the candidates, the re-deal, the rollout and its score. Each
game's own pieces (sim/games/spit/search.py, sim/games/speed/search.py: what a rollout changes and how it is
scored) are built on these, and registered through `register`.

The search chooses which move the seat plans; when the move lands stays the seat's reaction
time, drawn as the loop schedules it. The candidates are every legal move, the default family's
first. A rollout plans the candidate as the loop would (due after a reaction time of the seat's),
then plays the race on as the loop does (sim/games/spit/loop.py), with the default family at both
seats (the searcher's parameters), every seat's bot stream, both reaction-time streams and the
coin restarted from the rollout's stream. It stops at the end of the deal or hand (or of the
game), or once `horizon` moves have landed (the search parameter each game adds: a short race
tells the candidates apart where a whole deal's adds mostly noise). The score: 1 for a game won,
0 for a game lost, 0.5 for a stalled one; when the game goes on, 0.5 plus half the seat's lead
(as a share of the cards both hold, or of the target score).
"""

import numpy as np
from numba.extending import overload

from sim import sampling, search
from sim.jit import rule, small_rule
from sim.games.spit import loop, race
from strategies.presets import DEFAULT, Parameter

MAX_PARAMETERS = 32  # room for a seat's parameter vector (every family's parameters)
HORIZON = len(search.PARAMETERS)  # the index of `horizon` among the search parameters


def horizon(moves: int) -> Parameter:
    """Gives the real-time games' own search parameter, `horizon`, by default `moves`."""
    return Parameter("horizon", float(moves), 0.0, 1000.0, "moves landed in a rollout "
                     "before it is scored by the card lead (0: to the deal's or hand's end)")


def scratch_arrays(move_fields: int) -> dict[str, np.ndarray]:
    """Gives the search's scratch fields of a real-time game's State: sim/search.py's, and the
    bot families and parameter rows of both seats in a rollout (search_families,
    search_params)."""
    return {**search.scratch_arrays(move_fields),
            "search_families": np.full(2, DEFAULT, np.int64),
            "search_params": np.zeros((2, MAX_PARAMETERS), np.float64)}


SCRATCH_FIELDS = ("search_saved", "search_moves", "search_value", "search_rng",
                  "search_families", "search_params")
"""The fields `scratch_arrays` gives, in a State's field order."""


@small_rule
def bot_stream(s, seat):
    """Gives the seat's own bot stream."""
    return s.bot_rng[seat]


# ---- the game's own pieces, found by the state's type ------------------------------------------
# (numba overloads, as in sim/search.py: a function passed as an argument would not be cached)

_SAMPLERS: dict[type, object] = {}


def register(state_class: type, *, sampler, saved, play_out) -> None:
    """Registers with sim/search.py the search pieces of a real-time game whose state is a
    `state_class`: the shared candidates, re-deal and bot stream, and the game's own `saved`
    and `play_out`. sampler: its information-set sampler (resample, resample_clock); its bots
    (legal_moves, SEARCH_AT) are those of the Rules the play loop has for the state."""
    _SAMPLERS[state_class] = sampler
    search.register(state_class, saved=saved, bot_stream=bot_stream, candidates=candidates,
                    resample=resample, play_out=play_out)


_OPTIONS = {"cache": True, "_nrt": False}


def _legal_moves(s, rs, seat):
    raise NotImplementedError  # jitted only: the game's legal_moves (writes s.moves, gives n)


@overload(_legal_moves, jit_options=_OPTIONS, inline="always")
def _legal_moves_of(s, rs, seat):
    f = loop.rules_of_type(s).bots.legal_moves
    return lambda s, rs, seat: f(s, rs, seat)


def _search_at(s):
    raise NotImplementedError  # jitted only: where the search's parameters start in a vector


@overload(_search_at, jit_options=_OPTIONS, inline="always")
def _search_at_of(s):
    at = loop.rules_of_type(s).bots.SEARCH_AT
    return lambda s: at


def _redeal(s, rs, seat, r):
    raise NotImplementedError  # jitted only: the game's sampler, the clock's streams included


@overload(_redeal, jit_options=_OPTIONS, inline="always")
def _redeal_of(s, rs, seat, r):
    sampler = _SAMPLERS[s.instance_class]
    hidden, clock = sampler.resample, sampler.resample_clock

    def redeal(s, rs, seat, r):
        hidden(s, rs, seat, r)
        clock(race.clock_of(s), r)
    return redeal


# ---- the shared pieces ------------------------------------------------------------------------

@rule
def candidates(s, rs, seat, params, moves):
    """Writes the default family's move, then the seat's other legal moves, into the rows of
    `moves`; gives how many (at most the search's `candidates` parameter)."""
    loop.builtin_choose(s, rs, seat, DEFAULT, params, moves[0])
    n = _legal_moves(s, rs, seat)
    cap = min(search.parameter(params, _search_at(s), search.CANDIDATES), moves.shape[0])
    k = 1
    for i in range(n):
        if k >= cap:
            break
        if s.moves[i, 0] != moves[0, 0] or s.moves[i, 1] != moves[0, 1] \
                or s.moves[i, 2] != moves[0, 2]:
            for f in range(moves.shape[1]):
                moves[k, f] = s.moves[i, f]
            k += 1
    return k


@rule
def resample(s, rs, seat, r):
    """Re-deals what `seat` cannot know, the clock's streams included (the game's sampler)."""
    _redeal(s, rs, seat, r)


@rule
def play_on(s, rs, seat, move, params, r):
    """Plans `move` for `seat` and plays the race on to the end of the deal or hand, or of the
    game, or to the horizon (see the module docstring); gives whether it stopped at the
    horizon, the race still on."""
    return _race_on(s, rs, race.clock_of(s), seat, move, params, r)


# The race is played in a function of its own that is given the clock: built from the state in
# the same function that races on it, the clock compiled (numba 0.68) to a race whose plans never
# landed (dropped again and again: the first rollout never ended).
@rule
def _race_on(s, rs, c, seat, move, params, r):
    """`play_on` on the clock `c` (the state's)."""
    sampling.redraw_streams(s.bot_rng, -1, r)
    race.restart_streams(c, r)
    families, rows = s.search_families, s.search_params
    for q in range(2):
        for i in range(params.shape[0]):
            rows[q, i] = params[i]
    for f in range(move.shape[0]):
        c.plan[seat, f] = move[f]
    race.schedule(c, seat)
    limit, landed = search.parameter(params, _search_at(s), HORIZON), 0
    while not loop.over(s):
        if landed == limit > 0:
            return True
        loop.plan_moves(s, rs, c, families, rows, None)
        q = race.next_due(c)
        if q < 0:
            loop.stall(s, rs, c, families, rows)
        else:
            done = loop.land(s, rs, c, q)
            if done == race.OUT:
                loop.end_round(s, rs, c)
                return False
            landed += done == race.PLAYED
    return False


@small_rule
def result(over, winner, seat, lead, scale):
    """Gives a rollout's score (see the module docstring): the game's result once `over`, else
    0.5 plus half the seat's lead as a share of `scale`."""
    if over:
        return 1.0 if winner == seat else 0.0 if winner >= 0 else 0.5
    return 0.5 + 0.5 * lead / max(scale, 1)
