"""No Thanks! (Thorsten Gimmler, 2004) as a simple-level game (sim/simple.py).

The cards lowest_card..highest_card are shuffled and `removed` of them set aside unseen. The
top card is turned face up. The player to move either pays a chip onto it ("pass": the next
player decides) or takes it with every chip on it ("take": the taker turns the next card and
decides again). A player without chips must take. When the last card is taken, each player
scores the lowest card of each run of consecutive cards they hold, minus their chips; the
lowest total wins, ties share the win.

Chips are played open here (the published game keeps them hidden; counting them is the usual
table habit): a seat sees every hand and every chip count, but not the deck nor the cards
removed.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from sim.errors import UserError
from sim.simple import Result
from strategies.presets import Parameter

NAME = "no-thanks"
TITLE = "No Thanks!"
MIN_PLAYERS, MAX_PLAYERS = 3, 7
RULES_FILE = Path(__file__).with_name("rules.toml")

TAKE, PASS = "take", "pass"
BOTH = (TAKE, PASS)  # the legal moves, shared and never changed
ONLY_TAKE = (TAKE,)


class State:
    """A game in progress. `deck` is face down (its last card comes next), `card` face up with
    `pot` chips on it (card 0: the game is over)."""

    __slots__ = ("seat", "card", "pot", "deck", "removed", "chips", "hands", "passes")

    def __init__(self, seat, card, pot, deck, removed, chips, hands, passes=0):
        self.seat, self.card, self.pot = seat, card, pot
        self.deck, self.removed = deck, removed
        self.chips, self.hands = chips, hands
        self.passes = passes  # chips paid onto cards so far


class View(NamedTuple):
    """What a seat sees: the face-up card and its chips, every seat's chips and cards, and how
    many cards are still face down (not which)."""

    seat: int
    card: int
    pot: int
    chips: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # each seat's cards, in the order taken
    cards_left: int  # face down, the removed ones not counted


def validate(rules: dict) -> None:
    """Raises UserError for rules no game can be played with."""
    low, high, removed = rules["lowest_card"], rules["highest_card"], rules["removed"]
    if low < 1 or high < low:
        raise UserError(f"the cards run from lowest_card {low} to highest_card {high}: "
                        "lowest_card must be at least 1 and at most highest_card")
    if not 0 <= removed < high - low + 1:
        raise UserError(f"removed must be 0 to {high - low} (one card must stay), got {removed}")
    for count, chips in rules["chips"].items():
        if chips < 0:
            raise UserError(f"chips.{count} must be at least 0, got {chips}")


def check(rules: dict, players: int) -> None:
    """Raises UserError when `players` have no chip count in the rules."""
    if str(players) not in rules["chips"]:
        raise UserError(f"the rules give no chip count for {players} players (chips.{players})")


def deal(players: int, rules: dict, rng) -> State:
    deck = list(range(rules["lowest_card"], rules["highest_card"] + 1))
    rng.shuffle(deck)
    removed = deck[:rules["removed"]]
    deck = deck[rules["removed"]:]
    chips = [rules["chips"][str(players)]] * players
    return State(0, deck.pop(), 0, deck, removed, chips, [() for _ in range(players)])


def to_move(state: State) -> int:
    return state.seat


def legal_moves(state: State) -> tuple[str, ...]:
    return BOTH if state.chips[state.seat] else ONLY_TAKE


def apply(state: State, move: str) -> State:
    seat = state.seat
    if move == PASS:
        state.chips[seat] -= 1
        state.pot += 1
        state.passes += 1
        state.seat = (seat + 1) % len(state.chips)
    else:
        state.hands[seat] += (state.card,)
        state.chips[seat] += state.pot
        state.pot = 0
        state.card = state.deck.pop() if state.deck else 0
    return state


def is_over(state: State) -> bool:
    return state.card == 0


def cards_score(cards) -> int:
    """Gives the points of a set of cards: the lowest card of each run of consecutive cards."""
    held = set(cards)
    return sum(c for c in held if c - 1 not in held)


def result(state: State) -> Result:
    scores = tuple(cards_score(hand) - chips for hand, chips in zip(state.hands, state.chips))
    best = min(scores)
    return Result(tuple(seat for seat, s in enumerate(scores) if s == best), scores)


PROGRESS = "minus the running score (cards' points less chips: the lowest score wins)"


def progress(state: State) -> tuple[int, ...]:
    """Gives each seat's progress: minus its score so far, as `result` will count it."""
    return tuple(chips - cards_score(hand) for hand, chips in zip(state.hands, state.chips))


def view(state: State, seat: int) -> View:
    return View(seat, state.card, state.pot, tuple(state.chips), tuple(state.hands),
                len(state.deck))


def redeal(state: State, seat: int, rng) -> State:
    """Gives a copy of `state` whose face-down cards are drawn afresh from every card nobody
    has seen (the deck and the removed cards): what any seat cannot know."""
    unseen = sorted(state.deck + state.removed)  # a function of what the seat knows alone
    rng.shuffle(unseen)
    left = len(state.deck)
    return State(state.seat, state.card, state.pot, unseen[:left], unseen[left:],
                 list(state.chips), list(state.hands), state.passes)


def conserved(state: State) -> tuple[int, int]:
    """Gives what no move changes: the chips (held and on the card) and the cards."""
    cards = sum(map(len, state.hands)) + len(state.deck) + len(state.removed) + (state.card > 0)
    return sum(state.chips) + state.pot, cards


def describe(state: State) -> str:
    return (f"card {state.card} pot {state.pot}; chips {state.chips}; "
            f"points {[cards_score(h) for h in state.hands]}")


COLUMNS = {
    "games": {"passes": "chips paid onto cards in the game"},
    "seats": {"cards": "cards taken", "card_points": "points of the cards (run-lowest)",
              "chips": "chips held at the end"},
}


def stats(state: State) -> dict:
    return {"passes": state.passes}


def seat_stats(state: State, seat: int) -> dict:
    return {"cards": len(state.hands[seat]), "card_points": cards_score(state.hands[seat]),
            "chips": state.chips[seat]}


class Default:
    """Takes a card when its chips pay for enough of its value, when it joins one of the
    seat's runs, or when the seat runs short of chips."""

    name = "default"
    meaning = ("takes a card once its chips reach `greed` times what it adds to the seat's "
               "points, a card joining a run once `run_wait` chips are on it, and, with "
               "`reserve` chips or fewer left, any card costing at most half its value")
    parameters = (
        Parameter("greed", 0.4, 0.0, 1.0, "chips on a card, as a share of the points it adds, "
                                          "at which it is taken"),
        Parameter("run_wait", 1.0, 0.0, 10.0, "chips a card joining a run must carry first"),
        Parameter("reserve", 2.0, 0.0, 11.0, "chips left at which the seat takes cheaper cards"),
    )

    def __init__(self, greed=0.4, run_wait=1.0, reserve=2.0):
        self.greed, self.run_wait, self.reserve = greed, run_wait, reserve

    def choose(self, view: View, legal_moves, rng) -> str:
        if len(legal_moves) == 1:
            return TAKE
        card, pot, hand = view.card, view.pot, view.hands[view.seat]
        if card - 1 in hand or card + 1 in hand:
            return TAKE if pot >= self.run_wait else PASS
        cost = card - pot  # the points it adds, less the chips it brings
        if pot >= self.greed * card:
            return TAKE
        if view.chips[view.seat] <= self.reserve and cost <= card / 2:
            return TAKE
        return PASS


BOTS = (Default,)
PRESETS = {"greedy": ("default", {"greed": 0.2}), "stingy": ("default", {"greed": 0.7})}
