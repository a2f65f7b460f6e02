"""Every game's commands are built from what the game declares (sim/game.py), a plugin's as a
built-in's: a flag a game cannot use is not offered, and the studies read the declared target."""

from pathlib import Path

import pytest

from sim import games
from sim.game import Target

NO_THANKS = Path(__file__).parents[2] / "examples" / "games" / "no_thanks"


@pytest.fixture
def no_thanks(monkeypatch):
    """Registers the bundled simple-level No Thanks! as `pip install -e` would."""
    monkeypatch.syspath_prepend(str(NO_THANKS))
    monkeypatch.setitem(games.GAMES, "no-thanks", "no_thanks:GAME")


@pytest.mark.parametrize("args, flag", [
    (["no-thanks", "--players", "3", "--forbid", "take"], "--forbid"),
    (["no-thanks", "--players", "3", "--role-strategy", "miner=random"], "--role-strategy"),
    (["trace", "no-thanks", "--players", "3", "--forbid", "take"], "--forbid"),
])
def test_a_simple_level_game_is_offered_no_flag_it_cannot_use(simulate, no_thanks, args, flag):
    code, _, err = simulate(*args)
    assert code == 2 and err.startswith(f"error: No such option: {flag}") and err.count("\n") == 1


def test_a_game_without_roles_is_offered_no_role_strategy_but_still_forbid(simulate):
    code, out, _ = simulate("sequence-stacks", "--help")
    assert code == 0 and "--forbid" in out and "--role-strategy" not in out
    code, out, _ = simulate("saboteur", "--help")
    assert "--role-strategy" in out and "--saboteurs" in out


def test_a_plugins_run_command_plays_it_under_its_registered_name(simulate, no_thanks):
    code, out, err = simulate("no-thanks", "--players", "3", "--games", "5", "--seed", "1",
                              "--workers", "1", "--out", "run")
    assert code == 0, err
    assert out.startswith("No Thanks!: 1 configuration(s) × 5 games, seed 1")


def test_strategies_names_a_simple_level_games_bots_as_python_and_offers_no_forbid(
        simulate, no_thanks):
    code, out, _ = simulate("strategies", "no-thanks")
    assert code == 0
    assert "Families (Python bots of the game's rules module, with random and search):" in out
    assert "built-in jitted" not in out and "--forbid" not in out


def test_an_unknown_game_command_suggests_the_nearest_game(simulate):
    code, _, err = simulate("sabotuer", "--players", "3")
    assert code == 2 and "Did you mean 'saboteur'?" in err


def test_without_target_balance_aims_at_the_target_the_game_declares(simulate, fake_game,
                                                                     monkeypatch):
    # the coin game stands in for saboteur; declared as a two-team game, it is balanced at
    # 50%, not at a seat's fair share (33.3% at 3 players)
    monkeypatch.setattr(type(fake_game), "target",
                        Target(0.5, "heads", "tails", ("the heads", "the tails")), raising=False)
    code, out, err = simulate("balance", "saboteur", "--players", "3", "--vary", "flips=1,2",
                              "--precision", "0.05", "--games", "400", "--seed", "3",
                              "--workers", "1", "--out", "b")
    assert code == 0, err
    assert "50.0%" in out and "33.3%" not in out


def test_the_reports_read_the_declared_target_and_its_sides(fake_game, monkeypatch):
    from types import SimpleNamespace

    from reports.sections import ReportContext
    from sim.game import target_of

    balance = ReportContext.balance.fget  # what every table and the Answer compare with
    assert balance(SimpleNamespace(game=fake_game)).at([3])[0] == pytest.approx(1 / 3)
    assert target_of(fake_game).named() == ("the first player", "the other players")
    monkeypatch.setattr(type(fake_game), "target", Target(0.5, "heads", "tails"), raising=False)
    assert balance(SimpleNamespace(game=fake_game)).at([3])[0] == 0.5
    assert target_of(fake_game).named() == ("heads", "tails")
