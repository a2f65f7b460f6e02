"""Fixtures every test folder may use."""

import sys

import pytest


@pytest.fixture
def simulate(monkeypatch, capsys, tmp_path):
    """Gives a function running `simulate ARGS...` in-process from an empty folder, and giving
    (exit code, stdout, stderr)."""
    from sim import cli

    monkeypatch.chdir(tmp_path)

    def run(*args):
        monkeypatch.setattr(sys, "argv", ["simulate", *map(str, args)])
        with pytest.raises(SystemExit) as exit:
            cli.main()
            sys.exit(0)  # typer exits by itself; this only makes a missing exit visible
        out, err = capsys.readouterr()
        return exit.value.code or 0, out, err

    return run
