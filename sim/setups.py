"""The configurations a command line asks for: player counts, per-seat strategies, game options."""

from __future__ import annotations

import itertools
import re
from typing import Callable

from sim.errors import UserError
from sim.limits import MAX_SETUPS
from sim.game import Game, Setup

_COUNT = re.compile(r"(\d+)(?:-(\d+))?")


def parse_counts(flag: str, text: str, check: Callable[[int], None] | None = None) -> list[int]:
    """Gives the numbers named by `7`, `5,7`, `3-10` (or a mix like `3-5,8`), in order, once each.

    `check` (raising UserError for a number not allowed) sees each number before the range is
    listed, so that `3-3000000000` is refused at its first number not allowed.
    """
    counts: list[int] = []
    for part in text.split(","):
        match = _COUNT.fullmatch(part.strip())
        if not match:
            raise UserError(f"{flag} takes a number (7), a list (5,7) or a range (3-10), got {text!r}")
        low = int(match[1])
        high = int(match[2]) if match[2] else low
        if high < low:
            raise UserError(f"{flag}: the range {part.strip()!r} is empty")
        # The first number not allowed stops it, long before a range like 3-3000000000 ends.
        for n in itertools.islice(range(low, high + 1), MAX_SETUPS + 1) if check else ():
            check(n)
        if high - low >= MAX_SETUPS:
            raise UserError(f"{flag}: the range {part.strip()!r} names more than {MAX_SETUPS:,}"
                            " numbers")
        counts += [n for n in range(low, high + 1) if n not in counts]
    return counts


def check_players(game: Game, players: int) -> None:
    """Raises UserError unless the game takes `players` players."""
    if not game.min_players <= players <= game.max_players:
        raise UserError(f"{game.name} takes {game.min_players}–{game.max_players} players, "
                        f"got {players}")


def parse_seat_strategies(values: list[str]) -> dict[int, str]:
    """Gives {seat: strategy} from `SEAT=NAME` flag values (seats count from 0)."""
    seats: dict[int, str] = {}
    for value in values:
        seat, sep, name = value.partition("=")
        if not sep or not seat.strip().isdigit() or not name.strip():
            raise UserError(f"--seat-strategy takes SEAT=NAME (e.g. 0=default), got {value!r}")
        seats[int(seat)] = name.strip()
    return seats


def build_setups(game: Game, players: list[int], options: dict[str, list], strategy: str,
                 seat_strategies: dict[int, str], rules: dict | None = None) -> list[Setup]:
    """Gives every configuration of the sweep: each player count with each combination of options.

    Strategy strings come out as workers need them (strategies.seats.canonical: a Python bot's
    file made absolute); `rules` carry the presets of --strategies-file, if any.
    Raises UserError for a player count the game does not take, an unknown strategy, or a seat
    that some configuration of the sweep does not have.
    """
    from strategies.seats import canonical

    for n in players:
        check_players(game, n)
    strategy = canonical(game, strategy, rules)
    seat_strategies = {seat: canonical(game, name, rules) for seat, name in seat_strategies.items()}
    for seat in seat_strategies:
        if seat >= min(players):
            raise UserError(f"--seat-strategy: there is no seat {seat} with {min(players)} players"
                            f" (seats are 0–{min(players) - 1})")
    names = sorted(options)
    return [
        Setup(n, tuple(seat_strategies.get(seat, strategy) for seat in range(n)),
              tuple(zip(names, values)))
        for n in players
        for values in itertools.product(*(options[name] for name in names))
    ]
