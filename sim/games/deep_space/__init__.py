"""Deep Space: 2-4 players race to build bases on a data-driven map of planets."""

from typing import NamedTuple

import numpy as np
import polars as pl

from sim.games.deep_space import board as boards
from sim.games.deep_space import deck as decks
from sim.games.deep_space import bots, forbid, play, ruleset, sampler, search
from sim.games.deep_space.engine import move_bound
from sim.games.deep_space.state import State, new_state
from sim.games.deep_space.tables import COLUMNS
from sim.games.deep_space.tables import build as build_tables
from sim.games.deep_space.trace import Tracer
from sim.games.deep_space.view import PythonSeatPlayer
from sim.game import DeclaredIn, Headline, Progress, RuleFile, Setup, Target
from sim.turns import JittedBots, TurnGame, seat_bots
from strategies import seats as seat_strings


class Prepared(NamedTuple):
    """What playing a configuration takes (DeepSpace.prepare)."""

    rs: tuple  # the rule arrays (ruleset.build)
    planets: list  # the planets' names
    kinds: list  # the card kinds' names
    families: np.ndarray  # each seat's bot family
    params: np.ndarray  # each seat's bot parameters
    state: State  # an empty state with the seats' restrictions


class DeepSpace(TurnGame):
    name = "deep-space"
    title = "Deep Space"
    # players roll for who starts: seat numbers are not turn order (the report says which is which)
    rolled_starter = True
    min_players = boards.MIN_PLAYERS
    max_players = boards.MAX_PLAYERS
    tables = ("games", "seats", "bases", "progress")
    columns = COLUMNS
    # The starter is rolled for, so seat numbers carry no advantage by themselves; whether
    # moving first wins a race for bases more often than 1/players is the balance question.
    headline = Headline("first player's win rate",
                        (pl.col("winner") == pl.col("first_seat")).fill_null(False), pl.lit(1))
    summary = (("avg rounds", pl.col("rounds").mean()),)
    cards, loop = ruleset, play
    bots = JittedBots(bots, forbid)
    # what balanced means for the headline (the summary's and the report's verdicts)
    target = Target(None, above="the first player", below="the other players")
    # the board and the action deck are data files, named in the rules
    files = (RuleFile("board", "Board TOML file (default: the stand-in "
                               "configs/deep_space/board.toml)."),
             RuleFile("deck", "Action deck TOML file (default: the stand-in "
                              "configs/deep_space/deck.toml)."))
    # how far each colour is from winning (sim/progress.py samples it: the progress table)
    progress = Progress("bases built, plus up to 0.9 for the next one's cost held: 0.45 times "
                        "the share of its ore, 0.45 times the share of its recruits standing "
                        "on the best planet open to a base", unit="bases")
    blurb = "a race to build bases on a map of planets"
    traces = "turn by turn"
    # its report's own sections (report.py)
    report_sections = DeclaredIn(f"{__name__}.report", "SECTIONS")
    bench_scaling = 1_000_000
    # the information-set sampler (for search bots): sampler.resample(s, rs, seat, r)
    sampler = sampler
    # the search family's pieces (registered with sim/search.py when imported)
    search = search

    def load_rules(self, config_file, overrides) -> dict:
        """Gives the validated rules. The rules name a board and a deck file ("": the
        stand-ins); their checked contents replace the names, as rules["board"] and
        rules["deck"], so that workers and the run's manifest get the map and deck themselves."""
        from sim.rules import load_rules
        rules = load_rules("deep_space", config_file, overrides)
        rules["board"] = boards.read(rules["board"] or ruleset.DEFAULT_BOARD)
        rules["deck"] = decks.read(rules["deck"] or ruleset.DEFAULT_DECK)
        ruleset.build(rules)  # validates
        return rules

    def prepare(self, rules: dict, setup: Setup) -> Prepared:
        """Gives what playing a configuration takes (Prepared)."""
        rs, planets, kinds = ruleset.build(rules)
        strategies = [seat_strings.parse(text) for text in setup.seats]
        families, params = seat_bots(bots.resolve, strategies, rules)
        state = new_state(setup.players, len(planets), len(rs.card_kind), len(kinds),
                          move_bound(rs, setup.players))
        for i, seat in enumerate(strategies):
            state.forbid[i], state.forbid_card[i] = forbid.mask(kinds, rs.card_kind,
                                                                seat.forbidden)
        return Prepared(rs, planets, kinds, families, params, state)

    def new_results(self, prepared: Prepared, games: int, setup: Setup):
        return play.new_results(games, setup.players, len(prepared.planets), prepared.kinds)

    def tables_of(self, rules, setup, prepared, results, ids, labels):
        return build_tables(results, ids, setup.players, labels, rules["board"]["name"],
                            prepared.planets, forbid.uses(prepared.kinds))

    def python_player(self, prepared: Prepared, rules: dict, seat: int) -> PythonSeatPlayer:
        p = prepared
        return PythonSeatPlayer(p.state, p.rs, p.planets, p.kinds, rules)

    def tracer(self, prepared: Prepared, setup: Setup, labels, out) -> Tracer:
        p = prepared
        return Tracer(p.state, p.rs, p.planets, p.kinds, labels, out)

    def trace_header(self, rules, setup, labels) -> str:
        return f", board {rules['board']['name']!r}" + super().trace_header(rules, setup, labels)


GAME = DeepSpace()
