"""Sequence Stacks games as text: the table at each turn's start, and each move in words."""

from typing import TextIO

from sim.games.sequence_stacks.cards import (
    COLOURS,
    MAX_OPEN,
    REVERSE,
    SKIP,
    STEAL_CARD,
    TYPES,
    name,
)
from sim.games.sequence_stacks.engine import ACT, BLOCK_IT, DISCARD, END, PLAY, TOP
from sim.games.sequence_stacks.state import (
    COMPLETER,
    DIRECTION,
    DRAW_N,
    RESHUFFLES,
    STALLED,
    TURN_SEAT,
    TURNS,
    WINNER,
    views,
)


def pile_label(slot: int) -> str:
    """Gives a pile slot's label: R1, R2 (red), B1, B2 (blue)."""
    return f"{'RB'[slot // MAX_OPEN]}{slot % MAX_OPEN + 1}"


def cards_text(counts) -> str:
    """Gives a hand (counts per card type) as text, e.g. 'red 1, red 3 x2, skip'."""
    parts = [name(t) + (f" x{int(c)}" if c > 1 else "") for t, c in zip(range(TYPES), counts) if c]
    return ", ".join(parts) or "(empty)"


class Tracer:
    """Writes a game's events as text: each turn's table, every move and what it caused."""

    def __init__(self, s, seats: tuple[str, ...], out: TextIO):
        self.s, self.v, self.seats, self.out = s, views(s), seats, out
        self.turn = 0

    def __call__(self, event: str, *args) -> None:
        getattr(self, "_" + event)(*args)

    def _print(self, text: str) -> None:
        print(text, file=self.out)

    def piles(self) -> str:
        v = self.v
        shown = []
        for slot in range(2 * MAX_OPEN):
            n = int(v.pile_len[slot])
            if n:
                shown.append(f"{pile_label(slot)}[" + " ".join(
                    "w" if t % 6 == 0 else str(t % 6) for t in v.pile[slot, :n]) + "]")
        return " ".join(shown) or "none"

    def chips(self) -> str:
        return ", ".join(f"{seat}:{int(r)}r{int(b)}b" for seat, (r, b) in enumerate(self.v.chips))

    def _start(self) -> None:
        self._turn_start()

    def _turn_start(self) -> None:
        v = self.v
        seat = int(v.g[TURN_SEAT])
        self.turn = int(v.g[TURNS])
        tops = ", ".join(f"{q}:{name(int(v.discard[q, v.discard_n[q] - 1]))}"
                         for q in range(len(self.seats)) if v.discard_n[q])
        self._print(f"\n--- turn {self.turn}: seat {seat} ({self.seats[seat]}); draw pile "
                    f"{int(v.g[DRAW_N])}; piles {self.piles()}; chips {self.chips()}")
        self._print(f"    hand: {cards_text(v.hand[seat])}; discard tops: {tops or 'none'}")

    def _move(self, seat: int, move) -> None:
        v = self.v
        action, source, t, a, b = (int(x) for x in move)
        self.before_chips = v.chips.copy()
        self.reshuffles = int(v.g[RESHUFFLES])
        where = " from the discard pile" if source == TOP else ""
        if action == PLAY:
            length = int(v.pile_len[a])
            text = (f"plays {name(t)}{where} on {pile_label(a)}" if length
                    else f"opens {pile_label(a)} with {name(t)}{where}")
            if length + 1 == 5:
                text += ", completing it"
        elif action == ACT:
            text = f"plays {name(t)}{where}"
            if t == SKIP:
                text += f": seat {(seat + int(v.g[DIRECTION])) % len(self.seats)} loses a turn"
            elif t == REVERSE:
                text += ": play changes direction"
            elif t == STEAL_CARD:
                text += f", taking {name(int(v.discard[a, v.discard_n[a] - 1]))} from seat {a}'s discard pile"
            else:
                text += f", taking a {COLOURS[b]} chip from seat {a}"
        elif action == DISCARD:
            text = f"discards {name(t)}"
        elif action == END:
            text = "has no cards left: the turn ends"
        elif action == BLOCK_IT:
            text = f"blocks seat {int(v.g[COMPLETER])}'s sequence: it is removed, no chip"
        else:
            text = f"does not block seat {int(v.g[COMPLETER])}'s sequence"
        self._print(f"  seat {seat} {text}")

    def _after(self, seat: int, move) -> None:
        v = self.v
        for q, ((r0, b0), (r1, b1)) in enumerate(zip(self.before_chips, v.chips)):
            if int(move[0]) == ACT:
                continue  # a stolen chip was told with the move
            for colour, gained in ((0, r1 - r0), (1, b1 - b0)):
                if gained > 0:
                    self._print(f"  seat {q} takes a {COLOURS[colour]} chip ({int(r1)} red, "
                                f"{int(b1)} blue)")
        if int(v.g[RESHUFFLES]) > self.reshuffles:
            self._print("  the draw pile ran out: the removed piles are shuffled into a new one")
        if int(v.g[TURNS]) != self.turn and not v.g[STALLED]:
            self._turn_start()

    def _end(self) -> None:
        v = self.v
        winner = int(v.g[WINNER])
        if winner >= 0:
            self._print(f"\nSeat {winner} ({self.seats[winner]}) wins after {int(v.g[TURNS])} turns; "
                        f"chips {self.chips()}")
        else:
            self._print(f"\nStalled after {int(v.g[TURNS])} turns: no winner; chips {self.chips()}")
