"""Deep Space for Python strategies: what a player may know (`View`), its legal moves in words
(`Move`), and the bridge between those and the engine's arrays.

Planets and cards are named as in the board and deck files (stand-ins: planets H0-H3, R0-R11,
I0-I3; cards space_dog, hyperdrive, ...). Seats count from 0.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from sim.games.deep_space import bots, engine, forbid
from sim.games.deep_space.deck import EFFECTS
from sim.games.deep_space.engine import BUILD, DISCARD, MOVE, PLAY, RECRUIT, TAKE, TRADE
from sim.games.deep_space.ruleset import (
    BASE_ORE,
    BASE_RECRUITS,
    MINE_AT,
    RECRUIT_GEMS,
    TRADE_CARDS,
    WARP_GEMS,
)
from sim.games.deep_space.state import (
    DISCARDS,
    DOGS_LEFT,
    DRAW_AT,
    MOVES_LEFT,
    PHASE,
    PLAYERS,
    TURNS,
)
from sim.jit import direct

PHASES = ("mine", "act", "redraw")
from strategies import python_bots
from strategies.python_bots import LegalMoves


class Move(NamedTuple):
    """One legal move. Fields that do not apply to the action are None.

    action:   "take" (share out this turn's mining), "move", "recruit" (one recruit for gems),
              "trade" (cards for one recruit), "build", "play" (an action card), "discard"
              (before the redraw) or "end" (ends the actions, or the redraw)
    gems:     take: planets mined for a gem
    ore:      take: planets mined for ore
    origin:   move: the planet the squad leaves
    planet:   move: the planet it enters; build: where the base goes; play: the card's target
              planet (space_dog, meteor_storm)
    recruits: move: the squad's recruits
    dogs:     move: the dogs going along
    warp:     move: True through the gem warp (it costs gems), False along a link
    slot:     play / discard: the card's hand slot (index into View.hand)
    card:     play / discard: the card's name in the deck
    slots:    trade: the hand slots discarded
    target:   play (meteor_storm): the seat whose recruits are removed
    """

    action: str
    gems: int | None = None
    ore: int | None = None
    origin: str | None = None
    planet: str | None = None
    recruits: int | None = None
    dogs: int | None = None
    warp: bool | None = None
    slot: int | None = None
    card: str | None = None
    slots: tuple[int, ...] | None = None
    target: int | None = None


class Card(NamedTuple):
    """What a card of the deck is, by name (View.cards)."""

    effect: str     # space_dog, extra_move, recruits, meteor_storm, ore or gems
    gems: int       # its price in gems
    sacrifice: int  # recruits of your own it costs
    amount: int     # extra moves, recruits, ore or gems it gives


class Planet(NamedTuple):
    """A planet as it lies now (View.planets, in board order)."""

    name: str
    recruits: tuple[int, ...]  # per seat
    dogs: tuple[int, ...]      # per seat
    bases: tuple[int, ...]     # the seats with a base here


class Board(NamedTuple):
    """The map and the rule numbers: the same all game (View.board)."""

    links: Mapping[str, tuple[str, ...]]  # planet -> the planets linked to it
    warp: tuple[str, ...]                 # the planets linked to the gem warp
    homes: tuple[str, ...]                # per seat, its home station (never entered by a move)
    covered: tuple[str, ...]              # planets under a cover (never entered)
    distance: Mapping[str, Mapping[str, int]]  # moves between planets (the warp is one move)
    to_win: int                           # bases that win
    base_ore: int                         # ore a base costs
    base_recruits: int                    # recruits needed on a planet to build there
    mine_recruits: int                    # recruits on a planet that let a colour mine it
    warp_gems: int                        # gems to pass through the warp
    recruit_gems: int                     # gems per recruit
    trade_cards: int                      # cards traded for a recruit


class View(python_bots.View):
    """What the player in `seat` may know when it is to move: the board and every colour's
    resources are public; of the cards, it sees its own hand and the others' hand sizes.

    seat, players: int
    turn:       player turns played before this one
    phase:      "mine", "act" or "redraw"
    moves_left: moves left this turn
    hand:       tuple[str, ...], its cards, by slot
    hand_sizes, gems, ore: tuple[int, ...], per seat
    bases:      tuple[int, ...], per seat, bases built
    supply:     tuple[int, ...], per seat, recruits not on the board
    planets:    tuple[Planet, ...], in board order
    dogs_left:  dog tokens still in the box
    pile:       cards left to draw
    discards:   cards in the discard pile
    board:      Board
    cards:      Mapping[str, Card], every card name of the deck -> what it is
    suggest(strategy): the move a built-in strategy would play here (see python_bots.Suggests)
    """

    FIELDS = ("seat", "players", "turn", "phase", "moves_left", "hand", "hand_sizes", "gems",
              "ore", "bases", "supply", "planets", "dogs_left", "pile", "discards", "board",
              "cards")
    __slots__ = FIELDS
    # Read as first asked for, from the position (s, planets, kinds, card_kind, seat, board,
    # cards): the state, the planets' and card kinds' names, each card's kind.
    READERS = {
        "seat": lambda s, planets, kinds, card_kind, seat, board, cards: seat,
        "players": lambda s, planets, kinds, card_kind, seat, board, cards: int(s.g[PLAYERS]),
        "turn": lambda s, planets, kinds, card_kind, seat, board, cards: int(s.g[TURNS]),
        "phase": lambda s, planets, kinds, card_kind, seat, board, cards: PHASES[s.g[PHASE]],
        "moves_left": lambda s, planets, kinds, card_kind, seat, board, cards:
            int(s.g[MOVES_LEFT]),
        "hand": lambda s, planets, kinds, card_kind, seat, board, cards: tuple(
            kinds[card_kind[c]] for c in s.hand[seat, :s.hand_n[seat]].tolist()),
        "hand_sizes": lambda s, planets, kinds, card_kind, seat, board, cards:
            tuple(s.hand_n.tolist()),
        "gems": lambda s, planets, kinds, card_kind, seat, board, cards: tuple(s.gems.tolist()),
        "ore": lambda s, planets, kinds, card_kind, seat, board, cards: tuple(s.ore.tolist()),
        "bases": lambda s, planets, kinds, card_kind, seat, board, cards:
            tuple(s.bases.tolist()),
        "supply": lambda s, planets, kinds, card_kind, seat, board, cards:
            tuple(s.supply.tolist()),
        "planets": lambda s, planets, kinds, card_kind, seat, board, cards: _planets(s, planets),
        "dogs_left": lambda s, planets, kinds, card_kind, seat, board, cards:
            int(s.g[DOGS_LEFT]),
        "pile": lambda s, planets, kinds, card_kind, seat, board, cards:
            s.deck.shape[0] - int(s.g[DRAW_AT]),
        "discards": lambda s, planets, kinds, card_kind, seat, board, cards: int(s.g[DISCARDS]),
        "board": lambda s, planets, kinds, card_kind, seat, board, cards: board,
        "cards": lambda s, planets, kinds, card_kind, seat, board, cards: cards,
    }


def _planets(s, planets: list[str]) -> tuple[Planet, ...]:
    """Gives every planet as it lies now, in board order."""
    units, dogs, base = s.units.T.tolist(), s.dogs.T.tolist(), s.base.T.tolist()
    return tuple(Planet(name, tuple(units[q]), tuple(dogs[q]),
                        tuple(k for k, on in enumerate(base[q]) if on))
                 for q, name in enumerate(planets))


def moves(s, rs, planets: list[str], kinds: list[str], seat: int, legal_moves=engine.legal_moves,
          mine_count=engine.mine_count) -> tuple[np.ndarray, LegalMoves]:
    """Gives the legal moves of `seat` in the engine's order (restrictions applied): as the
    engine's rows (a copy) and in words. `legal_moves`, `mine_count`: the engine's rules, or
    their compiled code bound to this state (sim/jit.py `direct`)."""
    rows = s.moves[:legal_moves(s, rs, seat)].copy()
    return rows, LegalMoves(rows, _wording(s, rs, planets, kinds, seat, mine_count))


NAMING = frozenset((PLAY, TAKE, TRADE, DISCARD))  # moves naming the hand or what mining takes


def _wording(s, rs, planets: list[str], kinds: list[str], seat: int, mine_count):
    """Gives word(row): a legal move of `seat` in words. The hand's card names and what mining
    would take are read from the position as it is when the first move naming them is worded
    (moving, building, recruiting and ending the turn name neither)."""
    read = []  # (the hand's card names by slot, what mining would take)

    def word(row) -> Move:
        if row[0] not in NAMING:
            return readable(planets, (), 0, row)
        if not read:
            read.append(([kinds[k] for k in rs.card_kind[s.hand[seat]].tolist()],
                         int(mine_count(s, rs, seat))))
        return readable(planets, *read[0], row)
    return word


def readable(planets: list[str], hand: list[str], mined: int, row) -> Move:
    """Gives an engine move row (action, a, b, c, d, e) in words, for a seat holding `hand`
    (card names by slot) that would take `mined` resources by mining."""
    action, a, b, c, d, e = row
    if action == MOVE:
        return Move("move", None, None, planets[a], planets[b], c, d, bool(e))
    if action == PLAY:
        return Move("play", None, None, None, planets[b] if b >= 0 else None, None, None, None,
                    a, hand[a], None, c if c >= 0 else None)
    if action == TAKE:
        return Move("take", a, mined - a)
    if action == TRADE:
        return Move("trade", slots=tuple(k for k in range(len(hand)) if a & (1 << k)))
    if action == BUILD:
        return Move("build", planet=planets[a])
    if action == DISCARD:
        return Move("discard", slot=a, card=hand[a])
    return Move("recruit" if action == RECRUIT else "end")


def board(rs, planets: list[str], players: int) -> Board:
    """Gives the map and rule numbers of a game of `players`."""
    numbers = rs.numbers
    link = rs.link.tolist()
    dist = rs.dist[players].tolist()
    return Board(
        links=MappingProxyType({name: tuple(planets[j] for j, on in enumerate(link[i]) if on)
                                for i, name in enumerate(planets)}),
        warp=tuple(name for name, on in zip(planets, rs.warp.tolist()) if on),
        homes=tuple(planets[q] for q in rs.seat_home[players, :players].tolist()),
        covered=tuple(name for name, on in zip(planets, rs.covered[players].tolist()) if on),
        distance=MappingProxyType({a: MappingProxyType(dict(zip(planets, dist[i])))
                                   for i, a in enumerate(planets)}),
        to_win=int(rs.to_win[players]), base_ore=int(numbers[BASE_ORE]),
        base_recruits=int(numbers[BASE_RECRUITS]), mine_recruits=int(numbers[MINE_AT]),
        warp_gems=int(numbers[WARP_GEMS]), recruit_gems=int(numbers[RECRUIT_GEMS]),
        trade_cards=int(numbers[TRADE_CARDS]))


def deck_cards(rs, kinds: list[str]) -> Mapping[str, Card]:
    """Gives what each card name of the deck is (read-only)."""
    found = {}
    for c, k in enumerate(rs.card_kind.tolist()):
        found.setdefault(kinds[k], Card(EFFECTS[rs.card_effect[c]], int(rs.card_gems[c]),
                                        int(rs.card_sacrifice[c]), int(rs.card_amount[c])))
    return MappingProxyType(found)


def view(s, planets: list[str], kinds: list[str], card_kind: list[int], seat: int,
         board_: Board, cards: Mapping[str, Card], advise=None, lazy: bool = False) -> View:
    """Gives what `seat` may know now: its hand, and the public board and resources.
    advise(strategy) gives the index of the legal move a built-in strategy would play
    (View.suggest), None: no advice; lazy: each field is read as first asked for (the position
    must not change meanwhile), else all are read now."""
    seen = View((s, planets, kinds, card_kind, seat, board_, cards), advise)
    return seen if lazy else seen.keep()


class PythonSeatPlayer(python_bots.SeatPlayer):
    """Plays a Python strategy's seat of Deep Space (python_bots.SeatPlayer): lists its legal
    moves when the driver stops for it, and writes the chosen one into the engine's move
    array."""

    def __init__(self, s, rs, planets: list[str], kinds: list[str], rules: dict):
        super().__init__(s, rs, bots, forbid.names(rules), rules, View)
        self.planets, self.kinds = planets, kinds
        self.card_kind = rs.card_kind.tolist()
        self.board = board(rs, planets, s.units.shape[0])
        self.cards = deck_cards(rs, kinds)
        # The rules called at every move, bound to this state (sim/jit.py).
        self.legal_moves = direct(engine.legal_moves, s, rs, 0)
        self.mine_count = direct(engine.mine_count, s, rs, 0)

    def __call__(self, seat: int) -> None:
        s, rs = self.s, self.rs
        rows = s.moves[:self.legal_moves(s, rs, seat)].copy()
        position = (s, self.planets, self.kinds, self.card_kind, seat, self.board, self.cards)
        word = _wording(s, rs, self.planets, self.kinds, seat, self.mine_count)
        s.move[:] = rows[self.ask(seat, position, rows, word=word)]

    def masks(self, forbidden: tuple[str, ...]) -> list:
        return list(zip((self.s.forbid, self.s.forbid_card),
                        forbid.mask(self.kinds, self.rs.card_kind, forbidden)))
