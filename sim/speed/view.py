"""Speed for Python strategies: what a player may know (`View`), its legal plays in words
(`Move`), and the bridge between those and the engine's arrays.

Hand slots are numbered from 0; centre piles are 0 and 1. A Python bot chooses *which* card
its seat plays; its reaction time, drawn by the clock, decides *when* the play lands, and the
engine drops it if it no longer fits then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from sim.speed.engine import legal_moves
from sim.speed.state import HAND_NO
from sim.spit import view as spit_view


class Move(NamedTuple):
    """One legal play.

    action: always "play" (Speed's only move)
    slot:   the hand slot of the card (index into View.hand)
    card:   the card, e.g. "7h"
    pile:   the centre pile it goes onto (0 or 1)
    """

    action: str
    slot: int
    card: str
    pile: int


@dataclass(frozen=True, slots=True)
class View:
    """What the player in `seat` may know when it plans a play."""

    seat: int
    hand_no: int                    # 1, 2, ... (scoring "points" plays several hands)
    time: float                     # simulated seconds since the game began
    hand: tuple[str | None, ...]    # own cards by slot (None: an empty slot)
    draw_pile: int                  # own face-down draw pile's cards
    other_hand: int                 # how many cards the other player holds in hand
    other_draw_pile: int
    centre: tuple[spit_view.SpitPile, spit_view.SpitPile]  # the centre piles' tops and sizes
    side_piles: tuple[int, int]     # face-down side-pile cards left
    score: tuple[int, int]          # per seat (scoring "points"; else 0)


def readable(s, names: list[str], seat: int, row) -> Move:
    """Gives an engine move row (PLAY, slot, pile) of `seat` in words."""
    _, slot, pile = row
    return Move("play", slot, names[s.hand[seat, slot]], pile)


moves = spit_view.listed_moves(legal_moves, readable)


def view(s, c, names: list[str], seat: int) -> View:
    """Gives what `seat` may know now: its hand, the centre piles, the other's card counts."""
    other = 1 - seat
    return View(
        seat=seat, hand_no=int(s.g[HAND_NO]) + 1, time=float(c.now[0]),
        hand=tuple(names[card] if card >= 0 else None for card in s.hand[seat].tolist()),
        draw_pile=int(s.draw_n[seat]), other_hand=int((s.hand[other] >= 0).sum()),
        other_draw_pile=int(s.draw_n[other]),
        centre=tuple(spit_view.SpitPile(names[s.centre[b, n - 1]], n)
                     for b, n in enumerate(s.centre_n.tolist())),
        side_piles=tuple(s.side_n.tolist()), score=tuple(s.score.tolist()))


class PythonSeatPlayer(spit_view.PythonSeatPlayer):
    """Plays a Python strategy's seat of Speed (Spit's player with Speed's moves and view)."""

    moves, view = staticmethod(moves), staticmethod(view)
