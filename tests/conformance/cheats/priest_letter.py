"""Priest Letter: a small Love Letter as a simple-level game (sim/simple.py), where a seat
learns a card: the test game of the conformance suite's learned-information check
(test_cheating_redeals.py), with `forgetful_redeal`, which forgets a Priest's look.

Each seat holds one card; one card is set aside unseen. On its turn a seat draws a card and
plays one of its two: a Guard (1) names another seat and a card other than a Guard, and that
seat is out if it holds it; a Priest (2) looks at another seat's card; a Baron (3) compares
cards with another seat, the lower one out; a Countess (4) does nothing; whoever plays the
Princess (5) is out. The game ends when one seat is left or the deck is empty: the highest card
left wins (ties share).

A seat knows the card of every seat it looked at with a Priest, until that seat plays a card of
that value (it may have kept the one it drew): its view shows those cards, read from the hands
as they are.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from sim.simple import Result

NAME = "priest-letter"
TITLE = "Priest Letter"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
RULES_FILE = Path(__file__).with_name("priest_letter.toml")
GUARD, PRIEST, BARON, COUNTESS, PRINCESS = 1, 2, 3, 4, 5
NO_TARGET = (-1, 0)


class State:
    __slots__ = ("seat", "hands", "deck", "removed", "out", "looked", "over")

    def __init__(self, seat, hands, deck, removed, out, looked, over=False):
        self.seat, self.hands, self.deck, self.removed = seat, hands, deck, removed
        self.out = out
        self.looked = looked  # per seat, the seats whose card it knows
        self.over = over


class View(NamedTuple):
    seat: int
    hand: tuple[int, ...]
    out: tuple[bool, ...]
    cards_left: int
    known: tuple[tuple[int, int], ...]  # (seat, its card) for every card this seat knows


def deal(players: int, rules: dict, rng) -> State:
    counts = {GUARD: rules["guards"], PRIEST: rules["priests"], BARON: rules["barons"],
              COUNTESS: rules["countesses"], PRINCESS: 1}
    deck = [card for card, n in counts.items() for _ in range(n)]
    rng.shuffle(deck)
    removed = [deck.pop()]
    hands = [[deck.pop()] for _ in range(players)]
    hands[0].append(deck.pop())
    return State(0, hands, deck, removed, [False] * players, [set() for _ in range(players)])


def to_move(state: State) -> int:
    return state.seat


def legal_moves(state: State) -> list[tuple[int, int, int]]:
    seat = state.seat
    others = [t for t in range(len(state.hands)) if t != seat and not state.out[t]]
    moves = []
    for card in sorted(set(state.hands[seat])):
        if card == GUARD:
            moves += [(card, t, guess) for t in others for guess in range(PRIEST, PRINCESS + 1)]
        elif card in (PRIEST, BARON):
            moves += [(card, t, 0) for t in others]
        else:
            moves.append((card, *NO_TARGET))
    return moves


def _knocked_out(state: State, seat: int) -> None:
    state.out[seat] = True
    state.hands[seat] = []
    for known in state.looked:
        known.discard(seat)


def apply(state: State, move) -> State:
    card, target, guess = move
    seat, hand = state.seat, state.hands[state.seat]
    if card == hand[0]:  # it may have played the card the others knew
        for known in state.looked:
            known.discard(seat)
    hand.remove(card)
    if card == GUARD and guess in state.hands[target]:
        _knocked_out(state, target)
    elif card == PRIEST:
        state.looked[seat].add(target)
    elif card == BARON and hand[0] != state.hands[target][0]:
        _knocked_out(state, target if hand[0] > state.hands[target][0] else seat)
    elif card == PRINCESS:
        _knocked_out(state, seat)
    left = [t for t in range(len(state.hands)) if not state.out[t]]
    if len(left) == 1 or not state.deck:
        state.over = True
        return state
    state.seat = min((t for t in left if t > seat), default=left[0])
    state.hands[state.seat].append(state.deck.pop())
    return state


def is_over(state: State) -> bool:
    return state.over


def result(state: State) -> Result:
    scores = tuple(0 if out else hand[0] for out, hand in zip(state.out, state.hands))
    best = max(scores)
    return Result(tuple(t for t, s in enumerate(scores) if s == best), scores)


def view(state: State, seat: int) -> View:
    return View(seat, tuple(sorted(state.hands[seat])), tuple(state.out), len(state.deck),
                tuple((t, state.hands[t][0]) for t in sorted(state.looked[seat])))


def redeal(state: State, seat: int, rng) -> State:
    """Gives a copy of the state in which every card `seat` has not seen (and does not know
    from a Priest) is dealt afresh: the others' unknown cards, the deck and the card set
    aside."""
    return _redealt(state, seat, rng, state.looked[seat])


def forgetful_redeal(state: State, seat: int, rng) -> State:
    """The re-deal of a game that forgets what a Priest showed the seat: it deals the cards the
    seat knows afresh too (keeping that the seat looked)."""
    return _redealt(state, seat, rng, set())


def _redealt(state: State, seat: int, rng, known: set[int]) -> State:
    fresh = [t for t in range(len(state.hands)) if t != seat and t not in known]
    kept = {t: state.hands[t][:1] if t in known else [] for t in range(len(state.hands))}
    kept[seat] = list(state.hands[seat])
    unseen = state.removed + state.deck + [c for t in fresh for c in state.hands[t]]
    unseen.sort()  # what the seat knows of them: which cards, not where
    rng.shuffle(unseen)
    hands = []
    for t, hand in enumerate(state.hands):
        hands.append(kept[t] + [unseen.pop() for _ in range(len(hand) - len(kept[t]))])
    deck = [unseen.pop() for _ in state.deck]
    return State(state.seat, hands, deck, unseen, list(state.out),
                 [set(k) for k in state.looked], state.over)


class Default:
    """Guards a seat whose card it knows; otherwise plays its lower card, never the Princess."""

    name = "default"
    meaning = "guards a seat whose card it knows, else plays its lower card (not the Princess)"
    parameters = ()

    def choose(self, view: View, legal_moves, rng):
        for t, card in view.known:
            if GUARD in view.hand and card != GUARD and (GUARD, t, card) in legal_moves:
                return GUARD, t, card
        return next(m for m in legal_moves if m[0] == view.hand[0])  # the Princess is highest


BOTS = (Default,)
