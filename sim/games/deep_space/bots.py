"""Deep Space bots: `random`, the base-racing `default` family and `search`, jitted, with named
presets. The search family (sim/search.py; Deep Space's pieces in sim/games/deep_space/search.py)
rolls out the phase's moves with the default family.

A bot sees what its player could see: the board (recruits, dogs, bases of every colour), every
player's gems, ore and hand size, and its own hand. It decides one move at a time, so it chooses
the order of its actions each turn: it builds whenever it can, plays the cards that pay at
once, recruits, storms or guards when it is worth it, and moves squads towards the planets
where it can still build (or onto weaker armies), then ends its turn.
"""

from sim import rng, search
from sim.games.deep_space import engine
from sim.games.deep_space.deck import EXTRA_MOVE, GEMS, METEOR_STORM, ORE, RECRUITS, SPACE_DOG
from sim.games.deep_space.engine import (
    BUILD,
    END,
    MOVE,
    PLAY,
    RECRUIT,
    TAKE,
    TRADE,
    can_build,
    card_targets,
    may_enter,
    mine_count,
    occupied,
    on_board,
    sacrifice_from,
)
from sim.games.deep_space.ruleset import (
    BASE_ORE,
    BASE_RECRUITS,
    MINE_AT,
    RECRUIT_GEMS,
    TRADE_CARDS,
    WARP_GEMS,
)
from sim.games.deep_space.state import (
    DOGS_LEFT,
    FORBID_ATTACK,
    FORBID_BUILD,
    FORBID_MOVE,
    FORBID_RECRUIT,
    FORBID_TRADE,
    FORBID_WARP,
    MINE,
    MOVES_LEFT,
    PHASE,
    PLAYERS,
    REDRAW,
)
from sim.jit import rule, small_rule
from strategies import presets
from strategies.presets import RANDOM, SEARCH, Family, Parameter

PARAMETERS = (
    Parameter("ore_share", 0.5, 0.0, 1.0,
              "share of the planets mined taken as ore once the next base's ore is covered"),
    Parameter("keep", 2.0, 0.0, 5.0, "recruits left behind on a planet with a base (to mine it)"),
    Parameter("attack_margin", 2.0, -2.0, 10.0,
              "attack only when the squad outnumbers the defenders (recruits and dogs) by this"),
    Parameter("raid", 1.0, 0.0, 10.0, "how much an attack is worth per defender it may destroy"),
    Parameter("gem_reserve", 1.0, 0.0, 10.0, "gems kept back when recruiting (for the warp, dogs)"),
    Parameter("storm_at", 3.0, 1.0, 20.0,
              "smallest opposing army (counting one about to build as 2 more) worth a meteor storm"),
    Parameter("dogs", 1.0, 0.0, 1.0, "1: buy space dogs for the largest army"),
    Parameter("noise", 0.1, 0.0, 5.0, "random jitter added to every move's score"),
    Parameter("aggression", 0.0, 0.0, 5.0,
              "worth of each move a squad makes towards an army it could beat"),
    Parameter("deny", 0.0, 0.0, 10.0,
              "worth of an attack on a planet where another colour has a base or is about to build"),
    Parameter("warp", 0.0, -5.0, 10.0, "worth of a warp, beyond the moves it saves"),
)
(ORE_SHARE, KEEP, MARGIN, RAID, RESERVE, STORM_AT, DOGS_ON, NOISE, AGGRESSION, DENY,
 WARP) = range(len(PARAMETERS))

PRESETS = {
    "default": {},
    "rush": {"ore_share": 1.0, "keep": 0.0, "attack_margin": 4.0, "raid": 0.2, "dogs": 0.0,
             "gem_reserve": 0.0},
    "turtle": {"ore_share": 0.5, "keep": 3.0, "attack_margin": 5.0, "raid": 0.3,
               "storm_at": 2.0, "gem_reserve": 2.0},
    "raider": {"attack_margin": 0.0, "raid": 4.0, "storm_at": 2.0, "keep": 1.0},
}
STYLES = {"random": "random", "default": "balanced", "rush": "rush bases",
          "turtle": "turtle and mine", "raider": "aggressive raider"}

SEARCH_AT = len(PARAMETERS)  # where the search family's parameters start in the vector
VECTOR = PARAMETERS + search.PARAMETERS
"""Every family's parameters, in the order of a seat's parameter vector."""
# Every candidate of a phase is searched: the default's move is one of a dozen or so, and the
# strength comes from comparing them all (sim/games/deep_space/search.py).
SEARCH_PRESETS = {"search-fast": search.preset(1, 1, 16), "search": search.preset(1, 4, 16),
                  "search-strong": search.preset(1, 12, 16)}
PRESETS.update(SEARCH_PRESETS)
STYLES.update({name: "search" for name in SEARCH_PRESETS})

FAMILIES = (
    Family("random", "uniform over the legal moves (every squad size, with or without dogs)"),
    Family("default", "races for bases: builds when it can, plays the cards that pay, recruits, "
                      "storms and guards when worth it, moves squads towards free planets",
           PARAMETERS),
    search.family(PARAMETERS),
)
BUILT_IN = presets.built_in(PRESETS)
"""The presets as `simulate strategies` lists them: name -> (family, parameters changed)."""


strategy_names, resolve = presets.lookups(PRESETS, VECTOR, FAMILIES)


@small_rule
def choose(s, rs, seat, family, params, out):
    """Writes the move `seat` makes now into out."""
    if family == SEARCH:
        search.decide(s, rs, seat, params, SEARCH_AT, out)
    else:
        builtin_choose(s, rs, seat, family, params, out)


@small_rule
def builtin_choose(s, rs, seat, family, params, out):
    """Writes the move of the random or default family into out (what a search's rollouts
    play: no search)."""
    if family == RANDOM:
        random_move(s, rs, seat, out)
    else:
        default_move(s, rs, seat, params, out)


@small_rule
def random_move(s, rs, seat, out):
    """Writes a move drawn uniformly from the legal moves into out.

    Inlined (as engine.apply_move is): a call to a compiled rule passes every array of the
    state and the rules as separate arguments, about 370 values pushed on the stack, which
    cost more than this function's own work (docs/development.md, Deep Space's slowdown)."""
    n = engine.legal_moves(s, rs, seat)
    k = rng.below(s.bot_rng[seat], n)
    for f in range(out.shape[0]):
        out[f] = s.moves[k, f]


@small_rule
def _set(out, action, a, b, c, d, e):
    out[0] = action
    out[1] = a
    out[2] = b
    out[3] = c
    out[4] = d
    out[5] = e


@small_rule
def _enemies(s, seat, planet):
    """Gives the other colours' recruits and dogs on a planet (what an attacker must beat)."""
    units, dogs = s.units, s.dogs
    total = 0
    for other in range(s.g[PLAYERS]):
        if other != seat:
            total += units[other, planet] + dogs[other, planet]
    return total


@rule
def default_move(s, rs, seat, params, out):
    """Writes the move of a player racing for bases into out (see the module docstring)."""
    g, numbers, units, hand = s.g, rs.numbers, s.units, s.hand
    phase = g[PHASE]
    if phase == MINE:
        m = mine_count(s, rs, seat)
        need = min(m, max(0, numbers[BASE_ORE] - s.ore[seat]))
        ore = need + int(params[ORE_SHARE] * (m - need))
        _set(out, TAKE, m - ore, 0, 0, 0, 0)
        return
    if phase == REDRAW:  # keep the cards: a redraw only replaces them with others
        _set(out, END, 0, 0, 0, 0, 0)
        return
    planets = units.shape[1]
    p = g[PLAYERS]
    gems = s.gems[seat]
    forbid = s.forbid[seat]  # restricted play: the moves engine.legal_moves leaves out
    # gems are kept back only once there is an army to spend them on
    reserve = params[RESERVE] if on_board(s, seat) >= numbers[BASE_RECRUITS] else 0.0
    for q in range(planets):
        if can_build(s, rs, seat, q) and not forbid & FORBID_BUILD:
            _set(out, BUILD, q, 0, 0, 0, 0)
            return
    # Cards: those that pay at once, then storms and dogs when worth it (card_targets lists
    # no play of a forbidden card).
    for slot in range(s.hand_n[seat]):
        card = hand[seat, slot]
        price = rs.card_gems[card]
        if card_targets(s, rs, seat, card, slot, s.moves, 0) == 0:
            continue
        effect = rs.card_effect[card]
        if effect == EXTRA_MOVE or effect == ORE or effect == GEMS:
            if rs.card_sacrifice[card] == 0:
                _set(out, PLAY, slot, -1, -1, 0, 0)
                return
        elif effect == RECRUITS:
            if gems - price >= reserve or price == 0:
                _set(out, PLAY, slot, -1, -1, 0, 0)
                return
        elif effect == METEOR_STORM:
            best, best_q, best_t = params[STORM_AT] - 0.5, -1, -1
            for q in range(planets):
                if rs.home[q]:
                    continue
                for t in range(p):
                    if t != seat and units[t, q] > 0:
                        # (the jitter breaks ties, which would otherwise always pick the
                        # first planets of the board, hence the same seats)
                        threat = units[t, q] + params[NOISE] * rng.uniform(s.bot_rng[seat])
                        if s.base[t, q] == 0 and units[t, q] >= numbers[BASE_RECRUITS]:
                            threat += 2
                        if threat > best:
                            best, best_q, best_t = threat, q, t
            if best_q >= 0:
                _set(out, PLAY, slot, best_q, best_t, 0, 0)
                return
        elif (effect == SPACE_DOG and params[DOGS_ON] > 0.5 and gems - price >= reserve
              and g[DOGS_LEFT] > 0):
            best, best_q = 2, -1
            source = sacrifice_from(s, rs, seat) if rs.card_sacrifice[card] > 0 else -1
            for q in range(planets):
                if units[seat, q] > best and s.dogs[seat, q] == 0 and q != source:
                    best, best_q = units[seat, q], q
            if best_q >= 0:
                _set(out, PLAY, slot, best_q, -1, 0, 0)
                return
    if s.supply[seat] > 0:
        if gems - numbers[RECRUIT_GEMS] >= reserve and gems >= numbers[RECRUIT_GEMS] \
                and not forbid & FORBID_RECRUIT:
            _set(out, RECRUIT, 0, 0, 0, 0, 0)
            return
        k = numbers[TRADE_CARDS]
        if s.hand_n[seat] >= k and not forbid & FORBID_TRADE:
            playable = 0
            for slot in range(s.hand_n[seat]):
                if card_targets(s, rs, seat, hand[seat, slot], slot, s.moves, 0) > 0:
                    playable += 1
            # Trade the cards it cannot use now; any cards when a recruit is the only way on.
            stuck = gems < numbers[RECRUIT_GEMS] and on_board(s, seat) < numbers[BASE_RECRUITS]
            if stuck:
                playable = 0
            if s.hand_n[seat] - playable >= k:
                mask, taken = 0, 0
                for slot in range(s.hand_n[seat]):
                    if taken < k and (stuck or card_targets(s, rs, seat, hand[seat, slot], slot,
                                                            s.moves, 0) == 0):
                        mask |= 1 << slot
                        taken += 1
                _set(out, TRADE, mask, 0, 0, 0, 0)
                return
    if g[MOVES_LEFT] > 0 and not forbid & FORBID_MOVE \
            and best_squad_move(s, rs, seat, params, out):
        return
    _set(out, END, 0, 0, 0, 0, 0)


@small_rule
def _score(s, rs, seat, params, a, b, k, via):
    """Gives how much moving k recruits from planet a to planet b is worth (-1e9: never)."""
    numbers, units = rs.numbers, s.units
    enemies = _enemies(s, seat, b)
    strength = k + s.dogs[seat, a]
    score = 0.0
    if enemies > 0:
        if strength < enemies + params[MARGIN]:
            return -1e9
        score += params[RAID] * enemies
        if params[DENY] != 0 and _contested(s, rs, seat, b):
            score += params[DENY]
    if params[AGGRESSION] != 0:
        score += params[AGGRESSION] * _closer_to_prey(s, rs, seat, params, a, b, strength)
    here = units[seat, b] + k
    if s.base[seat, b] == 0 and here >= numbers[BASE_RECRUITS]:
        score += 6.0 + (3.0 if s.ore[seat] >= numbers[BASE_ORE] else 0.0)
    site = s.site_dist
    score += 2.0 * (site[seat, a] - site[seat, b])
    at = numbers[MINE_AT]
    if units[seat, b] < at <= here:
        score += 1.5
    if not rs.home[a] and units[seat, a] >= at > units[seat, a] - k:
        score -= 1.5
    if via:
        score -= 1.0 * numbers[WARP_GEMS] - params[WARP]
    return score


@small_rule
def _contested(s, rs, seat, planet):
    """Gives whether another colour has a base on the planet or enough recruits to build one."""
    for other in range(s.g[PLAYERS]):
        if other != seat and (s.base[other, planet] > 0
                              or s.units[other, planet] >= rs.numbers[BASE_RECRUITS]):
            return True
    return False


@rule
def _closer_to_prey(s, rs, seat, params, a, b, strength):
    """Gives how many moves closer going from a to b brings a squad of `strength` to the
    nearest planet holding an army it could beat (0 when there is none)."""
    dist = rs.dist[s.g[PLAYERS]]
    best = 0
    nearest = 1 << 30
    for q in range(s.units.shape[1]):
        enemies = _enemies(s, seat, q)
        if enemies > 0 and not rs.home[q] and strength >= enemies + params[MARGIN] \
                and dist[a, q] < nearest:
            nearest = dist[a, q]
            best = dist[a, q] - dist[b, q]
    return best


@rule
def best_squad_move(s, rs, seat, params, out):
    """Writes the best-scoring squad move into out; gives False when no move is worth making."""
    numbers, units, dogs = rs.numbers, s.units, s.dogs
    planets = units.shape[1]
    need = numbers[BASE_RECRUITS]
    forbid = s.forbid[seat]
    warp_ok = s.gems[seat] >= numbers[WARP_GEMS] + params[RESERVE] and not forbid & FORBID_WARP
    no_attack = forbid & FORBID_ATTACK
    r = s.bot_rng[seat]
    best = 0.5
    found = False
    for a in range(planets):
        u = units[seat, a]
        if u == 0:
            continue
        if rs.home[a]:
            spare = u
        elif s.base[seat, a] == 0:
            if u >= need:
                continue  # waiting here for the ore to build
            spare = u
        else:
            spare = u - min(u, int(params[KEEP]))
        if spare <= 0:
            continue
        for b in range(planets):
            if b == a or not may_enter(s, rs, b) or (no_attack and occupied(s, seat, b)):
                continue
            via = 0
            if not rs.link[a, b]:
                if not (warp_ok and rs.warp[a] and rs.warp[b]):
                    continue
                via = 1
            for option in range(2):
                k = spare
                if option == 1:  # just enough for a base there, the rest may go elsewhere
                    k = need - units[seat, b]
                    if k <= 0 or k >= spare:
                        break
                score = _score(s, rs, seat, params, a, b, k, via) + params[NOISE] * rng.uniform(r)
                if score > best:
                    best = score
                    found = True
                    taken = dogs[seat, a] if (k == u or _enemies(s, seat, b) > 0) else 0
                    _set(out, MOVE, a, b, k, taken, via)
    return found
