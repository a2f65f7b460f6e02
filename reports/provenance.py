"""The block every report opens with: which runs it reads, their seeds and commands, the rules
each variant changes from the game's defaults, who sat where, versions and dates."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from importlib import metadata
from pathlib import Path

import polars as pl

import sim
from sim import rules as rule_files

DEFAULT = "default rules"  # the label of the game's rules as its configs file has them
DEFAULT_MARK = "(default)"
# bots a --strategies-file adds travel with the rules, but they are bots, not rules
_NOT_RULES = ("strategy_presets",)


_DEFAULTS: dict[str, dict[str, object]] = {}


def _default_leaves(game) -> dict[str, object]:
    """Gives the game's default rules (configs/<game>.toml, validated) by dotted key, once per
    game (none for a game without rule files)."""
    if game.name not in _DEFAULTS:
        load = getattr(game, "load_rules", None)
        _DEFAULTS[game.name] = {} if load is None else {
            key: rule_files.frozen(value)
            for key, value in rule_files.leaves(load(None, [])).items()}
    return _DEFAULTS[game.name]


def rule_changes(game, rules: dict, setup) -> tuple[tuple[str, object], ...]:
    """Gives the dotted rule keys, with their values, in which a configuration of a run (the
    run's `rules` updated by the setup's own values) differs from the game's defaults."""
    played = {key: rule_files.frozen(value) for key, value in rule_files.leaves(rules).items()}
    played.update(setup.rule_values())
    defaults = _default_leaves(game)
    return tuple(sorted((key, value) for key, value in played.items()
                        if not key.startswith(_NOT_RULES)
                        and (key not in defaults or defaults[key] != value)))


def change_text(game, rules: dict, setup) -> str:
    """Gives the rules a configuration changes from the defaults as --set takes them
    ("hand_size.7=6 rounds=2"), a --config file of a sweep by its name; else "default rules"."""
    if setup.rule_file:
        return setup.variant()
    return _as_set(setup, rule_changes(game, rules, setup))


def _as_set(setup, changes: tuple[tuple[str, object], ...]) -> str:
    """Gives rule changes as --set takes them, space-separated, or "default rules"."""
    return dataclasses.replace(setup, rules=changes, rule_file=None, file_rules=()).variant()


def variant_label(game, runs: list, index: int, setup) -> str:
    """Gives the label that keeps a configuration's rule variant apart in a report: what it
    changes from the defaults, and with several runs, the run's folder name."""
    text = change_text(game, runs[index].manifest["rules"], setup)
    if text == DEFAULT and setup.rules:  # a sweep's value that is the default: say both
        text = f"{setup.variant()} {DEFAULT_MARK}"
    return f"{text} ({Path(runs[index].path).name})" if len(runs) > 1 else text


def version() -> str:
    """Gives the installed tabletop-balance version (the package's own when not installed)."""
    try:
        return metadata.version("tabletop-balance")
    except metadata.PackageNotFoundError:
        return sim.__version__


def _command(run) -> str:
    """Gives the command that made the run, or, for a run that did not record it, one that
    plays the same games."""
    recorded = run.manifest.get("command")
    if recorded:
        return recorded
    players = ",".join(sorted({str(s.players) for s in run.setups}, key=int))
    return (f"(not recorded; equivalent) simulate {run.game} --players {players} "
            f"--games {run.manifest.get('games_per_setup')} --seed {run.manifest.get('seed')}")


def _seats(setup) -> str:
    """Gives who sat where: "all: default", or "default; 0=random" (the most common first)."""
    names = setup.strategies()
    common = max(set(names), key=names.count)
    others = [f"{seat}={name}" for seat, name in enumerate(names) if name != common]
    return f"all: {common}" if not others else "; ".join([common, *others])


def section(ctx):
    """Gives the Provenance section: a row per run (folder, seed, games, command, date played,
    versions) and a row per configuration (its rules changed from the defaults, its bots)."""
    from reports.sections import Section, Table

    runs = []
    for run in ctx.runs:
        m = run.manifest
        versions = m.get("versions") or {}
        revision = m.get("git_revision")
        runs.append((Path(run.path).name, m.get("seed"), m.get("games_per_setup"),
                     m.get("games_done"), (m.get("created") or "")[:19].replace("T", " "),
                     _command(run), versions.get("tabletop-balance") or "–",
                     revision[:10] if revision else "–"))
    run_table = pl.DataFrame(runs, orient="row", schema={
        "run": pl.Utf8, "seed": pl.Int64, "games per configuration": pl.Int64,
        "games played": pl.Int64, "played": pl.Utf8, "command": pl.Utf8, "version": pl.Utf8,
        "git revision": pl.Utf8})
    configs = []
    for i, run in enumerate(ctx.runs):
        for setup in run.setups:
            changes = rule_changes(ctx.game, run.manifest["rules"], setup)
            configs.append((Path(run.path).name, setup.label(),
                            variant_label(ctx.game, ctx.runs, i, setup),
                            _as_set(setup, changes) if changes else "none",
                            _seats(setup)))
    config_table = pl.DataFrame(configs, orient="row", schema={
        "run": pl.Utf8, "configuration": pl.Utf8, "variant": pl.Utf8,
        "rules changed from the defaults": pl.Utf8, "bots by seat": pl.Utf8})
    reported = datetime.now().astimezone().isoformat(timespec="seconds").replace("T", " ")
    seeds = sorted({m for m in run_table["seed"].to_list()})
    return Section("Provenance", [
        Table("Runs", run_table, note="played: when the run started (its manifest); version: "
              "tabletop-balance that played it; command: as typed (from the manifest)"),
        Table("Configurations and the rules they change", config_table,
              note="rules changed from the defaults: every rule value (configs/"
                   f"{rule_files.config_name(ctx.game.name)}.toml) the configuration plays "
                   "otherwise, from --config and --set; bots by seat: seats count from 0")],
        text=f"Reported {reported} by tabletop-balance {version()} from "
             f"{len(ctx.runs)} run(s) ({', '.join(run_table['run'].to_list())}), "
             f"seed(s) {', '.join(map(str, seeds))}.")

