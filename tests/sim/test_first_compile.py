"""The first run of a game says on stderr that its engine is compiling, once per cache folder."""

import io
import re

import pytest

from sim.run import warm


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def plain(text: str) -> str:
    """Gives what a terminal shows, its colours dropped."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


@pytest.fixture
def cold(tmp_path, monkeypatch):
    """A cold cache folder; gives a function putting a terminal in the place of stderr (in the
    test itself: pytest's capture puts its own back after the fixtures)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))

    def terminal() -> Terminal:
        stderr = Terminal()
        monkeypatch.setattr("sys.stderr", stderr)
        return stderr

    return terminal


def test_a_cold_cache_shows_the_compile_on_a_terminal_then_is_marked_warm(cold):
    cold = cold()
    assert not warm.is_compiled("saboteur")
    with warm.first_compile("saboteur", "Saboteur"):
        pass
    assert "0:00:00 compiling Saboteur (once per install)" in plain(cold.getvalue())
    assert warm.is_compiled("saboteur") and not warm.is_compiled("spit")
    cold.truncate(0)
    with warm.first_compile("saboteur", "Saboteur"):
        pass
    assert cold.getvalue().strip("\x00") == ""


def test_quiet_runs_and_pipes_show_nothing(cold, monkeypatch):
    cold = cold()
    with warm.first_compile("spit", "Spit", show=False):
        pass
    monkeypatch.setattr("sys.stderr", io.StringIO())  # not a terminal
    with warm.first_compile("speed", "Speed"):
        pass
    assert cold.getvalue() == "" and warm.is_compiled("spit") and warm.is_compiled("speed")


def test_a_failed_compile_leaves_the_cache_cold(cold):
    cold()
    with pytest.raises(RuntimeError), warm.first_compile("saboteur", "Saboteur"):
        raise RuntimeError("numba failed")
    assert not warm.is_compiled("saboteur")


def test_the_spinner_says_what_compiles_and_the_time_elapsed_never_an_estimate(cold):
    """How long a compile takes depends on the machine's load: only the time elapsed is true."""
    stderr = cold()
    with warm.first_compile("spit", "Spit") as say:
        say("random bots")
    shown = plain(stderr.getvalue())
    assert "0:00:00 compiling Spit (once per install)" in shown
    assert "0:00:00 compiling Spit for random bots (once per install)" in shown
    assert "about" not in shown
