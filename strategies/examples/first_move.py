"""The simplest strategy, for any game: always play the first legal move.

    simulate saboteur --players 5 --strategy strategies/examples/first_move.py:FirstMove

It is what `simulate bench GAME --strategies strategies/examples/first_move.py:FirstMove`
times to measure a game's Python driver.
"""


class FirstMove:
    def choose(self, view, legal_moves, rng):
        return legal_moves[0]
