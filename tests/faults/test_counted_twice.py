"""`simulate report` never counts one game twice: two folders holding a game of the same seed,
configuration and index (a copy, a link, a folder given twice, the run played again, a longer
run of the same seed) are refused in one line naming both; runs that share no game pool."""

import os
import shutil

import pytest

RUN = ["saboteur", "--games", 300, "--chunk-size", 100, "--workers", 1, "--quiet"]


@pytest.fixture
def first(simulate, tmp_path):
    """Gives the folder of a finished 5-player run of 300 games, seed 11."""
    code, _, err = simulate(*RUN, "--seed", 11, "--players", 5, "--out", "a")
    assert code == 0, err
    return tmp_path / "a"


def refused(simulate, *folders):
    """Gives the one line `report` refuses the folders with (exit 2, nothing written)."""
    code, out, err = simulate("report", *folders, "--out", "together")
    assert code == 2, out + err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert not os.path.exists("together/report.md")
    return err.strip()


def test_a_copy_of_a_run_is_refused(simulate, first, tmp_path):
    shutil.copytree(first, tmp_path / "b")
    assert refused(simulate, "a", "b") == (
        "error: a and b hold 300 of the same games (seed 11, 5 players, the same rules and "
        "bots; game 0 to 299 of the configuration): a report would count them twice; leave "
        "one of the folders out")


def test_a_link_to_a_run_is_refused_as_the_same_folder(simulate, first, tmp_path):
    (tmp_path / "link").symlink_to(first, target_is_directory=True)
    assert refused(simulate, "a", "link") == (
        "error: a and link are the same run folder: a report would count its games twice; "
        "give it once")


@pytest.mark.parametrize("second", ["a", "./a/", "{tmp}/a"])
def test_a_folder_given_twice_is_refused(simulate, first, tmp_path, second):
    said = refused(simulate, "a", second.format(tmp=tmp_path))
    assert said.startswith("error: a and ") and "are the same run folder" in said


def test_a_run_played_again_with_the_same_seed_and_configuration_is_refused(simulate, first):
    code, _, err = simulate(*RUN, "--seed", 11, "--players", 5, "--out", "again")
    assert code == 0, err
    assert "a and again hold 300 of the same games" in refused(simulate, "a", "again")


def test_a_longer_run_of_the_same_seed_overlaps_partly_and_is_refused(simulate, first):
    """Games 0-299 of a 500-game run of seed 11 are the shorter run's games, whatever its
    chunks (250 here) and whatever index its configuration has in the run (5 players comes
    second of 3,5)."""
    longer = ["saboteur", "--games", 500, "--chunk-size", 250, "--seed", 11, "--workers", 1,
              "--quiet", "--players", "3,5", "--out", "longer"]
    code, _, err = simulate(*longer)
    assert code == 0, err
    assert refused(simulate, "longer", "a") == (
        "error: longer and a hold 300 of the same games (seed 11, 5 players, the same rules "
        "and bots; game 0 to 299 of the configuration): a report would count them twice; "
        "leave one of the folders out")


@pytest.mark.parametrize("other", [["--seed", 12, "--players", 5],
                                   ["--seed", 11, "--players", 5, "--strategy", "random"],
                                   ["--seed", 11, "--players", 5, "--set", "flips=7"],
                                   ["--seed", 11, "--players", 4]],
                         ids=["seed", "bots", "rules", "players"])
def test_runs_sharing_no_game_are_reported_together(simulate, first, tmp_path, other):
    code, _, err = simulate(*RUN, *other, "--out", "b")
    assert code == 0, err
    code, _, err = simulate("report", "a", "b", "--out", "together")
    assert code == 0, err
    assert "n = 600 games" in (tmp_path / "together" / "report.md").read_text()
