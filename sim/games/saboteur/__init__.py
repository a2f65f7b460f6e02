"""Saboteur: 3-10 players, hidden roles, rounds of digging for gold (three by default)."""

from typing import NamedTuple

import numpy as np
import polars as pl

from sim.errors import UserError
from sim.game import COUNTS, DeclaredIn, Flag, Headline, Outcomes, Progress, Role, Setup, Target
from sim.games.saboteur import bots, cards, forbid, play, sampler, search
from sim.games.saboteur.state import State, new_state
from sim.games.saboteur.tables import COLUMNS
from sim.games.saboteur.tables import build as build_tables
from sim.games.saboteur.trace import Tracer
from sim.games.saboteur.view import PythonSeatPlayer, deck_cards
from sim.turns import JittedBots, TurnGame, seat_bots
from strategies import seats as seat_strings


class Prepared(NamedTuple):
    """What playing a configuration takes (Saboteur.prepare)."""

    rs: tuple  # the rule arrays (cards.build)
    names: list  # the deck's card names
    # families[role, seat], params[role, seat]: the bot a seat plays while it holds that role
    families: np.ndarray
    params: np.ndarray
    state: State  # an empty state with the seats' restrictions
    fixed: int  # the saboteurs in play, -1: dealt from the role cards


class Saboteur(TurnGame):
    name = "saboteur"
    title = "Saboteur"
    min_players = cards.MIN_PLAYERS
    max_players = cards.MAX_PLAYERS
    tables = ("games", "seats", "rounds", "progress")
    columns = COLUMNS
    # `rounds` is a rule value (--set rounds=1): every rate counts the rounds each game played.
    headline = Headline("miners' round-win rate", pl.col("miner_rounds"), pl.col("rounds"))
    summary = (("avg rounds won by saboteurs", (pl.col("rounds") - pl.col("miner_rounds")).mean()),)
    cards, loop = cards, play
    bots = JittedBots(bots, forbid, forbid.ROLES)  # --forbid ROLE:NAME
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
    # its report's own sections, `simulate compare`'s, and the Answer's driver (report.py)
    report_sections = DeclaredIn(f"{__name__}.report", "SECTIONS")
    compare_sections = DeclaredIn(f"{__name__}.report", "COMPARE_SECTIONS")
    driver = DeclaredIn(f"{__name__}.report", "DRIVER")
    # the information-set sampler (for search bots): sampler.resample(s, rs, seat, r)
    sampler = sampler
    # the search family's pieces (registered with sim/search.py when imported)
    search = search

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

    def prepare(self, rules: dict, setup: Setup) -> Prepared:
        """Gives what playing a configuration takes (Prepared).

        The families and parameters are indexed by (role, seat): the bot a seat plays while it
        holds that role. Seats that Python strategies play get the random family here, which
        keeps no public record; the Python driver asks their strategies instead."""
        ruleset, names = cards.build(rules)
        played = [[seat_strings.parse(setup.played(role, seat)) for seat in range(setup.players)]
                  for role in forbid.ROLES]
        by_role = [seat_bots(bots.resolve, row, rules) for row in played]
        families = np.array([f for f, _ in by_role])
        params = np.array([p for _, p in by_role])
        fixed = setup.option("saboteurs")
        state = new_state(setup.players, len(names))
        for i in range(setup.players):
            state.forbid[i] = forbid.mask(ruleset, names, _restrictions(setup, played, i))
        return Prepared(ruleset, names, families, params, state, -1 if fixed is None else fixed)

    def loop_args(self, prepared: Prepared) -> tuple:
        return (prepared.fixed,)

    def new_results(self, prepared: Prepared, games: int, setup: Setup):
        return play.new_results(games, setup.players, int(prepared.rs.numbers[cards.ROUNDS]))

    def tables_of(self, rules, setup, prepared, results, ids, labels):
        return build_tables(results, ids, setup.players, labels, setup.option("saboteurs"),
                            _by_role(setup))

    def outcomes(self, rules, setup, seed, start, stop) -> Outcomes:
        out = self.played(rules, setup, self.prepare(rules, setup), seed, start, stop)
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

    def python_player(self, prepared: Prepared, rules: dict, seat: int) -> PythonSeatPlayer:
        p = prepared
        return PythonSeatPlayer(p.state, p.rs, p.names, deck_cards(p.rs, p.names), rules, seat)

    def tracer(self, prepared: Prepared, setup: Setup, labels, out) -> Tracer:
        p = prepared
        return Tracer(p.state, p.rs, p.names, labels, out, _by_role(setup))

    def trace_header(self, rules, setup, labels) -> str:
        if setup.roles:
            return f"; bots by role: {labels[0]}"
        return super().trace_header(rules, setup, labels)

    def trace_end(self, tables, out) -> None:
        print("\nFinal: " + ", ".join(
            f"seat {r['seat']} {r['gold']} nuggets{' (wins)' if r['won'] else ''}"
            for r in tables["seats"].iter_rows(named=True)), file=out)


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
