"""The numbers a flag names (`--players 3-5,8`, `--saboteurs 2,3`) and the most configurations
one run holds, which bounds them: in the shared core, so that a game checking its own flags
(Spit's --players) and the rules' sweeps need not import the run machinery (sim.run.limits
refuses a larger sweep with the same bound)."""

from __future__ import annotations

import itertools
import re
from typing import Callable

from sim.errors import UserError

# A run folder names a shard by its configuration in 3 digits.
MAX_SETUPS = 1000

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
