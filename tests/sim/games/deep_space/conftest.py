"""Deep Space positions built by hand, so that each test sets up exactly what its rule is about.

Planets are named as on the stand-in board: homes H0-H3, ring R0-R11, inner I0-I3 (linked to
the gem warp). Seat k's home with 4 players is Hk; with 2 players the seats are H0 and H2.
"""

import numpy as np
import pytest

from sim.games.deep_space import GAME, engine
from sim.games.deep_space.engine import END, MOVE
from sim.games.deep_space.state import ACT, DOGS_LEFT, MOVES_LEFT, PHASE, TURN_SEAT


@pytest.fixture(scope="session")
def default_rules():
    return GAME.load_rules(None, [])


class Table:
    """A Deep Space table set up by hand: nobody on the board, every recruit in its colour's
    supply, no resources, no bases, empty hands; seat 0 in its ACT phase with 2 moves left."""

    def __init__(self, players=4, sets=(), seed=0):
        from sim.game import Setup

        self.rules = GAME.load_rules(None, list(sets))
        self.rs, self.planets, self.kinds, _, _, self.s = GAME.prepare(
            self.rules, Setup(players, ("default",) * players))
        engine.start_game(self.s, self.rs, seed, 0)
        s = self.s
        s.units[:, :] = 0
        s.supply[:] = int(self.rs.numbers[engine.N_RECRUITS])
        s.hand[:, :] = -1
        s.hand_n[:] = 0
        s.g[engine.DRAW_AT] = 0  # every card in the pile
        s.g[engine.DISCARDS] = 0
        self.at(0)

    # ---- building the position ----

    def q(self, planet: str) -> int:
        return self.planets.index(planet)

    def at(self, seat: int) -> None:
        """Makes it `seat`'s turn, in its ACT phase with the turn's moves."""
        self.s.g[TURN_SEAT] = seat
        self.s.g[PHASE] = ACT
        self.s.g[MOVES_LEFT] = self.rs.numbers[engine.MOVES]

    def put(self, seat: int, planet: str, n: int, dogs: int = 0) -> None:
        """Puts n of `seat`'s recruits (and dogs) from the supply on a planet."""
        s, q = self.s, self.q(planet)
        s.units[seat, q] += n
        s.supply[seat] -= n
        s.dogs[seat, q] += dogs
        s.g[DOGS_LEFT] -= dogs

    def give(self, seat: int, *kinds: str) -> None:
        """Makes these cards (by kind, e.g. "space_dog") the hand of `seat`, taken from the pile."""
        s = self.s
        for i, kind in enumerate(kinds):
            k = self.kinds.index(kind)
            card = next(c for c in s.deck[s.g[engine.DRAW_AT]:] if self.rs.card_kind[c] == k)
            where = int(np.flatnonzero(s.deck == card)[0])
            s.deck[where], s.deck[s.g[engine.DRAW_AT]] = s.deck[s.g[engine.DRAW_AT]], s.deck[where]
            s.g[engine.DRAW_AT] += 1
            s.hand[seat, i] = card
        s.hand_n[seat] = len(kinds)

    def units(self, seat: int, planet: str) -> int:
        return int(self.s.units[seat, self.q(planet)])

    def dogs(self, seat: int, planet: str) -> int:
        return int(self.s.dogs[seat, self.q(planet)])

    # ---- reading and playing ----

    def moves(self, seat: int | None = None) -> list[tuple[int, ...]]:
        """Gives the legal moves of `seat` (default: the seat to play)."""
        seat = int(self.s.g[TURN_SEAT]) if seat is None else seat
        n = engine.legal_moves(self.s, self.rs, seat)
        return [tuple(row) for row in self.s.moves[:n].tolist()]

    def kinds_of_moves(self, action: int, seat: int | None = None) -> list[tuple[int, ...]]:
        return [m for m in self.moves(seat) if m[0] == action]

    def destinations(self, seat: int, via: int | None = None) -> set[str]:
        """Gives the planets `seat` may move to (by links, the warp, or either)."""
        return {self.planets[m[2]] for m in self.kinds_of_moves(MOVE, seat)
                if via is None or m[5] == via}

    def play(self, *move: int, seat: int | None = None) -> None:
        """Plays a move after checking it is legal (missing fields are 0)."""
        seat = int(self.s.g[TURN_SEAT]) if seat is None else seat
        row = np.array([*move, *[0] * (6 - len(move))], np.int64)
        assert engine.is_legal(self.s, self.rs, seat, row), move
        engine.apply_move(self.s, self.rs, seat, row)

    def move(self, source: str, target: str, n: int, dogs: int = 0, warp: int = 0) -> None:
        self.play(MOVE, self.q(source), self.q(target), n, dogs, warp)

    def end(self) -> None:
        self.play(END)

    def recruits_of(self, seat: int) -> int:
        """Gives every recruit of a colour: on the board and in its supply."""
        return int(self.s.units[seat].sum() + self.s.supply[seat])



@pytest.fixture
def new_table():
    """Gives the Table class, to build a table with other players or rule options."""
    return Table
