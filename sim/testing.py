"""The conformance checks a game's own tests call: the promises every game keeps, so that every
study can trust it. A game package's test file needs only

    import pytest
    from sim import testing
    from my_game import GAME

    @pytest.mark.parametrize("check", testing.CHECKS, ids=lambda check: check.__name__)
    def test_conformance(check):
        check(GAME)

Each check raises AssertionError saying what broke. `determinism`, `trace_is_play` and
`bad_input` hold for any game (sim.game.Game); the others read a simple-level game's rules
module (sim/simple.py) and are skipped quietly for other games.
"""

from __future__ import annotations

import io
import random

import polars as pl
from polars.testing import assert_frame_equal

from sim.errors import UserError
from sim.game import Setup

SEED = 20260101
GAMES = 12  # per player count and strategy: enough to reach the rare branches of small games


def _counts(game, players) -> list[int]:
    return list(players) if players else sorted({game.min_players, game.max_players,
                                                 (game.min_players + game.max_players) // 2})


def _setups(game, players, strategies=("random", "default")) -> list[Setup]:
    return [Setup(n, (strategy,) * n) for n in _counts(game, players) for strategy in strategies]


def determinism(game, players=None, games: int = GAMES) -> None:
    """Game i depends on (seed, rules, setup, i) alone: however the games are cut into chunks
    (as workers take them), the tables are the same, and `game_id` is offset as asked."""
    rules = game.load_rules(None, [])
    for setup in _setups(game, players):
        whole = game.play(rules, setup, SEED, 0, games, 0)
        cut = games // 3
        parts = [game.play(rules, setup, SEED, 0, cut, 0),
                 game.play(rules, setup, SEED, cut, games, 0)]
        for table in game.tables:
            joined = pl.concat([p[table] for p in parts])
            assert_frame_equal(whole[table], joined)  # the same, played in two chunks
        again = game.play(rules, setup, SEED, 0, games, 1000)
        assert again["games"]["game_id"].to_list() == list(range(1000, 1000 + games)), \
            "game_id must be id_offset + the game's index"


def trace_is_play(game, players=None, games: int = 3) -> None:
    """A trace of game i prints something and gives the tables `play` records for game i."""
    rules = game.load_rules(None, [])
    for setup in _setups(game, players):
        played = game.play(rules, setup, SEED, 0, games, 0)
        for index in range(games):
            out = io.StringIO()
            traced = game.trace(rules, setup, SEED, index, out)
            assert out.getvalue().strip(), "a trace prints the game"
            for table in game.tables:
                want = played[table].filter(pl.col("game_id") == index)
                assert_frame_equal(traced[table], want)  # the trace's game is play's


def bad_input(game, players=None, games: int = 0) -> None:
    """Rules a user gets wrong are one clear UserError: an unknown key, a value of another
    type."""
    _raises_user_error(lambda: game.load_rules(None, ["no_such_rule_anywhere=1"]),
                       "--set no_such_rule_anywhere=1")
    rules = game.load_rules(None, [])
    key, value = next((k, v) for k, v in _leaves(rules) if not isinstance(v, str))
    _raises_user_error(lambda: game.load_rules(None, [f'{key}="text"']),
                       f"--set {key}=\"text\" (it takes {type(value).__name__})")


def legal_moves_only(game, players=None, games: int = GAMES) -> None:
    """Every bot of the game plays only legal moves, and the legal moves are never empty."""
    m = _module(game)
    if m is None:
        return
    rules = game.load_rules(None, [])
    for n in _counts(game, players):
        for family, cls in game.bots.classes.items():
            for index in range(games):
                rng = random.Random(index)
                state = m.deal(n, rules, rng)
                for _ in range(game.max_moves):
                    if m.is_over(state):
                        break
                    seat = m.to_move(state)
                    moves = m.legal_moves(state)
                    assert len(moves) > 0, f"{n}p game {index}: no legal move for seat {seat}"
                    move = cls(**game.bots.resolve(family, rules)[1]).choose(
                        m.view(state, seat), moves, rng)
                    assert move in moves, f"bot {family} played {move!r}, not one of {moves!r}"
                    state = m.apply(state, move)


def every_game_ends(game, players=None, games: int = GAMES) -> None:
    """Every game of the random and default bots ends (none stalls at the move cap), and the
    winners are seats of the game with a score each."""
    rules = game.load_rules(None, [])
    for setup in _setups(game, players):
        tables = game.play(rules, setup, SEED, 0, games, 0)
        stalled = tables["games"]["stalled"].sum()
        assert stalled == 0, f"{setup.label()}: {stalled} of {games} games stalled"
        if _module(game) is not None:
            won = tables["seats"].group_by("game_id").agg(pl.col("won").sum())
            assert won["won"].min() >= 1, f"{setup.label()}: a game ended with no winner"


def conservation(game, players=None, games: int = GAMES) -> None:
    """What the game says is conserved (its rules module's `conserved(state)`, e.g. the
    chips) stays the same through every move of random play."""
    m = _module(game)
    if m is None or not hasattr(m, "conserved"):
        return
    start = {}
    for n, index, state in _positions(m, game.load_rules(None, []), _counts(game, players), games):
        was = start.setdefault((n, index), m.conserved(state))
        assert m.conserved(state) == was, \
            f"{n}p game {index}: conserved {m.conserved(state)!r}, was {was!r}"


def hidden_information(game, players=None, games: int = GAMES) -> None:
    """`redeal(state, seat, rng)` keeps everything the seat sees (its view is unchanged), leaves
    the real state alone, and, given what the seat knows, does not depend on the real deal;
    the bots, which see only the view, play the same move in the real and the re-dealt
    worlds."""
    m = _module(game)
    if m is None:
        return
    rules = game.load_rules(None, [])
    for n, index, state in _positions(m, rules, _counts(game, players), games):
        if m.is_over(state):
            continue
        seat = m.to_move(state)
        seen = m.view(state, seat)
        before = repr(m.view(state, (seat + 1) % n))
        world = m.redeal(state, seat, random.Random(-1 - index))
        assert world is not state, "redeal must give a new state"
        assert m.view(world, seat) == seen, "redeal changed what the seat sees"
        assert repr(m.view(state, (seat + 1) % n)) == before, "redeal changed the state"
        moves = m.legal_moves(state)
        assert m.legal_moves(world) == moves, "redeal changed the seat's legal moves"
        for family, cls in game.bots.classes.items():
            params = game.bots.resolve(family, rules)[1]
            real = cls(**params).choose(seen, moves, random.Random(index))
            other = cls(**params).choose(m.view(world, seat), moves, random.Random(index))
            assert real == other, f"bot {family} read what seat {seat} cannot know"


CHECKS = (determinism, trace_is_play, bad_input, legal_moves_only, every_game_ends,
          conservation, hidden_information)


def check_all(game, players=None) -> None:
    """Runs every check."""
    for check in CHECKS:
        check(game, players)


def _positions(m, rules: dict, counts: list[int], games: int):
    """Gives every position of random play, (players, game index, state): each game's deal,
    then the state after each of its moves (drawn by the game index's own random stream)."""
    for n in counts:
        for index in range(games):
            rng = random.Random(index)
            state = m.deal(n, rules, rng)
            yield n, index, state
            while not m.is_over(state):
                moves = m.legal_moves(state)
                state = m.apply(state, moves[rng.randrange(len(moves))])
                yield n, index, state


def _module(game):
    """Gives a simple-level game's rules module, None for other games."""
    return getattr(game, "rules_module", None)


def _leaves(rules: dict, prefix: str = ""):
    for key, value in rules.items():
        if isinstance(value, dict):
            yield from _leaves(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _raises_user_error(call, what: str) -> None:
    try:
        call()
    except UserError:
        return
    raise AssertionError(f"{what} must raise UserError (one line on the command line)")
