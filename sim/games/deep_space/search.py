"""Deep Space's pieces of the search family (sim/search.py), registered for its State.

The candidates are the moves of the phase the seat decides in: the default family's move
first, then the other legal moves, the moves that are not squad moves before the squad moves
and the attacks (squad moves onto a planet another colour holds) before the other squad moves,
and of the squad moves only the sizes that differ in kind (one recruit, all of them with all
their dogs, just enough for a base where they go, all but one), up to `candidates`. A rollout
plays the candidate, then the race on with the default family (the searcher's parameters) at
every seat for HORIZON rounds, every seat's bot stream and the combat dice restarted from the
rollout's stream; the draw pile stays as the world re-dealt it. The score is the race: 1 when
the seat has won it, 0 when another colour has; at the horizon, 0.5 plus half the seat's lead in
bases over the best other colour, as a share of the bases that win.
"""

from sim import rng, sampling, search
from sim.games.deep_space import bots, engine, sampler
from sim.games.deep_space.engine import MOVE
from sim.games.deep_space.ruleset import BASE_RECRUITS
from sim.games.deep_space.state import OVER, PLAYERS, TURN_SEAT, TURNS, WINNER, State
from sim.jit import rule, small_rule

HORIZON = 2  # rounds a rollout plays on: as strong as 4 in 200 paired games, twice as fast


@small_rule
def saved(s):
    """Gives the arrays a rollout changes: all but the rule-fixed and the scratch ones."""
    return (s.g, s.units, s.base, s.dogs, s.supply, s.gems, s.ore, s.bases, s.base_turn, s.hand,
            s.hand_n, s.deck, s.discard, s.lost, s.won_fights, s.lost_fights, s.gems_mined,
            s.ore_mined, s.played, s.uses, s.site_dist, s.deal_rng, s.dice_rng, s.bot_rng)


@small_rule
def bot_stream(s, seat):
    """Gives the seat's own bot stream."""
    return s.bot_rng[seat]


@small_rule
def _distinct(s, rs, seat, i):
    """Gives whether legal move i (in s.moves) is worth searching: a squad move only with no
    dogs or all of them, and of one recruit, all of them, just enough for a base where it goes,
    or all but one (the other sizes play much like these)."""
    m = s.moves
    if m[i, 0] != MOVE:
        return True
    a, b, k, d = m[i, 1], m[i, 2], m[i, 3], m[i, 4]
    u = s.units[seat, a]
    if k == u:
        return True
    if d != 0 and d != s.dogs[seat, a]:
        return False
    return k == 1 or k == u - 1 or k == rs.numbers[BASE_RECRUITS] - s.units[seat, b]


@small_rule
def _same(moves, c, move):
    for f in range(move.shape[0]):
        if moves[c, f] != move[f]:
            return False
    return True


@rule
def candidates(s, rs, seat, params, moves):
    """Writes the default family's move and then the other legal moves worth searching (see
    the module docstring) into the rows of `moves`; gives how many (at most `candidates`)."""
    bots.default_move(s, rs, seat, params, s.move)
    for f in range(moves.shape[1]):
        moves[0, f] = s.move[f]
    cap = min(search.parameter(params, bots.SEARCH_AT, search.CANDIDATES), moves.shape[0])
    n = engine.legal_moves(s, rs, seat)
    k = 1
    # the other actions first: they are few, the squad moves many; of the squad moves the
    # attacks before the rest, which would otherwise crowd them out of the cap
    for kind in range(3):
        for i in range(n):
            if k >= cap:
                return k
            squad = s.moves[i, 0] == MOVE
            if squad != (kind > 0) or (squad and engine.occupied(s, seat, s.moves[i, 2])
                                       != (kind == 1)):
                continue
            if _distinct(s, rs, seat, i) and not _same(s.moves, i, s.move):
                for f in range(moves.shape[1]):
                    moves[k, f] = s.moves[i, f]
                k += 1
    return k


@small_rule
def score(s, rs, seat):
    """Gives the seat's result of a rollout (see the module docstring)."""
    winner = s.g[WINNER]
    if winner >= 0:
        return 1.0 if winner == seat else 0.0
    best = 0
    for q in range(s.g[PLAYERS]):
        if q != seat and s.bases[q] > best:
            best = s.bases[q]
    return 0.5 + 0.5 * (s.bases[seat] - best) / rs.to_win[s.g[PLAYERS]]


@rule
def play_out(s, rs, seat, move, params, r):
    """Plays `move` for `seat` and the race on for HORIZON rounds with the default family;
    gives the seat's score (see the module docstring)."""
    sampling.redraw_streams(s.bot_rng, -1, r)
    s.dice_rng[0] = rng.next_u64(r)
    g = s.g
    until = g[TURNS] + HORIZON * g[PLAYERS]
    engine.apply_move(s, rs, seat, move)
    while not g[OVER] and g[TURNS] < until:
        q = g[TURN_SEAT]
        bots.default_move(s, rs, q, params, s.move)
        engine.apply_move(s, rs, q, s.move)
    return score(s, rs, seat)


search.register(State, saved=saved, bot_stream=bot_stream,
                candidates=candidates, resample=sampler.resample, play_out=play_out)
