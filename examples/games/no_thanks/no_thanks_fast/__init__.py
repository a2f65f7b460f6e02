"""No Thanks! at the fast level: the game of no_thanks/rules.py with jitted rules and bots on
sim/turns.py's shell (docs/own-game.md, "From the simple level to the fast level"), found
through the `tabletop_balance.games` entry point `no-thanks-fast`.

It reads the same rules file, plays the same bots (random, default and its presets; no search
yet: the fast level's search needs a jitted sampler) and writes the same tables as the simple
level's `no-thanks`, about fifty times as fast."""

from no_thanks import GAME as SIMPLE
from no_thanks import rules as simple
from no_thanks_fast import bots, engine
from no_thanks_fast.state import new_state
from no_thanks_fast.view import PythonSeatPlayer, end_line, move_line
from sim.game import Setup
from sim.turn_loops import loops
from sim.turns import JittedBots, Prepared, TurnGame, score_tables


class NoThanks(TurnGame):
    name = "no-thanks-fast"
    title = "No Thanks! (fast)"
    min_players, max_players = simple.MIN_PLAYERS, simple.MAX_PLAYERS
    # the simple level's tables, headline and summary: the same game (its loops, made by
    # sim/turn_loops.py, record no progress yet: no progress table, no "How the game plays")
    tables, columns = ("games", "seats"), SIMPLE.columns
    headline, summary, summary_rates = SIMPLE.headline, SIMPLE.summary, SIMPLE.summary_rates
    target, rules_file = SIMPLE.target, SIMPLE.rules_file
    blurb = "take a card or pay a chip to pass it on (jitted)"
    # the play loops, from the rules and bots (sim/turn_loops.py)
    loop = loops(engine.start_game, engine.over, engine.to_move, bots.choose,
                 engine.apply_move, engine.record_game)
    bots = JittedBots(bots)  # no move can be forbidden: --forbid is not offered
    # its View is plain fields, without suggest(): the conformance check that follows the
    # built-in bots from Python (legal_moves_only) cannot play it
    suggests = False

    def validate(self, rules: dict) -> None:
        simple.validate(rules)

    def check(self, rules: dict, setup: Setup) -> None:
        simple.check(rules, setup.players)

    rule_arrays = staticmethod(engine.numbers)
    new_state = staticmethod(new_state)
    move_line, end_line = staticmethod(move_line), staticmethod(end_line)  # the trace's

    def new_results(self, prepared: Prepared, games: int, setup: Setup):
        return engine.new_results(games, setup.players)

    def tables_of(self, rules, setup, prepared, results, ids, labels):
        scores = results.card_points - results.chips
        won = scores == scores.min(axis=1, keepdims=True)  # the lowest score wins; ties share
        return score_tables(ids, setup.players, labels, results.turns, won, scores,
                            {"passes": results.passes},
                            {"cards": results.cards, "card_points": results.card_points,
                             "chips": results.chips})

    def python_player(self, prepared: Prepared, rules: dict, seat: int) -> PythonSeatPlayer:
        return PythonSeatPlayer(prepared.state)

GAME = NoThanks()
