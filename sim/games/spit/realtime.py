"""What Spit and Speed share as games: two seats, reaction settings per seat, the tables,
running games and tracing one. Each game names its own rules, engine loop, bots and tracer."""

from __future__ import annotations

from typing import TextIO

import numpy as np
import polars as pl

from sim import search as search_family
from sim import usage
from sim.errors import UserError
from sim.game import TEXT, TEXTS, DeclaredIn, Flag, Headline, Setup
from sim.games.spit import race, reaction
from sim.games.spit.tables import build as build_tables
from sim.turns import seat_bots
from strategies import python_bots
from strategies import seats as seat_strings


class RealTimeGame:
    """A two-player game without turns, raced on a discrete-event clock (see race.py).

    Subclasses set name, title, columns, summary, `length` (the games column counting deals or
    hands), `cards`, `loop`, `view` (its rules, play and view modules), `bots` (a
    sim.turns.JittedBots), `tracer` (its Tracer class), and define new_state(ruleset, clock) and
    options(rules) (rule options recorded per game).
    """

    min_players = 2
    max_players = 2
    tables = ("games", "seats", "progress")
    # Seat 0's game-win rate: seats differ only by what a configuration gives them (reaction
    # time, strategy), so 50% is fair and the gap to it is the effect of seat 0's settings.
    headline = Headline("seat 0's game-win rate", (pl.col("winner") == 0).fill_null(False),
                        pl.lit(1))
    length: str
    # each seat's reaction time: a configuration's options reaction_0, reaction_1
    flags = (
        Flag("reaction", "SEAT=MEAN[:SPREAD] or SEAT=PROFILE: a seat's reaction time (mean "
                         "seconds; spread = sigma of log-seconds, default the profile's). A list "
                         "sweeps: 1=0.6,0.8,1.0. Repeatable, once per seat.", kind=TEXTS),
        Flag("reaction_profile", "Reaction profile of every seat: novice, club, expert (default: "
                                 "the rules' reaction.profile); a list sweeps every combination.",
             kind=TEXT),
    )
    traces = "event by event, with simulated timestamps"
    bench_scaling = 200_000
    # the report's own sections, Spit's and Speed's (sim/games/spit/report.py)
    report_sections = DeclaredIn("sim.games.spit.report", "SECTIONS")

    def strategy_names(self) -> list[str]:
        return self.bots.strategies.strategy_names()

    def load_rules(self, config_file, overrides) -> dict:
        from sim.rules import load_rules
        rules = load_rules(self.name, config_file, overrides)
        self.cards.build(rules)  # validates
        return rules

    def check(self, rules: dict, setup: Setup) -> None:
        if setup.players != 2:
            raise UserError(f"{self.name} is a game for two players, got {setup.players}")
        for seat in range(2):
            reaction.seat_reaction(rules, setup.option(reaction.option_name(seat)))

    def setup_options(self, given: dict, players: str, rules, sweep: bool) -> dict[str, list]:
        """Gives the reaction options of the --reaction and --reaction-profile flags (the
        profiles they name are the run's rules'), after checking that --players names 2."""
        reaction.check_players(self.name, players)
        named = given.get("reaction")
        return reaction.setup_options(rules(), [named] if isinstance(named, str) else named or [],
                                      given.get("reaction_profile"), sweep)

    def compile(self, rules: dict, setups=()) -> None:
        searches = search_family.has_search_seat(self.bots.strategies.resolve, rules, setups)
        for strategy in ("random", "default") + (("search",) if searches else ()):
            self.play(rules, Setup(2, (strategy,) * 2), 0, 0, 1, 0)

    def reactions(self, rules: dict, setup: Setup) -> tuple[list[float], list[float]]:
        """Gives each seat's (mean reaction seconds, spread) lists."""
        pairs = [reaction.seat_reaction(rules, setup.option(reaction.option_name(seat)))
                 for seat in range(2)]
        return [m for m, _ in pairs], [s for _, s in pairs]

    def prepare(self, rules: dict, setup: Setup):
        """Gives what playing a configuration takes: (rule arrays, card names, bot families,
        bot parameters, an empty state with the seats' restrictions, a clock, reaction means,
        reaction spreads).

        Seats that Python strategies play get the random family here; the Python driver asks
        their strategies instead, and no other bot reads what a seat's bot keeps."""
        ruleset, names = self.cards.build(rules)
        seats = [seat_strings.parse(text) for text in setup.seats]
        families, params = seat_bots(self.bots.strategies.resolve, seats, rules)
        means, spreads = self.reactions(rules, setup)
        clock = race.new_clock(race.quantile_tables(means, spreads))
        state = self.new_state(ruleset, clock)
        for i, seat in enumerate(seats):
            state.forbid[i] = self.bots.forbid.mask(seat.forbidden)
        return ruleset, names, families, params, state, clock, means, spreads

    def tables_of(self, rules, setup, results, ids, means, spreads) -> dict[str, pl.DataFrame]:
        return build_tables(results, ids, setup.strategies(), means, spreads, self.length,
                            self.options(rules), self.seat_extra(results))

    def _python_players(self, state, ruleset, clock, names, classes, rules) -> dict:
        """Gives the players of the Python seats on `state` (view.PythonSeatPlayer), seated
        for each game (`_python_seats`)."""
        return {seat: self.view.PythonSeatPlayer(state, ruleset, clock, names, rules, self.bots,
                                                 seat)
                for seat in classes}

    _python_seats = staticmethod(python_bots.seated)  # each game's fresh strategy instances

    def seat_extra(self, results) -> dict:
        """Gives the seats table's columns after the shared ones, as (games, 2) arrays: the
        use counts (uses_<kind>), and what a game adds."""
        return usage.columns(results.uses, self.bots.forbid.USES)

    def play(self, rules, setup, seed, start, stop, id_offset):
        ruleset, names, families, params, state, clock, means, spreads = self.prepare(rules, setup)
        out = self.loop.new_results(stop - start)
        classes = python_bots.python_classes(setup.seats)
        if classes:  # the Python driver: the same rules, seeds and tables, slower
            players = self._python_players(state, ruleset, clock, names, classes, rules)
            for row, game in enumerate(range(start, stop)):
                self.loop.play_python(state, ruleset, clock, families, params, seed, game, out,
                                      row, self._python_seats(players, classes, seed, game))
        else:
            self.loop.play_games(state, ruleset, clock, families, params, race.seed_bits(seed),
                                 start, stop, out, search_family.searching(families))
        ids = np.arange(start, stop, dtype=np.int64) + id_offset
        return self.tables_of(rules, setup, out, ids, means, spreads)

    def trace(self, rules, setup, seed, index, out: TextIO):
        ruleset, names, families, params, state, clock, means, spreads = self.prepare(rules, setup)
        results = self.loop.new_results(1)
        print(f"{self.title}, seed {seed}, game {index}; seats: " + ", ".join(
            f"{seat}:{name} (reaction {means[seat]:g} s, spread {spreads[seat]:g})"
            for seat, name in enumerate(setup.strategies())), file=out)
        tracer = self.tracer(state, ruleset, clock, names, out)
        classes = python_bots.python_classes(setup.seats)
        players = self._python_players(state, ruleset, clock, names, classes, rules)
        self.loop.play_python(state, ruleset, clock, families, params, seed, index, results, 0,
                              self._python_seats(players, classes, seed, index), tracer)
        built = self.tables_of(rules, setup, results, np.array([index], np.int64), means, spreads)
        game = built["games"].row(0, named=True)
        seats = built["seats"].rows(named=True)
        outcome = ("stalled (no winner)" if game["stalled"] else f"seat {game['winner']} wins")
        print(f"\nFinal: {outcome} after {game[self.length]} {self.length}, {game['turns']} moves, "
              f"{game['stalls']} stalls, {game['sim_seconds']:.1f} simulated seconds; cards left: "
              + ", ".join(f"seat {r['seat']} {r['cards_left']}" for r in seats), file=out)
        return built
