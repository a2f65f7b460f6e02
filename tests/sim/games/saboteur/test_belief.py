"""The Bayesian belief over Saboteur's hidden roles (sim/games/saboteur/belief.py), the `deduce`
bots that act on it, and the belief search's worlds drawn from it."""

from itertools import combinations
from math import comb, exp

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim import rng
from sim.games.saboteur import GAME, belief, bots, cards, engine, play, sampler
from sim.games.saboteur.cards import BREAK
from sim.games.saboteur.engine import MINER, PLACE, SABOTEUR
from sim.games.saboteur.state import (BELIEF_WORLDS, FIXED_SABOTEURS, ORIGIN, PLAYERS, TURN_SEAT,
                                      UNBELIEVED, new_state)

RS, NAMES = cards.build(GAME.load_rules(None, []))


def table_view(s, seat=-1):
    """Gives each seat's chance of being a saboteur as `seat` sees it (-1: the table)."""
    out = np.zeros(s.llr.shape[0])
    belief.marginals(s, RS, seat, out)
    return out


def state(players, llr=None, fixed=-1):
    s = new_state(players, len(NAMES))
    s.g[PLAYERS] = players
    s.g[FIXED_SABOTEURS] = fixed
    if llr is not None:
        s.llr[:] = llr
    return s


def bayes(players, llr, fixed, seat, own_role):
    """Gives the marginals by Bayes' rule over the deals themselves, in plain Python: the role
    cards dealt one a seat with one left out (or `fixed` saboteurs among the seats, uniformly),
    each deal weighted by exp(sum of llr over its saboteurs)."""
    sab, miners = int(RS.saboteur_cards[players]), int(RS.miner_cards[players])
    prior = {}  # saboteur set -> prior probability
    for k in range(players + 1):
        if fixed >= 0:
            p_k = 1.0 if k == fixed else 0.0
        else:  # the card left out is a saboteur (k = sab - 1) or a miner (k = sab)
            p_k = (sab / (sab + miners)) * (k == sab - 1) + (miners / (sab + miners)) * (k == sab)
        for subset in combinations(range(players), k):
            prior[subset] = p_k / comb(players, k)
    total, marg = 0.0, np.zeros(players)
    for subset, p in prior.items():
        if seat >= 0 and (seat in subset) != (own_role == SABOTEUR):
            continue
        w = p * exp(sum(llr[q] for q in subset))
        total += w
        for q in subset:
            marg[q] += w
    return marg / total if total else marg


@settings(max_examples=40, deadline=None)
@given(data=st.data(), players=st.integers(3, 10))
def test_the_marginals_are_bayes_rule_over_the_deals(data, players):
    limit = belief.LLR_LIMIT  # the record's whole range
    llr = data.draw(st.lists(st.floats(-limit, limit), min_size=players, max_size=players))
    fixed = data.draw(st.sampled_from([-1, *range(players)]))
    seat = data.draw(st.integers(-1, players - 1))
    own = data.draw(st.sampled_from([MINER, SABOTEUR]))
    s = state(players, llr, fixed)
    if seat >= 0:
        s.role[seat] = own
    got, want = table_view(s, seat), bayes(players, llr, fixed, seat, own)
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    if want.sum() > 0:  # a role the prior allows
        assert ((got >= 0) & (got <= 1)).all()
        if seat >= 0:
            assert got[seat] == own


@pytest.mark.parametrize("players", [3, 4, 7, 10])
def test_with_no_moves_the_posterior_is_the_prior(players):
    sab = int(RS.saboteur_cards[players])
    n = sab + int(RS.miner_cards[players])
    s = state(players)
    np.testing.assert_allclose(table_view(s), sab / n)  # each seat gets one of n role cards
    assert table_view(s).sum() == pytest.approx(players * sab / n)  # expected saboteurs
    s.role[0] = MINER  # a miner knows the others hold `sab` saboteur cards of the n - 1 left
    np.testing.assert_allclose(table_view(s, 0)[1:], sab / (n - 1))
    s.role[0] = SABOTEUR
    np.testing.assert_allclose(table_view(s, 0)[1:], (sab - 1) / (n - 1))
    fixed = state(players, fixed=2)
    np.testing.assert_allclose(table_view(fixed), 2 / players)
    assert table_view(fixed).sum() == pytest.approx(2.0)


def only_open_end(table):
    """Lays a path from the start to (4, 0) whose one open end is the cell (5, 0): dead ends close
    the start's other sides."""
    table.put(0, -1, "dead_ns")
    table.put(0, 1, "dead_ns")
    table.put(-1, 0, "dead_ew")
    table.row(0, 1, 4)
    table.refresh()
    assert table.front() == {(5, 0)}


def play_observed(table, seat, card, x, y, letters):
    """Plays `card` from `seat`'s hand to (x, y) with the table observing (as at a bot table)."""
    s = table.s
    table.give(seat, card)
    s.g[TURN_SEAT] = seat
    move = np.array([PLACE, 0, ORIGIN + x, ORIGIN + y, table.sides(letters)], np.int64)
    play.play_turn(s, table.rs, seat, move, True)


def test_a_dead_end_onto_the_only_open_path_makes_its_player_more_likely_a_saboteur(table):
    only_open_end(table)
    prior = table_view(table.s)
    play_observed(table, 1, "dead_e", 5, 0, "W")
    after = table_view(table.s)
    assert table.s.llr[1] > 0
    assert after[1] > prior[1] and after[1] == after.max()
    assert after[1] > 0.5  # 4 players: one saboteur card of five, prior 0.2


def test_a_player_whose_every_move_extended_the_path_is_less_likely_a_saboteur(table):
    only_open_end(table)
    prior = table_view(table.s)
    play_observed(table, 2, "straight_ew", 5, 0, "EW")
    play_observed(table, 2, "straight_ew", 6, 0, "EW")
    after = table_view(table.s)
    assert table.s.llr[2] < 0
    assert after[2] < prior[2] and after[2] == after.min()


def test_a_deduce_miner_breaks_the_tools_of_the_player_it_believes_a_saboteur(table):
    table.give(0, "broken_pickaxe")
    deduce = bots.resolve("deduce")[1]
    bots.default_move(table.s, table.rs, 0, deduce, table.s.move)
    assert table.s.move[0] != BREAK  # nobody suspected: the card is kept back
    table.s.llr[2] = 4.0
    bots.default_move(table.s, table.rs, 0, deduce, table.s.move)
    assert (table.s.move[0], table.s.move[2]) == (BREAK, 2)
    # At 4 players there is one saboteur card: a saboteur knows the suspect is a miner.
    table.s.role[0] = SABOTEUR
    assert table_view(table.s, 0)[1:].tolist() == [0.0, 0.0, 0.0]


def test_the_belief_search_deals_the_worlds_roles_from_the_seats_posterior(new_table):
    table = new_table(players=5)
    s = table.s
    s.llr[:] = [0.0, 2.5, -2.0, 0.0, 1.0]
    s.g[BELIEF_WORLDS] = 1
    want = table_view(s, 0)
    r = np.zeros(1, np.uint64)
    drawn = np.zeros(5)
    draws = 3000
    for k in range(draws):
        rng.start(r, 5, k, 0)
        sampler.resample(s, table.rs, 0, r)
        assert s.role[0] == MINER and s.g[engine.SABOTEURS] == s.role.sum()
        drawn += s.role
    np.testing.assert_allclose(drawn / draws, want, atol=0.03)
    assert want[1] > 0.5 > want[2]  # the record moved the draws away from the prior (2/5)


def test_a_bluffing_saboteur_pays_for_each_move_what_it_adds_to_its_public_record():
    # Mid-round positions of a 7-player game; each listed move of a deduce saboteur is then
    # played on a copy with the table observing: its score fell by the rise of its llr.
    players = 7
    s = new_state(players, len(NAMES))
    engine.start_game(s, RS, 11, 0, -1)
    honest, bluffing = bots.resolve("deduce")[1].copy(), bots.resolve("deduce")[1].copy()
    honest[bots.BLUFF], honest[bots.NOISE], bluffing[bots.NOISE] = 0.0, 0.0, 0.0
    checked = 0
    for _ in range(25):
        seat = int(s.g[TURN_SEAT])
        s.role[seat] = SABOTEUR
        stream = s.bot_rng[seat].copy()
        n = bots.default_move(s, RS, seat, honest, s.move)
        plain = s.move_score[:n].copy()
        s.bot_rng[seat] = stream
        assert bots.default_move(s, RS, seat, bluffing, s.move) == n
        cost = plain - s.move_score[:n]
        for i in range(n):
            copy = type(s)(*(a.copy() for a in s))
            before = copy.llr[seat]
            play.play_turn(copy, RS, seat, s.moves[i].copy(), True)
            assert cost[i] == pytest.approx(max(0.0, copy.llr[seat] - before)), s.moves[i]
            checked += 1
        s.bot_rng[seat] = stream
        bots.default_move(s, RS, seat, bots.resolve("default")[1], s.move)
        if play.play_turn(s, RS, seat, s.move, True):
            break
    assert checked > 100


def gold_belief(table, seat=0):
    """Gives where a `deduce` miner at `seat` believes the gold lies (its bot's belief)."""
    table.give(seat, "straight_ew")
    bots.default_move(table.s, table.rs, seat, bots.resolve("deduce")[1], table.s.move)
    return table.s.belief[0].copy()


def peek_and_head_north(table, seat, llr):
    """Seat `seat`, whose public log-likelihood ratio of being a saboteur is `llr`, has looked at
    the north goal (8, -2) and turns the only open end north, towards it."""
    only_open_end(table)
    table.s.llr[seat] = llr
    table.s.seen[seat, 0] = 1
    play_observed(table, seat, "curve_nw", 5, 0, "NW")
    table.s.llr[seat] = llr  # the record of its role as set, whatever the card added


def test_a_deduce_miner_follows_the_path_of_a_trusted_player_who_looked_at_a_goal(table):
    peek_and_head_north(table, 1, -4.0)
    w = gold_belief(table)
    assert w[0] > 0.5 and w[1] == w[2] and w.sum() == pytest.approx(1.0)
    assert table.s.lean[1].tolist() == [1.0, 0.0, 0.0]  # towards the goal it looked at


def test_a_deduce_miner_turns_away_from_the_path_of_a_suspect_who_looked_at_a_goal(table):
    peek_and_head_north(table, 1, 4.0)
    w = gold_belief(table)
    assert w[0] < 0.2 and w[1] == w[2] > 0.4


def test_a_players_own_knowledge_of_the_goals_wins_over_the_others_paths(table):
    peek_and_head_north(table, 1, -4.0)
    table.s.seen[0, 0] = 1  # seat 0 saw that the north goal is coal
    assert gold_belief(table).tolist() == [0.0, 0.5, 0.5]
    table.s.seen[0, 1] = 1  # ... and the gold in the middle
    assert gold_belief(table).tolist() == [0.0, 1.0, 0.0]


def test_only_a_seat_that_looked_at_a_goal_leans_and_the_default_family_ignores_it(table):
    only_open_end(table)
    play_observed(table, 1, "curve_nw", 5, 0, "NW")
    assert not table.s.lean.any()  # it had looked at no goal: its path tells nothing
    table.s.lean[1, 0], table.s.seen[1, 0] = 3.0, 1
    table.give(0, "straight_ew")
    bots.default_move(table.s, table.rs, 0, bots.resolve("default")[1], table.s.move)
    assert table.s.belief[0].tolist() == pytest.approx([1 / 3] * 3)


@pytest.mark.parametrize("unbelieved", [0, 1])
def test_a_table_where_no_bot_reads_the_belief_keeps_only_the_suspicion(table, unbelieved):
    only_open_end(table)
    table.s.seen[1, 0] = 1  # seat 1 looked at the north goal (8, -2)
    table.s.g[UNBELIEVED] = unbelieved
    play_observed(table, 1, "curve_nw", 5, 0, "NW")  # turns the only open end north
    assert table.s.suspicion[1] == 1.0  # took the open end further from the three goals' mean
    if unbelieved:
        assert not table.s.llr.any() and not table.s.lean.any()
    else:
        assert table.s.llr[1] > 0 and table.s.lean[1].tolist() == [1.0, 0.0, 0.0]


@pytest.mark.parametrize("seats, reads", [
    (("default",) * 5, False),
    (("random",) * 5, False),
    (("search",) + ("default",) * 4, False),
    (("deduce",) + ("default",) * 4, True),
    (("search-belief",) + ("default",) * 4, True),
    (("random",) + ("deduce",) * 4, True),
])
def test_the_table_keeps_the_belief_only_where_a_bot_reads_it(seats, reads):
    resolved = [bots.resolve(name) for name in seats]
    families = np.array([f for f, _ in resolved], np.int64)
    params = np.array([p for _, p in resolved], np.float64)
    assert bots.reads_belief(families, params) is reads
    random_deducing = params.copy()
    random_deducing[:, bots.DEDUCE] = 1.0  # the random family reads nothing, whatever its vector
    assert not bots.reads_belief(np.zeros(len(seats), np.int64), random_deducing)
