"""A designer's profile: its file checked key by key, each target's verdict decided by its 95%
interval, the figures measured as the report's tables state them, `report --profile`."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from reports import profile
from sim.errors import UserError


def write(tmp_path, text: str):
    path = tmp_path / "profile.toml"
    path.write_text(text)
    return path


def test_a_profile_reads_its_targets_in_the_files_order(tmp_path):
    found = profile.load(write(tmp_path, "[targets]\nturns = [10, 200]\n"
                                          "first_seat = [0.40, 0.60]  # the first seat\n"))
    assert found.targets == {"turns": (10.0, 200.0), "first_seat": (0.4, 0.6)}
    assert found.name == "profile.toml"


@pytest.mark.parametrize("text, message", [
    ("[targets]\nfirst_set = [0.4, 0.6]\n",
     "unknown target 'first_set' (did you mean first_seat?)"),
    ("[targets]\nfirst_seat = [0.6, 0.4]\n", "first_seat takes [LOW, HIGH], two numbers"),
    ("[targets]\nfirst_seat = 0.5\n", "first_seat takes [LOW, HIGH]"),
    ("[targets]\nturns = [10, \"x\"]\n", "turns takes [LOW, HIGH]"),
    ("[targets]\nheadline = [0.4, 60]\n", "headline is a share: its range lies within [0, 1]"),
    ("[targets]\n", "no targets; write them under [targets]"),
    ("first_seat = [0.4, 0.6]\n", "unknown table or key 'first_seat'"),
    ("[targets\n", "not a TOML file"),
])
def test_a_bad_profile_is_one_line_naming_the_file_and_the_key(tmp_path, text, message):
    with pytest.raises(UserError) as e:
        profile.load(write(tmp_path, text))
    assert message in str(e.value) and "profile.toml" in str(e.value)
    assert "\n" not in str(e.value)


def test_a_missing_profile_file_is_one_line(tmp_path):
    with pytest.raises(UserError, match="cannot read .*nowhere.toml"):
        profile.load(tmp_path / "nowhere.toml")


@pytest.mark.parametrize("low, high, said", [
    (0.45, 0.55, profile.MET),        # inside the range
    (0.40, 0.60, profile.MET),        # on its bounds: inside
    (0.61, 0.70, profile.MISSED),     # wholly above
    (0.30, 0.39, profile.MISSED),     # wholly below
    (0.55, 0.65, profile.UNTOLD),     # across the upper bound
    (0.30, 0.70, profile.UNTOLD),     # wider than the range
    (math.nan, math.nan, profile.UNTOLD),
])
def test_a_target_is_met_or_missed_only_when_its_interval_says_so(low, high, said):
    assert profile.verdict(low, high, (0.40, 0.60)) == said


def test_the_distance_is_zero_inside_and_in_range_widths_outside():
    assert profile.distance("first_seat", (0.4, 0.6), 0.5) == 0
    assert profile.distance("first_seat", (0.4, 0.6), 0.7) == pytest.approx(0.5)
    assert profile.distance("turns", (10, 20), 5) == pytest.approx(0.5)
    assert profile.distance("turns", (10, 20), math.nan) == math.inf


class Seats:
    """Stands in for a ReportContext over in-memory tables (the measures read `scan` and
    `collect` only)."""

    def __init__(self, seats: pl.DataFrame | None = None, games: pl.DataFrame | None = None,
                 game=None):
        self.tables = {"seats": seats, "games": games}
        self.game = game

    def scan(self, table, columns=None, slab=None):
        return self.tables[table].lazy()

    def collect(self, lf, table):
        return lf.collect()


def seats_of(wins: list[int], games: int) -> pl.DataFrame:
    """Gives a seats table of one configuration whose seat k wins wins[k] of `games`."""
    rows = [(k, g < w) for k, w in enumerate(wins) for g in range(games)]
    return pl.DataFrame({"configuration": "2p", "seat": [r[0] for r in rows],
                         "won": [r[1] for r in rows]})


def test_the_seat_gap_interval_holds_every_seat_in_its_adjusted_interval():
    from reports.stats import wilson_arrays

    frame = profile.seat_gap(Seats(seats_of([600, 400, 500], 1000)))
    low, high = wilson_arrays(np.array([600.0, 400, 500]), np.array([1000.0] * 3), 0.05 / 3)
    assert frame.row(0) == ("2p", pytest.approx(0.2), pytest.approx(low[0] - high[1]),
                            pytest.approx(high[0] - low[1]))


def test_a_seat_gap_no_interval_separates_starts_at_zero():
    frame = profile.seat_gap(Seats(seats_of([50, 49], 100)))
    assert frame["low"][0] == 0.0 and frame["estimate"][0] == pytest.approx(0.01)


def test_the_first_seat_is_seat_zero_and_a_rolled_starter_has_none():
    class Rolled:
        rolled_starter = True

    frame = profile.first_seat(Seats(seats_of([70, 30], 100), game=object()))
    assert frame["estimate"][0] == pytest.approx(0.7)
    assert frame["low"][0] < 0.7 < frame["high"][0]
    with pytest.raises(profile.Unmeasured, match="rolls who starts"):
        profile.first_seat(Seats(seats_of([70, 30], 100), game=Rolled()))


def test_turns_is_the_mean_with_a_t_interval():
    from scipy import stats

    turns = [10, 12, 14, 20]
    frame = profile.turns(Seats(games=pl.DataFrame({"configuration": "2p", "turns": turns})))
    half = stats.t.ppf(0.975, 3) * np.std(turns, ddof=1) / 2
    assert frame.row(0) == ("2p", 14.0, pytest.approx(14 - half), pytest.approx(14 + half))


def test_a_key_whose_function_is_missing_is_unmeasured_with_why(monkeypatch):
    monkeypatch.setitem(profile.KEYS, "leader_at_half_wins",
                        profile.Key("x", "reports.no_such_module:leader_at_half_wins"))
    with pytest.raises(profile.Unmeasured, match="needs reports.no_such_module.leader_at_half"):
        profile.measure(Seats(), "leader_at_half_wins")


def test_a_measure_refusing_the_runs_is_unmeasured_with_its_line(monkeypatch):
    def needs_a_ladder(ctx):
        raise UserError("skill expression needs a ladder's runs")

    monkeypatch.setattr(profile, "needs_a_ladder", needs_a_ladder, raising=False)
    monkeypatch.setitem(profile.KEYS, "skill_expression",
                        profile.Key("x", "reports.profile:needs_a_ladder"))
    with pytest.raises(profile.Unmeasured, match="needs a ladder's runs"):
        profile.measure(Seats(), "skill_expression")


def checked(rows: list[tuple], unmeasured=None) -> profile.Checked:
    targets = {r[0]: (r[5], r[6]) for r in rows}
    frame = pl.DataFrame(rows, orient="row", schema=[
        "target", "configuration", "estimate", "low", "high", "target low", "target high"])
    frame = frame.with_columns(pl.Series("verdict", [
        profile.verdict(r[3], r[4], (r[5], r[6])) for r in rows]))
    return profile.Checked(profile.Profile(profile.Path("p.toml"), targets), frame,
                           unmeasured or {})


def test_the_answer_names_the_targets_missed_untold_met_and_unmeasured():
    said = profile.sentence(checked([
        ("first_seat", "4p default", 0.66, 0.62, 0.70, 0.4, 0.6),
        ("turns", "4p default", 50.0, 48.0, 52.0, 10.0, 200.0),
        ("stalled", "4p default", 0.01, 0.0, 0.03, 0.0, 0.02),
        ("stalled", "5p default", 0.01, 0.0, 0.03, 0.0, 0.02)],
        {"skill_expression": "it needs a ladder"}))
    assert said == (
        "Against the profile p.toml: it fails first_seat at 4p default: 66.0% [62.0, 70.0], "
        "target 40–60%; these games cannot tell for stalled at 4p default, 5p default; met in "
        "every configuration: turns; not measured: skill_expression (it needs a ladder).")


def test_the_answer_says_when_no_target_is_missed():
    said = profile.sentence(checked([("turns", "2p", 50.0, 48.0, 52.0, 10.0, 200.0)]))
    assert said == ("Against the profile p.toml: no target is missed; met in every "
                    "configuration: turns.")


def test_the_answer_says_when_no_target_is_measured():
    found = checked([], {"skill_expression": "it needs a ladder"})
    assert profile.sentence(found) == (
        "Against the profile p.toml: none of its targets is measured on these runs; not "
        "measured: skill_expression (it needs a ladder).")


class Counted(Seats):
    """The stand-in with configurations of 2 and 4 players and a headline whose target is a
    fair share."""

    configs = pl.DataFrame({"configuration": ["2p", "4p"], "cfg_players": [2, 4]})

    def target_at(self, players):
        return 1 / np.asarray(players, float)


def test_the_first_seat_against_a_fair_share_takes_each_player_counts_share():
    seats = pl.concat([seats_of([70, 30], 100),
                       seats_of([40, 20, 20, 20], 100).with_columns(configuration=pl.lit("4p"))])
    frame = profile.first_seat_vs_fair(Counted(seats, game=object())).sort("configuration")
    plain = profile.first_seat(Seats(seats, game=object())).sort("configuration")
    assert frame["estimate"].to_list() == pytest.approx([0.7 - 0.5, 0.4 - 0.25])
    share = np.array([0.5, 0.25])
    assert frame["low"].to_numpy() == pytest.approx(plain["low"].to_numpy() - share)
    assert frame["high"].to_numpy() == pytest.approx(plain["high"].to_numpy() - share)


def test_the_headline_against_its_target_takes_each_player_counts_target(monkeypatch):
    monkeypatch.setattr(profile, "headline", lambda ctx: pl.DataFrame({
        "configuration": ["4p", "2p"], "estimate": [0.3, 0.55], "low": [0.28, 0.5],
        "high": [0.32, 0.6]}))
    frame = profile.headline_vs_target(Counted())
    assert frame.rows() == [("4p", pytest.approx(0.05), pytest.approx(0.03), pytest.approx(0.07)),
                            ("2p", pytest.approx(0.05), pytest.approx(0.0), pytest.approx(0.1))]


def test_a_difference_of_shares_takes_a_range_within_minus_one_and_one(tmp_path):
    found = profile.load(write(tmp_path, "[targets]\nfirst_seat_vs_fair = [-0.05, 0.05]\n"))
    assert found.targets == {"first_seat_vs_fair": (-0.05, 0.05)}
    with pytest.raises(UserError, match=r"a difference of shares: its range lies within \[-1, 1\]"):
        profile.load(write(tmp_path, "[targets]\nheadline_vs_target = [-2, 0.05]\n"))
    assert profile.bounds_text("first_seat_vs_fair", -0.05, 0.05) == "-5 to 5 points"
    assert profile.figure("first_seat_vs_fair", 0.012) == "+1.2 points"
