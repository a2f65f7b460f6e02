"""A designer's profile on real games: a built-in (Sequence Stacks, at a chosen skill) and the
No Thanks! plugin, `report --profile` and `balance --profile` each."""

from pathlib import Path

import pytest

from sim import games

NO_THANKS = Path(__file__).parents[2] / "examples" / "games" / "no_thanks"


@pytest.fixture
def no_thanks(monkeypatch):
    """Registers the bundled simple-level No Thanks! as `pip install -e` would."""
    monkeypatch.syspath_prepend(str(NO_THANKS))
    monkeypatch.setitem(games.GAMES, "no-thanks", "no_thanks:GAME")


def write(tmp_path, text: str) -> str:
    (tmp_path / "profile.toml").write_text("[targets]\n" + text)
    return "profile.toml"


def test_no_thanks_is_checked_and_searched_for_its_profile(simulate, no_thanks, tmp_path):
    name = write(tmp_path, "first_seat = [0.0, 0.6]\nturns = [60, 120]\n")
    code, _, err = simulate("no-thanks", "--players", "4", "--games", "200", "--seed", "1",
                            "--workers", "1", "--out", "run", "--quiet")
    assert code == 0, err
    code, out, err = simulate("report", "run", "--profile", name)
    assert code == 0, err
    # the default 11 chips play about 126 turns: past 120 on any sample
    assert "it fails turns at 4p default" in out and "first_seat" in out
    code, out, err = simulate("balance", "no-thanks", "--players", "4", "--vary",
                              "chips.{n}=5,11", "--profile", name, "--games", "200",
                              "--precision", "0.05", "--seed", "1", "--workers", "1",
                              "--out", "b")
    assert code == 0, err
    assert "4p: 1 setting(s) met every target on the search seeds" in out
    assert "\nchips.4=5 " in out and "chips.4=11 " not in out


def test_sequence_stacks_is_searched_at_the_skill_chosen(simulate, tmp_path):
    name = write(tmp_path, "turns = [20, 45]\nseat_gap = [0.0, 0.5]\n")
    code, out, err = simulate("balance", "sequence-stacks", "--players", "3", "--vary",
                              "hand_size=5,8", "--profile", name, "--strategy", "random",
                              "--games", "200", "--precision", "0.05", "--seed", "1",
                              "--workers", "1", "--out", "b")
    assert code == 0, err
    assert "played by random." in out
    assert "turns" in out and "seat_gap" in out
    assert "# The first setting recommended per player count for the targets of profile.toml, " \
           "played by random" in (tmp_path / "b" / "balanced.toml").read_text()
