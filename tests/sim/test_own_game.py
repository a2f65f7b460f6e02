"""A designer's own game: `simulate new-game` writes a simple-level package (sim/simple.py), and
`--fast` a fast-level one (jitted, on sim/turns.py's shell), that pass the public conformance
checks (sim/testing.py) unchanged, installed games are found through the entry points and get
the commands, and a broken one is one line."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from sim import testing
from sim.new_game import write

ROOT = Path(__file__).resolve().parents[2]


def installed(tmp_path: Path, entries: dict[str, str], package: str = "card-race") -> dict:
    """Gives the environment of a `simulate` process that finds these entry points (name ->
    "module:GAME") as if `package` were pip-installed."""
    info = tmp_path / f"{package.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(
        "[tabletop_balance.games]\n" + "".join(f"{k} = {v}\n" for k, v in entries.items()))
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}


def simulate(env: dict, cwd: Path, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=600)


def own_tests(folder: Path) -> str:
    """Runs the tests of the package written to `folder`; gives pytest's output, once they
    pass."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(folder)])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist"], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_written_package_passes_its_own_tests_unchanged(written):
    assert f"{len(testing.CHECKS) + 1} passed" in own_tests(written[0])  # the checks, its rules test


def test_an_installed_game_is_listed_played_and_described(written, tmp_path):
    folder, _ = written
    env = installed(folder, {"card-race": "card_race:GAME"})
    listed = simulate(env, tmp_path, "games")
    assert listed.returncode == 0, listed.stderr
    assert "card-race        Card Race            2–6 players" in listed.stdout
    assert "saboteur" in listed.stdout
    run = simulate(env, tmp_path, "card-race", "--players", "2-3", "--games", "30", "--seed",
                   "1", "--workers", "1", "--set", "target=15,21", "--out", "run")
    assert run.returncode == 0, run.stderr
    assert "3p target=15 default" in run.stdout.replace("\n", " ") or "target=15" in run.stdout
    assert (tmp_path / "run" / "manifest.json").is_file()
    rules = simulate(env, tmp_path, "rules", "card-race")
    assert "Going over this score busts a player to 0." in rules.stdout
    assert "target" in rules.stdout and "rules.toml" in rules.stdout


def test_a_broken_plugin_is_one_line_naming_its_package_and_the_rest_are_listed(tmp_path):
    env = installed(tmp_path, {"broken-game": "no_such_module_here:GAME"}, "broken-pkg")
    listed = simulate(env, tmp_path, "games")
    assert listed.returncode == 0
    assert listed.stderr.strip() == (
        "error: game 'broken-game' from package 'broken-pkg' failed to load: "
        "ModuleNotFoundError: No module named 'no_such_module_here'")
    assert "saboteur" in listed.stdout and "broken-game" not in listed.stdout
    played = simulate(env, tmp_path, "broken-game", "--players", "3", "--games", "5")
    assert played.returncode == 2 and len(played.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("args, says", [
    (["My Game"], "a game's name is lower-case letters and digits"),
    (["saboteur"], "a game named 'saboteur' is installed already"),
])
def test_new_game_refuses_a_bad_name_in_one_line(simulate, args, says):
    code, _, err = simulate("new-game", *args)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1


def test_new_game_refuses_a_folder_in_use(simulate, tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "file").write_text("mine")
    # not card-race: the module's own games (`written`) make card_race an importable module
    code, _, err = simulate("new-game", "tile-race", "--folder", "taken")
    assert code == 2 and "taken exists and is not empty" in err


def test_the_conformance_checks_catch_a_view_showing_hidden_cards(written, monkeypatch):
    _, package = written
    rules = package.rules
    real_view = rules.view
    monkeypatch.setattr(rules, "view", lambda state, seat: (real_view(state, seat),
                                                             tuple(state.deck)))
    with pytest.raises(AssertionError, match="redeal changed what the seat sees"):
        testing.hidden_information(package.GAME, players=[2])


def test_the_conformance_checks_catch_a_deal_not_from_its_stream(written, monkeypatch):
    _, package = written
    rules = package.rules
    real_deal = rules.deal
    monkeypatch.setattr(rules, "deal", lambda players, r, rng: real_deal(
        players, r, random.Random()))
    with pytest.raises(AssertionError):
        testing.determinism(package.GAME, players=[2])


def test_the_search_plays_on_where_the_default_bot_stops_and_loses(written):
    """Card Race at 2 players: the other player stopped at 18, seat 0 has 15 and the deck
    holds only 5s. The default bot (stop_at 6) stops and loses; the search re-deals the deck,
    plays both moves out, and draws to 20 (and stops at 18 against 15, where a draw busts)."""
    from sim.simple import Search

    _, package = written
    rules, game = package.rules, package.GAME
    state = rules.State(0, [5] * 6, [15, 18], [False, True], 21)
    moves = rules.legal_moves(state)
    assert rules.Default().choose(rules.view(state, 0), moves, random.Random(0)) == rules.STOP
    search = Search(game, game.load_rules(None, []), {"determinizations": 2, "rollouts": 1})
    assert search.choose(state, 0, moves, random.Random(0)) == rules.DRAW
    assert state.scores == [15, 18] and len(state.deck) == 6  # the real state is left alone
    ahead = rules.State(0, [5] * 6, [18, 15], [False, True], 21)  # drawing busts: it stops
    assert search.choose(ahead, 0, moves, random.Random(0)) == rules.STOP


def test_the_search_copies_each_world_for_every_play_but_its_last(written):
    """apply may change the state it is given, so each rollout starts from a copy of the world
    re-dealt, but the world's last, which is given the world itself (no one reads it after)."""
    from sim.simple import Search

    _, package = written
    rules, game = package.rules, package.GAME
    state = rules.State(0, [5] * 6, [15, 18], [False, True], 21)
    moves = rules.legal_moves(state)
    search = Search(game, game.load_rules(None, []), {"determinizations": 3, "rollouts": 2})
    copied = []
    copy = search._copy
    search._copy = lambda world: copied.append(world) or copy(world)
    assert search.choose(state, 0, moves, random.Random(0)) == rules.DRAW
    assert len(copied) == 3 * (len(moves) * 2 - 1)  # per world: 2 moves x 2 rollouts, less one
    assert state.scores == [15, 18] and len(state.deck) == 6


def test_the_search_copies_a_state_that_does_not_pickle_as_deepcopy_does(written,
                                                                          monkeypatch):
    """States are copied through pickle (faster); one that does not pickle (here: re-dealt
    as a class made inside a function) is deep-copied instead, with the same decisions."""
    from sim.simple import Search

    _, package = written
    rules, game = package.rules, package.GAME

    class Local(rules.State):
        pass

    def local_redeal(state, seat, rng):
        world = redeal(state, seat, rng)
        return Local(*(getattr(world, name) for name in rules.State.__slots__))

    redeal = rules.redeal
    monkeypatch.setattr(rules, "redeal", local_redeal)
    search = Search(game, game.load_rules(None, []), {"determinizations": 4, "rollouts": 2})
    for scores, best in (([15, 18], rules.DRAW), ([18, 15], rules.STOP)):
        state = rules.State(0, [5] * 6, scores, [False, True], 21)
        assert search.choose(state, 0, rules.legal_moves(state), random.Random(0)) == best
    assert not search.pickles


@pytest.fixture(scope="module")
def written_fast(tmp_path_factory):
    """Gives the folder of a fast-level game written by `simulate new-game --fast`."""
    folder = tmp_path_factory.mktemp("own_fast") / "dice-race"
    write("dice-race", folder, fast=True)
    return folder


def test_the_written_fast_package_passes_its_own_tests_unchanged(written_fast):
    assert f"{len(testing.CHECKS) + 1} passed" in own_tests(written_fast)


def test_an_installed_fast_game_is_played_traced_and_its_bots_listed(written_fast, tmp_path):
    env = installed(written_fast, {"dice-race": "dice_race:GAME"}, "dice-race")
    run = simulate(env, tmp_path, "dice-race", "--players", "2-3", "--games", "2000", "--seed",
                   "1", "--workers", "1", "--strategy", "careful", "--out", "run")
    assert run.returncode == 0, run.stderr
    assert "3p careful" in run.stdout and (tmp_path / "run" / "manifest.json").is_file()
    trace = simulate(env, tmp_path, "trace", "dice-race", "--players", "2", "--seed", "3")
    assert trace.returncode == 0, trace.stderr
    assert "seat 0 (default): 'draw'" in trace.stdout and "over after" in trace.stdout
    listed = simulate(env, tmp_path, "strategies", "dice-race")
    assert "stop_at" in listed.stdout and "careful" in listed.stdout
    assert "--forbid" not in simulate(env, tmp_path, "dice-race", "--help").stdout
