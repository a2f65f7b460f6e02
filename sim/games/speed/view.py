"""Speed for Python strategies: what a player may know (`View`), its legal plays in words
(`Move`), and the bridge between those and the engine's arrays.

Hand slots are numbered from 0; centre piles are 0 and 1. A Python bot chooses *which* card
its seat plays; its reaction time, drawn by the clock, decides *when* the play lands, and the
engine drops it if it no longer fits then.
"""

from __future__ import annotations

from typing import NamedTuple

from sim.games.speed.engine import legal_moves
from sim.games.speed.state import HAND_NO
from sim.games.spit import view as spit_view
from strategies import python_bots


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


class View(python_bots.View):
    """What the player in `seat` may know when it plans a play.

    seat:            int
    hand_no:         1, 2, ... (scoring "points" plays several hands)
    time:            simulated seconds since the game began
    hand:            tuple[str | None, ...], own cards by slot (None: an empty slot)
    draw_pile:       own face-down draw pile's cards
    other_hand:      how many cards the other player holds in hand
    other_draw_pile: int
    centre:          tuple[SpitPile, SpitPile], the centre piles' tops and sizes
    side_piles:      tuple[int, int], face-down side-pile cards left
    score:           tuple[int, int], per seat (scoring "points"; else 0)
    suggest(strategy): the move a built-in strategy would play here (see python_bots.Suggests)
    """

    FIELDS = ("seat", "hand_no", "time", "hand", "draw_pile", "other_hand", "other_draw_pile",
              "centre", "side_piles", "score")
    __slots__ = FIELDS
    # Read as first asked for, from the position (s, c, names, seat, choosing_pile): Speed
    # has no pile to choose.
    READERS = {
        "seat": lambda s, c, names, seat, choosing: seat,
        "hand_no": lambda s, c, names, seat, choosing: int(s.g[HAND_NO]) + 1,
        "time": lambda s, c, names, seat, choosing: float(c.now[0]),
        "hand": lambda s, c, names, seat, choosing: tuple(
            names[card] if card >= 0 else None for card in s.hand[seat].tolist()),
        "draw_pile": lambda s, c, names, seat, choosing: int(s.draw_n[seat]),
        "other_hand": lambda s, c, names, seat, choosing: int((s.hand[1 - seat] >= 0).sum()),
        "other_draw_pile": lambda s, c, names, seat, choosing: int(s.draw_n[1 - seat]),
        "centre": lambda s, c, names, seat, choosing: tuple(
            spit_view.SpitPile(names[s.centre[b, n - 1]], n)
            for b, n in enumerate(s.centre_n.tolist())),
        "side_piles": lambda s, c, names, seat, choosing: tuple(s.side_n.tolist()),
        "score": lambda s, c, names, seat, choosing: tuple(s.score.tolist()),
    }


def readable(s, names: list[str], seat: int, row) -> Move:
    """Gives an engine move row (PLAY, slot, pile) of `seat` in words."""
    _, slot, pile = row
    return Move("play", slot, names[s.hand[seat, slot]], pile)


moves = spit_view.listed_moves(legal_moves, readable)


def view(s, c, names: list[str], seat: int, choosing_pile: bool = False, advise=None,
         lazy: bool = False) -> View:
    """Gives what `seat` may know now: its hand, the centre piles, the other's card counts.
    advise(strategy) gives the index of the legal move a built-in strategy would play
    (View.suggest), None: no advice; lazy: each field is read as first asked for (the position
    must not change meanwhile), else all are read now."""
    seen = View((s, c, names, seat, choosing_pile), advise)
    return seen if lazy else seen.keep()


class PythonSeatPlayer(spit_view.PythonSeatPlayer):
    """Plays a Python strategy's seat of Speed (Spit's player with Speed's moves and view)."""

    legal_moves, readable, View = staticmethod(legal_moves), staticmethod(readable), View
