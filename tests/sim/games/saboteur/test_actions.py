"""Action cards: broken tools, repairs, maps and rockfalls, each on the position it is about."""

from sim.games.saboteur.cards import BREAK, CART, LANTERN, MAP, PICKAXE, REPAIR, ROCKFALL
from sim.games.saboteur.engine import DISCARD, PLACE
from sim.games.saboteur.state import EMPTY, GOAL_HIDDEN, GOAL_SHOWN


# ---- broken tools ---------------------------------------------------------------------------

def test_a_broken_tool_goes_to_any_player_without_that_broken_tool_oneself_included(table):
    table.s.broken[:] = [PICKAXE, 0, LANTERN, PICKAXE | CART]
    table.give(1, "broken_pickaxe")
    assert table.targets(1, BREAK) == {(1, PICKAXE), (2, PICKAXE)}
    table.play(1, BREAK, 0, 2, 0, PICKAXE)
    assert table.s.broken.tolist() == [PICKAXE, 0, LANTERN | PICKAXE, PICKAXE | CART]
    assert table.s.hand_n[1] == 0


def test_a_player_may_break_their_own_tool(table):
    table.give(0, "broken_cart")
    table.play(0, BREAK, 0, 0, 0, CART)
    assert table.s.broken[0] == CART


# ---- repairs ---------------------------------------------------------------------------------

def test_a_repair_removes_a_matching_broken_tool_from_any_player_oneself_included(table):
    table.s.broken[:] = [LANTERN, PICKAXE, LANTERN | CART, 0]
    table.give(0, "repair_lantern")
    assert table.targets(0, REPAIR) == {(0, LANTERN), (2, LANTERN)}
    table.play(0, REPAIR, 0, 0, 0, LANTERN)
    assert table.s.broken.tolist() == [0, PICKAXE, LANTERN | CART, 0]


def test_a_repair_does_not_fix_another_tool(table):
    table.s.broken[:] = [PICKAXE, LANTERN, PICKAXE | LANTERN, 0]
    table.give(0, "repair_cart")
    assert table.targets(0, REPAIR) == set()
    assert [m[0] for m in table.moves(0)] == [DISCARD]


def test_a_double_repair_fixes_exactly_one_of_its_two_tools(table):
    table.s.broken[2] = PICKAXE | LANTERN | CART
    table.give(0, "repair_pickaxe_cart")
    assert table.targets(0, REPAIR) == {(2, PICKAXE), (2, CART)}
    table.play(0, REPAIR, 0, 2, 0, CART)
    assert table.s.broken[2] == PICKAXE | LANTERN


def test_a_repaired_player_may_place_path_cards_again(table):
    table.s.broken[1] = LANTERN
    table.give(1, "repair_lantern", "cross")
    assert not table.placements(1)
    table.play(1, REPAIR, 0, 1, 0, LANTERN)
    assert table.placements(1)


# ---- maps ------------------------------------------------------------------------------------

def test_a_map_shows_one_goal_to_its_player_only(table):
    table.give(1, "map")
    assert table.targets(1, MAP) == {(0, 0), (1, 0), (2, 0)}
    table.play(1, MAP, 0, 2)
    assert table.s.seen.tolist() == [[0, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]]
    assert table.cell(8, 2) == GOAL_HIDDEN and table.s.goal_shown.tolist() == [0, 0, 0]


# ---- rockfalls -------------------------------------------------------------------------------

def test_a_rockfall_removes_any_path_card_but_never_the_start_or_a_goal(table):
    table.goals("gold", "coal_ne", "coal_nw")
    table.row(0, 1, 7)
    table.put(0, 1, "dead_n")
    table.refresh()
    assert table.cell(8, 0) == GOAL_SHOWN
    table.give(0, "rockfall")
    hit = {(x, y) for action, _, x, y, _ in table.moves(0) if action == ROCKFALL}
    assert hit == {(x, 0) for x in range(1, 8)} | {(0, 1)}
    assert (0, 0) not in hit and (8, 0) not in hit


def test_a_rockfall_cuts_the_path_beyond_the_removed_card(table):
    table.row(0, 1, 3)
    table.refresh()
    assert (4, 0) in table.front()
    table.give(0, "rockfall", "cross")
    table.play(0, ROCKFALL, 0, 1, 0)
    assert table.cell(1, 0) == EMPTY
    assert not table.joined(2, 0) and not table.joined(3, 0)
    assert (4, 0) not in table.front() and (1, 0) in table.front()
    # (1, 0) takes a card again only if it matches the cut-off straight beyond it.
    assert {e for x, y, e in table.placements(0) if (x, y) == (1, 0)} == {table.sides("NESW")}


def test_a_card_laid_in_the_gap_joins_the_cut_off_path_again(table):
    table.row(0, 1, 3)
    table.refresh()
    table.give(0, "rockfall", "cross")
    table.play(0, ROCKFALL, 0, 1, 0)
    table.place(0, 1, 0, "NESW")
    assert table.joined(2, 0) and table.joined(3, 0)
    assert (4, 0) in table.front()


def test_a_rockfall_has_no_target_in_an_empty_maze(table):
    table.give(0, "rockfall")
    assert [m[0] for m in table.moves(0)] == [DISCARD]


def test_a_player_with_a_broken_tool_may_still_play_action_cards(table):
    table.s.broken[0] = PICKAXE
    table.row(0, 1, 2)
    table.refresh()
    table.give(0, "rockfall", "map", "broken_cart", "cross")
    assert {m[0] for m in table.moves(0)} == {ROCKFALL, MAP, BREAK, DISCARD}
    assert PLACE not in {m[0] for m in table.moves(0)}
