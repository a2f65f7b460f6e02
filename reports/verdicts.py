"""What balanced means for each game's headline, and a verdict in words on an interval.

A game declares its target (`GAME.target`, a sim.game.Target: a fixed rate such as a team's
50%, else a fair share 1/players) and whom a rate above or below it favours;
`simulate report --target` replaces the rate. A verdict rests on the interval, never on the point alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from sim.errors import UserError
from sim.game import Target

TOLERANCE = 0.02  # an interval within ±2 points of the target is balanced


def target_of(game: str) -> Target:
    """Gives the target game `game` declares (sim.game.Target; a fair share for the first
    player if none)."""
    from sim import games as registry
    from sim.game import target_of as declared

    return declared(registry.get(game))


@dataclass(frozen=True)
class Driver:
    """A factor of the deal that can decide most of a game's headline, as the game declares
    it (its `driver`; Saboteur: the number of saboteurs in play), for the report's Answer.

    `rates(ctx)` gives the headline per level of the factor: a frame with the report's
    grouping keys (`ctx.apart("players")`), `level`, and n, rate, low, high (with_wilson);
    `keys` are the rule keys that move the factor, `N` standing for the player count
    ("saboteur_cards.N"); `why` says how they move it, `{keys}` standing for them; `unit`
    names the headline's trials ("rounds"), `level` a level in words ("{} in play")."""

    name: str
    rates: Callable
    keys: tuple[str, ...] = ()
    why: str = ""
    unit: str = "trials"  # what the headline counts: Saboteur's rounds
    level: str = "{}"  # a level in words: "{} in play"

    def keys_at(self, players: int) -> list[str]:
        """Gives the rule keys at a player count: "saboteur_cards.7"."""
        return [k[:-2] + f".{players}" if k.endswith(".N") else k for k in self.keys]


def driver_of(game) -> Driver | None:
    """Gives the driver the game declares (its `driver`), or None."""
    return getattr(game, "driver", None)


def check_target(value: float | None) -> None:
    """Raises UserError unless `value` (from --target) is a rate in [0, 1] or absent."""
    if value is not None and not 0 <= value <= 1:
        raise UserError(f"--target takes a rate between 0 and 1 (e.g. 0.5), got {value:g}")


def verdict(distance: float, low: float, high: float, target: Target,
            tolerance: float = TOLERANCE) -> str:
    """Gives the verdict on a headline whose distance to its target is `distance` with the 95%
    interval [low, high] (rates): balanced when the interval lies within ± `tolerance`;
    favouring a side when it excludes 0; else not distinguishable at this sample size."""
    if any(v is None or not np.isfinite(v) for v in (distance, low, high)):
        return "no interval"
    if -tolerance <= low and high <= tolerance:
        return f"balanced within ±{100 * tolerance:g} points"
    if low > 0:
        return (f"favours {target.above} by {100 * distance:.1f} points "
                f"[{100 * low:.1f}, {100 * high:.1f}]")
    if high < 0:
        return (f"favours {target.below} by {-100 * distance:.1f} points "
                f"[{-100 * high:.1f}, {-100 * low:.1f}]")
    return "not distinguishable from balanced at this sample size"


WITHIN, OUTSIDE, UNDECIDED = "within", "outside", "cannot tell"
POWER = 0.8  # the chance the games to settle a band question give to settling it


def band(low: float, high: float, tolerance: float = TOLERANCE) -> str:
    """Gives what the 95% interval [low, high] of a distance to the target says of the band
    ±`tolerance`: 'within' (the interval inside it: an equivalence test, TOST at 2.5% a
    side), 'outside' (the interval wholly beyond it) or 'cannot tell' (it crosses an edge).
    Each of the first two is wrong only when the interval misses the true distance."""
    if -tolerance <= low and high <= tolerance:
        return WITHIN
    if low > tolerance or high < -tolerance:
        return OUTSIDE
    return UNDECIDED


def games_to_settle(games: int, distance: float, low: float, high: float,
                    tolerance: float = TOLERANCE) -> int | None:
    """Gives how many games would settle `band` for a distance measured as `distance` [low,
    high] over `games` games, were the true distance as measured: the interval's standard
    error shrinks as 1/√games, and the games are those at which the interval clears the
    nearer edge of the band with probability POWER (the normal sample-size formula); None
    where the distance sits on the edge (no number of games settles it)."""
    margin = abs(tolerance - abs(distance))
    z = NormalDist().inv_cdf(1 - 0.05 / 2)
    se = (high - low) / (2 * z)
    if margin < 1e-4 or not se > 0:
        return None
    return int(np.ceil(games * ((z + NormalDist().inv_cdf(POWER)) * se / margin) ** 2))


def verdicts(distance, low, high, target: Target) -> list[str]:
    """Gives `verdict` element-wise."""
    return [verdict(d, lo, hi, target) for d, lo, hi in zip(distance, low, high)]
