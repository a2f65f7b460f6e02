"""An example Spit strategy: plays whenever it can, from the stock pile with the most face-down
cards beneath (uncovering them is how a layout empties), turns up and uncovers cards only when
it has no play, and as the lone spitter spits onto the larger pile (so that the smaller pile,
the one to take at the slap, stays small).

    simulate spit --strategy strategies/examples/spit_racer.py:Racer --games 200
    simulate trace spit --seat-strategy 0=strategies/examples/spit_racer.py:Racer

The view and the moves are sim.games.spit.view.View and sim.games.spit.view.Move.
"""


class Racer:
    def choose(self, view, legal_moves, rng):
        if view.choosing_pile:  # the moves are Move("spit_onto", spit_pile=0 / 1)
            larger = 0 if view.spit_piles[0].cards >= view.spit_piles[1].cards else 1
            return legal_moves[larger]
        plays = [m for m in legal_moves if m.action == "play"]
        if plays:
            return max(plays, key=lambda m: (view.layout[m.stock].face_down, rng.random()))
        return legal_moves[0]  # turn a card up, or uncover one
