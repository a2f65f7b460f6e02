"""Saboteur's rules as jitted functions over a State: deal, legal moves, moves, round ends, gold.

A move is a row of five integers: (action, hand slot, a, b, c) where for
  PLACE    a, b = grid x, y and c = the card's exits as placed (turned or not)
  BREAK    a = target seat, c = tool bit
  REPAIR   a = target seat, c = tool bit fixed
  MAP      a = goal index (0, 1, 2 from north to south)
  ROCKFALL a, b = grid x, y of the path card removed
  DISCARD  (nothing: the card goes face down, a pass)
"""


import numpy as np

from sim.jit import rule, small_rule

from sim import rng
from sim.games.saboteur import maze
from sim.games.saboteur.cards import (ALL_PASS, AFTER_ROUND_ENDER, BREAK, CARDS_PER_PLAYER, CLOCKWISE,
                                DRAW_CAP, MAP, OPT_GOLD_PASS, OPT_GOLD_SHARE, OPT_ROUND_END,
                                OPT_STARTER, PATH, REPAIR, ROCKFALL)
from sim.games.saboteur.state import (STAMP, DRAW_AT, FINDER, FIXED_SABOTEURS, FORBID_PASS,
                                FORBID_PLAY, GAME, GAME_TURNS, LAST_PATH_SEAT,
                                LAST_SEAT, MINER_ROUNDS, MINERS_WON, N_FRONT, N_PLACED, PASSES,
                                PLAYERS, ROUND_OVER, ROUND_TURNS, SABOTEURS, SEED,
                                TURN_SEAT)

PLACE, DISCARD = 0, 5
MINER, SABOTEUR = 0, 1
GOLD_STREAM, BOT_STREAM = 100, 200


@rule
def start_game(s, rs, seed, game, fixed_saboteurs):
    """Sets up game `game` of a run seeded `seed`; fixed_saboteurs < 0 deals the role cards."""
    g, bot_rng = s.g, s.bot_rng
    p = s.hand.shape[0]
    maze.clear(s, rs)  # while the last game's lists of cards and front cells are known
    stamp = g[STAMP]  # stamps only ever grow, so marks left by an earlier game mean nothing
    g[:] = 0
    g[STAMP] = stamp
    g[PLAYERS] = p
    g[SEED] = seed
    g[GAME] = game
    g[FIXED_SABOTEURS] = fixed_saboteurs
    s.gold[:] = 0
    pile = s.gold_pile
    for v in range(4):
        pile[v] = rs.gold_counts[v]
    rng.start(s.gold_rng, seed, game, GOLD_STREAM)
    for seat in range(p):
        rng.start(bot_rng[seat], seed, game, BOT_STREAM + seat)
    zero = np.int64(0)  # not the literal 0: one compile of start_round, for play_games too
    start_round(s, rs, zero, zero)


@rule
def start_round(s, rs, round_index, first_seat):
    """Deals round `round_index`: roles, goals, the maze and hands; `first_seat` plays first."""
    g, role, deck, hand, hand_n, scratch = s.g, s.role, s.deck, s.hand, s.hand_n, s.scratch
    saboteur_cards, miner_cards = rs.saboteur_cards, rs.miner_cards
    p = g[PLAYERS]
    # Each round's deal has its own stream, so it never depends on how earlier rounds went.
    r = s.deal_rng
    rng.start(r, g[SEED], g[GAME], round_index)
    fixed = g[FIXED_SABOTEURS]
    if fixed >= 0:
        seats = scratch[:p]
        for i in range(p):
            seats[i] = i
        rng.shuffle(r, seats)
        role[:] = MINER
        for i in range(fixed):
            role[seats[i]] = SABOTEUR
    else:
        n_sab = saboteur_cards[p]
        roles = scratch[:n_sab + miner_cards[p]]
        roles[:] = MINER
        roles[:n_sab] = SABOTEUR
        rng.shuffle(r, roles)
        for seat in range(p):
            role[seat] = roles[seat]
    g[SABOTEURS] = summed(role)
    goal_kind = s.goal_kind  # the gold (0) and the two coal cards (1, 2), shuffled face down
    for i in range(3):
        goal_kind[i] = i
    rng.shuffle(r, goal_kind)
    maze.clear(s, rs)
    for i in range(deck.shape[0]):
        deck[i] = i
    rng.shuffle(r, deck)
    h = rs.hand_size[p]
    hand[:, :] = -1
    for seat in range(p):
        for j in range(h):
            hand[seat, j] = deck[seat * h + j]
        hand_n[seat] = h
    g[DRAW_AT] = p * h
    s.broken[:] = 0
    s.seen[:, :] = 0
    s.round_gold[:] = 0
    s.suspicion[:] = 0.0
    s.llr[:] = 0.0
    s.lean[:, :] = 0.0
    g[TURN_SEAT] = first_seat
    g[ROUND_TURNS] = 0
    g[LAST_PATH_SEAT] = -1
    g[LAST_SEAT] = -1
    g[ROUND_OVER] = 0
    g[MINERS_WON] = 0
    g[FINDER] = -1
    g[PASSES] = 0
    maze.refresh(s, rs)


@small_rule
def summed(a):
    """Gives the sum of a one-dimensional array, by a loop: numpy's `sum` compiles from numba's
    array maths, whose module (and scipy's BLAS, which it checks for) a warm start would
    then import to load the cached engine, about 0.2 CPU-s."""
    n = 0
    for x in a:
        n += x
    return n


@small_rule
def forbidden(s, seat, card, what):
    """Gives whether `seat` may not, in the role it has now, do `what` (FORBID_PLAY or
    FORBID_PASS) with `card` (--forbid NAME, or ROLE:NAME for one role: State.forbid)."""
    bits = s.forbid[seat, card]
    return (bits | (bits >> (2 + 2 * s.role[seat]))) & what != 0


@small_rule
def _play_count(s, rs, seat, slot):
    """Gives how many legal moves other than its discard the card in a hand slot offers."""
    broken, fit_count, shown = s.broken, s.fit_count, s.goal_shown
    n_placed = s.g[N_PLACED]
    card = s.hand[seat, slot]
    if forbidden(s, seat, card, FORBID_PLAY):
        return 0
    kind = rs.kind[card]
    tools = rs.tools[card]
    e = rs.exits[card]
    n = 0
    if kind == PATH:
        if broken[seat] == 0:
            n += fit_count[e]
            if maze.rotated(e) != e:
                n += fit_count[maze.rotated(e)]
    elif kind == BREAK:
        for q in range(broken.shape[0]):
            if not broken[q] & tools:
                n += 1
    elif kind == REPAIR:
        for q in range(broken.shape[0]):
            for t in (1, 2, 4):
                if tools & t and broken[q] & t:
                    n += 1
    elif kind == MAP:
        n += 3 - shown[0] - shown[1] - shown[2]
    else:
        n += n_placed
    return n


@rule
def cannot_play(s, rs, seat):
    """Gives whether `seat` has no legal move but discards (restrictions respected)."""
    for slot in range(s.hand_n[seat]):
        if _play_count(s, rs, seat, slot) > 0:
            return False
    return True


@small_rule
def may_discard(s, rs, seat, card):
    """Gives whether `seat` may pass by discarding `card`: always, unless passing is forbidden
    to it (--forbid pass), and then only when it has no other move."""
    return not forbidden(s, seat, card, FORBID_PASS) or cannot_play(s, rs, seat)


@small_rule
def slot_move_count(s, rs, seat, slot):
    """Gives how many legal moves the card in a hand slot offers (its discard included)."""
    n = _play_count(s, rs, seat, slot)
    return n + 1 if may_discard(s, rs, seat, s.hand[seat, slot]) else n


@small_rule
def _put(out, n, action, slot, a, b, c):
    out[n, 0] = action
    out[n, 1] = slot
    out[n, 2] = a
    out[n, 3] = b
    out[n, 4] = c
    return n + 1


@small_rule
def slot_moves(s, rs, seat, slot, out, n):
    """Writes the legal moves of the card in a hand slot into out[n:], in a fixed order;
    gives the new row count. The order is that of slot_move_count's sum. Moves forbidden to
    the seat (State.forbid) are not legal."""
    broken, front, front_fit, placed = s.broken, s.front, s.front_fit, s.placed
    shown, n_front, n_placed = s.goal_shown, s.g[N_FRONT], s.g[N_PLACED]
    card = s.hand[seat, slot]
    kind = rs.kind[card]
    tools = rs.tools[card]
    e = rs.exits[card]
    if forbidden(s, seat, card, FORBID_PLAY):
        pass
    elif kind == PATH:
        if broken[seat] == 0:
            for turn in range(2):
                m = e if turn == 0 else maze.rotated(e)
                if turn == 1 and m == e:
                    break
                for i in range(n_front):
                    if front_fit[i] & (1 << m):
                        n = _put(out, n, PLACE, slot, front[i, 0], front[i, 1], m)
    elif kind == BREAK:
        for q in range(broken.shape[0]):
            if not broken[q] & tools:
                n = _put(out, n, BREAK, slot, q, 0, tools)
    elif kind == REPAIR:
        for q in range(broken.shape[0]):
            for t in (1, 2, 4):
                if tools & t and broken[q] & t:
                    n = _put(out, n, REPAIR, slot, q, 0, t)
    elif kind == MAP:
        for i in range(3):
            if not shown[i]:
                n = _put(out, n, MAP, slot, i, 0, 0)
    else:
        for i in range(n_placed):
            n = _put(out, n, ROCKFALL, slot, placed[i, 0], placed[i, 1], 0)
    if may_discard(s, rs, seat, card):
        n = _put(out, n, DISCARD, slot, 0, 0, 0)
    return n


@rule
def legal_moves(s, rs, seat):
    """Lists every legal move of `seat` into s.moves; gives how many."""
    moves = s.moves
    n = 0
    for slot in range(s.hand_n[seat]):
        n = slot_moves(s, rs, seat, slot, moves, n)
    return n


@rule
def is_legal(s, rs, seat, move):
    """Gives whether a move is among the legal moves of `seat`."""
    moves = s.moves
    n = legal_moves(s, rs, seat)
    for i in range(n):
        same = True
        for f in range(5):
            if moves[i, f] != move[f]:
                same = False
        if same:
            return True
    return False


@small_rule
def _take_from_hand(s, seat, slot):
    hand = s.hand
    card = hand[seat, slot]
    last = s.hand_n[seat] - 1
    for j in range(slot, last):
        hand[seat, j] = hand[seat, j + 1]
    hand[seat, last] = -1
    s.hand_n[seat] = last
    return card


@small_rule
def apply_move(s, rs, seat, move):
    """Plays a legal move of `seat`: the card leaves the hand and takes effect."""
    g, broken, seen = s.g, s.broken, s.seen
    pile_empty = g[DRAW_AT] >= s.deck.shape[0]
    action = move[0]
    card = _take_from_hand(s, seat, move[1])
    if action == PLACE:
        maze.place(s, rs, move[2], move[3], card, move[4])
        g[LAST_PATH_SEAT] = seat
        if maze.refresh_after_place(s, rs, move[2], move[3]):
            g[ROUND_OVER] = 1
            g[MINERS_WON] = 1
            g[FINDER] = seat
    elif action == BREAK:
        broken[move[2]] |= move[4]
    elif action == REPAIR:
        broken[move[2]] &= ~move[4]
    elif action == MAP:
        seen[seat, move[2]] = 1
    elif action == ROCKFALL:
        maze.remove(s, move[2], move[3])
        maze.refresh(s, rs)
    # Under the all-pass rule, only passes made once the pile is empty count.
    g[PASSES] = g[PASSES] + 1 if action == DISCARD and pile_empty else 0
    g[ROUND_TURNS] += 1
    g[GAME_TURNS] += 1
    g[LAST_SEAT] = seat


@small_rule
def end_turn(s, rs):
    """Draws for the player who moved, ends the round if it is over, else finds who moves next.

    Gives True when the round is over. A player with an empty hand (the pile being empty)
    has no turn; under the all-pass rule that counts as a pass.
    """
    g, hand, hand_n, deck = s.g, s.hand, s.hand_n, s.deck
    all_pass = rs.numbers[OPT_ROUND_END] == ALL_PASS
    seat = g[TURN_SEAT]
    p = g[PLAYERS]
    if g[DRAW_AT] < deck.shape[0]:
        hand[seat, hand_n[seat]] = deck[g[DRAW_AT]]
        hand_n[seat] += 1
        g[DRAW_AT] += 1
    if g[ROUND_OVER]:
        return True
    pile_empty = g[DRAW_AT] >= deck.shape[0]
    for _ in range(p):
        if pile_empty and summed(hand_n) == 0:
            break
        if pile_empty and all_pass and g[PASSES] >= p:
            break
        seat = (seat + 1) % p
        if hand_n[seat] > 0:
            g[TURN_SEAT] = seat
            return False
        g[PASSES] += 1
    s.g[ROUND_OVER] = 1
    return True


@small_rule
def _draw_gold(s):
    """Draws a random card from the gold pile; gives its value (0 when the pile is empty)."""
    pile = s.gold_pile
    total = pile[1] + pile[2] + pile[3]
    if total == 0:
        return 0
    k = rng.below(s.gold_rng, total)
    for v in range(1, 4):
        if k < pile[v]:
            pile[v] -= 1
            return v
        k -= pile[v]
    return 0


@rule
def take_exactly(pile, target):
    """Takes gold cards worth `target` nuggets from the pile, as exactly as its cards allow
    (fewest cards among exact sums, else the largest sum below); gives the nuggets taken."""
    best, best_cards, best_take = -1, 99, (0, 0, 0)
    for c3 in range(min(pile[3], target // 3), -1, -1):
        for c2 in range(min(pile[2], (target - 3 * c3) // 2), -1, -1):
            c1 = min(pile[1], target - 3 * c3 - 2 * c2)
            total = 3 * c3 + 2 * c2 + c1
            if total > best or (total == best and c1 + c2 + c3 < best_cards):
                best, best_cards, best_take = total, c1 + c2 + c3, (c1, c2, c3)
    pile[1] -= best_take[0]
    pile[2] -= best_take[1]
    pile[3] -= best_take[2]
    return best


@rule
def pay_gold(s, rs):
    """Pays the round's gold: gold cards passed among the miners, or the saboteurs' share.

    The miners' cards: by default (one_each, the source's reading) one per miner, so each
    miner gets exactly one; under cards_per_player one per player, at most the draw cap, passed
    around the miners until none are left. Either way the cards go largest first, from the
    finder (or the nearest miner to a saboteur finder) on, in the passing direction."""
    g, role, round_gold, gold, pile, payout = s.g, s.role, s.round_gold, s.gold, s.gold_pile, rs.payout
    p = g[PLAYERS]
    step = 1 if rs.numbers[OPT_GOLD_PASS] == CLOCKWISE else p - 1
    draw_cap = rs.numbers[DRAW_CAP]
    if g[MINERS_WON]:
        if g[SABOTEURS] == p:
            return
        miners = p - g[SABOTEURS]
        count = min(p, draw_cap) if rs.numbers[OPT_GOLD_SHARE] == CARDS_PER_PLAYER else miners
        drawn = s.scratch[:count]
        for i in range(drawn.shape[0]):
            drawn[i] = _draw_gold(s)
            j = i  # keep the cards drawn sorted, largest first
            while j > 0 and drawn[j - 1] < drawn[j]:
                drawn[j - 1], drawn[j] = drawn[j], drawn[j - 1]
                j -= 1
        seat = g[FINDER]
        while role[seat] != MINER:  # a saboteur reached the gold: the nearest miner starts
            seat = (seat + step) % p
        for v in drawn:  # each miner in turn keeps the largest card left and passes the rest
            round_gold[seat] += v
            seat = (seat + step) % p
            while role[seat] != MINER:
                seat = (seat + step) % p
    elif g[SABOTEURS] > 0:
        share = payout[min(g[SABOTEURS], payout.shape[0] - 1)]
        for seat in range(p):
            if role[seat] == SABOTEUR:
                round_gold[seat] += take_exactly(pile, share)
    for seat in range(p):
        gold[seat] += round_gold[seat]


@rule
def next_round_first_seat(s, rs):
    """Gives who starts the next round: by default the player who placed the last path card."""
    g = s.g
    if rs.numbers[OPT_STARTER] == AFTER_ROUND_ENDER or g[LAST_PATH_SEAT] < 0:
        return (g[LAST_SEAT] + 1) % g[PLAYERS]
    return g[LAST_PATH_SEAT]


@rule
def end_round(s, rs):
    """Pays the gold of a finished round and counts it for the miners if they won."""
    pay_gold(s, rs)
    s.g[MINER_ROUNDS] += s.g[MINERS_WON]


@rule
def rank(gold, seat):
    """Gives a seat's rank by nuggets: 1 + how many seats have more (tied seats share it)."""
    out = 1
    for j in range(gold.shape[0]):
        if gold[j] > gold[seat]:
            out += 1
    return out
