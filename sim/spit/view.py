"""Spit for Python strategies: what a player may know (`View`), its legal moves in words
(`Move`), and the bridge between those and the engine's arrays.

Stock piles are numbered from 0, left to right (the trace's "stock pile 1" is pile 0 here);
spit piles are 0 and 1 (pile 0 is the one seat 0 started). A Python bot chooses *which* move
its seat plans; its reaction time, drawn by the clock, decides *when* the move lands, and the
engine drops it if it is no longer legal then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from sim.spit.engine import legal_moves
from sim.spit.state import DEAL, PLAY, SHIFT, STACK, TURN

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


@dataclass(frozen=True, slots=True)
class View:
    """What the player in `seat` may know when it plans a move (or chooses a pile)."""

    seat: int
    deal: int                             # 1, 2, ...
    time: float                           # simulated seconds since the game began
    layout: tuple[StockPile, ...]         # own stock piles
    other_layout: tuple[StockPile, ...]   # the other player's (its face-up cards are in view)
    spit_piles: tuple[SpitPile, SpitPile]
    spit_cards: tuple[int, int]           # per seat, face-down spit cards left
    cards_held: tuple[int, int]           # per seat, every card it owns (stock and spit cards)
    choosing_pile: bool                   # the legal moves are the lone spitter's "spit_onto"


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
    reuse the engine's scratch array) and in words."""
    def moves(s, names: list[str], seat: int, rs) -> tuple[list, list]:
        rows = s.moves[:legal_moves(s, rs, seat)].tolist()
        return rows, [readable(s, names, seat, row) for row in rows]
    return moves


moves = listed_moves(legal_moves, readable)


def _layout(s, names, seat) -> tuple[StockPile, ...]:
    piles = []
    for p, (n, up) in enumerate(zip(s.stock_n[seat].tolist(), s.stock_up[seat].tolist())):
        piles.append(StockPile(n - up, tuple(names[c] for c in s.stock[seat, p, n - up:n].tolist())))
    return tuple(piles)


def view(s, c, names: list[str], seat: int, choosing_pile: bool = False) -> View:
    """Gives what `seat` may know now: both layouts as they lie face up, the spit piles' tops,
    and how many cards each seat has."""
    centre_n = s.centre_n.tolist()
    held = [sum(s.stock_n[w].tolist()) + int(s.spit_n[w]) for w in range(2)]
    return View(
        seat=seat, deal=int(s.g[DEAL]) + 1, time=float(c.now[0]),
        layout=_layout(s, names, seat), other_layout=_layout(s, names, 1 - seat),
        spit_piles=tuple(SpitPile(names[s.centre[b, n - 1]] if n else None, n)
                         for b, n in enumerate(centre_n)),
        spit_cards=tuple(s.spit_n.tolist()), cards_held=tuple(held), choosing_pile=choosing_pile)


class PythonSeatPlayer:
    """Plays a Python strategy's seat in the Python driver: lists the legal moves in words,
    builds the view, asks the strategy, and writes its move into the clock's plan."""

    moves, view = staticmethod(moves), staticmethod(view)

    def __init__(self, s, rs, c, names: list[str], seat):
        self.s, self.rs, self.c, self.names, self.seat = s, rs, c, names, seat

    def __call__(self, seat: int) -> bool:
        """Plans `seat`'s move into c.plan[seat]; gives False (the bot is not asked) when it
        has no legal move."""
        rows, legal = self.moves(self.s, self.names, seat, self.rs)
        if not legal:
            return False
        self.c.plan[seat] = rows[self.seat.pick(self.view(self.s, self.c, self.names, seat), legal)]
        return True

    def pile(self, seat: int) -> int:
        """Gives the spit pile the lone spitter `seat` spits onto from now on: the bot chooses
        between Move("spit_onto", spit_pile=0) and (spit_pile=1), with choosing_pile set."""
        return self.seat.pick(view(self.s, self.c, self.names, seat, True), list(PILE_CHOICES))
