"""Saboteur positions built card by card, so that each test sets up exactly what its rule is about.

Coordinates in tests are the rules' maze coordinates: the start card at (0, 0), x growing east
towards the goals at (8, -2), (8, 0), (8, 2), y growing south.
"""

import numpy as np
import pytest

from sim.games.saboteur import GAME, cards, engine, maze
from sim.games.saboteur.cards import E, N, S, W
from sim.games.saboteur.engine import DISCARD, MINER, PLACE, SABOTEUR
from sim.games.saboteur.state import ORIGIN, STAMP, TURN_SEAT, new_state

GOAL_KINDS = {"gold": 0, "coal_ne": 1, "coal_nw": 2}  # goal_kind values
BY_LETTERS = {"N": N, "E": E, "S": S, "W": W}


def sides(letters: str) -> int:
    """Gives the exits mask of sides such as "NE"."""
    return sum(BY_LETTERS[c] for c in letters)


class Table:
    """A Saboteur table set up by hand: the start card and three face-down goals (gold in the
    middle unless told otherwise), every player a miner with no broken tool and an empty hand,
    seat 0 to play."""

    def __init__(self, players=4, sets=(), seed=0):
        self.rules = GAME.load_rules(None, list(sets))
        self.rs, self.names = cards.build(self.rules)
        self.s = new_state(players, len(self.names))
        engine.start_game(self.s, self.rs, seed, 0, -1)
        s = self.s
        s.hand[:, :] = -1
        s.hand_n[:] = 0
        s.role[:] = MINER
        s.g[engine.SABOTEURS] = 0
        s.broken[:] = 0
        s.g[TURN_SEAT] = 0
        self.goals("coal_ne", "gold", "coal_nw")

    # ---- building the position ----

    def card(self, name: str) -> int:
        """Gives a deck card with this name (e.g. "curve_ne", "map")."""
        return self.names.index(name)

    sides = staticmethod(sides)

    def goals(self, north: str, middle: str, south: str) -> None:
        """Lays out a fresh maze (start card only) with these goal cards ("gold", "coal_ne",
        "coal_nw") face down."""
        maze.clear(self.s, self.rs)
        self.s.goal_kind[:] = [GOAL_KINDS[north], GOAL_KINDS[middle], GOAL_KINDS[south]]
        self.refresh()

    def put(self, x: int, y: int, name: str, letters: str | None = None) -> None:
        """Lays path card `name` at (x, y), with the exits `letters` (default: as printed)."""
        c = self.card(name)
        exits = int(self.rs.exits[c]) if letters is None else sides(letters)
        assert exits in (self.rs.exits[c], maze.rotated(self.rs.exits[c])), "a card turns 180° only"
        maze.place(self.s, self.rs, ORIGIN + x, ORIGIN + y, c, exits)

    def row(self, y: int, x0: int, x1: int, name: str = "straight_ew") -> None:
        """Lays path card `name` in every cell (x0..x1, y)."""
        for x in range(x0, x1 + 1):
            self.put(x, y, name)

    def refresh(self) -> bool:
        return bool(maze.refresh(self.s, self.rs))

    def give(self, seat: int, *names: str) -> None:
        """Makes these cards the hand of `seat`."""
        s = self.s
        s.hand[seat, :] = -1
        for i, name in enumerate(names):
            s.hand[seat, i] = self.card(name)
        s.hand_n[seat] = len(names)

    def saboteurs(self, *seats: int) -> None:
        self.s.role[:] = MINER
        for seat in seats:
            self.s.role[seat] = SABOTEUR
        self.s.g[engine.SABOTEURS] = len(seats)

    def empty_pile(self) -> None:
        self.s.g[engine.DRAW_AT] = self.s.deck.shape[0]

    # ---- reading it ----

    def moves(self, seat: int) -> list[tuple[int, ...]]:
        """Gives the legal moves of `seat`, PLACE and ROCKFALL cells in maze coordinates."""
        n = engine.legal_moves(self.s, self.rs, seat)
        out = []
        for action, slot, a, b, c in self.s.moves[:n].tolist():
            if action in (PLACE, cards.ROCKFALL):
                a, b = a - ORIGIN, b - ORIGIN
            out.append((action, slot, a, b, c))
        return out

    def placements(self, seat: int) -> set[tuple[int, int, int]]:
        """Gives every (x, y, exits) where `seat` may place a path card from its hand."""
        return {(a, b, c) for action, _, a, b, c in self.moves(seat) if action == PLACE}

    def targets(self, seat: int, action: int) -> set[tuple[int, int]]:
        """Gives the (a, c) of every legal move of kind `action` (target seat/goal, tool)."""
        return {(a, c) for act, _, a, _, c in self.moves(seat) if act == action}

    def front(self) -> set[tuple[int, int]]:
        """Gives the empty cells a path card may go into, in maze coordinates."""
        n = self.s.g[engine.N_FRONT]
        return {(int(x) - ORIGIN, int(y) - ORIGIN) for x, y in self.s.front[:n]}

    def exits_at(self, x: int, y: int) -> int:
        return int(self.s.exits[ORIGIN + y, ORIGIN + x])

    def cell(self, x: int, y: int) -> int:
        return int(self.s.cell[ORIGIN + y, ORIGIN + x])

    def joined(self, x: int, y: int) -> bool:
        """Gives whether the card at (x, y) is joined to the start by through cards."""
        return bool(self.s.reach[ORIGIN + y, ORIGIN + x] == self.s.g[STAMP])

    # ---- playing ----

    def play(self, seat: int, action: int, slot: int = 0, a: int = 0, b: int = 0, c: int = 0) -> None:
        """Plays a move of `seat` (PLACE and ROCKFALL cells in maze coordinates) after checking
        that it is legal."""
        if action in (PLACE, cards.ROCKFALL):
            a, b = a + ORIGIN, b + ORIGIN
        move = np.array([action, slot, a, b, c], np.int64)
        assert engine.is_legal(self.s, self.rs, seat, move), (action, slot, a, b, c)
        engine.apply_move(self.s, self.rs, seat, move)

    def place(self, seat: int, x: int, y: int, letters: str) -> None:
        """Places the first card of `seat`'s hand at (x, y) with exits `letters`."""
        self.play(seat, PLACE, 0, x, y, sides(letters))

    def discard(self, seat: int, slot: int = 0) -> None:
        self.play(seat, DISCARD, slot)



@pytest.fixture
def new_table():
    """Gives the Table class, to build a table with other players or rule options."""
    return Table
