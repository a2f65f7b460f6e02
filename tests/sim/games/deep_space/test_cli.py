"""`simulate deep-space`, `trace deep-space`, `--board`/`--deck` files, and bad input: one line
on stderr, exit code 2."""

import json
from pathlib import Path

import polars as pl
import pytest

from sim import cli
from sim.games.deep_space import GAME, ruleset
from sim.game import Setup

# A small board of one's own: four homes around a 4-planet ring, two moons, a warp between A
# and C.
SMALL = """name = "square"
links = [["H0", "A"], ["H1", "C"], ["A", "B"], ["B", "C"], ["C", "D"], ["D", "A"],
         ["H2", "B"], ["H3", "D"], ["A", "E"], ["C", "F"]]
[planets]
H0 = {x = 0, y = 3, home = true}
H1 = {x = 0, y = -3, home = true}
H2 = {x = 3, y = 0, home = true}
H3 = {x = -3, y = 0, home = true}
A = {x = 0, y = 1}
B = {x = 1, y = 0}
C = {x = 0, y = -1}
D = {x = -1, y = 0}
E = {x = 1, y = 2}
F = {x = -1, y = -2}
[warp]
planets = ["A", "C"]
x = 0
y = 0
[seats]
2 = ["H0", "H1"]
3 = ["H0", "H1", "H2"]
4 = ["H0", "H1", "H2", "H3"]
[covers]
2 = ["B"]
"""


@pytest.fixture(autouse=True)
def no_summary(monkeypatch):
    """Leaves a run's summary unprinted: these tests read the run folder."""
    monkeypatch.setattr(cli, "_print_summary", lambda run, *_: None)


def test_a_run_on_a_board_of_ones_own_records_the_board_itself(simulate, tmp_path):
    (tmp_path / "square.toml").write_text(SMALL)
    code, _, err = simulate("deep-space", "--players", "2,4", "--board", "square.toml",
                            "--games", "30", "--seed", "3", "--workers", "1", "--out", "run",
                            "--quiet")
    assert (code, err) == (0, "")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["rules"]["board"]["name"] == "square"
    assert manifest["rules"]["deck"]["cards"]["hyperdrive"]["count"] == 4
    games = pl.read_parquet(tmp_path / "run" / "games" / "*.parquet")
    assert games["board"].unique().to_list() == ["square"] and games.height == 60
    bases = pl.read_parquet(tmp_path / "run" / "bases" / "*.parquet")
    assert set(bases["planet"]) <= {"A", "B", "C", "D", "E", "F"}
    two = bases.join(games.filter(pl.col("players") == 2), on="game_id")
    assert "B" not in two["planet"].to_list(), "B is covered with 2 players"


def test_trace_shows_a_game_turn_by_turn(simulate, tmp_path):
    (tmp_path / "square.toml").write_text(SMALL)
    code, out, err = simulate("trace", "deep-space", "--players", "3", "--seed", "5",
                              "--board", "square.toml")
    assert (code, err) == (0, "")
    assert out.startswith("Deep Space, 3 players, seed 5, game 0, board 'square'")
    assert "-- turn 1: seat " in out and "Final: " in out


def test_a_deck_of_ones_own_is_played(tmp_path):
    deck = tmp_path / "deck.toml"
    deck.write_text('[cards.windfall]\neffect = "ore"\ncount = 30\namount = 3\n')
    rules = GAME.load_rules(None, [f"deck={json.dumps(str(deck))}"])
    seats = GAME.play(rules, Setup(2, ("default",) * 2), 1, 0, 20, 0)["seats"]
    assert seats["cards_played"].sum() > 0


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('["H0", "A"], ', ""), "home station 'H0' is not linked to any planet"),
    (lambda t: t.replace('["A", "B"], ["B", "C"], ["C", "D"], ["D", "A"],', '["A", "B"], ["C", "D"],')
     .replace('planets = ["A", "C"]', "planets = []"),
     "the map is disconnected: H1, H3, C, D, F cannot be reached from H0"),
    (lambda t: t.replace('2 = ["H0", "H1"]', '2 = ["H0", "Z"]'), "unknown planet 'Z' in seats.2"),
    (lambda t: t.replace('2 = ["B"]', '2 = ["Q"]'), "unknown planet 'Q' in covers.2"),
    (lambda t: t.replace('2 = ["H0", "H1"]', '2 = ["H0", "A"]'),
     "seats.2: 'A' is not a home station (home = true)"),
    (lambda t: t.replace("[planets]", "tides = 3\n[planets]"), "unknown key 'tides'"),
    (lambda t: t.replace("links = [", "links = [[\"A\", \"Nowhere\"], "),
     "unknown planet 'Nowhere' in links"),
    (lambda t: "links = [\n", "malformed TOML"),
    (lambda t: t.replace('2 = ["B"]', '2 = ["B", "F"]'),
     ("board 'square': with 2 players only 4 planets can take a base, fewer than the 5 bases "
      "that win (bases.to_win.2)")),
], ids=["home-unlinked", "disconnected", "unknown-seat-home", "unknown-cover", "seat-not-home",
        "unknown-key", "unknown-link", "malformed", "too-few-planets"])
def test_a_bad_board_is_one_line_and_exit_2(simulate, tmp_path, edit, message):
    (tmp_path / "bad.toml").write_text(edit(SMALL))
    code, _, err = simulate("deep-space", "--players", "2", "--board", "bad.toml")
    assert code == 2 and err.startswith("error: board ") and message in err, err
    assert err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"], "nothing was written"


@pytest.mark.parametrize("args, message", [
    (["--players", "2", "--board", "missing.toml"],
     "error: cannot read the board missing.toml: No such file or directory"),
    (["--players", "2", "--set", "options.redraw=sometimes"],
     "error: options.redraw must be one of after_discard, always, never, got 'sometimes'"),
    (["--players", "2", "--set", "bases.to_win.2=0"],
     "error: bases.to_win.2 must be a whole number >= 1, got 0"),
])
def test_bad_input_is_one_line_and_exit_2(simulate, args, message):
    code, _, err = simulate("deep-space", *args)
    assert code == 2 and err.startswith(message) and err.count("\n") == 1, err


def test_a_bad_deck_is_one_line_and_exit_2(simulate, tmp_path):
    (tmp_path / "deck.toml").write_text('[cards.nova]\neffect = "supernova"\ncount = 2\n')
    code, _, err = simulate("deep-space", "--players", "2", "--deck", "deck.toml")
    assert code == 2 and err.startswith("error: deck deck.toml: cards.nova.effect must be one of")


def test_the_stand_in_board_and_deck_say_they_are_stand_ins():
    for path in (ruleset.DEFAULT_BOARD, ruleset.DEFAULT_DECK, Path("configs/deep_space.toml")):
        text = (Path(__file__).resolve().parents[4] / path).read_text()
        assert "stand-in" in text.lower()


ROOT = Path(__file__).resolve().parents[4]
SETTLER = ROOT / "strategies" / "examples" / "deep_space_settler.py"
PRESETS = ROOT / "configs" / "deep_space-presets.toml"


def test_the_example_bot_presets_and_restrictions_play_from_the_command_line(simulate, tmp_path):
    code, _, err = simulate(
        "deep-space", "--players", "3", "--games", "4", "--seed", "3", "--workers", "1",
        "--out", "run", "--quiet", "--strategies-file", str(PRESETS), "--strategy", "cautious",
        "--seat-strategy", f"0={SETTLER}:Settler", "--forbid", "warp", "--forbid", "2=meteor_storm")
    assert (code, err) == (0, "")
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert manifest["setups"][0]["seats"] == [
        f"{SETTLER}:Settler-no-warp", "cautious-no-warp", "cautious-no-warp-no-meteor_storm"]
    assert manifest["rules"]["strategy_presets"]["cautious"]["attack_margin"] == 6
    seats = pl.read_parquet(tmp_path / "run" / "seats" / "*.parquet")
    assert seats.filter(pl.col("seat") == 0)["strategy"].unique().to_list() == \
        ["deep_space_settler.py:Settler-no-warp"]
    assert seats.height == 12


def test_trace_takes_a_python_bot_and_restrictions(simulate):
    code, out, err = simulate("trace", "deep-space", "--players", "2", "--seed", "4",
                              "--seat-strategy", f"1={SETTLER}:Settler", "--forbid", "0=trade")
    assert (code, err) == (0, "")
    assert "seats: 0:default-no-trade, 1:deep_space_settler.py:Settler" in out
    assert "seat 0 trades" not in out and "Final: " in out


def test_strategies_lists_families_parameters_presets_and_forbidden_names(simulate):
    code, out, _ = simulate("strategies", "deep-space", "--strategies-file", str(PRESETS))
    assert code == 0
    assert "  default: races for bases" in out and "attack_margin" in out and "range -2–10" in out
    assert "  raider " in out and "cautious" in out and "(--strategies-file)" in out
    assert "  warp " in out and "  meteor_storm " in out
