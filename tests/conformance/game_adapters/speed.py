"""Speed: its bots wrapped, its --forbid names per move, its cards, its deal."""

from game_adapters.realtime import RealTime

from sim.games import speed
from sim.game import Setup


class Speed(RealTime):
    setups = (Setup(2, ("default", "random"), (("reaction_0", "expert"), ("reaction_1", "novice"))),
              Setup(2, ("greedy", "default"), (("reaction_0", "0.7:0.2"), ("reaction_1", "club"))))
    variants = ((), ("deal.cards_each=20",),
                ("options.scoring=points", "options.target=5", "deal.cards_each=20"),
                ("options.scoring=points",))
    common = {"play_up", "play_down"}
    example = ("speed_pairs.py:Pairs", None)
    decisions = {"play": lambda view: view.hand_no >= 1}

    def kinds(self, player, seat, move, legal_moves):
        return self.direction(player, player.s.hand[seat, move.slot], move.pile)

    def census(self, player):
        s = player.s
        found = [int(x) for x in s.hand.ravel() if x >= 0]
        for side in range(2):
            found += s.draw[side, :s.draw_n[side]].tolist() + s.side[side, :s.side_n[side]].tolist()
            found += s.centre[side, :s.centre_n[side]].tolist()
        return {"cards": (sorted(found), list(range(player.rs.fits.shape[0])))}

    def deal(self, player):
        s = player.s
        return s.hand.tolist(), s.draw.tolist(), s.side.tolist(), s.centre.tolist()


ADAPTER = Speed(speed.GAME)
