"""The maze: placing and removing path cards, which cards are joined to the start, goal reveals,
and the front (the empty cells a path card may be placed in, with the exits that fit there)."""

import numpy as np

from sim.jit import rule, small_rule
from sim.games.saboteur.cards import DX, DY
from sim.games.saboteur.state import (DEAD_END, EMPTY, GOAL_HIDDEN, GOAL_SHOWN, MAX_FRONT, N_FRONT,
                                N_PLACED, ORIGIN, STAMP, START, THROUGH)


def _fit_table():
    # FIT[o, c]: bit m set when exits m open every side in o and close every side in c.
    table = np.zeros((16, 16), np.int32)
    for o in range(16):
        for c in range(16):
            for m in range(1, 16):
                if (m & o) == o and (m & c) == 0:
                    table[o, c] |= 1 << m
    return table


FIT = _fit_table()


@small_rule
def rotated(mask):
    """Gives the exits of a card turned 180 degrees."""
    return ((mask << 2) | (mask >> 2)) & 15


opposite = rotated  # the side facing a side is that side turned 180 degrees (N<->S, E<->W)


@small_rule
def carries_path(kind):
    """Gives whether a cell's card joins its exits: the start, a through card, a revealed goal."""
    return kind == THROUGH or kind == START or kind == GOAL_SHOWN


@rule
def clear(s, rs):
    """Lays out a fresh maze: the start card and the three goal cards face down.

    Only the cells the last maze used are wiped: wiping the whole grid each round would cost
    more memory traffic than playing the round.
    """
    g, cell, exits, card_at, front_at = s.g, s.cell, s.exits, s.card_at, s.front_at
    placed, front, goal_xy = s.placed, s.front, rs.goal_xy
    for i in range(g[N_PLACED]):
        x, y = placed[i, 0], placed[i, 1]
        cell[y, x] = EMPTY
        exits[y, x] = 0
        card_at[y, x] = -1
    for i in range(g[N_FRONT]):
        front_at[front[i, 1], front[i, 0]] = -1
    g[N_PLACED] = 0
    g[N_FRONT] = 0
    cell[ORIGIN, ORIGIN] = START
    exits[ORIGIN, ORIGIN] = 15
    for i in range(3):
        cell[ORIGIN + goal_xy[i, 1], ORIGIN + goal_xy[i, 0]] = GOAL_HIDDEN
        exits[ORIGIN + goal_xy[i, 1], ORIGIN + goal_xy[i, 0]] = 0
    s.goal_shown[:] = 0


@small_rule
def place(s, rs, x, y, card, exits):
    """Puts a path card with the given (oriented) exits into grid cell (x, y)."""
    g, placed = s.g, s.placed
    s.cell[y, x] = THROUGH if rs.through[card] else DEAD_END
    s.exits[y, x] = exits
    s.card_at[y, x] = card
    n = g[N_PLACED]
    placed[n, 0] = x
    placed[n, 1] = y
    g[N_PLACED] = n + 1


@small_rule
def remove(s, x, y):
    """Takes the path card out of grid cell (x, y) (rockfall) and gives its deck card."""
    g, placed = s.g, s.placed
    card = s.card_at[y, x]
    s.cell[y, x] = EMPTY
    s.exits[y, x] = 0
    s.card_at[y, x] = -1
    n = g[N_PLACED]
    for i in range(n):
        if placed[i, 0] == x and placed[i, 1] == y:
            for j in range(i, n - 1):
                placed[j, 0] = placed[j + 1, 0]
                placed[j, 1] = placed[j + 1, 1]
            break
    g[N_PLACED] = n - 1
    return card


@small_rule
def fit_mask(s, x, y):
    """Gives the exits that a path card may have in empty grid cell (x, y), as bits 1 << exits.

    Every side must match a neighbour already there (a face-down goal constrains nothing),
    and at least one side must meet an open side of a card joined to the start.
    """
    cell, exits, reach, stamp = s.cell, s.exits, s.reach, s.g[STAMP]
    if cell[y, x] != EMPTY:
        return 0
    must_open = 0
    must_close = 0
    touches_path = False
    for d in range(4):
        side = 1 << d
        nx, ny = x + DX[d], y + DY[d]
        kind = cell[ny, nx]
        if kind == EMPTY or kind == GOAL_HIDDEN:
            continue
        if exits[ny, nx] & opposite(side):
            must_open |= side
            if reach[ny, nx] == stamp and carries_path(kind):
                touches_path = True
        else:
            must_close |= side
    if not touches_path:
        return 0
    return FIT[must_open, must_close]


@small_rule
def _search(s):
    """Marks every card joined to the start by through cards; gives how many (queue holds them)."""
    g, cell, exits, reach, queue = s.g, s.cell, s.exits, s.reach, s.queue
    g[STAMP] += 1
    stamp = g[STAMP]
    reach[ORIGIN, ORIGIN] = stamp
    queue[0] = ORIGIN * 65536 + ORIGIN
    head, tail = 0, 1
    while head < tail:
        y, x = divmod(queue[head], 65536)
        head += 1
        for d in range(4):
            side = 1 << d
            if not exits[y, x] & side:
                continue
            nx, ny = x + DX[d], y + DY[d]
            if reach[ny, nx] != stamp and carries_path(cell[ny, nx]) \
                    and exits[ny, nx] & opposite(side):
                reach[ny, nx] = stamp
                queue[tail] = ny * 65536 + nx
                tail += 1
    return tail


@small_rule
def _reveal(s, rs):
    """Turns over a face-down goal the path reaches; gives 0 none, 1 a coal, 2 the gold."""
    cell, exits, reach, stamp = s.cell, s.exits, s.reach, s.g[STAMP]
    shown, kind = s.goal_shown, s.goal_kind
    goal_xy, coal_exits, gold_exits = rs.goal_xy, rs.coal_exits, rs.gold_exits
    for i in range(3):
        if shown[i]:
            continue
        gx, gy = ORIGIN + goal_xy[i, 0], ORIGIN + goal_xy[i, 1]
        for d in range(4):
            side = 1 << d
            nx, ny = gx + DX[d], gy + DY[d]
            if reach[ny, nx] == stamp and carries_path(cell[ny, nx]) \
                    and exits[ny, nx] & opposite(side):
                shown[i] = 1
                cell[gy, gx] = GOAL_SHOWN
                if kind[i] == 0:
                    exits[gy, gx] = gold_exits
                    return 2
                # A coal card is turned so that it joins the path that reached it.
                coal = coal_exits[kind[i] - 1]
                exits[gy, gx] = coal if coal & side else rotated(coal)
                return 1
    return 0


@small_rule
def _set_front(s, x, y):
    """Brings grid cell (x, y)'s place in the front up to date with the exits that fit there."""
    front, front_fit, front_at, fit_count, g = s.front, s.front_fit, s.front_at, s.fit_count, s.g
    fit = fit_mask(s, x, y)
    i = front_at[y, x]
    if i >= 0:
        for m in range(1, 16):
            if front_fit[i] & (1 << m):
                fit_count[m] -= 1
        if fit == 0:  # leaves the front: the last cell takes its place
            last = g[N_FRONT] - 1
            front[i, 0], front[i, 1], front_fit[i] = front[last, 0], front[last, 1], front_fit[last]
            front_at[front[i, 1], front[i, 0]] = i
            front_at[y, x] = -1
            g[N_FRONT] = last
            return
    elif fit == 0 or g[N_FRONT] == MAX_FRONT:
        return
    else:
        i = g[N_FRONT]
        g[N_FRONT] = i + 1
        front[i, 0], front[i, 1] = x, y
        front_at[y, x] = i
    front_fit[i] = fit
    for m in range(1, 16):
        if fit & (1 << m):
            fit_count[m] += 1


@rule
def refresh(s, rs):
    """Recomputes what is joined to the start, turns over reached goals and lists the front.

    Gives True when the gold was reached.
    """
    g, front, front_at = s.g, s.front, s.front_at
    for i in range(g[N_FRONT]):
        front_at[front[i, 1], front[i, 0]] = -1
    g[N_FRONT] = 0
    s.fit_count[:] = 0
    while True:
        reached = _search(s)
        found = _reveal(s, rs)
        if found == 2:
            return True
        if found == 0:
            break
    cell, exits, queue = s.cell, s.exits, s.queue
    for i in range(reached):
        y, x = divmod(queue[i], 65536)
        for d in range(4):
            nx, ny = x + DX[d], y + DY[d]
            if exits[y, x] & (1 << d) and cell[ny, nx] == EMPTY and front_at[ny, nx] < 0:
                _set_front(s, nx, ny)
    return False


@small_rule
def refresh_after_place(s, rs, x, y):
    """Updates the path and the front after a path card was placed at grid (x, y): cheaply when
    the card only extends the path, by `refresh` when it joins cut-off cards or reaches a goal.

    Gives True when the gold was reached.
    """
    cell, exits, reach, stamp = s.cell, s.exits, s.reach, s.g[STAMP]
    if cell[y, x] == THROUGH:
        for d in range(4):
            side = 1 << d
            nx, ny = x + DX[d], y + DY[d]
            if exits[y, x] & side and (cell[ny, nx] == GOAL_HIDDEN or (
                    carries_path(cell[ny, nx]) and exits[ny, nx] & opposite(side)
                    and reach[ny, nx] != stamp)):
                return refresh(s, rs)
        reach[y, x] = stamp
    _set_front(s, x, y)
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if cell[ny, nx] == EMPTY:
            _set_front(s, nx, ny)
    return False
