"""Saboteur's cards: the path and action deck, the goals, the role cards, hands and gold."""

from collections import Counter

import numpy as np
import pytest

from sim.games.saboteur import GAME, cards, engine
from sim.games.saboteur.cards import BREAK, MAP, PATH, REPAIR, ROCKFALL
from sim.games.saboteur.state import DRAW_AT, GOAL_HIDDEN, ORIGIN, START, new_state

ROLE_TABLE = {  # players: (saboteur cards, miner cards, hand size)
    3: (1, 3, 6), 4: (1, 4, 6), 5: (2, 4, 6), 6: (2, 5, 5),
    7: (3, 5, 5), 8: (3, 6, 4), 9: (3, 7, 4), 10: (4, 7, 4),
}


@pytest.fixture(scope="module")
def deck():
    return cards.build(GAME.load_rules(None, []))


def dealt(players, seed=0, game=0):
    rs, names = cards.build(GAME.load_rules(None, []))
    s = new_state(players, len(names))
    engine.start_game(s, rs, seed, game, -1)
    return s, rs


def test_the_path_and_action_deck_has_67_cards_40_path_and_27_action(deck):
    rs, names = deck
    assert len(names) == 67
    assert Counter(rs.kind.tolist()) == {PATH: 40, BREAK: 9, REPAIR: 9, MAP: 6, ROCKFALL: 3}


def test_the_40_deck_path_cards_are_31_through_cards_and_9_dead_ends(table, deck):
    rs, _ = deck
    m = table.sides
    path = [(int(rs.exits[c]), int(rs.through[c])) for c in range(len(rs.kind)) if rs.kind[c] == PATH]
    through = Counter(e for e, t in path if t)
    dead = Counter(e for e, t in path if not t)
    assert through == {m("NESW"): 5, m("NEW"): 5, m("NES"): 5, m("EW"): 3, m("NS"): 4,
                       m("NE"): 5, m("NW"): 4}
    assert dead == {m(e): 1 for e in ("N", "E", "NS", "EW", "NE", "NW", "NES", "NEW", "NESW")}


def test_the_27_action_cards(deck):
    rs, names = deck
    actions = Counter(names[c] for c in range(len(names)) if rs.kind[c] != PATH)
    assert actions == {
        "broken_pickaxe": 3, "broken_lantern": 3, "broken_cart": 3,
        "repair_pickaxe": 2, "repair_lantern": 2, "repair_cart": 2,
        "repair_pickaxe_lantern": 1, "repair_pickaxe_cart": 1, "repair_lantern_cart": 1,
        "map": 6, "rockfall": 3,
    }
    tools = {names[c]: int(rs.tools[c]) for c in range(len(names))}
    assert tools["broken_lantern"] == cards.LANTERN
    assert tools["repair_pickaxe_cart"] == cards.PICKAXE | cards.CART


def test_the_start_card_and_the_gold_are_crosses_and_the_coals_are_curves_ne_and_nw(table):
    assert table.cell(0, 0) == START and table.exits_at(0, 0) == table.sides("NESW")
    assert int(table.rs.gold_exits) == table.sides("NESW")
    assert table.rs.coal_exits.tolist() == [table.sides("NE"), table.sides("NW")]


def test_the_three_goals_lie_face_down_at_8_minus_2_8_0_and_8_2(table):
    assert [table.cell(8, y) for y in (-2, 0, 2)] == [GOAL_HIDDEN] * 3
    ys, xs = np.nonzero(table.s.cell)
    assert len(xs) == 4  # the start and the goals, nothing else


def test_the_goals_are_one_gold_and_two_coals_shuffled_each_round():
    gold_at = set()
    for seed in range(30):
        s, _ = dealt(4, seed)
        assert sorted(s.goal_kind.tolist()) == [0, 1, 2]
        gold_at.add(int(np.argmin(s.goal_kind)))
    assert gold_at == {0, 1, 2}


@pytest.mark.parametrize("players", sorted(ROLE_TABLE))
def test_the_role_cards_and_hand_size_follow_the_player_count(deck, players):
    rs, _ = deck
    saboteurs, miners, hand = ROLE_TABLE[players]
    assert (rs.saboteur_cards[players], rs.miner_cards[players], rs.hand_size[players]) == \
        (saboteurs, miners, hand)
    assert saboteurs + miners == players + 1


@pytest.mark.parametrize("players", sorted(ROLE_TABLE))
def test_each_player_is_dealt_a_hand_of_the_size_for_the_player_count(players):
    s, rs = dealt(players, seed=players)
    hand = ROLE_TABLE[players][2]
    assert s.hand_n.tolist() == [hand] * players
    held = s.hand[:, :hand].ravel().tolist()
    pile = s.deck[s.g[DRAW_AT]:].tolist()
    assert s.g[DRAW_AT] == players * hand
    assert sorted(held + pile) == list(range(67)), "every card is in a hand or the pile, once"
    assert (s.hand[:, hand:] == -1).all()


@pytest.mark.parametrize("players", sorted(ROLE_TABLE))
def test_one_role_card_stays_hidden_so_the_saboteurs_in_play_vary(players):
    cards_ = ROLE_TABLE[players][0]
    counts = {int(dealt(players, seed)[0].role.sum()) for seed in range(40)}
    assert counts == {cards_ - 1, cards_}


def test_28_gold_cards_hold_44_nuggets_in_one_pile_for_the_game(deck):
    rs, _ = deck
    assert rs.gold_counts.tolist() == [0, 16, 8, 4]
    assert rs.gold_counts[1:].sum() == 28
    assert (rs.gold_counts * np.arange(4)).sum() == 44
    s, _ = dealt(5)
    assert s.gold_pile.tolist() == [0, 16, 8, 4]


def test_a_round_starts_with_the_start_card_alone_in_the_maze_and_no_broken_tools():
    s, _ = dealt(6, seed=3)
    assert s.cell[ORIGIN, ORIGIN] == START
    assert (s.card_at == -1).all()
    assert s.broken.tolist() == [0] * 6 and s.seen.sum() == 0
