"""The configurations a command line asks for: player counts, per-seat strategies, game options,
rule variants."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from pathlib import Path

from sim import rules as rule_files
from sim.errors import UserError
from sim.rule_keys import count_of, in_words
from sim.run.limits import check_setups
from sim.game import Game, Setup, role_names

def check_players(game: Game, players: int) -> None:
    """Raises UserError unless the game takes `players` players."""
    if not game.min_players <= players <= game.max_players:
        raise UserError(f"{game.name} takes {game.min_players}–{game.max_players} players, "
                        f"got {players}")


def parse_seat_strategies(values: list[str]) -> dict[int, str]:
    """Gives {seat: strategy} from `SEAT=NAME` flag values (seats count from 0). Raises
    UserError for a malformed value or a seat named twice."""
    seats: dict[int, str] = {}
    for value in values:
        seat, sep, name = value.partition("=")
        if not sep or not seat.strip().isdigit() or not name.strip():
            raise UserError(f"--seat-strategy takes SEAT=NAME (e.g. 0=default), got {value!r}")
        if int(seat) in seats:
            raise UserError(f"--seat-strategy names seat {int(seat)} twice ({seats[int(seat)]} "
                            f"and {name.strip()}); give each seat one strategy")
        seats[int(seat)] = name.strip()
    return seats


def parse_role_strategies(values: list[str]) -> dict[str, str]:
    """Gives {role: strategy} from `ROLE=NAME` flag values, each one or a comma-separated list
    (`miner=search,saboteur=default`). Raises UserError for a malformed value or a role named
    twice."""
    roles: dict[str, str] = {}
    for value in values:
        for part in value.split(","):
            role, sep, name = (text.strip() for text in part.partition("="))
            if not sep or not role or not name:
                raise UserError(f"--role-strategy takes ROLE=NAME (e.g. miner=search), got "
                                f"{part.strip()!r}")
            if role in roles:
                raise UserError(f"--role-strategy names the role {role!r} twice")
            roles[role] = name
    return roles


def role_setup(game: Game, roles: dict[str, str], strategy: str | None,
               rules: dict | None = None) -> tuple[tuple[str, str], ...]:
    """Gives Setup.roles for strategies by role: (role, strategy) for every role of the game,
    in its order, a role not named playing `strategy` (None: "", each seat's own, as compare
    seats them); () when no role is named.

    Raises UserError for a game without roles, a role it lacks, an unknown strategy, a Python
    bot (which plays by seat), or a restriction of the other role's (`miner=default-no-
    saboteur:break`: a miner never plays as a saboteur)."""
    from strategies.seats import canonical, compose, is_python, parse

    if not roles:
        return ()
    known = role_names(game)
    if not known:
        raise UserError(f"{game.name} has no roles: --role-strategy is for games with hidden "
                        "roles")
    for role in roles:
        if role not in known:
            raise UserError(f"{game.name} has no role {role!r}; its roles: {', '.join(known)}")
    found = []
    for role in known:
        if role not in roles and strategy is None:
            found.append((role, ""))
            continue
        name = canonical(game, roles.get(role, strategy), rules)
        seat = parse(name)
        if role not in roles:  # --strategy's restrictions of another role do not apply here
            seat = seat._replace(forbidden=tuple(
                f for f in seat.forbidden if f.rpartition(":")[0] in ("", role)))
            name = compose(seat.base, seat.forbidden)
        if is_python(seat.base) or is_python(parse(strategy or name).base):
            raise UserError(f"--role-strategy {role}: a Python bot plays by seat, not by role; "
                            "give a built-in strategy or a preset")
        for restriction in seat.forbidden:
            own = restriction.rpartition(":")[0]
            if own and own != role:
                raise UserError(f"--role-strategy {role}={name}: a {role} cannot play with the "
                                f"restriction {restriction!r} of another role")
        found.append((role, name))
    return tuple(found)


@dataclass(frozen=True)
class Variant:
    """The rules of some configurations of a sweep, as Setup holds them: the swept --set values,
    and with several --config files, one file's stem and its values that differ."""

    rules: tuple[tuple[str, object], ...] = ()
    rule_file: str | None = None
    file_rules: tuple[tuple[str, object], ...] = ()


def rule_variants(game: Game, configs: list[str], sets: list[str],
                  others: int = 1) -> tuple[dict, list[Variant]]:
    """Gives the run's rules (the defaults, the --config file if there is one, the --set keys of
    one value) and every rule variant: each --config file (when several are given) with each
    combination of the swept --set values, each validated by the game now.

    `others` is how many configurations each variant is played in (player counts × options):
    a sweep of more configurations than a run holds is refused before any rules are loaded.
    """
    fixed, swept = rule_files.split_sweeps(game.name, sets)
    files = [(Path(c).stem, c) for c in configs] if len(configs) > 1 else [(None, None)]
    check_setups(others * len(files) * math.prod(len(values) for values in swept))
    stems = [stem for stem, _ in files]
    if len(set(stems)) < len(stems):
        raise UserError("--config: two files have the same name "
                        f"({', '.join(s for s in stems if stems.count(s) > 1)}); a variant is "
                        "named by its file's name")
    base = game.load_rules(configs[0] if len(configs) == 1 else None, fixed)
    base_values = rule_files.leaves(base)
    variants = []
    for stem, config in files:
        file_rules = ()
        if config is not None:
            loaded = rule_files.leaves(game.load_rules(config, fixed))
            file_rules = tuple(sorted((key, rule_files.frozen(value))
                                      for key, value in loaded.items()
                                      if base_values.get(key) != value))
        for combo in itertools.product(*swept):
            loaded = rule_files.leaves(game.load_rules(config, [*fixed, *combo]))
            keys = sorted(override.partition("=")[0] for override in combo)
            for key in keys:
                if key not in loaded:  # read into a table, as Deep Space's board and deck
                    raise UserError(f"--set {key} cannot be swept (it names a file read into a "
                                    "table); compare such files with --config repeated")
            variants.append(Variant(tuple((key, rule_files.frozen(loaded[key])) for key in keys),
                                    stem, file_rules))
    return base, variants


def build_setups(game: Game, players: list[int], options: dict[str, list], strategy: str,
                 seat_strategies: dict[int, str], rules: dict | None = None,
                 variants: list[Variant] | None = None,
                 role_strategies: dict[str, str] | None = None) -> list[Setup]:
    """Gives every configuration of the sweep: each player count with each combination of options
    and each rule variant (rule_variants; by default, the run's rules alone). With
    `role_strategies` ({role: strategy}, role_setup), a seat plays its role's strategy.

    Strategy strings come out as workers need them (strategies.seats.canonical: a Python bot's
    file made absolute); `rules` carry the presets of --strategies-file, if any.
    Raises UserError for a player count the game does not take, an unknown strategy, or a seat
    that some configuration of the sweep does not have.
    """
    from strategies.seats import canonical

    for n in players:
        check_players(game, n)
    roles = role_setup(game, role_strategies or {}, strategy, rules)
    if roles and seat_strategies:
        raise UserError("--role-strategy takes no choice by seat (--seat-strategy, --forbid "
                        "SEAT=NAME): a seat plays its role's strategy, round by round")
    strategy = canonical(game, strategy, rules)
    seat_strategies = {seat: canonical(game, name, rules) for seat, name in seat_strategies.items()}
    for seat in seat_strategies:
        if seat >= min(players):
            raise UserError(f"--seat-strategy: there is no seat {seat} with {min(players)} players"
                            f" (seats are 0–{min(players) - 1})")
    names = sorted(options)
    return [
        Setup(n, tuple(seat_strategies.get(seat, strategy) for seat in range(n)),
              tuple(zip(names, values)), variant.rules, variant.rule_file, variant.file_rules,
              roles)
        for n in players
        for values in itertools.product(*(options[name] for name in names))
        for variant in variants_at(game.name, n, variants or [Variant()])
    ]


def check_counts_of_sets(game_name: str, sets: list[str], counts: list[int]) -> None:
    """Raises UserError for a --set key of one player count's table (`hand_size.5`) when the
    run plays no such count: its values would change nothing, the run being played as if it
    were not given."""
    for override in sets:
        key = override.partition("=")[0].strip()
        owner = count_of(game_name, key)
        if owner is not None and owner not in counts:
            raise UserError(f"--set {key} applies to {owner} players; this run plays "
                            f"{in_words(counts)}")


def variants_at(game_name: str, players: int, variants: list[Variant]) -> list[Variant]:
    """Gives the variants as `players` players play them, once each: a swept key of another
    player count's table (`hand_size.7` at 5 players) changes nothing there, so it is left out
    rather than multiplying the configurations by values without effect."""
    own = []
    for variant in variants:
        rules = tuple((key, value) for key, value in variant.rules
                      if count_of(game_name, key) in (None, players))
        projected = Variant(rules, variant.rule_file, variant.file_rules)
        if projected not in own:
            own.append(projected)
    return own
