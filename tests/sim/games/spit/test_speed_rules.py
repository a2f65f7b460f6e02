"""Speed's rules, one test per rule, each on the exact position it is about."""

import pytest

from sim import search
from sim.game import Setup
from sim.games.speed import GAME, engine
from sim.games.speed.state import HAND_NO, PLAY, STALLED, WINNER
from sim.games.spit import loop, race

FAST, SLOW = "0.2:0", "1:0"


class Table:
    """A Speed table dealt by the engine, then changed by hand."""

    def __init__(self, sets=(), reaction=(None, None), seed=0):
        self.rules = GAME.load_rules(None, list(sets))
        options = tuple((f"reaction_{seat}", value) for seat, value in enumerate(reaction))
        (self.rs, self.names, self.families, self.params, self.s, self.c,
         _, _) = GAME.prepare(self.rules, Setup(2, ("default", "default"), options))
        engine.start_game(self.s, self.rs, self.c, seed, 0)

    def card(self, name):
        return self.names.index(name)

    def hand(self, seat, *names):
        self.s.hand[seat] = -1
        for i, name in enumerate(names):
            self.s.hand[seat, i] = self.card(name)

    def centre(self, pile, *names):
        for i, name in enumerate(names):
            self.s.centre[pile, i] = self.card(name)
        self.s.centre_n[pile] = len(names)

    def step(self):
        s, rs, c = self.s, self.rs, self.c
        loop.plan_moves(s, rs, c, self.families, self.params, search.searching(self.families))
        seat = race.next_due(c)
        if seat < 0:
            return -1, int(engine.stall(s, rs, c))
        return seat, int(engine.land(s, rs, c, seat))


@pytest.mark.parametrize("sets, draw, side", [([], 10, 10), (["deal.cards_each=20"], 15, 5)])
def test_the_deal_gives_hands_of_5_draw_piles_side_piles_and_two_centre_cards(sets, draw, side):
    """By default the source's deal, 15 cards each; its variant deals 20."""
    t = Table(sets)
    s = t.s
    assert (s.hand >= 0).sum(axis=1).tolist() == [5, 5]
    assert s.draw_n.tolist() == [draw, draw] and s.side_n.tolist() == [side, side]
    assert s.centre_n.tolist() == [1, 1]


def test_a_play_goes_one_rank_up_or_down_and_the_hand_refills_from_the_draw_pile():
    t = Table()
    t.centre(0, "Kh")
    t.centre(1, "5c")
    t.hand(0, "Ac", "Qd", "7s", "9s", "9d")
    n = engine.legal_moves(t.s, t.rs, 0)
    assert {tuple(m) for m in t.s.moves[:n].tolist()} == {(PLAY, 0, 0), (PLAY, 1, 0)}
    next_draw = int(t.s.draw[0, t.s.draw_n[0] - 1])
    t.c.plan[0] = [PLAY, 0, 0]
    assert engine.land(t.s, t.rs, t.c, 0) == engine.PLAYED
    assert t.s.centre[0, 1] == t.card("Ac") and t.s.hand[0, 0] == next_draw
    assert t.s.draw_n[0] == 9


def test_a_faster_player_wins_a_race_for_the_same_pile():
    for fast in (0, 1):
        t = Table(reaction=(FAST, SLOW) if fast == 0 else (SLOW, FAST))
        t.centre(0, "5h")
        t.centre(1, "Jc")
        t.hand(0, "6s", "9c", "9d", "9h", "9s")
        t.hand(1, "4s", "2c", "2d", "2h", "2s")
        t.s.draw_n[:] = 0  # no refill: the faster seat has nothing more to play
        assert t.step() == (fast, engine.PLAYED)
        seat, status = t.step()
        assert (seat, status) == (1 - fast, engine.DROPPED)


def test_a_stall_turns_up_a_side_pile_card_onto_each_centre_pile():
    t = Table()
    t.centre(0, "5h")
    t.centre(1, "5c")
    t.hand(0, "9c", "9d", "9h", "9s", "Jc")
    t.hand(1, "2c", "2d", "2h", "2s", "Jd")
    tops = [int(t.s.side[p, t.s.side_n[p] - 1]) for p in range(2)]
    assert t.step() == (-1, 0)
    assert [int(t.s.centre[p, 1]) for p in range(2)] == tops
    assert t.s.side_n.tolist() == [9, 9]


def test_used_up_side_piles_are_made_anew_from_the_centre_piles_but_their_tops():
    t = Table()
    t.centre(0, "Kc", "Qh", "5h")
    t.centre(1, "8c", "7c", "6d", "5c")
    t.hand(0, "9c", "9d", "9h", "9s", "Jc")
    t.hand(1, "2c", "2d", "2h", "2s", "Jd")
    t.s.side_n[:] = 0
    assert t.step() == (-1, 0)
    # 5 cards under the tops: side piles of 3 and 2, then one from each turned up.
    assert t.s.side_n.tolist() == [2, 1] and t.s.centre_n.tolist() == [2, 2]
    assert t.s.centre[0, 0] == t.card("5h") and t.s.centre[1, 0] == t.card("5c")


def test_a_stall_nothing_can_resolve_is_recorded_as_stalled():
    t = Table()
    t.centre(0, "5h")
    t.centre(1, "5c")
    t.hand(0, "9c", "9d", "9h", "9s", "Jc")
    t.hand(1, "2c", "2d", "2h", "2s", "Jd")
    t.s.side_n[:] = 0
    assert t.step() == (-1, 1)
    assert t.s.g[STALLED] == 1 and t.s.g[WINNER] == -1


def test_the_first_to_empty_hand_and_draw_pile_wins():
    t = Table()
    t.centre(0, "5h")
    t.hand(0, "6s")
    t.s.draw_n[0] = 0
    t.c.plan[0] = [PLAY, 0, 0]
    assert engine.land(t.s, t.rs, t.c, 0) == engine.OUT
    assert engine.end_hand(t.s, t.rs, t.c)
    assert t.s.g[WINNER] == 0


def test_with_points_the_winner_scores_the_cards_the_other_holds_and_plays_to_the_target():
    t = Table(["options.scoring=points", "options.target=25"])
    win_hand(t, 0)  # 5 in hand + 10 to draw: 15 points, short of 25
    assert t.s.score.tolist() == [15, 0] and t.s.g[HAND_NO] == 1
    assert t.s.draw_n.tolist() == [10, 10]  # dealt again
    win_hand(t, 1)
    assert t.s.score.tolist() == [15, 15] and t.s.g[WINNER] == -1
    win_hand(t, 0, over=True)
    assert t.s.score.tolist() == [30, 15] and t.s.g[WINNER] == 0


def win_hand(t, seat, over=False):
    """Lets `seat` play its last card of the hand."""
    t.hand(seat, "4s")
    t.s.draw_n[seat] = 0
    t.s.centre[0, t.s.centre_n[0]] = t.card("5d")
    t.s.centre_n[0] += 1
    t.c.plan[seat] = [PLAY, 0, 0]
    assert engine.land(t.s, t.rs, t.c, seat) == engine.OUT
    assert engine.end_hand(t.s, t.rs, t.c) == over
