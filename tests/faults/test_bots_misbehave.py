"""A Python bot that hangs, exits, raises KeyboardInterrupt or anything else, or answers
something that is not one of its legal moves, ends the run in one line naming the bot and its
seat (exit 2), in this process and in worker processes, in every command that plays bots;
never read as the user's Ctrl-C nor as a dying worker; the games finished are kept for a
resume."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim import api

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


class ReturnsNone:
    def choose(self, view, moves, rng):
        return None


class ReturnsInt:
    def choose(self, view, moves, rng):
        return 3


class ReturnsTuple:
    def choose(self, view, moves, rng):
        return (1, 2)


class Plays:
    def choose(self, view, moves, rng):
        return moves[0]


class LateSleeper:
    """Plays its first games at once, then hangs: the run has finished games to keep."""

    games = 0

    def __init__(self):
        LateSleeper.games += 1

    def choose(self, view, moves, rng):
        if LateSleeper.games > 2:
            time.sleep(60)
        return moves[0]


def in_worker():
    return os.getpid() != int(os.environ.get("BOTS_MAIN_PID", os.getpid()))


class RetriesForEver:
    """A retry loop catching everything: the timeout and the user's Ctrl-C alike."""

    def choose(self, view, moves, rng):
        while True:
            try:
                time.sleep(60)
            except BaseException:
                pass


class RetriesInWorker:
    def choose(self, view, moves, rng):
        while in_worker():
            try:
                time.sleep(60)
            except BaseException:
                pass
        return moves[0]


class BareExcept:
    def choose(self, view, moves, rng):
        try:
            time.sleep(60)
        except:  # noqa: E722
            return moves[0]


class IgnoresCtrlC:
    """The user's Ctrl-C arrives while the bot thinks; the bot catches it and goes on."""

    def choose(self, view, moves, rng):
        while True:
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(60)
            except BaseException:
                pass


class CatchesCtrlC:
    def choose(self, view, moves, rng):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(60)
        except BaseException:
            return moves[0]


class ExitsHard:
    def choose(self, view, moves, rng):
        os._exit(7)


class ExitsHardInWorker:
    def choose(self, view, moves, rng):
        if in_worker():
            os._exit(7)
        return moves[0]


class Late:
    """Plays its first two games at once, then misbehaves: the run has finished games to keep
    (a new process, as a resume's, starts counting again)."""

    games = 0

    def __init__(self):
        Late.games += 1

    def choose(self, view, moves, rng):
        if Late.games > 2:
            self.misbehave(view, moves, rng)
        return moves[0]


class LateRetriesForEver(Late):
    misbehave = RetriesForEver.choose


class LateIgnoresCtrlC(Late):
    misbehave = IgnoresCtrlC.choose


class LateExitsHard(Late):
    misbehave = ExitsHard.choose


class Unsayable(Exception):
    def __str__(self):
        raise RuntimeError("no words")


class RaisesUnsayable:
    def choose(self, view, moves, rng):
        raise Unsayable()
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


def illegal(bots, bot, shown, game=0) -> re.Pattern:
    """Gives the one line saying that `bot` (seat 1) answered `shown` in game `game`."""
    return re.compile(rf"error: strategy {re.escape(f'{bots}:{bot}')} \(seat 1\) played an "
                      rf"illegal move in game {game}: {re.escape(shown)} is not one of its \d+ "
                      r"legal moves\n")


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("bot, shown", [("ReturnsNone", "None"), ("ReturnsInt", "3"),
                                        ("ReturnsTuple", "(1, 2)")])
def test_an_answer_that_is_not_a_legal_move_is_one_line_naming_it(simulate_games, bots,
                                                                   tmp_path, workers, bot,
                                                                   shown):
    # None used to play the first legal move, the run ending well (exit 0).
    code, _, err = play(simulate_games, bots, bot, "--workers", workers, "--chunk-size", "2")
    assert code == 2 and illegal(bots, bot, shown).fullmatch(err), err
    assert not (tmp_path / "run").exists()
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0), "the per-move alarm rings on"


@pytest.mark.parametrize("command", [
    ["trace", "saboteur", "--players", "3", "--seed", "1", "--game-index", "2"],
    ["compare", "saboteur", "--strategies", "default,{bot}", "--players", "3", "--games", "2",
     "--seed", "1", "--workers", "1", "--quiet", "--out", "cmp"],
])
def test_trace_and_compare_say_an_illegal_answer_in_one_line(simulate_games, bots, tmp_path,
                                                             command):
    bot = f"{bots}:ReturnsNone"
    extra = [] if command[0] == "compare" else ["--seat-strategy", f"1={bot}"]
    code, _, err = simulate_games(*[arg.format(bot=bot) for arg in command], *extra)
    assert code == 2 and illegal(bots, "ReturnsNone", "None", 2 if extra else 0).fullmatch(err), err
    assert not (tmp_path / "cmp").exists()


def test_the_api_raises_the_same_user_error(bots, tmp_path):
    with pytest.raises(api.UserError) as e:
        api.run("saboteur", players=3, games=2, seed=1, workers=1, out=tmp_path / "run",
                seats={1: f"{bots}:ReturnsNone"})
    assert illegal(bots, "ReturnsNone", "None").fullmatch(f"error: {e.value}\n")


CLI = [sys.executable, "-m", "sim.cli"]
ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}


def command(*args, cwd) -> subprocess.CompletedProcess:
    """Runs `simulate ARGS` in a process of its own (what an exit code and every line on
    stderr are made of, beyond what an in-process run shows)."""
    return subprocess.run([*CLI, *map(str, args)], cwd=cwd, env=ENV, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("args", [
    ["saboteur", "--players", "3", "--games", "4", "--seat-strategy", "1={bot}", "--out", "run"],
    ["compare", "saboteur", "--strategies", "{bot},default", "--players", "3", "--games", "2",
     "--out", "cmp"],
])
def test_an_illegal_move_exits_2_not_by_the_per_move_alarm(bots, tmp_path, args):
    # The per-move alarm (default --bot-timeout) was left ringing: it killed the exiting
    # process (exit 142, "Alarm clock") after the line.
    bot = f"{bots}:ReturnsInt"
    done = command(*[arg.format(bot=bot) for arg in args], "--seed", 1, "--workers", 1,
                   "--quiet", cwd=tmp_path)
    seat = 0 if args[0] == "compare" else 1
    assert (done.returncode, done.stderr) == (
        2, done.stderr.splitlines()[0] + "\n"), done.stderr
    assert done.stderr.startswith(f"error: strategy {bot} (seat {seat}) played an illegal move "
                                  "in game 0: 3 is not one of its ")


TUNE = ["tune", "saboteur", "--players", "3", "--trials", "2", "--seed", "1", "--workers", "1",
        "--quiet", "--out", "t"]


@pytest.mark.parametrize("bot, line", [
    ("Raises", "failed in game 0: ValueError: no idea (bots.py:25)"),
    ("ReturnsNone", "played an illegal move in game 0: None is not one of its "),
])
def test_tune_against_a_failing_bot_is_one_line(bots, tmp_path, bot, line):
    # Optuna logged the failed trial and its tracebacks (62 lines) before the command's line.
    done = command(*TUNE, "--games", 4, "--gain-games", 4, "--against", f"{bots}:{bot}",
                   cwd=tmp_path)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith(f"error: strategy {bots}:{bot} (seat ") and line in done.stderr


def test_sigterm_during_tune_is_one_line_exit_143(bots, tmp_path):
    # Optuna logged the interrupted trial with its traceback; SIGTERM exited 130 (Ctrl-C's).
    process = subprocess.Popen([*CLI, *TUNE, "--games", "4000", "--against", f"{bots}:Plays"],
                               cwd=tmp_path, env=ENV, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while not (tmp_path / "t" / "study.log").exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "no trial began within 5 minutes"
        time.sleep(0.1)
    time.sleep(2)  # a trial's games are being played
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    assert (process.returncode, err) == (143, "interrupted: finished trials are kept in t; "
                                              "rerun the same command (or add --resume) to "
                                              "continue\n")


RUN = ["saboteur", "--players", "3", "--games", "4", "--seed", "1", "--workers", "1",
       "--chunk-size", "2", "--quiet", "--out", "run"]
ENDED = ("went on after its move was stopped at the --bot-timeout limit (does it catch "
         "BaseException, or use a bare except?); ended the process\n")


@pytest.mark.parametrize("bot, code, line", [
    # a bot catching BaseException swallowed the timeout: the run hung until kill -9
    ("RetriesForEver", 2, "error: strategy {bot} (seat 1) in game 0 " + ENDED),
    ("BareExcept", 2, "error: strategy {bot} (seat 1) took more than 0.5 s for a move in game "
                      "0; give it longer with --bot-timeout SECONDS (0: no limit)\n"),
    # ... and the user's Ctrl-C
    ("IgnoresCtrlC", 130, "interrupted before any game finished; nothing was kept (a Python "
                          "strategy went on after its move was stopped: ended at once)\n"),
    ("CatchesCtrlC", 130, "interrupted before any game finished; nothing was kept\n"),
    # exit 7, no message
    ("ExitsHard", 2, "error: strategy {bot} (seat 1) ended the process in game 0: it called "
                     "os._exit(7)\n"),
    # a traceback
    ("RaisesUnsayable", 2, "error: strategy {bot} (seat 1) failed in game 0: Unsayable: (its "
                           "message failed: RuntimeError) (bots.py:"),
])
def test_a_bot_that_will_not_stop_is_stopped_in_one_line(bots, tmp_path, bot, code, line):
    started = time.monotonic()
    done = command(*RUN, "--bot-timeout", "0.5", "--seat-strategy", f"1={bots}:{bot}",
                   cwd=tmp_path)
    assert done.returncode == code and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(line.format(bot=f"{bots}:{bot}")), done.stderr
    assert time.monotonic() - started < 120


KEPT = "; the finished games are kept: once that is solved, continue with 'simulate resume run'\n"


@pytest.mark.parametrize("bot, code, line", [
    ("LateRetriesForEver", 2, "error: strategy {bot} (seat 1) in game 2 " + ENDED[:-1] + KEPT),
    ("LateIgnoresCtrlC", 130, "interrupted: finished games are kept; continue with 'simulate "
                              "resume run' (a Python strategy went on after its move was "
                              "stopped: ended at once)\n"),
    ("LateExitsHard", 2, "error: strategy {bot} (seat 1) ended the process in game 2: it called "
                         "os._exit(7)" + KEPT),
])
def test_a_run_ended_at_once_by_its_bot_is_left_interrupted_and_resumable(bots, tmp_path, bot,
                                                                           code, line):
    # The manifest stayed "running" and the line said nothing of the two games kept.
    done = command(*RUN, "--bot-timeout", "0.5", "--seat-strategy", f"1={bots}:{bot}",
                   cwd=tmp_path)
    assert (done.returncode, done.stderr) == (code, line.format(bot=f"{bots}:{bot}"))
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert (manifest["status"], manifest["games_done"]) == ("interrupted", 2)
    resumed = command("resume", "run", "--quiet", cwd=tmp_path)  # plays games 2 and 3 anew
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads((tmp_path / "run" / "manifest.json").read_text())["status"] == "complete"


@pytest.mark.parametrize("bot, line", [
    ("RetriesInWorker", "error: strategy {bot} (seat 1) in game {game} " + ENDED),
    ("ExitsHardInWorker", "error: strategy {bot} (seat 1) ended the process in game {game}: it "
                          "called os._exit(7)\n"),
])
def test_a_worker_ended_by_its_bot_says_which_bot_in_one_line(simulate_games, bots, tmp_path,
                                                               pool_for_any_run, monkeypatch,
                                                               bot, line):
    monkeypatch.setenv("BOTS_MAIN_PID", str(os.getpid()))  # the bot misbehaves in workers only
    code, _, err = play(simulate_games, bots, bot, "--bot-timeout", "0.5", "--workers", "2",
                        "--chunk-size", "2")
    said = re.escape(line.format(bot=f"{bots}:{bot}", game="\0").rstrip("\n"))
    assert code == 2 and re.fullmatch(said.replace("\0", r"\d+") + r"(; the finished .*)?\n",
                                      err), err


@pytest.mark.parametrize("seconds", ["0.00001", "0.009"])
def test_a_bot_timeout_below_the_floor_is_refused(simulate_games, bots, seconds):
    # 0.00001 s: the alarm rang every microsecond and the run froze
    code, _, err = play(simulate_games, bots, "Plays", "--bot-timeout", seconds)
    assert (code, err) == (2, "error: --bot-timeout takes seconds, 0.01 or more (0: no limit), "
                              f"got {float(seconds):g}\n")
