"""What a seat's strategy string says: which bot plays the seat, and what it may never play.

    default                        a built-in strategy (a family or a preset)
    careful                        a preset from --strategies-file
    /abs/path/mybots.py:Cautious   a Python strategy class (see strategies/protocol.py)
    default-no-rockfall            restricted play: that bot, never playing a rockfall
    mybots.py:Cautious-no-map-no-pass

A restriction is part of the strategy string, not of the seat: `--forbid` only rewrites the
strings, and so the manifest, the summary's configuration label, the `strategy` column of the
`seats` table, reports by strategy and `simulate compare --strategies default,default-no-rockfall`
all name it without further machinery.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from sim.errors import UserError
from sim.packaged import user_file
from strategies import presets as presets_mod
from strategies.bot_files import load_class

RESTRICTION = "-no-"
_FORBIDDABLE = re.compile(r"(?:[a-z]+:)?[a-z][a-z0-9_]*")  # NAME, or ROLE:NAME


class SeatStrategy(NamedTuple):
    base: str                    # a built-in or preset name, or "path.py:ClassName"
    forbidden: tuple[str, ...]   # what the seat never plays, as the game names cards/actions


def is_python(base: str) -> bool:
    """Gives whether a strategy names a Python class ("file.py:ClassName")."""
    return ".py:" in base


def parse(text: str) -> SeatStrategy:
    """Gives the bot and the restrictions of a seat's strategy string."""
    forbidden: list[str] = []
    base = text
    while True:
        head, sep, tail = base.rpartition(RESTRICTION)
        if not sep or not head or not _FORBIDDABLE.fullmatch(tail):
            return SeatStrategy(base, tuple(forbidden))
        forbidden.insert(0, tail)
        base = head


def compose(base: str, forbidden: tuple[str, ...] | list[str]) -> str:
    """Gives the strategy string of a bot with restrictions (each named once, in order)."""
    return base + "".join(RESTRICTION + name for name in dict.fromkeys(forbidden))


def canonical(game, text: str, rules: dict | None = None) -> str:
    """Gives a seat's strategy string checked and as workers need it: a Python file's path made
    absolute (worker processes import it too), restrictions named once.

    Raises UserError for an unknown strategy, a Python file or class that cannot be loaded, or
    a restriction the game does not know (listing what it knows).
    """
    seat = parse(text.strip())
    if is_python(seat.base):
        presets_mod.bots_of(game, "Python strategies")
        path, _, cls = seat.base.rpartition(":")
        base = f"{user_file(path).resolve()}:{cls}"
        load_class(base)
    else:
        base = seat.base
        known = [*game.strategy_names(), *presets_mod.user_presets(rules or {})]
        if base not in known:
            python = " (or a Python bot: path/to/file.py:ClassName)" if hasattr(game, "bots") else ""
            raise UserError(f"unknown strategy {base!r}; known strategies: {', '.join(known)}"
                            f"{python}")
    if seat.forbidden:
        bots = presets_mod.bots_of(game, "--forbid")
        allowed = bots.forbiddable(rules or game.load_rules(None, []))
        roles = getattr(bots, "roles", ())
        for restriction in seat.forbidden:
            role, _, name = restriction.rpartition(":")
            if role and role not in roles:
                raise UserError(f"{game.name} has no role {role!r}" + (
                    f"; --forbid ROLE:NAME takes {', '.join(roles)}" if roles else
                    "; give --forbid NAME without a role"))
            if name not in allowed:
                raise UserError(f"{game.name} cannot forbid {name!r}; it can forbid: "
                                f"{', '.join(allowed)}")
    return compose(base, seat.forbidden)


def forbid(strategy: str, seat_strategies: dict[int, str],
           values: list[str]) -> tuple[str, dict[int, str]]:
    """Gives (strategy, seat strategies) with the restrictions of `--forbid NAME` (every seat)
    and `--forbid SEAT=NAME` (one seat) added to their strings."""
    everyone: list[str] = []
    per_seat: dict[int, list[str]] = {}
    for value in values:
        seat, sep, name = value.rpartition("=")
        name = name.strip()
        if (sep and not seat.strip().isdigit()) or not name:
            raise UserError(f"--forbid takes NAME or SEAT=NAME (e.g. rockfall, 2=rockfall), "
                            f"got {value!r}")
        (per_seat.setdefault(int(seat), []) if sep else everyone).append(name)
    strategy_out = _restricted(strategy, everyone)
    seats = {seat: _restricted(name, everyone) for seat, name in seat_strategies.items()}
    for seat, names in per_seat.items():
        seats[seat] = _restricted(seats.get(seat, strategy_out), names)
    return strategy_out, seats


def forbid_strategies(strategies: list[str], values: list[str]) -> list[str]:
    """Gives compare's strategies with the restrictions of `--forbid NAME` (every strategy) and
    `--forbid STRATEGY=NAME` (that one of them) added to their strings."""
    everyone: list[str] = []
    per_strategy: dict[str, list[str]] = {}
    names = [s.strip() for s in strategies]
    for value in values:
        strategy, sep, name = value.rpartition("=")
        if not name.strip() or (sep and strategy.strip() not in names):
            raise UserError(f"--forbid takes NAME or STRATEGY=NAME with STRATEGY one of "
                            f"{', '.join(names)}, got {value!r}")
        (per_strategy.setdefault(strategy.strip(), []) if sep else everyone).append(name.strip())
    return [_restricted(s, [*everyone, *per_strategy.get(s, [])]) if s else s for s in names]


def _restricted(text: str, names: list[str]) -> str:
    seat = parse(text)
    return compose(seat.base, [*seat.forbidden, *names]) if names else text
