"""Rule parameters as data: a game's TOML defaults, a user's TOML file, then `--set` overrides.

Only the shape is checked here (every key known, every value of the default's type, numbers
within a sane range: see `GROWTH` and a game's `[limits]` table); whether the values make a
playable game is the game's own `load_rules`/`check` business.
"""

from __future__ import annotations

import copy
import difflib
import math
import re
import tomllib

from sim.errors import UserError
from sim.packaged import configs, user_file

CONFIGS = configs()


def load_rules(game_name: str, config_file: str | None, overrides: list[str]) -> dict:
    """Gives a game's rules: its defaults, merged with the user's file, then the overrides."""
    rules = read_toml(config_path(game_name))
    # The most some keys take (dotted key -> ceiling), where work or memory grows with them
    # faster than GROWTH allows for; not a rule itself.
    ceilings = rules.pop(LIMITS, {})
    if config_file is not None:
        _merge(rules, read_toml(user_file(config_file)), (), f"in {config_file}", ceilings)
    for override in overrides:
        key, value = _parse_override(override)
        _merge(rules, _nest(key, value), (), "in --set", ceilings)
    return rules


_PLUGIN_FILES: dict[str, object] = {}


def register_file(game_name: str, path) -> None:
    """Records where a plugin game keeps its rules file (sim/simple.py: its RULES_FILE)."""
    _PLUGIN_FILES[config_name(game_name)] = path


def config_path(game_name: str):
    """Gives a game's rules file: a built-in game's in the package's configs folder, a plugin
    game's where it says (loading the game, if it is not loaded yet)."""
    name = config_name(game_name)
    path = CONFIGS / f"{name}.toml"
    if name not in _PLUGIN_FILES and not path.is_file():
        from sim import games
        if game_name in games.GAMES:
            games.get(game_name)
    return _PLUGIN_FILES.get(name, path)


MAX_TOML_BYTES = 1 << 20
"""The most a TOML file read here may hold: rules, presets and boards take kilobytes, and a
name such as /dev/zero must not be read until memory runs out."""


def read_toml(path, what: str = "", shown=None) -> dict:
    """Gives the parsed TOML file, or a one-line UserError naming it: as `shown` (by default its
    path), after `what` (e.g. "board") if given. A file that is not a regular file (a device, a
    pipe: opening one may wait for ever) or holds more than MAX_TOML_BYTES is refused."""
    named = f"{what} {shown or path}" if what else f"{shown or path}"
    try:
        if path.exists() and not path.is_file():
            raise UserError(f"{named}: not a regular file (a TOML file is one)")
        with path.open("rb") as f:
            data = f.read(MAX_TOML_BYTES + 1)
    except OSError as e:
        raise UserError(f"cannot read {'the ' if what else ''}{named}: {e.strerror}") from None
    if len(data) > MAX_TOML_BYTES:
        raise UserError(f"{named}: larger than {MAX_TOML_BYTES >> 20} MiB, more than a TOML "
                        "file of rules, presets or a board holds")
    try:
        return _parsed(data.decode())
    except UnicodeDecodeError:
        raise UserError(f"{named}: not UTF-8 text (a TOML file is UTF-8)") from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"{named}: malformed TOML: {e}") from None


def _parsed(text: str) -> dict:
    """Gives the parsed TOML text; TOMLDecodeError also for arrays or tables nested too deeply
    for the parser (it recurses: 5,000 levels exhaust Python's stack)."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError("arrays or tables nested too deeply") from None


def _parse_override(override: str) -> tuple[list[str], object]:
    """Gives the dotted key path and the value of a `KEY=VALUE` override."""
    key, sep, text = override.partition("=")
    if not sep or not key.strip():
        raise UserError(f"--set expects KEY=VALUE, got {override!r}")
    try:
        value = _parsed(f"v = {text.strip()}")["v"]
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
            raise UserError(f"unknown rule {_dotted(path)!r} {where}"
                            f"{_suggestion(key, rules, prefix)}")
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
            f"rule {_dotted(path)!r} {where} must be {KINDS.get(type(default), type(default).__name__)},"
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


KINDS = {
    bool: "true or false",
    int: "an integer",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "a table",
}


def _dotted(path: tuple[str, ...]) -> str:
    return ".".join(path)


def _suggestion(key: str, known: dict, prefix: tuple[str, ...] = ()) -> str:
    """Gives ' (did you mean 'count.guard'?)' for a near miss among the keys known beside it
    (named in full, as --set takes them), else ''."""
    close = difflib.get_close_matches(key, [str(k) for k in known], n=1)
    return f" (did you mean {_dotted((*prefix, close[0]))!r}?)" if close else ""


# --- Sweeps: `--set KEY=V1,V2,...` or `--set KEY=LO-HI` names several values of one rule. ---

_RANGE = re.compile(r"(-?\d+)-(-?\d+)")


def config_name(game_name: str) -> str:
    """Gives the stem of a game's configs file ('deep-space' -> 'deep_space')."""
    return game_name.replace("-", "_")


def defaults(game_name: str) -> dict:
    """Gives a game's rules as its configs file holds them, without its [limits] table."""
    rules = read_toml(config_path(game_name))
    rules.pop(LIMITS, None)
    return rules


def ceilings(game_name: str) -> dict[str, int]:
    """Gives the game's [limits] table: the most some dotted keys take (see GROWTH)."""
    return read_toml(config_path(game_name)).get(LIMITS, {})


def split_sweeps(game_name: str, overrides: list[str]) -> tuple[list[str], list[list[str]]]:
    """Gives the overrides that set one value, and per swept key (in the order given) the
    one-value overrides of its values: `hand_size.7=5,6` gives ['hand_size.7=5', 'hand_size.7=6'].

    A later --set of a key replaces an earlier one. Raises UserError for a swept table, an
    empty range or value, a value named twice, or more values than a run holds
    configurations.
    """
    from sim.counts import MAX_SETUPS

    rules = defaults(game_name)
    last: dict[str, list[str]] = {}
    for override in overrides:
        key, sep, text = override.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--set expects KEY=VALUE, got {override!r}")
        key = key.strip()
        default = value_at(rules, key)
        parts = _split_values(text.strip())
        values: list[str] = []
        for part in parts:
            match = _RANGE.fullmatch(part)
            if match and type(default) is int:
                low, high = int(match[1]), int(match[2])
                if high < low:
                    raise UserError(f"--set {key}: the range {part!r} is empty")
                if high - low >= MAX_SETUPS:
                    raise UserError(f"--set {key}: the range {part!r} names more than "
                                    f"{MAX_SETUPS:,} values")
                values += [str(v) for v in range(low, high + 1)]
            elif not part:
                raise UserError(f"--set {key}: an empty value in {text.strip()!r}")
            else:
                values.append(part)
        twice = [v for v in dict.fromkeys(values) if values.count(v) > 1]
        if twice:  # a sweep of one value played once would read as a comparison of two
            raise UserError(f"--set {key}: the value {twice[0]} is named twice in "
                            f"{text.strip()!r}; name each value once")
        if len(values) > 1 and isinstance(default, dict):
            raise UserError(f"--set {key} is a table, which cannot be swept; sweep one of its "
                            f"keys, e.g. --set {key}.{next(iter(default))}={values[0]}")
        if len(values) > MAX_SETUPS:
            raise UserError(f"--set {key} names {len(values):,} values; a run holds at most "
                            f"{MAX_SETUPS:,} configurations")
        last.pop(key, None)
        last[key] = [f"{key}={v}" for v in values]
    fixed = [values[0] for values in last.values() if len(values) == 1]
    return fixed, [values for values in last.values() if len(values) > 1]


def value_at(rules: dict, dotted: str):
    """Gives the value at a dotted key, or None where there is none."""
    for key in dotted.split("."):
        if not isinstance(rules, dict) or key not in rules:
            return None
        rules = rules[key]
    return rules


def _split_values(text: str) -> list[str]:
    """Gives the comma-separated parts of a --set value, keeping the commas inside quotes and
    brackets (a TOML list like [4, 3, 3, 2] is one value)."""
    parts, current, depth, quote = [], [], 0, None
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts


def leaves(rules: dict, prefix: str = "") -> dict[str, object]:
    """Gives every value of a rules dict that is not a table, by dotted key."""
    found = {}
    for key, value in rules.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            found.update(leaves(value, dotted + "."))
        else:
            found[dotted] = value
    return found


def frozen(value):
    """Gives a rule value as a Setup holds it (a list as a tuple, so that it hashes)."""
    return tuple(frozen(v) for v in value) if isinstance(value, list) else value


def thawed(value):
    """Gives a rule value as the rules hold it (a Setup's tuple as a list)."""
    return [thawed(v) for v in value] if isinstance(value, tuple) else value


def with_values(rules: dict, values: tuple[tuple[str, object], ...]) -> dict:
    """Gives a copy of `rules` with the values at the dotted keys replaced (`rules` itself is
    left alone; without values it is given back as it is)."""
    if not values:
        return rules
    rules = copy.deepcopy(rules)
    for key, value in values:
        *tables, last = key.split(".")
        table = rules
        for name in tables:
            table = table[name]
        table[last] = thawed(value)
    return rules
