"""Deep Space: 2-4 players race to build bases on a data-driven map of planets."""

from typing import TextIO

import numpy as np
import polars as pl

from sim import search as search_family
from sim.games.deep_space import board as boards
from sim.games.deep_space import deck as decks
from sim.games.deep_space import bots, forbid, play, ruleset, sampler, search
from sim.games.deep_space.engine import move_bound
from sim.games.deep_space.state import new_state
from sim.games.deep_space.tables import COLUMNS
from sim.games.deep_space.tables import build as build_tables
from sim.games.deep_space.trace import Tracer
from sim.games.deep_space.view import PythonSeatPlayer
from sim.game import Headline, Progress, RuleFile, Setup, Target
from strategies import python_bots
from strategies import seats as seat_strings
from strategies.presets import user_presets


class DeepSpaceBots:
    """Deep Space's plug-in for user-chosen play (sim.game.Bots)."""

    families = bots.FAMILIES
    presets = bots.BUILT_IN

    def forbiddable(self, rules: dict) -> dict[str, str]:
        return forbid.names(rules)


class DeepSpace:
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
    bots = DeepSpaceBots()
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
    bench_scaling = 1_000_000
    # the information-set sampler (for search bots): sampler.resample(s, rs, seat, r)
    sampler = sampler
    # the search family's pieces (registered with sim/search.py when imported)
    search = search

    def strategy_names(self) -> list[str]:
        return bots.strategy_names()

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

    def check(self, rules: dict, setup: Setup) -> None:
        """Every 2-4 player configuration of a valid rules dict can be played."""

    def compile(self, rules: dict, setups=()) -> None:
        searches = search_family.has_search_seat(bots.resolve, rules, setups)
        for strategy in ("random", "default") + (("search",) if searches else ()):
            self.play(rules, Setup(2, (strategy,) * 2), 0, 0, 1, 0)

    def prepare(self, rules: dict, setup: Setup):
        """Gives what playing a configuration takes: (rule arrays, planet names, card kind names,
        bot families, bot parameters, an empty state with the seats' restrictions).

        Seats that Python strategies play get the random family here; the Python driver asks
        their strategies instead."""
        rs, planets, kinds = ruleset.build(rules)
        strategies = [seat_strings.parse(text) for text in setup.seats]
        resolved = [bots.resolve("random" if seat_strings.is_python(seat.base) else seat.base,
                                 user_presets(rules)) for seat in strategies]
        families = np.array([f for f, _ in resolved], np.int64)
        params = np.array([p for _, p in resolved], np.float64)
        state = new_state(setup.players, len(planets), len(rs.card_kind), len(kinds),
                          move_bound(rs, setup.players))
        for i, seat in enumerate(strategies):
            state.forbid[i], state.forbid_card[i] = forbid.mask(kinds, rs.card_kind,
                                                                seat.forbidden)
        return rs, planets, kinds, families, params, state

    def play(self, rules, setup, seed, start, stop, id_offset):
        rs, planets, kinds, families, params, state = self.prepare(rules, setup)
        out = play.new_results(stop - start, setup.players, len(planets), kinds)
        classes = python_bots.python_classes(setup.seats)
        if classes:  # the Python driver: the same rules, seeds and tables, slower
            players = self._python_players(state, rs, planets, kinds, classes, rules)
            for row, game in enumerate(range(start, stop)):
                play.play_python(state, rs, families, params, seed, game, out, row,
                                 self._python_seats(players, classes, seed, game))
        else:
            play.play_games(state, rs, families, params, seed, start, stop, out,
                            search_family.searching(families))
        ids = np.arange(start, stop, dtype=np.int64) + id_offset
        return build_tables(out, ids, setup.players, setup.strategies(), rules["board"]["name"],
                            planets, forbid.uses(kinds))

    @staticmethod
    def _python_players(state, rs, planets, kinds, classes, rules) -> dict:
        """Gives the players of the Python seats on `state` (view.PythonSeatPlayer), seated
        for each game (`_python_seats`)."""
        return {seat: PythonSeatPlayer(state, rs, planets, kinds, rules) for seat in classes}

    _python_seats = staticmethod(python_bots.seated)  # each game's fresh strategy instances

    def trace(self, rules, setup, seed, index, out: TextIO):
        rs, planets, kinds, families, params, state = self.prepare(rules, setup)
        results = play.new_results(1, setup.players, len(planets), kinds)
        labels = setup.strategies()
        print(f"Deep Space, {setup.players} players, seed {seed}, game {index}, board "
              f"{rules['board']['name']!r}; seats: "
              + ", ".join(f"{i}:{name}" for i, name in enumerate(labels)), file=out)
        tracer = Tracer(state, rs, planets, kinds, labels, out)
        classes = python_bots.python_classes(setup.seats)
        players = self._python_players(state, rs, planets, kinds, classes, rules)
        play.play_python(state, rs, families, params, seed, index, results, 0,
                         self._python_seats(players, classes, seed, index), tracer)
        return build_tables(results, np.array([index], np.int64), setup.players, labels,
                            rules["board"]["name"], planets, forbid.uses(kinds))


GAME = DeepSpace()
