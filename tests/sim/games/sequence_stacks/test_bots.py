"""Sequence Stacks bots: the random family's pick, what the default family decides in the
positions its parameters are about, that it reads nothing its player could not see, and the
names a seat's strategy may have."""

import numpy as np
import pytest
from sequence_stacks_positions import Table, held_mask

from sim import rng
from sim.games.sequence_stacks import GAME, bots, cards, engine, forbid
from sim.games.sequence_stacks.engine import ACT, BLOCK_IT, DISCARD, PASS, PLAY
from sim.games.sequence_stacks.state import OVER, new_state, views
from strategies import presets


def choice(table, seat, strategy):
    family, params = bots.resolve(strategy)
    s = table.s
    bots.choose(s, table.rs, seat, family, params, s.move)
    action, _, t, a, b = s.move.tolist()
    return action, (cards.name(t) if action != PASS else None), a, b


@pytest.mark.parametrize("players, seed", [(2, 0), (4, 1), (6, 2)])
def test_the_random_bot_picks_uniformly_from_the_legal_moves_in_their_listed_order(players, seed):
    rs = cards.build(GAME.load_rules(None, []))
    s = new_state(players)
    engine.start_game(s.m, s.rngs, rs, seed, 0)
    family, params = bots.resolve("random")
    moves = 0
    while not s.m[OVER] and moves < 400:
        seat = int(engine.to_move(s.m))
        expected_rng = s.rngs[1 + seat].copy()
        n = engine.legal_moves(s.m, rs, s.moves, seat)
        expected = s.moves[rng.below(expected_rng, n)].copy()
        bots.choose(s, rs, seat, family, params, s.move)
        assert s.move.tolist() == expected.tolist()
        assert s.rngs[1 + seat, 0] == expected_rng[0], "one draw from the seat's own stream"
        engine.apply_move(s.m, s.rngs, rs, seat, s.move)
        moves += 1
    assert moves > 50


def completion(table, completer_chips, blocker=1):
    table.chips(0, *completer_chips)
    table.pile("R1", "red 1", "red 2", "red 3", "red 4")
    table.give(0, "red 5", "blue 3")
    table.give(blocker, "block", "blue 4")
    table.put(0, "red 5", "R1")
    assert table.to_move == blocker


def test_the_default_bot_blocks_the_winning_chip_and_never_block_does_not():
    for strategy, action in (("default", BLOCK_IT), ("eager-blockers", BLOCK_IT), ("never-block", PASS)):
        table = Table()
        completion(table, (1, 3))
        assert choice(table, 1, strategy)[0] == action, strategy


def test_the_default_bot_saves_its_block_for_a_leader_and_eager_blockers_do_not():
    for strategy, action in (("default", PASS), ("eager-blockers", BLOCK_IT)):
        table = Table()
        completion(table, (0, 0))
        assert choice(table, 1, strategy)[0] == action, strategy


def test_the_default_bot_completes_a_sequence_it_can():
    table = Table()
    table.pile("B1", "blue 1", "blue 2", "blue 3", "blue 4")
    table.give(0, "blue 5", "red 3", "red 4", "skip", "block")
    assert choice(table, 0, "default") == (PLAY, "blue 5", 4, 0)


def test_the_default_bot_holds_wilds_that_complete_nothing_and_wild_spenders_do_not():
    for strategy, action in (("default", DISCARD), ("wild-spenders", PLAY)):
        table = Table()
        table.pile("B1", "blue 1")
        table.give(0, "blue wild", "red 5")
        assert choice(table, 0, strategy)[0] == action, strategy


def test_the_default_bot_leaves_no_pile_one_short_for_the_next_player_and_reckless_does():
    for strategy, action in (("default", DISCARD), ("reckless", PLAY)):
        table = Table()
        table.pile("R1", "red 1", "red 2", "red 3")
        table.give(0, "red 4", "blue 5")
        assert choice(table, 0, strategy)[0] == action, strategy


def test_the_default_bot_steals_a_chip_it_needs_from_the_leader():
    table = Table()
    table.give(0, "steal-a-chip", "red 5")
    table.chips(0, 2, 0)
    table.chips(1, 1, 0)
    table.chips(2, 2, 2)
    assert choice(table, 0, "default") == (ACT, "steal-a-chip", 2, 1)


def test_the_default_bot_reads_nothing_its_player_cannot_see():
    """Its move is the same whatever the opponents hold and whatever the draw pile's order."""
    rs = cards.build(GAME.load_rules(None, []))
    family, params = bots.resolve("default")
    for seed in range(20):
        s = new_state(4)
        engine.start_game(s.m, s.rngs, rs, seed, 0)
        for _ in range(seed * 3):  # somewhere in the game
            seat = int(engine.to_move(s.m))
            bots.choose(s, rs, seat, family, params, s.move)
            engine.apply_move(s.m, s.rngs, rs, seat, s.move)
            if s.m[OVER]:
                break
        if s.m[OVER]:
            continue
        seat = int(engine.to_move(s.m))
        picks = []
        for shuffle_seed in range(3):
            other = type(s)(*(a.copy() for a in s))
            v = views(other)
            hidden = np.random.default_rng(shuffle_seed)
            others = [q for q in range(4) if q != seat]
            pool = np.concatenate([np.repeat(np.arange(cards.TYPES), v.hand[q]) for q in others])
            hidden.shuffle(pool)
            at = 0
            for q in others:  # deal the opponents' cards out again, sizes kept
                v.hand[q] = np.bincount(pool[at:at + v.hand_n[q]], minlength=cards.TYPES)
                v.held[q] = held_mask(v.hand[q])
                at += v.hand_n[q]
            n = v.g[engine.DRAW_N]
            v.draw[:n] = hidden.permutation(v.draw[:n])
            bots.choose(other, rs, seat, family, params, other.move)
            picks.append(other.move.tolist())
        assert picks[0] == picks[1] == picks[2]


def test_the_strategy_names_are_random_and_every_preset():
    names = bots.strategy_names()
    assert names == ["random", *bots.PRESETS] and GAME.strategy_names() == names
    families = {name: bots.resolve(name)[0] for name in names}
    assert families.pop("random") == presets.RANDOM
    assert families == {name: presets.SEARCH if spec.get("family") == "search" else presets.DEFAULT
                        for name, spec in bots.PRESETS.items()}
    for preset, changes in bots.PRESETS.items():
        params = bots.resolve(preset)[1]
        for p, value in zip(bots.VECTOR, params):
            assert value == changes.get(p.name, p.default) and p.low <= p.default <= p.high


def test_a_user_preset_resolves_to_its_family_with_its_parameters_over_the_defaults():
    user = {"spoilers": {"family": "default", "block_at": 3.0}, "dice": {"family": "random"}}
    family, params = bots.resolve("spoilers", user)
    _, default = bots.resolve("default")
    at = [p.name for p in bots.PARAMETERS].index("block_at")
    assert family == presets.DEFAULT and params[at] == 3.0
    assert np.delete(params, at).tolist() == np.delete(default, at).tolist()
    assert bots.resolve("dice", user)[0] == presets.RANDOM
    assert bots.resolve("reckless", user)[1].tolist() == bots.resolve("reckless")[1].tolist()
    assert [f.name for f in bots.FAMILIES] == ["random", "default", "search"]
    assert bots.FAMILIES[1].parameters == bots.PARAMETERS
    assert set(bots.BUILT_IN) == set(bots.strategy_names())


def test_the_default_bot_does_not_count_on_a_card_it_is_forbidden_to_play():
    table = Table()
    table.give(0, "red 4", "red wild")
    table.discards(0, "red 5")
    m, red_4, wild, red_5 = table.s.m, *(cards.type_named(n) for n in ("red 4", "red wild", "red 5"))
    assert bots.can_follow(m, 0, wild, engine.HAND, red_4)
    assert bots.can_follow(m, 0, red_5, engine.HAND, red_4)
    table.v.forbid[0] = forbid.mask(("wild", "from_discard"))
    assert not bots.can_follow(m, 0, wild, engine.HAND, red_4)
    assert not bots.can_follow(m, 0, red_5, engine.HAND, red_4)
