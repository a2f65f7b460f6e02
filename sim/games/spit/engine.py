"""Spit's rules as jitted functions over a State and a Clock: deals, legal moves, landing a
planned move, stalls and spitting, the end of a deal (the slap) and of the game.

A move is (kind, a, b):
  PLAY   a = own stock pile, b = spit pile: its face-up top card goes onto the spit pile
  TURN   a = own stock pile whose top card is face down: turn it up
  SHIFT  a = own stock pile, b = an empty space: move the face-up top card there
  STACK  a, b = own stock piles (variant): put a's face-up top card on b's equal rank
SHIFT and STACK are legal only when they uncover a face-down card (they are for that; moving
cards about without uncovering one would never end). Of several empty spaces only the first
is offered: they are all alike.

A seat's restrictions (State.forbid, --forbid) take its forbidden moves off its legal moves,
and a planned play lands only if its direction (up or down) is still allowed then. A seat left
without a move waits, as any seat without a move does: no escape is needed.
"""

from sim import rng
from sim.jit import rule, small_rule
from sim.games.spit import race
from sim.games.spit.cards import (
    BOTH_OUT,
    CAP_DEALS,
    CAP_MOVES,
    CAP_STALLS,
    CARDS,
    NEW_LAYOUT,
    OUT_PLAYER_CHOOSES,
    PILES,
    SMALLER,
    SPIT_AND_LAYOUT_PLAYED,
    SPLIT_BOTH,
    STACKING,
    WIN,
)
from sim.games.spit.race import CAPPED, DROPPED, OUT, PLAYED
from sim.games.spit.state import (
    DEAL,
    DEAL_MOVES,
    DEAL_STALLS,
    FORBID_SHIFT,
    FORBID_STACK,
    GAME,
    LONE_PILE,
    MOVES,
    OUT_SEAT,
    OVER,
    PLAY,
    SEED,
    SHIFT,
    SLAP_SEAT,
    STACK,
    STALLED,
    STALLS,
    TAKEN_PILE,
    TURN,
    WINNER,
)

BOT_STREAM, DEAL_STREAM = 200, 10_000
SPIT_NEXT, DEALT_AGAIN, ENDED = 0, 1, 2  # what a stall leads to (stall())


@rule
def start_game(s, rs, c, seed, game):
    """Sets up game `game` of a run seeded `seed`: shuffles and halves the deck, deals."""
    g, hold, hold_n = s.g, s.hold, s.hold_n
    g[:] = 0
    g[SEED] = seed
    g[GAME] = game
    g[WINNER] = -1
    g[LONE_PILE] = -1
    s.played[:] = 0
    race.start_clock(c, seed, game)
    for seat in range(2):
        rng.start(s.bot_rng[seat], seed, game, BOT_STREAM + seat)
    cards = rs.numbers[CARDS]
    deck = hold[0]
    for card in range(cards):
        deck[card] = card
    rng.start(s.deal_rng, seed, game, DEAL_STREAM)
    rng.shuffle(s.deal_rng, deck[:cards])
    half = cards // 2
    for i in range(cards - half):
        hold[1, i] = deck[half + i]
    hold_n[0] = half
    hold_n[1] = cards - half
    start_deal(s, rs, c)


@rule
def start_deal(s, rs, c):
    """Deals deal g[DEAL]: each seat shuffles its cards and lays out its stock piles (pile 1
    first, as far as its cards go), the rest are its spit cards; then the first spit."""
    g, hold, hold_n, stock, stock_n, stock_up = s.g, s.hold, s.hold_n, s.stock, s.stock_n, s.stock_up
    spit, spit_n = s.spit, s.spit_n
    piles = rs.numbers[PILES]
    r = s.deal_rng
    # Each deal has its own stream: the first deal never depends on the bots.
    rng.start(r, g[SEED], g[GAME], DEAL_STREAM + 1 + g[DEAL])
    for seat in range(2):
        n = hold_n[seat]
        rng.shuffle(r, hold[seat, :n])
        k = 0
        for p in range(piles):
            size = min(p + 1, n - k)
            for i in range(size):
                stock[seat, p, i] = hold[seat, k]
                k += 1
            stock_n[seat, p] = size
            stock_up[seat, p] = 1 if size > 0 else 0
        spit_n[seat] = n - k
        for i in range(n - k):
            spit[seat, i] = hold[seat, k + i]
        hold_n[seat] = 0
    g[DEAL_STALLS] = 0
    g[DEAL_MOVES] = 0
    race.drop_plans(c)
    s.idle[0] = 0
    s.idle[1] = 0
    s.centre_n[0] = 0
    s.centre_n[1] = 0
    # Both say "spit": each turns a spit card onto the pile they start. A seat without spit
    # cards starts none, and the other's pile is the only one (its starter's lone pile).
    both = spit_n[0] > 0 and spit_n[1] > 0
    for seat in range(2):
        s.starter[seat] = seat if spit_n[seat] > 0 else -1
        if spit_n[seat] > 0:
            _spit_onto(s, seat, seat)
            if not both:
                g[LONE_PILE] = seat
    if both:
        g[LONE_PILE] = -1


@small_rule
def _spit_onto(s, seat, pile):
    spit_n, centre_n = s.spit_n, s.centre_n
    spit_n[seat] -= 1
    s.centre[pile, centre_n[pile]] = s.spit[seat, spit_n[seat]]
    centre_n[pile] += 1


@small_rule
def is_legal(s, rs, seat, kind, a, b):
    """Gives whether `seat` may make the move (kind, a, b) now."""
    stock_n, stock_up = s.stock_n, s.stock_up
    piles = rs.numbers[PILES]
    if a < 0 or a >= piles or stock_n[seat, a] == 0:
        return False
    n = stock_n[seat, a]
    if kind == TURN:
        return stock_up[seat, a] == 0
    if stock_up[seat, a] == 0:
        return False
    top = s.stock[seat, a, n - 1]
    if kind == PLAY:
        if b < 0 or b > 1 or s.centre_n[b] == 0:
            return False
        return (rs.fits[top, s.centre[b, s.centre_n[b] - 1]] & ~s.forbid[seat]) != 0
    # SHIFT and STACK must uncover a face-down card.
    if b < 0 or b >= piles or b == a or n < 2 or stock_up[seat, a] != 1:
        return False
    if kind == SHIFT:
        return stock_n[seat, b] == 0 and s.forbid[seat] & FORBID_SHIFT == 0
    if kind == STACK:
        return rs.numbers[STACKING] == 1 and s.forbid[seat] & FORBID_STACK == 0 \
            and stock_n[seat, b] > 0 and stock_up[seat, b] > 0 \
            and rs.rank[s.stock[seat, b, stock_n[seat, b] - 1]] == rs.rank[top]
    return False


@small_rule
def _add(moves, n, kind, a, b):
    moves[n, 0] = kind
    moves[n, 1] = a
    moves[n, 2] = b
    return n + 1


@small_rule
def legal_moves(s, rs, seat):
    """Lists `seat`'s legal moves in s.moves; gives how many."""
    moves, stock, stock_n, stock_up, fits = s.moves, s.stock, s.stock_n, s.stock_up, rs.fits
    centre, centre_n = s.centre, s.centre_n
    piles = rs.numbers[PILES]
    forbid = s.forbid[seat]
    allowed = ~forbid  # the play directions (fits bits) this seat may make
    stacking = rs.numbers[STACKING] == 1 and forbid & FORBID_STACK == 0
    top0 = centre[0, centre_n[0] - 1] if centre_n[0] > 0 else -1
    top1 = centre[1, centre_n[1] - 1] if centre_n[1] > 0 else -1
    empty = -1
    if forbid & FORBID_SHIFT == 0:
        for p in range(piles):
            if stock_n[seat, p] == 0:
                empty = p
                break
    n = 0
    for a in range(piles):
        size = stock_n[seat, a]
        if size == 0:
            continue
        up = stock_up[seat, a]
        if up == 0:
            n = _add(moves, n, TURN, a, 0)
            continue
        card = stock[seat, a, size - 1]
        if top0 >= 0 and fits[card, top0] & allowed:
            n = _add(moves, n, PLAY, a, 0)
        if top1 >= 0 and fits[card, top1] & allowed:
            n = _add(moves, n, PLAY, a, 1)
        if up == 1 and size >= 2:  # a card moved away would uncover a face-down one
            if empty >= 0:
                n = _add(moves, n, SHIFT, a, empty)
            if stacking:
                for b in range(piles):
                    if b != a and stock_n[seat, b] > 0 and stock_up[seat, b] > 0 \
                            and rs.rank[stock[seat, b, stock_n[seat, b] - 1]] == rs.rank[card]:
                        n = _add(moves, n, STACK, a, b)
    return n


@small_rule
def apply_move(s, seat, kind, a, b):
    """Makes the legal move (kind, a, b) of `seat`."""
    stock, stock_n, stock_up = s.stock, s.stock_n, s.stock_up
    if kind == TURN:
        stock_up[seat, a] = 1
        return
    stock_n[seat, a] -= 1
    stock_up[seat, a] -= 1
    card = stock[seat, a, stock_n[seat, a]]
    if kind == PLAY:
        s.centre[b, s.centre_n[b]] = card
        s.centre_n[b] += 1
        s.played[seat] += 1
        s.idle[0] = 0  # a new top may give either seat a move
        s.idle[1] = 0
    else:  # SHIFT or STACK
        stock[seat, b, stock_n[seat, b]] = card
        stock_n[seat, b] += 1
        stock_up[seat, b] += 1


@small_rule
def stock_left(s, seat):
    """Gives how many cards `seat` has in its stock piles."""
    total = 0
    for p in range(s.stock_n.shape[1]):
        total += s.stock_n[seat, p]
    return total


@small_rule
def land(s, rs, c, seat):
    """Lands `seat`'s planned move (the clock is at its due time): re-checks it against the
    table as it is now and plays it or drops it. Gives DROPPED, PLAYED, OUT (the seat's stock
    is empty: the deal ends) or CAPPED (the game hit its move cap)."""
    g, plan = s.g, c.plan
    kind, a, b = plan[seat, 0], plan[seat, 1], plan[seat, 2]
    if not is_legal(s, rs, seat, kind, a, b):
        return DROPPED
    apply_move(s, seat, kind, a, b)
    g[MOVES] += 1
    g[DEAL_MOVES] += 1
    if g[MOVES] >= rs.numbers[CAP_MOVES]:
        _stalled(s)
        return CAPPED
    if kind == PLAY and stock_left(s, seat) == 0:
        g[OUT_SEAT] = seat
        return OUT
    return PLAYED


@small_rule
def _stalled(s):
    s.g[STALLED] = 1
    s.g[OVER] = 1
    s.g[WINNER] = -1


@rule
def stall(s, rs, c):
    """Handles a stall (neither seat can move): counts it, ends a game that cannot resolve, and
    lets both react. When both seats are out of spit cards it deals a new layout (default) or
    gives them spit cards again from the spit piles. Gives SPIT_NEXT (spit() comes next),
    DEALT_AGAIN (a new layout is dealt and spat) or ENDED (the game ended as stalled)."""
    g, spit_n = s.g, s.spit_n
    g[STALLS] += 1
    g[DEAL_STALLS] += 1
    if g[DEAL_STALLS] > rs.numbers[CAP_STALLS]:
        _stalled(s)
        return ENDED
    if spit_n[0] == 0 and spit_n[1] == 0:
        if rs.numbers[BOTH_OUT] == NEW_LAYOUT:
            race.both_react(c)
            # Each gathers the spit pile it started and its stock, as at the end of a deal.
            for pile in range(2):
                if s.centre_n[pile] > 0:
                    _take(s, s.starter[pile], pile)
            return ENDED if _deal_again(s, rs, c) else DEALT_AGAIN
        if rs.numbers[BOTH_OUT] == SPLIT_BOTH:
            _split_both(s)
        else:
            for seat in range(2):
                _take_back(s, seat)
        if spit_n[0] == 0 and spit_n[1] == 0:  # nothing under the tops: no spit can help
            _stalled(s)
            return ENDED
    race.both_react(c)
    race.drop_plans(c)
    return SPIT_NEXT


@small_rule
def _take_back(s, seat):
    """Makes the pile `seat` started, except its top card, its shuffled spit cards."""
    centre_n, spit = s.centre_n, s.spit
    for pile in range(2):
        if s.starter[pile] == seat and centre_n[pile] > 1:
            n = centre_n[pile] - 1
            for i in range(n):
                spit[seat, i] = s.centre[pile, i]
            s.centre[pile, 0] = s.centre[pile, n]
            centre_n[pile] = 1
            s.spit_n[seat] = n
            rng.shuffle(s.deal_rng, spit[seat, :n])


@small_rule
def _split_both(s):
    """Shuffles both spit piles except their tops together and deals them out alternately."""
    centre, centre_n, scratch = s.centre, s.centre_n, s.hold[0]
    n = 0
    for pile in range(2):
        if centre_n[pile] > 1:
            for i in range(centre_n[pile] - 1):
                scratch[n] = centre[pile, i]
                n += 1
            centre[pile, 0] = centre[pile, centre_n[pile] - 1]
            centre_n[pile] = 1
    rng.shuffle(s.deal_rng, scratch[:n])
    for i in range(n):
        seat = i % 2
        s.spit[seat, s.spit_n[seat]] = scratch[i]
        s.spit_n[seat] += 1


@small_rule
def lone_spitter(s):
    """Gives the seat that must now choose the one spit pile it spits onto from now on (the
    only seat with spit cards, both piles in play, no pile chosen yet), or -1."""
    spit_n, centre_n = s.spit_n, s.centre_n
    if s.g[LONE_PILE] >= 0 or centre_n[0] == 0 or centre_n[1] == 0:
        return -1
    if spit_n[0] > 0 and spit_n[1] == 0:
        return 0
    if spit_n[1] > 0 and spit_n[0] == 0:
        return 1
    return -1


@rule
def spit(s, rs):
    """Both spit: each seat with spit cards turns one onto the pile it started, or onto the
    lone pile when it is the only seat with spit cards or started no pile in play."""
    spit_n, g = s.spit_n, s.g
    s.idle[0] = 0
    s.idle[1] = 0
    alone = spit_n[0] == 0 or spit_n[1] == 0
    for seat in range(2):
        if spit_n[seat] == 0:
            continue
        own = s.starter[seat] == seat and s.centre_n[seat] > 0
        pile = seat if own and not (alone and g[LONE_PILE] >= 0) else g[LONE_PILE]
        _spit_onto(s, seat, pile)


@rule
def end_deal(s, rs, c):
    """Ends the deal g[OUT_SEAT] went out of: the spit piles are taken (a slap race for the
    smaller, or the out-player takes it), every seat gathers its cards; a seat left without
    cards wins (option "spit_and_layout_played": so does the out-player if it has no spit cards
    left, at once). Otherwise deals again. Gives whether the game is over."""
    g, centre_n = s.g, s.centre_n
    out = g[OUT_SEAT]
    race.drop_plans(c)
    if rs.numbers[WIN] == SPIT_AND_LAYOUT_PLAYED and s.spit_n[out] == 0:
        g[SLAP_SEAT] = -1
        g[TAKEN_PILE] = -1
        g[WINNER] = out
        g[OVER] = 1
        return True
    if centre_n[0] > 0 and centre_n[1] > 0:
        taker = out if rs.numbers[SMALLER] == OUT_PLAYER_CHOOSES else race.race(c)
        g[SLAP_SEAT] = taker
        if centre_n[0] != centre_n[1]:
            smaller = 0 if centre_n[0] < centre_n[1] else 1
        else:
            smaller = taker  # equal piles: the taker keeps the one it started
        g[TAKEN_PILE] = smaller
        _take(s, taker, smaller)
        _take(s, 1 - taker, 1 - smaller)
    else:
        # One spit pile: the seat that went out takes nothing, the other takes the pile.
        g[SLAP_SEAT] = -1
        g[TAKEN_PILE] = 0 if centre_n[0] > 0 else 1
        _take(s, 1 - out, g[TAKEN_PILE])
    return _deal_again(s, rs, c)


@rule
def _deal_again(s, rs, c):
    """Lets every seat gather its stock and spit cards to what it took; a seat left without
    cards wins. Otherwise deals the next deal. Gives whether the game is over."""
    g, hold, hold_n = s.g, s.hold, s.hold_n
    for seat in range(2):
        for p in range(s.stock_n.shape[1]):
            for i in range(s.stock_n[seat, p]):
                hold[seat, hold_n[seat]] = s.stock[seat, p, i]
                hold_n[seat] += 1
            s.stock_n[seat, p] = 0
            s.stock_up[seat, p] = 0
        for i in range(s.spit_n[seat]):
            hold[seat, hold_n[seat]] = s.spit[seat, i]
            hold_n[seat] += 1
        s.spit_n[seat] = 0
    for seat in range(2):
        if hold_n[seat] == 0:
            g[WINNER] = seat
            g[OVER] = 1
            return True
    if g[DEAL] + 1 >= rs.numbers[CAP_DEALS]:
        _stalled(s)
        return True
    g[DEAL] += 1
    start_deal(s, rs, c)
    return False


@small_rule
def _take(s, seat, pile):
    hold, hold_n = s.hold, s.hold_n
    for i in range(s.centre_n[pile]):
        hold[seat, hold_n[seat]] = s.centre[pile, i]
        hold_n[seat] += 1
    s.centre_n[pile] = 0


@small_rule
def cards_held(s, seat):
    """Gives how many cards `seat` owns: stock, spit cards and cards gathered between deals."""
    return stock_left(s, seat) + s.spit_n[seat] + s.hold_n[seat]
