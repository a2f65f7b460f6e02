"""Sequence Stacks for Python strategies: what a player may know (`View`), its legal moves in
words (`Move`), and the bridge between those and the engine's arrays.

Cards are named as the trace names them: "red 3", "blue wild", "skip", "reverse",
"steal-a-card", "block", "steal-a-chip". Sequence piles are labelled by colour and slot: R1-R4
(red), B1-B4 (blue). Seats count from 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from sim.jit import direct
from sim.sequence_stacks import engine, forbid
from sim.sequence_stacks.cards import (
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
from sim.sequence_stacks.engine import (
    ACT,
    BLOCK_IT,
    DISCARD,
    PLAY,
    TOP,
    WINDOW,
)
from sim.sequence_stacks.state import (
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
from sim.sequence_stacks.state import DISCARD as DISCARD_PILES
from sim.sequence_stacks.trace import pile_label

CARD_NAMES = tuple(name(t) for t in range(TYPES))
PILE_LABELS = tuple(pile_label(slot) for slot in range(2 * MAX_OPEN))
ACTION_NAMES = ("play", "action", "discard", "end", "block", "pass")  # by engine action
from strategies import sequence_stacks as bots
from strategies.presets import user_presets
from strategies.python_bots import LegalMoves, Suggests, advised, adviser, expire


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


@dataclass(frozen=True, slots=True)
class View(Suggests):
    """What the player in `seat` may know when it is to decide: its own hand; of the others,
    hand sizes only; the open sequence piles, the tops of the discard piles, every player's
    chips and the draw pile's size are public."""

    seat: int
    players: int
    turn: int                              # turns begun so far (this one included)
    phase: str                             # "turn" (its own turn) or "block" (may it Block?)
    direction: int                         # 1: play goes to seat + 1, -1: to seat - 1
    hand: tuple[str, ...]                  # its cards, grouped by kind
    hand_sizes: tuple[int, ...]            # per seat
    discard_tops: tuple[str | None, ...]   # per seat, the top of its discard pile
    discard_sizes: tuple[int, ...]         # per seat
    piles: Mapping[str, tuple[str, ...]]   # open sequence piles: label -> cards, bottom first
    chips: tuple[tuple[int, int], ...]     # per seat, (red, blue)
    supply: tuple[int, int]                # chips left to win, (red, blue)
    skipped: tuple[int, ...]               # per seat, turns it will lose to Skips
    draw_pile: int                         # cards left to draw
    completion: Completion | None          # phase "block": the sequence it may Block
    rules: Rules


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


def moves(s, rs, seat: int, legal_moves=engine.legal_moves) -> tuple[list, LegalMoves]:
    """Gives the legal moves of `seat` in the engine's order (restrictions applied): as the
    engine's rows and in words. `legal_moves`: the engine's rule, or its compiled code bound
    to this state (sim/jit.py `direct`)."""
    rows = s.moves[:legal_moves(s.m, rs, s.moves, seat)].tolist()
    return rows, LegalMoves(rows, readable)


def rules_of(rs) -> Rules:
    """Gives the rule numbers a View shows."""
    numbers = rs.numbers.tolist()
    return Rules(numbers[TO_WIN], numbers[EACH_COLOUR], numbers[HAND_SIZE],
                 numbers[OPEN_PER_COLOUR], numbers[OPT_SUPPLY] != UNLIMITED,
                 numbers[OPT_WINNING_STEAL] == ALLOWED)


def view(s, seat: int, rules: Rules) -> View:
    """Gives what `seat` may know now."""
    m = s.m.tolist()
    p = m[PLAYERS]
    sizes = m[DISCARD_N:DISCARD_N + p]
    tops = tuple(CARD_NAMES[m[DISCARD_PILES + q * MAX_DECK + k - 1]] if k else None
                 for q, k in enumerate(sizes))
    piles = {}
    for slot in range(2 * MAX_OPEN):
        length = m[PILE_LEN + slot]
        if length:
            start = PILE + slot * SEQUENCE
            piles[PILE_LABELS[slot]] = tuple(CARD_NAMES[t] for t in m[start:start + length])
    hand = m[HAND + seat * TYPES:HAND + (seat + 1) * TYPES]
    completion = None
    if m[PHASE] == WINDOW:
        slot = m[COMPLETED_SLOT]
        completion = Completion(m[COMPLETER], PILE_LABELS[slot], COLOURS[slot // MAX_OPEN])
    return View(
        seat=seat, players=p, turn=m[TURNS], phase="block" if m[PHASE] == WINDOW else "turn",
        direction=m[DIRECTION],
        hand=tuple(CARD_NAMES[t] for t, k in enumerate(hand) for _ in range(k)),
        hand_sizes=tuple(m[HAND_N:HAND_N + p]), discard_tops=tops, discard_sizes=tuple(sizes),
        piles=MappingProxyType(piles),
        chips=tuple((m[CHIPS + 2 * q], m[CHIPS + 2 * q + 1]) for q in range(p)),
        supply=(m[SUPPLY], m[SUPPLY + 1]), skipped=tuple(m[SKIPPED:SKIPPED + p]),
        draw_pile=m[DRAW_N], completion=completion, rules=rules)


class PythonSeatPlayer:
    """Plays a Python strategy's seat in the Python driver: lists the legal moves in words,
    builds the view, asks the strategy, and writes its move into the engine's move array."""

    def __init__(self, s, rs, seat, rules: dict):
        self.s, self.rs, self.seat = s, rs, seat
        self.rules = rules_of(rs)
        self.presets = user_presets(rules)
        self.known = [*bots.strategy_names(), *self.presets]
        self.forbiddable = list(forbid.names(rules))
        # The rules called at every move, bound to this state (sim/jit.py).
        self.legal_moves = direct(engine.legal_moves, s.m, rs, s.moves, 0)
        self.choose = direct(bots.choose, s, rs, 0, 0, _PARAMETERS, s.move)

    def __call__(self, seat: int) -> None:
        s = self.s
        rows, legal = moves(s, self.rs, seat, self.legal_moves)
        move = s.move.copy()
        restricted = views(s).forbid

        def index_of(strategy: str, forbidden: tuple[str, ...]) -> int:
            family, params = bots.resolve(strategy, self.presets)
            own = int(restricted[seat])
            restricted[seat] |= forbid.mask(forbidden)
            try:
                self.choose(s, self.rs, seat, family, params, move)
            finally:
                restricted[seat] = own
            return rows.index(move.tolist())

        seen = advised(view(s, seat, self.rules),
                       adviser(self.known, self.forbiddable, index_of, legal))
        i = self.seat.pick(seen, legal)
        expire(seen)
        s.move[:] = rows[i]


_PARAMETERS = np.zeros(len(bots.PARAMETERS))  # its type, for `direct`
