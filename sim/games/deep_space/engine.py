"""Deep Space's rules as jitted functions over a State: setup, the phases of a turn, legal
moves, moves, combat, bases and the end of the game.

A turn waits for its player's decisions in three phases (State.g[PHASE]): MINE (how many of the
planets mined give a gem, the rest give ore; under fixed mining each planet gives its own
resource and there is no MINE decision), ACT (trade, recruit, move, build, play cards, in
any order, until END) and REDRAW (discard cards, until END). A move is a row of six integers
(action, a, b, c, d, e):
  TAKE      a = gems taken (MINE phase)
  MOVE      a = from, b = to, c = recruits, d = dogs taken along, e = 1 through the warp
  RECRUIT   (nothing): one new recruit at home for gems
  TRADE     a = bit mask of the hand slots discarded
  BUILD     a = planet
  PLAY      a = hand slot, b = target planet, c = target seat (-1 where the card has none)
  DISCARD   a = hand slot (REDRAW phase)
  END       ends the ACT or REDRAW phase
"""

from sim import rng
from sim.games.deep_space.board import RESOURCES
from sim.games.deep_space.deck import EXTRA_MOVE, GEMS, METEOR_STORM, ORE, RECRUITS, SPACE_DOG
from sim.games.deep_space.ruleset import (
    ALWAYS,
    BASE_ORE,
    BASE_RECRUITS,
    DIE,
    DOGS,
    FIXED,
    HAND_SIZE,
    MINE_AT,
    MOVES,
    NEVER,
    OPT_MINING,
    OPT_REDRAW,
    RECRUIT_GEMS,
    REINFORCE,
    START_CARDS,
    START_RECRUITS,
    TRADE_CARDS,
    TURN_CAP,
    WARP_GEMS,
)
from sim.games.deep_space.ruleset import BANK_GEMS as N_BANK_GEMS
from sim.games.deep_space.ruleset import BANK_ORE as N_BANK_ORE
from sim.games.deep_space.ruleset import RECRUITS as N_RECRUITS
from sim.games.deep_space.state import (
    ACT,
    BANK_GEMS,
    BANK_ORE,
    DISCARDED,
    DISCARDS,
    DOGS_LEFT,
    DRAW_AT,
    FIRST_SEAT,
    FORBID_ATTACK,
    FORBID_BUILD,
    FORBID_DISCARD,
    FORBID_MOVE,
    FORBID_RECRUIT,
    FORBID_TRADE,
    FORBID_WARP,
    GAME,
    MINE,
    MOVES_LEFT,
    OVER,
    PHASE,
    PLAYERS,
    REDRAW,
    SEED,
    TURN_SEAT,
    TURNS,
    USE_ATTACK,
    USE_BUILD,
    USE_DISCARD,
    USE_FIRST_CARD,
    USE_MOVE,
    USE_PLAY,
    USE_RECRUIT,
    USE_TRADE,
    USE_WARP,
    WINNER,
)
from sim.jit import rule, small_rule

TAKE, MOVE, RECRUIT, TRADE, BUILD, PLAY, DISCARD, END = range(8)
ACTION_NAMES = ("take", "move", "recruit", "trade", "build", "play", "discard", "end")
DEAL_STREAM, DICE_STREAM, BOT_STREAM = 1, 2, 100
UNREACHABLE = 99
GEM_PLANET, ORE_PLANET = RESOURCES["gem"], RESOURCES["ore"]


# ---- setup ------------------------------------------------------------------------------------

@rule
def start_game(s, rs, seed, game):
    """Sets up game `game` of a run seeded `seed`: recruits at home, cards dealt, the first
    player found by rolling; the first turn is waiting for its first decision."""
    g = s.g
    p = s.units.shape[0]
    numbers = rs.numbers
    g[:] = 0
    g[PLAYERS] = p
    g[SEED] = seed
    g[GAME] = game
    g[DOGS_LEFT] = numbers[DOGS]
    g[BANK_GEMS] = numbers[N_BANK_GEMS]
    g[BANK_ORE] = numbers[N_BANK_ORE]
    g[WINNER] = -1
    rng.start(s.deal_rng, seed, game, DEAL_STREAM)
    rng.start(s.dice_rng, seed, game, DICE_STREAM)
    for seat in range(p):
        rng.start(s.bot_rng[seat], seed, game, BOT_STREAM + seat)
    s.units[:, :] = 0
    s.base[:, :] = 0
    s.dogs[:, :] = 0
    s.base_turn[:, :] = 0
    for a in (s.gems, s.ore, s.bases, s.lost, s.won_fights, s.lost_fights, s.gems_mined,
              s.ore_mined, s.played):
        a[:] = 0
    s.uses[:, :] = 0
    deck = s.deck
    for i in range(deck.shape[0]):
        deck[i] = i
    rng.shuffle(s.deal_rng, deck)
    s.hand[:, :] = -1
    s.hand_n[:] = 0
    for seat in range(p):
        home = rs.seat_home[p, seat]
        s.units[seat, home] = numbers[START_RECRUITS]
        s.supply[seat] = numbers[N_RECRUITS] - numbers[START_RECRUITS]
        for _ in range(numbers[START_CARDS]):
            draw(s, seat)
        refresh_sites(s, rs, seat)
    g[FIRST_SEAT] = first_player(s, rs)
    g[TURN_SEAT] = g[FIRST_SEAT]
    begin_turn(s, rs)


@small_rule
def first_player(s, rs):
    """Gives the seat that starts: everyone rolls, the highest roll starts, ties re-roll."""
    p = s.g[PLAYERS]
    if rs.numbers[DIE] < 2:  # a one-sided die never breaks a tie: draw the starter instead
        return rng.below(s.deal_rng, p)
    rolling = s.order  # 1 for a seat still rolling
    rolling[:] = 1
    while True:
        best, best_seat, tied = -1, -1, 0
        for seat in range(p):
            if rolling[seat]:
                roll = rng.below(s.deal_rng, rs.numbers[DIE])
                if roll > best:
                    best, best_seat, tied = roll, seat, 0
                    for other in range(seat):
                        rolling[other] = 0
                elif roll == best:
                    tied = 1
                else:
                    rolling[seat] = 0
        if not tied:
            return best_seat


@rule
def refresh_sites(s, rs, seat):
    """Recounts, for one colour, the moves from each planet to the nearest planet where it may
    still build (not a home, not covered, no base of its own yet)."""
    p = s.g[PLAYERS]
    dist, covered, home, base = rs.dist[p], rs.covered[p], rs.home, s.base
    site = s.site_dist
    n = site.shape[1]
    for q in range(n):
        best = UNREACHABLE
        for t in range(n):
            if not home[t] and not covered[t] and not base[seat, t] and dist[q, t] < best:
                best = dist[q, t]
        site[seat, q] = best


# ---- cards ------------------------------------------------------------------------------------

@small_rule
def draw(s, seat):
    """Draws a card into `seat`'s hand (the discard pile reshuffled when the pile is out);
    gives False when there is no card left to draw."""
    g, deck, discard = s.g, s.deck, s.discard
    c = deck.shape[0]
    if g[DRAW_AT] >= c:
        d = g[DISCARDS]
        if d == 0:
            return False
        for i in range(d):
            deck[c - d + i] = discard[i]
        rng.shuffle(s.deal_rng, deck[c - d:])
        g[DRAW_AT] = c - d
        g[DISCARDS] = 0
    s.hand[seat, s.hand_n[seat]] = deck[g[DRAW_AT]]
    s.hand_n[seat] += 1
    g[DRAW_AT] += 1
    return True


@rule
def draw_up(s, rs, seat):
    """Draws until `seat` holds the hand size (or the cards run out)."""
    while s.hand_n[seat] < rs.numbers[HAND_SIZE]:
        if not draw(s, seat):
            break


@small_rule
def discard_slot(s, seat, slot):
    """Moves the card in a hand slot to the discard pile; gives the card."""
    hand, g = s.hand, s.g
    card = hand[seat, slot]
    last = s.hand_n[seat] - 1
    for j in range(slot, last):
        hand[seat, j] = hand[seat, j + 1]
    hand[seat, last] = -1
    s.hand_n[seat] = last
    s.discard[g[DISCARDS]] = card
    g[DISCARDS] += 1
    return card


# ---- resources and recruits -------------------------------------------------------------------

@small_rule
def gain(s, seat, gems, ore):
    """Gives `seat` gems and ore from the bank (as much as a limited bank has)."""
    g = s.g
    if g[BANK_GEMS] >= 0:
        gems = min(gems, g[BANK_GEMS])
        g[BANK_GEMS] -= gems
    if g[BANK_ORE] >= 0:
        ore = min(ore, g[BANK_ORE])
        g[BANK_ORE] -= ore
    s.gems[seat] += gems
    s.ore[seat] += ore
    return gems, ore


@small_rule
def pay(s, seat, gems, ore):
    """Takes gems and ore from `seat` back to the bank."""
    g = s.g
    s.gems[seat] -= gems
    s.ore[seat] -= ore
    if g[BANK_GEMS] >= 0:
        g[BANK_GEMS] += gems
    if g[BANK_ORE] >= 0:
        g[BANK_ORE] += ore


@small_rule
def recruit(s, rs, seat, n):
    """Puts up to n recruits from `seat`'s supply on its home station."""
    n = min(n, s.supply[seat])
    s.supply[seat] -= n
    s.units[seat, rs.seat_home[s.g[PLAYERS], seat]] += n


@small_rule
def settle_dogs(s, seat, planet):
    """A dog stays with at least one recruit: dogs left alone on a planet join their owner's
    largest army (lowest planet on ties), or go back to the box if it has none."""
    units, dogs = s.units, s.dogs
    if dogs[seat, planet] == 0 or units[seat, planet] > 0:
        return
    best, best_at = 0, -1
    for q in range(units.shape[1]):
        if units[seat, q] > best:
            best, best_at = units[seat, q], q
    if best_at >= 0:
        dogs[seat, best_at] += dogs[seat, planet]
    else:
        s.g[DOGS_LEFT] += dogs[seat, planet]
    dogs[seat, planet] = 0


@small_rule
def remove(s, seat, planet, n):
    """Sends n of `seat`'s recruits on a planet back to its supply (lost)."""
    s.units[seat, planet] -= n
    s.supply[seat] += n
    s.lost[seat] += n
    settle_dogs(s, seat, planet)


@small_rule
def sacrifice_from(s, rs, seat):
    """Gives the planet a sacrifice is taken from: the home station if the colour has a recruit
    there, else its largest army (lowest planet on ties); -1 when it has no recruit."""
    units = s.units
    home = rs.seat_home[s.g[PLAYERS], seat]
    if units[seat, home] > 0:
        return home
    best, best_at = 0, -1
    for q in range(units.shape[1]):
        if units[seat, q] > best:
            best, best_at = units[seat, q], q
    return best_at


@small_rule
def on_board(s, seat):
    """Gives how many recruits `seat` has on the board."""
    total = 0
    for q in range(s.units.shape[1]):
        total += s.units[seat, q]
    return total


@small_rule
def occupied(s, seat, planet):
    """Gives whether another colour has recruits on a planet (entering it is an attack)."""
    units = s.units
    for other in range(s.g[PLAYERS]):
        if other != seat and units[other, planet] > 0:
            return True
    return False


# ---- combat -----------------------------------------------------------------------------------

@small_rule
def lose_one(s, seat, planet):
    """Takes one loss of `seat` on a planet: a dog there absorbs it, else a recruit is lost."""
    if s.dogs[seat, planet] > 0:
        s.dogs[seat, planet] -= 1
        s.g[DOGS_LEFT] += 1
    else:
        s.units[seat, planet] -= 1
        s.supply[seat] += 1
        s.lost[seat] += 1


@rule
def combat(s, rs, attacker, planet):
    """Fights out the attacker's entry onto a planet: dice until one side is gone there, the
    defender winning ties.

    Every combat ends with one colour on the planet and recruits arrive elsewhere only at home,
    so a planet never holds two colours: there is exactly one defender (the source's rule for
    several defenders, fought in seat order, can never apply)."""
    units = s.units
    sides = rs.numbers[DIE]
    for defender in range(s.g[PLAYERS]):
        if defender == attacker or units[defender, planet] == 0:
            continue
        while units[attacker, planet] > 0 and units[defender, planet] > 0:
            if rng.below(s.dice_rng, sides) > rng.below(s.dice_rng, sides):
                lose_one(s, defender, planet)
            else:
                lose_one(s, attacker, planet)
        if units[attacker, planet] > 0:
            s.won_fights[attacker] += 1
            s.lost_fights[defender] += 1
        else:
            s.won_fights[defender] += 1
            s.lost_fights[attacker] += 1
            return


# ---- the turn ---------------------------------------------------------------------------------

@small_rule
def mine_count(s, rs, seat):
    """Gives how many planets (not home stations) hold enough of `seat`'s recruits to mine."""
    units, home = s.units, rs.home
    at = rs.numbers[MINE_AT]
    n = 0
    for q in range(units.shape[1]):
        if units[seat, q] >= at and not home[q]:
            n += 1
    return n


@small_rule
def mine_fixed(s, rs, seat):
    """Gives `seat` the resource of every planet it mines (the fixed reading of mining)."""
    units, home, resource = s.units, rs.home, rs.resource
    at = rs.numbers[MINE_AT]
    gems, ore = 0, 0
    for q in range(units.shape[1]):
        if units[seat, q] >= at and not home[q]:
            if resource[q] == GEM_PLANET:
                gems += 1
            elif resource[q] == ORE_PLANET:
                ore += 1
    gems, ore = gain(s, seat, gems, ore)
    s.gems_mined[seat] += gems
    s.ore_mined[seat] += ore


@rule
def begin_turn(s, rs):
    """Starts the turn of TURN_SEAT: the MINE decision if it can mine (and chooses what), else
    the mining of fixed resources, the draw and ACT."""
    g = s.g
    seat = g[TURN_SEAT]
    g[DISCARDED] = 0
    g[MOVES_LEFT] = rs.numbers[MOVES]
    if rs.numbers[OPT_MINING] == FIXED:
        mine_fixed(s, rs, seat)
    elif mine_count(s, rs, seat) > 0:
        g[PHASE] = MINE
        return
    draw_up(s, rs, seat)
    g[PHASE] = ACT


@rule
def finish_turn(s, rs):
    """Ends the turn: the turn cap ends the game stalled, else the next seat begins."""
    g = s.g
    g[TURNS] += 1
    if g[TURNS] >= rs.numbers[TURN_CAP]:
        g[OVER] = 1
        return
    g[TURN_SEAT] = (g[TURN_SEAT] + 1) % g[PLAYERS]
    begin_turn(s, rs)


@rule
def end_actions(s, rs, seat):
    """Ends the ACT phase: reinforcements per base, then the optional redraw."""
    g = s.g
    recruit(s, rs, seat, rs.numbers[REINFORCE] * s.bases[seat])
    redraw = rs.numbers[OPT_REDRAW]
    if redraw == NEVER:
        finish_turn(s, rs)
    elif s.hand_n[seat] > 0:
        g[PHASE] = REDRAW
    else:
        if redraw == ALWAYS:
            draw_up(s, rs, seat)
        finish_turn(s, rs)


@rule
def build(s, rs, seat, planet):
    """Builds `seat`'s base on a planet; the game is won the moment the base count reaches the
    target."""
    g = s.g
    pay(s, seat, 0, rs.numbers[BASE_ORE])
    s.base[seat, planet] = 1
    s.base_turn[seat, planet] = g[TURNS] + 1
    s.bases[seat] += 1
    refresh_sites(s, rs, seat)
    if s.bases[seat] >= rs.to_win[g[PLAYERS]]:
        g[OVER] = 1
        g[WINNER] = seat


@rule
def play_card(s, rs, seat, slot, planet, target):
    """Plays the card in a hand slot: pays its price (gems, recruits), then its effect."""
    g = s.g
    card = discard_slot(s, seat, slot)
    s.played[seat] += 1
    s.uses[seat, USE_PLAY] += 1
    s.uses[seat, USE_FIRST_CARD + rs.card_kind[card]] += 1
    pay(s, seat, rs.card_gems[card], 0)
    sacrifice = rs.card_sacrifice[card]
    if sacrifice > 0:
        remove(s, seat, sacrifice_from(s, rs, seat), sacrifice)
    effect, amount = rs.card_effect[card], rs.card_amount[card]
    if effect == SPACE_DOG:
        s.dogs[seat, planet] += 1
        g[DOGS_LEFT] -= 1
    elif effect == EXTRA_MOVE:
        g[MOVES_LEFT] += amount
    elif effect == RECRUITS:
        recruit(s, rs, seat, amount)
    elif effect == METEOR_STORM:
        remove(s, target, planet, s.units[target, planet])
    elif effect == ORE:
        gain(s, seat, 0, amount)
    elif effect == GEMS:
        gain(s, seat, amount, 0)


@small_rule
def apply_move(s, rs, seat, move):
    """Plays a legal move of `seat` (see the module docstring), counting it in s.uses by its
    kinds: a move is also a warp through the gem warp and an attack onto a planet another
    colour holds; a card played is `play` and its card kind; mining and ending a phase are
    none.

    Inlined where it is called (the play loops, the search's rollouts): numba passes each
    array of a named tuple as separate values (pointer, sizes, strides), so a call to a
    compiled rule pushes every array of the state and the rules, about 370 values, on the
    stack; once a move, that was a third of a game's time (docs/development.md)."""
    g, units, dogs, uses = s.g, s.units, s.dogs, s.uses
    action, a, b, c, d = move[0], move[1], move[2], move[3], move[4]
    if action == TAKE:
        m = mine_count(s, rs, seat)
        gems, ore = gain(s, seat, a, m - a)
        s.gems_mined[seat] += gems
        s.ore_mined[seat] += ore
        draw_up(s, rs, seat)
        g[PHASE] = ACT
    elif action == MOVE:
        uses[seat, USE_MOVE] += 1
        if move[5]:
            uses[seat, USE_WARP] += 1
            pay(s, seat, rs.numbers[WARP_GEMS], 0)
        g[MOVES_LEFT] -= 1
        units[seat, a] -= c
        dogs[seat, a] -= d
        dogs[seat, b] += d
        units[seat, b] += c
        if occupied(s, seat, b):
            uses[seat, USE_ATTACK] += 1
            combat(s, rs, seat, b)
    elif action == RECRUIT:
        uses[seat, USE_RECRUIT] += 1
        pay(s, seat, rs.numbers[RECRUIT_GEMS], 0)
        recruit(s, rs, seat, 1)
    elif action == TRADE:
        uses[seat, USE_TRADE] += 1
        for slot in range(s.hand_n[seat] - 1, -1, -1):  # from the top, so slots stay valid
            if a & (1 << slot):
                discard_slot(s, seat, slot)
        recruit(s, rs, seat, 1)
    elif action == BUILD:
        uses[seat, USE_BUILD] += 1
        build(s, rs, seat, a)
    elif action == PLAY:
        play_card(s, rs, seat, a, b, c)
    elif action == DISCARD:
        uses[seat, USE_DISCARD] += 1
        discard_slot(s, seat, a)
        g[DISCARDED] = 1
    elif g[PHASE] == ACT:  # END
        end_actions(s, rs, seat)
    else:
        if rs.numbers[OPT_REDRAW] == ALWAYS or g[DISCARDED]:
            draw_up(s, rs, seat)
        finish_turn(s, rs)


# ---- legal moves ------------------------------------------------------------------------------

@small_rule
def _put(out, n, action, a, b, c, d, e):
    out[n, 0] = action
    out[n, 1] = a
    out[n, 2] = b
    out[n, 3] = c
    out[n, 4] = d
    out[n, 5] = e
    return n + 1


@small_rule
def may_enter(s, rs, planet):
    """Gives whether a move may end on a planet (not a home station, not covered)."""
    return not rs.home[planet] and not rs.covered[s.g[PLAYERS], planet]


@small_rule
def can_build(s, rs, seat, planet):
    """Gives whether `seat` may build a base on a planet now."""
    return (not rs.home[planet] and s.base[seat, planet] == 0
            and s.units[seat, planet] >= rs.numbers[BASE_RECRUITS]
            and s.ore[seat] >= rs.numbers[BASE_ORE])


@rule
def card_targets(s, rs, seat, card, slot, out, n):
    """Writes the legal plays of a card (held in a hand slot) into out[n:]; gives the new count.
    A card the seat is forbidden to play (State.forbid_card) has none."""
    units = s.units
    planets = units.shape[1]
    if s.gems[seat] < rs.card_gems[card] or s.forbid_card[seat, card]:
        return n
    sacrifice = rs.card_sacrifice[card]
    source = sacrifice_from(s, rs, seat) if sacrifice > 0 else -1
    if sacrifice > 0 and (source < 0 or units[seat, source] < sacrifice):
        return n
    effect = rs.card_effect[card]
    if effect == SPACE_DOG:
        if s.g[DOGS_LEFT] > 0:
            for q in range(planets):
                left = units[seat, q] - (sacrifice if q == source else 0)
                if left > 0:
                    n = _put(out, n, PLAY, slot, q, -1, 0, 0)
    elif effect == METEOR_STORM:
        for q in range(planets):
            if not rs.home[q]:
                for target in range(s.g[PLAYERS]):
                    if target != seat and units[target, q] > 0:
                        n = _put(out, n, PLAY, slot, q, target, 0, 0)
    else:
        n = _put(out, n, PLAY, slot, -1, -1, 0, 0)
    return n


@small_rule
def popcount(x):
    n = 0
    while x:
        n += x & 1
        x >>= 1
    return n


@rule
def legal_moves(s, rs, seat):
    """Lists every legal move of `seat` in the current phase into s.moves; gives how many.
    Moves the seat is forbidden (State.forbid, forbid_card) are not listed; mining and END
    never are forbidden, so a seat always has a move."""
    g, out, units, dogs = s.g, s.moves, s.units, s.dogs
    n = 0
    phase = g[PHASE]
    if phase == MINE:
        for gems in range(mine_count(s, rs, seat) + 1):
            n = _put(out, n, TAKE, gems, 0, 0, 0, 0)
        return n
    hand_n = s.hand_n[seat]
    forbid = s.forbid[seat]
    if phase == REDRAW:
        if not forbid & FORBID_DISCARD:
            for slot in range(hand_n):
                n = _put(out, n, DISCARD, slot, 0, 0, 0, 0)
        return _put(out, n, END, 0, 0, 0, 0, 0)
    numbers = rs.numbers
    planets = units.shape[1]
    if g[MOVES_LEFT] > 0 and not forbid & FORBID_MOVE:
        warp_ok = s.gems[seat] >= numbers[WARP_GEMS] and not forbid & FORBID_WARP
        no_attack = forbid & FORBID_ATTACK
        for a in range(planets):
            u = units[seat, a]
            if u == 0:
                continue
            for via in range(2):
                if via == 1 and not (warp_ok and rs.warp[a]):
                    break
                for b in range(planets):
                    if b == a or not may_enter(s, rs, b):
                        continue
                    if (via == 0 and not rs.link[a, b]) or (via == 1 and not rs.warp[b]):
                        continue
                    if no_attack and occupied(s, seat, b):
                        continue
                    for k in range(1, u + 1):
                        if k == u:  # dogs stay with a recruit: all go along
                            n = _put(out, n, MOVE, a, b, k, dogs[seat, a], via)
                        else:
                            for d in range(dogs[seat, a] + 1):
                                n = _put(out, n, MOVE, a, b, k, d, via)
    if s.supply[seat] > 0:
        if s.gems[seat] >= numbers[RECRUIT_GEMS] and not forbid & FORBID_RECRUIT:
            n = _put(out, n, RECRUIT, 0, 0, 0, 0, 0)
        k = numbers[TRADE_CARDS]
        if hand_n >= k and not forbid & FORBID_TRADE:
            for mask in range(1 << hand_n):
                if popcount(mask) == k:
                    n = _put(out, n, TRADE, mask, 0, 0, 0, 0)
    if not forbid & FORBID_BUILD:
        for q in range(planets):
            if can_build(s, rs, seat, q):
                n = _put(out, n, BUILD, q, 0, 0, 0, 0)
    for slot in range(hand_n):
        n = card_targets(s, rs, seat, s.hand[seat, slot], slot, out, n)
    return _put(out, n, END, 0, 0, 0, 0, 0)


@rule
def is_legal(s, rs, seat, move):
    """Gives whether a move is among the legal moves of `seat`."""
    moves = s.moves
    n = legal_moves(s, rs, seat)
    for i in range(n):
        same = True
        for f in range(moves.shape[1]):
            if moves[i, f] != move[f]:
                same = False
        if same:
            return True
    return False


def move_bound(rs, players: int) -> int:
    """Gives how many legal moves a position can have at most (the size of State.moves)."""
    planets = rs.link.shape[0]
    numbers = rs.numbers
    moves = int(numbers[N_RECRUITS]) * (int(numbers[DOGS]) + 1) * 2 * planets
    cards = 8 * planets * players
    return moves + cards + (1 << 8) + planets + 2
