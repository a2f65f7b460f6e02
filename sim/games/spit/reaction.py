"""Reaction times of the seats of a real-time game: profiles (presets) from the rules, and the
`--reaction SEAT=MEAN[:SPREAD]` / `--reaction-profile` flags turned into setup options.

A seat's reaction setting is the setup option `reaction_<seat>`: a profile's name (`club`) or
`MEAN:SPREAD` (mean seconds, and sigma of log-seconds). A setup without it uses the rules'
default profile.
"""

from __future__ import annotations

import math

from sim.errors import UserError

SEATS = 2


def option_name(seat: int) -> str:
    return f"reaction_{seat}"


def profiles(rules: dict) -> dict[str, tuple[float, float]]:
    """Gives {profile name: (mean seconds, spread)} from the rules, each checked."""
    found = {}
    for name, p in rules["reaction_profiles"].items():
        if not isinstance(p, dict) or set(p) != {"mean", "spread"}:
            raise UserError(f"reaction_profiles.{name} must have exactly a mean and a spread")
        found[name] = _checked(p["mean"], p["spread"], f"reaction_profiles.{name}")
    default = rules["reaction"]["profile"]
    if default not in found:
        raise UserError(f"reaction.profile {default!r} is not a profile; profiles: {', '.join(found)}")
    return found


def _checked(mean, spread, where: str) -> tuple[float, float]:
    """Gives (mean, spread) as floats, or a UserError saying what is wrong."""
    for what, value, low in (("mean reaction time", mean, 0.0), ("spread", spread, 0.0)):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if not ok or value < low or (what.startswith("mean") and value == 0):
            bound = "a positive number of seconds" if what.startswith("mean") else "a number >= 0"
            raise UserError(f"{where}: the {what} must be {bound}, got {value!r}")
    if spread > 3:
        raise UserError(f"{where}: a spread of {spread} is not a sensible sigma of log-seconds (0-3)")
    return float(mean), float(spread)


def _parse_numbers(text: str, default_spread: float | None, where: str) -> tuple[float, float]:
    mean_text, _, spread_text = text.partition(":")
    try:
        mean = float(mean_text)
        spread = float(spread_text) if spread_text else default_spread
    except ValueError:
        raise UserError(f"{where} takes SEAT=MEAN[:SPREAD] or SEAT=PROFILE, got {text!r}") from None
    if spread is None:
        raise UserError(f"{where}: give the spread (MEAN:SPREAD) when --reaction-profile "
                        f"names several profiles, got {text!r}")
    return _checked(mean, spread, where)


def seat_reaction(rules: dict, value: str | None) -> tuple[float, float]:
    """Gives (mean seconds, spread) of a seat's `reaction_<seat>` option (None: the default)."""
    known = profiles(rules)
    if value is None:
        return known[rules["reaction"]["profile"]]
    if value in known:
        return known[value]
    if ":" not in value:
        raise UserError(f"unknown reaction profile {value!r}; profiles: {', '.join(known)}")
    return _parse_numbers(value, None, "reaction")


def setup_options(rules: dict, reaction: list[str], profile: str | None,
                  sweep: bool = True) -> dict[str, list[str]]:
    """Gives the setup options {reaction_0: [...], reaction_1: [...]} of the flags.

    `profile` is one profile name or a comma-separated list (every seat, default: the rules'
    profile); each `--reaction SEAT=VALUES` gives that seat its own list of values, each a
    profile name or MEAN[:SPREAD] (SPREAD defaults to the profile's). Every combination of the
    seats' values becomes a configuration. With sweep=False each seat may have only one value.
    """
    known = profiles(rules)
    names = [p.strip() for p in (profile or rules["reaction"]["profile"]).split(",")]
    for name in names:
        if name not in known:
            raise UserError(f"--reaction-profile: unknown profile {name!r}; profiles: {', '.join(known)}")
    default_spread = known[names[0]][1] if len(names) == 1 else None
    values = {seat: list(names) for seat in range(SEATS)}
    given: set[int] = set()
    for flag in reaction:
        seat_text, sep, specs = flag.partition("=")
        if not sep or seat_text.strip() not in [str(s) for s in range(SEATS)] or not specs.strip():
            raise UserError(f"--reaction takes SEAT=MEAN[:SPREAD] (seats 0 and 1), e.g. 1=0.6:0.3 "
                            f"or 1=0.6,0.8,1.0 or 0=expert; got {flag!r}")
        seat = int(seat_text)
        if seat not in given:
            values[seat] = []
            given.add(seat)
        for spec in specs.split(","):
            spec = spec.strip()
            if spec in known:
                values[seat].append(spec)
            else:
                mean, spread = _parse_numbers(spec, default_spread, "--reaction")
                values[seat].append(f"{mean:g}:{spread:g}")
    for seat in range(SEATS):
        values[seat] = list(dict.fromkeys(values[seat]))
        if not sweep and len(values[seat]) > 1:
            raise UserError(f"one reaction setting per seat here; seat {seat} has "
                            f"{', '.join(values[seat])}")
    return {option_name(seat): values[seat] for seat in range(SEATS)}


def check_players(game: str, players: str) -> None:
    """Raises UserError unless `--players` names exactly 2."""
    from sim.counts import parse_counts

    counts = parse_counts("--players", players)
    if counts != [2]:
        raise UserError(f"{game} is a game for two players: --players takes only 2, got {players}")


def check_players(game: str, players: str) -> None:
    """Raises UserError unless `--players` names exactly 2."""
    from sim.counts import parse_counts

    counts = parse_counts("--players", players)
    if counts != [2]:
        raise UserError(f"{game} is a game for two players: --players takes only 2, got {players}")

