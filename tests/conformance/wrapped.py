"""The Python strategy the conformance suite seats: it answers with the move of the built-in bot
it stands for (builtin_seats.py tells each instance which, and how to ask it)."""


class Builtin:
    ask = None  # (view, legal_moves) -> move, set by builtin_seats for each game's seat

    def choose(self, view, legal_moves, rng):
        return self.ask(view, legal_moves)
