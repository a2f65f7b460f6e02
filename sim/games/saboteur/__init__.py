"""Saboteur: 3-10 players, hidden roles, rounds of digging for gold (three by default)."""

from typing import TextIO

import numpy as np
import polars as pl

from sim import search as search_family
from sim.errors import UserError
from sim.game import COUNTS, Flag, Headline, Outcomes, Progress, Role, Setup, Target
from sim.games.saboteur import bots, cards, forbid, play, sampler, search
from sim.games.saboteur.state import new_state
from sim.games.saboteur.tables import COLUMNS
from sim.games.saboteur.tables import build as build_tables
from sim.games.saboteur.trace import Tracer
from sim.games.saboteur.view import PythonSeatPlayer, deck_cards
from strategies import python_bots
from strategies import seats as seat_strings
from strategies.presets import user_presets


class SaboteurBots:
    """Saboteur's plug-in for user-chosen play (sim.game.Bots)."""

    families = bots.FAMILIES
    presets = bots.BUILT_IN

    roles = forbid.ROLES  # --forbid ROLE:NAME

    def forbiddable(self, rules: dict) -> dict[str, str]:
        return forbid.names(rules)


class Saboteur:
    name = "saboteur"
    title = "Saboteur"
    min_players = cards.MIN_PLAYERS
    max_players = cards.MAX_PLAYERS
    tables = ("games", "seats", "rounds", "progress")
    columns = COLUMNS
    # `rounds` is a rule value (--set rounds=1): every rate counts the rounds each game played.
    headline = Headline("miners' round-win rate", pl.col("miner_rounds"), pl.col("rounds"))
    summary = (("avg rounds won by saboteurs", (pl.col("rounds") - pl.col("miner_rounds")).mean()),)
    bots = SaboteurBots()
    # what balanced means for the headline (the summary's and the report's verdicts)
    target = Target(0.5, above="miners", below="saboteurs",
                    sides=("the miners", "the saboteurs"))
    # in forbid.ROLES' order; a role's own parameters are checked in the bots' code (use_maps
    # and noise act in both roles, so they are no role's own)
    roles = (Role("miner", "miners", ("break_at",)),
             Role("saboteur", "saboteurs", ("strike_distance", "cover", "fellow_at")))
    flags = (Flag("saboteurs", "Saboteurs in play: 2, a list 1,2 or a range 1-3 (default: dealt "
                               "from role cards).", "Saboteurs in play (default: dealt).", COUNTS),)
    # how far each team is from winning each round (sim/progress.py samples it: the progress
    # table), each on its own race from 0 to 1, so that the leader is the team further along
    progress = Progress("each team's share of its own race: the miners', of the way from the "
                        "start card to the gold that the path covers (its nearest open end, "
                        "averaged over the goals that may still hide the gold); the saboteurs', "
                        "of the cards played (the round is theirs when every card is)",
                        unit="of the race", teams=("miners", "saboteurs"),
                        winner=pl.col("winner_team"), by_round=True)
    blurb = "hidden saboteurs among the miners digging for gold"
    bench_scaling = 1_000_000
    # the information-set sampler (for search bots): sampler.resample(s, rs, seat, r)
    sampler = sampler
    # the search family's pieces (registered with sim/search.py when imported)
    search = search

    def strategy_names(self) -> list[str]:
        return bots.strategy_names()

    def load_rules(self, config_file, overrides) -> dict:
        from sim.rules import load_rules
        rules = load_rules(self.name, config_file, overrides)
        cards.build(rules)  # validates
        return rules

    def check(self, rules: dict, setup: Setup) -> None:
        n = setup.players
        fixed = setup.option("saboteurs")
        ruleset, _ = cards.build(rules)
        if fixed is not None:
            top = min(n - 1, len(ruleset.payout) - 1)
            if not 0 <= fixed <= top:
                raise UserError(f"--saboteurs {fixed} is out of range for {n} players (0-{top})")
        elif ruleset.saboteur_cards[n] > len(ruleset.payout) - 1:
            raise UserError(f"{ruleset.saboteur_cards[n]} saboteur cards at {n} players, but "
                            f"gold.saboteur_payout covers only {len(ruleset.payout) - 1}")

    def compile(self, rules: dict, setups=()) -> None:
        searches = search_family.has_search_seat(bots.resolve, rules, setups)
        for strategy in ("random", "default") + (("search",) if searches else ()):
            self.play(rules, Setup(3, (strategy,) * 3), 0, 0, 1, 0)

    def prepare(self, rules: dict, setup: Setup):
        """Gives what playing a configuration takes: (rule arrays, card names, bot families,
        bot parameters, an empty state with the seats' restrictions, fixed saboteurs or -1).

        The families and parameters are indexed by (role, seat): the bot a seat plays while it
        holds that role. Seats that Python strategies play get the random family here, which
        keeps no public record; the Python driver asks their strategies instead."""
        ruleset, names = cards.build(rules)
        played = [[seat_strings.parse(setup.played(role, seat)) for seat in range(setup.players)]
                  for role in forbid.ROLES]
        resolved = [[bots.resolve("random" if seat_strings.is_python(seat.base) else seat.base,
                                  user_presets(rules)) for seat in row] for row in played]
        families = np.array([[f for f, _ in row] for row in resolved], np.int64)
        params = np.array([[p for _, p in row] for row in resolved], np.float64)
        fixed = setup.option("saboteurs")
        state = new_state(setup.players, len(names))
        for i in range(setup.players):
            state.forbid[i] = forbid.mask(ruleset, names, _restrictions(setup, played, i))
        return ruleset, names, families, params, state, (-1 if fixed is None else fixed)

    def play(self, rules, setup, seed, start, stop, id_offset):
        out = self._results(rules, setup, seed, start, stop)
        ids = np.arange(start, stop, dtype=np.int64) + id_offset
        return build_tables(out, ids, setup.players, setup.strategies(), setup.option("saboteurs"),
                            _by_role(setup))

    def outcomes(self, rules, setup, seed, start, stop) -> Outcomes:
        out = self._results(rules, setup, seed, start, stop)
        miners_won = out.round_miners_won[:, :, None] == 1  # [games, rounds, 1]
        roles = {}
        for index, role in enumerate(forbid.ROLES):
            held = out.round_role == index
            team_won = miners_won if role == "miner" else ~miners_won
            roles[role] = ((held & team_won).sum(axis=(1, 2)).astype(np.float64),
                           held.sum(axis=(1, 2)).astype(np.float64))
        rounds = np.full(len(out.turns), out.round_turns.shape[1], np.float64)
        return Outcomes(out.rank == 1, forbid.USES, out.uses,
                        (out.miner_rounds.astype(np.float64), rounds), roles)

    def _results(self, rules, setup, seed, start, stop):
        """Gives the engine's result arrays (play.Results) of games [start, stop) of a
        configuration."""
        ruleset, names, families, params, state, fixed = self.prepare(rules, setup)
        out = play.new_results(stop - start, setup.players, int(ruleset.numbers[cards.ROUNDS]))
        classes = python_bots.python_classes(setup.seats)
        if classes:  # the Python driver: the same rules, seeds and tables, slower
            players = self._python_players(state, ruleset, names, deck_cards(ruleset, names),
                                           classes, rules)
            for row, game in enumerate(range(start, stop)):
                play.play_python(state, ruleset, families, params, seed, game, fixed, out, row,
                                 self._python_seats(players, classes, seed, game))
        else:
            play.play_games(state, ruleset, families, params, seed, start, stop, fixed, out,
                            search_family.searching(families))
        return out

    @staticmethod
    def _python_players(state, ruleset, names, known, classes, rules) -> dict:
        """Gives the players of the Python seats on `state` (view.PythonSeatPlayer), seated
        for each game (`_python_seats`); `known`: what each card name of the deck
        is (view.deck_cards)."""
        return {seat: PythonSeatPlayer(state, ruleset, names, known, rules, seat)
                for seat in classes}

    _python_seats = staticmethod(python_bots.seated)  # each game's fresh strategy instances

    def trace(self, rules, setup, seed, index, out: TextIO):
        ruleset, names, families, params, state, fixed = self.prepare(rules, setup)
        results = play.new_results(1, setup.players, int(ruleset.numbers[cards.ROUNDS]))
        labels = setup.strategies()
        tracer = Tracer(state, ruleset, names, labels, out, _by_role(setup))
        bots = (f"bots by role: {labels[0]}" if setup.roles else
                "seats: " + ", ".join(f"{i}:{name}" for i, name in enumerate(labels)))
        print(f"Saboteur, {setup.players} players, seed {seed}, game {index}; {bots}", file=out)
        classes = python_bots.python_classes(setup.seats)
        players = self._python_players(state, ruleset, names, deck_cards(ruleset, names),
                                       classes, rules)
        play.play_python(state, ruleset, families, params, seed, index, fixed, results, 0,
                         self._python_seats(players, classes, seed, index), tracer)
        built = build_tables(results, np.array([index], np.int64), setup.players, labels,
                             setup.option("saboteurs"), _by_role(setup))
        seats = built["seats"]
        print("\nFinal: " + ", ".join(
            f"seat {r['seat']} {r['gold']} nuggets{' (wins)' if r['won'] else ''}"
            for r in seats.iter_rows(named=True)), file=out)
        return built


def _restrictions(setup: Setup, played: list, seat: int) -> tuple[str, ...]:
    """Gives what `seat` never plays: its strategy's restrictions, or with strategies by role,
    each role's restrictions as that role's only (`miner=default-no-break`: `miner:break`)."""
    if not setup.roles:
        return played[0][seat].forbidden
    found = []
    for role, row in zip(forbid.ROLES, played):
        for name in row[seat].forbidden:
            own, _, bare = name.rpartition(":")
            if own in ("", role):
                found.append(f"{role}:{bare}")
    return tuple(found)


def _by_role(setup: Setup) -> list[tuple[str, ...]]:
    """Gives, per role (forbid.ROLES' order), the strategy each seat plays in it, as the
    rounds table shows it."""
    return [tuple(setup.played(role, seat).rpartition("/")[2] for seat in range(setup.players))
            for role in forbid.ROLES]


GAME = Saboteur()
