"""Spit for Python strategies: what a player may know (`View`), its legal moves in words
(`Move`), and the bridge between those and the engine's arrays.

Stock piles are numbered from 0, left to right (the trace's "stock pile 1" is pile 0 here);
spit piles are 0 and 1 (pile 0 is the one seat 0 started). A Python bot chooses *which* move
its seat plans; its reaction time, drawn by the clock, decides *when* the move lands, and the
engine drops it if it is no longer legal then.
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from sim.jit import direct
from sim.games.spit.engine import legal_moves
from sim.games.spit.state import DEAL, PLAY, SHIFT, STACK, TURN
from strategies import python_bots
from strategies.python_bots import LegalMoves

ACTIONS = {PLAY: "play", TURN: "turn", SHIFT: "fill_space", STACK: "stack_equal"}


class Move(NamedTuple):
    """One legal move. Fields that do not apply to the action are None.

    action:    "play" (a face-up stock card onto a spit pile), "turn" (turn up a stock pile's
               face-down top card), "fill_space" (move a face-up card into an empty space to
               uncover the card beneath), "stack_equal" (variant: put a face-up card on an
               equal rank to uncover the card beneath), or "spit_onto": the lone spitter's
               choice of the spit pile it spits onto from now on (View.choosing_pile)
    stock:     the own stock pile the card comes from (turn: the pile turned up)
    card:      the card moved, e.g. "7h" (None for turn: it is face down)
    spit_pile: play: the spit pile played onto; spit_onto: the pile chosen
    to_stock:  fill_space: the empty space; stack_equal: the pile with the equal rank
    """

    action: str
    stock: int | None = None
    card: str | None = None
    spit_pile: int | None = None
    to_stock: int | None = None


PILE_CHOICES = [Move("spit_onto", None, None, 0, None), Move("spit_onto", None, None, 1, None)]


class StockPile(NamedTuple):
    """A stock pile as it lies: face-down cards under face-up ones."""

    face_down: int            # how many
    face_up: tuple[str, ...]  # bottom to top: the last one is the top (); an empty space: 0, ()


class SpitPile(NamedTuple):
    """A spit pile in the centre."""

    top: str | None  # None: not in play this deal
    cards: int


class View(python_bots.View):
    """What the player in `seat` may know when it plans a move (or chooses a pile).

    seat:          int
    deal:          1, 2, ...
    time:          simulated seconds since the game began
    layout:        tuple[StockPile, ...], own stock piles
    other_layout:  tuple[StockPile, ...], the other player's (its face-up cards are in view)
    spit_piles:    tuple[SpitPile, SpitPile]
    spit_cards:    tuple[int, int], per seat, face-down spit cards left
    cards_held:    tuple[int, int], per seat, every card it owns (stock and spit cards)
    choosing_pile: the legal moves are the lone spitter's "spit_onto"
    suggest(strategy): the move a built-in strategy would play here (see python_bots.Suggests)
    """

    FIELDS = ("seat", "deal", "time", "layout", "other_layout", "spit_piles", "spit_cards",
              "cards_held", "choosing_pile")
    __slots__ = FIELDS
    # Read as first asked for, from the position (s, c, names, seat, choosing_pile).
    READERS = {
        "seat": lambda s, c, names, seat, choosing: seat,
        "deal": lambda s, c, names, seat, choosing: int(s.g[DEAL]) + 1,
        "time": lambda s, c, names, seat, choosing: float(c.now[0]),
        "layout": lambda s, c, names, seat, choosing: _layout(s, names, seat),
        "other_layout": lambda s, c, names, seat, choosing: _layout(s, names, 1 - seat),
        "spit_piles": lambda s, c, names, seat, choosing: tuple(
            SpitPile(names[s.centre[b, n - 1]] if n else None, n)
            for b, n in enumerate(s.centre_n.tolist())),
        "spit_cards": lambda s, c, names, seat, choosing: tuple(s.spit_n.tolist()),
        "cards_held": lambda s, c, names, seat, choosing: tuple(
            sum(s.stock_n[w].tolist()) + int(s.spit_n[w]) for w in range(2)),
        "choosing_pile": lambda s, c, names, seat, choosing: choosing,
    }


def readable(s, names: list[str], seat: int, row) -> Move:
    """Gives an engine move row (kind, a, b) of `seat` in words."""
    kind, a, b = row
    if kind == TURN:
        return Move("turn", a, None, None, None)
    card = names[s.stock[seat, a, s.stock_n[seat, a] - 1]]
    if kind == PLAY:
        return Move("play", a, card, b, None)
    return Move(ACTIONS[kind], a, card, None, b)


def listed_moves(legal_moves, readable):
    """Gives a real-time game's moves(s, names, seat, rs) -> (rows, moves): the legal moves of
    `seat` in the engine's order (restrictions applied), as the engine's rows (a copy: bots
    reuse the engine's scratch array) and in words (LegalMoves)."""
    def moves(s, names: list[str], seat: int, rs, legal_moves=legal_moves
              ) -> tuple[np.ndarray, LegalMoves]:
        rows = s.moves[:legal_moves(s, rs, seat)].copy()
        return rows, LegalMoves(rows, lambda row: readable(s, names, seat, row))
    return moves


moves = listed_moves(legal_moves, readable)


def _layout(s, names, seat) -> tuple[StockPile, ...]:
    piles = []
    for p, (n, up) in enumerate(zip(s.stock_n[seat].tolist(), s.stock_up[seat].tolist())):
        piles.append(StockPile(n - up, tuple(names[c] for c in s.stock[seat, p, n - up:n].tolist())))
    return tuple(piles)


def view(s, c, names: list[str], seat: int, choosing_pile: bool = False, advise=None,
         lazy: bool = False) -> View:
    """Gives what `seat` may know now: both layouts as they lie face up, the spit piles' tops,
    and how many cards each seat has. advise(strategy) gives the index of the legal move a
    built-in strategy would play (View.suggest), None: no advice; lazy: each field is read as
    first asked for (the position must not change meanwhile), else all are read now."""
    seen = View((s, c, names, seat, choosing_pile), advise)
    return seen if lazy else seen.keep()


class PythonSeatPlayer(python_bots.SeatPlayer):
    """Plays a Python strategy's seat of Spit (python_bots.SeatPlayer): lists its legal moves
    when the clock asks for a plan, and writes the chosen one into the clock's plan.

    A game's players differ in `legal_moves`, `readable` and `View` (Speed's: its own)."""

    legal_moves, readable, View = staticmethod(legal_moves), staticmethod(readable), View

    def __init__(self, s, rs, c, names: list[str], rules: dict, bots, seat: int):
        """bots: the game's bots (sim/turns.py's JittedBots) (its strategies and forbid modules); seat: the seat
        it plays."""
        super().__init__(s, rs, bots.strategies, bots.forbiddable(rules), rules, self.View,
                         partial(self.readable, s, names, seat))
        self.c, self.names, self.bots = c, names, bots
        self.position = (s, c, names, seat, False)  # what the view reads
        self.list_moves = direct(self.legal_moves, s, rs, 0)  # bound to this state

    def __call__(self, seat: int) -> bool:
        """Plans `seat`'s move into c.plan[seat]; gives False (the bot is not asked) when it
        has no legal move."""
        s = self.s
        rows = s.moves[:self.list_moves(s, self.rs, seat)].copy()
        if not len(rows):
            return False
        self.c.plan[seat] = rows[self.ask(seat, self.position, rows)]
        return True

    def out(self, seat: int) -> np.ndarray:
        return np.zeros_like(self.c.plan[seat])

    def pile(self, seat: int) -> int:
        """Gives the spit pile the lone spitter `seat` spits onto from now on: the bot chooses
        between Move("spit_onto", spit_pile=0) and (spit_pile=1), with choosing_pile set."""
        return self.seat.pick(view(self.s, self.c, self.names, seat, True,
                                   partial(self.suggested_pile, seat), True), list(PILE_CHOICES))

    def suggested_pile(self, seat: int, strategy: str) -> int:
        """Gives the spit pile (0, 1) the built-in `strategy` spits onto (View.suggest)."""
        piles = np.array([[0], [1]])
        strategies = self.strategies
        return python_bots.suggested_index(
            strategy, self.known, self.forbiddable, piles, seat, self.masks,
            lambda name: strategies.resolve(name, self.presets),
            lambda family, params: piles[strategies.choose_pile(self.s, self.rs, seat, family,
                                                                params)])

    def masks(self, forbidden: tuple[str, ...]) -> list:
        return [(self.s.forbid, self.bots.forbid.mask(forbidden))]
