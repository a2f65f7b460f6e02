"""`simulate ladder`: the same deals at every rung of skill, into one run; its bad input."""

import json

import polars as pl
import pytest

from sim.run.store import Run


def test_every_rung_plays_the_same_deals(simulate, tmp_path):
    code, out, err = simulate("ladder", "saboteur", "--players", "4", "--games", "12",
                              "--rungs", "random,default", "--seed", "5", "--workers", "1",
                              "--out", "lad", "--quiet")
    assert code == 0, err
    run = Run.open(tmp_path / "lad")
    assert [(s.players, s.option("rung"), s.seats) for s in run.setups] == [
        (4, "random", ("random",) * 4), (4, "default", ("default",) * 4)]
    rounds = pl.read_parquet(tmp_path / "lad" / "rounds" / "*.parquet")
    # a round's roles are dealt before anyone moves: the same deal gives the same roles
    first = (rounds.filter(pl.col("round") == 1)
             .with_columns((pl.col("game_id") - pl.col("setup") * 12).alias("index"))
             .sort("index", "seat"))
    roles = {rung: part["role"].to_list()
             for (rung,), part in first.group_by("setup", maintain_order=True)}
    assert roles[0] == roles[1]
    # and the rungs play differently on them
    moves = pl.read_parquet(tmp_path / "lad" / "games" / "*.parquet").sort("setup", "game_id")
    assert moves.filter(pl.col("setup") == 0)["turns"].to_list() != \
        moves.filter(pl.col("setup") == 1)["turns"].to_list()


def test_the_tuned_rung_plays_the_first_preset_of_the_file(simulate, tmp_path):
    (tmp_path / "tuned.toml").write_text(
        '[preset.tuned-deep]\nfamily = "default"\n\n[preset.other]\nfamily = "default"\n')
    code, out, err = simulate("ladder", "deep-space", "--players", "2", "--games", "4",
                              "--rungs", "random,default,tuned",
                              "--tuned", "tuned.toml", "--seed", "1", "--workers", "1",
                              "--out", "lad", "--quiet")
    assert code == 0, err
    seats = [(s.option("rung"), s.seats[0]) for s in Run.open(tmp_path / "lad").setups]
    assert seats == [("random", "random"), ("default", "default"), ("tuned", "tuned-deep")]


def test_the_tuned_rung_tuned_on_the_fly_plays_each_counts_tuning_kept_in_the_run(simulate,
                                                                                  tmp_path):
    from reports.ladder import tuning_gains
    from sim import games
    from strategies.presets import load, user_presets

    code, out, err = simulate("ladder", "deep-space", "--players", "2-3", "--games", "4",
                              "--rungs", "default,tuned", "--tune-trials", "2",
                              "--tune-games", "4", "--seed", "1", "--workers", "1",
                              "--out", "lad", "--quiet")
    assert code == 0, err
    run = Run.open(tmp_path / "lad")
    assert [(s.players, s.option("rung"), s.seats[0]) for s in run.setups] == [
        (2, "default", "default"), (2, "tuned", "tuned-deep-space-2p"),
        (3, "default", "default"), (3, "tuned", "tuned-deep-space-3p")]
    game = games.get("deep-space")
    carried = user_presets(run.manifest["rules"])
    for count in (2, 3):
        folder = tmp_path / "lad" / "tuned" / f"{count}p"
        assert (folder / "gain.json").is_file()
        # the run plays (and a resume replays) exactly the preset its tuning wrote
        (spec,) = load(game, folder / "tuned.toml").values()
        assert carried[f"tuned-deep-space-{count}p"] == spec
        # and the report reads the tuning's held-out gain
        (step,) = json.loads((folder / "gain.json").read_text())["steps"]
        assert tuning_gains(run, count) == ({"tuned": step["tuned"], **{
            k: step["held_out"][k] for k in ("gain", "low", "high")}},)


@pytest.mark.parametrize("args, says", [
    (("--rungs", "random,expert"), "unknown strategy 'expert'"),
    (("--rungs", "random,random"), "names a rung twice"),
    (("--rungs", "tuned"), "the tuned rung needs --tuned"),
    (("--games", "0"), "--games"),
    (("--tuned", "missing.toml"), "missing.toml"),
    (("--tune-trials", "0", "--tune-games", "5"), "--tune-trials and --tune-games must be at"),
    (("--tune-trials", "3", "--tune-games", "-1"), "must be at least 1, got 3 and -1"),
    (("--tune-trials", "3"), "needs both --tune-trials and --tune-games"),
    (("--rungs", "random,default", "--tune-trials", "2", "--tune-games", "5"),
     "add tuned to --rungs"),
    (("--tuned", "t.toml", "--tune-trials", "2", "--tune-games", "5"), "exclude each other"),
    (("--tune-trials", "2", "--tune-games", "5", "--games", "0"), "--games"),
    (("--by-role",), "speed has no roles"),
    (("--role-strategy", "miner=default"), "speed has no roles"),
])
def test_bad_input_is_one_line_and_writes_nothing(simulate, tmp_path, args, says):
    code, out, err = simulate("ladder", "speed", "--players", "2", "--games", "4",
                              "--out", "lad", *args)
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "lad").exists()


def test_a_presets_file_that_does_not_load_is_refused(simulate, tmp_path):
    (tmp_path / "bad.toml").write_text('[preset.x]\nfamily = "nonsense"\n')
    code, out, err = simulate("ladder", "spit", "--players", "2", "--tuned", "bad.toml",
                              "--out", "lad")
    assert code == 2 and "bad.toml" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "lad").exists()


def test_the_search_rung_needs_a_game_with_that_family(simulate, tmp_path):
    from sim import games
    from sim.studies import ladder

    if ladder.has_search(games.get("speed")):
        pytest.skip("speed has a search family here")
    code, out, err = simulate("ladder", "speed", "--players", "2", "--rungs", "default,search",
                              "--out", "lad")
    assert code == 2 and "has no search bot family" in err
    assert not (tmp_path / "lad").exists()


def test_by_role_plays_the_skill_matrix_on_the_same_deals_and_the_report_draws_it(simulate,
                                                                                 tmp_path):
    code, _, err = simulate("ladder", "saboteur", "--players", "4", "--games", "8",
                            "--rungs", "random,default", "--by-role", "--seed", "5",
                            "--workers", "1", "--out", "lad", "--quiet")
    assert code == 0, err
    run = Run.open(tmp_path / "lad")
    assert [dict(s.roles) for s in run.setups] == [
        {"miner": a, "saboteur": b} for a in ("random", "default") for b in ("random", "default")]
    rounds = pl.read_parquet(tmp_path / "lad" / "rounds" / "*.parquet").with_columns(
        (pl.col("game_id") - pl.col("setup") * 8).alias("index")).sort("setup", "index",
                                                                       "round", "seat")
    # the same roles dealt in every cell; each seat played its role's rung
    roles = [part["role"].to_list() for _, part in rounds.group_by("setup", maintain_order=True)]
    assert all(r == roles[0] for r in roles)
    for sid, setup in enumerate(run.setups):
        cell = rounds.filter(pl.col("setup") == sid)
        for role, strategy in setup.roles:
            assert set(cell.filter(pl.col("role") == role)["strategy"]) <= {strategy}
    code, _, err = simulate("report", "lad", "--out", "rep")
    assert code == 0, err
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "Skill matrix by role" in text and "Balance across skill levels" in text
    assert (tmp_path / "rep" / "charts" / "skill_matrix_4p.png").is_file()


def test_a_ladder_with_a_role_fixed_climbs_the_other_roles_rungs(simulate, tmp_path):
    code, _, err = simulate("ladder", "saboteur", "--players", "4", "--games", "4",
                            "--rungs", "random,default", "--role-strategy", "saboteur=default",
                            "--seed", "5", "--workers", "1", "--out", "lad", "--quiet")
    assert code == 0, err
    assert [(s.option("rung"), s.roles) for s in Run.open(tmp_path / "lad").setups] == [
        ("random", (("miner", "random"), ("saboteur", "default"))),
        ("default", (("miner", "default"), ("saboteur", "default")))]


def test_a_ladder_of_a_rule_sweep_plays_every_rung_of_every_variant_and_reports_each(simulate,
                                                                                     tmp_path):
    from reports import runs
    from reports.ladder import balance_across_skill
    from reports.sections import ReportContext

    code, _, err = simulate("ladder", "saboteur", "--players", "4", "--games", "6",
                            "--rungs", "random,default", "--set", "rounds=1,2", "--seed", "2",
                            "--workers", "1", "--out", "lad", "--quiet")
    assert code == 0, err
    run = Run.open(tmp_path / "lad")
    assert sorted((s.option("rung"), s.variant()) for s in run.setups) == [
        ("default", "rounds=1"), ("default", "rounds=2"), ("random", "rounds=1"),
        ("random", "rounds=2")]
    games = pl.read_parquet(tmp_path / "lad" / "games" / "*.parquet")
    assert sorted(set(games["rounds"])) == [1, 2]
    opened = runs.open_runs([tmp_path / "lad"])
    section = balance_across_skill(ReportContext(opened, runs.game_named("saboteur"),
                                                 tmp_path / "charts"))
    assert section.tables[0].frame.select("players", "variant", "rung").rows() == [
        (4, "rounds=1", "random"), (4, "rounds=1", "default"),
        (4, "rounds=2", "random"), (4, "rounds=2", "default")]


def test_the_tuned_rung_plays_each_counts_preset_of_the_file_and_keeps_its_gain(simulate,
                                                                                tmp_path):
    (tmp_path / "tuned.toml").write_text(
        '[preset.deep-2p]\nfamily = "default"\n\n[preset.deep-3p]\nfamily = "default"\n'
        'noise = 1\n\n[tuning.deep-3p]\nheld_out = [{ tuned = "one seat", games = 9, '
        'gain = 0.01, low = -0.01, high = 0.03, p = 0.3 }]\n')
    code, out, err = simulate("ladder", "deep-space", "--players", "2-3", "--games", "4",
                              "--rungs", "tuned", "--tuned", "tuned.toml", "--seed", "1",
                              "--workers", "1", "--out", "lad", "--quiet")
    assert code == 0, err
    run = Run.open(tmp_path / "lad")
    assert [(s.players, s.seats[0]) for s in run.setups] == [(2, "deep-2p"), (3, "deep-3p")]
    assert not (tmp_path / "lad" / "tuned" / "2p").exists()  # the file records no gain for it
    (step,) = json.loads((tmp_path / "lad" / "tuned" / "3p" / "gain.json").read_text())["steps"]
    assert step["preset"] == "deep-3p" and step["held_out"]["low"] == -0.01


def test_saboteur_ships_a_tuned_preset_and_its_held_out_gains_for_every_player_count():
    from sim import games
    from sim.studies import ladder
    from strategies.presets import load

    game = games.get("saboteur")
    path = ladder.shipped_tuned(game)
    named, _, gains = ladder.tuned_presets(game, path, list(range(3, 11)))
    assert named == {n: f"tuned-saboteur-{n}p" for n in range(3, 11)}
    assert set(gains) == set(named.values()) == set(load(game, path))
    for steps in gains.values():
        assert [s["tuned"].split("'")[0] for s in steps] == ["saboteurs", "miners"]
        assert all(s["low"] <= s["gain"] <= s["high"] and s["games"] == 2000 for s in steps)
    first = path.read_text().splitlines()
    assert sum(line.startswith("# simulate tune saboteur --players") for line in first) == 8


def test_the_tuned_rung_without_tuned_plays_the_games_shipped_presets(simulate, tmp_path):
    code, out, err = simulate("ladder", "saboteur", "--players", "4", "--games", "3",
                              "--rungs", "default,tuned", "--seed", "1", "--workers", "1",
                              "--out", "lad", "--quiet")
    assert code == 0, err
    run = Run.open(tmp_path / "lad")
    assert [s.seats[0] for s in run.setups] == ["default", "tuned-saboteur-4p"]
    steps = json.loads((tmp_path / "lad" / "tuned" / "4p" / "gain.json").read_text())["steps"]
    assert len(steps) == 2 and steps[0]["preset"] == "tuned-saboteur-4p"
    # a ladder without the tuned rung does not carry them
    code, out, err = simulate("ladder", "saboteur", "--players", "4", "--games", "2",
                              "--rungs", "default", "--seed", "1", "--workers", "1",
                              "--out", "plain", "--quiet")
    assert code == 0, err
    assert "strategy_presets" not in Run.open(tmp_path / "plain").manifest["rules"]


def test_a_tuning_on_the_fly_in_a_game_with_roles_tunes_each_roles_team(simulate, tmp_path):
    code, out, err = simulate("ladder", "saboteur", "--players", "4", "--games", "2",
                              "--rungs", "tuned", "--tune-trials", "1", "--tune-games", "4",
                              "--seed", "1", "--workers", "1", "--out", "lad", "--quiet")
    assert code == 0, err
    steps = json.loads((tmp_path / "lad" / "tuned" / "4p" / "gain.json").read_text())["steps"]
    assert [s["tuned"] for s in steps] == ["saboteurs' round-win rate per saboteur seat",
                                           "miners' round-win rate per miner seat"]
    assert "step 1" not in out


def test_a_presets_file_whose_tuning_table_does_not_read_is_refused(simulate, tmp_path):
    (tmp_path / "bad.toml").write_text('[preset.x]\nfamily = "default"\n\n'
                                       '[tuning.x]\nheld_out = "better"\n')
    code, out, err = simulate("ladder", "spit", "--players", "2", "--tuned", "bad.toml",
                              "--out", "lad")
    assert code == 2 and "[tuning.x] needs held_out" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "lad").exists()


@pytest.mark.parametrize("text, rungs", [
    ("random,default", ["random", "default"]),
    ("default,search-belief,miner=search-belief,saboteur=search-belief",
     ["default", "search-belief", "miner=search-belief saboteur=search-belief"]),
    # a role named again begins the next rung
    ("miner=default,saboteur=search,miner=search,saboteur=search",
     ["miner=default saboteur=search", "miner=search saboteur=search"]),
    ("saboteur=search,default", ["saboteur=search", "default"]),
])
def test_rungs_are_named_strategies_presets_or_strategies_by_role(text, rungs):
    from sim.studies.ladder import parse_rungs

    assert parse_rungs(text) == rungs


def test_any_preset_and_any_role_mix_is_a_rung_on_the_same_deals(simulate, tmp_path):
    code, _, err = simulate("ladder", "saboteur", "--players", "4", "--games", "4",
                            "--rungs", "default,deduce,miner=random,saboteur=default",
                            "--seed", "5", "--workers", "1", "--out", "lad", "--quiet")
    assert code == 0, err
    run = Run.open(tmp_path / "lad")
    assert [(s.option("rung"), s.seats[0], s.roles) for s in run.setups] == [
        ("default", "default", ()), ("deduce", "deduce", ()),
        ("miner=random saboteur=default", "default",
         (("miner", "random"), ("saboteur", "default")))]
    # the rung of strategies by role is named once in its label
    assert run.setups[2].label() == "4p miner=random saboteur=default"


@pytest.mark.parametrize("args, says", [
    (("--role-strategy", "saboteur=default"), "a rung of strategies by role takes no "
                                               "--role-strategy"),
    (("--by-role",), "--by-role plays one strategy per role"),
])
def test_a_role_mix_rung_refuses_other_roles_flags(simulate, tmp_path, args, says):
    code, _, err = simulate("ladder", "saboteur", "--players", "4", "--games", "4", "--rungs",
                            "default,miner=random,saboteur=default", *args, "--workers", "1",
                            "--out", "lad")
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "lad").exists()


def test_head_to_head_seats_every_pair_of_rungs_in_every_seat_on_the_same_deals(simulate,
                                                                                 tmp_path):
    code, out, err = simulate("ladder", "sequence-stacks", "--players", "3", "--games", "8",
                              "--rungs", "random,default,reckless", "--head-to-head",
                              "--seed", "5", "--workers", "1", "--out", "lad", "--quiet")
    assert code == 0, err
    run = Run.open(tmp_path / "lad")
    uniform = [s for s in run.setups if s.option("rung") is not None]
    pairs = [s.seats for s in run.setups if s.option("rung") is None]
    assert [s.option("rung") for s in uniform] == ["random", "default", "reckless"]
    # each pair alone at the table, alternating round it, and its rotation
    assert pairs == [("random", "default", "random"), ("default", "random", "default"),
                     ("random", "reckless", "random"), ("reckless", "random", "reckless"),
                     ("default", "reckless", "default"), ("reckless", "default", "reckless")]
    assert run.manifest["games_per_setup"] == 8


@pytest.mark.parametrize("args, says", [
    (("--rungs", "default,miner=search,saboteur=default", "--head-to-head"),
     "is strategies by role"),
    (("--rungs", "random,default", "--by-role", "--head-to-head"), "drop --head-to-head"),
])
def test_head_to_head_refuses_rungs_that_cannot_share_a_table(simulate, tmp_path, args, says):
    code, out, err = simulate("ladder", "saboteur", "--players", "4", "--games", "4",
                              "--out", "lad", *args)
    assert code == 2, err
    assert says in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "lad").exists()


def test_head_to_head_pairs_the_rungs_of_every_rule_variant():
    from sim import games
    from sim.run.setups import rule_variants
    from sim.studies.ladder import setups

    game = games.get("saboteur")
    rules, variants = rule_variants(game, [], ["rounds=1,2"], 2)
    found = setups(game, [4], {}, [("random", "random"), ("default", "default")], rules,
                   variants=variants, head_to_head=True)
    pairs = sorted((s.variant(), s.seats) for s in found if s.option("rung") is None)
    assert pairs == [("rounds=1", ("default", "random", "default", "random")),
                     ("rounds=1", ("random", "default", "random", "default")),
                     ("rounds=2", ("default", "random", "default", "random")),
                     ("rounds=2", ("random", "default", "random", "default"))]
