"""Whatever the seed, game index, player count, bots and rule options of a game: only legal
moves are offered (none twice) and played, what the game conserves stays conserved move by
move, and every game ends with a winner or recorded as stalled."""

import game_adapters
import pytest
from builtin_seats import assert_same_tables, builtins_as_python, played
from hypothesis import given, settings
from hypothesis import strategies as st

from sim import games
from sim.game import Setup


@pytest.mark.parametrize("name", game_adapters.fast_level())
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_only_legal_moves_happen_what_is_conserved_stays_and_every_game_ends(name, data):
    game, adapter = games.get(name), game_adapters.of(name)
    players = data.draw(st.integers(game.min_players, min(game.max_players, 7)), label="players")
    setup = Setup(players, tuple(data.draw(st.sampled_from(played(game)))
                                 for _ in range(players)))
    rules = game.load_rules(None, list(data.draw(st.sampled_from(adapter.variants))))
    seed, index = data.draw(st.integers(0, 2**63 - 1)), data.draw(st.integers(0, 10**6))
    decisions = []

    def watch(player, seat, view, legal_moves, move):
        assert len(set(legal_moves)) == len(legal_moves), "no move is listed twice"
        for what, (found, expected) in adapter.census(player).items():
            assert found == expected, f"{what} are conserved"
        decisions.append(seat)

    with builtins_as_python(game, adapter, rules, setup, watch) as python:
        tables = game.play(rules, python, seed, index, index + 1, 0)
    assert set(decisions) == set(range(players)), "every seat decided"
    assert_same_tables(tables, game.play(rules, setup, seed, index, index + 1, 0))
    stalled, won = tables["games"]["stalled"][0], tables["seats"]["won"].any()
    assert stalled != won, "a game ends with a winner, or stalled without one"
