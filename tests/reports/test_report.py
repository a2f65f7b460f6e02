"""`simulate report`: its tables equal direct polars queries on the shards; its files are whole."""

import json

import numpy as np
import polars as pl
import pytest
from rich.console import Console
from statsmodels.stats.contingency_tables import cochrans_q

from reports.report import build_sections, publish, write_report
from reports.runs import open_run
from sim.errors import UserError

PNG = b"\x89PNG\r\n\x1a\n"


def tables_of(sections):
    return {t.title: t.frame for s in sections for t in s.tables}


@pytest.fixture(scope="module")
def published(shared_saboteur_run, tmp_path_factory):
    """The shared run's report, built once: (folder, sections, console text)."""
    out = tmp_path_factory.mktemp("report")
    sections = build_sections([open_run(shared_saboteur_run)], out / "charts")
    console = Console(record=True, width=160)
    publish(out, "report", "Saboteur balance report", sections, console)
    return out, sections, console.export_text()


@pytest.fixture(scope="module")
def report(published):
    return tables_of(published[1])


def read(run, table):
    return pl.read_parquet(run / table / "*.parquet")


def test_win_rate_by_seat_equals_direct_query(shared_saboteur_run, report):
    saboteur_run = shared_saboteur_run
    frame = report["Game-win rate by seat"]
    seats = read(saboteur_run, "seats")
    want = (seats.filter(pl.col("setup") == 3).group_by("seat")
            .agg(pl.len().alias("n"), pl.col("won").sum().alias("wins")).sort("seat"))
    got = frame.filter(pl.col("configuration") == "7p saboteurs=2 default").sort("seat")
    assert got["n"].to_list() == want["n"].to_list()
    assert got["wins"].to_list() == want["wins"].to_list()
    assert got["rate"].to_list() == pytest.approx((want["wins"] / want["n"]).to_list())


def test_seat_balance_is_one_minus_the_largest_gap(report):
    by_seat = report["Game-win rate by seat"].filter(pl.col("configuration") == "4p default")
    row = report["Seat balance"].filter(pl.col("configuration") == "4p default").row(0, named=True)
    assert row["balance"] == pytest.approx(1 - (by_seat["rate"].max() - by_seat["rate"].min()))
    assert 0 <= row["p"] <= 1 and row["dof"] == 3


def test_seat_balance_tests_the_games_as_played(shared_saboteur_run, report):
    # Q from the shards: each game a block, each seat a treatment (ties: several winners)
    seats = read(shared_saboteur_run, "seats").filter(pl.col("setup") == 0).sort("game_id", "seat")
    won = seats["won"].cast(pl.Int64).to_numpy().reshape(-1, 4)
    row = report["Seat balance"].filter(pl.col("configuration") == "4p default").row(0, named=True)
    assert row["Q"] == pytest.approx(cochrans_q(won).statistic)
    assert 0 < row["gap p"] <= 1 and row["gap"] == pytest.approx(np.ptp(won.mean(axis=0)))


def test_miners_by_players_and_saboteurs_equals_direct_query(shared_saboteur_run, report):
    saboteur_run = shared_saboteur_run
    frame = report["Miners' round-win rate by players × saboteurs in play"]
    rounds = read(saboteur_run, "rounds").unique(["game_id", "round"])
    want = (rounds.group_by("players", "saboteurs")
            .agg(pl.len().alias("n"), (pl.col("winner_team") == "miners").sum().alias("wins"))
            .sort("players", "saboteurs"))
    assert frame["n"].to_list() == want["n"].to_list()
    assert frame["wins"].to_list() == want["wins"].to_list()
    assert frame["players"].to_list() == want["players"].cast(pl.Int64).to_list()


def test_miners_by_player_count_equals_direct_query(shared_saboteur_run, report):
    saboteur_run = shared_saboteur_run
    frame = report["Miners' round-win rate by player count"]
    games = read(saboteur_run, "games").filter(pl.col("players") == 5,
                                                pl.col("saboteurs_fixed").is_null())
    row = frame.filter(pl.col("players") == 5, pl.col("saboteurs") == "role cards dealt").row(
        0, named=True)
    assert row["n"] == 3 * games.height
    assert row["rate"] == pytest.approx(games["miner_rounds"].sum() / (3 * games.height))


def test_gold_per_round_by_role_equals_direct_query(shared_saboteur_run, report):
    saboteur_run = shared_saboteur_run
    frame = report["Gold gained per round by role"]
    rounds = read(saboteur_run, "rounds")
    want = rounds.filter(pl.col("players") == 7, pl.col("role") == "saboteur")["gold_gained"]
    row = frame.filter(pl.col("players") == 7, pl.col("role") == "saboteur").row(0, named=True)
    assert row["n"] == want.len()
    assert row["mean gold"] == pytest.approx(want.mean())
    assert row["low"] < row["mean gold"] < row["high"]


def test_win_rate_by_role_mix_equals_direct_query(shared_saboteur_run, report):
    saboteur_run = shared_saboteur_run
    frame = report["Game-win rate by rounds played as a saboteur"]
    rounds = read(saboteur_run, "rounds")
    mix = rounds.group_by("game_id", "seat").agg(
        (pl.col("role") == "saboteur").sum().alias("k"))
    seats = read(saboteur_run, "seats").join(mix, on=["game_id", "seat"])
    # player counts apart: a seat's fair share differs between them
    want = seats.group_by("players", "k").agg(pl.len().alias("n"),
                                              pl.col("won").sum().alias("wins")).sort("players", "k")
    assert frame["players"].to_list() == want["players"].to_list()
    assert frame["saboteur rounds"].to_list() == want["k"].to_list()
    assert frame["n"].to_list() == want["n"].to_list()
    assert frame["wins"].to_list() == want["wins"].to_list()


def test_game_length_and_stalled_equal_direct_query(shared_saboteur_run, report):
    saboteur_run = shared_saboteur_run
    games = read(saboteur_run, "games").filter(pl.col("setup") == 1)
    length = report["Turns per game"].filter(pl.col("configuration") == "5p default").row(
        0, named=True)
    assert length["mean turns"] == pytest.approx(games["turns"].mean())
    assert length["max"] == games["turns"].max()
    assert length["p50"] == games["turns"].quantile(0.5, "nearest")
    stalled = report["Stalled / turn-cap games"].filter(
        pl.col("configuration") == "5p default").row(0, named=True)
    assert stalled["stalled"] == games["stalled"].sum()
    assert stalled["low"] <= stalled["rate"] <= stalled["high"]


def test_headline_by_player_count_pools_configurations(shared_saboteur_run, report):
    saboteur_run = shared_saboteur_run
    games = read(saboteur_run, "games").filter(pl.col("players") == 5)
    row = report["miners' round-win rate by player count"].filter(
        pl.col("players") == 5).row(0, named=True)
    assert row["games"] == games.height == 120
    assert row["wins"] == games["miner_rounds"].sum()


def test_report_files_are_whole(published):
    out, _, text = published
    charts = sorted((out / "charts").glob("*.png"))
    assert len(charts) >= 7  # no strategy chart: every seat of the run plays `default`
    for chart in charts:
        data = chart.read_bytes()
        assert data[:8] == PNG and len(data) > 5_000
    md = (out / "report.md").read_text()
    for chart in charts:
        assert f"](charts/{chart.name})" in md
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == len(charts)
    assert "src='charts/" not in page
    assert "Seat balance" in md and "Game-win rate by seat" in text


def test_two_runs_are_kept_apart(tmp_path, runkit):
    a = runkit.write(tmp_path / "a", runkit.SETUPS, runkit.tables(runkit.SETUPS, 20, seed=1))
    b = runkit.write(tmp_path / "b", runkit.SETUPS, runkit.tables(runkit.SETUPS, 30, seed=2))
    frames = tables_of(build_sections([open_run(a), open_run(b)], tmp_path / "charts"))
    overview = frames["miners' round-win rate by configuration"]
    assert sorted(overview["games"].to_list()) == [20] * 4 + [30] * 4
    games = read(b, "games").filter(pl.col("setup") == 0)
    assert overview.filter(pl.col("configuration") == "4p default (b)")["wins"][0] == \
        games["miner_rounds"].sum()
    by_players = frames["miners' round-win rate by player count"]
    assert by_players.filter(pl.col("players") == 4)["variant"].to_list() == [
        "default rules (a)", "default rules (b)"]


def test_a_game_without_its_own_sections_gets_the_common_ones(tmp_path, runkit):
    from sim.game import Setup

    setups = [Setup(2, ("greedy", "random")), Setup(2, ("random", "greedy"))]
    run = runkit.write(tmp_path / "duel", setups,
                       runkit.duel(setups, 50, {"greedy": 2.0, "random": 1.0}), game="duel")
    out = write_report([run], None, Console(quiet=True))
    assert out == run / "report"  # the default folder
    titles = [line[3:] for line in (out / "report.md").read_text().splitlines()
              if line.startswith("## ")]
    assert titles == ["Answer", "Win rate by player count", "Win rate by seat",
                      "Win rate by strategy", "Game length and stalled games",
                      "How the game plays", "Provenance"]
    assert all(p.read_bytes()[:8] == PNG for p in (out / "charts").glob("*.png"))


# --- bad input: one clear line each -------------------------------------------------------

def one_line(error: UserError) -> str:
    text = str(error)
    assert text and "\n" not in text
    return text


def test_a_folder_that_is_not_a_run(tmp_path):
    (tmp_path / "plain").mkdir()
    with pytest.raises(UserError) as e:
        write_report([tmp_path / "plain"], tmp_path / "out", Console(quiet=True))
    one_line(e.value)
    with pytest.raises(UserError, match="no such run folder"):
        write_report([tmp_path / "missing"], tmp_path / "out", Console(quiet=True))


def test_an_empty_run(tmp_path, runkit):
    empty = {k: v.clear() for k, v in runkit.tables(runkit.SETUPS, 1).items()}
    run = runkit.write(tmp_path / "empty", runkit.SETUPS, empty)
    manifest = json.loads((run / "manifest.json").read_text())  # a run of one game a setup,
    manifest.update(games_per_setup=1, games_requested=len(runkit.SETUPS))  # none finished
    (run / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(UserError, match="no finished games") as e:
        write_report([run], None, Console(quiet=True))
    one_line(e.value)


def test_a_run_without_shards(tmp_path, runkit):
    run = runkit.write(tmp_path / "bare", runkit.SETUPS, {})
    with pytest.raises(UserError) as e:
        write_report([run], None, Console(quiet=True))
    one_line(e.value)


def test_runs_of_different_games_do_not_mix(tmp_path, runkit, saboteur_run):
    from sim.game import Setup

    setups = [Setup(2, ("greedy", "random"))]
    duel = runkit.write(tmp_path / "duel", setups,
                        runkit.duel(setups, 10, {"greedy": 1.0, "random": 1.0}), game="duel")
    with pytest.raises(UserError, match="different games") as e:
        write_report([saboteur_run, duel], tmp_path / "out", Console(quiet=True))
    one_line(e.value)


def test_a_shard_of_another_game_in_a_run(tmp_path, runkit, saboteur_run):
    from sim.game import Setup

    setups = [Setup(2, ("greedy", "random"))]
    stray = runkit.duel(setups, 10, {"greedy": 1.0, "random": 1.0})["games"]
    stray.write_parquet(saboteur_run / "games" / "chunk-9999.parquet")
    with pytest.raises(UserError) as e:
        write_report([saboteur_run], None, Console(quiet=True))
    assert "shards" in one_line(e.value)


def test_shards_naming_a_configuration_the_manifest_lacks(tmp_path, runkit):
    tables = runkit.tables(runkit.SETUPS, 5)
    run = runkit.write(tmp_path / "run", runkit.SETUPS[:2], tables)
    with pytest.raises(UserError, match="configuration 2") as e:
        write_report([run], None, Console(quiet=True))
    one_line(e.value)


def test_an_unwritable_output_folder(tmp_path, saboteur_run):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(UserError, match="cannot write") as e:
        write_report([saboteur_run], blocker, Console(quiet=True))
    one_line(e.value)


def clustered(per_game: pl.DataFrame) -> tuple[float, float, float]:
    """Gives (rate, cluster variance, binomial variance) of S/T from one row per game (s, t)."""
    s, t = per_game["s"].to_numpy().astype(float), per_game["t"].to_numpy().astype(float)
    p = s.sum() / t.sum()
    return p, ((s - p * t) ** 2).sum() / t.sum() ** 2, p * (1 - p) / t.sum()


def wilson_on_games(per_game: pl.DataFrame) -> tuple[float, float]:
    """Gives the 95% Wilson interval on the effective trials, written out from the games."""
    from statsmodels.stats.proportion import proportion_confint

    p, cluster, binomial = clustered(per_game)
    effective = per_game["t"].sum() / max(1.0, cluster / binomial)
    return proportion_confint(p * effective, effective, method="wilson")


def test_miners_by_players_and_saboteurs_intervals_take_games_as_clusters(shared_saboteur_run,
                                                                         report):
    frame = report["Miners' round-win rate by players × saboteurs in play"]
    rounds = read(shared_saboteur_run, "rounds").unique(["game_id", "round"])
    cell = rounds.filter(pl.col("players") == 7, pl.col("saboteurs") == 2)
    per_game = cell.group_by("game_id").agg((pl.col("winner_team") == "miners").sum().alias("s"),
                                            pl.len().alias("t"))
    row = frame.filter(pl.col("players") == 7, pl.col("saboteurs") == 2).row(0, named=True)
    assert row["games"] == per_game.height
    assert (row["low"], row["high"]) == pytest.approx(wilson_on_games(per_game))


def test_gold_per_round_interval_is_on_effective_seat_rounds(shared_saboteur_run, report):
    from scipy.stats import t as t_dist

    rounds = read(shared_saboteur_run, "rounds").filter(pl.col("players") == 7,
                                                        pl.col("role") == "saboteur")
    per_game = rounds.group_by("game_id").agg(pl.col("gold_gained").sum().alias("s"),
                                              pl.len().alias("t"))
    _, cluster, _ = clustered(per_game)
    n, sd = rounds.height, rounds["gold_gained"].cast(pl.Float64).std()
    assert cluster > sd ** 2 / n, "a game's saboteurs share their gold: the rounds cluster"
    effective = sd ** 2 / cluster  # n over the design effect cluster / (sd² / n)
    half = t_dist.ppf(0.975, effective - 1) * np.sqrt(cluster)
    row = report["Gold gained per round by role"].filter(
        pl.col("players") == 7, pl.col("role") == "saboteur").row(0, named=True)
    assert row["games"] == per_game.height
    assert (row["low"], row["high"]) == pytest.approx((row["mean gold"] - half,
                                                      row["mean gold"] + half))


def test_role_mix_rates_and_gaps_take_games_as_clusters(shared_saboteur_run, report):
    from reports.sections import gap_tests

    frame = report["Game-win rate by rounds played as a saboteur"].filter(
        pl.col("rounds") == 3, pl.col("players") == 7)
    mix = read(shared_saboteur_run, "rounds").group_by("game_id", "seat").agg(
        (pl.col("role") == "saboteur").sum().alias("k"))
    seats = read(shared_saboteur_run, "seats").filter(pl.col("players") == 7).join(
        mix, on=["game_id", "seat"])
    per_game = seats.group_by("k", "game_id").agg(pl.col("won").sum().alias("s"),
                                                  pl.len().alias("t"))
    rows = frame["saboteur rounds"].to_list()
    for k, low, high in frame.select("saboteur rounds", "low", "high").iter_rows():
        assert (low, high) == pytest.approx(wilson_on_games(per_game.filter(pl.col("k") == k)))
    # the covariance of the rows' rates, summed over games (a game's seats fall in several rows)
    totals = per_game.group_by("k").agg(pl.col("s").sum(), pl.col("t").sum())
    rate = dict(zip(totals["k"], totals["s"] / totals["t"]))
    trials = dict(zip(totals["k"], totals["t"]))
    residual = per_game.with_columns(
        ((pl.col("s") - pl.col("k").replace_strict(rate) * pl.col("t"))
         / pl.col("k").replace_strict(trials)).alias("e")).pivot(
        on="k", index="game_id", values="e").fill_null(0)
    e = residual.select([str(k) for k in rows]).to_numpy()
    assert np.abs(e.T @ e - np.diag(np.diag(e.T @ e))).max() > 0, "rows share games"
    want = gap_tests(frame.select("saboteur rounds", "rate"), cov=e.T @ e)
    assert frame["p"].to_numpy() == pytest.approx(want["p"].to_numpy(), nan_ok=True)
