"""The progress recorder (sim/progress.py): samples every `stride` moves in a fixed buffer,
halving it when full, and reads each game at 0%, 10%, 20%, 25%, ... 100% of its moves."""

import io

import numpy as np
import polars as pl
import pytest

from sim import games, progress
from sim.game import Setup


def recorded(moves: int, sides: int = 2):
    """Plays a game of `moves` moves whose progress is the moves played so far (side 1: minus
    them), seats taking turns; gives the recorder and how often the progress was asked for."""
    asked = []

    def measure(state):
        asked.append(state)
        return (state, -state)[:sides]

    rec = progress.new(1, sides)
    sampler = progress.Sampler(rec, measure)
    for move in range(moves):
        sampler.step(move, move % sides)
    sampler.finish(moves, 0)
    return rec, len(asked)


@pytest.mark.parametrize("moves", [0, 1, 7, 31, 32, 33, 100, 1000, 12345])
def test_each_point_reads_the_last_sample_at_or_before_its_share_of_the_moves(moves):
    rec, _ = recorded(moves)
    for point, percent in enumerate(progress.PERCENTS):
        target = percent * moves // 100
        taken = rec.moves[0, point]
        assert rec.values[0, point, 0] == taken  # the progress then: the moves played
        assert rec.values[0, point, 1] == -taken
        assert taken <= target
        # never older than a sixteenth of the game (the buffer holds 16 to 32 samples)
        assert target - taken <= max(moves // 16, 1)
    assert rec.moves[0, -1] == moves and rec.values[0, -1, 0] == moves


@pytest.mark.parametrize("moves", [100, 1000, 100_000])
def test_the_buffer_keeps_the_cost_of_a_game_logarithmic_in_its_length(moves):
    assert recorded(31)[1] == 32  # every move, and the end
    slots = progress.SLOTS
    assert recorded(moves)[1] <= slots + slots // 2 * np.ceil(np.log2(moves / slots)) + 1


def test_decisions_count_each_sides_moves_up_to_the_point():
    rec, _ = recorded(100)
    for point in range(progress.POINTS):
        taken = rec.moves[0, point]
        assert list(rec.decisions[0, point]) == [(taken + 1) // 2, taken // 2]


def test_a_game_starts_from_an_empty_buffer():
    rec = progress.new(2, 1)
    sampler = progress.Sampler(rec, lambda state: (state,))
    for move in range(500):
        sampler.step(move, 0)
    sampler.finish(500, 0)
    for move in range(10):
        sampler.step(move, 0)
    sampler.finish(10, 1)
    assert list(rec.moves[1]) == [p * 10 // 100 for p in progress.PERCENTS]
    assert rec.decisions[1, -1, 0] == 10


@pytest.mark.parametrize("name", ["sequence-stacks", "deep-space", "spit", "speed"])
def test_a_games_progress_is_read_from_its_start_and_ends_with_the_winner_ahead(name):
    game = games.get(name)
    rules = game.load_rules(None, [])
    tables = game.play(rules, Setup(2, ("default", "default")), 3, 0, 20, 0)
    table, winners = tables["progress"], tables["games"]
    assert table.height == 20 * progress.POINTS * 2
    assert (table.filter(point=0)["moves"] == 0).all()
    end = table.filter(point=100).join(winners.select("game_id", "winner", "turns"), "game_id")
    for (game_id,), rows in end.group_by("game_id"):
        winner = rows["winner"][0]
        if winner is not None:
            assert rows.filter(seat=winner)["value"][0] == rows["value"].max(), game_id


def test_the_progress_of_a_traced_game_is_the_one_its_run_records():
    game = games.get("sequence-stacks")
    rules = game.load_rules(None, [])
    setup = Setup(3, ("default", "random", "default"))
    traced = game.trace(rules, setup, 11, 4, io.StringIO())["progress"]
    played = game.play(rules, setup, 11, 4, 5, 0)["progress"]
    assert traced.equals(played)
    assert np.all(np.diff(traced.filter(seat=0)["moves"].to_numpy()) >= 0)


def test_saboteurs_progress_is_each_teams_race_per_round_won_at_one():
    game = games.get("saboteur")
    rules = game.load_rules(None, [])
    tables = game.play(rules, Setup(5, ("default",) * 5), 3, 0, 10, 0)
    table = tables["progress"]
    assert table.height == 10 * 3 * progress.POINTS * 2
    assert table["value"].is_between(0, 1).all()
    assert (table.filter(point=0, team="saboteurs")["value"] == 0).all()  # no card played yet
    winners = tables["rounds"].select("game_id", "round", "winner_team").unique()
    end = table.filter(point=100).join(winners, on=["game_id", "round"])
    assert (end.filter(pl.col("team") == pl.col("winner_team"))["value"] == 1).all()
