"""The report section "Balance across skill levels": conclusions per rung, the flags where they
change, and the section on a real ladder run."""

import polars as pl

from reports.ladder import conclusion, flags, target

WORDS = ("miners favoured", "saboteurs favoured")


def frame(rows):
    return pl.DataFrame(rows, orient="row", schema=["players", "rung", "conclusion"])


def test_a_rate_off_target_is_a_conclusion_only_when_significant():
    assert conclusion(0.62, 0.5, 0.001, WORDS) == "miners favoured"
    assert conclusion(0.41, 0.5, 0.01, WORDS) == "saboteurs favoured"
    assert conclusion(0.62, 0.5, 0.2, WORDS) == "no clear advantage"
    assert conclusion(0.62, 0.5, float("nan"), WORDS) == "n/a"


def test_the_target_is_half_for_a_team_and_a_fair_share_for_a_seat():
    assert target("saboteur", 7) == 0.5
    assert target("deep-space", 4) == 0.25


def test_a_conclusion_that_flips_between_rungs_is_flagged_as_a_change_of_sign():
    found = flags(frame([(4, "random", "saboteurs favoured"), (4, "default", "miners favoured"),
                         (5, "random", "miners favoured"), (5, "default", "miners favoured")]))
    assert found["players"].to_list() == [4]
    assert found["flag"].to_list() == ["changes sign"]
    assert "random: saboteurs favoured; default: miners favoured" in found["conclusion by rung"][0]


def test_a_conclusion_that_holds_at_one_rung_only_is_flagged_as_a_change_of_significance():
    found = flags(frame([(3, "random", "no clear advantage"), (3, "default", "miners favoured"),
                         (3, "search", "miners favoured")]))
    assert found.rows() == [(3, "changes significance",
                             "random: no clear advantage; default: miners favoured; "
                             "search: miners favoured")]


def test_conclusions_that_agree_or_cannot_be_tested_raise_no_flag():
    assert flags(frame([(2, "random", "no clear advantage"), (2, "default", "no clear advantage"),
                        (3, "random", "n/a"), (3, "default", "miners favoured")])).is_empty()


def test_a_ladder_run_reports_every_rung_with_what_its_bots_exercise(simulate, tmp_path):
    code, _, err = simulate("ladder", "deep-space", "--players", "2-3", "--games", "30",
                            "--rungs", "random,default", "--seed", "3", "--workers", "1",
                            "--out", "lad", "--quiet")
    assert code == 0, err
    code, _, err = simulate("report", "lad")
    assert code == 0, err
    text = (tmp_path / "lad" / "report" / "report.md").read_text()
    part = text.split("Balance across skill levels", 1)[1]
    assert "by rung" in part and "What the bots exercise" in part
    assert (tmp_path / "lad" / "report" / "charts" / "balance_by_rung.png").is_file()
    for rung in ("random", "default"):
        assert f"| {rung} " in part


def test_a_run_without_rungs_has_no_ladder_section(simulate, tmp_path):
    code, _, err = simulate("deep-space", "--players", "2", "--games", "20", "--seed", "3",
                            "--workers", "1", "--out", "one", "--quiet")
    assert code == 0, err
    simulate("report", "one")
    assert "Balance across skill levels" not in (tmp_path / "one" / "report" / "report.md").read_text()
