"""The per-move limit of Python bots: a move past it is stopped; the tool's own work inside a
move (compiling a built-in bot the move asked about) does not count."""

import threading
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


def test_a_shorter_limit_is_watched_at_its_own_pace():
    bot_timeout.one_move(10.0)  # a seat with a longer limit: its alarm rings once a second
    started = time.monotonic()
    with pytest.raises(bot_timeout.MoveTimeout):
        with bot_timeout.one_move(0.2):
            time.sleep(1.0)
    assert time.monotonic() - started < 0.5
    bot_timeout.rest()


def test_a_move_timed_by_its_clock_s_move_is_stopped_past_its_limit():
    clock = bot_timeout.one_move(0.2)
    with pytest.raises(bot_timeout.MoveTimeout):
        clock.move = object()  # as the Python driver times a move
        time.sleep(1.0)
    bot_timeout.rest()


def test_a_move_in_another_thread_is_judged_as_it_ends():
    outcomes = []

    def moves():
        clock = bot_timeout.one_move(0.1)
        with clock:
            time.sleep(0.01)
        try:
            with clock:
                time.sleep(0.3)
        except bot_timeout.MoveTimeout:
            outcomes.append("stopped")

    thread = threading.Thread(target=moves)
    thread.start()
    thread.join()
    assert outcomes == ["stopped"]
