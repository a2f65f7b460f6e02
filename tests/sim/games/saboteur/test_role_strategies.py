"""Strategies by role (--role-strategy): whichever seat holds a role plays the role's bot,
round by round; the tables say which bot played each seat in each round."""

import polars as pl
import pytest

from sim.game import Setup
from sim.games.saboteur import GAME
from sim.run.store import Run

ROLES = (("miner", "random"), ("saboteur", "default"))


def rounds_of(folder):
    return pl.read_parquet(folder / "rounds" / "*.parquet").sort("game_id", "round", "seat")


def test_the_seat_holding_a_role_plays_that_roles_bot_round_by_round(simulate, tmp_path):
    common = ("saboteur", "--players", "5", "--games", "12", "--seed", "3", "--workers", "1",
              "--quiet")
    code, _, err = simulate(*common, "--role-strategy", "miner=random",
                            "--role-strategy", "saboteur=default", "--out", "roles")
    assert code == 0, err
    code, _, err = simulate(*common, "--out", "plain")
    assert code == 0, err
    by_role, plain = rounds_of(tmp_path / "roles"), rounds_of(tmp_path / "plain")
    expected = pl.when(pl.col("role") == "miner").then(pl.lit("random")).otherwise(
        pl.lit("default"))
    assert by_role.select((pl.col("strategy") == expected).all()).item()
    assert set(by_role["strategy"]) == {"random", "default"}
    assert set(plain["strategy"]) == {"default"}
    # the same deals (the roles dealt every round), played otherwise
    assert by_role["role"].to_list() == plain["role"].to_list()
    games = [pl.read_parquet(tmp_path / f / "games" / "*.parquet").sort("game_id")
             for f in ("roles", "plain")]
    assert games[0]["miner_rounds"].to_list() != games[1]["miner_rounds"].to_list()
    setup = Run.open(tmp_path / "roles").setups[0]
    assert setup.roles == ROLES
    assert setup.label() == "5p miner=random saboteur=default"
    seats = pl.read_parquet(tmp_path / "roles" / "seats" / "*.parquet")
    assert set(seats["strategy"]) == {"miner=random saboteur=default"}


def test_one_flag_may_name_both_roles_and_a_role_not_named_plays_the_strategy(simulate, tmp_path):
    code, _, err = simulate("saboteur", "--players", "4", "--games", "2", "--workers", "1",
                            "--role-strategy", "saboteur=random", "--strategy", "default",
                            "--out", "a", "--quiet")
    assert code == 0, err
    assert Run.open(tmp_path / "a").setups[0].roles == (("miner", "default"),
                                                        ("saboteur", "random"))
    code, _, err = simulate("saboteur", "--players", "4", "--games", "2", "--workers", "1",
                            "--role-strategy", "miner=random,saboteur=default", "--out", "b",
                            "--quiet")
    assert code == 0, err
    assert Run.open(tmp_path / "b").setups[0].roles == ROLES


def test_every_role_at_one_strategy_plays_exactly_as_every_seat_at_it():
    rules = GAME.load_rules(None, [])
    plain = GAME.play(rules, Setup(6, ("default",) * 6), 11, 0, 8, 0)
    same = GAME.play(rules, Setup(6, ("random",) * 6, (),
                                  roles=(("miner", "default"), ("saboteur", "default"))),
                     11, 0, 8, 0)
    assert plain["games"].equals(same["games"])
    assert plain["rounds"].equals(same["rounds"])
    assert plain["seats"].drop("strategy").equals(same["seats"].drop("strategy"))


def test_a_run_by_role_is_the_same_however_it_is_chunked():
    rules = GAME.load_rules(None, [])
    setup = Setup(5, ("default",) * 5, roles=ROLES)
    whole = GAME.play(rules, setup, 4, 0, 9, 0)
    parts = [GAME.play(rules, setup, 4, a, b, 0) for a, b in ((0, 3), (3, 9))]
    for table in ("games", "seats", "rounds"):
        assert whole[table].equals(pl.concat([p[table] for p in parts]))


def test_a_roles_restrictions_hold_in_that_role_only():
    from sim.games.saboteur import cards, forbid

    rules = GAME.load_rules(None, [])
    setup = Setup(4, ("default",) * 4, roles=(("miner", "default-no-rockfall"),
                                               ("saboteur", "default")))
    state = GAME.prepare(rules, setup)[4]
    ruleset, names = cards.build(rules)
    assert (state.forbid[2] == forbid.mask(ruleset, names, ("miner:rockfall",))).all()
    assert state.forbid[2].any()


def test_the_manifest_keeps_the_roles_and_a_setup_without_them_writes_what_it_did():
    setup = Setup(7, ("default",) * 7, roles=(("miner", "search"), ("saboteur", "default")))
    assert Setup.from_json(setup.to_json()) == setup
    assert setup.label() == "7p miner=search saboteur=default"
    assert set(Setup(7, ("default",) * 7).to_json()) == {"players", "seats", "options"}


@pytest.mark.parametrize("args, message", [
    (("saboteur", "--role-strategy", "dwarf=default"), "saboteur has no role 'dwarf'"),
    # a game without roles is not offered the flag
    (("spit", "--role-strategy", "miner=default"), "No such option: --role-strategy"),
    (("saboteur", "--role-strategy", "miner=nonesuch"), "unknown strategy 'nonesuch'"),
    (("saboteur", "--role-strategy", "miner=default", "--role-strategy", "miner=random"),
     "names the role 'miner' twice"),
    (("saboteur", "--role-strategy", "miner"), "takes ROLE=NAME"),
    (("saboteur", "--role-strategy", "miner=random", "--seat-strategy", "0=default"),
     "takes no choice by seat"),
    (("saboteur", "--role-strategy", "miner=default-no-saboteur:break"),
     "cannot play with the restriction 'saboteur:break'"),
])
def test_bad_role_strategies_are_one_line_and_exit_2(simulate, args, message):
    name, *rest = args
    players = "2" if name == "spit" else "4"
    code, out, err = simulate(name, "--players", players, "--games", "1", "--workers", "1",
                              "--quiet", *rest)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


def test_the_api_takes_role_strategies(tmp_path):
    from sim import api

    run = api.run("saboteur", players=4, games=3, seed=2, workers=1, out=tmp_path / "r",
                  role_strategies={"miner": "random"})
    assert Run.open(tmp_path / "r").setups[0].roles == (("miner", "random"),
                                                        ("saboteur", "default"))
    assert run is not None


def test_compare_plays_the_strategies_in_the_roles_left_open(simulate, tmp_path):
    code, out, err = simulate("compare", "saboteur", "--strategies", "random,default",
                              "--role-strategy", "saboteur=default", "--players", "4",
                              "--games", "6", "--seed", "1", "--workers", "1", "--out", "cmp",
                              "--quiet")
    assert code == 0, err
    setups = Run.open(tmp_path / "cmp").setups
    assert {s.roles for s in setups} == {(("miner", ""), ("saboteur", "default"))}
    rounds = pl.read_parquet(tmp_path / "cmp" / "rounds" / "*.parquet")
    assert set(rounds.filter(pl.col("role") == "saboteur")["strategy"]) == {"default"}
    miners = rounds.filter(pl.col("role") == "miner")
    seat_of = pl.DataFrame([(sid, seat, name) for sid, s in enumerate(setups)
                            for seat, name in enumerate(s.seats)], orient="row",
                           schema={"setup": pl.Int16, "seat": pl.Int8, "own": pl.String})
    joined = miners.with_columns(pl.col("setup").cast(pl.Int16)).join(seat_of, on=["setup", "seat"])
    assert (joined["strategy"] == joined["own"]).all()
    assert "miner=random saboteur=default" in (tmp_path / "cmp" / "compare" / "compare.md").read_text()
    code, _, err = simulate("compare", "saboteur", "--strategies", "random,default",
                            "--role-strategy", "saboteur=default,miner=default",
                            "--players", "4", "--games", "2", "--out", "c2")
    assert code == 2 and "leave a role open" in err


def test_tune_a_role_against_another_roles_bot(simulate, tmp_path):
    import json

    code, _, err = simulate("tune", "saboteur", "--players", "4", "--role", "miner",
                            "--role-strategy", "saboteur=random", "--trials", "2", "--games",
                            "4", "--gain-games", "4", "--seed", "1", "--workers", "1",
                            "--out", "t", "--quiet")
    assert code == 0, err
    side = json.loads((tmp_path / "t" / "tune.json").read_text())["settings"]["side"]
    assert side["roles"] == [["miner", ""], ["saboteur", "random"]]
    for args, says in ((("--role-strategy", "saboteur=random"), "goes with --role"),
                       (("--role", "miner", "--role-strategy", "miner=random"),
                        "names the role tuned")):
        code, _, err = simulate("tune", "saboteur", "--players", "4", *args, "--out", "t2")
        assert code == 2 and says in err


def test_a_trace_names_each_moves_bot_by_the_role_of_its_seat(simulate):
    code, out, err = simulate("trace", "saboteur", "--players", "4", "--seed", "1",
                              "--role-strategy", "miner=random")
    assert code == 0, err
    assert "bots by role: miner=random saboteur=default" in out
    moves = [line for line in out.splitlines() if line.startswith("[")]
    assert any("(miner, random)" in m for m in moves)
    assert all("(miner, random)" in m or "(saboteur, default)" in m for m in moves)


def test_forbid_restricts_the_roles_bots_a_role_prefix_its_own_only(tmp_path):
    from sim.api import configure

    _, _, (setup,) = configure("saboteur", "4", {"saboteurs": [None]}, "default", [], [], [],
                               None, ["rockfall", "miner:break"],
                               ["miner=random,saboteur=default"])
    assert setup.roles == (("miner", "random-no-rockfall-no-miner:break"),
                           ("saboteur", "default-no-rockfall"))
    _, _, (setup,) = configure("saboteur", "4", {"saboteurs": [None]}, "default", [], [], [],
                               None, ["miner:break"], ["saboteur=random"])
    assert setup.roles == (("miner", "default-no-miner:break"), ("saboteur", "random"))
