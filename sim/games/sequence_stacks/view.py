"""Sequence Stacks for Python strategies: what a player may know (`View`), its legal moves in
words (`Move`), and the bridge between those and the engine's arrays.

Cards are named as the trace names them: "red 3", "blue wild", "skip", "reverse",
"steal-a-card", "block", "steal-a-chip". Sequence piles are labelled by colour and slot: R1-R4
(red), B1-B4 (blue). Seats count from 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from sim.jit import direct
from sim.games.sequence_stacks import bots, engine, forbid
from sim.games.sequence_stacks.cards import (
    ALLOWED,
    COLOURS,
    EACH_COLOUR,
    HAND_SIZE,
    MAX_OPEN,
    OPEN_PER_COLOUR,
    OPT_SUPPLY,
    OPT_WINNING_STEAL,
    SEQUENCE,
    STEAL_CARD,
    STEAL_CHIP,
    TO_WIN,
    TYPES,
    UNLIMITED,
    name,
)
from sim.games.sequence_stacks.engine import (
    ACT,
    BLOCK_IT,
    DISCARD,
    PLAY,
    TOP,
    WINDOW,
)
from sim.games.sequence_stacks.state import (
    CHIPS,
    COMPLETED_SLOT,
    COMPLETER,
    DIRECTION,
    DISCARD_N,
    DRAW_N,
    HAND,
    HAND_N,
    MAX_DECK,
    PHASE,
    PILE,
    PILE_LEN,
    PLAYERS,
    SKIPPED,
    SUPPLY,
    TURNS,
    views,
)
from sim.games.sequence_stacks.state import DISCARD as DISCARD_PILES
from sim.games.sequence_stacks.trace import pile_label

CARD_NAMES = tuple(name(t) for t in range(TYPES))
PILE_LABELS = tuple(pile_label(slot) for slot in range(2 * MAX_OPEN))
ACTION_NAMES = ("play", "action", "discard", "end", "block", "pass")  # by engine action
from strategies import python_bots
from strategies.python_bots import LegalMoves


class Move(NamedTuple):
    """One legal move. Fields that do not apply to the action are None.

    action:       "play" (a number or wild onto a sequence pile), "action" (an action card in
                  one's own turn), "discard" (a card from the hand: the turn is over), "end"
                  (the hand is empty: the turn just ends), "block" (out of turn: Block the
                  sequence just completed) or "pass" (out of turn: no Block)
    card:         play / action / discard / block: the card's name ("red 3", "skip", ...)
    pile:         play: the pile label it goes on; a label not among View.piles opens a pile
    target:       action (steal-a-card, steal-a-chip): the seat stolen from
    colour:       action (steal-a-chip): the chip's colour, "red" or "blue"
    from_discard: play / action: True when the card is the top of one's own discard pile
    """

    action: str
    card: str | None = None
    pile: str | None = None
    target: int | None = None
    colour: str | None = None
    from_discard: bool | None = None


class Rules(NamedTuple):
    """The rule numbers a player plays by: the same all game (View.rules)."""

    to_win: int            # chips that win...
    each_colour: int       # ...with at least this many of each colour
    hand_size: int         # a hand is refilled to this many cards
    open_per_colour: int   # sequence piles of one colour open at once, at most
    limited_supply: bool   # False: a completion always gives a chip
    winning_steal: bool    # True: Steal-a-Chip may take the chip that wins


class Completion(NamedTuple):
    """The sequence waiting on Blocks (View.completion)."""

    seat: int    # who completed it (the chip is theirs unless blocked)
    pile: str    # its label
    colour: str  # "red" or "blue"


class View(python_bots.View):
    """What the player in `seat` may know when it is to decide: its own hand; of the others,
    hand sizes only; the open sequence piles, the tops of the discard piles, every player's
    chips and the draw pile's size are public.

    seat, players: int
    turn:          turns begun so far (this one included)
    phase:         "turn" (its own turn) or "block" (may it Block?)
    direction:     1: play goes to seat + 1, -1: to seat - 1
    hand:          tuple[str, ...], its cards, grouped by kind
    hand_sizes:    tuple[int, ...], per seat
    discard_tops:  tuple[str | None, ...], per seat, the top of its discard pile
    discard_sizes: tuple[int, ...], per seat
    piles:         Mapping[str, tuple[str, ...]], open sequence piles: label -> cards, bottom first
    chips:         tuple[tuple[int, int], ...], per seat, (red, blue)
    supply:        tuple[int, int], chips left to win, (red, blue)
    skipped:       tuple[int, ...], per seat, turns it will lose to Skips
    draw_pile:     cards left to draw
    completion:    Completion | None, phase "block": the sequence it may Block
    rules:         Rules
    suggest(strategy): the move a built-in strategy would play here (see python_bots.Suggests)
    """

    FIELDS = ("seat", "players", "turn", "phase", "direction", "hand", "hand_sizes",
              "discard_tops", "discard_sizes", "piles", "chips", "supply", "skipped",
              "draw_pile", "completion", "rules")
    __slots__ = FIELDS
    # Read as first asked for, from the position (m, seat, rules): m the state's numbers.
    READERS = {
        "seat": lambda m, seat, rules: seat,
        "players": lambda m, seat, rules: int(m[PLAYERS]),
        "turn": lambda m, seat, rules: int(m[TURNS]),
        "phase": lambda m, seat, rules: "block" if m[PHASE] == WINDOW else "turn",
        "direction": lambda m, seat, rules: int(m[DIRECTION]),
        "hand": lambda m, seat, rules: tuple(
            CARD_NAMES[t] for t, k in enumerate(m[HAND + seat * TYPES:HAND + (seat + 1) * TYPES]
                                                .tolist()) for _ in range(k)),
        "hand_sizes": lambda m, seat, rules: _per_seat(m, HAND_N),
        "discard_tops": lambda m, seat, rules: _discard_tops(m),
        "discard_sizes": lambda m, seat, rules: _per_seat(m, DISCARD_N),
        "piles": lambda m, seat, rules: _piles(m),
        "chips": lambda m, seat, rules: tuple(zip(*[iter(
            m[CHIPS:CHIPS + 2 * m[PLAYERS]].tolist())] * 2)),
        "supply": lambda m, seat, rules: (int(m[SUPPLY]), int(m[SUPPLY + 1])),
        "skipped": lambda m, seat, rules: _per_seat(m, SKIPPED),
        "draw_pile": lambda m, seat, rules: int(m[DRAW_N]),
        "completion": lambda m, seat, rules: _completion(m),
        "rules": lambda m, seat, rules: rules,
    }


def _per_seat(m, at: int) -> tuple[int, ...]:
    """Gives the seats' numbers stored from m[at] on."""
    return tuple(m[at:at + m[PLAYERS]].tolist())


def _discard_tops(m) -> tuple[str | None, ...]:
    """Gives each seat's top discard (None: an empty pile)."""
    return tuple(CARD_NAMES[m[DISCARD_PILES + q * MAX_DECK + k - 1]] if k else None
                 for q, k in enumerate(_per_seat(m, DISCARD_N)))


def _piles(m) -> Mapping[str, tuple[str, ...]]:
    """Gives the open sequence piles by label, their cards bottom first."""
    piles = {}
    for slot, length in enumerate(m[PILE_LEN:PILE_LEN + 2 * MAX_OPEN].tolist()):
        if length:
            start = PILE + slot * SEQUENCE
            piles[PILE_LABELS[slot]] = tuple(CARD_NAMES[t]
                                             for t in m[start:start + length].tolist())
    return MappingProxyType(piles)


def _completion(m) -> Completion | None:
    """Gives the sequence waiting on Blocks, if any."""
    if m[PHASE] != WINDOW:
        return None
    slot = int(m[COMPLETED_SLOT])
    return Completion(int(m[COMPLETER]), PILE_LABELS[slot], COLOURS[slot // MAX_OPEN])


def readable(row) -> Move:
    """Gives an engine move row (action, source, card type, a, b) in words."""
    action, source, t, a, b = row
    if action == PLAY:
        return Move("play", CARD_NAMES[t], PILE_LABELS[a], from_discard=source == TOP)
    if action == ACT:
        target = a if t in (STEAL_CARD, STEAL_CHIP) else None
        colour = COLOURS[b] if t == STEAL_CHIP else None
        return Move("action", CARD_NAMES[t], None, target, colour, source == TOP)
    if action in (DISCARD, BLOCK_IT):
        return Move(ACTION_NAMES[action], CARD_NAMES[t])
    return Move(ACTION_NAMES[action])


def moves(s, rs, seat: int, legal_moves=engine.legal_moves) -> tuple[np.ndarray, LegalMoves]:
    """Gives the legal moves of `seat` in the engine's order (restrictions applied): as the
    engine's rows (a copy) and in words. `legal_moves`: the engine's rule, or its compiled
    code bound to this state (sim/jit.py `direct`)."""
    rows = s.moves[:legal_moves(s.m, rs, s.moves, seat)].copy()
    return rows, LegalMoves(rows, readable)


def rules_of(rs) -> Rules:
    """Gives the rule numbers a View shows."""
    numbers = rs.numbers.tolist()
    return Rules(numbers[TO_WIN], numbers[EACH_COLOUR], numbers[HAND_SIZE],
                 numbers[OPEN_PER_COLOUR], numbers[OPT_SUPPLY] != UNLIMITED,
                 numbers[OPT_WINNING_STEAL] == ALLOWED)


def view(s, seat: int, rules: Rules, advise=None, lazy: bool = False) -> View:
    """Gives what `seat` may know now. advise(strategy) gives the index of the legal move a
    built-in strategy would play (View.suggest), None: no advice; lazy: each field is read as
    first asked for (the position must not change meanwhile), else all are read now."""
    seen = View((s.m, seat, rules), advise)
    return seen if lazy else seen.keep()


class PythonSeatPlayer(python_bots.SeatPlayer):
    """Plays a Python strategy's seat of Sequence Stacks (python_bots.SeatPlayer): lists its
    legal moves when the driver stops for it, and writes the chosen one into the engine's
    move array."""

    def __init__(self, s, rs, rules: dict):
        super().__init__(s, rs, bots, forbid.names(rules), rules, View, readable)
        self.rules = rules_of(rs)
        self.legal_moves = direct(engine.legal_moves, s.m, rs, s.moves, 0)  # bound to the state

    def __call__(self, seat: int) -> None:
        s = self.s
        rows = s.moves[:self.legal_moves(s.m, self.rs, s.moves, seat)].copy()
        s.move[:] = rows[self.ask(seat, (s.m, seat, self.rules), rows)]

    def masks(self, forbidden: tuple[str, ...]) -> list:
        return [(views(self.s).forbid, forbid.mask(forbidden))]
