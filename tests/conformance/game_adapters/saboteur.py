"""Saboteur: its bots wrapped, its --forbid names per move, its deal."""

import numpy as np

from sim.game import Setup
from sim.games.saboteur import view
from sim.games.saboteur import bots as strategies

KIND_NAMES = {"place": "path", "break": "break", "repair": "repair", "map": "map",
              "rockfall": "rockfall"}


class Saboteur:
    strategies = strategies
    setups = (Setup(6, ("default", "random", "covert-saboteurs") * 2),
              Setup(4, ("naive-miners", "default", "random", "default"), (("saboteurs", 1),)))
    variants = ((), ("options.round_end=all_pass",),
                ("options.next_round_starter=after_round_ender",), ("options.gold_pass=counter_clockwise",),
                ("options.gold_share=cards_per_player",), ("rounds=1",))
    players = (5, 8)
    example = ("saboteur_digger.py:Digger", None)
    common = {"path", "rockfall", "map", "break", "repair"}
    decisions = {"turn": lambda view: view.turn >= 0}

    def choose(self, player, seat, family, params, view_, legal_moves):
        move = np.zeros(5, np.int64)
        player.choose(player.s, player.rs, seat, family, params, move)  # compiles off the clock
        return view.readable(player.names, player.s.hand, seat, move.tolist())

    def kinds(self, player, seat, move, legal_moves):
        if move.action == "pass":  # discarding a forbidden card is allowed: a pass, not a play
            return {"pass"} if any(m.action != "pass" for m in legal_moves) else set()
        names = {move.card, KIND_NAMES[move.action]}
        if move.action == "place" and not player.rs.through[player.s.hand[seat, move.slot]]:
            names.add("dead_end")
        return names

    def census(self, player):
        return {}  # discards leave the state: tests/sim/saboteur/test_properties.py counts them

    def deal(self, player):
        s = player.s
        return s.role.tolist(), s.goal_kind.tolist(), s.hand.tolist(), s.deck.tolist()


ADAPTER = Saboteur()
