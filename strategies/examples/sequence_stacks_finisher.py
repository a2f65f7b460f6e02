"""A Sequence Stacks strategy in plain Python: finish sequences, steal from the leader, and Block
whoever is about to win.

    simulate sequence-stacks --players 4 --seat-strategy \\
        0=strategies/examples/sequence_stacks_finisher.py:Finisher

It reads only its `view` (see sim/games/sequence_stacks/view.py) and chooses among `legal_moves`.
"""


def chips_of(view, seat):
    red, blue = view.chips[seat]
    return red + blue


class Finisher:
    def choose(self, view, legal_moves, rng):
        if view.phase == "block":
            # Deny a chip to anyone it would bring within one chip of winning.
            near = chips_of(view, view.completion.seat) + 2 >= view.rules.to_win
            wanted = "block" if near else "pass"
            return next(m for m in legal_moves if m.action == wanted)

        def value(move):
            if move.action == "play":
                length = len(view.piles.get(move.pile, ()))
                if length == 4:
                    return 10  # completes the pile: a chip
                if "wild" in move.card:
                    return -1  # keep wilds for completing
                return 3 if length < 3 else 1  # do not leave a pile one short for the next player
            if move.action == "action":
                if move.card == "steal-a-chip":
                    return 5 + chips_of(view, move.target)
                if move.card == "skip":
                    return 2
                return 0
            if move.action == "discard":
                # Discard what helps least: actions we do not use first, wilds last.
                return -5 if "wild" in move.card else -1 - rng.random()
            return -10  # end

        return max(legal_moves, key=value)
