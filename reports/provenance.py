"""The block every report opens with: which runs it reads, their seeds and commands, the rules
each variant changes from the game's defaults, who sat where, versions and dates."""

from __future__ import annotations

from datetime import datetime
from importlib import metadata
from pathlib import Path

import polars as pl

import sim
from reports.sections import Section, Table
from reports.variants import as_set, configuration_label, rule_changes, variant_label


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
    runs = []
    for run in ctx.runs:
        m = run.manifest
        versions = m.get("versions") or {}
        # The revision the run started from, then each other one a resume went on with.
        revisions = [m.get("git_revision"), *(r.get("git_revision") for r in m.get("resumes", []))]
        revision = " → ".join(dict.fromkeys(r[:10] for r in revisions if r))
        runs.append((Path(run.path).name, m.get("seed"), m.get("games_per_setup"),
                     m.get("games_done"), (m.get("created") or "")[:19].replace("T", " "),
                     _command(run), versions.get("tabletop-balance") or "–",
                     revision or "–"))
    run_table = pl.DataFrame(runs, orient="row", schema={
        "run": pl.Utf8, "seed": pl.Int64, "games per configuration": pl.Int64,
        "games played": pl.Int64, "played": pl.Utf8, "command": pl.Utf8, "version": pl.Utf8,
        "git revision": pl.Utf8})
    configs = []
    for i, run in enumerate(ctx.runs):
        for setup in run.setups:
            changes = rule_changes(ctx.game, run.manifest["rules"], setup)
            configs.append((Path(run.path).name,
                            configuration_label(ctx.game, run.manifest["rules"], setup),
                            variant_label(ctx.game, ctx.runs, i, setup),
                            as_set(setup, changes) if changes else "none",
                            _seats(setup)))
    config_table = pl.DataFrame(configs, orient="row", schema={
        "run": pl.Utf8, "configuration": pl.Utf8, "variant": pl.Utf8,
        "rules changed from the defaults": pl.Utf8, "bots by seat": pl.Utf8})
    reported = datetime.now().astimezone().isoformat(timespec="seconds").replace("T", " ")
    seeds = sorted({m for m in run_table["seed"].to_list()})
    return Section("Provenance", [
        Table("Runs", run_table, note="played: when the run started (its manifest); version: "
              "tabletop-balance that played it; git revision: the one it started from, then any "
              "other a resume went on with; command: as typed (from the manifest)"),
        Table("Configurations and the rules they change", config_table,
              note="rules changed from the defaults: every rule value (`simulate rules "
                   f"{ctx.game.name}` lists the defaults) the configuration plays otherwise, "
                   "from --config and --set; bots by seat: seats count from 0")],
        text=f"Reported {reported} by tabletop-balance {version()} from "
             f"{len(ctx.runs)} run(s) ({', '.join(run_table['run'].to_list())}), "
             f"seed(s) {', '.join(map(str, seeds))}.")

