"""The asv benchmark suite (benchmarks/) still imports and names what exists: a rename of what
it uses breaks here, not months later in `asv continuous`. Nothing is timed."""

import importlib
import itertools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["benchmarks.common", "benchmarks.engines", "benchmarks.commands", "benchmarks.compare",
           "benchmarks.player", "benchmarks.yardstick_no_thanks"]


@pytest.fixture(autouse=True)
def root_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))


@pytest.mark.parametrize("name", MODULES)
def test_a_benchmark_module_imports(name):
    importlib.import_module(name)


def test_every_module_of_the_suite_is_imported_here():
    found = {f"benchmarks.{p.stem}" for p in (ROOT / "benchmarks").glob("*.py")} - {"benchmarks.__init__"}
    assert found == set(MODULES)


def test_every_game_is_timed_with_configurations_it_accepts():
    from benchmarks import common, engines
    from sim import games

    assert sorted(common.PLAYERS) == games.names()
    assert Path(common.FIRST_MOVE).is_file()
    for bench in (engines.Engine, engines.SearchSeat, engines.PythonDriver):
        for args in itertools.product(*bench.params):
            game, _, setup = common.configured(args[0], bench.table(*args))  # checks the count
            assert set(setup.seats) <= {*game.strategy_names(), common.PYTHON_BOT}
            assert bench().count(*args) >= 1  # how many games its timing plays


def test_the_gate_fails_a_row_only_when_the_interval_of_its_median_ratio_is_too_slow():
    from benchmarks.compare import Row, slower_rows

    # CPU seconds of 100 games per round, there 1.0 each round: here 10% slower in all rounds
    # but one (noise)
    there = [1.0] * 9
    slow = Row("saboteur", ("default",) * 7, 100, here=[1.1] * 4 + [0.9] + [1.1] * 4,
               there=there)
    # 10% slower in most rounds, but two rounds as fast: the interval reaches 1
    unsure = Row("spit", ("random",) * 2, 100, here=[1.1] * 4 + [1.0, 1.0] + [1.1] * 3,
                 there=there)
    # as fast, within 3%
    same = Row("speed", ("random",) * 2, 100,
               here=[1.02, 1.0, 0.98, 1.01, 0.99, 1.0, 1.03, 0.97, 1.0], there=there)
    assert slow.ratio() == pytest.approx(1 / 1.1) and slow.rate(slow.there) == 100
    # the sign test's 95% interval of 9 rounds runs from the 2nd to the 8th smallest ratio
    assert slow.interval() == pytest.approx((1 / 1.1, 1 / 1.1))
    assert unsure.interval() == pytest.approx((1 / 1.1, 1.0)) and unsure.ratio() < 0.95
    assert [row.verdict(0.05) for row in (slow, unsure, same)] == [
        "slower", "undecided", "not slower"]
    assert slower_rows([slow, unsure, same], 0.05) == [slow]
    assert slower_rows([slow, unsure, same], 0.10) == []
    assert Row("speed", ("random",) * 2, 100, here=[2.0] * 5, there=[1.0] * 5).verdict(
        0.05) == "undecided"  # 5 rounds give no 95% interval
    assert slow.name == "saboteur 7p default"
    assert Row("spit", ("search", "default")).name == "spit 2p one search seat, default"


def test_the_gate_catches_a_dosed_slowdown_and_passes_the_same_code():
    from benchmarks.compare import Player, Row, time_row

    # both sides this tree: the same code, the working tree's side burning extra CPU
    here, there = Player("dosed", ROOT, {}, dose=0.3), Player("this tree", ROOT, {})
    try:
        dosed = Row("speed", ("random", "random"))
        time_row(dosed, here, there, rounds=9, seconds=0.05, threshold=0.05, max_rounds=15)
        here.dose = 0.0
        same = Row("speed", ("random", "random"))
        time_row(same, here, there, rounds=9, seconds=0.05, threshold=0.05, max_rounds=15)
    finally:
        here.close()
        there.close()
    assert dosed.verdict(0.05) == "slower" and 0.65 < dosed.ratio() < 0.85
    assert same.verdict(0.05) != "slower" and dosed.same_tables and same.same_tables
    assert len(dosed.ratios()) == 9  # decided in the first rounds


def test_the_gate_refuses_a_revision_that_does_not_exist(capsys):
    from benchmarks import compare

    with pytest.raises(SystemExit) as stopped:
        compare.main(["no-such-revision-anywhere"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.startswith("compare: 'no-such-revision-anywhere' is not")


def test_the_gate_refuses_bad_options(capsys):
    from benchmarks import compare

    assert compare.main(["HEAD", "--rounds", "0"]) == 2
    assert compare.main(["HEAD", "--rounds", "5"]) == 2  # too few for a 95% interval
    assert compare.main(["HEAD", "--rounds", "9", "--max-rounds", "7"]) == 2
    assert compare.main(["HEAD", "--dose", "-0.1"]) == 2
    assert compare.main(["HEAD", "--bots", "clever"]) == 2
    assert compare.main(["HEAD", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_a_player_process_plays_the_same_games_with_the_copy_it_is_given():
    from benchmarks.compare import Player

    player = Player("this tree", ROOT, {})
    try:
        assert player.games == sorted(player.games) and "speed" in player.games
        first = player.play("speed", ("random", "random"), 5)
        again = player.play("speed", ("random", "random"), 5)
        other = player.play("speed", ("random", "random"), 6)
    finally:
        player.close()
    assert first[0] > 0 and first[1] == again[1] != other[1]
    assert player.process.returncode == 0


def test_the_gate_times_the_rows_asked_for():
    from benchmarks.compare import configurations

    class Side:
        games = ["saboteur", "speed"]
        strategies = {"saboteur": ["random", "default", "search"], "speed": ["random", "default"]}

    rows = configurations(Side(), Side(), [], ["random", "default", "search"])
    assert [row.name for row in rows] == [
        "saboteur 7p random", "saboteur 7p default", "saboteur 7p one search seat, default",
        "speed 2p random", "speed 2p default"]
    rows = configurations(Side(), Side(), ["saboteur"], ["search"])
    assert [row.name for row in rows] == ["saboteur 7p one search seat, default"]


def _no_thanks_rules():
    """Gives examples/games/no_thanks's rules module, read from its file (the suite runs
    before that package is installed)."""
    import importlib.util

    path = ROOT / "examples/games/no_thanks/no_thanks/rules.py"
    spec = importlib.util.spec_from_file_location("no_thanks_rules_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("policy", ["pass", "default", "greedy", "stingy"])
def test_the_no_thanks_yardstick_plays_the_bundled_games_rules_and_bots(players, policy):
    import random

    from benchmarks.yardstick_no_thanks import GREED, play

    rules = _no_thanks_rules()
    config = {"lowest_card": 3, "highest_card": 35, "removed": 9, "chips": {str(players): 11}}
    bot = None if policy == "pass" else rules.Default(greed=GREED[policy])
    for seed in range(40):  # the same shuffle of the same deck: the same game, move by move
        state = rules.deal(players, config, random.Random(seed))
        while not rules.is_over(state):
            moves = rules.legal_moves(state)
            move = (moves[-1] if bot is None  # pass while it has chips
                    else bot.choose(rules.view(state, state.seat), moves, None))
            state = rules.apply(state, move)
        assert play(players, policy, random.Random(seed)) == list(rules.result(state).winners)


def test_the_no_thanks_yardstick_prints_games_per_cpu_second(capsys):
    from benchmarks import yardstick_no_thanks

    yardstick_no_thanks.main(["--games", "20", "--repeat", "2", "--policy", "stingy"])
    out = capsys.readouterr().out
    assert out.startswith("plain-Python No Thanks!, 3 players, every seat stingy: ")
    assert out.rstrip().endswith("games per CPU-second (median of 2 timings of 20 games)")
