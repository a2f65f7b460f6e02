"""`simulate spit|speed`, `simulate trace spit|speed`, `simulate bench spit|speed`: what they run,
and one line with exit code 2 for bad input."""

import json
from pathlib import Path

import pytest


def test_a_reaction_sweep_plays_one_configuration_per_value(simulate, tmp_path):
    code, out, err = simulate("spit", "--games", "20", "--seed", "3", "--workers", "1", "--quiet",
                              "--out", "run", "--reaction", "1=0.6,expert", "--reaction-profile",
                              "novice")
    assert code == 0, err
    manifest = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert [s["options"] for s in manifest["setups"]] == [
        {"reaction_0": "novice", "reaction_1": "0.6:0.45"},
        {"reaction_0": "novice", "reaction_1": "expert"}]
    assert "Spit: 40 games" in out


@pytest.mark.parametrize("args, message", [
    (["speed", "--players", "2,3"], "error: speed is a game for two players"),
    (["spit", "--reaction", "1=-0.5"], "error: --reaction: the mean reaction time must be a positive"),
    (["trace", "speed", "--reaction", "0=-1"], "error: --reaction: the mean reaction time"),
    (["trace", "spit", "--reaction", "0=0.5,0.6"], "error: one reaction setting per seat here"),
    (["spit", "--set", "options.smaller_pile=grab"], "error: options.smaller_pile must be one of"),
])
def test_bad_input_is_one_line_and_exit_code_2(simulate, args, message):
    code, _, err = simulate(*args)
    assert code == 2
    assert err.startswith(message) and err.count("\n") == 1


def test_trace_speed_prints_a_game_with_timestamps(simulate):
    code, out, err = simulate("trace", "speed", "--seed", "4", "--reaction", "1=0.5:0.1")
    assert code == 0, err
    assert out.startswith("Speed, seed 4, game 0; seats: 0:default (reaction 0.9 s, spread 0.35), "
                          "1:default (reaction 0.5 s, spread 0.1)")
    assert "=== Hand 1" in out and "[   0.000s] go! pile 0:" in out and "Final: " in out


def test_bench_spit_measures_both_bots(simulate):
    code, out, err = simulate("bench", "spit", "--games", "50", "--repeat", "1",
                              "--scaling-games", "0")
    assert code == 0, err
    assert "random, 2 players" in out and "default, 2 players" in out


def test_trace_spit_prints_the_race_with_timestamps(simulate):
    code, out, err = simulate("trace", "spit", "--seed", "7", "--reaction", "0=expert")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Spit, seed 7, game 0; seats: 0:default (reaction 0.6 s")
    assert "=== Deal 1: two spit piles" in out and "Final: seat " in out
    stamps = [float(line[1:9]) for line in lines if line.startswith("[")]
    assert stamps == sorted(stamps) and len(stamps) > 50


EXAMPLES = Path(__file__).parents[4] / "strategies" / "examples"


def test_a_python_bot_a_preset_and_a_restriction_play_spit_from_the_command_line(simulate,
                                                                                  tmp_path):
    (tmp_path / "presets.toml").write_text('[preset.wary]\nfamily = "default"\ndeny = 4\n')
    code, out, err = simulate(
        "spit", "--games", "4", "--seed", "2", "--workers", "1", "--quiet", "--out", "run",
        "--strategies-file", "presets.toml", "--strategy", "wary",
        "--seat-strategy", f"0={EXAMPLES / 'spit_racer.py'}:Racer", "--forbid", "1=uncover")
    assert code == 0, err
    assert "spit_racer.py:Racer" in out and "wary-no-uncover" in out


def test_trace_speed_with_a_python_bot(simulate):
    code, out, err = simulate("trace", "speed", "--seed", "3", "--seat-strategy",
                              f"1={EXAMPLES / 'speed_pairs.py'}:Pairs", "--forbid", "0=play_up")
    assert code == 0, err
    assert out.startswith("Speed, seed 3, game 0; seats: 0:default-no-play_up (reaction 0.9 s")
    assert "1:speed_pairs.py:Pairs (reaction" in out and "Final: " in out


def test_simulate_strategies_lists_families_parameters_presets_and_restrictions(simulate):
    code, out, _ = simulate("strategies", "spit")
    assert code == 0
    assert "  default: " in out and "spit_on_larger" in out and "  turner " in out
    assert "  stack_equal " in out
    code, out, _ = simulate("strategies", "speed")
    assert code == 0 and "keep_options" in out and "  play_down " in out
