"""The per-move limit of Python bots: a move past it is stopped; the tool's own work inside a
move (compiling a built-in bot the move asked about) does not count."""

import time

import pytest

from strategies import bot_timeout


def test_a_move_past_its_limit_is_stopped():
    with pytest.raises(bot_timeout.MoveTimeout):
        with bot_timeout.one_move(0.2):
            time.sleep(1.0)
    bot_timeout.rest()


def test_time_spent_paused_is_not_the_moves():
    with bot_timeout.one_move(0.3):
        time.sleep(0.1)
        with bot_timeout.paused():
            time.sleep(0.6)  # the alarm rings in here and finds no move to stop
        time.sleep(0.1)
    bot_timeout.rest()


def test_after_a_pause_the_move_still_has_only_its_time_left():
    with pytest.raises(bot_timeout.MoveTimeout):
        with bot_timeout.one_move(0.3):
            with bot_timeout.paused():
                time.sleep(0.6)
            time.sleep(1.0)
    bot_timeout.rest()
