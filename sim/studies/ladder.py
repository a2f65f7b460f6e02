"""The skill ladder: the same deals played with every seat at each rung of play, from random
moves to search, so that a balance figure can be read across skill levels.

A rung is the strategy every seat plays: `random`, `default`, `tuned` (a preset per player
count of a presets file, as `simulate tune` writes it: --tuned FILE, else the game's shipped
tunings, configs/<game>-tuned.toml, when --rungs names the rung; or a small tuning on the fly
at each player count) and `search` (where the game has that family). Each player count × rung
is one configuration of one run, labelled by its `rung` option; every configuration plays the
same game indices of the same seed, hence the same deals.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from sim.errors import UserError
from sim.game import RUNG, RUNGS, TUNINGS, Game, Setup, role_names, roles_of

# the tuned rung's strategy until each player count's preset is known (setups' `tuned`)
ON_THE_FLY, FROM_FILE = "tuned on the fly", "tuned from a presets file"


def parse_rungs(text: str | None) -> list[str] | None:
    """Gives the rungs a --rungs flag names, in its order (None: the default rungs): a named
    rung (random, default, tuned, search), any other strategy or preset every seat plays
    (`search-belief`), or strategies by role: consecutive ROLE=NAME items, one rung until a
    role comes again (`A=search,B=search,A=default,B=search`: two rungs), named by its items
    joined with spaces.

    Raises UserError for a repeated rung, or none at all (a strategy the game lacks is
    refused as the configurations are built)."""
    if text is None:
        return None
    names: list[str] = []
    roles: list[str] = []  # the roles of the role mix being read
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        role, is_mix, _ = item.partition("=")
        if is_mix and roles and role.strip() not in roles:
            names[-1] += f" {item}"
            roles.append(role.strip())
        else:
            names.append(item)
            roles = [role.strip()] if is_mix else []
    if not names:
        raise UserError("--rungs names no rung (rungs: " + ", ".join(RUNGS) + ", a strategy, "
                        "or ROLE=NAME,ROLE=NAME)")
    if len(set(names)) < len(names):
        raise UserError(f"--rungs names a rung twice: {text!r}")
    return names


def role_mix(rung: str) -> dict[str, str]:
    """Gives {role: strategy} of a rung of strategies by role ('A=search B=default'),
    {} for any other rung."""
    return dict(tuple(part.split("=", 1)) for part in rung.split()) if "=" in rung else {}


def shipped_tuned(game: Game) -> Path | None:
    """Gives the tuned presets the game ships (configs/<game>-tuned.toml, made by `simulate
    tune`, each count's command and held-out gain in it), or None."""
    from sim.packaged import configs

    path = Path(str(configs() / f"{game.name.replace('-', '_')}-tuned.toml"))
    return path if path.is_file() else None


def tuned_presets(game: Game, path: Path, players: list[int]
                  ) -> tuple[dict[int, str], dict, dict[str, list[dict]]]:
    """Gives the tuned rung's preset per player count from a presets file (loaded as
    --strategies-file loads it): at N players the preset named NAME-<N>p, else the file's
    first; all its presets; and the held-out gains it records (tune.held_out). Raises
    UserError when the file does not load or holds no preset."""
    from sim.studies.tune import held_out
    from strategies import presets

    loaded = presets.load(game, path)
    if not loaded:
        raise UserError(f"--tuned {path}: the file holds no [preset.NAME] table")
    first = next(iter(loaded))
    named = {count: next((n for n in loaded if n.endswith(f"-{count}p")), first)
             for count in players}
    return named, loaded, held_out(path)


def keep_gains(folder: Path, named: dict[int, str], gains: dict[str, list[dict]],
               source: Path) -> None:
    """Writes folder/<N>p/gain.json for each player count whose preset has a recorded held-out
    gain, in the form of an on-the-fly tuning's (the report reads the `held_out` of each step)."""
    for count, name in named.items():
        if name in gains:
            where = folder / f"{count}p"
            where.mkdir(parents=True, exist_ok=True)
            steps = [{"tuned": step["tuned"], "preset": name, "held_out": step}
                     for step in gains[name]]
            (where / "gain.json").write_text(json.dumps(
                {"presets": str(source), "steps": steps}, indent=2) + "\n")


def check_tuning(trials: int | None, games: int | None, tuned: Path | None) -> bool:
    """Gives whether the tuned rung is tuned on the fly (--tune-trials and --tune-games).

    Raises UserError when only one of them is given, either is below 1, or --tuned is given
    too (the tuned rung is a file's preset or a tuning, not both)."""
    if trials is None and games is None:
        return False
    if trials is None or games is None:
        raise UserError("tuning on the fly needs both --tune-trials and --tune-games")
    if trials < 1 or games < 1:
        raise UserError(f"--tune-trials and --tune-games must be at least 1, got {trials} "
                        f"and {games}")
    if tuned is not None:
        raise UserError("--tuned FILE and --tune-trials exclude each other: the tuned rung is "
                        "a presets file's or a tuning's")
    return True


def tuning_seed(seed: int) -> int:
    """Gives the seed the on-the-fly tunings search on: derived from the ladder's, never the
    ladder's own, so that the tuned rung is not chosen on the deals it is measured on; below
    2**32, as Optuna's samplers take it."""
    from sim.studies.tune import held_out_seed

    return held_out_seed(seed) % 2**32


def tune(game: Game, rules: dict, players: list[int], trials: int, games: int, seed: int,
         folder: Path, workers: int, quiet: bool) -> tuple[dict[int, str], dict]:
    """Gives the tuned rung's preset per player count and the rules carrying them, after
    tuning the `default` family at each count against `default` (`trials` candidates of
    `games` games, the gain measured on `games` held-out games) into folder/<N>p (its
    tuned.toml and gain.json). In a game with roles each role's team is tuned in turn, as
    `simulate tune --role R --alternate K` does (a seat's game-win rate hardly moves where
    teams win rounds); otherwise one seat, each in turn (`simulate tune`'s default)."""
    from sim.studies import tune as tuning
    from strategies.presets import load, user_presets, with_presets

    command = " ".join(["simulate", *sys.argv[1:]])
    # the last role first (Saboteur's saboteurs, then the miners against them)
    roles = [role.name for role in reversed(roles_of(game))]
    names, found = {}, {}
    for count in players:
        side = tuning.make_side(game, rules, count, "default", None,
                                roles[0] if roles else None, None, "default")
        settings = tuning.Settings(game.name, count, "default", rules, side, trials, games,
                                   games, tuning_seed(seed), alternate=len(roles))
        where = folder / f"{count}p"
        tuning.run(settings, where, command, workers, quiet, say=lambda line: None)
        (spec,) = load(game, where / "tuned.toml").values()
        names[count] = f"{tuning.tuned_name(game.name)}-{count}p"
        found[names[count]] = spec
    return names, with_presets(rules, {**user_presets(rules), **found})


def keep_tunings(folder: Path, run: Path) -> None:
    """Moves the on-the-fly tunings into the run folder (run/tuned/<N>p), beside its games."""
    shutil.move(str(folder), str(run / TUNINGS))


def has_search(game: Game) -> bool:
    """Tells whether the game has a `search` bot family."""
    return "search" in game.strategy_names()


def rung_strategies(game: Game, rungs: list[str] | None, tuned: str | None,
                    shipped: bool = False) -> list[tuple[str, str]]:
    """Gives (rung, strategy of every seat) per rung, in ladder order.

    rungs: those asked for (None: random, default, tuned when --tuned or a tuning on the fly
    is given, search when the game has it); tuned: where the tuned rung's presets come from
    (FROM_FILE, ON_THE_FLY), or None; shipped: they are the game's shipped presets, which the
    tuned rung plays when `rungs` name it. Raises UserError for a rung that cannot be played
    here."""
    if rungs is None:
        rungs = [r for r in RUNGS if (r != "tuned" or (tuned and not shipped))
                 and (r != "search" or has_search(game))]
    if tuned == ON_THE_FLY and "tuned" not in rungs:
        raise UserError("--tune-trials tunes the tuned rung: add tuned to --rungs")
    strategies = []
    for rung in rungs:
        if rung == "tuned":
            if tuned is None:
                raise UserError(f"{game.name} ships no tuned presets: the tuned rung needs "
                                "--tuned FILE (a presets file, as 'simulate tune' writes it) or "
                                "--tune-trials and --tune-games")
            strategies.append((rung, tuned))
        elif rung == "search" and not has_search(game):
            raise UserError(f"{game.name} has no search bot family: drop the search rung")
        else:
            strategies.append((rung, rung))
    return strategies


def setups(game: Game, players: list[int], options: dict[str, list], rungs: list[tuple[str, str]],
           rules: dict, tuned: dict[int, str] | None = None, by_role: bool = False,
           roles: dict[str, str] | None = None, variants: list | None = None,
           head_to_head: bool = False) -> list[Setup]:
    """Gives the ladder's configurations: each player count (and game option) at each rung, in
    that order, every seat playing the rung's strategy (the tuned rung: `tuned`'s preset for
    that count; before a tuning on the fly gives it, `default` stands in), except the
    roles `roles` fixes ({role: strategy}, --role-strategy).

    by_role: the skill matrix instead, each pair of rungs (first role's rung, second role's
    rung; Saboteur's miners and saboteurs) a configuration of strategies by role.
    variants: the rule variants of a sweep (sim.run.setups.rule_variants), each played at
    every rung (by default, the run's rules alone).
    head_to_head: every pair of rungs head to head too, on the same deals (`head_to_head`)."""
    from sim.run.setups import build_setups

    found = []
    for count in players:
        named = [(rung, (tuned or {}).get(count, "default")
                  if strategy in (ON_THE_FLY, FROM_FILE) else strategy) for rung, strategy in rungs]
        if by_role:
            first, second = matrix_roles(game)
            for rung, strategy in named:
                if role_mix(strategy):
                    raise UserError(f"--by-role plays one strategy per role: rung {rung!r} is "
                                    "strategies by role")
            found += [setup for _, a in named for _, b in named
                      for setup in build_setups(game, [count], options, a, {}, rules, variants,
                                                role_strategies={first: a, second: b})]
            continue
        for rung, strategy in named:
            mix = role_mix(strategy)
            if mix and roles:
                raise UserError(f"--rungs {rung}: a rung of strategies by role takes no "
                                "--role-strategy")
            found += build_setups(game, [count], {**options, RUNG: [rung]},
                                  "default" if mix else strategy, {}, rules, variants,
                                  role_strategies=mix or roles)
        if head_to_head:
            found += pairings(game, count, options, named, rules, roles, variants)
    return found


def pairings(game: Game, players: int, options: dict[str, list],
             named: list[tuple[str, str]], rules: dict, roles: dict[str, str] | None,
             variants: list | None) -> list[Setup]:
    """Gives the configurations that play every pair of rungs head to head at one player
    count (sim.studies.compare.pairwise: the two rungs' strategies alternate round the table,
    and each sits in every seat), for each rule variant: the skill matrix, and what orders
    the rungs by measured strength. Rungs that play one strategy (the tuned rung before its
    tuning, standing in as `default`) make no pair. Raises UserError for a rung of strategies
    by role, which cannot share a table seat by seat."""
    from dataclasses import replace
    from itertools import product

    from sim.run.setups import Variant, variants_at
    from sim.studies.compare import pairwise

    mixed = [rung for rung, strategy in named if role_mix(strategy)]
    if mixed:
        raise UserError(f"--head-to-head seats two rungs at one table, seat by seat: rung "
                        f"{mixed[0]!r} is strategies by role")
    strategies = list(dict.fromkeys(strategy for _, strategy in named))
    if len(strategies) < 2:
        return []
    names = sorted(options)
    return [replace(setup, options=tuple(zip(names, values)), rules=variant.rules,
                    rule_file=variant.rule_file, file_rules=variant.file_rules)
            for values in product(*(options[name] for name in names))
            for variant in variants_at(game.name, players, variants or [Variant()])
            for setup in pairwise(game, strategies, players, {}, rules, roles)]


def matrix_roles(game: Game) -> tuple[str, str]:
    """Gives the two roles of a skill matrix (--by-role). Raises UserError for a game without
    two roles."""
    roles = role_names(game)
    if len(roles) != 2:
        raise UserError(f"{game.name} has no roles: --by-role plays one role's rung against "
                        "another's (games with two roles)")
    return roles
