"""Placing path cards and turning over goals, each rule on the position it is about."""

import pytest

from sim.games.saboteur import cards, engine
from sim.games.saboteur.engine import DISCARD, PLACE
from sim.games.saboteur.state import DEAD_END, FINDER, GOAL_HIDDEN, GOAL_SHOWN, MINERS_WON, ROUND_OVER, THROUGH


# ---- placing a path card ------------------------------------------------------------------

def test_a_card_must_match_every_neighbour_open_to_open_and_closed_to_closed(table):
    table.put(1, 0, "cross")
    table.put(0, 1, "straight_ns")  # its east side is closed
    table.refresh()
    # (1, 1) has the cross's open south side above it and the straight's closed side to its west.
    table.give(0, "curve_nw", "curve_ne")
    at_1_1 = {e for x, y, e in table.placements(0) if (x, y) == (1, 1)}
    assert table.sides("NW") not in at_1_1, "open west side against a closed side"
    assert table.sides("ES") not in at_1_1, "closed north side against an open side"
    assert at_1_1 == {table.sides("NE")}


def test_a_card_must_touch_the_path_joined_to_the_start(table):
    table.put(0, 3, "cross")  # not joined: (0, 1) and (0, 2) are empty
    table.refresh()
    table.give(0, "cross")
    cells = {(x, y) for x, y, _ in table.placements(0)}
    assert cells == {(1, 0), (0, 1), (-1, 0), (0, -1)}
    assert not table.joined(0, 3)


def test_a_dead_end_may_close_the_path(table):
    table.give(0, "dead_e")
    # Its one stub turned west meets the start's open east side.
    assert (1, 0, table.sides("W")) in table.placements(0)
    table.place(0, 1, 0, "W")
    assert table.cell(1, 0) == DEAD_END


def test_a_dead_end_does_not_carry_the_path(table):
    table.put(1, 0, "dead_ew")
    table.refresh()
    assert (2, 0) not in table.front()
    table.give(0, "cross", "straight_ew", "dead_ew")
    assert not any((x, y) == (2, 0) for x, y, _ in table.placements(0))


def test_a_path_through_a_dead_end_is_cut_however_it_goes_on(table):
    table.put(1, 0, "dead_nesw")
    table.put(2, 0, "cross")  # laid against the dead end's stub, as if it had been there before
    table.refresh()
    assert not table.joined(2, 0)
    assert not {(3, 0), (2, 1), (2, -1)} & table.front()


def test_a_face_down_goal_constrains_nothing(table):
    # A path along y = 1 ends at (7, 1); the cell (8, 1) lies between the middle and south goals.
    table.put(0, 1, "cross")
    table.row(1, 1, 7)
    table.refresh()
    table.give(0, "straight_ew", "cross", "t_new")
    at_8_1 = {e for x, y, e in table.placements(0) if (x, y) == (8, 1)}
    # Open or closed towards the face-down goals north and south of it: both are fine.
    assert {table.sides("EW"), table.sides("NESW"), table.sides("NEW"), table.sides("ESW")} <= at_8_1


def test_a_card_may_be_turned_180_degrees_but_never_90(table):
    table.give(0, "curve_ne")
    offered = {e for _, _, e in table.placements(0)}
    assert offered == {table.sides("NE"), table.sides("SW")}
    # The start's four neighbours: north needs S open, east needs W, south N, west E.
    assert table.placements(0) == {
        (0, -1, table.sides("SW")), (1, 0, table.sides("SW")),
        (0, 1, table.sides("NE")), (-1, 0, table.sides("NE")),
    }


def test_a_card_that_looks_the_same_turned_is_offered_once_per_cell(table):
    table.give(0, "straight_ew")
    moves = [m for m in table.moves(0) if m[0] == PLACE]
    assert sorted((x, y) for _, _, x, y, _ in moves) == [(-1, 0), (1, 0)]


@pytest.mark.parametrize("tool", [cards.PICKAXE, cards.LANTERN, cards.CART])
def test_no_path_card_may_be_placed_while_a_broken_tool_lies_in_front_of_the_player(table, tool):
    table.give(0, "cross", "straight_ew")
    assert table.placements(0)
    table.s.broken[0] = tool
    assert table.placements(0) == set()
    assert {m[0] for m in table.moves(0)} == {DISCARD}
    table.give(1, "cross")  # a player without broken tools still may
    assert table.placements(1)


def test_the_maze_is_unbounded(table):
    table.row(0, -19, -1)
    table.refresh()
    table.give(0, "straight_ew")
    assert (-20, 0, table.sides("EW")) in table.placements(0)
    table.place(0, -20, 0, "EW")
    assert table.joined(-20, 0) and (-21, 0) in table.front()


def test_forty_path_cards_in_a_line_stay_in_the_maze(table):
    table.row(0, -39, -1)
    table.refresh()
    table.give(0, "straight_ew")
    table.place(0, -40, 0, "EW")
    assert table.joined(-40, 0)


# ---- goals ----------------------------------------------------------------------------------

# The last card that reaches the middle goal (8, 0), and where the path to it runs.
APPROACHES = {
    "from the west": (7, 0, "straight_ew", "EW"),
    "from the north": (8, -1, "curve_ne", "SW"),
    "from the south": (8, 1, "curve_nw", "NW"),
}


def path_to_middle_goal(table, approach):
    """Lays the path from the start up to the card that reaches the middle goal; gives that card."""
    x, y, name, letters = APPROACHES[approach]
    if approach == "from the west":
        table.row(0, 1, 6)
    else:
        row = y
        table.put(0, row, "cross")
        table.row(row, 1, 7)
    table.refresh()
    table.give(0, name)
    return x, y, letters


@pytest.mark.parametrize("coal, approach, turned", [
    ("coal_ne", "from the west", "SW"),
    ("coal_ne", "from the north", "NE"),
    ("coal_ne", "from the south", "SW"),
    ("coal_nw", "from the west", "NW"),
    ("coal_nw", "from the north", "NW"),
    ("coal_nw", "from the south", "ES"),
])
def test_a_reached_coal_is_turned_over_joining_the_path_and_the_round_goes_on(table, coal, approach,
                                                                              turned):
    table.goals("gold", coal, "coal_nw" if coal == "coal_ne" else "coal_ne")
    x, y, letters = path_to_middle_goal(table, approach)
    table.place(0, x, y, letters)
    assert table.cell(8, 0) == GOAL_SHOWN
    assert table.exits_at(8, 0) == table.sides(turned)
    assert table.joined(8, 0), "the coal joins the path that reached it"
    assert table.s.goal_shown.tolist() == [0, 1, 0]
    assert table.s.g[ROUND_OVER] == 0 and table.s.g[MINERS_WON] == 0
    assert not engine.end_turn(table.s, table.rs)


def test_the_path_goes_on_through_a_turned_over_coal(table):
    table.goals("coal_nw", "coal_ne", "gold")
    path_to_middle_goal(table, "from the west")
    table.place(0, 7, 0, "EW")
    assert table.exits_at(8, 0) == table.sides("SW")
    assert (8, 1) in table.front(), "the coal's open south side carries the path on"


def test_a_coal_is_turned_to_join_the_path_even_if_its_other_side_then_mismatches(table):
    table.goals("gold", "coal_ne", "coal_nw")
    table.put(0, 1, "cross")
    table.row(1, 1, 8)  # a straight at (8, 1): its north side, under the middle goal, is closed
    table.row(0, 1, 6)
    table.refresh()
    table.give(0, "straight_ew")
    table.place(0, 7, 0, "EW")
    # Joining the path from the west means showing SW: its south side meets the straight's
    # closed north side.
    assert table.exits_at(8, 0) == table.sides("SW")
    assert table.s.g[ROUND_OVER] == 0


def test_a_dead_end_next_to_a_goal_does_not_turn_it_over(table):
    table.row(0, 1, 6)
    table.refresh()
    table.give(0, "dead_ew")
    table.place(0, 7, 0, "EW")
    assert table.cell(8, 0) == GOAL_HIDDEN and table.s.g[ROUND_OVER] == 0


@pytest.mark.parametrize("placer_is_saboteur", [False, True], ids=["miner", "saboteur"])
def test_reaching_the_gold_ends_the_round_and_the_miners_win_it(table, placer_is_saboteur):
    table.goals("coal_ne", "gold", "coal_nw")
    if placer_is_saboteur:
        table.saboteurs(2)
    path_to_middle_goal(table, "from the west")
    table.give(2, "straight_ew", "map")
    table.s.g[engine.TURN_SEAT] = 2
    table.place(2, 7, 0, "EW")
    assert table.s.g[ROUND_OVER] == 1
    assert table.s.g[MINERS_WON] == 1 and table.s.g[FINDER] == 2
    assert table.exits_at(8, 0) == table.sides("NESW")
    assert engine.end_turn(table.s, table.rs), "the round ends at once"


@pytest.mark.parametrize("gold_at, y", [(0, -2), (2, 2)])
def test_the_gold_may_lie_at_any_of_the_three_goals(table, gold_at, y):
    kinds = ["coal_ne", "coal_nw", "coal_ne"]
    kinds[gold_at] = "gold"
    table.goals(*kinds)
    for step in range(1, abs(y) + 1):
        table.put(0, step if y > 0 else -step, "straight_ns" if step < abs(y) else "cross")
    table.row(y, 1, 6)
    table.refresh()
    table.give(0, "straight_ew")
    table.place(0, 7, y, "EW")
    assert table.s.g[MINERS_WON] == 1 and table.s.g[FINDER] == 0


def test_a_card_joining_the_path_into_two_goals_turns_over_both(table):
    table.goals("coal_ne", "coal_nw", "gold")
    # (8, -1) lies between the north goal and the middle goal.
    table.put(0, -1, "cross")
    table.row(-1, 1, 7)
    table.refresh()
    table.give(0, "cross")
    table.place(0, 8, -1, "NESW")
    assert table.s.goal_shown.tolist() == [1, 1, 0]
    assert table.exits_at(8, -2) == table.sides("SW") and table.exits_at(8, 0) == table.sides("NW")
    assert table.s.g[ROUND_OVER] == 0


def test_a_placed_card_is_a_through_card_or_a_dead_end_as_printed(table):
    table.give(0, "cross")
    table.place(0, 1, 0, "NESW")
    assert table.cell(1, 0) == THROUGH
