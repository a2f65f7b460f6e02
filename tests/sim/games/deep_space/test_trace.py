"""`trace deep-space`: a game printed turn by turn, with its final score."""

import io

from sim.games.deep_space import GAME
from sim.game import Setup


def test_a_trace_prints_every_turn_and_the_final_score():
    rules = GAME.load_rules(None, [])
    setup = Setup(4, ("default", "random", "raider", "turtle"))
    out = io.StringIO()
    traced = GAME.trace(rules, setup, 7, 3, out)
    text = out.getvalue()
    assert text.startswith("Deep Space, 4 players, seed 7, game 3")
    assert text.count("-- turn ") == traced["games"]["turns"][0]
    assert "Final: " in text
