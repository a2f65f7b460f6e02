"""Deep Space action decks as data: a TOML list of card kinds (effect, count, price), checked on
load and turned into per-card arrays."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.games.deep_space import files
from sim.errors import UserError

EFFECTS = ("space_dog", "extra_move", "recruits", "meteor_storm", "ore", "gems")
SPACE_DOG, EXTRA_MOVE, RECRUITS, METEOR_STORM, ORE, GEMS = range(len(EFFECTS))
MAX_CARDS = 512


def read(path: str | Path) -> dict:
    """Gives a deck file's contents, checked (see `check`); one-line UserError otherwise."""
    return files.read(path, "deck", check)


def check(deck: dict, where: str) -> None:
    """Raises a one-line UserError naming the first problem of a deck, if it has one."""
    cards = deck.get("cards")
    if set(deck) != {"cards"} or not isinstance(cards, dict) or not cards:
        raise UserError(f"{where}: needs [cards.NAME] tables and nothing else")
    total = 0
    for name, spec in cards.items():
        here = f"{where}: cards.{name}"
        if not isinstance(spec, dict) or spec.get("effect") not in EFFECTS:
            raise UserError(f"{here}.effect must be one of {', '.join(EFFECTS)}")
        extra = set(spec) - {"effect", "count", "gems", "sacrifice", "amount"}
        if extra:
            raise UserError(f"{here}: unknown key {min(extra)!r} "
                            f"(expected effect, count, gems, sacrifice, amount)")
        for key, default in (("count", None), ("gems", 0), ("sacrifice", 0), ("amount", 1)):
            value = spec.get(key, default)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise UserError(f"{here}.{key} must be a whole number >= 0, got {value!r}")
        total += spec["count"]
    if not 0 < total <= MAX_CARDS:
        raise UserError(f"{where}: the deck must hold 1-{MAX_CARDS} cards, it holds {total}")


def arrays(deck: dict) -> tuple[dict[str, np.ndarray], list[str]]:
    """Gives per-card arrays (kind, effect, gems, sacrifice, amount; cards in file order, each
    kind `count` times) and the names of the kinds (indexed by `kind`)."""
    kind, effect, gems, sacrifice, amount = [], [], [], [], []
    names = list(deck["cards"])
    for k, name in enumerate(names):
        spec = deck["cards"][name]
        for _ in range(spec["count"]):
            kind.append(k)
            effect.append(EFFECTS.index(spec["effect"]))
            gems.append(spec.get("gems", 0))
            sacrifice.append(spec.get("sacrifice", 0))
            amount.append(spec.get("amount", 1))
    as_array = {"card_kind": kind, "card_effect": effect, "card_gems": gems,
                "card_sacrifice": sacrifice, "card_amount": amount}
    return {k: np.array(v, np.int64) for k, v in as_array.items()}, names
