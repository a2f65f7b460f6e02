"""Deep Space: its bots wrapped, its --forbid names per move, its pieces and cards, its deal."""

import numpy as np

from sim.games.deep_space import engine, view
from sim.games.deep_space import bots as strategies
from sim.games.deep_space.state import DISCARDS, DOGS_LEFT, DRAW_AT, FIRST_SEAT, PLAYERS
from sim.game import Setup


class DeepSpace:
    strategies = strategies
    setups = (Setup(4, ("default", "random", "raider", "turtle")),
              Setup(3, ("rush", "default", "random")))
    variants = ((), ("options.mining=fixed",), ("options.redraw=always",),
                ("options.redraw=never",), ("supply.gems=6", "supply.ore=6"), ("turn_cap=40",))
    players = (2, 3, 4)
    example = ("deep_space_settler.py:Settler", "bases")
    common = {"move", "recruit", "build", "play"}
    decisions = {phase: (lambda view, phase=phase: view.phase == phase)
                 for phase in ("mine", "act", "redraw")}

    def choose(self, player, seat, family, params, view_, legal_moves):
        move = np.zeros(6, np.int64)
        player.choose(player.s, player.rs, seat, family, params, move)  # compiles off the clock
        s, rs = player.s, player.rs
        hand = [player.kinds[k] for k in rs.card_kind[s.hand[seat]].tolist()]
        return view.readable(player.planets, hand, int(engine.mine_count(s, rs, seat)),
                             move.tolist())

    def kinds(self, player, seat, move, legal_moves):
        if move.action in ("take", "end"):
            return set()
        names = {move.action}
        if move.action == "move":
            if move.warp:
                names.add("warp")
            if engine.occupied(player.s, seat, player.planets.index(move.planet)):
                names.add("attack")
        if move.action == "play":
            names.add(move.card)
        return names

    def census(self, player):
        s, rs = player.s, player.rs
        p = int(s.g[PLAYERS])
        hands = [int(c) for seat in range(p) for c in s.hand[seat, :s.hand_n[seat]]]
        pile = s.deck[s.g[DRAW_AT]:].tolist()
        discard = s.discard[:s.g[DISCARDS]].tolist()
        recruits = int(rs.numbers[engine.N_RECRUITS])
        return {"cards": (sorted(hands + pile + discard), list(range(s.deck.shape[0]))),
                "recruits": ((s.units.sum(axis=1) + s.supply).tolist(), [recruits] * p),
                "dogs": (int(s.g[DOGS_LEFT] + s.dogs.sum()), int(rs.numbers[engine.DOGS]))}

    def deal(self, player):
        s = player.s
        return s.deck.tolist(), s.hand.tolist(), int(s.g[FIRST_SEAT])


ADAPTER = DeepSpace()
