"""The user's Ctrl-C or `kill` is one line and 130 or 143 wherever it lands: while the
command's modules load, and while Optuna records a trial."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Sends the signal to the process itself as `simulate` imports typer: about 0.8 s of loading
# lie around that moment, when no handler of the command's was set yet.
LOADING = """
import os, signal, sys

class SignalAtImport:
    def find_spec(self, name, path=None, target=None):
        if name == "typer":
            os.kill(os.getpid(), signal.{signal})
        return None

sys.meta_path.insert(0, SignalAtImport())
sys.argv = ["simulate", "games"]
from sim.cli import main
main()
"""


@pytest.mark.parametrize("name, code", [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_while_the_command_loads_is_one_line(tmp_path, name, code):
    # a KeyboardInterrupt traceback (SIGINT); SIGTERM killed it without a word
    done = subprocess.run([sys.executable, "-c", LOADING.format(signal=name)], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=300)
    assert (done.returncode, done.stderr, done.stdout) == (code, "interrupted\n", "")


def test_ctrl_c_while_optuna_records_a_trial_is_an_interruption(simulate_games, monkeypatch):
    # Optuna's own UnboundLocalError (its `finally` reads what the interrupted call never set)
    # came out as a traceback.
    from optuna.study import _optimize

    from sim.errors import Interruption

    def interrupted(**kwargs):
        raise Interruption

    monkeypatch.setattr(_optimize, "_tell_with_warning", interrupted)
    code, _, err = simulate_games("tune", "saboteur", "--players", "3", "--trials", "2",
                                  "--games", "4", "--gain-games", "4", "--seed", "1",
                                  "--workers", "1", "--quiet", "--out", "t")
    assert (code, err) == (130, "interrupted: finished trials are kept in t; rerun the same "
                                "command (or add --resume) to continue\n")
