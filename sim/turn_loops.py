"""The play loops of a turn-based fast game that writes none of its own: `loops` makes them
from the game's jitted rules and bots (sim/turns.py's TurnGame runs them as the game's
`loop`).

The game gives, each a jitted function (sim.jit.rule):

    start_game(s, rs, seed, game)   deals game `game` of the run seeded `seed` into state `s`
                                    (rs: the rule arrays)
    over(s)                         whether the game has ended
    to_move(s)                      the seat to decide
    choose(s, rs, seat, family, params, move)
                                    the seat's bot (family, its parameters params) writes its
                                    move into `move` (s.move)
    apply_move(s, rs, seat, move)   plays the move
    record_game(s, out, row)        copies the finished game into row `row` of the result
                                    arrays `out`

The state is a named tuple of numpy arrays with a `move` array (an int64 row a move fits in).
"""

from types import SimpleNamespace

from sim.jit import made_rule
from sim.turns import AFTER, DECIDE, MOVE, START, drive, python_flags


def loops(start_game, over, to_move, choose, apply_move, record_game) -> SimpleNamespace:
    """Gives a game's play module (TurnGame.loop): play_games, python_steps and play_python
    over its rules and bots."""
    made = made_rule((start_game, over, to_move, choose, apply_move, record_game))

    @made
    def play_games(s, rs, families, params, seed, start, stop, out, searching):
        """Plays games [start, stop) with the jitted bots and fills `out` (row = game -
        start). searching: unused (no search family here)."""
        move = s.move
        for game in range(start, stop):
            start_game(s, rs, seed, game)
            while not over(s):
                seat = to_move(s)
                choose(s, rs, seat, families[seat], params[seat], move)
                apply_move(s, rs, seat, move)
            record_game(s, out, game - start)

    @made
    def python_steps(s, rs, families, params, seed, game, out, row, python, watched):
        """Plays one game as `play_games` does, stopping where Python has a part (as the
        built-in games' python_steps; sim/turns.py's `drive` runs it)."""
        move = s.move
        start_game(s, rs, seed, game)
        if watched:
            yield START, -1
        while not over(s):
            seat = to_move(s)
            if python[seat]:
                yield DECIDE, seat
            else:
                choose(s, rs, seat, families[seat], params[seat], move)
            if watched:
                yield MOVE, seat
            apply_move(s, rs, seat, move)
            if watched:
                yield AFTER, seat
        record_game(s, out, row)

    def play_python(s, rs, families, params, seed, game, out, row=0, python_seats=None,
                    watch=None):
        """Plays one game over the same jitted rules and bots as `play_games`, with Python
        strategies at the seats of `python_seats` ({seat: player(seat)}, a player writing its
        move into s.move) and `watch` told of each step (sim/turns.py's `drive`)."""
        drive(python_steps(s, rs, families, params, seed, game, out, row,
                           python_flags(python_seats, len(families)), watch is not None),
              python_seats, s.move, watch)

    return SimpleNamespace(play_games=play_games, python_steps=python_steps,
                           play_python=play_python)
