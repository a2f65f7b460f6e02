"""Invariants of whole Spit and Speed games, whatever the seed, bots, reaction times and rule
options: bots plan only legal moves, only fitting cards land, the clock never runs backwards,
and every game ends (a game that cannot end is capped and recorded as stalled). (The 52 cards
are conserved: tests/conformance.)"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games import speed
from sim.game import Setup
from sim.games.spit import GAME, engine, play
from sim.games.spit.state import PLAY

SPIT_OPTIONS = [
    [], ["layout.stock_piles=4"], ["options.smaller_pile=out_player_chooses"],
    ["options.alternating_colours=true"], ["options.stack_equal_ranks=true"],
    ["options.both_out_of_spit_cards=split_both_piles"],
    ["options.alternating_colours=true", "options.stack_equal_ranks=true", "layout.stock_piles=4"],
]
REACTIONS = st.sampled_from(["novice", "club", "expert", "0.5:0", "0.3:1.2"])
STRATEGIES = st.sampled_from(["random", "default", "greedy", "blocker", "turner"])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), game=st.integers(0, 10**6), options=st.sampled_from(SPIT_OPTIONS),
       seats=st.tuples(STRATEGIES, STRATEGIES), reaction=st.tuples(REACTIONS, REACTIONS))
def test_spit_lands_only_legal_moves_its_clock_runs_forward_and_it_ends(seed, game, options, seats, reaction):
    rules = GAME.load_rules(None, options)
    setup = Setup(2, seats, (("reaction_0", reaction[0]), ("reaction_1", reaction[1])))
    rs, _, families, params, s, c, _, _ = GAME.prepare(rules, setup)
    out = play.new_results(1)
    cards = list(range(rs.rank.shape[0]))
    clock = [0.0]
    before = {}

    def watch(event, *args):
        assert c.now[0] >= clock[0], "the clock never runs backwards"
        clock[0] = c.now[0]
        if event == "plan":
            seat = args[0]
            kind, a, b = c.plan[seat]
            assert engine.is_legal(s, rs, seat, kind, a, b), "a bot plans only legal moves"
            before[seat] = int(s.centre[b, s.centre_n[b] - 1]) if kind == PLAY else -1
        elif event == "land" and args[1] != engine.DROPPED and c.plan[args[0], 0] == PLAY:
            seat, _, card = args
            pile = c.plan[seat, 2]
            assert s.centre[pile, s.centre_n[pile] - 1] == card
            assert rs.fits[card, s.centre[pile, s.centre_n[pile] - 2]], "only fitting cards land"

    play.play_python(s, rs, c, families, params, seed, game, out, watch=watch)
    assert out.stalled[0] == 1 or out.winner[0] in (0, 1)
    if out.winner[0] >= 0:
        assert out.cards_left[0, out.winner[0]] == 0
        assert out.cards_left[0].sum() == len(cards)
    assert out.seconds[0] > 0 and out.moves[0] > 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), game=st.integers(0, 10**6),
       options=st.sampled_from([[], ["deal.cards_each=20"], ["options.scoring=points"],
                                ["options.scoring=points", "options.target=5", "deal.cards_each=20"]]),
       seats=st.tuples(st.sampled_from(["random", "default", "greedy"]),
                       st.sampled_from(["random", "default", "greedy"])),
       reaction=st.tuples(REACTIONS, REACTIONS))
def test_speed_lands_only_legal_moves_and_ends(seed, game, options, seats, reaction):
    rules = speed.GAME.load_rules(None, options)
    setup = Setup(2, seats, (("reaction_0", reaction[0]), ("reaction_1", reaction[1])))
    rs, _, families, params, s, c, _, _ = speed.GAME.prepare(rules, setup)
    out = speed.play.new_results(1)

    def watch(event, *args):
        if event == "land" and args[1] != speed.engine.DROPPED:
            seat, _, card = args
            pile = c.plan[seat, 2]
            assert s.centre[pile, s.centre_n[pile] - 1] == card
            assert rs.fits[card, s.centre[pile, s.centre_n[pile] - 2]]

    speed.play.play_python(s, rs, c, families, params, seed, game, out, watch=watch)
    assert out.stalled[0] == 1 or out.winner[0] in (0, 1)
    if out.winner[0] >= 0 and "options.scoring=points" in options:
        assert out.score[0, out.winner[0]] >= rules["options"]["target"]


def test_a_game_that_cannot_end_is_capped_and_recorded_as_stalled():
    rules = GAME.load_rules(None, ["caps.moves=30"])
    games = GAME.play(rules, Setup(2, ("default", "default")), 1, 0, 20, 0)["games"]
    assert games["stalled"].all() and games["winner"].is_null().all()
    assert (games["turns"] == 30).all()
    rules = GAME.load_rules(None, ["caps.deals=1"])
    games = GAME.play(rules, Setup(2, ("default", "default")), 1, 0, 20, 0)["games"]
    assert games["stalled"].all() and (games["deals"] == 1).all()
    rules = speed.GAME.load_rules(None, ["caps.hands=2", "options.scoring=points",
                                         "options.target=1000"])
    games = speed.GAME.play(rules, Setup(2, ("default", "default")), 1, 0, 20, 0)["games"]
    assert games["stalled"].all() and (games["hands"] == 2).all()


def test_uncapped_games_end_with_a_winner():
    for game in (GAME, speed.GAME):
        rules = game.load_rules(None, [])
        games = game.play(rules, Setup(2, ("random", "default")), 3, 0, 200, 0)["games"]
        assert not games["stalled"].any() and games["winner"].is_in([0, 1]).all()
        assert np.all(games["sim_seconds"].to_numpy() > 0)
