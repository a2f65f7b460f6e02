"""The label of a configuration's rule variant: the rules it changes from the game's defaults,
as --set takes them, which the report's tables and its provenance both name."""

from __future__ import annotations

import dataclasses
import weakref
from pathlib import Path

from sim import rules as rule_files

DEFAULT = "default rules"  # the label of the game's rules as its configs file has them
DEFAULT_MARK = "(default)"
# bots a --strategies-file adds travel with the rules, but they are bots, not rules
_NOT_RULES = ("strategy_presets",)


_DEFAULTS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _default_leaves(game) -> dict[str, object]:
    """Gives the game's default rules (configs/<game>.toml, validated) by dotted key, once per
    game object (none for a game without rule files): by object, not by name, so that a
    stand-in game of the same name never reads another's defaults."""
    try:
        return _DEFAULTS[game]
    except (KeyError, TypeError):  # not yet read, or a game that cannot be a weak key
        pass
    load = getattr(game, "load_rules", None)
    leaves = {} if load is None else {
        key: rule_files.frozen(value) for key, value in rule_files.leaves(load(None, [])).items()}
    try:
        _DEFAULTS[game] = leaves
    except TypeError:
        pass
    return leaves


def rule_changes(game, rules: dict, setup) -> tuple[tuple[str, object], ...]:
    """Gives the dotted rule keys, with their values, in which a configuration of a run (the
    run's `rules` updated by the setup's own values) differs from the game's defaults; a named
    file read into the rules (Deep Space's `--board`) as one key with its name ("board=square")."""
    played = {key: rule_files.frozen(value) for key, value in rule_files.leaves(rules).items()}
    played.update(setup.rule_values())
    defaults = _default_leaves(game)
    changes = {key: value for key, value in played.items()
               if not key.startswith(_NOT_RULES) and (key not in defaults or defaults[key] != value)}
    # a file read into the rules (Deep Space's board) is named by its name, not key by key
    for named in [key[:-len(".name")] for key in played if key.endswith(".name")]:
        inside = [key for key in changes if key.startswith(named + ".")]
        if inside:
            for key in inside:
                del changes[key]
            changes[named] = played[named + ".name"]
    return tuple(sorted(changes.items()))


def change_text(game, rules: dict, setup) -> str:
    """Gives the rules a configuration changes from the defaults as --set takes them
    ("hand_size.7=6 rounds=2"), a --config file of a sweep by its name; else "default rules"."""
    if setup.rule_file:
        return setup.variant()
    return as_set(setup, rule_changes(game, rules, setup))


def as_set(setup, changes: tuple[tuple[str, object], ...]) -> str:
    """Gives rule changes as --set takes them, space-separated, or "default rules"."""
    return dataclasses.replace(setup, rules=changes, rule_file=None, file_rules=()).variant()


def configuration_label(game, rules: dict, setup) -> str:
    """Gives a configuration's label as the summary, the reports and compare show it: its
    player count, options, every rule it changes from the defaults (a single-value --set as
    well as a swept one) and its bots ("7p hand_size.7=4 rounds=2 default"); a swept value
    is named even where it is the default, a --config file of a sweep by its name."""
    if setup.rule_file:
        return setup.label(change_text(game, rules, setup))
    changes = dict(rule_changes(game, rules, setup))
    changes.update(setup.rules)
    return setup.label(as_set(setup, tuple(sorted(changes.items()))) if changes else None)


def variant_label(game, runs: list, index: int, setup) -> str:
    """Gives the label that keeps a configuration's rule variant apart in a report: what it
    changes from the defaults, and with several runs, the run's folder name."""
    text = change_text(game, runs[index].manifest["rules"], setup)
    if text == DEFAULT and setup.rules:  # a sweep's value that is the default: say both
        text = f"{setup.variant()} {DEFAULT_MARK}"
    return f"{text} ({Path(runs[index].path).name})" if len(runs) > 1 else text
