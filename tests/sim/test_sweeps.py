"""Rule sweeps: `--set KEY=V1,V2` / `KEY=LO-HI` and repeated `--config` give one configuration
per rule variant, played on the same game indices and seeds, named in labels and columns."""

import io
import json

import polars as pl
import pytest
from rich.console import Console

from reports.summary import print_summary
from sim import cli
from sim.run.store import Run


@pytest.fixture
def simulate(fake_game, simulate, monkeypatch):
    """Gives `simulate` with the test game standing in for saboteur, no summary printed."""
    monkeypatch.setattr(cli, "_print_summary", lambda run, *_: None)
    return simulate


def games(path) -> pl.DataFrame:
    return Run.open(path).scan("games").collect().sort("setup", "game_id")


def test_a_list_sweeps_a_rule_and_each_variant_plays_its_value(simulate, tmp_path):
    code, out, err = simulate("saboteur", "--players", "3,4", "--set", "flips=3,5", "--games",
                              "40", "--seed", "1", "--workers", "1", "--out", "run")
    assert (code, err) == (0, "")
    assert "4 configuration(s) (2 rule variants) × 40 games" in out
    run = Run.open(tmp_path / "run")
    assert [s.label() for s in run.setups] == [
        "3p flips=3 default", "3p flips=5 default", "4p flips=3 default", "4p flips=5 default"]
    assert run.manifest["setups"][1]["rules"] == [["flips", 5]]
    table = games(tmp_path / "run")
    # The coin game's turns are flips × players: each variant played with its own value.
    assert (table["turns"] == table["rule.flips"] * table["players"]).all()
    assert table.group_by("variant").len().sort("variant").rows() == [
        ("flips=3", 80), ("flips=5", 80)]
    assert Run.open(tmp_path / "run").scan("seats").collect()["variant"].n_unique() == 2


def test_a_range_sweeps_integers_and_several_keys_give_their_product(simulate, tmp_path):
    code, _, err = simulate("saboteur", "--players", "3", "--set", "flips=3-5", "--set",
                            "bias=0.25,0.75", "--games", "10", "--seed", "1", "--workers", "1",
                            "--out", "run", "--quiet")
    assert (code, err) == (0, "")
    assert [s.variant() for s in Run.open(tmp_path / "run").setups] == [
        f"bias={b} flips={f}" for f in (3, 4, 5) for b in (0.25, 0.75)]


def test_a_key_of_a_per_player_count_table_sweeps_its_own_player_count_only(simulate, tmp_path):
    code, _, err = simulate("saboteur", "--players", "3,4", "--set", "hand_size.3=5,7", "--games",
                            "10", "--workers", "1", "--out", "run", "--quiet")
    assert (code, err) == (0, "")
    # At 4 players hand_size.3 changes nothing: one configuration there, not one per value,
    # and its tables hold the value it plays (the default, 6).
    assert [s.label() for s in Run.open(tmp_path / "run").setups] == [
        "3p hand_size.3=5 default", "3p hand_size.3=7 default", "4p default"]
    table = games(tmp_path / "run")
    assert table.group_by("players").agg(pl.col("rule.hand_size.3").unique().sort()).sort(
        "players").rows() == [(3, [5, 7]), (4, [6])]
    # ... which the summary says.
    console = Console(file=io.StringIO(), width=200)
    print_summary(Run.open(tmp_path / "run"), console)
    assert ("hand_size.3 applies to 3 players only: it changes nothing at 4 players (one "
            "configuration there)\n") in console.file.getvalue()


@pytest.mark.parametrize("command, sets", [
    (["saboteur", "--games", "10"], ["hand_size.3=5,7"]),
    (["saboteur", "--games", "10"], ["hand_size.3=5"]),
    (["saboteur", "--games", "10"], ["flips=3,4", "hand_size.3=5"]),
    (["trace", "saboteur"], ["hand_size.3=5"]),
    (["compare", "saboteur", "--strategies", "random,default", "--games", "10"],
     ["hand_size.3=5"]),
    (["tune", "saboteur"], ["hand_size.3=5"]),
], ids=["sweep", "one-value", "beside-a-sweep", "trace", "compare", "tune"])
def test_a_key_of_a_player_count_the_run_does_not_play_is_refused(simulate, tmp_path, command,
                                                                   sets):
    code, _, err = simulate(*command, "--players", "4", *(a for s in sets for a in ("--set", s)))
    assert (code, err) == (2, "error: --set hand_size.3 applies to 3 players; this run plays 4\n")
    assert list(tmp_path.iterdir()) == []


def test_a_key_of_a_player_count_names_the_counts_the_run_plays(simulate):
    code, _, err = simulate("saboteur", "--players", "4-6", "--set", "hand_size.7=4,5")
    assert (code, err) == (2, "error: --set hand_size.7 applies to 7 players; this run plays "
                              "4, 5 and 6\n")


def test_without_a_sweep_the_variant_is_the_default_rules(simulate, tmp_path):
    simulate("saboteur", "--players", "3", "--games", "10", "--workers", "1", "--out", "run",
             "--quiet")
    assert games(tmp_path / "run")["variant"].unique().to_list() == ["default rules"]
    assert "rules" not in json.loads((tmp_path / "run" / "manifest.json").read_text())["setups"][0]


def test_variants_play_the_same_games_with_the_same_seeds(simulate, tmp_path):
    # The coin game never reads `name`: its two variants must flip exactly the same coins.
    simulate("saboteur", "--players", "3", "--set", "name=a,b", "--games", "300", "--seed", "7",
             "--workers", "2", "--chunk-size", "70", "--out", "run", "--quiet")
    seats = Run.open(tmp_path / "run").scan("seats").collect()
    a, b = (seats.filter(pl.col("setup") == k).sort("game_id", "seat") for k in (0, 1))
    assert a["heads"].to_list() == b["heads"].to_list()
    assert (b["game_id"] - a["game_id"]).unique().to_list() == [300]


def test_repeated_config_files_are_variants_named_by_their_stems(simulate, tmp_path):
    (tmp_path / "short.toml").write_text("flips = 2\n")
    (tmp_path / "long.toml").write_text("flips = 9\nbias = 0.5\n")
    code, _, err = simulate("saboteur", "--players", "3", "--config", "short.toml", "--config",
                            "long.toml", "--set", "fast=true,false", "--games", "10",
                            "--workers", "1", "--out", "run", "--quiet")
    assert (code, err) == (0, "")
    run = Run.open(tmp_path / "run")
    assert [s.variant() for s in run.setups] == ["short fast=true", "short fast=false",
                                                 "long fast=true", "long fast=false"]
    assert run.setups[2].file_rules == (("flips", 9),)  # bias = 0.5 is the default
    table = games(tmp_path / "run")
    assert table.group_by("variant").agg(pl.col("turns").first()).sort("variant").rows() == [
        ("long fast=false", 27), ("long fast=true", 27),
        ("short fast=false", 6), ("short fast=true", 6)]


def test_a_resumed_sweep_plays_the_missing_chunks_of_its_variants(simulate, tmp_path):
    args = ("saboteur", "--players", "3", "--set", "flips=3,4", "--games", "300", "--chunk-size",
            "100", "--seed", "5", "--workers", "1", "--out", "run", "--quiet")
    simulate(*args)
    whole = sorted((tmp_path / "run" / "games").iterdir())
    before = games(tmp_path / "run")
    whole[4].unlink()  # a chunk of the second variant
    code, _, err = simulate(*args, "--resume")
    assert (code, err) == (0, "")
    assert sorted((tmp_path / "run" / "games").iterdir()) == whole
    assert games(tmp_path / "run").equals(before)


def test_until_ci_stops_each_variant_on_its_own(simulate, tmp_path):
    # Seat 0 wins ties: about 3 games in 4 with one flip, about half with 40. Each variant
    # stops once its own interval is narrow enough, long before the cap.
    code, _, err = simulate("saboteur", "--players", "2", "--set", "flips=1,40", "--games",
                            "20000", "--until-ci", "0.04", "--seed", "3", "--workers", "1",
                            "--out", "run", "--quiet")
    assert (code, err) == (0, "")
    per_variant = dict(games(tmp_path / "run").group_by("variant").len().rows())
    assert set(per_variant) == {"flips=1", "flips=40"}
    assert all(n < 20000 for n in per_variant.values())


@pytest.mark.parametrize("args, message", [
    (["--set", "hand_size=1,2"], "error: --set hand_size is a table, which cannot be swept; "
                                 "sweep one of its keys, e.g. --set hand_size.3=1"),
    (["--set", "flips=3,501"], "error: rule 'flips' in --set must be at most 500 (100 times its "
                               "default 5), got 501"),
    (["--set", "flips=5-3"], "error: --set flips: the range '5-3' is empty"),
    (["--set", "flips=1-2000"], "error: --set flips: the range '1-2000' names more than 1,000 "
                                "values"),
    (["--players", "2-6", "--set", "flips=1-300"],
     "error: the sweep has 1,500 configurations; a run holds at most 1,000: split it into "
     "several runs"),
    (["--set", "flipz=1,2"], "error: unknown rule 'flipz' in --set (did you mean 'flips'?)"),
    (["--set", "flips=3,"], "error: --set flips: an empty value in '3,'"),
])
def test_bad_sweeps_are_one_line_and_write_nothing(simulate, tmp_path, args, message):
    code, out, err = simulate("saboteur", *(["--players", "3"] if "--players" not in args else []),
                              *args, "--games", "10", "--out", "run")
    assert (code, out, err) == (2, "", message + "\n")
    assert not (tmp_path / "run").exists()


def test_a_trace_and_a_comparison_take_one_value_per_key(simulate):
    code, _, err = simulate("trace", "saboteur", "--players", "3", "--seed", "1", "--set",
                            "flips=3,4")
    assert (code, err) == (2, "error: a trace shows one game: give each --set one value\n")
    code, _, err = simulate("compare", "saboteur", "--strategies", "default,lucky", "--players",
                            "3", "--set", "flips=3-4", "--out", "run")
    assert (code, err) == (2, "error: compare plays one set of rules: give each --set one value\n")


def test_saboteur_variants_that_only_change_the_payout_are_dealt_the_same_games():
    import io

    from sim import games as registry
    from sim.run.chunks import Chunk, Job, play
    from sim.run.setups import build_setups, rule_variants

    game = registry.get("saboteur")
    rules, variants = rule_variants(game, [], ["gold.saboteur_payout=[4, 3, 3, 2],[1, 1, 1, 1]"])
    setups = tuple(build_setups(game, [5], {"saboteurs": [None]}, "default", {}, rules, variants))
    job = Job("sim.games.saboteur:GAME", rules, setups, 11, 40, "test")
    deals, gold = [], []
    for k in range(2):
        rounds = pl.read_parquet(io.BytesIO(play(job, Chunk(k, 0, 40))[1]["rounds"]))
        assert rounds["rule.gold.saboteur_payout"].unique().to_list() == [
            "[4, 3, 3, 2]", "[1, 1, 1, 1]"][k:k + 1]
        deals.append(rounds.select("round", "seat", "role", "saboteurs").to_dicts())
        gold.append(rounds["gold_gained"].sum())
    assert deals[0] == deals[1]  # the same roles dealt in every round of every game
    assert gold[0] != gold[1]  # while the rule change did change the gold
