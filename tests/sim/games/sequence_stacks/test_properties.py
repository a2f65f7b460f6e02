"""Invariants of whole Sequence Stacks games, whatever the seed, player count, bots and rule
options: chips are conserved, only the seat to move has moves, the held types and open piles
kept move by move are right, and a game ends with a winner holding enough chips or stalled.
(Cards are conserved, only legal moves happen and the Python loop plays the jitted loop's
game: tests/conformance.)"""

from hypothesis import given, settings
from hypothesis import strategies as st
from sequence_stacks_positions import held_mask

from sim.game import Setup
from sim.games.sequence_stacks import GAME, bots, engine, play
from sim.games.sequence_stacks.cards import MAX_OPEN, OPEN_PER_COLOUR, SUPPLY
from sim.games.sequence_stacks.state import MOVES, OVER, STALLED, TURNS, WINNER, views

OPTIONS = [
    [], ["options.refill=empty_hand_only"], ["options.chip_supply=unlimited"],
    ["options.winning_steal=allowed"], ["piles.open_per_colour=1", "chips.supply=3"],
]
CAP = ["turn_cap=100"]  # random bots can play for long: the checked loop stays quick


def play_checked(rules, strategies, seed, game=0):
    """Plays one game in a Python loop over the engine and the jitted bots, checking the
    invariants at every move; gives its result arrays."""
    players = len(strategies)
    rs, families, params, s = GAME.prepare(rules, Setup(players, tuple(strategies)))
    v = views(s)
    supply = int(rs.numbers[SUPPLY])
    limited = rules["options"]["chip_supply"] == "limited"
    out = play.new_results(1, players)
    engine.start_game(s.m, s.rngs, rs, seed, game)
    while not v.g[OVER]:
        seat = int(engine.to_move(s.m))
        n = engine.legal_moves(s.m, rs, s.moves, seat)
        listed = {tuple(row) for row in s.moves[:n].tolist()}
        assert n > 0 and len(listed) == n, "there is always a move, and none listed twice"
        for other in range(players):
            if other != seat:
                assert engine.legal_moves(s.m, rs, s.moves, other) == 0
        bots.choose(s, rs, seat, families[seat], params[seat], s.move)
        assert tuple(s.move.tolist()) in listed
        assert engine.is_legal(s.m, rs, s.moves, seat, s.move)
        engine.apply_move(s.m, s.rngs, rs, seat, s.move)
        assert (v.hand.sum(axis=1) == v.hand_n).all() and (v.hand >= 0).all()
        assert v.held.tolist() == [held_mask(h) for h in v.hand], "the held types kept move by move"
        assert (v.chips >= 0).all() and (v.supply >= 0).all()
        if limited:
            assert (v.chips.sum(axis=0) + v.supply == supply).all(), "chips are conserved"
        assert (v.open_n == [(v.pile_len[c * MAX_OPEN:(c + 1) * MAX_OPEN] > 0).sum() for c in (0, 1)]).all()
        assert (v.open_n <= rs.numbers[OPEN_PER_COLOUR]).all()
    winner = int(v.g[WINNER])
    assert (winner >= 0) != bool(v.g[STALLED]), "a game ends with a winner or stalled"
    if winner >= 0:
        red, blue = v.chips[winner]
        assert red + blue >= 5 and red >= 2 and blue >= 2
    assert v.g[TURNS] <= rules["turn_cap"] and v.g[MOVES] <= rules["move_cap"]
    play.record_game(s.m, out, 0)
    return out


games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**63 - 1),
    "game": st.integers(0, 10**6),
    "strategies": st.integers(2, 6).flatmap(lambda n: st.lists(
        st.sampled_from(["random", "default", "eager-blockers", "chip-thieves", "reckless"]),
        min_size=n, max_size=n)),
    "sets": st.sampled_from(OPTIONS),
})


@settings(max_examples=20, deadline=None)
@given(games)
def test_chips_are_conserved_the_kept_counts_hold_and_every_game_ends(g):
    play_checked(GAME.load_rules(None, g["sets"] + CAP), g["strategies"], g["seed"], g["game"])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6),
       strategy=st.sampled_from(["random", "default", "never-block"]))
def test_the_result_tables_agree_with_themselves(seed, players, strategy):
    tables = GAME.play(GAME.load_rules(None, []), Setup(players, (strategy,) * players), seed, 0, 30, 0)
    games, seats = tables["games"], tables["seats"]
    assert games.height == 30 and seats.height == 30 * players
    won = seats["won"].to_numpy().reshape(30, players)
    assert (won.sum(axis=1) == (~games["stalled"].to_numpy())).all(), "one winner unless stalled"
    winners = games["winner"].to_list()
    for row, winner in enumerate(winners):
        assert (winner is None) == games["stalled"][row]
        if winner is not None:
            assert won[row, winner]
    red = seats["chips_red"].to_numpy().reshape(30, players)
    blue = seats["chips_blue"].to_numpy().reshape(30, players)
    assert (red.sum(axis=1) <= 20).all() and (blue.sum(axis=1) <= 20).all()
    blocks = seats["blocks_played"].to_numpy().reshape(30, players).sum(axis=1)
    assert (blocks == games["blocks"].to_numpy()).all()
    assert (blocks == games["sequences_blocked"].to_numpy()).all(), "each Block takes one sequence"
    completed = seats["sequences_completed"].to_numpy().reshape(30, players).sum(axis=1)
    assert (red.sum(axis=1) + blue.sum(axis=1) <= completed - blocks).all(), \
        "chips come from unblocked completions (stealing only moves them)"
