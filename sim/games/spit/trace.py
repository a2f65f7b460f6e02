"""Spit games as text: each deal's layouts, then the race event by event with timestamps."""

from typing import TextIO

from sim.games.spit import engine
from sim.games.spit.state import (
    DEAL,
    LONE_PILE,
    OUT_SEAT,
    PLAY,
    SHIFT,
    SLAP_SEAT,
    STACK,
    TAKEN_PILE,
    TURN,
    WINNER,
)


class RaceTracer:
    """Writes a real-time game's events, each line stamped with the simulated time; a game's
    tracer adds one `_<event>` method per event its play_python reports."""

    def __init__(self, s, rs, c, names: list[str], out: TextIO):
        self.s, self.rs, self.c, self.names, self.out = s, rs, c, names, out

    def __call__(self, event: str, *args) -> None:
        getattr(self, "_" + event)(*args)

    def _print(self, text: str) -> None:
        print(f"[{self.c.now[0]:8.3f}s] {text}", file=self.out)


class Tracer(RaceTracer):
    """Writes a Spit game's events: layouts, plans, moves landing or dropped, stalls, slaps."""

    def _card(self, card: int) -> str:
        return self.names[card]

    def _layout(self, seat: int) -> str:
        s = self.s
        piles = []
        for p in range(s.stock_n.shape[1]):
            n, up = int(s.stock_n[seat, p]), int(s.stock_up[seat, p])
            if n == 0:
                piles.append("__")
                continue
            shown = " ".join(self._card(int(c)) for c in s.stock[seat, p, n - up:n])
            piles.append("#" * (n - up) + (shown if up else ""))
        return f"seat {seat}: " + "  ".join(piles) + f"  | {int(s.spit_n[seat])} spit cards"

    def _piles(self) -> str:
        s = self.s
        return " | ".join(
            f"pile {b}: {self._card(int(s.centre[b, s.centre_n[b] - 1]))} ({int(s.centre_n[b])})"
            if s.centre_n[b] else f"pile {b}: -" for b in range(2))

    def _move(self, seat: int, card: int | None = None) -> str:
        kind, a, b = (int(x) for x in self.c.plan[seat])
        if card is None:
            n = int(self.s.stock_n[seat, a])
            card = int(self.s.stock[seat, a, n - 1]) if n else -1
        name = self._card(card) if card >= 0 else "?"
        if kind == PLAY:
            return f"play {name} from stock pile {a + 1} onto spit pile {b}"
        if kind == TURN:
            return f"turn up the top card of stock pile {a + 1}"
        if kind == SHIFT:
            return f"move {name} from stock pile {a + 1} into the empty space {b + 1}"
        if kind == STACK:
            return f"stack {name} from stock pile {a + 1} onto stock pile {b + 1}"
        return "?"

    def _deal(self) -> None:
        s = self.s
        self.shown_deal = int(s.g[DEAL])
        print(f"\n=== Deal {int(s.g[DEAL]) + 1}: "
              f"{'two spit piles' if s.centre_n[0] and s.centre_n[1] else 'one spit pile'}",
              file=self.out)
        for seat in range(2):
            print("  " + self._layout(seat), file=self.out)
        self._print("spit! " + self._piles())

    def _plan(self, seat: int) -> None:
        self._print(f"seat {seat} plans: {self._move(seat)} (lands at {self.c.due[seat]:.3f}s)")

    def _land(self, seat: int, status: int, card: int) -> None:
        if status == engine.DROPPED:
            self._print(f"seat {seat}'s {self._move(seat, card)} is dropped: no longer legal "
                        f"({self._piles()})")
            return
        text = self._move(seat, card).replace("play ", "plays ", 1).replace(
            "turn up", "turns up").replace("move ", "moves ", 1).replace("stack ", "stacks ", 1)
        if int(self.c.plan[seat, 0]) == TURN:
            a = int(self.c.plan[seat, 1])
            text += f": {self._card(int(self.s.stock[seat, a, self.s.stock_n[seat, a] - 1]))}"
        self._print(f"seat {seat} {text}; {self._piles()}")
        if status == engine.CAPPED:
            self._print("the move cap is reached: the game is recorded as stalled")

    def _stall(self, over: bool) -> None:
        s = self.s
        if over:
            self._print("stall that spitting cannot resolve: the game is recorded as stalled")
            return
        if int(s.g[DEAL]) != self.shown_deal:
            self._print("stall with both players out of spit cards: each gathers the spit pile "
                        "it started and its stock, and deals a new layout")
            self._deal()
            return
        lone = int(s.g[LONE_PILE])
        note = f" (the lone spitter spits onto pile {lone})" if lone >= 0 else ""
        self._print(f"stall: nobody can move; spit!{note} {self._piles()}; spit cards "
                    f"{int(s.spit_n[0])}/{int(s.spit_n[1])}")

    def _deal_end(self, over: bool) -> None:
        s = self.s
        out = int(s.g[OUT_SEAT])
        slap = int(s.g[SLAP_SEAT])
        text = f"seat {out} has played every stock card"
        if s.g[TAKEN_PILE] < 0:
            self._print(text + " and has no spit cards left: it wins the game")
            return
        if slap >= 0:
            text += (f"; seat {slap} takes the smaller spit pile (pile {int(s.g[TAKEN_PILE])}), "
                     f"seat {1 - slap} the other")
        else:
            text += f"; seat {1 - out} takes the one spit pile"
        self._print(text + f"; cards now: seat 0 {int(s.hold_n[0])}, seat 1 {int(s.hold_n[1])}"
                    if over else text)
        if over:
            self._print(f"seat {int(s.g[WINNER])} has no cards left and wins the game"
                        if s.g[WINNER] >= 0 else "the deal cap is reached: the game stalled")
