"""A Python bot that hangs, exits, raises KeyboardInterrupt or anything else ends the run in
one line naming the bot and its seat (exit 2), in this process and in worker processes; never
read as the user's Ctrl-C nor as a dying worker; the games finished are kept for a resume."""

import json

import pytest

BOTS = '''
import os
import signal
import sys
import time


class Sleeper:
    def choose(self, view, moves, rng):
        time.sleep(60)


class Exits:
    def choose(self, view, moves, rng):
        sys.exit(3)


class Interrupts:
    def choose(self, view, moves, rng):
        raise KeyboardInterrupt


class Raises:
    def choose(self, view, moves, rng):
        raise ValueError("no idea")


class Hides:
    def choose(self, view, moves, rng):
        try:
            time.sleep(60)
        except Exception:  # a bot's own error handling must not swallow the timeout
            return moves[0]


class UserPressesCtrlC:
    """Stands for the user's Ctrl-C arriving while the bot thinks."""

    def choose(self, view, moves, rng):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)


class LateSleeper:
    """Plays its first games at once, then hangs: the run has finished games to keep."""

    games = 0

    def __init__(self):
        LateSleeper.games += 1

    def choose(self, view, moves, rng):
        if LateSleeper.games > 2:
            time.sleep(60)
        return moves[0]
'''


@pytest.fixture
def bots(tmp_path):
    (tmp_path / "bots.py").write_text(BOTS)
    return tmp_path / "bots.py"


def play(simulate, bots, bot, *extra):
    return simulate("saboteur", "--players", "3", "--games", "4", "--seed", "1", "--out", "run",
                    "--quiet", "--seat-strategy", f"1={bots}:{bot}", *extra)


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("bot, cause", [
    ("Sleeper", "took more than 0.5 s for a move in game 0; give it longer with --bot-timeout "
                "SECONDS (0: no limit)"),
    ("Hides", "took more than 0.5 s for a move in game 0; give it longer with --bot-timeout "
              "SECONDS (0: no limit)"),
    ("Exits", "failed in game 0: it called sys.exit(3) (bots.py:15)"),
    ("Interrupts", "failed in game 0: KeyboardInterrupt (bots.py:20)"),
    ("Raises", "failed in game 0: ValueError: no idea (bots.py:25)"),
])
def test_a_misbehaving_bot_is_one_line_naming_it_and_its_seat(simulate_games, bots, tmp_path,
                                                              workers, bot, cause):
    code, _, err = play(simulate_games, bots, bot, "--bot-timeout", "0.5", "--workers", workers,
                        "--chunk-size", "2")
    assert (code, err) == (2, f"error: strategy {bots}:{bot} (seat 1) {cause}\n")
    assert not (tmp_path / "run").exists()  # no game finished: nothing kept


def test_a_bot_that_hangs_after_some_games_leaves_a_resumable_run(simulate_games, bots,
                                                                  tmp_path):
    code, _, err = play(simulate_games, bots, "LateSleeper", "--bot-timeout", "0.5",
                        "--workers", "1", "--chunk-size", "2")
    assert code == 2
    assert err == (f"error: strategy {bots}:LateSleeper (seat 1) took more than 0.5 s for a "
                   f"move in game 2; give it longer with --bot-timeout SECONDS (0: no limit); "
                   f"the finished games are kept: once that is solved, continue with "
                   f"'simulate resume run'\n")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert (manifest["status"], manifest["games_done"]) == ("interrupted", 2)


def test_the_users_ctrl_c_while_a_bot_thinks_is_an_interruption(simulate_games, bots):
    code, _, err = play(simulate_games, bots, "UserPressesCtrlC", "--workers", "1")
    assert (code, err) == (130, "interrupted before any game finished; nothing was kept\n")
