"""The deck of Spit and Speed: ranks that wrap around (on an Ace a King or a 2), suits that only
matter for their colour."""

import numpy as np

from sim.errors import UserError

RANK_NAMES = "A23456789TJQK"
SUIT_NAMES = "cdsh"  # clubs, diamonds, spades, hearts: colour = suit % 2 (0 black, 1 red)
UP, DOWN = 1, 2  # bits of fits[card, top]: the card is one rank above / below the top


def build(rules: dict) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Gives (rank per card, colour per card, card names) of the rules' deck; card c has rank
    c % ranks and suit c // ranks."""
    deck = rules["deck"]
    ranks, suits = deck["ranks"], deck["suits"]
    if not isinstance(ranks, int) or not 3 <= ranks <= len(RANK_NAMES):
        raise UserError(f"deck.ranks must be a whole number from 3 to {len(RANK_NAMES)}, got {ranks!r}")
    if not isinstance(suits, int) or not 1 <= suits <= len(SUIT_NAMES):
        raise UserError(f"deck.suits must be a whole number from 1 to {len(SUIT_NAMES)}, got {suits!r}")
    cards = np.arange(ranks * suits)
    names = [RANK_NAMES[c % ranks] + SUIT_NAMES[c // ranks] for c in cards]
    return (cards % ranks).astype(np.int64), (cards // ranks % 2).astype(np.int64), names


def fits(rank: np.ndarray, colour: np.ndarray, alternate: bool) -> np.ndarray:
    """Gives fits[card, top], non-zero where `card` may go on `top`: UP where it is one rank
    higher, DOWN one rank lower, wrapping around (on an Ace a King or a 2), and of the other
    colour if `alternate`. (The direction is kept for restricted play: --forbid play_up.)"""
    ranks = int(rank.max()) + 1
    d = (rank[:, None] - rank[None, :]) % ranks
    found = np.where(d == 1, UP, 0) | np.where(d == ranks - 1, DOWN, 0)
    if alternate:
        found = np.where(colour[:, None] != colour[None, :], found, 0)
    return found.astype(np.int8)
