"""Spit: its bots wrapped (the lone spitter's pile choice too), its --forbid names per move,
its cards, its first deal."""

from game_adapters.realtime import RealTime

from sim.games import spit
from sim.game import Setup

REACTIONS = (("reaction_0", "expert"), ("reaction_1", "novice"))


class Spit(RealTime):
    setups = (Setup(2, ("default", "random"), REACTIONS),
              Setup(2, ("greedy", "blocker"), (("reaction_0", "0.7:0.2"), ("reaction_1", "club"))))
    variants = ((), ("layout.stock_piles=4",), ("options.alternating_colours=true",),
                ("options.both_out_of_spit_cards=split_both_piles",),
                ("options.both_out_of_spit_cards=take_back_started_pile",),
                ("options.win=spit_and_layout_played",),
                ("options.alternating_colours=true", "options.stack_equal_ranks=true",
                 "layout.stock_piles=4"),
                ("options.stack_equal_ranks=true", "options.smaller_pile=out_player_chooses"))
    common = {"play_up", "play_down", "fill_space", "uncover"}
    example = ("spit_racer.py:Racer", None)
    decisions = {"move": lambda view: not view.choosing_pile,
                 "spit pile": lambda view: view.choosing_pile}  # the lone spitter's choice

    def kinds(self, player, seat, move, legal_moves):
        if move.action == "play":
            s = player.s
            card = s.stock[seat, move.stock, s.stock_n[seat, move.stock] - 1]
            return self.direction(player, card, move.spit_pile)
        if move.action in ("fill_space", "stack_equal"):
            return {move.action, "uncover"}
        return set()

    def census(self, player):
        s = player.s
        found = []
        for seat in range(2):
            for p in range(s.stock_n.shape[1]):
                found += s.stock[seat, p, :s.stock_n[seat, p]].tolist()
            found += s.spit[seat, :s.spit_n[seat]].tolist()
            found += s.hold[seat, :s.hold_n[seat]].tolist()
            found += s.centre[seat, :s.centre_n[seat]].tolist()
        return {"cards": (sorted(found), list(range(player.rs.rank.shape[0])))}

    def deal(self, player):
        s = player.s
        return s.stock.tolist(), s.stock_n.tolist(), s.spit.tolist(), s.centre.tolist()


ADAPTER = Spit(spit.GAME)
