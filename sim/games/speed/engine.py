"""Speed's rules as jitted functions over a State and a Clock: deals, legal moves, landing a
planned move, stalls (side-pile cards turned up, centre piles recycled), hands and scoring.

A move is (PLAY, hand slot, centre pile): the card goes onto the pile if it is one rank higher
or lower than the pile's top (wrapping around). The hand refills from the draw pile at once.
A seat's restrictions (State.forbid, --forbid play_up / play_down) take the plays in a forbidden
direction off its legal moves, and a planned play lands only if its direction is allowed then.
"""

from sim import rng
from sim.jit import rule, small_rule
from sim.games.speed.cards import (
    CAP_HANDS,
    CAP_MOVES,
    CAP_STALLS,
    CARDS,
    EACH,
    HAND,
    POINTS,
    SCORING_RULE,
    SIDE,
    TARGET,
)
from sim.games.speed.state import (
    GAME,
    HAND_NO,
    HAND_STALLS,
    HAND_WINNER,
    MOVES,
    OVER,
    PLAY,
    SEED,
    STALLED,
    STALLS,
    WINNER,
)
from sim.games.spit import race
from sim.games.spit.race import CAPPED, DROPPED, OUT, PLAYED

BOT_STREAM, DEAL_STREAM = 200, 10_000


@rule
def start_game(s, rs, c, seed, game):
    """Sets up game `game` of a run seeded `seed` and deals its first hand."""
    g = s.g
    g[:] = 0
    g[SEED] = seed
    g[GAME] = game
    g[WINNER] = -1
    g[HAND_WINNER] = -1
    s.score[:] = 0
    s.played[:] = 0
    race.start_clock(c, seed, game)
    for seat in range(2):
        rng.start(s.bot_rng[seat], seed, game, BOT_STREAM + seat)
    start_hand(s, rs, c)


@rule
def start_hand(s, rs, c):
    """Deals hand g[HAND_NO]: hands and draw piles, two side piles, two centre cards turned up."""
    g, deck, numbers = s.g, s.deck, rs.numbers
    cards, each, hand, side = numbers[CARDS], numbers[EACH], numbers[HAND], numbers[SIDE]
    rng.start(s.deal_rng, g[SEED], g[GAME], DEAL_STREAM + g[HAND_NO])
    for card in range(cards):
        deck[card] = card
    rng.shuffle(s.deal_rng, deck[:cards])
    k = 0
    for seat in range(2):
        for i in range(hand):
            s.hand[seat, i] = deck[k]
            k += 1
        s.draw_n[seat] = each - hand
        for i in range(each - hand):
            s.draw[seat, i] = deck[k]
            k += 1
    for pile in range(2):
        s.side_n[pile] = side
        for i in range(side):
            s.side[pile, i] = deck[k]
            k += 1
    for pile in range(2):
        s.centre[pile, 0] = deck[k]
        s.centre_n[pile] = 1
        k += 1
    g[HAND_STALLS] = 0
    g[HAND_WINNER] = -1
    s.idle[0] = 0
    s.idle[1] = 0
    race.drop_plans(c)


@small_rule
def legal_moves(s, rs, seat):
    """Lists `seat`'s legal moves in s.moves; gives how many."""
    moves, hand, fits = s.moves, s.hand, rs.fits
    allowed = ~s.forbid[seat]  # the play directions (fits bits) this seat may make
    top0 = s.centre[0, s.centre_n[0] - 1]
    top1 = s.centre[1, s.centre_n[1] - 1]
    n = 0
    for slot in range(hand.shape[1]):
        card = hand[seat, slot]
        if card < 0:
            continue
        for b in range(2):
            if fits[card, top1 if b else top0] & allowed:
                moves[n, 0] = PLAY
                moves[n, 1] = slot
                moves[n, 2] = b
                n += 1
    return n


@small_rule
def is_legal(s, rs, seat, kind, slot, b):
    """Gives whether `seat` may play its hand slot `slot` onto centre pile `b` now."""
    if kind != PLAY or slot < 0 or slot >= s.hand.shape[1] or b < 0 or b > 1:
        return False
    card = s.hand[seat, slot]
    return card >= 0 and (rs.fits[card, s.centre[b, s.centre_n[b] - 1]] & ~s.forbid[seat]) != 0


@small_rule
def cards_held(s, seat):
    """Gives how many cards `seat` holds: hand and draw pile."""
    n = s.draw_n[seat]
    for slot in range(s.hand.shape[1]):
        n += s.hand[seat, slot] >= 0
    return n


@small_rule
def land(s, rs, c, seat):
    """Lands `seat`'s planned move (the clock is at its due time): re-checks it and plays it,
    refilling the hand from the draw pile, or drops it. Gives DROPPED, PLAYED, OUT (the seat
    has no cards left: the hand ends) or CAPPED (the game hit its move cap)."""
    g, plan = s.g, c.plan
    kind, slot, b = plan[seat, 0], plan[seat, 1], plan[seat, 2]
    if not is_legal(s, rs, seat, kind, slot, b):
        return DROPPED
    s.centre[b, s.centre_n[b]] = s.hand[seat, slot]
    s.centre_n[b] += 1
    s.played[seat] += 1
    if s.draw_n[seat] > 0:
        s.draw_n[seat] -= 1
        s.hand[seat, slot] = s.draw[seat, s.draw_n[seat]]
    else:
        s.hand[seat, slot] = -1
    s.idle[0] = 0  # a new top may give either seat a move
    s.idle[1] = 0
    g[MOVES] += 1
    if g[MOVES] >= rs.numbers[CAP_MOVES]:
        _stalled(s)
        return CAPPED
    if cards_held(s, seat) == 0:
        g[HAND_WINNER] = seat
        return OUT
    return PLAYED


@small_rule
def _stalled(s):
    s.g[STALLED] = 1
    s.g[OVER] = 1
    s.g[WINNER] = -1


@rule
def stall(s, rs, c):
    """Handles a stall (neither seat can play): both react, then each turns a side-pile card
    onto the centre pile beside it; when the side piles are used up, the centre piles but their
    tops are shuffled into new side piles first. Gives whether the game ended as stalled."""
    g, side, side_n, centre, centre_n, deck = s.g, s.side, s.side_n, s.centre, s.centre_n, s.deck
    g[STALLS] += 1
    g[HAND_STALLS] += 1
    if g[HAND_STALLS] > rs.numbers[CAP_STALLS]:
        _stalled(s)
        return True
    if side_n[0] == 0 and side_n[1] == 0:
        n = 0
        for pile in range(2):
            for i in range(centre_n[pile] - 1):
                deck[n] = centre[pile, i]
                n += 1
            centre[pile, 0] = centre[pile, centre_n[pile] - 1]
            centre_n[pile] = 1
        if n == 0:  # nothing under the tops: no new side pile can help
            _stalled(s)
            return True
        rng.shuffle(s.deal_rng, deck[:n])
        for i in range(n):
            side[i % 2, side_n[i % 2]] = deck[i]
            side_n[i % 2] += 1
    race.both_react(c)
    race.drop_plans(c)
    for pile in range(2):
        if side_n[pile] > 0:
            side_n[pile] -= 1
            centre[pile, centre_n[pile]] = side[pile, side_n[pile]]
            centre_n[pile] += 1
    s.idle[0] = 0
    s.idle[1] = 0
    return False


@rule
def end_hand(s, rs, c):
    """Ends the hand g[HAND_WINNER] won: scores it (option "points") and deals again, or ends
    the game. Gives whether the game is over."""
    g = s.g
    winner = g[HAND_WINNER]
    race.drop_plans(c)
    if rs.numbers[SCORING_RULE] == POINTS:
        s.score[winner] += cards_held(s, 1 - winner)
        if s.score[winner] < rs.numbers[TARGET]:
            if g[HAND_NO] + 1 >= rs.numbers[CAP_HANDS]:
                _stalled(s)
                return True
            g[HAND_NO] += 1
            start_hand(s, rs, c)
            return False
    g[WINNER] = winner
    g[OVER] = 1
    return True
