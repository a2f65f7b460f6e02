"""Sequence Stacks: its bots wrapped, its --forbid names per move, its cards, its deal."""

import numpy as np

from sim.game import Setup
from sim.games.sequence_stacks import view
from sim.games.sequence_stacks import bots as strategies
from sim.games.sequence_stacks.cards import FIRST_ACTION, TYPES
from sim.games.sequence_stacks.state import DRAW, DRAW_N, REMOVED_N, views

ACTION_CARDS = {"skip": "skip", "reverse": "reverse", "steal-a-card": "steal_card",
                "steal-a-chip": "steal_chip"}


class SequenceStacks:
    strategies = strategies
    setups = (Setup(5, ("default", "random", "eager-blockers", "default", "random")),
              Setup(3, ("chip-thieves", "reckless", "never-block")))
    variants = ((), ("options.refill=empty_hand_only",), ("options.chip_supply=unlimited",),
                ("options.winning_steal=allowed",), ("piles.open_per_colour=1", "chips.supply=3"))
    players = (2, 3, 4, 6)
    example = ("sequence_stacks_finisher.py:Finisher", "sequences_completed")
    common = {"skip", "reverse", "steal_card", "steal_chip", "wild"}
    decisions = {"turn": lambda view: view.phase == "turn",
                 "block": lambda view: view.phase == "block"}  # out of turn

    def choose(self, player, seat, family, params, view_, legal_moves):
        s, move = player.s, np.zeros(5, np.int64)
        player.choose(s, player.rs, seat, family, params, move)  # compiles off the clock
        return view.readable(move.tolist())

    def kinds(self, player, seat, move, legal_moves):
        names = set()
        if move.action == "block":
            names.add("block")
        if move.action in ("play", "action") and move.from_discard:
            names.add("from_discard")
        if move.action == "play" and move.card.endswith("wild"):
            names.add("wild")
        if move.action == "action":
            names.add(ACTION_CARDS[move.card])
        return names

    def census(self, player):
        """Every card is in one place: draw pile, removed, hands, discard piles, sequence piles
        or the action discard pile."""
        v = views(player.s)
        counts = np.zeros(TYPES, np.int64)
        np.add.at(counts, v.draw[:v.g[DRAW_N]], 1)
        np.add.at(counts, v.removed[:v.g[REMOVED_N]], 1)
        counts += v.hand.sum(axis=0)
        for seat in range(v.hand.shape[0]):
            np.add.at(counts, v.discard[seat, :v.discard_n[seat]], 1)
        for slot, n in enumerate(v.pile_len):
            np.add.at(counts, v.pile[slot, :n], 1)
        counts[FIRST_ACTION:] += v.actions.sum(axis=0)
        return {"cards": (counts.tolist(), player.rs.deck[v.hand.shape[0]].tolist())}

    def deal(self, player):
        v = views(player.s)
        return v.hand.tolist(), player.s.m[DRAW:DRAW + v.g[DRAW_N]].tolist()


ADAPTER = SequenceStacks()
