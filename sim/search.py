"""The `search` bot family's shared part: determinized Monte Carlo search on a jitted engine.

At a decision the game lists a few candidate moves (its `default` policy's best ones). Then,
`determinizations` times, the game's information-set sampler re-deals on the state itself
everything the seat cannot know, from a stream drawn from the seat's own bot stream; in each
such world every candidate is played and the game rolled on `rollouts` times with the rollout
policy (the `default` family, with the searcher's parameters, at every seat), and scored for
the seat. The candidate with the best mean score is chosen (the first listed on a tie). The
search plays on the real state and puts it back before every rollout and at the end, from a
copy saved once per decision into a buffer the state carries: nothing is allocated per
decision. Every candidate meets the same worlds and the same rollout streams (common random
numbers), so their means differ by what the candidates do, not by luck of the draw.

It never reads hidden information: every rollout starts from a re-dealt world, and the
re-deal is a function of what the seat knows and the stream alone, provided the sampler
shuffles hidden things from an order that does not depend on the real deal (`sim.sampling`
sorts what it shuffles for that reason). Then a state re-dealt before the decision gives the
same worlds, the same rollouts and the same move.

How a game plugs in
-------------------
1. Its state `s` (the named tuple of arrays its bots are given) carries the four scratch
   fields `scratch_arrays` makes (`search_saved`, `search_moves`, `search_value`,
   `search_rng`); `search_saved` is sized by `saved_buffer(state)` once the state is built.
2. It registers its state class with its pieces, all jitted (`register(State, ...)`); the
   two giving arrays are inlined (`small_rule`: without reference counting, a jitted function
   returns no array it did not receive):
     saved(s)              -> the tuple of the state's arrays a rollout may change (copied
                              and put back; fixed tables and pure scratch may be left out);
     bot_stream(s, seat)   -> the seat's own bot stream (a uint64[1]);
     candidates(s, rs, seat, params, moves) -> n: writes n >= 1 candidate moves into the rows
                              of `moves` (at most moves.shape[0]; from what the seat knows);
     resample(s, rs, seat, r): the game's sampler (sim/games/<game>/sampler.py);
     play_out(s, rs, seat, move, params, r) -> float: plays `move` for `seat`, then the game
                              on to the end of the round (or a horizon) with the built-in
                              non-search bots, every seat's bot stream restarted from `r`, and
                              gives the seat's score (higher is better).
   A game keeps these in sim/games/<game>/search.py, which registers them when imported; the
   game's package (sim/games/<game>/__init__.py) imports it, so they are known before any compile.
3. Its bots' `choose(s, rs, seat, family, params, out)` calls `decide(s, rs, seat, params,
   first, out)` for the search family (the family code is its index in the game's FAMILIES,
   2; params[first:] are the search parameters), which writes the chosen move into `out`.
   The rollouts call the game's built-in bots (`builtin_choose`), never `choose` with the
   search family: a search does not recurse.
4. Its families and presets take `family(...)` and `PRESETS` (or presets of its own budgets
   through `preset(...)`); the search parameters follow the default family's in the vector.
5. Its play loops take a `searching` argument (`searching(families)`: True or None) and call
   `builtin_choose` where it is None, `choose` otherwise; its `compile(rules, setups)` plays
   a search seat only when `has_search_seat` says a setup has one.

Why a run without a search seat does not compile the search: the search inlines a second game
loop (the rollouts) and the sampler into every decision, which makes the engine's cold compile,
paid once per install and by every change of an engine's source, several times longer. numba
prunes a branch on `argument is None` before it types the function, so a loop compiled for
`searching=None` holds no search, and one for True holds it: one copy of the loop, compiled
(and cached) once for each.

Why the pieces are found by the state's type (numba overloads) rather than passed as
functions: numba types a jitted function passed as an argument by the function object
itself, so every caller that passes one cannot be cached ("uses dynamic globals"), and a
function made by a factory closing over the pieces is cached under a key that changes with
every Python session (numba issues #2956, #6264: a fresh compile each run). An overload is
resolved while its caller compiles, and the caller caches like any other engine function.
"""

from __future__ import annotations

import numpy as np
from numba import literal_unroll
from numba.extending import overload

from sim import rng
from sim.jit import rule, small_rule
from strategies import seats
from strategies.presets import SEARCH, Family, Parameter, user_presets

MAX_CANDIDATES = 16

PARAMETERS = (
    Parameter("rollouts", 4.0, 1.0, 256.0, "rollouts per candidate move and determinization"),
    Parameter("determinizations", 2.0, 1.0, 64.0,
              "re-deals of what the seat cannot know per decision"),
    Parameter("candidates", 3.0, 1.0, float(MAX_CANDIDATES),
              "moves searched: the default policy's best ones"),
)
ROLLOUTS, DETERMINIZATIONS, CANDIDATES = range(len(PARAMETERS))


def family(default_parameters: tuple[Parameter, ...],
           own: tuple[Parameter, ...] = ()) -> Family:
    """Gives the search family of a game whose default family takes `default_parameters`
    (they define the rollout policy, so the search family takes them too, first), then
    PARAMETERS, then the game's `own` search parameters."""
    return Family("search", "determinized Monte Carlo search: the default policy's best "
                  "moves, each rolled out in re-deals of what the seat cannot know",
                  default_parameters + PARAMETERS + own)


def preset(rollouts: int, determinizations: int, candidates: int) -> dict:
    """Gives a preset of the search family with this budget."""
    return {"family": "search", "rollouts": float(rollouts),
            "determinizations": float(determinizations), "candidates": float(candidates)}


PRESETS = {
    "search-fast": preset(2, 1, 3),
    "search": preset(4, 2, 3),
    "search-strong": preset(8, 4, 4),
}
"""The budgets every game offers unless it sets its own."""


def searching(families: np.ndarray) -> bool | None:
    """Gives a play loop's `searching` argument: True when a seat plays the search family,
    None when none does (the loop is then compiled without the search)."""
    return True if (families == SEARCH).any() else None


def has_search_seat(resolve, rules: dict, setups) -> bool:
    """Gives whether a seat of one of `setups` plays the search family; `resolve` is the
    game's strategy resolver (sim/games/<game>/bots.py)."""
    presets = user_presets(rules)
    return any(resolve(seat.base, presets)[0] == SEARCH
               for setup in setups
               for seat in map(seats.parse, (*setup.seats, *(name for _, name in setup.roles if name)))
               if not seats.is_python(seat.base))


@small_rule
def parameter(params, first, which):
    """Gives search parameter `which` (ROLLOUTS, ...) of a vector whose search parameters
    start at index `first`, as a whole number."""
    return np.int64(params[first + which])


# ---- the state's scratch ----------------------------------------------------------------------

def scratch_arrays(move_fields: int) -> dict[str, np.ndarray]:
    """Gives the search's scratch fields of a state (search_saved still empty: see
    `saved_buffer`)."""
    return {
        "search_saved": np.zeros(0, np.uint8),  # the state as it was at the decision
        "search_moves": np.zeros((MAX_CANDIDATES, move_fields), np.int64),  # the candidates
        "search_value": np.zeros(MAX_CANDIDATES, np.float64),  # each candidate's total score
        "search_rng": np.zeros(1, np.uint64),  # the stream of the world or rollout played
    }


def saved_buffer(state) -> np.ndarray:
    """Gives a buffer that holds a copy of every array of `state` (each padded to 8 bytes)."""
    return np.zeros(sum((a.nbytes + 7) // 8 * 8 for a in state), np.uint8)


@rule
def save(buffer, arrays):
    """Copies every array of the tuple `arrays` into `buffer`, one after the other."""
    at = 0
    for a in literal_unroll(arrays):
        flat = a.reshape(-1)
        # A typed view of the buffer copies whole elements: bytes one by one would be ~8x slower.
        copy = buffer[at:at + a.nbytes].view(a.dtype)
        for i in range(flat.shape[0]):
            copy[i] = flat[i]
        at += (a.nbytes + 7) // 8 * 8


@rule
def restore(buffer, arrays):
    """Copies `buffer`, as `save` filled it, back into the arrays of the tuple `arrays`."""
    at = 0
    for a in literal_unroll(arrays):
        flat = a.reshape(-1)
        copy = buffer[at:at + a.nbytes].view(a.dtype)
        for i in range(flat.shape[0]):
            flat[i] = copy[i]
        at += (a.nbytes + 7) // 8 * 8


# ---- the games' pieces, found by the state's type ---------------------------------------------

_GAMES: dict[type, dict] = {}


def register(state_class: type, *, saved, bot_stream, candidates, resample, play_out) -> None:
    """Makes `decide` play a game whose state is a `state_class` (see the module docstring)."""
    _GAMES[state_class] = dict(saved=saved, bot_stream=bot_stream, candidates=candidates,
                               resample=resample, play_out=play_out)


def _piece(state_type, name):
    """Gives the registered piece `name` of the game whose state has numba type `state_type`."""
    game = _GAMES.get(getattr(state_type, "instance_class", None))
    if game is None:
        return None
    return game[name]


_OPTIONS = {"cache": True, "_nrt": False}


def _save(s):
    raise NotImplementedError  # jitted only: copies the game's saved arrays into the buffer


@overload(_save, jit_options=_OPTIONS, inline="always")
def _save_of(s):
    piece = _piece(s, "saved")
    if piece is not None:
        return lambda s: save(s.search_saved, piece(s))


def _restore(s):
    raise NotImplementedError


@overload(_restore, jit_options=_OPTIONS, inline="always")
def _restore_of(s):
    piece = _piece(s, "saved")
    if piece is not None:
        return lambda s: restore(s.search_saved, piece(s))


def _draw_seed(s, seat):
    raise NotImplementedError  # jitted only: the next 64 bits of the seat's own bot stream


@overload(_draw_seed, jit_options=_OPTIONS, inline="always")
def _draw_seed_of(s, seat):
    piece = _piece(s, "bot_stream")
    if piece is not None:
        return lambda s, seat: rng.next_u64(piece(s, seat))


def _candidates(s, rs, seat, params, moves):
    raise NotImplementedError


@overload(_candidates, jit_options=_OPTIONS, inline="always")
def _candidates_of(s, rs, seat, params, moves):
    piece = _piece(s, "candidates")
    if piece is not None:
        return lambda s, rs, seat, params, moves: piece(s, rs, seat, params, moves)


def _resample(s, rs, seat, r):
    raise NotImplementedError


@overload(_resample, jit_options=_OPTIONS, inline="always")
def _resample_of(s, rs, seat, r):
    piece = _piece(s, "resample")
    if piece is not None:
        return lambda s, rs, seat, r: piece(s, rs, seat, r)


def _play_out(s, rs, seat, move, params, r):
    raise NotImplementedError


@overload(_play_out, jit_options=_OPTIONS, inline="always")
def _play_out_of(s, rs, seat, move, params, r):
    piece = _piece(s, "play_out")
    if piece is not None:
        return lambda s, rs, seat, move, params, r: piece(s, rs, seat, move, params, r)


# ---- the search -------------------------------------------------------------------------------

WORLD, ROLLOUT = 0, 1  # what a stream drawn for the search is for (rng.start's stream id base)


@rule
def decide(s, rs, seat, params, first, out):
    """Writes into `out` the candidate move with the best mean rollout score (see the module
    docstring); a single candidate is played without searching. The search parameters are
    params[first:]."""
    rollouts = parameter(params, first, ROLLOUTS)
    determinizations = parameter(params, first, DETERMINIZATIONS)
    moves, value, r = s.search_moves, s.search_value, s.search_rng
    n = _candidates(s, rs, seat, params, moves)
    if n > 1:
        # One draw from the seat's own stream seeds every world and rollout of this decision,
        # so the decision depends on that stream and on what the seat knows, nothing else.
        seed = _draw_seed(s, seat)
        _save(s)
        for c in range(n):
            value[c] = 0.0
        for d in range(determinizations):
            for c in range(n):
                for k in range(rollouts):
                    _restore(s)
                    rng.start(r, seed, d, WORLD)
                    _resample(s, rs, seat, r)
                    rng.start(r, seed, d, ROLLOUT + k)
                    value[c] += _play_out(s, rs, seat, moves[c], params, r)
        _restore(s)
        best = 0
        for c in range(1, n):
            if value[c] > value[best]:
                best = c
    else:
        best = 0
    for f in range(out.shape[0]):
        out[f] = moves[best, f]
