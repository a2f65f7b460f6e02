"""No Thanks! for Python strategies and traces at the fast level: the simple level's View and
moves (no_thanks/rules.py), read from the state's arrays, so a strategy plays either level."""

from no_thanks import rules as simple
from no_thanks_fast.state import CARD, DECK_N, MOVES, POT, TURNS


def view(s, seat: int) -> simple.View:
    """Gives what `seat` sees (simple.View): every hand and chip count, not the deck."""
    hands = tuple(tuple(s.taken[k, :s.taken_n[k]].tolist()) for k in range(s.chips.shape[0]))
    return simple.View(seat, int(s.g[CARD]), int(s.g[POT]), tuple(s.chips.tolist()), hands,
                       int(s.g[DECK_N]))


class PythonSeatPlayer:
    """Plays a Python strategy's seat: offers it the legal moves in words and writes the one it
    picks into the state's move (python_bots.seated gives it its `seat`, a PythonSeat, each
    game)."""

    def __init__(self, s):
        self.s = s

    def __call__(self, seat: int) -> None:
        s = self.s
        moves = simple.BOTH if s.chips[seat] else simple.ONLY_TAKE
        s.move[0] = MOVES.index(moves[self.seat.pick(view(s, seat), moves)])


def move_line(s, seat: int, label: str, move) -> str:
    """Gives the trace's line of a move, before it is played."""
    return (f"seat {seat} ({label}): {MOVES[move[0]]!r} on card {int(s.g[CARD])} with "
            f"{int(s.g[POT])} chip(s)")


def end_line(s) -> str:
    """Gives the trace's last line: the winners and every seat's score."""
    scores = [_points(s, k) - int(s.chips[k]) for k in range(s.chips.shape[0])]
    winners = [k for k, score in enumerate(scores) if score == min(scores)]
    return f"over after {int(s.g[TURNS])} moves: winners {winners}, scores {scores}"


def _points(s, seat: int) -> int:
    return simple.cards_score(s.taken[seat, :s.taken_n[seat]].tolist())
