"""What `simulate rules GAME` lists: every rule key --set and --config take, with its default,
what it takes and its meaning, read from the comments of the game's configs file (the single
source of the rules and their meanings).

A key's meaning is the comment at the end of its line, else the comment lines above it (which
tell every key up to the next blank line or comment), else its table's (and so on up). The
double-quoted words in a text key's own comment are the values it takes.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim import rules as rule_files

if TYPE_CHECKING:
    from sim.game import Setup

_HEADER = re.compile(r"\[\s*([^\]]+?)\s*\]")
_KEY = re.compile(r"([A-Za-z0-9_\-]+)\s*=")
_QUOTED = re.compile(r'"([^"]+)"')


@dataclass(frozen=True)
class RuleKey:
    """One entry of the listing: a rule key, or a table of one number per player count
    (`hand_size.N`), with its default(s), what it takes and its meaning."""

    name: str                # dotted, as --set takes it; 'hand_size.N' for a per-count table
    keys: tuple[str, ...]    # the dotted keys it stands for
    default: str
    takes: str
    meaning: str
    choices: tuple[str, ...] = ()  # the values a text key takes, where its comment names them


def rule_keys(game_name: str) -> list[RuleKey]:
    """Gives every rule key of a game, in the order of its configs file."""
    path = rule_files.config_path(game_name)
    return list(_entries(rule_files.defaults(game_name), (), _meanings(path.read_text()),
                         rule_files.ceilings(game_name)))


def describe(game_name: str, title: str) -> str:
    """Gives the listing `simulate rules GAME` prints."""
    path = rule_files.config_path(game_name)
    # the package's own file is no path a user has (a wheel carries it): it is the defaults
    name = "built-in defaults" if path == rule_files.CONFIGS / path.name else str(path)
    entries = rule_keys(game_name)
    per_count = " N is a player count." if any(len(e.keys) > 1 for e in entries) else ""
    lines = [f"{title} rules ({name}): the keys --set KEY=VALUE and --config FILE "
             "take.",
             "--set KEY=V1,V2,... or KEY=LO-HI (integers) sweeps a rule: one configuration per "
             f"value.{per_count}", ""]
    width = max(len(e.name) for e in entries)
    shown = None
    for entry in entries:
        if entry.meaning != shown:
            lines += textwrap.wrap(entry.meaning or "(no comment in the configs file)", 98)
            shown = entry.meaning
        lines.append(f"  {entry.name:<{width}}  {entry.default}  ({entry.takes})")
    return "\n".join(lines)


def _meanings(text: str) -> dict[str, str]:
    """Gives the comment of each table and key of a TOML file that has one, by dotted key."""
    found: dict[str, str] = {}
    table = ""
    above: list[str] = []  # the comment block above: it tells the keys after it, up to a gap
    after_key = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            above, after_key = [], False
            continue
        if line.startswith("#"):
            above = [] if after_key else above
            above.append(line.lstrip("#").strip())
            after_key = False
            continue
        after_key = True
        code, _, inline = _split_comment(line)
        header = _HEADER.fullmatch(code)
        key = _KEY.match(code)
        if header:
            table = header[1] + "."
            dotted = header[1]
        elif key:
            dotted = table + key[1]
        else:  # a line inside a value spanning several lines
            continue
        meaning = inline.strip() or " ".join(above)
        if meaning:
            found[dotted] = meaning
        if header:
            above = []
    return found


def _split_comment(line: str) -> tuple[str, str, str]:
    """Gives (code, '#', comment) of a TOML line, a '#' inside a string being code."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i].strip(), "#", line[i + 1:]
    return line, "", ""


def _entries(table: dict, path: tuple[str, ...], meanings: dict[str, str],
             ceilings: dict[str, int]):
    """Yields the RuleKeys of a table of the rules, a per-count table as one entry."""
    for key, value in table.items():
        here = (*path, key)
        dotted = ".".join(here)
        meaning = _meaning(here, meanings)
        if isinstance(value, dict) and value and all(k.isdigit() and not isinstance(v, dict)
                                                     for k, v in value.items()):
            keys = tuple(f"{dotted}.{k}" for k in value)
            takes = {_takes(v, ceilings.get(k)) for k, v in zip(keys, value.values())}
            if len(takes) > 1:
                takes = {f"integers, each at most {rule_files.GROWTH}× its default (or {rule_files.SMALLEST_CEILING})"}
            yield RuleKey(f"{dotted}.N", keys,
                          " · ".join(f"{n}p {_text(v)}" for n, v in value.items()),
                          takes.pop(), meaning)
        elif isinstance(value, dict):
            yield from _entries(value, here, meanings, ceilings)
        else:
            own = meanings.get(dotted, "")
            choices = tuple(_QUOTED.findall(own)) if isinstance(value, str) else ()
            yield RuleKey(dotted, (dotted,), _text(value),
                          f"one of {', '.join(choices)}" if choices
                          else _takes(value, ceilings.get(dotted)), meaning, choices)


def _meaning(path: tuple[str, ...], meanings: dict[str, str]) -> str:
    """Gives the comment of a key, else of its nearest table that has one."""
    for end in range(len(path), 0, -1):
        if ".".join(path[:end]) in meanings:
            return meanings[".".join(path[:end])]
    return ""


def _takes(value, ceiling: int | None) -> str:
    """Gives what a key takes: its kind, and for an integer the most --set takes."""
    if type(value) is int:
        if ceiling is None:
            ceiling = max(rule_files.SMALLEST_CEILING, rule_files.GROWTH * abs(value))
        return f"an integer, at most {ceiling}"
    return _kind(value)


def _kind(value) -> str:
    if isinstance(value, list):
        kinds = {_kind(v) for v in value}
        return f"a list of {kinds.pop().split(' ', 1)[1]}s" if len(kinds) == 1 else "a list"
    if type(value) is int:
        return "an integer"
    return rule_files.KINDS.get(type(value), type(value).__name__).replace("a string", "a text")


def _text(value) -> str:
    """Gives a value as --set takes it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"' if not value or not value.isidentifier() else value
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) if not isinstance(v, str) else f'"{v}"'
                               for v in value) + "]"
    return str(value)


def count_of(game_name: str, key: str) -> int | None:
    """Gives the player count a dotted rule key belongs to (7 for `hand_size.7`, a key of a
    table of one value per player count), else None (a key every player count plays)."""
    table, _, last = key.rpartition(".")
    values = rule_files.value_at(rule_files.defaults(game_name), table) if table else None
    if last.isdigit() and isinstance(values, dict) and all(k.isdigit() for k in values):
        return int(last)
    return None


def idle_sweeps(game_name: str, setups: list[Setup]) -> list[str]:
    """Gives a line for each swept key of one player count's table saying at which of the run's
    other player counts it changes nothing (their configurations play once, not per value)."""
    counts = sorted({setup.players for setup in setups})
    lines = []
    for key in dict.fromkeys(key for setup in setups for key, _ in setup.rules):
        owner = count_of(game_name, key)
        others = [n for n in counts if n != owner]
        if owner is not None and others:
            lines.append(f"{key} applies to {owner} players only: it changes nothing at "
                         f"{in_words(others)} players (one configuration there)")
    return lines


def in_words(counts: list[int]) -> str:
    """Gives '7', '5 and 7', '3, 5 and 7'."""
    words = [str(n) for n in counts]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]
