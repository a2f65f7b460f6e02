"""What every game offers the runner, the store, the reports and the CLI.

A game is a module-level object satisfying `Game`. The machinery around it (chunks,
workers, shards, manifests, progress, reports) is shared and lives once in `sim/` and
`reports/`; a game package only knows its rules, its state and its engine.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TextIO

import polars as pl

if TYPE_CHECKING:
    import numpy as np


# The skill ladder's rungs, weakest first (sim/studies/ladder.py plays them), the option of a
# configuration naming its rung, and the run's subfolder keeping each player count's tuning
# (TUNINGS/<N>p: its gain.json): the reports read them.
RUNGS = ("random", "default", "tuned", "search")
RUNG = "rung"
TUNINGS = "tuned"


@dataclass(frozen=True)
class Setup:
    """One configuration of a run: a player count, a strategy per seat, game-specific options.

    `options` holds what a game adds to a configuration (e.g. Saboteur's fixed number of
    saboteurs in play) as sorted (name, value) pairs, so a Setup is hashable and JSON-able.
    """

    players: int
    seats: tuple[str, ...]
    options: tuple[tuple[str, int | float | str | None], ...] = ()
    # A rule variant of a sweep: the swept `--set` values (sorted dotted key, value pairs), and
    # with several `--config` files, the one played (its stem) with the values in which it
    # differs from the run's rules. A chunk plays the run's rules updated by both.
    rules: tuple[tuple[str, object], ...] = ()
    rule_file: str | None = None
    file_rules: tuple[tuple[str, object], ...] = ()
    # Strategies by role (--role-strategy): (role, strategy) for every role of the game, in the
    # game's order; a seat plays the strategy of the role it holds, round by round, or its own
    # (`seats`) where the role's is "" (compare's strategies in the roles left open). Empty:
    # every seat plays its own strategy.
    roles: tuple[tuple[str, str], ...] = ()

    def option(self, name: str, default=None):
        return dict(self.options).get(name, default)

    def rule_values(self) -> tuple[tuple[str, object], ...]:
        """Gives the dotted rule keys and values this configuration plays instead of the run's
        rules (sim.rules.with_values applies them)."""
        return self.file_rules + self.rules

    def variant(self) -> str:
        """Gives the label of the configuration's rule change, e.g. 'hand_size.7=6', 'house
        rounds=2' (a --config file by its stem), or 'default rules' (the run's rules)."""
        parts = [self.rule_file] if self.rule_file else []
        parts += [f"{key}={_rule_text(value)}" for key, value in self.rules]
        return " ".join(parts) or "default rules"

    def label(self, rules: str | None = None) -> str:
        """Gives a short human label, e.g. '7p saboteurs=2 default', '7p hand_size.7=6 default'
        (a rule variant), '5p forbid=rockfall default, 0=random' (the most common strategy, then
        the seats playing another; a restriction every seat has is named once).

        `rules` names the rules played in place of the configuration's own variant (the
        reports give every change from the defaults: reports.variants.configuration_label)."""
        from strategies.seats import compose, parse

        parts = [f"{self.players}p"]
        # a ladder's rung of strategies by role is named by them: said once, by the roles
        mix = " ".join(f"{role}={name}" for role, name in self.roles)
        parts += [f"{k}={v}" for k, v in self.options
                  if v is not None and not (k == RUNG and v == mix)]
        if rules:
            parts.append(rules)
        elif self.rules or self.rule_file:
            parts.append(self.variant())
        if self.roles:  # '7p miner=search saboteur=default'
            fixed = [f"{role}={name}" for role, name in self.roles if name]
            open_roles = [role for role, name in self.roles if not name]
            if not open_roles:
                return " ".join(parts + fixed)
            # '7p saboteur=default, miner by seat: default, 1=search'
            parts.append(" ".join(fixed) + ", " + "/".join(open_roles) + " by seat:")
        seats = [parse(s.rpartition("/")[2]) for s in self.seats]
        shared = [name for name in seats[0].forbidden if all(name in s.forbidden for s in seats)]
        if shared:
            parts.append("forbid=" + ",".join(shared))
        strategies = [compose(s.base, [f for f in s.forbidden if f not in shared]) for s in seats]
        common = Counter(strategies).most_common(1)[0][0]
        parts.append(", ".join([common] + [f"{seat}={s}" for seat, s in enumerate(strategies)
                                           if s != common]))
        return " ".join(parts)

    def strategies(self) -> tuple[str, ...]:
        """Gives each seat's strategy as tables and reports show it: the seat string, with a
        Python strategy's file named without its folder ("mybots.py:Cautious"); with strategies
        by role, every seat's is the roles' ("miner=search saboteur=default")."""
        own = tuple(seat.rpartition("/")[2] for seat in self.seats)
        if self.roles:
            return tuple(" ".join(f"{role}={name or own[seat]}" for role, name in self.roles)
                         for seat in range(self.players))
        return own

    def played(self, role: str, seat: int) -> str:
        """Gives the strategy string `seat` plays while it holds `role`."""
        return dict(self.roles).get(role) or self.seats[seat]

    def to_json(self) -> dict:
        # A setup without rule values writes what it did before rule variants existed, so that
        # the runs before them keep their parameter hash (and resume).
        d = {"players": self.players, "seats": list(self.seats), "options": dict(self.options)}
        if self.rules:
            d["rules"] = [[key, value] for key, value in self.rules]
        if self.rule_file:
            d["rule_file"] = self.rule_file
            d["file_rules"] = [[key, value] for key, value in self.file_rules]
        if self.roles:  # likewise, runs without strategies by role keep their hash
            d["roles"] = [[role, name] for role, name in self.roles]
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Setup":
        from sim.rules import frozen

        def pairs(name: str) -> tuple:
            return tuple((key, frozen(value)) for key, value in d.get(name, ()))

        return cls(d["players"], tuple(d["seats"]), tuple(sorted(d["options"].items())),
                   pairs("rules"), d.get("rule_file"), pairs("file_rules"),
                   tuple((role, name) for role, name in d.get("roles", ())))


def _rule_text(value) -> str:
    """Gives a rule value as --set takes it: true, 0.5, all_pass, [4, 3, 3, 2]."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(_rule_text(v) for v in value) + "]"
    return str(value)


@dataclass(frozen=True)
class Column:
    """A column a game adds to a table, for the README and the reports."""

    name: str
    meaning: str


@dataclass(frozen=True)
class Headline:
    """The rate a game's summary and reports lead with (e.g. the miners' round-win rate).

    Computed on the `games` table per configuration as sum(successes) / sum(trials).
    """

    title: str
    successes: pl.Expr
    trials: pl.Expr

    def per_game(self) -> tuple[pl.Expr, pl.Expr]:
        """Gives each game's successes and trials as float columns `__s` and `__t`, for
        `with_columns` or `select` over the `games` table (which repeat a literal trial count,
        such as pl.lit(3), once per game; aggregated alone it would count once)."""
        return (self.successes.cast(pl.Float64).alias("__s"),
                self.trials.cast(pl.Float64).alias("__t"))


@dataclass(frozen=True)
class Outcomes:
    """What a chunk of games gave, as arrays in game order (`Game.outcomes`): what the seats
    and games tables say of each game, for a study that scores many small chunks (`simulate
    tune`) without building the tables."""

    won: np.ndarray  # bool [games, players]: the seats table's `won`
    kinds: tuple[str, ...]  # the kinds of move counted, as the seats table's uses_<kind>
    uses: np.ndarray  # [games, players, kinds]: the seats table's uses_<kind>
    headline: tuple[np.ndarray, np.ndarray]  # [games]: Headline.per_game's `__s`, `__t`
    # per role (games with roles), [games]: the seat-rounds in the role its team won, and all
    # its seat-rounds (the rounds table's rows of that role, by their winner_team)
    roles: dict[str, tuple[np.ndarray, np.ndarray]]


@dataclass(frozen=True)
class Target:
    """What balanced means for a game's headline (`GAME.target`): a fixed rate (None: a fair
    share, 1/players), and the side a rate above and below it favours (e.g. "miners",
    "saboteurs"); `sides` names them where a sentence wants an article ("the miners")."""

    rate: float | None = None
    above: str = "the first player"
    below: str = "the other players"
    sides: tuple[str, str] | None = None

    def at(self, players, override: float | None = None) -> np.ndarray:
        """Gives the target rate at each player count (`override`, from --target, first)."""
        import numpy as np

        players = np.asarray(players, dtype=float)
        if override is not None:
            return np.full(players.shape, override)
        return np.full(players.shape, self.rate) if self.rate is not None else 1 / players

    def named(self) -> tuple[str, str]:
        """Gives the sides a rate above and below the target favours, as a sentence names them
        ("the miners", "the saboteurs")."""
        return self.sides or (self.above, self.below)


@dataclass(frozen=True)
class Role:
    """A role a seat can hold (`GAME.roles`): its name, the team it plays for as the tables'
    `winner_team` names it, and the bot parameters only a seat in this role reads (what
    `simulate tune --role` searches; a parameter both roles read is no role's own)."""

    name: str
    team: str
    parameters: tuple[str, ...] = ()


@dataclass(frozen=True)
class Flag:
    """A flag of a game's own (`GAME.flags`) on its run and trace commands, and a keyword of
    `sim.api.run`, that sets a configuration's options (Setup.options) of the same name.

    kind: COUNTS (a number of something; the run takes a list 1,2 or a range 1-3 and sweeps
    it, the trace one number), TEXT (one value) or TEXTS (the flag repeated). A game whose
    options need more than splitting lists (Spit's reaction times) reads them itself with
    `setup_options`."""

    name: str  # the keyword; the flag is --name with '-' for '_'
    help: str
    trace_help: str = ""  # the trace's help, where the trace takes one value
    kind: str = "text"


COUNTS, TEXT, TEXTS = "counts", "text", "texts"


@dataclass(frozen=True)
class RuleFile:
    """A data file a game's rules name (`GAME.files`, e.g. Deep Space's board): a flag --KEY
    PATH on the run and trace commands, and a keyword of `sim.api.run`, that sets the rule
    KEY to the file's path."""

    key: str
    help: str


class DeclaredIn:
    """A game's declaration kept in another module, read from there when first asked for: a
    game's report sections (`report_sections = DeclaredIn(f"{__name__}.report", "SECTIONS")`)
    import the reports, which playing the game never needs."""

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name

    def __get__(self, game, owner=None):
        return getattr(importlib.import_module(self.module), self.name)


@dataclass(frozen=True)
class Progress:
    """How far each seat or team is from winning, at any moment of a game (`GAME.progress`):
    what the value is (higher is closer to winning), in words and its unit, and whether it is
    counted per seat (the progress table's `seat`) or per team (its `team`, `teams` naming
    them in the recorder's order), through each game or, `by_round`, through each round (its
    `round`). The play loops sample it (sim/progress.py); the report's "How the game plays"
    reads it against the winning side, `winner` over the games table (by round: the rounds
    table; the winning seat, or team name; null when nobody won)."""

    meaning: str
    unit: str = "points"
    teams: tuple[str, ...] = ()
    winner: pl.Expr = pl.col("winner")
    by_round: bool = False

    @property
    def side(self) -> str:
        """Gives the progress table's column naming the side: 'team' or 'seat'."""
        return "team" if self.teams else "seat"


# ---- what a game declares, and what a game that declares nothing gets -----------------------

DEFAULT_TARGET = Target()
BENCH_SCALING = 20_000  # games of bench's scaling runs, unless the game declares its own


def target_of(game) -> Target:
    """Gives the game's declared target (a fair share for the first player if none)."""
    return getattr(game, "target", None) or DEFAULT_TARGET


def roles_of(game) -> tuple[Role, ...]:
    """Gives the game's roles (none for a game without hidden roles)."""
    return tuple(getattr(game, "roles", ()))


def role_names(game) -> tuple[str, ...]:
    """Gives the names of the game's roles, in its order."""
    return tuple(role.name for role in roles_of(game))


def progress_of(game) -> Progress | None:
    """Gives the game's declared progress signal (None: it records none)."""
    return getattr(game, "progress", None)


def flags_of(game) -> tuple[Flag, ...]:
    """Gives the game's own flags, each setting a configuration option."""
    return tuple(getattr(game, "flags", ()))


def files_of(game) -> tuple[RuleFile, ...]:
    """Gives the data files the game's rules name, each a flag."""
    return tuple(getattr(game, "files", ()))


def forbids(game) -> bool:
    """Tells whether the game's seats can be forbidden moves (--forbid): a game with a bots
    plug-in can, unless it declares `forbids = False` (a simple-level game)."""
    bots = getattr(game, "bots", None)
    return bots is not None and getattr(bots, "forbids", True)


def suggests(game) -> bool:
    """Tells whether a Python strategy can ask the game's View what a built-in strategy would
    play (View.suggest, docs/bots.md): a game with compiled bots can, unless it declares
    `suggests = False` (the fast skeleton's View, plain fields, has no advice)."""
    return getattr(game, "suggests", True)


def bench_scaling(game) -> int:
    """Gives the games of `simulate bench`'s scaling runs by default: the game's declared
    `bench_scaling`, else BENCH_SCALING."""
    return getattr(game, "bench_scaling", BENCH_SCALING)


def bench_counts(game) -> tuple[int, ...]:
    """Gives the player counts `simulate bench` times by default: the game's declared
    `bench_players`, else its fewest, 7 (or its most, if fewer) and its most."""
    declared = getattr(game, "bench_players", None)
    return tuple(declared or sorted({game.min_players, min(7, game.max_players),
                                     game.max_players}))


def setup_options(game, given: dict[str, object], players: str, rules, sweep: bool
                  ) -> dict[str, list]:
    """Gives a configuration's options from the values of the game's option flags (None: not
    given): each option's list of values, one per configuration of a sweep (sweep=False: one
    value each). `rules()` gives the run's rules, for a game that reads its options against
    them (its own `setup_options`, e.g. Spit's reaction profiles)."""
    own = getattr(game, "setup_options", None)
    if own is not None:
        return own(given, players, rules, sweep)
    from sim.counts import parse_counts

    found = {}
    for option in flags_of(game):
        value = given.get(option.name)
        if option.kind == COUNTS and sweep:
            found[option.name] = (parse_counts(f"--{option.name.replace('_', '-')}", str(value))
                                  if value is not None else [None])
        else:
            found[option.name] = [value]
    return found


class Bots(Protocol):
    """What a game offers for user-chosen play (`GAME.bots`; see docs/bots-plugin.md):
    its built-in bot families with their parameters, its built-in presets, and the card and
    action names `--forbid` takes. A game with `bots` also plays seats whose strategy string is
    a Python strategy, a preset from the rules' `strategy_presets`, or carries restrictions
    (strategies/seats.py), in `play` and `trace`."""

    families: tuple  # of strategies.presets.Family
    presets: dict[str, tuple[str, dict[str, float]]]  # name -> (family, parameters changed)
    # Optional: `roles`, the roles `--forbid ROLE:NAME` takes (a game without roles has none);
    # `forbids = False` where no move can be forbidden (then no command offers --forbid).

    def forbiddable(self, rules: dict) -> dict[str, str]:
        """Gives every name --forbid takes under these rules, with what it forbids."""


class Game(Protocol):
    name: str                   # CLI name, e.g. "saboteur"
    title: str                  # e.g. "Saboteur"
    min_players: int
    max_players: int
    tables: tuple[str, ...]     # "games", "seats", then the game's own tables
    columns: dict[str, tuple[Column, ...]]  # per table, the columns the game adds
    headline: Headline
    summary: tuple[tuple[str, pl.Expr], ...]  # further per-configuration aggregates over `games`
    # Optional: `summary_rates`, the titles of the `summary` aggregates that are rates (shares
    # of games, shown as percentages beside the headline's).
    # Optional: `outcomes(rules, setup, seed, start, stop) -> Outcomes`, the games `play` plays
    # as arrays, without the tables (`simulate tune` scores its slices so, else from `play`).
    #
    # What the machinery reads instead of knowing a game by its name (all optional; the
    # functions above give each one's default): `target` (a Target: what balanced means for the
    # headline), `roles` (Role, ...: `--role-strategy` and `tune --role` only where there are
    # some), `flags` (Flag, ...: the game's own configuration options, with
    # `setup_options(given, players, rules, sweep)` where they need reading against the rules),
    # `files` (RuleFile, ...: data files the rules name), `blurb` (what the game is, in the run
    # command's help), `traces` (how its trace goes: "move by move"), `bench_players` and
    # `bench_scaling` (what `simulate bench` times by default), `report_sections` (the report's
    # sections of its own, after the common ones: functions ReportContext -> Section or None),
    # `compare_sections` (those `simulate compare` adds), `driver` (reports.verdicts.Driver:
    # the factor of the deal the report's Answer explains the headline by) and `progress` (a
    # Progress: how far each seat or team is from winning, its play loops filling the `progress`
    # table).

    def strategy_names(self) -> list[str]:
        """Gives the names `--strategy` accepts (families and presets)."""

    def load_rules(self, config_file: str | None, overrides: list[str]) -> dict:
        """Gives the validated rules: defaults from configs/<game>.toml, then the user's file,
        then `--set key=value` overrides. Raises UserError on unknown keys or bad values."""

    def check(self, rules: dict, setup: Setup) -> None:
        """Raises UserError when a configuration cannot be played (e.g. too many saboteurs)."""

    def compile(self, rules: dict, setups: Sequence[Setup] = ()) -> None:
        """Compiles (or loads from the numba cache) everything `play` runs, by playing a game:
        the built-in bots, and the search family (sim/search.py) when a seat of `setups`
        plays it."""

    def play(self, rules: dict, setup: Setup, seed: int, start: int, stop: int,
             id_offset: int) -> dict[str, pl.DataFrame]:
        """Plays games [start, stop) of a configuration and gives one DataFrame per table.

        Game `i` depends only on (seed, rules, setup, i); its `game_id` is id_offset + i.
        The runner adds the `setup` column (the configuration's index in the manifest).
        """

    def trace(self, rules: dict, setup: Setup, seed: int, index: int,
              out: TextIO) -> dict[str, pl.DataFrame]:
        """Prints game `index` move by move to `out` and gives its tables, equal to what
        `play` records for that game (with id_offset 0)."""
