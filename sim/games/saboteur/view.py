"""Saboteur for Python strategies: what a player may know (`View`), its legal moves in words
(`Move`), and the bridge between those and the engine's arrays.

Coordinates are the rules' maze coordinates: the start card at (0, 0), x growing east towards
the goals, y growing south (the goals at (8, -2), (8, 0), (8, 2) by default). Sides are letters
from "NESW".
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from sim.jit import direct, rule
from sim.games.saboteur import bots, engine, forbid
from sim.games.saboteur.cards import BREAK, MAP, PATH, REPAIR, ROCKFALL, TOOL_NAMES
from sim.games.saboteur.engine import DISCARD, PLACE
from sim.games.saboteur.state import DRAW_AT, N_PLACED, ORIGIN, ROUND_TURNS, STAMP, THROUGH
from sim.games.saboteur.trace import ROLES, sides
from strategies import python_bots
from strategies.python_bots import LegalMoves

SIDES = tuple(sides(mask) for mask in range(16))  # looked up: a view lists every maze card
BROKEN = tuple(tuple(name for bit, name in TOOL_NAMES.items() if tools & bit) for tools in range(8))
ACTIONS = {PLACE: "place", BREAK: "break", REPAIR: "repair", MAP: "map", ROCKFALL: "rockfall",
           DISCARD: "pass"}


class Move(NamedTuple):
    """One legal move. Fields that do not apply to the action are None.

    action: "place", "break", "repair", "map", "rockfall" or "pass" (discard the card)
    slot:   the hand slot of the card played (index into View.hand)
    card:   the card's name in the rules, e.g. "cross", "dead_ns", "broken_cart", "map"
    x, y:   place: the cell the path card goes into; rockfall: the path card removed
    exits:  place: the card's open sides as placed (a card may be turned 180°), e.g. "NE"
    target: break / repair: the seat whose tool is broken or repaired
    tool:   break / repair: "pickaxe", "lantern" or "cart"
    goal:   map: the goal looked at (0, 1, 2 from north to south)
    """

    action: str
    slot: int
    card: str
    x: int | None = None
    y: int | None = None
    exits: str | None = None
    target: int | None = None
    tool: str | None = None
    goal: int | None = None


class Card(NamedTuple):
    """What a card of the deck is, by name (View.cards)."""

    kind: str                # "path", "break", "repair", "map" or "rockfall"
    exits: str               # a path card's open sides as printed, e.g. "NES"; "" otherwise
    through: bool            # a path card whose centre joins its exits (False: a dead end)
    tools: tuple[str, ...]   # the tools a broken-tool or repair card names


class PathCard(NamedTuple):
    """A card in the maze: the start card ("start") or a path card, as it lies."""

    x: int
    y: int
    card: str
    exits: str
    through: bool  # False for a dead end: its stubs join nothing
    joined: bool   # joined to the start by through cards (a rockfall here cuts the path)


class Goal(NamedTuple):
    """A goal card: where it lies, and what this player knows of it."""

    x: int
    y: int
    face_up: bool
    kind: str | None  # "gold" or "coal" when face up or looked at with a map; else None


class View(python_bots.View):
    """What the player in `seat` may know when it is to move (read-only).

    seat, players: int
    round:      1, 2, 3
    turn:       moves played so far this round
    role:       "miner" or "saboteur"
    hand:       tuple[str, ...], the cards in hand, by slot
    maze:       tuple[PathCard, ...], the start card first, then path cards as placed
    goals:      tuple[Goal, Goal, Goal], north to south
    broken:     tuple[tuple[str, ...], ...], per seat, its broken tools
    hand_sizes: tuple[int, ...], per seat
    pile:       cards left to draw
    gold:       this player's nuggets so far (others keep theirs hidden)
    cards:      Mapping[str, Card], every card name of the deck -> what it is
    suggest(strategy): the move a built-in strategy would play here (see Suggests)
    """

    FIELDS = ("seat", "players", "round", "turn", "role", "hand", "maze", "goals", "broken",
              "hand_sizes", "pile", "gold", "cards")
    __slots__ = FIELDS
    # Read as first asked for, from the position (s, rs, names, seat, round_index, cards, placed).
    READERS = {
        "seat": lambda s, rs, names, seat, r, cards, placed: seat,
        "players": lambda s, rs, names, seat, r, cards, placed: s.hand.shape[0],
        "round": lambda s, rs, names, seat, r, cards, placed: r + 1,
        "turn": lambda s, rs, names, seat, r, cards, placed: int(s.g[ROUND_TURNS]),
        "role": lambda s, rs, names, seat, r, cards, placed: ROLES[s.role[seat]],
        "hand": lambda s, rs, names, seat, r, cards, placed: tuple(
            names[c] for c in s.hand[seat, :s.hand_n[seat]].tolist()),
        "maze": lambda s, rs, names, seat, r, cards, placed: _maze(s, names, placed),
        "goals": lambda s, rs, names, seat, r, cards, placed: _goals(s, rs, seat),
        "broken": lambda s, rs, names, seat, r, cards, placed: tuple(
            BROKEN[b] for b in s.broken.tolist()),
        "hand_sizes": lambda s, rs, names, seat, r, cards, placed: tuple(s.hand_n.tolist()),
        "pile": lambda s, rs, names, seat, r, cards, placed: s.deck.shape[0] - int(s.g[DRAW_AT]),
        "gold": lambda s, rs, names, seat, r, cards, placed: int(s.gold[seat]),
        "cards": lambda s, rs, names, seat, r, cards, placed: cards,
    }


def _maze(s, names: list[str], placed) -> tuple[PathCard, ...]:
    """Gives the start card and the path cards in the maze, as placed."""
    buffer = np.empty((s.placed.shape[0], 6), np.int64)
    maze = [PathCard(0, 0, "start", "NESW", True, True)]
    maze += [PathCard(x - ORIGIN, y - ORIGIN, names[card], SIDES[exits], bool(through),
                      bool(joined))
             for x, y, card, exits, through, joined in buffer[:placed(s, buffer)].tolist()]
    return tuple(maze)


def _goals(s, rs, seat: int) -> tuple[Goal, ...]:
    """Gives the goal cards as `seat` knows them."""
    shown, seen, kind = s.goal_shown.tolist(), s.seen[seat].tolist(), s.goal_kind.tolist()
    return tuple(Goal(x, y, bool(shown[i]),
                      ("gold" if kind[i] == 0 else "coal") if shown[i] or seen[i] else None)
                 for i, (x, y) in enumerate(rs.goal_xy.tolist()))


def moves(s, rs, names: list[str], seat: int, legal_moves=engine.legal_moves
          ) -> tuple[np.ndarray, LegalMoves]:
    """Gives the legal moves of `seat` in the engine's order (restrictions applied): as the
    engine's rows (a copy) and in words, read from the live hand as asked for (LegalMoves).
    `legal_moves`: the engine's rule, or its compiled code bound to this state (sim/jit.py
    `direct`)."""
    rows = s.moves[:legal_moves(s, rs, seat)].copy()
    hand = s.hand
    return rows, LegalMoves(rows, lambda row: readable(names, hand, seat, row))


def readable(names: list[str], hand, seat: int, row) -> Move:
    """Gives an engine move row (action, slot, a, b, c) of `seat` in words."""
    action, slot, a, b, c = row
    card = names[hand[seat, slot]]
    kind = ACTIONS[action]
    # Made as tuples, past Move's own (Python) constructor: a bot's every move words some.
    if action == PLACE:
        return _new(Move, (kind, slot, card, a - ORIGIN, b - ORIGIN, SIDES[c], None, None, None))
    if action in (BREAK, REPAIR):
        return _new(Move, (kind, slot, card, None, None, None, a, TOOL_NAMES[c], None))
    if action == MAP:
        return _new(Move, (kind, slot, card, None, None, None, None, None, a))
    if action == ROCKFALL:
        return _new(Move, (kind, slot, card, a - ORIGIN, b - ORIGIN, None, None, None, None))
    return _new(Move, (kind, slot, card, None, None, None, None, None, None))


_new = tuple.__new__


KINDS = {PATH: "path", BREAK: "break", REPAIR: "repair", MAP: "map", ROCKFALL: "rockfall"}


def deck_cards(rs, names: list[str]) -> Mapping[str, Card]:
    """Gives what each card name of the deck is (read-only)."""
    return MappingProxyType({
        name: Card(KINDS[int(rs.kind[c])], sides(int(rs.exits[c])) if rs.kind[c] == PATH else "",
                   bool(rs.through[c]),
                   tuple(tool for bit, tool in TOOL_NAMES.items() if rs.tools[c] & bit))
        for c, name in enumerate(names)})


@rule
def _placed(s, out):
    """Copies the path cards in the maze into out's rows (x, y, card, exits, through, joined);
    gives how many."""
    placed, card_at, exits, cell, reach, stamp = s.placed, s.card_at, s.exits, s.cell, s.reach, \
        s.g[STAMP]
    n = s.g[N_PLACED]
    for i in range(n):
        x, y = placed[i, 0], placed[i, 1]
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = x, y, card_at[y, x], exits[y, x]
        out[i, 4], out[i, 5] = cell[y, x] == THROUGH, reach[y, x] == stamp
    return n


def view(s, rs, names: list[str], seat: int, round_index: int, cards: Mapping[str, Card],
         placed=_placed, advise=None, lazy: bool = False) -> View:
    """Gives what `seat` may know now: its hand, role, maps seen, and the public table.

    placed: `_placed`, or its compiled code bound to this state; advise(strategy) gives the
    index of the legal move a built-in strategy would play (View.suggest), None: no advice;
    lazy: each field is read as first asked for (the position must not change meanwhile),
    else all are read now."""
    seen = View((s, rs, names, seat, round_index, cards, placed), advise)
    return seen if lazy else seen.keep()


_ROWS = np.empty((1, 6), np.int64)  # its type, for `direct`


class PythonSeatPlayer(python_bots.SeatPlayer):
    """Plays a Python strategy's seat of Saboteur (python_bots.SeatPlayer): its legal moves,
    the engine's rows, worded as the strategy reads them."""

    def __init__(self, s, rs, names: list[str], cards: Mapping[str, Card], rules: dict,
                 seat: int):
        super().__init__(s, rs, bots, forbid.names(rules), rules, View,
                         partial(readable, names, s.hand, seat))
        self.names = names
        # What the view reads: the round changes it; the rule it calls is bound to this state.
        self.position = (s, rs, names, seat, -1, cards, direct(_placed, s, _ROWS))

    def __call__(self, seat: int, round_index: int, n: int) -> int:
        if round_index != self.position[4]:
            self.position = self.position[:4] + (round_index,) + self.position[5:]
        return self.ask(seat, self.position, self.s.moves, n)

    def choose(self, s, rs, seat: int, family: int, params, out: np.ndarray) -> None:
        """Writes into `out` the move the built-in bot `family` chooses for `seat`, leaving the
        legal moves the Python bot reads (s.moves, where the built-in bots list theirs too)."""
        n = len(self.moves)
        rows = s.moves[:n].copy()
        try:
            self.built_in(s, rs, seat, family, params, out)
        finally:
            s.moves[:n] = rows

    def masks(self, forbidden: tuple[str, ...]) -> list:
        return [(self.s.forbid, forbid.mask(self.rs, self.names, forbidden))]
