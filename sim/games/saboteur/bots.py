"""Saboteur bots: `random`, the role-aware `default` family and `search`, jitted, with named
presets. The search family (sim/search.py; Saboteur's pieces in sim/games/saboteur/search.py) rolls
out the default family's best moves.

A bot sees only what its player could see: its own hand and role, the goals it has looked at
with a map, and the public table (the maze, broken tools, hand sizes, the pile, and the public
records of how each seat's moves helped or hurt the path: the heuristic `State.suspicion`, and
each seat's log-likelihood ratio of being a saboteur, `State.llr`, of the Bayesian belief over
the roles in sim/games/saboteur/belief.py).

`deduce` bots (the `deduce` parameter) act on that belief: a miner breaks the tools of a player
it believes a saboteur (posterior at least `suspect_at`) and repairs only players it believes
miners; a saboteur takes such a player for a fellow saboteur, and bluffs: each move costs it
`bluff` per unit the move adds to its public log-likelihood ratio. A `deduce` miner also weighs
whose path to trust (`trust`): the paths the other players built after looking at a goal
(`State.lean`) move its belief of where the gold lies, each as far as it believes that player a
miner. The `search-belief` presets also deal their worlds' roles from the seat's posterior
(sampler.py), not uniformly; they keep `trust` at 0.5 (no gain measured: docs/search.md).

Bots think in "front distance": how far the nearest open end of the path is from a goal
(Manhattan, in cards), weighted by where the player believes the gold lies.
"""

import math

import numpy as np

from sim import rng, search
from sim.jit import rule, small_rule
from sim.games.saboteur import belief as roles_belief
from sim.games.saboteur import maze
from sim.games.saboteur.cards import BREAK, MAP, PATH, REPAIR, ROCKFALL
from sim.games.saboteur.engine import MINER, PLACE, SABOTEUR, slot_move_count, slot_moves
from sim.games.saboteur.state import (BELIEF_WORLDS, EMPTY, N_FRONT, ORIGIN, PLAYERS, STAMP,
                                      THROUGH, UNBELIEVED)
from strategies import presets
from strategies.presets import RANDOM, SEARCH, Family, Parameter

HALVES = 0.5 ** np.arange(64)  # 2**-distance, looked up: pow() is slow in the hot loop


PARAMETERS = (
    Parameter("strike_distance", 9.0, 0.0, 30.0,
              "saboteurs start blocking once the path's open end is this close to the gold"),
    Parameter("cover", 0.25, 0.0, 1.0,
              "chance that a saboteur not yet blocking plays a mildly helpful path card"),
    Parameter("break_at", 1.0, 0.0, 10.0,
              "suspicion at which a miner breaks a player's tools"),
    Parameter("use_maps", 1.0, 0.0, 1.0, "1: look at goals with maps while the gold is unknown"),
    Parameter("random_miners", 0.0, 0.0, 1.0, "1: play uniformly at random while a miner"),
    Parameter("random_saboteurs", 0.0, 0.0, 1.0, "1: play uniformly at random while a saboteur"),
    Parameter("noise", 0.05, 0.0, 5.0, "random jitter added to every move's score"),
    Parameter("fellow_at", 1.0, 0.0, 10.0,
              "suspicion at which a saboteur takes a player for a fellow saboteur"),
    Parameter("deduce", 0.0, 0.0, 1.0,
              "1: act on the Bayesian belief over roles instead of the suspicion thresholds"),
    Parameter("suspect_at", 0.5, 0.0, 1.0,
              "with deduce: chance of being a saboteur at which a player is taken for one"),
    Parameter("bluff", 1.0, 0.0, 10.0,
              "with deduce: a saboteur's cost per unit a move adds to its public "
              "log-likelihood ratio"),
    Parameter("trust", 0.75, 0.5, 0.95,
              "with deduce: a miner's chance that a miner who looked at a goal builds towards it "
              "if gold, away if coal (0.5: paths tell nothing)"),
)
(STRIKE, COVER, BREAK_AT, USE_MAPS, RANDOM_MINERS, RANDOM_SABOTEURS, NOISE,
 FELLOW_AT, DEDUCE, SUSPECT_AT, BLUFF, TRUST) = range(len(PARAMETERS))
SEARCH_AT = len(PARAMETERS)  # where the search family's parameters start in the vector
OWN_SEARCH = (
    Parameter("belief_worlds", 0.0, 0.0, 1.0,
              "1: deal the worlds' roles from the seat's posterior, not uniformly"),
)
BELIEF = SEARCH_AT + len(search.PARAMETERS)  # the search's own parameter's index
VECTOR = PARAMETERS + search.PARAMETERS + OWN_SEARCH
"""Every family's parameters, in the order of a seat's parameter vector."""

PRESETS = {
    "default": {},
    "naive-saboteurs": {"random_saboteurs": 1.0},
    "naive-miners": {"random_miners": 1.0},
    "aggressive-saboteurs": {"strike_distance": 30.0, "cover": 0.0},
    "covert-saboteurs": {"strike_distance": 3.0, "cover": 0.6},
    "trusting-miners": {"break_at": 10.0, "fellow_at": 10.0},
    # A rollout is one turn of the table (sim/games/saboteur/search.py), nearly settled once the
    # world is dealt: the budget goes into worlds, not into rollouts of one world.
    "search-fast": search.preset(1, 4, 3),
    "search": search.preset(1, 8, 5),
    "search-strong": search.preset(1, 24, 8),
    "deduce": {"deduce": 1.0},
    # Belief search: the `deduce` policy in candidates and rollouts, worlds from the posterior.
    # Without trust: the paths gained it nothing measurable (docs/search.md, "whose path to
    # trust"), its worlds deal the goals uniformly.
    "search-belief": {**search.preset(1, 8, 5), "deduce": 1.0, "belief_worlds": 1.0,
                      "trust": 0.5},
    "search-belief-strong": {**search.preset(1, 24, 8), "deduce": 1.0, "belief_worlds": 1.0,
                             "trust": 0.5},
}


FAMILIES = (
    Family("random", "uniform over the legal moves, passes included"),
    Family("default", "role-aware: miners dig towards the gold, saboteurs block and mislead",
           PARAMETERS),
    search.family(PARAMETERS, OWN_SEARCH),
)
BUILT_IN = presets.built_in(PRESETS)
"""The presets as `simulate strategies` lists them: name -> (family, parameters changed)."""


strategy_names, resolve = presets.lookups(PRESETS, VECTOR, FAMILIES)


@rule
def keeps_record(families):
    """Gives whether any of these bots reads the public record of suspicion."""
    for family in families:
        if family != RANDOM:
            return True
    return False


@rule
def reads_belief(families, params):
    """Gives whether any of these bots (one per seat, with its parameters) reads the belief's
    public records (State.llr, State.lean): a `deduce` bot, or a search seat that deals its
    worlds' roles from its posterior. Where none does the table keeps the suspicion alone
    (State g[UNBELIEVED]): the records cost a `default` table about a tenth of its speed."""
    for seat in range(families.shape[0]):
        family = families[seat]
        if family != RANDOM and params[seat, DEDUCE] > 0.5:
            return True
        if family == SEARCH and params[seat, BELIEF] > 0.5:
            return True
    return False


@small_rule
def choose(s, rs, seat, family, params, out):
    """Writes the move `seat` makes into out[:5]."""
    if family == SEARCH:
        s.g[BELIEF_WORLDS] = 1 if params[BELIEF] > 0.5 else 0
        search.decide(s, rs, seat, params, SEARCH_AT, out)
    else:
        builtin_choose(s, rs, seat, family, params, out)


@small_rule
def builtin_choose(s, rs, seat, family, params, out):
    """Writes the move of the random or default family into out[:5] (what a search's
    rollouts play: no search)."""
    role = s.role[seat]
    if family == RANDOM or (role == MINER and params[RANDOM_MINERS] > 0.5) \
            or (role == SABOTEUR and params[RANDOM_SABOTEURS] > 0.5):
        random_move(s, rs, seat, out)
    else:
        default_move(s, rs, seat, params, out)


@small_rule
def random_move(s, rs, seat, out):
    """Writes a move drawn uniformly from the legal moves (passes included) into out."""
    moves, bot_rng = s.moves, s.bot_rng[seat]
    total, k, slot = 0, 0, 0
    for counting in (True, False):  # once summing, once finding move k: one inlined count
        for slot in range(s.hand_n[seat]):
            c = slot_move_count(s, rs, seat, slot)
            if counting:
                total += c
            elif k < c:
                break
            else:
                k -= c
        if counting:
            k = rng.below(bot_rng, total)
    slot_moves(s, rs, seat, slot, moves, 0)
    for f in range(out.shape[0]):
        out[f] = moves[k, f]


# ---- what a player believes about the goals and the path -------------------------------------

@small_rule
def may_be_gold(s, seat, i):
    """Gives whether goal i may hide the gold as `seat` sees it (seat -1: the public view)."""
    seen, shown, kind = s.seen, s.goal_shown, s.goal_kind
    if seat >= 0:
        for j in range(3):
            if seen[seat, j] and kind[j] == 0:
                return i == j
        if seen[seat, i]:
            return False
    return shown[i] == 0


@small_rule
def belief(s, seat, w):
    """Writes into w the chance, as `seat` sees it, that each goal is the gold (seat -1: public)."""
    n = 0
    for i in range(3):
        w[i] = 1.0 if may_be_gold(s, seat, i) else 0.0
        n += w[i]
    for i in range(3):
        w[i] = w[i] / n if n else 1.0 / 3.0


@small_rule
def trust(s, seat, q, mine, w):
    """Weighs w, `seat`'s chance that each goal is the gold, by Bayes' rule with the paths the
    other players built after looking at a goal (State.lean), each trusted as far as `seat`
    believes it a miner (mine[p]: its chance of being a saboteur).

    The model: a miner who looked at goal g builds towards it (lean +1) with chance q if it is
    the gold, 1 - q if it is coal; a saboteur the other way round (it saw where the gold is and
    builds away). Seen from `seat`, a lean towards g is then a = (1 - m) q + m (1 - q) likely
    if g is the gold, 1 - a if coal, so a net lean L of player p on goal g weighs "gold at g"
    by (a / (1 - a))**L against every other goal. Goals `seat` knows are coal stay 0; a seat
    that knows the gold is not moved (call it only when it does not)."""
    if q == 0.5:
        return
    lean, seen = s.lean, s.seen
    total = 0.0
    for i in range(3):
        if w[i] == 0.0:
            continue
        x = 0.0
        for p in range(s.g[PLAYERS]):
            if p != seat and seen[p, i] and lean[p, i] != 0.0:
                a = (1.0 - mine[p]) * q + mine[p] * (1.0 - q)
                x += lean[p, i] * math.log(a / (1.0 - a))
        w[i] *= math.exp(min(max(x, -30.0), 30.0))
        total += w[i]
    for i in range(3):
        w[i] /= total


@small_rule
def _goal_distance(goal_xy, x, y, i):
    return abs(x - ORIGIN - goal_xy[i, 0]) + abs(y - ORIGIN - goal_xy[i, 1])


@small_rule
def goal_distances(s, rs):
    """Gives, per goal, how far the path's nearest open end is from it (in cards; 99: none)."""
    front, goal_xy = s.front, rs.goal_xy
    d0, d1, d2 = 99, 99, 99
    for f in range(s.g[N_FRONT]):
        x, y = front[f, 0], front[f, 1]
        d0 = min(d0, _goal_distance(goal_xy, x, y, 0))
        d1 = min(d1, _goal_distance(goal_xy, x, y, 1))
        d2 = min(d2, _goal_distance(goal_xy, x, y, 2))
    return d0, d1, d2


@small_rule
def front_distances(s, rs, best1, best1_at, best2):
    """Writes, per goal, the nearest and second-nearest open end's distance and the nearest's index."""
    front, goal_xy, n_front = s.front, rs.goal_xy, s.g[N_FRONT]
    for i in range(3):
        best1[i] = 99
        best2[i] = 99
        best1_at[i] = -1
        gx, gy = ORIGIN + goal_xy[i, 0], ORIGIN + goal_xy[i, 1]
        for f in range(n_front):
            d = abs(front[f, 0] - gx) + abs(front[f, 1] - gy)
            if d < best1[i]:
                best2[i] = best1[i]
                best1[i] = d
                best1_at[i] = f
            elif d < best2[i]:
                best2[i] = d


@small_rule
def expected_distance(s, rs, seat):
    """Gives how far, on average over `seat`'s belief, the path's nearest open end is from the gold."""
    front, goal_xy, n_front = s.front, rs.goal_xy, s.g[N_FRONT]
    total = 0.0
    n = 0
    for i in range(3):
        if not may_be_gold(s, seat, i):
            continue
        best = 99
        for f in range(n_front):
            best = min(best, _goal_distance(goal_xy, front[f, 0], front[f, 1], i))
        total += best
        n += 1
    return total / n if n else 0.0  # no goal left hiding gold: it has been reached


@small_rule
def distance_after_place(s, rs, w, b1, at, b2, x, y, exits, through):
    """Gives the expected front distance once a card with `exits` lies in front cell (x, y)."""
    cell, goal_xy = s.cell, rs.goal_xy
    f = s.front_at[y, x]
    total = 0.0
    for i in range(3):
        if w[i] == 0.0:
            continue
        best = b2[i] if at[i] == f else b1[i]
        if through:
            gx, gy = ORIGIN + goal_xy[i, 0], ORIGIN + goal_xy[i, 1]
            for d in range(4):
                if not exits & (1 << d):
                    continue
                nx, ny = x + maze.DX[d], y + maze.DY[d]
                if nx == gx and ny == gy:
                    best = 0
                elif cell[ny, nx] == EMPTY:
                    best = min(best, abs(nx - gx) + abs(ny - gy))
        total += w[i] * best
    return total


@small_rule
def _pull(goal_xy, w, x, y):
    """Gives how strongly an open end at grid (x, y) pulls the path towards the gold:
    sum over goals of belief * 2**-distance (an open end on the goal counts fully)."""
    total = 0.0
    for i in range(3):
        if w[i] > 0.0:
            total += w[i] * HALVES[min(_goal_distance(goal_xy, x, y, i), HALVES.shape[0] - 1)]
    return total


@small_rule
def front_pull(s, rs, w):
    """Gives the pull of the whole front: how many good ways on towards the gold the path has."""
    front, goal_xy = s.front, rs.goal_xy
    total = 0.0
    for f in range(s.g[N_FRONT]):
        total += _pull(goal_xy, w, front[f, 0], front[f, 1])
    return total


@small_rule
def pull_after_place(s, rs, w, pull, x, y, exits, through):
    """Gives the front's pull once a card with `exits` lies in front cell (x, y): its own
    open end is gone, and a through card opens the cells its exits lead to."""
    cell, front_at, goal_xy = s.cell, s.front_at, rs.goal_xy
    pull -= _pull(goal_xy, w, x, y)
    if through:
        for d in range(4):
            nx, ny = x + maze.DX[d], y + maze.DY[d]
            if exits & (1 << d) and cell[ny, nx] == EMPTY and front_at[ny, nx] < 0:
                pull += _pull(goal_xy, w, nx, ny)
    return pull


@small_rule
def _touches_path(s, x, y):
    """Gives whether an open side of a card joined to the start faces grid cell (x, y)."""
    cell, exits, reach, stamp = s.cell, s.exits, s.reach, s.g[STAMP]
    for d in range(4):
        nx, ny = x + maze.DX[d], y + maze.DY[d]
        if reach[ny, nx] == stamp and maze.carries_path(cell[ny, nx]) \
                and exits[ny, nx] & maze.opposite(1 << d):
            return True
    return False


@small_rule
def _keep_value(rs, card, role, knows_gold):
    """Gives how much a player wants to keep a card (the lowest is discarded)."""
    kind, exits, through = rs.kind[card], rs.exits[card], rs.through[card]
    if kind == PATH:
        n = (exits & 1) + (exits >> 1 & 1) + (exits >> 2 & 1) + (exits >> 3 & 1)
        if role == SABOTEUR:
            return 4.0 if not through else 2.5 - 0.4 * n
        return 0.5 if not through else 1.0 + 0.5 * n
    if kind == MAP:
        return 0.2 if knows_gold else (2.0 if role == SABOTEUR else 3.0)
    if kind == REPAIR:
        return 1.5 if role == SABOTEUR else 2.5
    return 3.0 if role == SABOTEUR else 2.0  # broken tools, rockfall


# ---- the default family -----------------------------------------------------------------------

@rule
def default_move(s, rs, seat, params, out):
    """Writes the best-scoring legal move of a role-aware player into out; gives how many
    moves it scored (s.moves and s.move_score hold them)."""
    r = s.bot_rng[seat]
    role = s.role[seat]
    w, public, b1, at, b2 = s.belief[0], s.belief[1], s.nearest[0], s.nearest[1], s.nearest[2]
    belief(s, seat, w)
    belief(s, -1, public)
    knows_gold = max(w[0], w[1], w[2]) == 1.0
    # deduce: the chance that each seat is a saboteur, as the seat sees it and as the table does.
    deduce = params[DEDUCE] > 0.5
    mine, table = s.posterior[roles_belief.OWN], s.posterior[roles_belief.TABLE]
    if deduce:
        roles_belief.marginals(s, rs, seat, mine)
        if role == MINER and not knows_gold:
            trust(s, seat, params[TRUST], mine, w)
    front_distances(s, rs, b1, at, b2)
    e0 = w[0] * b1[0] + w[1] * b1[1] + w[2] * b1[2]
    seen0 = public[0] * b1[0] + public[1] * b1[1] + public[2] * b1[2]
    pull0 = front_pull(s, rs, w)
    striking = role == SABOTEUR and e0 <= params[STRIKE]
    covering = role == SABOTEUR and not striking and rng.uniform(r) < params[COVER]
    bluff = params[BLUFF] if deduce and role == SABOTEUR else 0.0
    if bluff > 0.0:
        roles_belief.marginals(s, rs, -1, table)
    suspect_at = params[SUSPECT_AT]
    moves, hand, suspicion, reach, cell = s.moves, s.hand, s.suspicion, s.reach, s.cell
    broken, move_score = s.broken, s.move_score
    stamp, players = s.g[STAMP], s.g[PLAYERS]
    through_cards, goal_xy = rs.through, rs.goal_xy
    # Identical cards offer identical moves: list each kind of card's moves once.
    n = 0
    hand_n = s.hand_n[seat]
    kinds, exits, tools, forbid = rs.kind, rs.exits, rs.tools, s.forbid
    for slot in range(hand_n):
        card = hand[seat, slot]
        repeat = False
        for other in range(slot):
            twin = hand[seat, other]
            if kinds[twin] == kinds[card] and exits[twin] == exits[card] \
                    and through_cards[twin] == through_cards[card] and tools[twin] == tools[card] \
                    and forbid[seat, twin] == forbid[seat, card]:
                repeat = True
        if not repeat:
            n = slot_moves(s, rs, seat, slot, moves, n)
    best = -1e18
    best_i = 0
    for i in range(n):
        action, slot = moves[i, 0], moves[i, 1]
        a, b, c = moves[i, 2], moves[i, 3], moves[i, 4]
        card = hand[seat, slot]
        if action == PLACE:
            through = through_cards[card] == 1
            e1 = distance_after_place(s, rs, w, b1, at, b2, a, b, c, through)
            gain = e0 - e1
            # How much of the front's pull towards the gold the card adds (+) or takes (-).
            opened = (pull_after_place(s, rs, w, pull0, a, b, c, through) - pull0) / (pull0 + 1e-9)
            if role == MINER:
                if not through:
                    score = -20.0
                elif knows_gold and e1 == 0.0:
                    score = 100.0
                elif gain > 0:
                    score = 10.0 * gain + opened
                else:
                    score = -4.0 + 10.0 * gain + opened
            elif knows_gold and e1 == 0.0:
                score = -100.0
            elif striking:
                score = -10.0 * gain - 8.0 * opened
            elif through and knows_gold and gain <= 0:
                # Misdirection: a card that seems to bring a goal nearer to players who do not
                # know where the gold is, while it brings the gold no nearer.
                seen_gain = seen0 - distance_after_place(s, rs, public, b1, at, b2, a, b, c, True)
                score = 3.0 * seen_gain + 10.0 * gain + (1.0 if covering else -1.0)
            elif covering and through and gain == 0:
                score = 1.0  # keeps up appearances without bringing the gold nearer
            else:
                score = -5.0
        elif action == BREAK:
            # A player who already has a broken tool cannot place path cards anyway.
            idle = 3.0 if broken[a] != 0 else 0.0
            soon = (a - seat) % players  # breaking the next player to move matters most
            if a == seat:
                score = -50.0
            elif deduce and role == MINER:
                score = 4.0 + 4.0 * mine[a] - idle if mine[a] >= suspect_at else -10.0
            elif deduce:
                score = -5.0 if mine[a] >= suspect_at else \
                    (6.5 if striking else -4.5) - 3.0 * mine[a] - idle - 0.2 * soon
            elif role == MINER:
                score = (4.0 + suspicion[a] - idle if suspicion[a] >= params[BREAK_AT]
                         else -10.0)
            elif suspicion[a] >= params[FELLOW_AT]:
                score = -5.0  # probably a fellow saboteur
            else:
                score = (6.5 if striking else -4.5) - suspicion[a] - idle - 0.2 * soon
        elif action == REPAIR:
            unblocks = broken[a] == c  # the repaired tool was the only broken one
            if a == seat:
                score = (8.0 if role == MINER or striking else 2.0) if unblocks else 1.0
            elif deduce and role == MINER:
                score = (3.0 if unblocks else 0.5) if mine[a] < suspect_at else -10.0
            elif deduce:
                score = 3.0 if mine[a] >= suspect_at and unblocks else -10.0
            elif role == MINER:
                score = (3.0 if unblocks else 0.5) if suspicion[a] < params[BREAK_AT] * 0.5 \
                    else -10.0
            else:
                score = 3.0 if suspicion[a] >= params[FELLOW_AT] and unblocks else -10.0
        elif action == MAP:
            score = 5.5 if (not knows_gold and w[a] > 0 and params[USE_MAPS] > 0.5) else -10.0
        elif action == ROCKFALL:
            reached = reach[b, a] == stamp and cell[b, a] == THROUGH
            if role == MINER:
                score = -30.0
                if not reached and _touches_path(s, a, b):
                    e1 = 0.0
                    for g in range(3):
                        e1 += w[g] * min(b1[g], _goal_distance(goal_xy, a, b, g))
                    score = 10.0 * (e0 - e1) - 1.0
            elif striking and reached:
                tip = 0.0
                for g in range(3):
                    tip += w[g] * (_goal_distance(goal_xy, a, b, g) - b1[g])
                score = 7.0 - 2.0 * tip
            else:
                score = -10.0
        else:
            score = -_keep_value(rs, card, role, knows_gold)
        if bluff > 0.0 and action != MAP:
            # What the move would add to the seat's public log-likelihood ratio, as observe counts it.
            through = through_cards[card] == 1
            seen_gain = 0.0
            if action == PLACE:
                seen_gain = seen0 - distance_after_place(s, rs, public, b1, at, b2, a, b, c, through)
            suspect = table[a] if action == BREAK or action == REPAIR else 0.0
            cut = action == ROCKFALL and reach[b, a] == stamp and cell[b, a] == THROUGH
            h = roles_belief.evidence(action, through, seen_gain, a, suspect, seat, cut)
            score -= bluff * max(0.0, -h) / roles_belief.TEMPERATURE
        score += params[NOISE] * rng.uniform(r)
        move_score[i] = score
        if score > best:
            best = score
            best_i = i
    for f in range(out.shape[0]):
        out[f] = moves[best_i, f]
    return n


# ---- the public record of suspicion -----------------------------------------------------------

@small_rule
def observe(s, rs, seat, move, card, distance_before, cut_path, goals_before):
    """Updates the public records of `seat` after its move (what every player at the table saw):
    its suspicion, its log-likelihood ratio of being a saboteur (belief.py), and its lean
    towards each goal it has looked at.

    `card` is the card played, `distance_before` the public expected front distance before it,
    `cut_path` whether a rockfall took out a card of the path joined to the start, and
    `goals_before` a path card's `goal_distances` before it (used once the seat has looked at
    a goal). At a table where no bot reads the belief (g[UNBELIEVED]) only the suspicion is kept.
    """
    suspicion = s.suspicion
    through = rs.through[card]
    action, target = move[0], move[2]
    gain, suspect = 0.0, 0.0
    if action == PLACE:
        after = expected_distance(s, rs, -1)
        gain = distance_before - after
        if after > distance_before or not through:
            suspicion[seat] += 1.0
        elif after < distance_before:
            suspicion[seat] -= 0.5
        if believed(s) and looked(s, seat):
            _lean(s, rs, seat, goals_before)
    elif action == BREAK and move[2] != seat:
        suspicion[seat] += -0.3 if suspicion[move[2]] > 0.5 else 1.0
    elif action == REPAIR and move[2] != seat:
        suspicion[seat] += 0.5 if suspicion[move[2]] > 0.5 else -0.2
    elif action == ROCKFALL:
        suspicion[seat] += 1.0 if cut_path else -0.5
    if not believed(s):
        return
    # The Bayesian record (belief.py): a broken or repaired tool tells by whom it was done to.
    if (action == BREAK or action == REPAIR) and target != seat:
        table = s.posterior[roles_belief.TABLE]
        roles_belief.marginals(s, rs, -1, table)
        suspect = table[target]
    roles_belief.record(s, seat, roles_belief.evidence(action, through == 1, gain, target,
                                                       suspect, seat, cut_path))


@small_rule
def believed(s):
    """Gives whether the table keeps the belief's public records (State.llr, State.lean)."""
    return s.g[UNBELIEVED] == 0


@small_rule
def looked(s, seat):
    """Gives whether `seat` has looked at a goal card (which, the table sees): only then do its
    path cards add to its lean (`_lean`)."""
    return s.seen[seat, 0] + s.seen[seat, 1] + s.seen[seat, 2] > 0


@small_rule
def _lean(s, rs, seat, before):
    """Adds a path card of `seat` to its lean towards each face-down goal it has looked at: +1
    if the card brought the path's nearest open end nearer that goal than, on average, the other
    face-down goals, -1 if less near (the goals lie the same way from the start: most cards
    bring all of them nearer, only the difference says which one a player heads for)."""
    after = goal_distances(s, rs)
    shown, seen, lean = s.goal_shown, s.seen, s.lean
    for g in range(3):
        if not seen[seat, g] or shown[g]:
            continue
        others, n = 0.0, 0
        for j in range(3):
            if j != g and not shown[j]:
                others += before[j] - after[j]
                n += 1
        if n == 0:
            continue
        towards = before[g] - after[g] - others / n
        if towards > 0.0:
            lean[seat, g] += 1.0
        elif towards < 0.0:
            lean[seat, g] -= 1.0
