"""`simulate ladder`: the same deals at every rung of skill, into one run; its bad input."""

import polars as pl
import pytest

from sim.store import Run


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


@pytest.mark.parametrize("args, says", [
    (("--rungs", "random,expert"), "unknown rung 'expert'"),
    (("--rungs", "tuned"), "the tuned rung needs --tuned"),
    (("--games", "0"), "--games"),
    (("--tuned", "missing.toml"), "missing.toml"),
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
    from sim import games, ladder

    if ladder.has_search(games.get("speed")):
        pytest.skip("speed has a search family here")
    code, out, err = simulate("ladder", "speed", "--players", "2", "--rungs", "default,search",
                              "--out", "lad")
    assert code == 2 and "has no search bot family" in err
    assert not (tmp_path / "lad").exists()
