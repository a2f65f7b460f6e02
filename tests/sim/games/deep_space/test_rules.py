"""One test per rule of Deep Space (docs/rules/deep_space.md), each on the position the rule
is about; and the board checks a rule depends on (resources, covers that seal a home)."""

import re
import sys
from pathlib import Path

import numpy as np
import pytest

from sim import rng
from sim.games.deep_space import engine
from sim.games.deep_space.engine import BUILD, END, MOVE, PLAY, RECRUIT, TAKE, TRADE
from sim.games.deep_space.state import (
    ACT,
    DISCARDS,
    DOGS_LEFT,
    DRAW_AT,
    FIRST_SEAT,
    MINE,
    MOVES_LEFT,
    OVER,
    PHASE,
    REDRAW,
    TURN_SEAT,
    TURNS,
    WINNER,
)

TIES = ["die_sides=1"]  # every roll is a tie: the defender wins every roll


# ---- setup ----

def test_each_player_starts_with_3_recruits_at_home_and_2_cards(default_rules):
    from sim.games.deep_space import GAME
    from sim.game import Setup

    rs, planets, _, _, _, s = GAME.prepare(default_rules, Setup(4, ("default",) * 4))
    engine.start_game(s, rs, 5, 0)
    for seat in range(4):
        assert s.units[seat, planets.index(f"H{seat}")] == 3 and s.units[seat].sum() == 3
        assert s.supply[seat] == 17
    assert s.hand_n.tolist() == [2, 2, 2, 2]
    assert s.g[TURN_SEAT] == s.g[FIRST_SEAT]


def rolled_starter(seed, game, players, cards):
    """Gives the starter by the rules, rolling d6 from the deal's stream where start_game does
    (after shuffling the deck): the highest roll starts, the tied highest re-roll."""
    stream = np.zeros(1, np.uint64)
    rng.start(stream, seed, game, engine.DEAL_STREAM)
    rng.shuffle(stream, np.zeros(cards, np.int64))
    rolling = list(range(players))
    while True:
        rolls = {seat: rng.below(stream, 6) for seat in rolling}
        best = max(rolls.values())
        rolling = [seat for seat in rolling if rolls[seat] == best]
        if len(rolling) == 1:
            return rolling[0]


def test_the_highest_roll_starts_ties_reroll_and_every_seat_can_start(default_rules):
    from sim.games.deep_space import GAME
    from sim.game import Setup

    rs, _, _, _, _, s = GAME.prepare(default_rules, Setup(4, ("default",) * 4))
    starters = set()
    for game in range(60):
        engine.start_game(s, rs, 1, game)
        assert s.g[FIRST_SEAT] == rolled_starter(1, game, 4, s.deck.shape[0])
        starters.add(int(s.g[FIRST_SEAT]))
    assert starters == {0, 1, 2, 3}


# ---- mining and drawing ----

def test_a_planet_with_two_recruits_mines_one_gem_or_ore_and_a_home_none(table):
    table.put(0, "R0", 2)
    table.put(0, "R5", 1)
    table.put(0, "H0", 5)
    table.s.g[PHASE] = MINE
    assert table.moves(0) == [(TAKE, 0, 0, 0, 0, 0), (TAKE, 1, 0, 0, 0, 0)]
    table.put(0, "I2", 3)
    table.play(TAKE, 1)
    assert (int(table.s.gems[0]), int(table.s.ore[0])) == (1, 1)
    assert (int(table.s.gems_mined[0]), int(table.s.ore_mined[0])) == (1, 1)
    assert table.s.g[PHASE] == ACT


def test_under_fixed_mining_each_planet_gives_the_resource_its_board_names(new_table):
    t = new_table(sets=["options.mining=fixed"])
    t.put(0, "R0", 2)   # gem
    t.put(0, "R1", 2)   # ore
    t.put(0, "I0", 3)   # ore
    t.put(0, "R2", 1)   # gem, but one recruit does not mine
    t.put(0, "H0", 5)   # a home station is never mined
    t.give(0, "prospector")
    t.s.g[TURN_SEAT] = 0
    engine.begin_turn(t.s, t.rs)
    assert t.s.g[PHASE] == ACT and not t.kinds_of_moves(TAKE), "no mining decision"
    assert (int(t.s.gems[0]), int(t.s.ore[0])) == (1, 2)
    assert (int(t.s.gems_mined[0]), int(t.s.ore_mined[0])) == (1, 2)
    assert t.s.hand_n[0] == 2, "then the draw"


def test_by_default_the_player_chooses_gem_or_ore_per_planet(table):
    table.put(0, "R1", 2)  # an ore planet under fixed mining
    table.s.g[TURN_SEAT] = 0
    engine.begin_turn(table.s, table.rs)
    assert table.s.g[PHASE] == MINE
    table.play(TAKE, 1)
    assert (int(table.s.gems[0]), int(table.s.ore[0])) == (1, 0)


def test_a_player_holding_0_or_1_cards_draws_up_to_2(table):
    table.give(0, "prospector")
    table.put(0, "R0", 2)
    table.s.g[PHASE] = MINE
    table.play(TAKE, 0)
    assert table.s.hand_n[0] == 2
    table.give(1, "prospector", "gem_cache")
    table.s.g[TURN_SEAT] = 1
    engine.begin_turn(table.s, table.rs)  # no planet to mine: straight to the draw
    assert table.s.hand_n[1] == 2 and table.s.g[PHASE] == ACT


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out(table):
    s = table.s
    cards = s.deck.shape[0]
    s.g[DRAW_AT] = cards  # the pile is empty ...
    s.discard[:5] = s.deck[:5]  # ... and 5 cards lie on the discard pile
    s.g[DISCARDS] = 5
    assert engine.draw(s, 0)
    assert s.g[DISCARDS] == 0 and s.g[DRAW_AT] == cards - 4
    assert s.hand[0, 0] in s.deck[:5]
    s.g[DRAW_AT] = cards
    assert not engine.draw(s, 1), "no card anywhere: nothing is drawn"


# ---- trading and recruiting ----

def test_two_action_cards_trade_for_one_recruit_at_home(table):
    table.give(0, "space_dog", "meteor_storm")
    (trade,) = table.kinds_of_moves(TRADE)
    table.play(*trade)
    assert table.units(0, "H0") == 1 and table.s.hand_n[0] == 0
    assert table.s.g[DISCARDS] == 2


def test_a_recruit_costs_one_gem_and_arrives_at_home(table):
    assert table.kinds_of_moves(RECRUIT) == []
    table.s.gems[0] = 2
    table.play(RECRUIT)
    assert table.units(0, "H0") == 1 and table.s.gems[0] == 1 and table.s.supply[0] == 19


def test_no_recruit_when_the_supply_is_empty(table):
    table.s.gems[0] = 5
    table.put(0, "R0", 20)
    assert table.kinds_of_moves(RECRUIT) == []


# ---- moving ----

def test_a_move_takes_one_recruit_or_a_squad_to_a_linked_planet(table):
    table.put(0, "H0", 3)
    assert table.destinations(0) == {"R0", "R1"}
    sizes = {m[3] for m in table.kinds_of_moves(MOVE) if m[2] == table.q("R0")}
    assert sizes == {1, 2, 3}
    table.move("H0", "R0", 2)
    assert (table.units(0, "H0"), table.units(0, "R0")) == (1, 2)


def test_two_moves_a_turn_and_a_hyperdrive_adds_one(table):
    table.put(0, "H0", 3)
    table.move("H0", "R0", 1)
    table.move("R0", "R11", 1)
    assert table.kinds_of_moves(MOVE) == []
    table.give(0, "hyperdrive")
    table.play(PLAY, 0, -1, -1)
    table.move("H0", "R1", 1)
    assert table.s.g[MOVES_LEFT] == 0


def test_no_entry_into_another_players_home_nor_back_into_ones_own(table):
    table.put(1, "R0", 2)
    table.put(0, "R1", 2)
    assert "H0" not in table.destinations(1) and "H0" not in table.destinations(0)
    assert table.destinations(1) == {"R1", "R11"}
    assert table.destinations(0) == {"R0", "R2", "I0"}


def test_the_warp_costs_a_gem_and_is_one_move_between_its_planets(table):
    table.put(0, "I0", 2)
    assert table.destinations(0, via=1) == set()
    table.s.gems[0] = 1
    assert table.destinations(0, via=1) == {"I1", "I2", "I3"}
    table.move("I0", "I2", 2, warp=1)
    assert table.units(0, "I2") == 2 and table.s.gems[0] == 0
    assert table.s.g[MOVES_LEFT] == 1


def test_with_two_players_the_covered_planets_cannot_be_entered(new_table):
    two = new_table(players=2)
    two.put(0, "R3", 2)
    two.put(1, "R11", 2)
    assert "R4" not in two.destinations(0) and "R10" not in two.destinations(1)
    four = new_table(players=4)
    four.put(0, "R3", 2)
    assert "R4" in four.destinations(0)


# ---- combat ----

def test_the_defender_wins_a_tie(new_table):
    t = new_table(sets=TIES)
    t.put(0, "R0", 3)
    t.put(1, "R1", 3)
    t.move("R0", "R1", 3)
    assert (t.units(0, "R1"), t.units(1, "R1")) == (0, 3)
    assert (int(t.s.lost[0]), int(t.s.lost[1])) == (3, 0)
    assert (int(t.s.lost_fights[0]), int(t.s.won_fights[1])) == (1, 1)


def test_combat_goes_on_until_one_side_remains(table):
    table.put(0, "R0", 6)
    table.put(1, "R1", 4)
    table.move("R0", "R1", 6)
    left = (table.units(0, "R1"), table.units(1, "R1"))
    assert (left[0] == 0) != (left[1] == 0)
    assert table.s.lost[0] + table.s.lost[1] == 10 - sum(left)
    assert all(table.recruits_of(seat) == 20 for seat in range(4))


def test_a_planet_never_holds_two_colours_so_a_combat_has_one_defender(default_rules):
    """The source's rule for several defenders (fought in seat order) can never apply: combat
    goes on until one colour is left, and recruits arrive anywhere else only at home."""
    from sim.games.deep_space import GAME, play
    from sim.game import Setup

    rs, planets, kinds, families, params, s = GAME.prepare(default_rules, Setup(4, ("raider",) * 4))
    out = play.new_results(1, 4, len(planets), kinds)
    combats = 0

    def watch(event, *args):
        nonlocal combats
        if event == "after":
            assert ((s.units > 0).sum(axis=0) <= 1).all(), "two colours on one planet"
            combats = int(s.won_fights.sum())

    for game in range(3):
        play.play_python(s, rs, families, params, 2, game, out, watch=watch)
    assert combats > 0, "the games fought"


def test_the_defender_order_option_is_gone():
    from sim.games.deep_space import GAME
    from sim.errors import UserError

    with pytest.raises(UserError, match="unknown rule 'options.defender_order'"):
        GAME.load_rules(None, ["options.defender_order=largest_first"])


# ---- space dogs ----

def test_a_space_dog_costs_a_gem_and_goes_where_its_owner_has_recruits(table):
    table.give(0, "space_dog")
    table.put(0, "R0", 2)
    assert table.kinds_of_moves(PLAY) == []
    table.s.gems[0] = 1
    assert {m[2] for m in table.kinds_of_moves(PLAY)} == {table.q("R0")}
    table.play(PLAY, 0, table.q("R0"), -1)
    assert table.dogs(0, "R0") == 1 and table.s.gems[0] == 0 and table.s.g[DOGS_LEFT] == 2


def test_a_dog_absorbs_the_first_loss(new_table):
    t = new_table(sets=TIES)
    t.put(0, "R0", 2)
    t.put(1, "R1", 2, dogs=1)
    t.move("R0", "R1", 2)
    assert t.units(0, "R1") == 0
    t2 = new_table(sets=TIES)  # the attacker's dog takes its first loss
    t2.put(0, "R0", 1, dogs=1)
    t2.put(1, "R1", 1)
    t2.move("R0", "R1", 1, dogs=1)
    assert int(t2.s.lost[0]) == 1 and t2.dogs(0, "R1") == 0 and t2.s.g[DOGS_LEFT] == 3


def test_a_dog_moves_with_a_squad_and_stays_with_a_recruit(table):
    table.put(0, "R0", 3, dogs=1)
    moves = [m for m in table.kinds_of_moves(MOVE) if m[2] == table.q("R1")]
    assert {(m[3], m[4]) for m in moves} == {(1, 0), (1, 1), (2, 0), (2, 1), (3, 1)}
    table.move("R0", "R1", 3, dogs=1)
    assert table.dogs(0, "R1") == 1 and table.dogs(0, "R0") == 0


def test_a_dog_whose_recruits_a_card_removes_joins_its_owners_other_recruits(table):
    table.put(1, "R3", 2, dogs=1)
    table.put(1, "R5", 4)
    table.put(0, "H0", 1)
    table.give(0, "meteor_storm")
    table.play(PLAY, 0, table.q("R3"), 1)
    assert table.units(1, "R3") == 0 and table.dogs(1, "R5") == 1


# ---- action cards ----

def test_a_meteor_storm_sacrifices_one_and_clears_an_opponent_from_a_planet(table):
    table.put(0, "H0", 2)
    table.put(1, "R3", 5)
    table.give(0, "meteor_storm")
    targets = {(m[2], m[3]) for m in table.kinds_of_moves(PLAY)}
    assert targets == {(table.q("R3"), 1)}  # never a home station
    table.play(PLAY, 0, table.q("R3"), 1)
    assert table.units(1, "R3") == 0 and table.units(0, "H0") == 1
    assert (int(table.s.lost[0]), int(table.s.lost[1])) == (1, 5)
    assert int(table.s.played[0]) == 1


def test_reinforcements_cost_a_gem_for_two_recruits_at_home(table):
    table.give(0, "reinforcements")
    table.s.gems[0] = 1
    table.play(PLAY, 0, -1, -1)
    assert table.units(0, "H0") == 2 and table.s.gems[0] == 0


@pytest.mark.parametrize("kind, gems, ore", [("prospector", 0, 1), ("gem_cache", 1, 0)])
def test_prospector_and_gem_cache_are_free_and_give_a_resource(table, kind, gems, ore):
    table.give(0, kind)
    table.play(PLAY, 0, -1, -1)
    assert (int(table.s.gems[0]), int(table.s.ore[0])) == (gems, ore)


# ---- bases ----

def test_a_base_costs_3_ore_and_needs_3_recruits_there(table):
    table.put(0, "R0", 2)
    table.s.ore[0] = 3
    assert table.kinds_of_moves(BUILD) == []
    table.put(0, "R0", 1)
    table.play(BUILD, table.q("R0"))
    assert table.s.base[0, table.q("R0")] == 1 and table.s.ore[0] == 0 and table.s.bases[0] == 1


def test_no_second_base_of_one_colour_on_a_planet_but_other_colours_may(table):
    table.put(0, "R0", 3)
    table.s.ore[0] = 6
    table.play(BUILD, table.q("R0"))
    assert table.kinds_of_moves(BUILD) == []
    table.move("R0", "R1", 3)
    table.put(1, "R0", 3)
    table.s.ore[1] = 3
    assert table.kinds_of_moves(BUILD, seat=1) == [(BUILD, table.q("R0"), 0, 0, 0, 0)]


def test_bases_stay_when_their_recruits_leave(table):
    table.put(0, "R0", 3)
    table.s.ore[0] = 3
    table.play(BUILD, table.q("R0"))
    table.move("R0", "R1", 3)
    assert table.s.base[0, table.q("R0")] == 1


def test_no_base_on_a_home_station(table):
    table.put(0, "H0", 5)
    table.s.ore[0] = 3
    assert table.kinds_of_moves(BUILD) == []


def test_reinforcements_per_base_at_the_end_of_the_turn(table):
    table.s.base[0, table.q("R0")] = table.s.base[0, table.q("R5")] = 1
    table.s.bases[0] = 2
    table.end()
    assert table.units(0, "H0") == 2


@pytest.mark.parametrize("players, to_win", [(2, 5), (3, 4), (4, 4)])
def test_the_win_is_checked_when_a_base_is_built(new_table, players, to_win):
    t = new_table(players=players)
    t.s.bases[0] = to_win - 2
    t.put(0, "R0", 3)
    t.put(0, "R1", 3)
    t.s.ore[0] = 6
    t.play(BUILD, t.q("R0"))
    assert not t.s.g[OVER]
    t.play(BUILD, t.q("R1"))
    assert t.s.g[OVER] and t.s.g[WINNER] == 0 and t.s.g[TURNS] == 0  # at once, mid-turn


# ---- the end of a turn ----

def test_after_reinforcing_a_player_may_discard_and_draw_back_up_to_2(table):
    table.give(0, "meteor_storm", "space_dog")
    table.end()
    assert table.s.g[PHASE] == REDRAW
    assert {m[0] for m in table.moves(0)} == {engine.DISCARD, END}
    table.play(engine.DISCARD, 0)
    table.end()
    assert table.s.hand_n[0] == 2 and table.s.g[TURN_SEAT] == 1


def test_no_redraw_under_the_never_option(new_table):
    t = new_table(sets=["options.redraw=never"])
    t.give(0, "meteor_storm")
    t.end()
    assert t.s.g[TURN_SEAT] == 1 and t.s.hand_n[0] == 1


def test_the_turn_cap_ends_the_game_without_a_winner(new_table):
    t = new_table(players=2, sets=["turn_cap=3"])
    for _ in range(3):
        assert not t.s.g[OVER]
        while t.s.g[PHASE] != ACT:
            t.play(*t.moves()[-1])
        t.end()
        if t.s.g[PHASE] == REDRAW:
            t.end()
    assert t.s.g[OVER] and t.s.g[WINNER] == -1


def test_recruits_stay_within_the_supply_of_20(table):
    table.put(0, "H0", 19)
    table.s.bases[0] = 3
    table.end()
    assert table.units(0, "H0") == 20 and table.s.supply[0] == 0


def test_no_moves_are_listed_twice(table):
    table.put(0, "I0", 4, dogs=2)
    table.s.gems[0] = 3
    table.give(0, "space_dog", "meteor_storm")
    table.put(1, "R1", 2)
    rows = table.moves(0)
    assert len(rows) == len(set(rows))
    assert np.all(table.s.moves[:len(rows), 0] >= 0)


# ---- boards the rules cannot be played on ----

STAND_IN = Path(__file__).resolve().parents[4] / "configs" / "deep_space" / "board.toml"


def board_file(tmp_path, *edits: tuple[str, str]) -> str:
    """Writes the stand-in board with text replacements; gives its path."""
    text = STAND_IN.read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "board.toml"
    path.write_text(text)
    return str(path)


SEALED = ('2 = ["R4", "R10"]', '2 = ["R0", "R1"]')  # both of H0's neighbours covered


def test_covers_that_seal_a_seats_home_are_refused(tmp_path):
    from sim.games.deep_space import GAME
    from sim.errors import UserError

    with pytest.raises(UserError, match="with 2 players the covers cut seat 0's home H0 off "
                                        "from R2, R3, R4,"):
        GAME.load_rules(None, [f"board={board_file(tmp_path, SEALED)}"])


def test_covers_that_seal_a_home_are_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    from sim import cli

    path = board_file(tmp_path, SEALED)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["simulate", "deep-space", "--players", "3", "--board", path])
    with pytest.raises(SystemExit) as exit:
        cli.main()
    err = capsys.readouterr().err
    assert exit.value.code == 2 and err.count("\n") == 1
    assert err.startswith(f"error: board {path}: with 2 players the covers cut seat 0's home H0")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.toml"], "nothing was written"


def test_covers_of_an_unused_home_are_accepted(tmp_path):
    from sim.games.deep_space import GAME

    # With 2 players H1 is nobody's home: covering both its neighbours seals nobody.
    unused = board_file(tmp_path, ('2 = ["R4", "R10"]', '2 = ["R3", "R4"]'))
    assert GAME.load_rules(None, [f"board={unused}"])["board"]["covers"]["2"] == ["R3", "R4"]


@pytest.mark.parametrize("edit, message", [
    (("R3 = { x = 6.0, y = 0.0, resource = \"gem\" }", "R3 = { x = 6.0, y = 0.0 }"),
     "options.mining = fixed needs a resource (gem or ore) on every planet; none on R3"),
    (("resource = \"gem\" }", "resource = \"wood\" }"), "resource must be \"gem\" or \"ore\""),
    (("home = true }", "home = true, resource = \"ore\" }"), "is never mined and takes no resource"),
], ids=["missing", "unknown", "on-a-home"])
def test_a_board_for_fixed_mining_names_a_resource_for_every_planet(tmp_path, edit, message):
    from sim.games.deep_space import GAME
    from sim.errors import UserError

    with pytest.raises(UserError, match=re.escape(message)):
        GAME.load_rules(None, [f"board={board_file(tmp_path, edit)}", "options.mining=fixed"])


def test_a_board_without_resources_is_fine_when_players_choose(tmp_path):
    from sim.games.deep_space import GAME

    edit = ("R3 = { x = 6.0, y = 0.0, resource = \"gem\" }", "R3 = { x = 6.0, y = 0.0 }")
    rules = GAME.load_rules(None, [f"board={board_file(tmp_path, edit)}"])
    assert "resource" not in rules["board"]["planets"]["R3"]


def test_a_trace_under_fixed_mining_says_what_each_turn_mined():
    import io

    from sim.games.deep_space import GAME
    from sim.game import Setup

    out = io.StringIO()
    tables = GAME.trace(GAME.load_rules(None, ["options.mining=fixed"]),
                        Setup(2, ("default",) * 2), 7, 0, out)
    told = [line.split()[3:6:2] for line in out.getvalue().splitlines() if " mined " in line]
    gems = sum(int(g) for g, _ in told)
    ore = sum(int(o) for _, o in told)
    seats = tables["seats"]
    assert (gems, ore) == (seats["gems_mined"].sum(), seats["ore_mined"].sum()) and ore > 0
