"""What Spit and Speed share in the conformance suite: bots planning moves in a race, and a
play's --forbid name being its direction."""

import numpy as np

from sim.games.spit.deck import DOWN, UP


class RealTime:
    """A real-time game's adapter; a subclass says where a move's card lies, and what is dealt
    and conserved."""

    players = (2,)

    def __init__(self, game):
        self.game = game

    @property
    def strategies(self):
        return self.game.bots.strategies

    def choose(self, player, seat, family, params, view_, legal_moves):
        s, rs = player.s, player.rs
        if getattr(view_, "choosing_pile", False):
            return legal_moves[self.strategies.choose_pile(s, rs, seat, family, params)]
        plan = np.zeros(3, np.int64)
        # through the seat's own chooser, which compiles off the clock
        assert player.choose(s, rs, seat, family, params, plan), "a bot asked plans"
        return self.game.view.readable(s, player.names, seat, plan.tolist())

    def direction(self, player, card: int, pile: int) -> set[str]:
        """Gives the --forbid names of playing `card` onto centre pile `pile` now."""
        s = player.s
        fits = player.rs.fits[card, s.centre[pile, s.centre_n[pile] - 1]]
        return {name for name, bit in (("play_up", UP), ("play_down", DOWN)) if fits & bit}
