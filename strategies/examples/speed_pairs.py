"""An example Speed strategy: plays first a card whose rank another card in hand shares (its
twin may follow it at once, onto the other centre pile), otherwise any card, at random.

    simulate speed --strategy strategies/examples/speed_pairs.py:Pairs --games 200

The view and the moves are sim.games.speed.view.View and sim.games.speed.view.Move (cards are named by
rank and suit, e.g. "7h": the rank is the first character).
"""


class Pairs:
    def choose(self, view, legal_moves, rng):
        ranks = [card[0] for card in view.hand if card is not None]
        twins = [m for m in legal_moves if ranks.count(m.card[0]) > 1]
        return rng.choice(twins or legal_moves)
