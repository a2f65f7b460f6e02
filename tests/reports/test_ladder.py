"""The report section "Balance across skill levels": conclusions per rung, the flags where they
change, and the section on a real ladder run."""

import polars as pl


def test_two_rungs_depend_on_skill_only_where_their_intervals_establish_a_change():
    from reports.ladder import across, shift

    # issue 40: the same bot under two names, "balanced within ±2" against "favours saboteurs
    # by 1.4 [0.1, 2.7]", difference +0.6 [-1.2, +2.5]: the categories differ, the rates
    # need not
    assert shift((-0.015, 0.012), (-0.027, -0.001), -0.012, 0.025) == ""
    assert across((-0.015, 0.012), (-0.027, -0.001), -0.012, 0.025) == "not settled"
    assert shift((0.01, 0.05), (-0.05, -0.03), -0.09, -0.05) == "changes sign"
    assert shift((-0.01, 0.015), (0.03, 0.06), 0.01, 0.06) == "leaves the band"
    assert shift((0.10, 0.14), (0.13, 0.18), 0.021, 0.05) == "moves by more than ±2 points"
    assert across((0.10, 0.14), (0.13, 0.18), 0.021, 0.05) == "depends on skill"


def test_two_rungs_are_stable_where_their_difference_lies_within_two_points():
    from reports.ladder import across

    assert across((0.03, 0.08), (0.035, 0.08), -0.01, 0.015) == "stable"
    assert across((-0.01, 0.01), (-0.012, 0.01), -0.02, 0.02) == "stable"
    assert across((-0.01, 0.01), (-0.012, 0.01), -0.03, 0.01) == "not settled"


def test_flags_are_the_steps_whose_intervals_establish_a_change():
    from reports.ladder import flags

    steps = pl.DataFrame([(4, "random", "default", "favours saboteurs by 3.0 points [1.0, 5.0]",
                           "favours miners by 4.0 points [2.0, 6.0]", "changes sign"),
                          (5, "random", "default", "balanced within ±2 points",
                           "favours miners by 1.4 points [0.1, 2.7]", "")], orient="row",
                         schema=["players", "lower rung", "top rung", "lower rung's verdict",
                                 "top rung's verdict", "change"])
    assert flags(steps).rows() == [(4, "random", "default", "changes sign",
                                    "random: favours saboteurs by 3.0 points [1.0, 5.0]; "
                                    "default: favours miners by 4.0 points [2.0, 6.0]")]


def ladder_section(simulate, tmp_path, *args):
    """Gives the section "Balance across skill levels" of a deep-space ladder run (None when
    the report has none)."""
    from reports import runs
    from reports.ladder import balance_across_skill
    from reports.sections import ReportContext

    code, _, err = simulate("ladder", "deep-space", "--seed", "3", "--workers", "1",
                            "--out", "lad", "--quiet", *args)
    assert code == 0, err
    opened = runs.open_runs([tmp_path / "lad"])
    return balance_across_skill(ReportContext(opened, runs.game_named("deep-space"),
                                              tmp_path / "charts"))


def test_a_ladder_run_reports_every_rung_with_what_its_bots_exercise(simulate, tmp_path):
    section = ladder_section(simulate, tmp_path, "--players", "2-3", "--games", "30",
                             "--rungs", "random,default")
    head, *_, uses = section.tables
    assert head.frame.select("players", "rung").rows() == [
        (2, "random"), (2, "default"), (3, "random"), (3, "default")]
    assert head.frame["target"].to_list() == [0.5, 0.5, 1 / 3, 1 / 3]
    assert uses.title.startswith("What the bots exercise")
    assert uses.frame.columns[:4] == ["players", "rung", "games", "move"]  # then kinds only
    assert "strategy" not in uses.frame.columns
    # random play moves far more than the default bots on the same deals
    moves = dict(uses.frame.filter(pl.col("players") == 2).select("rung", "move").rows())
    assert moves["random"] > moves["default"] > 0
    assert head.chart.is_file()
    # each point of the chart is one rung at one count: its caption says so, not the total
    assert head.chart_caption.startswith("n = 120 games in all, 30 per point;")


def test_a_run_without_rungs_has_no_ladder_section(simulate, tmp_path):
    from reports import report  # noqa: F401  (which registers the section)
    from reports.ladder import balance_across_skill
    from reports.sections import COMMON

    assert balance_across_skill in COMMON
    assert ladder_section(simulate, tmp_path, "--players", "2-3", "--games", "10",
                          "--rungs", "default") is None


def test_rungs_played_in_separate_runs_of_one_seed_make_one_ladder(simulate, tmp_path):
    from reports import runs
    from reports.ladder import balance_across_skill
    from reports.sections import ReportContext

    for rung in ("default", "random"):  # the stronger rung played first, in a run of its own
        code, _, err = simulate("ladder", "deep-space", "--players", "2", "--games", "10",
                                "--rungs", rung, "--seed", "3", "--workers", "1",
                                "--out", rung, "--quiet")
        assert code == 0, err
    opened = runs.open_runs([tmp_path / "default", tmp_path / "random"])
    section = balance_across_skill(ReportContext(opened, runs.game_named("deep-space"),
                                                 tmp_path / "charts"))
    # in ladder order, weakest first, whatever the order of the folders
    assert section.tables[0].frame.select("players", "rung", "strategy", "games").rows() == [
        (2, "random", "random", 10), (2, "default", "default", 10)]


def test_a_ladder_report_leads_with_whether_each_player_counts_verdict_is_stable(simulate,
                                                                                 tmp_path):
    section = ladder_section(simulate, tmp_path, "--players", "2-3", "--games", "30",
                             "--rungs", "random,default")
    stable = next(t for t in section.tables if t.title.startswith("Is the verdict stable"))
    assert stable.frame.select("players", "lower rung", "top rung", "paired deals").rows() == [
        (2, "random", "default", 30), (3, "random", "default", 30)]
    words = stable.frame["across the top two rungs"].to_list()
    assert set(words) <= {"stable", "depends on skill", "not settled"}
    assert section.text.startswith("At 2 players ")
    assert section.text.count("At ") >= 2


def test_a_rung_is_named_with_the_preset_it_plays_unless_that_is_its_familys_defaults():
    from reports.ladder import rung_label
    from sim import games

    saboteur = games.get("saboteur")
    assert rung_label(saboteur, "random", "random") == "random"
    assert rung_label(saboteur, "default", "default") == "default"
    # the search rung plays the search family's `search` preset, not the family's defaults
    assert rung_label(saboteur, "search", "search") == "search (preset search)"
    assert rung_label(saboteur, "tuned", "tuned-saboteur-7p") == "tuned (preset tuned-saboteur-7p)"
    assert rung_label(saboteur, "naive-miners", "naive-miners") == "naive-miners"


def tuned_file(tmp_path, low):
    """Writes tuned.toml: a preset of deep-space's default family whose [tuning] table records
    a held-out gain of 0.1 points with its interval from `low` to +2.2 points."""
    (tmp_path / "tuned.toml").write_text(
        '[preset.tuned-deep]\nfamily = "default"\nnoise = 0.5\n\n[tuning.tuned-deep]\n'
        f'held_out = [{{ tuned = "one seat", games = 100, gain = 0.001, low = {low}, '
        'high = 0.022, p = 0.9 }]\n')


def test_a_tuned_rung_without_a_held_out_gain_is_named_tuned_equals_default_not_a_rung(
        simulate, tmp_path):
    tuned_file(tmp_path, -0.02)
    section = ladder_section(simulate, tmp_path, "--players", "2", "--games", "20",
                             "--rungs", "random,default,tuned", "--tuned", "tuned.toml")
    head = section.tables[0].frame
    assert head.select("players", "rung").rows() == [(2, "random"), (2, "default")]
    stable = next(t for t in section.tables if t.title.startswith("Is the verdict stable"))
    assert stable.frame.select("lower rung", "top rung").rows() == [("random", "default")]
    equal = next(t for t in section.tables if t.title == "Tuned rungs equal to default")
    assert equal.frame.select("players", "rung", "strategy", "vs start").rows() == [
        (2, "tuned = default", "tuned-deep", 0.001)]
    assert "At 2 players tuned = default: held-out gain +0.1 pp [-2.0, +2.2]." in section.text
    # the rungs' order first (not measured: no head-to-head games), then the stability
    order, _, rest = section.text.partition(" the runs' order), not by measured strength: ")
    assert order == ("At 2 players the rungs are in the order named (random, default, tuned, "
                     "search, then")
    assert rest.partition(". ")[2].startswith(("At 2 players it is not settled",
                                              "At 2 players the verdict"))


def test_a_tuned_rung_with_a_held_out_gain_is_the_ladders_top_rung_named_by_its_preset(
        simulate, tmp_path):
    tuned_file(tmp_path, 0.0005)
    section = ladder_section(simulate, tmp_path, "--players", "2", "--games", "20",
                             "--rungs", "random,default,tuned", "--tuned", "tuned.toml")
    assert section.tables[0].frame.select("rung", "strategy").rows() == [
        ("random", "random"), ("default", "default"), ("tuned (preset tuned-deep)", "tuned-deep")]
    stable = next(t for t in section.tables if t.title.startswith("Is the verdict stable"))
    assert stable.frame.select("lower rung", "top rung").rows() == [
        ("default", "tuned (preset tuned-deep)")]
    assert "tuned = default" not in section.text


def test_the_answer_of_a_ladder_states_the_top_rungs_verdict_at_every_player_count(simulate,
                                                                                   tmp_path):
    """Each player count's ladder in a run of its own: the Answer reads every count's top rung
    (it read the last count's alone)."""
    from reports import answer, runs
    from reports.sections import ReportContext

    for players in (2, 3):
        code, _, err = simulate("ladder", "deep-space", "--seed", "3", "--workers", "1",
                                "--out", f"lad{players}", "--quiet", "--players", str(players),
                                "--games", "30", "--rungs", "random,default")
        assert code == 0, err
    ctx = ReportContext(runs.open_runs([tmp_path / "lad2", tmp_path / "lad3"]),
                        runs.game_named("deep-space"), tmp_path / "charts")
    verdict = answer.sentences(ctx, [])[0]
    assert verdict.startswith("Against its target (a fair share, 1 / players) for the first "
                              "player's win rate, at the top rung, default: ")
    assert " 2 " in verdict.replace(",", " ") and " 3 " in verdict.replace(",", " ")


def test_a_tuning_significantly_worse_than_its_start_is_called_so():
    from reports.ladder import Rung, _same_as_default

    # issue 40: the shipped 7-player tuning's held-out gain -0.4 [-0.7, -0.1]
    worse = Rung(7, "tuned", "7p tuned", 5, "tuned-saboteur-7p", held_out=(
        {"tuned": "saboteurs", "gain": -0.004, "low": -0.007, "high": -0.001},))
    level = Rung(4, "tuned", "4p tuned", 5, "tuned-saboteur-4p", held_out=(
        {"tuned": "saboteurs", "gain": 0.001, "low": -0.009, "high": 0.01},))
    _, said = _same_as_default([worse, level])
    assert ("At 7 players tuned = default: held-out gain -0.4 pp [-0.7, -0.1]; the tuning is "
            "significantly worse than its start (a 95% interval below 0).") in said
    assert "At 4 players tuned = default: held-out gain +0.1 pp [-0.9, +1.0]." in said


def test_a_configuration_left_out_of_the_rungs_is_told_why():
    from reports.ladder import Rung, _why_not

    ladder = [Rung(7, "default", "7p default", 1, "default"),
              Rung(7, "search", "7p search", 3, "search")]
    assert _why_not(Rung(7, "default", "7p saboteurs=2 default", 9, "default"), ladder) == (
        "it differs from the rungs at 7 players in its options or rules (a rung differs from "
        "the others in its bots only)")
    assert _why_not(Rung(5, "default", "5p default", 9, "default"), ladder) == (
        "no rung plays 5 players")
