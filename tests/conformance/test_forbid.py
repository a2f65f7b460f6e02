"""Restricted play (--forbid): whoever chooses a seat's moves, it is never offered (so never
makes) a move it is forbidden; other seats are untouched; the jitted loop and the Python
driver play the same restricted games, and a run records the restriction."""

import game_adapters
import pytest
from builtin_seats import assert_same_tables, builtins_as_python, played
from hypothesis import given, settings
from hypothesis import strategies as st

from sim import games
from sim.game import Setup
from strategies import seats


def kinds_made(name, setup, seed, games_, check=None) -> dict[int, set[str]]:
    """Gives, per seat, the --forbid names of the moves it made in games [0, games_) of `setup`
    played through the Python driver (check(player, seat, legal_moves) sees each decision);
    asserts they are the games the jitted loop plays."""
    game, adapter = games.get(name), game_adapters.of(name)
    rules = game.load_rules(None, [])
    made = {seat: set() for seat in range(setup.players)}

    def watch(player, seat, view, legal_moves, move):
        if check:
            check(player, seat, legal_moves)
        made[seat] |= adapter.kinds(player, seat, move, legal_moves)

    with builtins_as_python(game, adapter, rules, setup, watch) as python:
        assert_same_tables(game.play(rules, python, seed, 0, games_, 0),
                           game.play(rules, setup, seed, 0, games_, 0))
    return made


@pytest.mark.parametrize("name", game_adapters.fast_level())
@settings(max_examples=6, deadline=None)
@given(data=st.data())
def test_no_seat_is_ever_offered_a_move_it_is_forbidden(name, data):
    game, adapter = games.get(name), game_adapters.of(name)
    forbiddable = sorted(game.bots.forbiddable(game.load_rules(None, [])))
    players = data.draw(st.integers(game.min_players, min(game.max_players, 6)), label="players")
    forbidden = [data.draw(st.lists(st.sampled_from(forbiddable), max_size=3, unique=True))
                 for _ in range(players)]
    strategies = [seats.compose(data.draw(st.sampled_from(played(game))), names)
                  for names in forbidden]
    seed = data.draw(st.integers(0, 2**62), label="seed")

    def check(player, seat, legal_moves):
        for move in legal_moves:
            assert not adapter.kinds(player, seat, move, legal_moves) & set(forbidden[seat]), \
                (seat, move, forbidden[seat])

    kinds_made(name, Setup(players, tuple(strategies)), seed, 1, check)


@pytest.mark.parametrize("name", game_adapters.fast_level())
def test_free_seats_make_the_moves_a_restriction_takes_away(name):
    setup = game_adapters.of(name).setups[0]
    made = kinds_made(name, Setup(setup.players, ("default",) * setup.players), 5, 3)
    assert set().union(*made.values()) >= game_adapters.of(name).common


@pytest.mark.parametrize("name", game_adapters.fast_level())
def test_a_restricted_run_records_the_restriction_and_plays_other_games(name):
    game, adapter = games.get(name), game_adapters.of(name)
    rules = game.load_rules(None, [])
    players = adapter.setups[0].players
    restricted = seats.compose("default", sorted(adapter.common))
    setup = Setup(players, (restricted,) * players)
    free = game.play(rules, Setup(players, ("default",) * players), 8, 0, 10, 0)
    bound = game.play(rules, setup, 8, 0, 10, 0)
    assert bound["seats"]["strategy"].unique().to_list() == [restricted]
    assert not free["seats"].drop("strategy").equals(bound["seats"].drop("strategy"))
    assert setup.label() == f"{players}p forbid={','.join(sorted(adapter.common))} default"
