"""Skill and luck: the rungs' measured order, skill expression, the upset rate, the deal's share
of the spread of who wins, the empirical game's equilibrium and the dominance sentence, each on
exact small data; and the section on a real ladder played head to head."""

import numpy as np
import polars as pl
import pytest


def h2h_of(rates: dict[tuple[str, str], float], n: int = 100, p: dict | None = None
           ) -> pl.DataFrame:
    """Gives a head-to-head table (reports.head_to_head.head_to_head_of's columns that the
    figures read) of the ordered pairs' rates, each pair's complement filled in."""
    rows = []
    for (a, b), rate in rates.items():
        for s, o, r in ((a, b, rate), (b, a, 1 - rate)):
            pv = (p or {}).get(tuple(sorted((a, b))), 0.001 if rate != 0.5 else 1.0)
            rows.append((s, o, n, r, r - 0.05, r + 0.05, pv))
    return pl.DataFrame(rows, orient="row", schema={
        "strategy": pl.Utf8, "opponent": pl.Utf8, "n": pl.Int64, "rate": pl.Float64,
        "low": pl.Float64, "high": pl.Float64, "p": pl.Float64})


def test_rungs_are_ordered_by_measured_strength_not_by_name():
    from reports.strength import BEATS, UNSHOWN, measured_order, steps

    h2h = h2h_of({("search", "default"): 0.3, ("search", "random"): 0.9,
                  ("default", "random"): 0.95}, p={("default", "search"): 0.2})
    order = measured_order(h2h.with_columns(wins=pl.lit(0), ties=pl.lit(0), losses=pl.lit(0)))
    assert order == ["random", "search", "default"]
    said = steps(h2h, order)
    assert said.select("rung", "rung below", "against the rung below").rows() == [
        ("search", "random", BEATS), ("default", "search", UNSHOWN)]
    assert said["rate"].to_list() == pytest.approx([0.9, 0.7])


def test_a_rung_that_beats_the_one_below_significantly_the_wrong_way_loses_to_it():
    from reports.strength import LOSES, steps

    # a cycle: b beats a, c beats b, a beats c; the order given has c above a
    h2h = h2h_of({("b", "a"): 0.8, ("c", "b"): 0.8, ("a", "c"): 0.8})
    assert steps(h2h, ["a", "c"])["against the rung below"].to_list() == [LOSES]


def test_the_upset_rate_is_the_weaker_rungs_mean_score_per_deal():
    from reports.skill import upset_rate

    # two deals; pairs (weak, mid), (weak, strong), (mid, strong): weaker scores per deal
    # deal 0: 0, 0.5, 1 -> 0.5; deal 1: 0, 0, 0.5 -> 1/6
    rows = []
    for deal, scores in ((0, (0.0, 0.5, 1.0)), (1, (0.0, 0.0, 0.5))):
        for (a, b), s in zip((("weak", "mid"), ("weak", "strong"), ("mid", "strong")), scores):
            rows += [(0, deal, a, b, s), (0, deal, b, a, 1 - s)]
    deals = pl.DataFrame(rows, orient="row", schema=["run", "deal", "strategy", "opponent",
                                                     "score"])
    said = upset_rate(deals, ["weak", "mid", "strong"])
    assert said["n"] == 2
    assert said["estimate"] == pytest.approx((0.5 + 1 / 6) / 2)
    half = 12.706204736 * np.std([0.5, 1 / 6], ddof=1) / np.sqrt(2)  # t(1) 97.5%
    assert said["low"] == pytest.approx(said["estimate"] - half)
    assert said["high"] == pytest.approx(said["estimate"] + half)


def test_the_deal_decides_everything_when_every_rung_wins_the_same_seat_on_it():
    from reports.skill import deal_share

    # deals × rungs × seats: on each deal every rung's game is won by the same seat
    winner = np.array([0, 1, 1, 0, 2, 1])
    won = np.zeros((6, 3, 3))
    won[np.arange(6), :, winner] = 1
    said = deal_share(won, resamples=200)
    assert said["estimate"] == pytest.approx(1.0)
    assert said["deals"] == 6 and said["low"] == pytest.approx(1.0)


def test_the_deal_says_nothing_when_every_deal_gives_each_seat_the_same_share():
    from reports.skill import deal_share

    # three rungs on each deal, each won by a different seat: every deal's seat means are 1/3
    won = np.tile(np.eye(3)[None], (4, 1, 1))
    won[1] = won[1][::-1]
    assert deal_share(won, resamples=50)["estimate"] == pytest.approx(0.0)


def test_the_deals_share_is_the_analysis_of_variance_between_and_within_deals():
    from reports.skill import deal_share

    # one seat, two rungs, three deals: y = [[1,1],[1,0],[0,0]]; deal means 1, .5, 0
    won = np.array([[[1.0], [1.0]], [[1.0], [0.0]], [[0.0], [0.0]]])
    msb = 2 * ((1 - 0.5) ** 2 + 0 + 0.5 ** 2) / 2          # k · Σ(ȳd − ȳ)² / (D − 1)
    msw = (0 + 0.5 + 0) / (3 * 1)                           # Σ within / (D (k − 1))
    deal = (msb - msw) / 2
    assert deal_share(won, resamples=20)["estimate"] == pytest.approx(deal / (deal + msw))


def test_the_equilibrium_of_rock_paper_scissors_mixes_evenly_and_a_dominant_one_is_pure():
    from reports.equilibrium import nash

    cycle = np.array([[0.5, 0.7, 0.3], [0.3, 0.5, 0.7], [0.7, 0.3, 0.5]])
    assert nash(cycle) == pytest.approx([1 / 3] * 3, abs=1e-6)
    ladder = np.array([[0.5, 0.4, 0.1], [0.6, 0.5, 0.2], [0.9, 0.8, 0.5]])
    assert nash(ladder) == pytest.approx([0, 0, 1], abs=1e-9)


def test_the_equilibrium_is_bootstrapped_over_deals():
    from reports.equilibrium import deal_matrix, equilibrium

    # b beats a on 9 deals of 10, loses one: b alone in (almost) every resample
    rows = [(0, d, "b", "a", 0.0 if d == 0 else 1.0) for d in range(10)]
    rows += [(0, d, "a", "b", 1 - s) for _, d, _, _, s in rows]
    deals = pl.DataFrame(rows, orient="row", schema=["run", "deal", "strategy", "opponent",
                                                     "score"])
    scores = deal_matrix(deals, ["a", "b"])
    assert scores.shape == (10, 2, 2) and scores[0, 1, 0] == 0.0 and scores[3, 0, 1] == 0.0
    found = equilibrium(scores, ["a", "b"], resamples=200)
    assert found["weight"].to_list() == pytest.approx([0, 1])
    assert found["played in"][1] == 1.0 and found["played in"][0] < 0.05


def test_a_strategy_beating_every_other_is_named_only_when_every_test_shows_it():
    from reports.equilibrium import dominance_sentence, dominant

    weights = pl.DataFrame({"strategy": ["a", "b", "c"], "weight": [0.0, 1.0, 0.0],
                            "low": [0.0, 1.0, 0.0], "high": [0.0, 1.0, 0.0],
                            "played in": [0.0, 1.0, 0.0]})
    shown = h2h_of({("b", "a"): 0.62, ("b", "c"): 0.9, ("a", "c"): 0.6})
    assert dominant(shown) == "b"
    said = dominance_sentence(shown, weights)
    assert said.startswith("Is there a strategy that beats all the others? Yes: b beats each "
                           "of the others head to head (a 62.0% [57.0, 67.0], c 90.0%")
    # the same rates, the b–a test not significant: not said, whatever the point estimates
    unshown = h2h_of({("b", "a"): 0.62, ("b", "c"): 0.9, ("a", "c"): 0.6},
                     p={("a", "b"): 0.08})
    assert dominant(unshown) is None
    assert "These games show none" in dominance_sentence(unshown, weights)
    assert "plays b 100% [100, 100]" in dominance_sentence(unshown, weights)


@pytest.fixture(scope="module")
def head_to_head_ladder(tmp_path_factory):
    """Gives the folder of a small Sequence Stacks ladder played head to head."""
    from typer.testing import CliRunner

    from sim.cli import app

    folder = tmp_path_factory.mktemp("skill") / "lad"
    result = CliRunner().invoke(app, [
        "ladder", "sequence-stacks", "--players", "2", "--games", "40", "--rungs",
        "random,default,reckless", "--head-to-head", "--seed", "11", "--workers", "1",
        "--quiet", "--out", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def test_a_ladder_played_head_to_head_reports_skill_and_luck(head_to_head_ladder):
    from sim import api

    folder = api.report(head_to_head_ladder)
    text = (folder / "report.md").read_text()
    assert "## Skill and luck" in text
    assert (folder / "charts" / "skill_matrix_head_to_head_2p.png").is_file()
    assert "the rungs are ordered by measured strength head to head, weakest first: random <" \
        in text
    assert "Is there a strategy that beats all the others at 2 players?" in text
    answer = text.split("## Answer", 1)[1].split("\n## ", 1)[0]
    assert "at the top rung (measured head to head)" in answer


def test_the_api_gives_the_figures_and_the_profile_reads_skill_expression(head_to_head_ladder):
    from reports import runs
    from reports.report import report_context
    from reports.skill import skill_expression
    from sim import api

    found = api.skill(head_to_head_ladder)
    assert set(found) == {"matrix", "order", "figures", "equilibrium", "answer"}
    assert found["matrix"].height == 6 and set(found["matrix"]["n"]) == {40}
    assert found["figures"]["figure"].to_list() == ["skill expression", "upset rate", "luck"]
    assert found["order"]["rung below"][0] == "random"
    opened = runs.open_runs([head_to_head_ladder])
    ctx = report_context(opened, runs.game_named("sequence-stacks"), head_to_head_ladder / "c")
    expression = skill_expression(ctx)
    assert expression.columns == ["configuration", "estimate", "low", "high"]
    top = found["matrix"].filter(pl.col("strategy") == found["order"]["rung"][-1])
    assert expression["estimate"][0] == top.filter(
        pl.col("opponent") == "random")["rate"][0]
    assert expression["low"][0] < expression["estimate"][0] <= expression["high"][0] + 1e-12


def test_the_api_says_when_no_rungs_met(tmp_path):
    from sim import api
    from sim.errors import UserError

    run = api.ladder("sequence-stacks", players=2, games=6, rungs="random,default", seed=2,
                     workers=1, out=tmp_path / "lad", quiet=True)
    with pytest.raises(UserError, match="--head-to-head"):
        api.skill(run)
    # and the report says the rungs' order is not measured
    text = (api.report(run) / "report.md").read_text()
    assert "At 2 players the rungs are in the order named (random, default, tuned, search, " \
           "then the runs' order), not by measured strength" in text
    assert "## Skill and luck" not in text
