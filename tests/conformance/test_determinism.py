"""A game's result depends only on (seed, rules, setup, game index): not on the worker count, an
interruption and resume (every installed game), or what another seat's bot did with the same
deal (the fast-level games, whose adapters say what was dealt). (Chunking, the seed, the
largest seeds and the id offset: the public suite's `determinism`, test_public_suite.py.)"""

import json

import game_adapters
import polars as pl
import pytest
from builtin_seats import builtins_as_python

from sim import games

from sim.run import runner
from sim.game import Setup

GAMES = 12


def assert_same(a, b):
    assert a.keys() == b.keys()
    for name in a:
        assert a[name].equals(b[name]), name


def stored(run) -> dict[str, pl.DataFrame]:
    """Gives every table of a run, in one order whatever the shards' order."""
    found = {}
    for name in games.get(run.manifest["game"]).tables:
        table = run.scan(name).collect()
        found[name] = table.sort(table.columns)
    return found


def interrupt_at(monkeypatch, game, setup, start):
    """Makes the game's play raise KeyboardInterrupt when it comes to the chunk of `setup`
    starting at game `start` (compiling plays games too: those play on)."""
    real_play = game.play

    def play(rules, setup_, seed, start_, stop, id_offset):
        if (setup_, start_) == (setup, start):
            raise KeyboardInterrupt
        return real_play(rules, setup_, seed, start_, stop, id_offset)

    monkeypatch.setattr(game, "play", play)


@pytest.mark.parametrize("name", games.names())
def test_one_or_two_workers_and_a_resumed_run_store_the_same_games(name, tmp_path, monkeypatch):
    game = games.get(name)
    setups = [Setup(game.min_players, (strategy,) * game.min_players)
              for strategy in ("default", "random")]
    rules = game.load_rules(None, [])

    def run(out, workers, chunk_size=None, resume=False):
        return runner.run(game, rules, setups, 14, 99, tmp_path / out, workers,
                          chunk_size=chunk_size, resume=resume, progress=False)

    serial = stored(run("serial", 1, 14))
    assert serial["games"].height == 28
    with monkeypatch.context() as patch:
        interrupt_at(patch, game, setups[0], 10)
        with pytest.raises(KeyboardInterrupt):
            run("cut", 1, 5)
    assert json.loads((tmp_path / "cut" / "manifest.json").read_text())["games_done"] == 10
    # Resumed by two worker processes, in chunks of 5: the games one worker played in one go.
    assert_same(serial, stored(run("cut", 2, resume=True)))


def deals_and_moves(name, setup, seed, index):
    """Gives what was dealt in game `index` with these bots, and the moves they made."""
    game, adapter = games.get(name), game_adapters.of(name)
    rules = game.load_rules(None, [])
    dealt, moves = [], []

    def watch(player, seat, view, legal_moves, move):
        if not dealt:
            dealt.append(adapter.deal(player))
        moves.append((seat, move))

    with builtins_as_python(game, adapter, rules, setup, watch) as python:
        game.play(rules, python, seed, index, index + 1, 0)
    return dealt, moves


@pytest.mark.parametrize("name", game_adapters.fast_level())
@pytest.mark.parametrize("seed, index", [(0, 0), (2**40, 123)])
def test_changing_one_seats_bot_does_not_change_the_deal(name, seed, index):
    players = game_adapters.of(name).setups[0].players
    base, base_moves = deals_and_moves(name, Setup(players, ("default",) * players),
                                       seed, index)
    changed, changed_moves = deals_and_moves(
        name, Setup(players, ("random",) + ("default",) * (players - 1)), seed, index)
    assert base == changed
    assert base_moves != changed_moves, "the bots did play differently"
