"""The conformance checks a game's own tests call: the promises every game keeps, so that every
study can trust it. A game package's test file needs only

    import pytest
    from sim import testing
    from my_game import GAME

    @pytest.mark.parametrize("check", testing.CHECKS, ids=lambda check: check.__name__)
    def test_conformance(check):
        check(GAME)

Each check raises AssertionError saying what broke. `determinism`, `trace_is_play`,
`bad_input`, `command_line`, `python_strategies`, `legal_moves_only` and `every_game_ends`
hold for a game of either level (sim.game.Game: a simple-level game's bots are checked in its
rules module, a fast-level game's through its Python driver), and the built-in games' tests run
them as here (tests/conformance/test_public_suite.py); the others (SIMPLE_LEVEL) read a
simple-level game's rules module (sim/simple.py) and pass at once for other games.
`redeal_is_independent` is the re-deal check of one position, for a game of either level.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import os
import random
import re
import signal
import sys
import tempfile
from collections import Counter
from importlib.metadata import entry_points
from pathlib import Path

import numpy as np
import polars as pl
from polars.testing import assert_frame_equal

from sim.errors import UserError
from sim.game import Setup, forbids, suggests
from strategies import python_bots, seats

SEED = 20260101
GAMES = 12  # per player count and strategy: enough to reach the rare branches of small games
MAX_SEED = 2**63 - 1  # the largest seed --seed takes (sim.run.limits)
GAMES_GROUP = "tabletop_balance.games"  # the entry points games are installed as (sim.games)


def _counts(game, players, setups=None) -> list[int]:
    """Gives the player counts a check plays: `players`, else those of `setups`, else the
    fewest, the most and the middle."""
    if players:
        return list(players)
    if setups:
        return sorted({setup.players for setup in setups})
    return sorted({game.min_players, game.max_players,
                   (game.min_players + game.max_players) // 2})


def _setups(game, players, setups=None) -> list[Setup]:
    """Gives `setups` if given, else the random and the default bot at every seat, at each
    player count."""
    if setups:
        return list(setups)
    return [Setup(n, (strategy,) * n) for n in _counts(game, players, setups)
            for strategy in ("random", "default")]


def determinism(game, players=None, games: int = GAMES, setups=None) -> None:
    """Game i depends on (seed, rules, setup, i) alone: however the games are cut into chunks
    (as workers take them), the tables are the same; another seed plays other games; the id
    offset only renumbers the games (`game_id` is id_offset + i); the largest seeds play too
    (`largest_seeds`)."""
    rules = game.load_rules(None, [])
    for setup in _setups(game, players, setups):
        whole = game.play(rules, setup, SEED, 0, games, 0)
        assert whole["games"]["game_id"].to_list() == list(range(games)), \
            "game_id must be id_offset + the game's index"
        # chunks of one game at either end, and two in the middle
        parts = [game.play(rules, setup, SEED, start, stop, 0)
                 for start, stop in itertools.pairwise([0, 1, games // 2, games - 1, games])]
        for table in game.tables:
            joined = pl.concat([p[table] for p in parts])
            assert_frame_equal(whole[table], joined)  # the same, played in chunks
        shifted = game.play(rules, setup, SEED, 0, games, 1000)
        for table in game.tables:
            assert_frame_equal(shifted[table].drop("game_id"), whole[table].drop("game_id"))
            assert (shifted[table]["game_id"] - whole[table]["game_id"]).unique().to_list() \
                == [1000], f"{table}: game_id must be id_offset + the game's index"
        other = game.play(rules, setup, SEED + 1, 0, games, 0)
        assert not other["seats"].equals(whole["seats"]), \
            f"{setup.label()}: another seed must play other games"
    largest_seeds(game, rules, _setups(game, players, setups)[0])


def largest_seeds(game, rules: dict, setup: Setup) -> None:
    """The two largest seeds `--seed` takes play games of their own, and `trace` plays them
    as `play` does (after a small seed, as every run's compile plays one)."""
    game.play(rules, setup, 5, 0, 1, 0)
    for seed in (MAX_SEED - 1, MAX_SEED):
        traced = game.trace(rules, setup, seed, 1, io.StringIO())
        played = game.play(rules, setup, seed, 1, 2, 0)
        for table in game.tables:
            assert_frame_equal(traced[table], played[table])  # the trace's game is play's
    assert not game.play(rules, setup, MAX_SEED - 1, 0, 4, 0)["seats"].equals(
        game.play(rules, setup, MAX_SEED, 0, 4, 0)["seats"]), "the largest seeds play alike"


def trace_is_play(game, players=None, games: int = 3, setups=None) -> None:
    """`trace` of game i prints a line naming the game, the seed and i, then the moves, and
    gives the tables `play` records for game i (the first and the last of `games`)."""
    rules = game.load_rules(None, [])
    for setup in _setups(game, players, setups):
        played = game.play(rules, setup, SEED, 0, games, 0)
        for index in (0, games - 1):
            out = io.StringIO()
            traced = game.trace(rules, setup, SEED, index, out)
            header, *moves = out.getvalue().splitlines() or [""]
            assert header.startswith(f"{game.title}, ") and \
                f"seed {SEED}, game {index}" in header, \
                f"a trace's first line names the game, the seed and the game: {header!r}"
            assert moves, "a trace prints the moves"
            assert traced.keys() == played.keys()
            for table in game.tables:
                want = played[table].filter(pl.col("game_id") == index)
                assert_frame_equal(traced[table], want)  # the trace's game is play's


STRATEGIES = """\
class Recorder:
    seen = []  # each decision's view and legal moves, read whole as it is made

    def choose(self, view, legal_moves, rng):
        self.seen.append((repr(view), list(legal_moves)))
        return legal_moves[rng.randrange(len(legal_moves))]


class Keeper:
    kept = []  # each decision's view and legal moves, unread

    def choose(self, view, legal_moves, rng):
        self.kept.append((view, legal_moves))
        return legal_moves[rng.randrange(len(legal_moves))]


class Dice:
    def choose(self, view, legal_moves, rng):
        return legal_moves[rng.randrange(len(legal_moves))]


class Illegal:
    def choose(self, view, legal_moves, rng):
        return [legal_moves[0]] * 99


class Raises:
    def choose(self, view, legal_moves, rng):
        return legal_moves[len(legal_moves)]
"""


def python_strategies(game, players=None, games: int = 2, setups=None) -> None:
    """A Python strategy (docs/bots.md) plays any seat: it is offered one legal move or more,
    none twice; its random stream depends on (seed, game, seat) alone; a view or legal moves it
    keeps say later what they said at its decision; a move that is not legal, or an error of
    its own, is one UserError naming it, its seat and the game. (A game without `bots` plays
    no Python strategy: sim.game.Bots.)"""
    if not hasattr(game, "bots"):
        return
    base = _setups(game, players, setups)[0]
    rules = game.load_rules(None, [])
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "conformance_bots.py"
        file.write_text(STRATEGIES)

        def at(seat_classes: tuple[str, ...]) -> Setup:
            return Setup(base.players, tuple(
                cls if cls == "random" else seats.canonical(game, f"{file}:{cls}")
                for cls in seat_classes), base.options)

        everywhere = at(("Recorder",) * base.players)
        recorder = python_bots.load_class(f"{file}:Recorder")
        recorder.seen.clear()
        first = game.play(rules, everywhere, SEED, 0, games, 0)
        seen = list(recorder.seen)
        assert all(moves for _, moves in seen), "a strategy is offered one legal move or more"
        twice = next((moves for _, moves in seen if len(set(moves)) < len(moves)), None)
        assert twice is None, f"a legal move is offered twice: {twice!r}"
        assert len({view for view, _ in seen}) > 1, "the views say where the game is"
        other = game.play(rules, at(("Dice",) * base.players), SEED + 1, 0, games, 0)["seats"]
        assert not first["seats"].drop("strategy").equals(other.drop("strategy")), \
            "another seed must play other games"
        keeper = python_bots.load_class(f"{file}:Keeper")
        keeper.kept.clear()
        kept = game.play(rules, at(("Keeper",) * base.players), SEED, 0, games, 0)
        for table in game.tables:  # the same streams, the same games: another class's label
            unlabelled = [c for c in kept[table].columns if c != "strategy"]
            assert_frame_equal(first[table].select(unlabelled), kept[table].select(unlabelled))
        assert [(repr(view), list(moves)) for view, moves in keeper.kept] == seen, \
            "a view or legal moves kept and read later must say what they said at the decision"
        illegal = at(("random", "Illegal", *("random",) * (base.players - 2)))
        _raises_user_error(lambda: game.play(rules, illegal, SEED, 4, 6, 0), "an illegal move",
                           f"strategy {illegal.seats[1]} (seat 1) played an illegal move in "
                           "game 4: [")
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0), \
            "the per-move alarm must be off once a game ends"
        _raises_user_error(lambda: game.play(rules, at(("Raises",) * base.players), SEED, 2, 3,
                                             0), "a strategy's IndexError",
                           "conformance_bots.py:Raises (seat ", "failed in game 2: IndexError: ",
                           "(conformance_bots.py:")


def bad_input(game, players=None, games: int = 0, setups=None) -> None:
    """Rules a user gets wrong are one clear UserError: an unknown key, a value of another
    type."""
    _raises_user_error(lambda: game.load_rules(None, ["no_such_rule_anywhere=1"]),
                       "--set no_such_rule_anywhere=1")
    rules = game.load_rules(None, [])
    key, value = next((k, v) for k, v in _leaves(rules) if not isinstance(v, str))
    _raises_user_error(lambda: game.load_rules(None, [f'{key}="text"']),
                       f"--set {key}=\"text\" (it takes {type(value).__name__})")


def command_line(game, players=None, games: int = 0, setups=None) -> None:
    """Bad input a user gives the game's commands (`simulate GAME`, `trace`, `bench`) ends in
    one line on stderr saying what is wrong, and exit code 2, and writes nothing. Runs the
    installed `simulate` command in-process (its console script); passes at once for a game
    not installed under its name, which no command reaches."""
    if game.name not in {e.name for e in entry_points(group=GAMES_GROUP)}:
        return
    simulate = next(iter(entry_points(group="console_scripts", name="simulate"))).load()
    for args, says in _bad_inputs(game):
        with tempfile.TemporaryDirectory() as folder:
            code, err = _run(simulate, folder, args)
            assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 \
                and says in err, f"simulate {' '.join(args)}: exit code {code}, stderr " \
                                 f"{err!r}; want exit code 2 and one line saying {says!r}"
            assert list(Path(folder).iterdir()) == [], f"simulate {' '.join(args)} wrote files"


def _run(simulate, folder: str, args: list[str]) -> tuple[int, str]:
    """Gives the exit code and stderr of `simulate ARGS`, run in-process in `folder`."""
    argv, cwd, err = sys.argv, os.getcwd(), io.StringIO()
    try:
        sys.argv = ["simulate", *args]
        os.chdir(folder)
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                simulate()
                code = 0
            except SystemExit as e:
                code = e.code or 0
    finally:
        sys.argv = argv
        os.chdir(cwd)
    return code, err.getvalue()


def _bad_inputs(game) -> list[tuple[list[str], str]]:
    """Gives (arguments, what the one line says) for bad input every game refuses alike."""
    name = game.name
    unknown = (f"error: unknown strategy 'clever'; known strategies: "
               f"{', '.join(game.strategy_names())} (or a Python bot: path/to/file.py:ClassName)")
    players = ["--players", str(game.min_players)]
    two_player = game.min_players == game.max_players  # `bench` takes no --players then

    def refused(n):
        if two_player:
            return f"error: {name} is a game for two players: --players takes only 2, got {n}"
        return f"error: {name} takes {game.min_players}–{game.max_players} players, got {n}"

    above, below = game.max_players + 1, game.min_players - 1
    span = f"{game.min_players}-{above + 2}"  # refused at its first count out of range
    cases = [
        ([name, "--players", str(above)], refused(above)),
        ([name, "--players", str(below)], refused(below)),
        ([name, "--players", span], refused(span if two_player else above)),
        ([name, "--players", "four"], "error: --players takes a number (7), a list (5,7) or a "
                                      "range (3-10), got 'four'"),
        ([name, *players, "--strategy", "clever"], unknown),
        ([name, *players, "--seat-strategy", "0=clever"], unknown),
        ([name, *players, "--seat-strategy", f"{game.min_players}=random"],
         f"error: --seat-strategy: there is no seat {game.min_players} with {game.min_players} "
         f"players (seats are 0–{game.min_players - 1})"),
        ([name, *players, "--set", "no_such.rule=1"], "error: unknown rule 'no_such"),
        ([name, *players, "--set", "no_equals_sign"], "error: --set"),
        ([name, *players, "--seed", "-1"], "error: --seed must be between 0 and 2**63-1, got -1"),
        ([name, *players, "--seed", str(2**63)], "error: --seed must be between 0 and 2**63-1"),
        ([name, *players, "--games", "0"], "error: --games must be at least 1, got 0"),
        ([name, *players, "--config", "missing.toml"], "missing.toml"),
        (["trace", name, "--players", str(above)], refused(above)),
        (["trace", name, "--players", str(below)], refused(below)),
        (["trace", name, *players, "--strategy", "clever"], unknown),
        (["trace", name, *players, "--seed", "-1"], "error: --seed must be between 0 and 2**63-1"),
        (["bench", name, *([] if two_player else players), "--strategies", "clever"], unknown),
    ] + ([] if two_player else [(["bench", name, "--players", str(n)], refused(n))
                                for n in (above, below)])
    if forbids(game):
        forbiddable = ", ".join(game.bots.forbiddable(game.load_rules(None, [])))
        cases += [([name, *players, "--forbid", "teleport"],
                   f"error: {name} cannot forbid 'teleport'; it can forbid: {forbiddable}"),
                  (["trace", name, *players, "--forbid", "teleport"],
                   f"error: {name} cannot forbid 'teleport'")]
    return cases


def legal_moves_only(game, players=None, games: int = GAMES, setups=None) -> None:
    """Every built-in strategy of the game plays only legal moves, and the legal moves are
    never empty. At the fast level (a game whose bots are compiled), each plays through the
    Python driver too (`built_ins_through_python`), where every move it makes is checked."""
    m = _module(game)
    if m is None:
        return built_ins_through_python(game, players, min(games, 2), setups)
    rules = game.load_rules(None, [])
    for n in _counts(game, players, setups):
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


FOLLOWER = """\
class Follower:
    strategy = None  # the built-in strategy it plays

    def choose(self, view, legal_moves, rng):
        assert len(legal_moves) > 0 and len(set(legal_moves)) == len(legal_moves), \\
            f"legal moves none, or one twice: {list(legal_moves)!r}"
        return view.suggest(self.strategy)
"""


def built_ins_through_python(game, players=None, games: int = 2, setups=None) -> None:
    """A fast-level game's Python driver plays its jitted loop's games move for move: each of
    its built-in strategies, played by a Python strategy that makes the move `view.suggest`
    says that strategy makes (docs/bots.md), is offered one legal move or more (none twice),
    makes a legal move at every decision, and plays the games (and the traces) the built-in
    plays (at the fewest players and the middle count). Seats alternate between the Python
    strategy and the built-in (which keeps whatever the engine records for it). The search is
    played by the first search preset the game lists (its cheapest: the others play the same
    code for longer). Passes at once for a game without compiled bots (a simple-level game has
    the Python driver alone) or whose View gives no advice (`suggests = False`)."""
    if not hasattr(game, "bots") or _module(game) is not None or not suggests(game):
        return
    rules = game.load_rules(None, [])
    names = game.strategy_names()
    searches = [name for name in names if _family(game, name) == "search"]
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "conformance_follower.py"
        file.write_text(FOLLOWER)
        follower = f"{file}:Follower"
        cls = python_bots.load_class(follower)
        for strategy in [n for n in names if n not in searches] + searches[:1]:
            cls.strategy = strategy
            counts = _counts(game, players, setups)  # the fewest and the middle count: the
            for n in sorted({counts[0], counts[len(counts) // 2]}):  # driver is slow at a crowd
                for first in (0, 1):
                    built_in = Setup(n, (strategy,) * n)
                    python = Setup(n, tuple(seats.canonical(game, follower)
                                            if seat % 2 == first else strategy
                                            for seat in range(n)))
                    where = f"{strategy} at {n} players, the Python strategy at seat {first}"
                    try:
                        driven = game.play(rules, python, SEED, 0, games, 0)
                        traced = _moves(game, rules, python, games - 1)
                    except UserError as e:  # the follower's complaint, or an illegal move
                        raise AssertionError(f"{where}: {e}") from None
                    jitted = game.play(rules, built_in, SEED, 0, games, 0)
                    for table in game.tables:
                        assert _unlabelled(driven[table]).equals(_unlabelled(jitted[table])), \
                            f"{where}: the {table} tables differ from the compiled loop's"
                    assert traced == _moves(game, rules, built_in, games - 1), \
                        f"{where}: the trace differs from the compiled loop's"


def _family(game, name: str) -> str:
    """Gives the bot family a strategy name of the game plays (a preset's, or the name's)."""
    return game.bots.presets.get(name, (name, {}))[0]


def _unlabelled(table: pl.DataFrame) -> pl.DataFrame:
    return table.drop([c for c in ("strategy",) if c in table.columns])


def _moves(game, rules, setup: Setup, index: int) -> list[str]:
    """Gives the lines of game `index`'s trace after its header (which names the seats), a
    seat's label, where a line names it last in brackets, written `bot)`."""
    out = io.StringIO()
    game.trace(rules, setup, SEED, index, out)
    text = out.getvalue().split("\n", 1)[1]
    for label in set(setup.strategies()):
        text = re.sub(rf"(?<=[( ]){re.escape(label)}\)", "bot)", text)
    return text.splitlines()


def every_game_ends(game, players=None, games: int = GAMES, setups=None) -> None:
    """Every game of the default bots ends with a winner (none stalls at the move cap); and
    whatever the seed, the game and the bots at the table (random play, any mix of the game's
    bots), a game ends with a winner or is recorded as stalled without one (random play may
    reach a game's turn cap)."""
    rules = game.load_rules(None, [])
    for setup in _setups(game, players, setups):
        tables = game.play(rules, setup, SEED, 0, games, 0)
        won = tables["seats"].group_by("game_id").agg(pl.col("won").sum()).sort("game_id")
        stalled = tables["games"].sort("game_id")["stalled"]
        assert ((won["won"] >= 1) != stalled).all(), \
            f"{setup.label()}: a game ends with a winner, or stalled without one"
        if "random" not in setup.strategies():  # random play may reach a turn cap
            assert stalled.sum() == 0, f"{setup.label()}: {stalled.sum()} of {games} games " \
                                       "stalled"
    drawn = random.Random(SEED)
    names = [name for name in game.strategy_names() if _family(game, name) != "search"]
    for n in _counts(game, players, setups):
        for _ in range(games // 3):
            # any seed, any game, any mix of the game's bots (the search but for its cost)
            setup = Setup(n, tuple(drawn.choice(names) for _ in range(n)))
            seed, index = drawn.randrange(2**63), drawn.randrange(10**6)
            tables = game.play(rules, setup, seed, index, index + 1, 0)
            stalled, won = tables["games"]["stalled"][0], tables["seats"]["won"].any()
            assert stalled != won, f"{setup.label()}, seed {seed}, game {index}: a game ends " \
                                   "with a winner, or stalled without one"


def conservation(game, players=None, games: int = GAMES, setups=None) -> None:
    """What the game says is conserved (its rules module's `conserved(state)`, e.g. the
    chips) stays the same through every move of random play."""
    m = _module(game)
    if m is None or not hasattr(m, "conserved"):
        return
    start = {}
    rules = game.load_rules(None, [])
    for n, index, state in _positions(m, rules, _counts(game, players, setups), games):
        was = start.setdefault((n, index), m.conserved(state))
        assert m.conserved(state) == was, \
            f"{n}p game {index}: conserved {m.conserved(state)!r}, was {was!r}"


def hidden_information(game, players=None, games: int = GAMES, setups=None) -> None:
    """`redeal(state, seat, rng)` keeps everything the seat sees (its view is unchanged) and its
    legal moves, and leaves the real state alone; the bots, which see only the view, play the
    same move in the real and the re-dealt worlds. (That the re-deal reads nothing hidden is
    `redeal_independence`.)"""
    m = _module(game)
    if m is None:
        return
    rules = game.load_rules(None, [])
    for n, index, state in _positions(m, rules, _counts(game, players, setups), games):
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


def redeal_independence(game, players=None, games: int = GAMES, setups=None) -> None:
    """`redeal(state, seat, rng)` reads nothing the seat cannot know, keeps what it knows and
    deals something afresh, at every position of random play (see `redeal_is_independent`):
    a re-deal that gives back a copy of the real state, reads the deck's order or forgets a card
    the seat was shown fails."""
    m = _module(game)
    if m is None:
        return
    rules = game.load_rules(None, [])
    dealt_afresh, turns = 0, Counter()
    for n, index, state in _positions(m, rules, _counts(game, players, setups), games):
        turns[n, index] += 1
        if m.is_over(state):
            continue
        key = f"{n}p game {index} position {turns[n, index]}"
        dealt_afresh += redeal_is_independent(
            m.redeal, m.view, state, m.to_move(state),
            lambda k, key=key: random.Random(f"{key} stream {k}"), key)
    assert dealt_afresh, "redeal gave back the real state at every position: a search on it " \
                         "reads every hidden card (re-deal what the seat cannot know)"


def redeal_is_independent(redeal, sees, state, seat: int, stream, where: str = "") -> bool:
    """Asserts that a re-deal reads nothing `seat` cannot know at one position, and gives
    whether it dealt anything afresh there; the same check for a game of either level.

    A second true state the seat cannot tell from `state` is drawn by re-dealing it
    (`redeal(state, seat, stream(0))`): it must look the same to the seat (sees(state, seat):
    its view, so what it learned, such as a card it was shown, survives the re-deal). The two
    are then re-dealt with equal streams (two calls of stream(1)): the worlds must be the same,
    or the re-deal read something hidden (the deck's order, another seat's hand). `redeal`
    gives a new state and leaves its argument alone."""
    seen = sees(state, seat)
    other = redeal(state, seat, stream(0))
    assert difference(sees(other, seat), seen) is None, \
        f"{where}: redeal changed what seat {seat} sees (what it learned must survive the " \
        "re-deal)"
    found = difference(redeal(state, seat, stream(1)), redeal(other, seat, stream(1)))
    assert found is None, (
        f"{where}: two states seat {seat} cannot tell apart, re-dealt with the same stream, "
        f"gave different worlds (at {found}): redeal reads what the seat cannot know")
    return difference(other, state) is not None


CHECKS = (determinism, trace_is_play, bad_input, command_line, python_strategies,
          legal_moves_only, every_game_ends, conservation, hidden_information,
          redeal_independence)
# The checks that read a simple-level game's rules module (sim/simple.py), and pass at once for
# a game of the fast level, whose own tests check what it conserves and its sampler (the
# built-in games': tests/conformance/, where test_hidden_information.py runs
# `redeal_is_independent` on them). `legal_moves_only` plays a fast-level game's built-in bots
# through its Python driver instead (`built_ins_through_python`).
SIMPLE_LEVEL = (conservation, hidden_information, redeal_independence)


def check_all(game, players=None, setups=None) -> None:
    """Runs every check."""
    for check in CHECKS:
        check(game, players, setups=setups)


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
        if a.shape != b.shape:
            return where
        differ = np.argwhere(a != b)
        return f"{where}[{', '.join(map(str, differ[0]))}]" if len(differ) else None
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


def _raises_user_error(call, what: str, *says: str) -> None:
    """Asserts `call` raises a one-line UserError saying each of `says`."""
    try:
        call()
    except UserError as e:
        message = str(e)
        assert "\n" not in message and all(part in message for part in says), \
            f"{what}: the UserError must be one line saying {says!r}, not {message!r}"
        return
    raise AssertionError(f"{what} must raise UserError (one line on the command line)")
