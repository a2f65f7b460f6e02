"""Sequence Stacks positions built card by card, so that each test sets up exactly what its rule
is about. Cards are named as the trace names them: "red 3", "blue wild", "skip", "block",
"steal-a-card", "steal-a-chip"; piles as R1, R2 (red) and B1, B2 (blue)."""

import numpy as np

from sim.games.sequence_stacks import GAME, cards, engine
from sim.games.sequence_stacks.cards import MAX_OPEN
from sim.games.sequence_stacks.state import (
    COMPLETER,
    DIRECTION,
    DRAW_N,
    PHASE,
    REMOVED_N,
    TURN_SEAT,
    new_state,
    views,
)
from sim.games.sequence_stacks.trace import pile_label


def slot(label: str) -> int:
    """Gives the pile slot of a label such as "R1" or "B2"."""
    return "RB".index(label[0]) * MAX_OPEN + int(label[1:]) - 1


def held_mask(counts) -> int:
    """Gives the bit mask of the card types a hand holds (as State keeps it)."""
    return sum(1 << t for t, c in enumerate(counts) if c)


class Table:
    """A Sequence Stacks table set up by hand: empty hands, piles, discard piles and chips,
    a draw pile of `draw` cards (red 2s unless told otherwise), seat 0 to play."""

    def __init__(self, players=4, sets=(), draw=()):
        self.rules = GAME.load_rules(None, list(sets))
        self.rs = cards.build(self.rules)
        self.s = new_state(players)
        self.v = views(self.s)
        engine.start_game(self.s.m, self.s.rngs, self.rs, 0, 0)
        v = self.v
        v.hand[:, :] = 0
        v.hand_n[:] = 0
        v.held[:] = 0
        v.g[REMOVED_N] = 0
        self.draw_pile(*draw)
        v.g[TURN_SEAT] = 0

    # ---- building the position ----

    def draw_pile(self, *names: str) -> None:
        """Makes these cards the draw pile, the first name on top."""
        v = self.v
        for i, name in enumerate(reversed(names)):
            v.draw[i] = cards.type_named(name)
        v.g[DRAW_N] = len(names)

    def give(self, seat: int, *names: str) -> None:
        """Makes these cards the hand of `seat`."""
        v = self.v
        v.hand[seat, :] = 0
        for name in names:
            v.hand[seat, cards.type_named(name)] += 1
        v.hand_n[seat] = len(names)
        v.held[seat] = held_mask(v.hand[seat])

    def discards(self, seat: int, *names: str) -> None:
        """Makes these cards `seat`'s discard pile, the last name on top."""
        v = self.v
        for i, name in enumerate(names):
            v.discard[seat, i] = cards.type_named(name)
        v.discard_n[seat] = len(names)

    def pile(self, label: str, *names: str) -> None:
        """Lays a sequence pile of these cards (bottom first) in a slot."""
        v, k = self.v, slot(label)
        colour = k // MAX_OPEN
        if v.pile_len[k] == 0 and names:
            v.open_n[colour] += 1
        elif v.pile_len[k] and not names:
            v.open_n[colour] -= 1
        for i, name in enumerate(names):
            v.pile[k, i] = cards.type_named(name)
        v.pile_len[k] = len(names)

    def chips(self, seat: int, red: int, blue: int) -> None:
        self.v.chips[seat] = (red, blue)

    # ---- reading it ----

    def hand(self, seat: int) -> dict[str, int]:
        return {cards.name(t): int(c) for t, c in enumerate(self.v.hand[seat]) if c}

    def moves(self, seat: int) -> list[tuple[int, ...]]:
        n = engine.legal_moves(self.s.m, self.rs, self.s.moves, seat)
        return [tuple(row) for row in self.s.moves[:n].tolist()]

    def plays(self, seat: int) -> set[tuple[str, str, str]]:
        """Gives every (card, source, pile) a PLAY move of `seat` offers."""
        return {(cards.name(t), ("hand", "top")[source], pile_label(a))
                for action, source, t, a, _ in self.moves(seat) if action == engine.PLAY}

    def acts(self, seat: int) -> set[tuple[str, int, int]]:
        """Gives every (action card, target seat, colour) an ACT move of `seat` offers."""
        return {(cards.name(t), a, b) for action, _, t, a, b in self.moves(seat)
                if action == engine.ACT}

    @property
    def phase(self) -> int:
        return int(self.v.g[PHASE])

    @property
    def to_move(self) -> int:
        return int(engine.to_move(self.s.m))

    @property
    def turn_seat(self) -> int:
        return int(self.v.g[TURN_SEAT])

    @property
    def direction(self) -> int:
        return int(self.v.g[DIRECTION])

    @property
    def completer(self) -> int:
        return int(self.v.g[COMPLETER])

    # ---- playing ----

    def play(self, seat: int, action: int, source: int = engine.HAND, card: str | None = None,
             a=0, b: int = 0) -> None:
        """Plays a move of `seat` (a pile given by its label) after checking that it is legal."""
        t = cards.type_named(card) if card else 0
        if isinstance(a, str):
            a = slot(a)
        move = np.array([action, source, t, a, b], np.int64)
        assert engine.is_legal(self.s.m, self.rs, self.s.moves, seat, move), (action, source, card, a, b)
        engine.apply_move(self.s.m, self.s.rngs, self.rs, seat, move)

    def put(self, seat: int, card: str, label: str, source: int = engine.HAND) -> None:
        self.play(seat, engine.PLAY, source, card, label)

    def discard(self, seat: int, card: str) -> None:
        self.play(seat, engine.DISCARD, engine.HAND, card)
