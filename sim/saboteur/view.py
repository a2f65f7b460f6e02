"""Saboteur for Python strategies: what a player may know (`View`), its legal moves in words
(`Move`), and the bridge between those and the engine's arrays.

Coordinates are the rules' maze coordinates: the start card at (0, 0), x growing east towards
the goals, y growing south (the goals at (8, -2), (8, 0), (8, 2) by default). Sides are letters
from "NESW".
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from sim.jit import direct, rule
from sim.saboteur import engine, forbid
from sim.saboteur.cards import BREAK, MAP, PATH, REPAIR, ROCKFALL, TOOL_NAMES
from sim.saboteur.engine import DISCARD, PLACE
from sim.saboteur.state import DRAW_AT, N_PLACED, ORIGIN, ROUND_TURNS, STAMP, THROUGH
from sim.saboteur.trace import ROLES, sides
from strategies import saboteur as bots
from strategies.presets import user_presets
from strategies.python_bots import LegalMoves, Suggests, adviser, expire

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


class View(Suggests):
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

    The maze is put into words when first read, from a copy taken when the view was made.
    """

    __slots__ = ("seat", "players", "round", "turn", "role", "hand", "goals", "broken",
                 "hand_sizes", "pile", "gold", "cards", "_placed", "_names", "_maze")

    def __init__(self, **fields):
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_maze", None)

    def __setattr__(self, name, value):
        raise AttributeError("a View is read-only")

    @property
    def maze(self) -> tuple[PathCard, ...]:
        if self._maze is None:
            names = self._names
            maze = [PathCard(0, 0, "start", "NESW", True, True)]
            maze += [PathCard(x - ORIGIN, y - ORIGIN, names[card], SIDES[exits], bool(through),
                              bool(joined))
                     for x, y, card, exits, through, joined in self._placed]
            object.__setattr__(self, "_maze", tuple(maze))
        return self._maze

    def __repr__(self) -> str:
        return (f"View(seat={self.seat}, players={self.players}, round={self.round}, "
                f"turn={self.turn}, role={self.role!r}, hand={self.hand!r}, maze={self.maze!r}, "
                f"goals={self.goals!r}, broken={self.broken!r}, hand_sizes={self.hand_sizes!r}, "
                f"pile={self.pile}, gold={self.gold})")


def moves(s, rs, names: list[str], seat: int, legal_moves=engine.legal_moves
          ) -> tuple[list, LegalMoves]:
    """Gives the legal moves of `seat` in the engine's order (restrictions applied): as the
    engine's rows and in words. `legal_moves`: the engine's rule, or its compiled code bound
    to this state (sim/jit.py `direct`)."""
    rows = s.moves[:legal_moves(s, rs, seat)].tolist()
    hand = s.hand.copy()
    return rows, LegalMoves(rows, lambda row: readable(names, hand, seat, row))


def readable(names: list[str], hand, seat: int, row) -> Move:
    """Gives an engine move row (action, slot, a, b, c) of `seat` in words."""
    action, slot, a, b, c = row
    card = names[hand[seat, slot]]
    kind = ACTIONS[action]
    # Positional arguments: a Python bot's every turn builds dozens of these.
    if action == PLACE:
        return Move(kind, slot, card, a - ORIGIN, b - ORIGIN, SIDES[c], None, None, None)
    if action in (BREAK, REPAIR):
        return Move(kind, slot, card, None, None, None, a, TOOL_NAMES[c], None)
    if action == MAP:
        return Move(kind, slot, card, None, None, None, None, None, a)
    if action == ROCKFALL:
        return Move(kind, slot, card, a - ORIGIN, b - ORIGIN, None, None, None, None)
    return Move(kind, slot, card, None, None, None, None, None, None)


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


def view(s, rs, names: list[str], seat: int, round_index: int,
         cards: Mapping[str, Card], placed=_placed, advise=None) -> View:
    """Gives what `seat` may know now: its hand, role, maps seen, and the public table.

    placed: `_placed`, or its compiled code bound to this state; advise(strategy) gives the
    index of the legal move a built-in strategy would play (View.suggest), None: no advice."""
    buffer = np.empty((s.placed.shape[0], 6), np.int64)
    placed_now = buffer[:placed(s, buffer)].tolist()
    shown, seen, kind = s.goal_shown.tolist(), s.seen[seat].tolist(), s.goal_kind.tolist()
    goals = tuple(Goal(x, y, bool(shown[i]),
                       ("gold" if kind[i] == 0 else "coal") if shown[i] or seen[i] else None)
                  for i, (x, y) in enumerate(rs.goal_xy.tolist()))
    g = s.g.tolist()
    return View(
        seat=seat, players=s.hand.shape[0], round=round_index + 1, turn=g[ROUND_TURNS],
        role=ROLES[s.role[seat]],
        hand=tuple(names[c] for c in s.hand[seat, :s.hand_n[seat]].tolist()),
        goals=goals, broken=tuple(BROKEN[b] for b in s.broken.tolist()),
        hand_sizes=tuple(s.hand_n.tolist()), pile=s.deck.shape[0] - g[DRAW_AT],
        gold=int(s.gold[seat]), cards=cards, _placed=placed_now, _names=names, _advise=advise)


_ROWS, _PARAMETERS = np.empty((1, 6), np.int64), np.zeros(len(bots.PARAMETERS))  # their types


class PythonSeatPlayer:
    """Plays a Python strategy's seat in the Python driver: lists the legal moves in words,
    builds the view, asks the strategy, and writes its move into the engine's move array."""

    def __init__(self, s, rs, names: list[str], cards: Mapping[str, Card], seat, rules: dict):
        self.s, self.rs, self.names, self.cards, self.seat = s, rs, names, cards, seat
        self.presets = user_presets(rules)
        self.known = [*bots.strategy_names(), *self.presets]
        self.forbiddable = list(forbid.names(rules))
        # The rules called at every move, bound to this state (sim/jit.py).
        self.legal_moves = direct(engine.legal_moves, s, rs, 0)
        self.placed = direct(_placed, s, _ROWS)
        self.choose = direct(bots.choose, s, rs, 0, 0, _PARAMETERS, s.move)

    def __call__(self, seat: int, round_index: int) -> None:
        s = self.s
        rows, legal = moves(s, self.rs, self.names, seat, self.legal_moves)
        move = np.empty_like(s.move)

        def index_of(strategy: str, forbidden: tuple[str, ...]) -> int:
            family, params = bots.resolve(strategy, self.presets)
            own = s.forbid[seat].copy()
            s.forbid[seat] |= forbid.mask(self.rs, self.names, forbidden)
            try:
                self.choose(s, self.rs, seat, family, params, move)
            finally:
                s.forbid[seat] = own
            return rows.index(move.tolist())

        seen = view(s, self.rs, self.names, seat, round_index, self.cards, self.placed,
                    adviser(self.known, self.forbiddable, index_of, legal))
        i = self.seat.pick(seen, legal)
        expire(seen)
        s.move[:] = rows[i]
