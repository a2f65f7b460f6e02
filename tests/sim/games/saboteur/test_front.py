"""The front kept up to date card by card equals the front listed from scratch."""

import numpy as np
import pytest

from sim.games.saboteur import GAME, bots, cards, engine, maze, play
from sim.games.saboteur.state import N_FRONT, TURN_SEAT, new_state


def _front(s):
    return {(int(s.front[i, 0]), int(s.front[i, 1])): int(s.front_fit[i])
            for i in range(s.g[N_FRONT])}


@pytest.mark.parametrize("strategy", ["random", "default"])
def test_incremental_front_equals_a_full_refresh(strategy):
    rs, names = cards.build(GAME.load_rules(None, []))
    family, params = bots.resolve(strategy)
    checked = 0
    for game in range(6):
        s = new_state(5, len(names))
        engine.start_game(s, rs, 11, game, -1)
        over = False
        while not over:
            seat = int(s.g[TURN_SEAT])
            bots.choose(s, rs, seat, family, params, s.move)
            over = play.turn(s, rs, seat, s.move, True)
            if over:
                break
            kept, counts = _front(s), s.fit_count.copy()
            maze.refresh(s, rs)
            assert kept == _front(s)
            assert np.array_equal(counts, s.fit_count)
            for (x, y), fit in kept.items():
                assert s.front_at[y, x] >= 0 and fit == maze.fit_mask(s, x, y)
            checked += 1
    assert checked > 50
