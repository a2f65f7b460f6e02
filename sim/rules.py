"""Rule parameters as data: a game's TOML defaults, a user's TOML file, then `--set` overrides.

Only the shape is checked here (every key known, every value of the default's type, numbers
within a sane range: see `GROWTH` and a game's `[limits]` table); whether the values make a
playable game is the game's own `load_rules`/`check` business.
"""

from __future__ import annotations

import difflib
import math
import tomllib
from pathlib import Path

from sim.errors import UserError

CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def load_rules(game_name: str, config_file: str | None, overrides: list[str]) -> dict:
    """Gives a game's rules: its defaults, merged with the user's file, then the overrides."""
    rules = _read_toml(CONFIGS / f"{game_name}.toml")
    # The most some keys take (dotted key -> ceiling), where work or memory grows with them
    # faster than GROWTH allows for; not a rule itself.
    ceilings = rules.pop(LIMITS, {})
    if config_file is not None:
        _merge(rules, _read_toml(Path(config_file)), (), f"in {config_file}", ceilings)
    for override in overrides:
        key, value = _parse_override(override)
        _merge(rules, _nest(key, value), (), "in --set", ceilings)
    return rules


def _read_toml(path: Path) -> dict:
    """Gives the parsed TOML file, or a one-line UserError naming the file."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except OSError as e:
        raise UserError(f"cannot read {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{path}: malformed TOML: {e}") from None


def _parse_override(override: str) -> tuple[list[str], object]:
    """Gives the dotted key path and the value of a `KEY=VALUE` override."""
    key, sep, text = override.partition("=")
    if not sep or not key.strip():
        raise UserError(f"--set expects KEY=VALUE, got {override!r}")
    try:
        value = tomllib.loads(f"v = {text.strip()}")["v"]
    except tomllib.TOMLDecodeError:
        # `--set variant=short` should not need TOML quoting.
        value = text.strip()
    return key.strip().split("."), value


def _nest(path: list[str], value) -> dict:
    """Gives {'a': {'b': value}} for the path ['a', 'b']."""
    for key in reversed(path):
        value = {key: value}
    return value


def _merge(rules: dict, update: dict, prefix: tuple[str, ...], where: str,
           ceilings: dict[str, int]) -> None:
    """Merges `update` into `rules` in place, refusing unknown keys, values of another type and
    numbers beyond their range."""
    for key, value in update.items():
        path = (*prefix, key)
        if key not in rules:
            raise UserError(f"unknown rule {_dotted(path)!r} {where}{_suggestion(key, rules)}")
        default = rules[key]
        if isinstance(default, dict) and isinstance(value, dict):
            _merge(default, value, path, where, ceilings)
        else:
            rules[key] = _checked(value, default, path, where, ceilings.get(_dotted(path)))


# An integer rule (a count of rounds, cards, turns, ...) may grow to this many times its
# default, unless the game's `[limits]` table says otherwise: games and their result arrays
# grow with it, and `rounds = 1000000000` must not hang.
GROWTH = 100
SMALLEST_CEILING = 100  # for rules whose default is 0 or 1
LIMITS = "limits"


def _checked(value, default, path: tuple[str, ...], where: str, ceiling: int | None = None):
    """Gives `value` if it has the default's type (an int becomes a float where one is expected)
    and, being a number, is within its sane range (at most `ceiling`, if the game gives one)."""
    if isinstance(default, float) and type(value) is int:
        value = float(value)
    if type(value) is not type(default):
        raise UserError(
            f"rule {_dotted(path)!r} {where} must be {_KINDS.get(type(default), type(default).__name__)},"
            f" got {value!r}"
        )
    if isinstance(value, list):
        numbers = [d for d in default if type(d) in (int, float)]
        for number in value if numbers else ():
            _check_range(number, max(numbers, key=abs), path, where, ceiling)
    else:
        _check_range(value, default, path, where, ceiling)
    return value


def _check_range(value, default, path: tuple[str, ...], where: str, ceiling: int | None) -> None:
    """Raises UserError for a non-finite number, or an integer beyond its ceiling (the game's,
    else GROWTH times the default)."""
    if type(value) is float and not math.isfinite(value):
        raise UserError(f"rule {_dotted(path)!r} {where} must be a finite number, got {value!r}")
    if type(value) is int and type(default) is int:
        why = "the most this game takes"
        if ceiling is None:
            ceiling = max(SMALLEST_CEILING, GROWTH * abs(default))
            why = f"{GROWTH} times its default {default}"
        if abs(value) > ceiling:
            bound = f"at most {ceiling}" if value > 0 else f"at least {-ceiling}"
            raise UserError(f"rule {_dotted(path)!r} {where} must be {bound} ({why}), got {value}")


_KINDS = {
    bool: "true or false",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "a table",
}


def _dotted(path: tuple[str, ...]) -> str:
    return ".".join(path)


def _suggestion(key: str, known: dict) -> str:
    """Gives ' (did you mean 'x'?)' for a near miss among the known keys, else ''."""
    close = difflib.get_close_matches(key, [str(k) for k in known], n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
