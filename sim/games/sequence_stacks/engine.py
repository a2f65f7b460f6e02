"""Sequence Stacks' rules as jitted functions over the flat state: the deal, legal moves, moves.

A game is a series of decisions. In a turn (phase TURN) the player to move plays cards one at a
time and ends the turn by discarding. Right after a sequence is completed the game is in phase
WINDOW: each opponent holding a Block, in turn order from the completer, decides in turn whether
to play it. `to_move` says whose decision it is; `legal_moves` lists it; `apply_move` plays it
and carries the game on to the next decision (the window, the chip, the turn's end, refills,
the winner, the caps).

A move is a row of five integers: (action, source, card type, a, b) where for
  PLAY     source = HAND or TOP (of the player's own discard pile), a = the pile slot
  ACT      an action card from HAND or TOP; a = target seat (Steal-a-Card, Steal-a-Chip),
           b = chip colour (Steal-a-Chip)
  DISCARD  a card from the hand onto the player's discard pile: the turn is over
  END      the hand is empty (and nothing could be drawn): the turn just ends
  BLOCK_IT out of turn, a Block from the hand: the completed pile is removed, nobody gets a chip
  PASS     out of turn: no Block

Functions take the flat array `m` (see state.py), the random streams `rngs` where they draw,
and the rule arrays `rs`.
"""

import numpy as np

from sim import rng
from sim.jit import rule, small_rule
from sim.games.sequence_stacks.cards import (
    ALLOWED,
    BLOCK,
    EACH_COLOUR,
    EMPTY_HAND_ONLY,
    FIRST_ACTION,
    HAND_SIZE,
    MAX_OPEN,
    MOVE_CAP,
    OPEN_PER_COLOUR,
    OPT_REFILL,
    OPT_SUPPLY,
    OPT_WINNING_STEAL,
    REVERSE,
    SEQUENCE,
    SKIP,
    STEAL_CARD,
    STEAL_CHIP,
    TO_WIN,
    TURN_CAP,
    TYPES,
    UNLIMITED,
)
from sim.games.sequence_stacks.cards import SUPPLY as SUPPLY_RULE
from sim.games.sequence_stacks.state import (
    ACTIONS_PLAYED,
    ASKED,
    CHIPS,
    COMPLETED,
    COMPLETED_SLOT,
    COMPLETER,
    DECIDER,
    DIRECTION,
    DISCARD_N,
    DRAW,
    DRAW_N,
    FORBID,
    FORBID_TOP,
    GAME,
    HAND_N,
    HELD,
    MAX_DECK,
    MOVES,
    N_ACTIONS,
    OPEN_N,
    OVER,
    PHASE,
    PILE,
    PILE_LEN,
    PLAYERS,
    REMOVED,
    REMOVED_N,
    RESHUFFLES,
    SEED,
    SEQUENCES_BLOCKED,
    SKIPPED,
    STALLED,
    SUPPLY,
    TURN_SEAT,
    TURNS,
    WINNER,
)
from sim.games.sequence_stacks.state import DISCARD as DISCARD_PILES
from sim.games.sequence_stacks.state import HAND as HANDS

PLAY, ACT, DISCARD, END, BLOCK_IT, PASS = range(6)
HAND, TOP = 0, 1
TURN, WINDOW = 0, 1  # phases
DEAL_STREAM, BOT_STREAM = 0, 200


# ---- hands ------------------------------------------------------------------------------------

# The index of a power of two below 2**32 (a de Bruijn sequence): walks the bits of a hand's
# held types without a branch per type.
_BIT_INDEX = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8, 31, 27, 13, 23,
                       21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], np.int64)


@small_rule
def lowest_type(mask):
    """Gives the lowest card type in a non-empty mask of held types."""
    return _BIT_INDEX[(((mask & -mask) * 0x077CB531) & 0xFFFFFFFF) >> 27]


@small_rule
def hand_add(m, seat, t):
    """Puts a card of type t into `seat`'s hand."""
    m[HANDS + seat * TYPES + t] += 1
    m[HAND_N + seat] += 1
    m[HELD + seat] |= 1 << t


@small_rule
def hand_remove(m, seat, t):
    """Takes a card of type t out of `seat`'s hand."""
    i = HANDS + seat * TYPES + t
    m[i] -= 1
    m[HAND_N + seat] -= 1
    if m[i] == 0:
        m[HELD + seat] &= ~(1 << t)


# ---- drawing ----------------------------------------------------------------------------------

@rule
def recycle(m, rngs):
    """Shuffles the removed sequence piles into a new draw pile (the draw pile being empty)."""
    n = m[REMOVED_N]
    if n == 0:
        return
    for i in range(n):
        m[DRAW + i] = m[REMOVED + i]
    rng.shuffle(rngs[0], m[DRAW:DRAW + n])
    m[DRAW_N] = n
    m[REMOVED_N] = 0
    m[RESHUFFLES] += 1


@rule
def refill(m, rngs, seat, size):
    """Draws into `seat`'s hand until it holds `size` cards or nothing can be drawn."""
    while m[HAND_N + seat] < size:
        if m[DRAW_N] == 0:
            recycle(m, rngs)
            if m[DRAW_N] == 0:
                return
        m[DRAW_N] -= 1
        hand_add(m, seat, m[DRAW + m[DRAW_N]])


# ---- the deal and the turns -------------------------------------------------------------------

@rule
def start_game(m, rngs, rs, seed, game):
    """Sets up game `game` of a run seeded `seed`: shuffles, deals, and starts seat 0's turn."""
    p = rngs.shape[0] - 1
    # The piles' contents need no wiping: their counts say what is in them; the seats'
    # restrictions (FORBID) hold for every game of a configuration.
    for start, stop in ((0, DRAW), (HANDS, DISCARD_PILES), (DISCARD_N, FORBID)):
        for i in range(start, stop):
            m[i] = 0
    m[PLAYERS] = p
    m[SEED] = seed
    m[GAME] = game
    m[DIRECTION] = 1
    m[WINNER] = -1
    counts = rs.deck[p]
    n = 0
    for t in range(TYPES):
        for _ in range(counts[t]):
            m[DRAW + n] = t
            n += 1
    rng.start(rngs[0], seed, game, DEAL_STREAM)
    rng.shuffle(rngs[0], m[DRAW:DRAW + n])
    m[DRAW_N] = n
    for colour in range(2):
        m[SUPPLY + colour] = rs.numbers[SUPPLY_RULE]
    size = rs.numbers[HAND_SIZE]
    for seat in range(p):
        refill(m, rngs, seat, size)
        rng.start(rngs[1 + seat], seed, game, BOT_STREAM + seat)
    begin_turn(m, rngs, rs, 0)


@rule
def begin_turn(m, rngs, rs, seat):
    """Starts `seat`'s turn, step 1: the refill (or, without refills, a draw into an empty hand);
    a game past the turn cap is stalled instead."""
    if m[TURNS] >= rs.numbers[TURN_CAP]:
        m[STALLED] = 1
        m[OVER] = 1
        return
    m[TURNS] += 1
    m[TURN_SEAT] = seat
    m[PHASE] = TURN
    if rs.numbers[OPT_REFILL] != EMPTY_HAND_ONLY or m[HAND_N + seat] == 0:
        refill(m, rngs, seat, rs.numbers[HAND_SIZE])


@small_rule
def next_seat(m, seat):
    """Gives the seat after `seat` in the current direction of play."""
    p = m[PLAYERS]
    return (seat + m[DIRECTION] + p) % p


@rule
def end_turn(m, rngs, rs):
    """Passes play on: to the next player in the direction of play who is not losing a turn."""
    seat = next_seat(m, m[TURN_SEAT])
    while m[SKIPPED + seat] > 0:
        m[SKIPPED + seat] -= 1
        seat = next_seat(m, seat)
    begin_turn(m, rngs, rs, seat)


@small_rule
def to_move(m):
    """Gives the seat whose decision the game waits for."""
    return m[DECIDER] if m[PHASE] == WINDOW else m[TURN_SEAT]


# ---- chips and completed sequences ------------------------------------------------------------

@small_rule
def wins_with(rs, red, blue):
    """Gives whether a player holding these chips has won."""
    each = rs.numbers[EACH_COLOUR]
    return red + blue >= rs.numbers[TO_WIN] and red >= each and blue >= each


@small_rule
def ends_with_a_win(m, rs, seat):
    """Ends the game if `seat`'s chips win it; gives whether they did."""
    if wins_with(rs, m[CHIPS + 2 * seat], m[CHIPS + 2 * seat + 1]):
        m[WINNER] = seat
        m[OVER] = 1
        return True
    return False


@small_rule
def chip_available(m, rs, colour):
    """Gives whether completing a sequence of `colour` now gives a chip."""
    return m[SUPPLY + colour] > 0 or rs.numbers[OPT_SUPPLY] == UNLIMITED


@rule
def ask_next_blocker(m, rngs, rs):
    """Gives the completion to the next opponent (in turn order from the completer) who holds a
    Block and may play it (not forbidden it); settles it unblocked when nobody is left to ask."""
    p = m[PLAYERS]
    completer = m[COMPLETER]
    for k in range(m[ASKED] + 1, p):
        q = (completer + k * m[DIRECTION] + k * p) % p
        if m[HANDS + q * TYPES + BLOCK] > 0 and not (m[FORBID + q] >> BLOCK) & 1:
            m[ASKED] = k
            m[DECIDER] = q
            m[PHASE] = WINDOW
            return
    settle(m, rngs, rs, False)


@rule
def settle(m, rngs, rs, blocked):
    """Sets the completed pile aside; gives its chip to the completer unless it was blocked."""
    slot = m[COMPLETED_SLOT]
    colour = slot // MAX_OPEN
    for i in range(SEQUENCE):
        m[REMOVED + m[REMOVED_N]] = m[PILE + slot * SEQUENCE + i]
        m[REMOVED_N] += 1
    m[PILE_LEN + slot] = 0
    m[OPEN_N + colour] -= 1
    m[PHASE] = TURN
    seat = m[COMPLETER]
    if blocked:
        m[SEQUENCES_BLOCKED] += 1
    elif chip_available(m, rs, colour):
        if rs.numbers[OPT_SUPPLY] != UNLIMITED:
            m[SUPPLY + colour] -= 1
        m[CHIPS + 2 * seat + colour] += 1
        if ends_with_a_win(m, rs, seat):
            return
    if m[HAND_N + seat] == 0:
        refill(m, rngs, seat, rs.numbers[HAND_SIZE])


# ---- legal moves ------------------------------------------------------------------------------

@small_rule
def _put(out, n, action, source, card, a, b):
    out[n, 0] = action
    out[n, 1] = source
    out[n, 2] = card
    out[n, 3] = a
    out[n, 4] = b
    return n + 1


@small_rule
def free_slot(m, rs, colour):
    """Gives the slot a new pile of `colour` would take, or -1 when no more may be opened."""
    if m[OPEN_N + colour] >= rs.numbers[OPEN_PER_COLOUR]:
        return -1
    for slot in range(colour * MAX_OPEN, colour * MAX_OPEN + MAX_OPEN):
        if m[PILE_LEN + slot] == 0:
            return slot
    return -1


@small_rule
def steal_allowed(m, rs, seat, colour):
    """Gives whether Steal-a-Chip may take a chip of `colour` for `seat` (by default not the
    chip that would make them win)."""
    if rs.numbers[OPT_WINNING_STEAL] == ALLOWED:
        return True
    red, blue = m[CHIPS + 2 * seat], m[CHIPS + 2 * seat + 1]
    return not wins_with(rs, red + 1 - colour, blue + colour)


@small_rule
def card_moves(m, rs, seat, source, t, out, n):
    """Writes the legal plays of one card of type t from `source` into out[n:]; gives the new
    row count. A Block has none: it is played only out of turn."""
    p = m[PLAYERS]
    if t < FIRST_ACTION:
        colour, value = t // 6, t % 6
        if value <= 1:  # a 1 or a wild starts a pile
            slot = free_slot(m, rs, colour)
            if slot >= 0:
                n = _put(out, n, PLAY, source, t, slot, 0)
        if value != 1:
            for slot in range(colour * MAX_OPEN, colour * MAX_OPEN + MAX_OPEN):
                length = m[PILE_LEN + slot]
                if length > 0 and (value == 0 or value == length + 1):
                    n = _put(out, n, PLAY, source, t, slot, 0)
    elif t == SKIP or t == REVERSE:
        n = _put(out, n, ACT, source, t, 0, 0)
    elif t == STEAL_CARD:
        for q in range(p):
            if q != seat and m[DISCARD_N + q] > 0:
                n = _put(out, n, ACT, source, t, q, 0)
    elif t == STEAL_CHIP:
        for q in range(p):
            if q != seat:
                for colour in range(2):
                    if m[CHIPS + 2 * q + colour] > 0 and steal_allowed(m, rs, seat, colour):
                        n = _put(out, n, ACT, source, t, q, colour)
    return n


@small_rule
def top_card(m, seat):
    """Gives the top card of `seat`'s discard pile, -1 when it is empty."""
    n = m[DISCARD_N + seat]
    return m[DISCARD_PILES + seat * MAX_DECK + n - 1] if n > 0 else -1


@rule
def legal_moves(m, rs, moves, seat):
    """Lists every legal move of `seat` into `moves` (none when the game does not wait on
    them); gives how many. Cards the seat is forbidden to play (FORBID) have no play listed;
    discarding and ending the turn never are forbidden, so a seat always has a move (and a seat
    forbidden to Block is never asked to)."""
    n = 0
    if m[OVER] or seat != to_move(m):
        return 0
    if m[PHASE] == WINDOW:
        n = _put(moves, n, BLOCK_IT, HAND, BLOCK, 0, 0)
        return _put(moves, n, PASS, HAND, 0, 0, 0)
    forbid = m[FORBID + seat]
    held = m[HELD + seat] & ~forbid
    while held:
        t = lowest_type(held)
        held ^= 1 << t
        n = card_moves(m, rs, seat, HAND, t, moves, n)
    top = top_card(m, seat)
    if top >= 0 and not (forbid >> top) & 1 and not forbid & FORBID_TOP:
        n = card_moves(m, rs, seat, TOP, top, moves, n)
    held = m[HELD + seat]
    while held:
        t = lowest_type(held)
        held ^= 1 << t
        n = _put(moves, n, DISCARD, HAND, t, 0, 0)
    if m[HAND_N + seat] == 0:
        n = _put(moves, n, END, HAND, 0, 0, 0)
    return n


@rule
def is_legal(m, rs, moves, seat, move):
    """Gives whether a move is among the legal moves of `seat`."""
    n = legal_moves(m, rs, moves, seat)
    for i in range(n):
        same = True
        for f in range(5):
            if moves[i, f] != move[f]:
                same = False
        if same:
            return True
    return False


# ---- playing a move ---------------------------------------------------------------------------

@small_rule
def _take(m, seat, source, t):
    """Takes a card of type t from `seat`'s hand or the top of their discard pile."""
    if source == HAND:
        hand_remove(m, seat, t)
    else:
        m[DISCARD_N + seat] -= 1


@small_rule
def play_card(m, rngs, rs, seat, source, t, slot):
    """Puts a number or wild on a sequence pile; a fifth card opens the Block window."""
    _take(m, seat, source, t)
    length = m[PILE_LEN + slot]
    if length == 0:
        m[OPEN_N + slot // MAX_OPEN] += 1
    m[PILE + slot * SEQUENCE + length] = t
    m[PILE_LEN + slot] = length + 1
    if length + 1 == SEQUENCE:
        m[COMPLETED + seat] += 1
        m[COMPLETER] = seat
        m[COMPLETED_SLOT] = slot
        m[ASKED] = 0
        ask_next_blocker(m, rngs, rs)
    elif m[HAND_N + seat] == 0:
        refill(m, rngs, seat, rs.numbers[HAND_SIZE])


@rule
def play_action(m, rngs, rs, seat, source, t, a, b):
    """Plays an action card in `seat`'s own turn and resolves it."""
    _take(m, seat, source, t)
    m[ACTIONS_PLAYED + seat * N_ACTIONS + t - FIRST_ACTION] += 1
    if t == SKIP:
        m[SKIPPED + next_seat(m, seat)] += 1
    elif t == REVERSE:
        m[DIRECTION] = -m[DIRECTION]
    elif t == STEAL_CARD:
        m[DISCARD_N + a] -= 1
        hand_add(m, seat, m[DISCARD_PILES + a * MAX_DECK + m[DISCARD_N + a]])
    elif t == STEAL_CHIP:
        m[CHIPS + 2 * a + b] -= 1
        m[CHIPS + 2 * seat + b] += 1
        if ends_with_a_win(m, rs, seat):
            return
    if m[HAND_N + seat] == 0:
        refill(m, rngs, seat, rs.numbers[HAND_SIZE])


@small_rule
def apply_move(m, rngs, rs, seat, move):
    """Plays a legal move of `seat` and carries the game on to the next decision."""
    action, source, t = move[0], move[1], move[2]
    m[MOVES] += 1
    if action == PLAY:
        play_card(m, rngs, rs, seat, source, t, move[3])
    elif action == ACT:
        play_action(m, rngs, rs, seat, source, t, move[3], move[4])
    elif action == DISCARD:
        hand_remove(m, seat, t)
        m[DISCARD_PILES + seat * MAX_DECK + m[DISCARD_N + seat]] = t
        m[DISCARD_N + seat] += 1
        end_turn(m, rngs, rs)
    elif action == END:
        end_turn(m, rngs, rs)
    elif action == BLOCK_IT:
        hand_remove(m, seat, BLOCK)
        m[ACTIONS_PLAYED + seat * N_ACTIONS + BLOCK - FIRST_ACTION] += 1
        settle(m, rngs, rs, True)
    else:
        ask_next_blocker(m, rngs, rs)
    if m[OVER] == 0 and m[MOVES] >= rs.numbers[MOVE_CAP]:
        m[STALLED] = 1
        m[OVER] = 1

