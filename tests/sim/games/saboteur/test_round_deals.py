"""Every round of a Saboteur game is dealt from the game's own stream: whatever the seats' bots
did in earlier rounds, each round's roles, goals, hands and pile are the same."""

import pytest

from sim.game import Setup
from sim.games.saboteur import GAME, play


@pytest.fixture(scope="module")
def rules():
    return GAME.load_rules(None, [])


def deals(rules, strategies, seed, game):
    """Gives, per round, the roles, goals, hands and deck dealt in a game with these bots, and
    the moves played."""
    rs, names, families, params, s, _ = GAME.prepare(rules, Setup(len(strategies), tuple(strategies)))
    dealt, moves = [], []

    def watch(event, *args):
        if event == "round":
            dealt.append((s.role.tolist(), s.goal_kind.tolist(), s.hand.tolist(), s.deck.tolist()))
        elif event == "move":
            moves.append(args[1].tolist())

    play.play_python(s, rs, families, params, seed, game, -1,
                     play.new_results(1, len(strategies), 3), watch=watch)
    return dealt, moves


@pytest.mark.parametrize("seed, game", [(0, 0), (9, 4), (2**40, 123)])
def test_changing_one_seats_bot_does_not_change_any_rounds_deal(rules, seed, game):
    base, base_moves = deals(rules, ["default"] * 6, seed, game)
    changed, changed_moves = deals(rules, ["random"] + ["default"] * 5, seed, game)
    assert len(base) == 3 and base == changed
    assert base_moves != changed_moves, "the bots did play differently"


def test_the_roles_of_every_round_are_the_same_for_every_bot_mix(rules):
    tables = [GAME.play(rules, Setup(7, seats), 5, 0, 24, 0)["rounds"]
              for seats in (("default",) * 7, ("random",) * 7, ("naive-miners",) * 3 + ("random",) * 4)]
    roles = [t.select("game_id", "round", "seat", "role") for t in tables]
    assert roles[0].equals(roles[1]) and roles[0].equals(roles[2])
