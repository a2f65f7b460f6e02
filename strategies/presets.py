"""Declarative presets: a built-in bot family with some of its parameters set, from a TOML file.

    [preset.careful]
    family = "default"
    strike_distance = 4
    cover = 0.6

`--strategies-file FILE` loads such presets; their names are then strategies like the built-in
ones. The resolved definitions travel inside the rules dict under the reserved key
`strategy_presets`: the rules already reach every worker process, are recorded in the run's
manifest, and are what `simulate resume` replays, so a preset needs no other channel and a
seat string stays a short name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.errors import UserError
from sim.packaged import user_file
from sim.rules import read_toml  # the same one-line errors as rules files

PRESETS_KEY = "strategy_presets"
RANDOM, DEFAULT, SEARCH = 0, 1, 2
"""The codes of the built-in families a game's jitted bots take: a family's index in the game's
FAMILIES (random and default in every game; search, sim/search.py, where a game has it)."""
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


@dataclass(frozen=True)
class Parameter:
    """A named numeric parameter of a bot family, with its default and allowed range."""

    name: str
    default: float
    low: float
    high: float
    meaning: str


@dataclass(frozen=True)
class Family:
    """A built-in (jitted) bot family: how it plays, and the parameters it takes."""

    name: str
    meaning: str
    parameters: tuple[Parameter, ...] = ()


def built_in(presets: dict[str, dict]) -> dict[str, tuple[str, dict]]:
    """Gives a game's built-in strategies as `simulate strategies` lists them: name -> (family,
    parameters changed): `random`, and each preset (of the `default` family unless it names
    its "family")."""
    return {"random": ("random", {}),
            **{name: (v.get("family", "default"), {k: x for k, x in v.items() if k != "family"})
               for name, v in presets.items()}}


def strategy_names(presets: dict[str, dict]) -> list[str]:
    """Gives every built-in name a seat's strategy may have: the random family and the presets."""
    return ["random", *presets]


def lookups(presets: dict[str, dict], parameters: tuple[Parameter, ...],
            families: tuple[Family, ...]):
    """Gives a game's bots module its `strategy_names()` and `resolve(name, user_presets=None)`
    over its presets, its parameters in the vector's order and its families."""

    def names() -> list[str]:
        """Gives every built-in name a seat's strategy may have."""
        return strategy_names(presets)

    def resolve_name(name: str, user_presets: dict | None = None) -> tuple[int, np.ndarray]:
        """Gives (family code, parameter vector) of a strategy name (see presets.resolve)."""
        return resolve(name, user_presets, parameters, presets, families)

    return names, resolve_name


def resolve(name: str, user_presets: dict | None, parameters: tuple[Parameter, ...],
            presets: dict[str, dict], families: tuple[Family, ...] | None = None
            ) -> tuple[int, np.ndarray]:
    """Gives (family code, parameter vector) of a strategy name: a game's built-in one, or one
    of the presets loaded with --strategies-file (name -> {"family": ..., parameter: value}).

    `parameters` are every family's, in the vector's order; the code is the family's index in
    `families` (without them, any family but random is the default one)."""
    values = np.array([p.default for p in parameters], np.float64)
    if name == "random":
        return RANDOM, values
    spec = (user_presets or {}).get(name) or {"family": "default", **presets[name]}
    if spec["family"] == "random":
        return RANDOM, values
    names = [p.name for p in parameters]
    for key, value in spec.items():
        if key != "family":
            values[names.index(key)] = value
    if families is None:
        return DEFAULT, values
    return [f.name for f in families].index(spec["family"]), values


def user_presets(rules: dict) -> dict[str, dict]:
    """Gives the presets loaded with --strategies-file that a run's rules carry: name ->
    {"family": ..., parameter: value, ...}."""
    return rules.get(PRESETS_KEY, {})


def with_presets(rules: dict, presets: dict[str, dict]) -> dict:
    """Gives the rules carrying these presets (the same rules when there are none, so that runs
    without a presets file keep their manifests as they were)."""
    return {**rules, PRESETS_KEY: presets} if presets else rules


def load(game, path: Path) -> dict[str, dict]:
    """Gives the presets of a TOML file, checked against the game's families.

    Raises UserError (one line, naming the file) for a malformed file, an unknown family or
    parameter, a value out of range, or a name taken by a built-in strategy.
    """
    bots = bots_of(game, "--strategies-file")
    data = read_toml(user_file(path))
    # [tuning.NAME]: how `simulate tune` made a preset (sim.studies.tune.held_out reads it)
    extra = sorted(set(data) - {"preset", "tuning"})
    if extra or not isinstance(data.get("preset", {}), dict):
        raise UserError(f"{path}: only [preset.NAME] and [tuning.NAME] tables are allowed, "
                        f"found {extra or ['preset']}")
    families = {f.name: f for f in bots.families}
    builtin = set(game.strategy_names())
    presets = {}
    for name, spec in data.get("preset", {}).items():
        where = f"{path}: [preset.{name}]"
        if not _NAME.fullmatch(name) or "-no-" in name:
            raise UserError(f"{where}: a preset name is lower-case letters, digits, '-' and '_' "
                            f"(and no '-no-', which marks a restriction)")
        if name in builtin:
            raise UserError(f"{where}: {name!r} is a built-in strategy; choose another name")
        if not isinstance(spec, dict) or spec.get("family") not in families:
            raise UserError(f"{where}: family must be one of {', '.join(families)}, "
                            f"got {spec.get('family') if isinstance(spec, dict) else spec!r}")
        family = families[spec["family"]]
        known = {p.name: p for p in family.parameters}
        for key, value in spec.items():
            if key == "family":
                continue
            if key not in known:
                raise UserError(f"{where}: family {family.name!r} has no parameter {key!r}; its "
                                f"parameters: {', '.join(known) or 'none'}")
            p = known[key]
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not p.low <= value <= p.high:
                raise UserError(f"{where}: {key} must be a number in {p.low:g}–{p.high:g}, "
                                f"got {value!r}")
        presets[name] = {"family": family.name,
                         **{k: float(v) for k, v in spec.items() if k != "family"}}
    return presets


def bots_of(game, flag: str):
    """Gives the game's bot plug-in, or a UserError saying the game does not take `flag` yet."""
    bots = getattr(game, "bots", None)
    if bots is None:
        raise UserError(f"{game.name} does not take {flag} yet")
    return bots


def describe(game, rules: dict) -> str:
    """Gives the text of `simulate strategies GAME`: families, their parameters, the presets
    (built-in and from --strategies-file), what --forbid takes, and how to add a Python bot."""
    bots = bots_of(game, "simulate strategies")
    kind = getattr(bots, "kind", "built-in jitted bots")  # a simple-level game's are Python
    lines = [f"{game.title} strategies", "", f"Families ({kind}):"]
    for family in bots.families:
        lines.append(f"  {family.name}: {family.meaning}")
        for p in family.parameters:
            span = f"{p.low:g}–{p.high:g}"
            lines.append(f"      {p.name:<18} default {p.default:<6g} range {span:<7} {p.meaning}")
    lines += ["", "Presets (names for --strategy, --seat-strategy, compare --strategies):"]
    for name, (family, values) in bots.presets.items():
        lines.append(f"  {name:<22} {family}{_settings(values)}")
    for name, spec in user_presets(rules).items():
        values = {k: v for k, v in spec.items() if k != "family"}
        lines.append(f"  {name:<22} {spec['family']}{_settings(values)}   (--strategies-file)")
    forbids = getattr(bots, "forbids", True)
    if forbids:
        lines += ["", "--forbid NAME or SEAT=NAME (a seat never plays it; also NAME-no-X as a "
                      "strategy):"]
    for name, meaning in bots.forbiddable(rules).items():
        lines.append(f"  {name:<24} {meaning}")
    roles = getattr(bots, "roles", ())
    if roles and forbids:
        lines.append(f"  {'ROLE:NAME':<24} only while the seat's role is ROLE "
                     f"({', '.join(roles)}), e.g. {roles[0]}:{next(iter(bots.forbiddable(rules)))}")
    lines += ["", ("Python bots: --strategy path/to/file.py:ClassName (see strategies/protocol.py "
                   "and strategies/examples/).")]
    return "\n".join(lines)


def _settings(values: dict) -> str:
    return (": " + ", ".join(f"{k} = {v:g}" for k, v in values.items())) if values else ""
