"""Invariants of whole Saboteur games, whatever the seed, player count, bots and rule options:
cards are conserved, only legal moves happen, the front kept up move by move is the one a full
recount gives, every game ends, roles follow the table, gold is conserved and ranks follow it."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.game import Setup
from sim.games.saboteur import GAME, bots, engine, maze, play
from sim.games.saboteur.cards import PATH, ROCKFALL, ROUNDS
from sim.games.saboteur.engine import PLACE
from sim.games.saboteur.state import (DRAW_AT, GAME_TURNS, N_FRONT, N_PLACED, ROUND_TURNS, STAMP,
                                TURN_SEAT, State)

DECK = 67
OPTIONS = [
    [], ["options.round_end=all_pass"], ["options.next_round_starter=after_round_ender"],
    ["options.gold_pass=counter_clockwise"],
]


def assert_cards_conserved(s, rs, out_of_play):
    """Every deck card is in exactly one place: a hand, the pile, the maze or out of play."""
    hands = [int(c) for seat in range(s.hand.shape[0]) for c in s.hand[seat, :s.hand_n[seat]]]
    assert (s.hand[np.arange(s.hand.shape[1]) >= s.hand_n[:, None]] == -1).all()
    pile = s.deck[s.g[DRAW_AT]:].tolist()
    in_maze = s.card_at[s.card_at >= 0].tolist()
    assert sorted(hands + pile + in_maze + out_of_play) == list(range(DECK))
    assert all(rs.kind[c] == PATH for c in in_maze)
    assert s.g[N_PLACED] == len(in_maze)


def assert_front_is_fresh(s, rs):
    """The path and the front kept up move by move are those a full recount gives."""
    fresh = State(*(a.copy() for a in s))
    assert not maze.refresh(fresh, rs)
    assert np.array_equal(fresh.goal_shown, s.goal_shown)
    assert np.array_equal(fresh.reach == fresh.g[STAMP], s.reach == s.g[STAMP]), "joined cards"
    front = {(x, y, f) for (x, y), f in zip(s.front[:s.g[N_FRONT]].tolist(), s.front_fit[:s.g[N_FRONT]])}
    expected = {(x, y, f) for (x, y), f in zip(fresh.front[:fresh.g[N_FRONT]].tolist(),
                                                fresh.front_fit[:fresh.g[N_FRONT]])}
    assert front == expected and len(front) == s.g[N_FRONT]
    assert np.array_equal(fresh.fit_count, s.fit_count)


def play_checked(rules, strategies, seed, game=0, fixed=-1):
    """Plays one game in a Python loop over the engine's rules and the jitted bots, checking the
    invariants at every move; gives its result arrays."""
    players = len(strategies)
    rs, names, families, params, s, _ = GAME.prepare(rules, Setup(players, tuple(strategies)))
    observed = bots.keeps_record(families.ravel())
    rounds = int(rs.numbers[ROUNDS])
    out = play.new_results(1, players, rounds)
    move = s.move
    engine.start_game(s, rs, seed, game, fixed)
    for r in range(rounds):
        if r > 0:
            engine.start_round(s, rs, r, engine.next_round_first_seat(s, rs))
        saboteur_cards = rs.saboteur_cards[players]
        in_play = int(s.role.sum())
        if fixed >= 0:
            assert in_play == fixed
        else:
            assert in_play in (saboteur_cards - 1, min(saboteur_cards, players))
        out_of_play: list[int] = []
        assert_cards_conserved(s, rs, out_of_play)
        over = False
        while not over:
            seat = int(s.g[TURN_SEAT])
            assert s.hand_n[seat] > 0, "a player with no card has no turn"
            n = engine.legal_moves(s, rs, seat)
            listed = {tuple(row) for row in s.moves[:n].tolist()}
            assert len(listed) == n, "no move is listed twice"
            assert n == sum(engine.slot_move_count(s, rs, seat, k) for k in range(s.hand_n[seat]))
            bots.choose(s, rs, seat, families[s.role[seat], seat], params[s.role[seat], seat], move)
            assert tuple(move.tolist()) in listed
            assert engine.is_legal(s, rs, seat, move)
            card = int(s.hand[seat, move[1]])
            if move[0] == ROCKFALL:
                out_of_play.append(int(s.card_at[move[3], move[2]]))
            if move[0] != PLACE:
                out_of_play.append(card)
            over = play.turn(s, rs, seat, move, observed)
            assert_cards_conserved(s, rs, out_of_play)
            if not over:
                assert_front_is_fresh(s, rs)
            assert s.g[ROUND_TURNS] <= DECK, "every move plays a card"
        engine.end_round(s, rs)
        play.record_round(s, out, 0, r)
        assert (s.gold >= 0).all() and (s.gold_pile >= 0).all()
        assert s.gold.sum() + s.gold_pile @ np.arange(4) == 44, "gold comes from one pile of 44"
    play.record_game(s, out, 0)
    assert s.g[GAME_TURNS] <= rounds * DECK
    return out


games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**63 - 1),
    "game": st.integers(0, 10**6),
    "strategies": st.integers(3, 10).flatmap(
        lambda n: st.lists(st.sampled_from(["random", "default"]), min_size=n, max_size=n)),
    "sets": st.sampled_from(OPTIONS),
})


@settings(max_examples=60, deadline=None)
@given(games)
def test_cards_are_conserved_only_legal_moves_happen_and_every_game_ends(g):
    play_checked(GAME.load_rules(None, g["sets"]), g["strategies"], g["seed"], g["game"])


@settings(max_examples=10, deadline=None)
@given(games, st.data())
def test_a_fixed_number_of_saboteurs_holds_in_every_round(g, data):
    players = len(g["strategies"])
    fixed = data.draw(st.integers(0, min(players - 1, 4)))
    play_checked(GAME.load_rules(None, g["sets"]), g["strategies"], g["seed"], g["game"], fixed)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(3, 10),
       strategy=st.sampled_from(["random", "default", "naive-saboteurs"]))
def test_gold_and_ranks_in_the_result_tables_are_consistent(seed, players, strategy):
    tables = GAME.play(GAME.load_rules(None, []), Setup(players, (strategy,) * players), seed, 0, 20, 0)
    seats, rounds = tables["seats"], tables["rounds"]
    gold = seats["gold"].to_numpy().reshape(20, players)
    assert (gold >= 0).all() and (gold.sum(axis=1) <= 44).all()
    expected = 1 + (gold[:, None, :] > gold[:, :, None]).sum(axis=2)
    assert (seats["rank"].to_numpy().reshape(20, players) == expected).all()
    assert (seats["won"].to_numpy() == (seats["rank"].to_numpy() == 1)).all()
    assert seats["won"].to_numpy().reshape(20, players).any(axis=1).all(), "someone always wins"
    gained = rounds["gold_gained"].to_numpy().reshape(20, 3, players).sum(axis=1)
    assert (gained == gold).all(), "a game's gold is the sum of its rounds"
    won = rounds["winner_team"].to_numpy().reshape(20, 3, players)[:, :, 0] == "miners"
    assert (tables["games"]["miner_rounds"].to_numpy() == won.sum(axis=1)).all()
