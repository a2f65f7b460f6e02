"""Spit and Speed positions built card by card, so that each test sets up exactly what its rule
is about. Cards are named like the trace names them: rank (A 2-9 T J Q K) and suit (c d s h),
e.g. "Kc", "7h"."""

import numpy as np
import pytest

from sim import search
from sim.game import Setup
from sim.games.spit import GAME, engine, loop, play, race
from sim.games.spit.state import LONE_PILE


class Table:
    """A Spit table set up by hand: both layouts empty, no spit cards, no spit pile in play,
    nothing planned, the clock at 0. `reaction` gives each seat's reaction setting, e.g.
    ("0.2:0", "1:0") (spread 0: every reaction takes exactly the mean)."""

    def __init__(self, sets=(), seats=("default", "default"), reaction=(None, None), seed=0):
        self.rules = GAME.load_rules(None, list(sets))
        options = tuple((f"reaction_{seat}", value) for seat, value in enumerate(reaction))
        self.setup = Setup(2, tuple(seats), options)
        (self.rs, self.names, self.families, self.params, self.s, self.c,
         self.means, self.spreads) = GAME.prepare(self.rules, self.setup)
        engine.start_game(self.s, self.rs, self.c, seed, 0)
        s = self.s
        s.stock_n[:] = 0
        s.stock_up[:] = 0
        s.spit_n[:] = 0
        s.centre_n[:] = 0
        s.hold_n[:] = 0
        s.starter[:] = [0, 1]
        s.idle[:] = 0
        s.g[LONE_PILE] = -1
        race.drop_plans(self.c)

    # ---- building the position ----

    def card(self, name: str) -> int:
        return self.names.index(name)

    def pile(self, seat: int, p: int, spec: str) -> None:
        """Lays stock pile p (0-based) of `seat`: cards bottom to top, face-down ones marked
        with a leading '-', e.g. "-3c -5d 7h" (two face-down cards under a face-up 7h)."""
        s = self.s
        words = spec.split()
        up = 0
        for i, word in enumerate(words):
            s.stock[seat, p, i] = self.card(word.lstrip("-"))
            up = 0 if word.startswith("-") else up + 1
        s.stock_n[seat, p] = len(words)
        s.stock_up[seat, p] = up

    def layout(self, seat: int, *specs: str) -> None:
        """Lays `seat`'s stock piles from the first on ("" for an empty space)."""
        for p, spec in enumerate(specs):
            self.pile(seat, p, spec)

    def centre(self, pile: int, *names: str, starter: int | None = None) -> None:
        """Puts these cards (bottom to top) in spit pile `pile`, started by `starter`."""
        s = self.s
        for i, name in enumerate(names):
            s.centre[pile, i] = self.card(name)
        s.centre_n[pile] = len(names)
        s.starter[pile] = pile if starter is None else starter

    def spit_cards(self, seat: int, *names: str) -> None:
        """Gives `seat` these face-down spit cards (the last one on top)."""
        for i, name in enumerate(names):
            self.s.spit[seat, i] = self.card(name)
        self.s.spit_n[seat] = len(names)

    # ---- reading it ----

    def moves(self, seat: int) -> set[tuple[int, int, int]]:
        n = engine.legal_moves(self.s, self.rs, seat)
        return {tuple(m) for m in self.s.moves[:n].tolist()}

    def top(self, pile: int) -> str:
        return self.names[int(self.s.centre[pile, self.s.centre_n[pile] - 1])]

    def stock_top(self, seat: int, p: int) -> str:
        return self.names[int(self.s.stock[seat, p, self.s.stock_n[seat, p] - 1])]

    # ---- playing ----

    def plan(self, seat: int, kind: int, a: int, b: int) -> None:
        """Plans `seat`'s move and schedules it after the seat's reaction time."""
        self.c.plan[seat] = [kind, a, b]
        race.schedule(self.c, seat)

    def step(self) -> tuple[int, int]:
        """Takes one step of the race as the play loop does: seats without a plan plan one,
        the earliest lands. Gives (seat, what landing did), or (-1, stalled?) after a stall."""
        s, rs, c = self.s, self.rs, self.c
        loop.plan_moves(s, rs, c, self.families, self.params, search.searching(self.families))
        seat = race.next_due(c)
        if seat < 0:
            return -1, int(play.resolve_stall(s, rs, c, self.families, self.params))
        return seat, int(engine.land(s, rs, c, seat))

    def cards_everywhere(self) -> list[int]:
        """Gives every card in the game, wherever it is (stock, spit cards, spit piles, held)."""
        s = self.s
        found = []
        for seat in range(2):
            for p in range(s.stock_n.shape[1]):
                found += s.stock[seat, p, :s.stock_n[seat, p]].tolist()
            found += s.spit[seat, :s.spit_n[seat]].tolist()
            found += s.hold[seat, :s.hold_n[seat]].tolist()
            found += s.centre[seat, :s.centre_n[seat]].tolist()
        return sorted(found)


@pytest.fixture
def new_table():
    """Gives the Table class, to build a table with rule options or reaction settings."""
    return Table



def all_cards(rs) -> list[int]:
    return list(range(int(np.asarray(rs.rank).shape[0])))
