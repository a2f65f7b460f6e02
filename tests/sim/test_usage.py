"""The seats tables' use counts (uses_<kind>): each seat's moves of each kind --forbid names,
as `simulate trace` shows them, counted alike by the jitted loops and the Python driver."""

import io
import re
from collections import Counter

import numpy as np
import polars as pl
import pytest

from sim import games, usage
from sim.game import Setup
from strategies.seats import compose


def traced(name: str, players: int, seed: int, index: int, seats=None):
    """Gives the trace of one game of `name` (default bots) and its tables."""
    game = games.get(name)
    rules = game.load_rules(None, [])
    out = io.StringIO()
    tables = game.trace(rules, Setup(players, seats or ("default",) * players), seed, index, out)
    return game, rules, out.getvalue(), tables


def uses_by_seat(seats: pl.DataFrame) -> dict[int, dict[str, int]]:
    kinds = usage.kinds_of(seats.columns)
    return {row["seat"]: {k: row[usage.PREFIX + k] for k in kinds}
            for row in seats.iter_rows(named=True)}


def test_tally_adds_one_use_of_each_kind_a_move_is():
    uses = usage.new_counts(2, 3, 4)
    usage.tally(uses, 1, 2, 0b1010)
    usage.tally(uses, 1, 2, 0b0010)
    assert uses[1, 2].tolist() == [0, 2, 0, 1]
    assert uses.sum() == 3


def test_saboteur_uses_are_the_moves_of_each_kind_in_the_trace():
    game, rules, text, tables = traced("saboteur", 5, 7, 3)
    dead_ends = {name for name, spec in rules["path_cards"].items() if not spec["through"]}
    words = {"places": "path", "breaks": "break", "repairs": "repair", "looks": "map",
             "drops": "rockfall", "passes": "pass"}
    counted = {seat: Counter() for seat in range(5)}
    for seat, verb, rest in re.findall(r"^\[\d+\] seat (\d) \([^)]*\) (\w+),? (.*)$", text, re.M):
        counted[int(seat)][words[verb]] += 1
        if verb == "places" and rest.split()[0] in dead_ends:
            counted[int(seat)]["dead_end"] += 1
    found = uses_by_seat(tables["seats"])
    assert sum(counted[0].values()) > 10
    for seat in range(5):
        assert found[seat] == {k: counted[seat][k] for k in found[seat]}, seat


@pytest.mark.parametrize("seats", [("raider",) * 3, ("search-fast", "raider", "raider")])
def test_deep_space_uses_are_the_moves_of_each_kind_in_the_trace(seats):
    # The engine counts a move as it applies it: a search seat's rollouts apply moves too,
    # and must leave the real game's counts as they were.
    game, rules, text, tables = traced("deep-space", 3, 5, 1, seats)
    counted = {seat: Counter() for seat in range(3)}
    for seat, line in re.findall(r"^   seat (\d) (.*)$", text, re.M):
        seen = counted[int(seat)]
        for pattern, kind in ((r"^moves ", "move"), (r"^moves .* through the warp", "warp"),
                              (r": combat!", "attack"), (r"^recruits 1", "recruit"),
                              (r"^trades ", "trade"), (r"^builds ", "build"),
                              (r"^discards ", "discard"), (r"^plays ", "play")):
            seen[kind] += bool(re.search(pattern, line))
        card = re.match(r"plays (\w+)", line)
        if card:
            seen[card.group(1)] += 1
    found = uses_by_seat(tables["seats"])
    assert sum(counted[0].values()) > 10
    for seat in range(3):
        assert found[seat] == {k: counted[seat][k] for k in found[seat]}, seat


@pytest.mark.parametrize("name", games.names())
def test_every_kind_forbid_names_has_a_uses_column_documented(name):
    game = games.get(name)
    rules = game.load_rules(None, [])
    players = game.min_players + (1 if game.max_players > game.min_players else 0)
    seats = game.play(rules, Setup(players, ("default",) * players), 3, 0, 5, 0)["seats"]
    kinds = usage.kinds_of(seats.columns)
    assert set(kinds) <= set(game.bots.forbiddable(rules))
    documented = " ".join(c.name for c in game.columns["seats"])
    assert all(usage.PREFIX + k in documented or usage.PREFIX + "<card>" in documented
               for k in kinds)
    assert seats.select(usage.names(kinds)).to_numpy().sum() > 0


@pytest.mark.parametrize("name, kind", [("saboteur", "rockfall"), ("sequence-stacks", "wild"),
                                        ("spit", "fill_space"), ("deep-space", "meteor_storm")])
def test_a_forbidden_kind_is_never_used(name, kind):
    game = games.get(name)
    rules = game.load_rules(None, [])
    players = max(game.min_players, 3) if game.max_players > 2 else 2
    free = game.play(rules, Setup(players, ("default",) * players), 4, 0, 20, 0)["seats"]
    barred = game.play(rules, Setup(players, (compose("default", [kind]),) * players),
                       4, 0, 20, 0)["seats"]
    assert free[usage.PREFIX + kind].sum() > 0
    assert barred[usage.PREFIX + kind].sum() == 0


def test_the_python_driver_counts_what_the_jitted_loop_counts():
    """The Python driver (traces, Python strategies) gives the jitted loop's counts, game for
    game (every game's driver tables are compared whole in tests/conformance)."""
    game = games.get("saboteur")
    rules = game.load_rules(None, [])
    from sim.games.saboteur import play as sab_play

    setup = Setup(4, ("default",) * 4)
    jitted = game.play(rules, setup, 9, 0, 4, 0)["seats"]
    ruleset, names, families, params, state, fixed = game.prepare(rules, setup)
    out = sab_play.new_results(4, 4, 3)
    for row in range(4):
        sab_play.play_python(state, ruleset, families, params, 9, row, fixed, out, row)
    assert np.array_equal(out.uses.reshape(16, -1),
                          jitted.select(usage.names(usage.kinds_of(jitted.columns))).to_numpy())
