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
from collections import Counter

import numpy as np
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


def redeal_independence(game, players=None, games: int = GAMES) -> None:
    """`redeal(state, seat, rng)` reads nothing the seat cannot know, and deals something
    afresh. At every position of random play, a second true state the seat cannot tell from the
    real one (the real one re-dealt for the seat: it keeps the seat's view, so what the seat
    learned, such as a card it was shown, is in it) is re-dealt with the same random stream as
    the real one: the two worlds must be the same, or the re-deal read something hidden (the
    deck's order, another seat's hand). And some re-deal must differ from the real state: one
    that gives back a copy reads every hidden card."""
    m = _module(game)
    if m is None:
        return
    rules = game.load_rules(None, [])
    dealt_afresh, turns = 0, Counter()
    for n, index, state in _positions(m, rules, _counts(game, players), games):
        turns[n, index] += 1
        if m.is_over(state):
            continue
        seat = m.to_move(state)
        seen = m.view(state, seat)
        key = f"{n}p game {index} position {turns[n, index]}"
        other = m.redeal(state, seat, random.Random(f"other {key}"))
        assert m.view(other, seat) == seen, f"{key}: redeal changed what seat {seat} sees " \
                                            "(what it learned must survive the re-deal)"
        dealt_afresh += difference(other, state) is not None
        stream = f"world {key}"
        where = difference(m.redeal(state, seat, random.Random(stream)),
                           m.redeal(other, seat, random.Random(stream)))
        assert where is None, (
            f"{key}: two states seat {seat} cannot tell apart, re-dealt with the same stream, "
            f"gave different worlds (at {where}): redeal reads what the seat cannot know")
    assert dealt_afresh, "redeal gave back the real state at every position: a search on it " \
                         "reads every hidden card (re-deal what the seat cannot know)"


CHECKS = (determinism, trace_is_play, bad_input, legal_moves_only, every_game_ends,
          conservation, hidden_information, redeal_independence)


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


def difference(a, b, where: str = "state") -> str | None:
    """Gives where two game states differ (e.g. `state.deck[3]`), None where they are the same:
    compared field by field (attributes, slots, items, numpy arrays, random streams), so that
    any plain-Python or numpy state compares without an `__eq__` of its own."""
    if type(a) is not type(b):
        return where
    if isinstance(a, np.ndarray):
        return None if a.shape == b.shape and np.array_equal(a, b) else where
    if isinstance(a, random.Random):
        return None if a.getstate() == b.getstate() else where
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return where
        parts = [(f"{where}[{k!r}]", a[k], b[k]) for k in a]
    elif isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return where
        names = getattr(a, "_fields", None) or [f"[{i}]" for i in range(len(a))]
        parts = [(f"{where}.{name}" if name[0] != "[" else f"{where}{name}", x, y)
                 for name, x, y in zip(names, a, b)]
    elif hasattr(a, "__dict__") or hasattr(a, "__slots__"):
        fields = [f for cls in type(a).__mro__ for f in _slots(cls)]
        fields += list(getattr(a, "__dict__", {}))
        parts = [(f"{where}.{f}", getattr(a, f, None), getattr(b, f, None)) for f in fields]
    else:
        return None if a == b else where
    return next((found for w, x, y in parts if (found := difference(x, y, w)) is not None), None)


def _slots(cls) -> tuple[str, ...]:
    slots = getattr(cls, "__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


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
