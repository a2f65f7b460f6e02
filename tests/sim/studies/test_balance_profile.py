"""`simulate balance --profile` and `simulate report --profile`: every target of a designer's
profile searched at once, the settings meeting them or the Pareto set, on fresh seeds; the
report's check of each target and the Answer's sentence.

The coin game at 2 players (tests/sim/fake_game.py): seat 0 wins ties, so its win rate is 75%
at 1 flip, 68.75% at 2, 63.7% at 4; a game lasts flips × players turns."""

import json

import pytest

from sim.studies import balance_profile


@pytest.fixture
def simulate(fake_game, simulate):
    return simulate


def profile(tmp_path, text: str, name: str = "profile.toml") -> str:
    (tmp_path / name).write_text("[targets]\n" + text)
    return name


def search(simulate, *more):
    return simulate("balance", "fake", "--players", "2", "--vary", "flips=1,2,4",
                    "--precision", "0.03", "--games", "3000", "--seed", "3", "--workers", "1",
                    "--out", "b", *more)


def rows(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("setting"))
    return [line for line in lines[start + 2:] if line.strip() and not line.startswith("wrote")]


def test_the_one_setting_meeting_every_target_is_recommended_and_checked_on_fresh_seeds(
        simulate, tmp_path):
    # flips=2 alone: 68.75% within 66-72% and 4 turns within 3-5
    name = profile(tmp_path, "first_seat = [0.66, 0.72]\nturns = [3, 5]\n")
    code, out, err = search(simulate, "--profile", name)
    assert code == 0, err
    assert "2p: 1 setting(s) met every target on the search seeds" in out
    found = rows(out)
    assert [r.split()[0] for r in found] == ["flips=2", "flips=2"]
    assert any("turns" in r and "met" in r for r in found)
    assert "\nflips = 2\n" in (tmp_path / "b" / "balanced.toml").read_text()
    fresh = json.loads((tmp_path / "b" / "fresh" / "manifest.json").read_text())["seed"]
    searched = {json.loads((f / "manifest.json").read_text())["seed"]
                for f in (tmp_path / "b" / "search").iterdir()}
    assert fresh not in searched and f"seed {fresh} (never used by the search)" in out
    assert "full scan: 3 setting(s)" in err


def test_conflicting_targets_give_the_pareto_set(simulate, tmp_path):
    # 72-80% needs 1 flip; 6 turns or more needs 3 flips or more: every value is a trade-off
    name = profile(tmp_path, "first_seat = [0.72, 0.80]\nturns = [6, 20]\n")
    code, out, err = search(simulate, "--profile", name)
    assert code == 0, err
    assert ("2p: no setting tried met every target on the search seeds: each target was met "
            "by some setting, never all at once: they conflict") in out
    assert "Pareto set (3 setting(s)" in out
    assert {r.split()[0] for r in rows(out)} == {"flips=1", "flips=2", "flips=4"}


def test_a_target_no_setting_meets_is_named(simulate, tmp_path):
    # 80% or more needs fewer than 1 flip: no value tried gives it
    name = profile(tmp_path, "first_seat = [0.80, 1.0]\nturns = [3, 5]\n")
    code, out, err = search(simulate, "--profile", name)
    assert code == 0, err
    assert "2p: no setting tried met every target on the search seeds: none met first_seat;" in out


def test_a_dominated_setting_is_left_out_of_the_pareto_set():
    def scored(name, *distances):
        return balance_profile.Scored(((name, 1),), None, distances)

    a, b, c = scored("a", 0.0, 1.0), scored("b", 1.0, 0.0), scored("c", 0.5, 1.0)
    assert balance_profile.pareto([a, b, c]) == [a, b]


def test_many_settings_are_searched_by_optuna_for_every_target(simulate, tmp_path):
    name = profile(tmp_path, "first_seat = [0.66, 0.72]\nturns = [3, 5]\n")
    code, out, err = simulate("balance", "fake", "--players", "2", "--vary", "flips=1-20",
                              "--precision", "0.05", "--games", "800", "--trials", "4",
                              "--seed", "3", "--workers", "1", "--out", "b", "--profile", name)
    assert code == 0, err
    assert "Optuna multi-objective TPE, 4 trials of 20 settings" in out
    assert err.count("trial ") == 4


@pytest.mark.parametrize("args, message", [
    (("--target", "0.5"), "--profile sets the targets: give it without --target and --keep"),
    (("--keep", "turns<=9"), "--profile sets the targets"),
])
def test_a_profile_with_target_or_keep_is_refused(simulate, tmp_path, args, message):
    name = profile(tmp_path, "turns = [3, 5]\n")
    code, out, err = search(simulate, "--profile", name, *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "b").exists()


def test_a_bad_profile_is_refused_before_playing(simulate, tmp_path):
    name = profile(tmp_path, "turn = [3, 5]\n")
    code, out, err = search(simulate, "--profile", name)
    assert code == 2 and "unknown target 'turn' (did you mean turns?)" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "b").exists()


def test_a_target_a_search_at_one_skill_cannot_give_is_refused_before_playing(simulate,
                                                                              tmp_path):
    name = profile(tmp_path, "skill_expression = [0.6, 1.0]\n")
    code, out, err = search(simulate, "--profile", name)
    assert code == 2 and "skill_expression cannot be searched: it compares a ladder's" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "b").exists()


def test_a_target_the_search_runs_cannot_measure_is_one_line(simulate, tmp_path, monkeypatch):
    from reports import profile as profiles

    monkeypatch.setitem(profiles.KEYS, "leader_at_half_wins",
                        profiles.Key("x", "reports.no_such_module:leader_at_half_wins"))
    name = profile(tmp_path, "leader_at_half_wins = [0.0, 0.85]\n")
    code, out, err = search(simulate, "--profile", name)
    assert code == 2 and "leader_at_half_wins cannot be searched: it needs" in err
    assert len(err.strip().splitlines()) == 2  # the scan's progress line, then the refusal


def test_report_checks_each_target_and_the_answer_says_which_fail(simulate, tmp_path):
    code, _, err = simulate("fake", "--players", "2", "--set", "flips=1", "--games", "2000",
                            "--seed", "1", "--workers", "1", "--out", "run", "--quiet")
    assert code == 0, err
    name = profile(tmp_path, "first_seat = [0.40, 0.60]\nturns = [1, 10]\n"
                             "seat_gap = [0.0, 0.9]\nleader_at_half_wins = [0.0, 0.85]\n")
    code, out, err = simulate("report", "run", "--profile", name)
    assert code == 0, err
    text = (tmp_path / "run" / "report" / "report.md").read_text()
    assert "## Designer's profile" in text
    answer = text.split("## Designer's profile")[0]
    # 75% [73.1, 76.8]: wholly above 60%
    assert "it fails first_seat at" in answer and "target 40–60%" in answer
    # the progress the game records measures the leader at half-time (reports.plays)
    assert "met in every configuration: turns, seat_gap, leader_at_half_wins." in answer
    assert "Targets of profile.toml by configuration" in out


def test_report_refuses_a_bad_profile_in_one_line(simulate, tmp_path):
    code, _, err = simulate("fake", "--players", "2", "--games", "50", "--seed", "1",
                            "--workers", "1", "--out", "run", "--quiet")
    assert code == 0, err
    name = profile(tmp_path, "first_seat = [0.4, 1.6]\n")
    code, _, err = simulate("report", "run", "--profile", name)
    assert code == 2 and "first_seat is a share" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "run" / "report").exists()


def test_the_python_api_takes_a_profile_for_report_and_balance(simulate, tmp_path):
    from sim import api

    name = profile(tmp_path, "first_seat = [0.66, 0.72]\nturns = [3, 5]\n")
    played = api.run("fake", players=2, games=300, seed=1, workers=1, out=tmp_path / "run",
                     quiet=True)
    folder = api.report(played, profile=tmp_path / name)
    assert "## Designer's profile" in (folder / "report.md").read_text()
    said = api.balance("fake", players=2, vary=["flips=1,2,4"], profile=tmp_path / name,
                       precision=0.05, games=600, seed=3, workers=1, out=tmp_path / "b")
    assert "2p: 1 setting(s) met every target on the search seeds" in said


def test_a_configuration_two_settings_share_plays_once(simulate, tmp_path):
    # flips is played at 2 and 3 players, hand_size.3 only at 3: at 2 players the two
    # settings of each flips value are one configuration, played once, its games not doubled
    name = profile(tmp_path, "turns = [3, 7]\n")
    code, out, err = simulate("balance", "fake", "--players", "2,3", "--vary", "flips=1,2",
                              "--vary", "hand_size.3=5,6", "--precision", "0.05", "--games",
                              "300", "--seed", "3", "--workers", "1", "--out", "b",
                              "--profile", name)
    assert code == 0, err
    from sim.run.store import Run

    setups = Run.open(tmp_path / "b" / "search" / "run-001").setups
    assert len(setups) == 6  # 2 at 2 players + 4 at 3 players, not 8
    # turns are flips × players: flips=1 gives 2 and 3, flips=2 gives 4 and 6
    assert "met every target" in out and "flips=2 hand_size.3=" in out
