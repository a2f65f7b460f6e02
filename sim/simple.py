"""The simple level of the game interface: a game written as plain Python functions, which
`SimpleGame` turns into a `sim.game.Game`, so that every study (runs, reports, compare,
sweeps, balance, tune, ladder, trace, bench, the Python API) plays it.

A designer's rules module gives (see docs/own-game.md; `simulate new-game` writes one):

    NAME, TITLE, MIN_PLAYERS, MAX_PLAYERS   e.g. "no-thanks", "No Thanks!", 3, 7
    RULES_FILE                   the rules TOML: defaults, an optional [limits] table, and a
                                 comment per key (what `simulate rules GAME` shows)
    deal(players, rules, rng)    a new game's state; rng is the game's deal stream (a
                                 random.Random seeded from the run seed and the game index)
    to_move(state)               the seat to decide
    legal_moves(state)           a non-empty list of moves (tuples, ints or strings)
    apply(state, move)           the state after the move (it may change `state` and give it)
    is_over(state)               whether the game has ended
    result(state)                a Result: the winning seats (ties share) and each seat's score
    view(state, seat)            what the seat may know (bots see only this)
    redeal(state, seat, rng)     a new state in which what `seat` cannot know is dealt afresh:
                                 the information-set sampler the search plays on
    BOTS                         bot classes, one per family, the first named "default": each
                                 has `name`, `meaning`, `parameters` (strategies.presets
                                 Parameter), is made as Bot(**parameters) once per seat and game,
                                 and plays `choose(view, legal_moves, rng) -> move`

and, optionally: `validate(rules)` (raise sim.errors.UserError for rules no game can be
played with), `PRESETS` ({name: (family, {parameter: value})}), `check(rules, players)`
(raise sim.errors.UserError for rules that cannot be played), `COLUMNS` ({"games": {column:
meaning}, "seats": {...}}) with `stats(state)` and `seat_stats(state, seat)` giving them,
`describe(state)` (a line for traces), `MAX_MOVES` (a game that long stalls), `progress(state)`
(a number per seat, higher closer to winning: the progress table and the report's "How the
game plays"; `PROGRESS` says what it is, `PROGRESS_UNIT` in what), and `TARGET` (a
sim.game.Target: what balanced means for the headline, e.g. Target(0.5, "team A", "team B")
for two teams; default: the first player's fair share, 1/players).

What the functions and bots give is checked as every game is played, as the built-in games
check theirs: a failure or a value the interface does not allow ends the run in one line
naming the function (SimpleGame._play_one).

Every game gets a `random` family and a `search` family (a determinized search: it re-deals
with `redeal`, plays each legal move out with the default bot, and picks the best).
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import NamedTuple, TextIO

import numpy as np
import polars as pl

from sim.errors import Interruption, UserError
from sim import progress as progress_record
from sim.game import Column, Headline, Progress, Setup, Target
from strategies import python_bots
from strategies.bot_files import described, shown, where
from strategies.presets import Family, Parameter, user_presets
from strategies.seats import parse

DEAL_STREAM = 1  # the game's deal stream (python_bots.PYTHON_BOT_STREAM + seat: the seats')
MAX_MOVES = 100_000


class Result(NamedTuple):
    """How a game ended: the winning seats (several: a shared win; none: nobody won) and each
    seat's score."""

    winners: tuple[int, ...]
    scores: tuple[float, ...]


class Final(NamedTuple):
    """How one game ended: the moves played, whether it stalled (MAX_MOVES), its result and its
    own columns (`stats`, and `seat_stats` per seat)."""

    turns: int
    stalled: bool
    result: Result
    stats: dict
    seat_stats: list[dict]


def deal_rng(seed: int, game: int) -> random.Random:
    """Gives the deal stream of one game: seeded from (run seed, game index) alone, so a change
    of bots never changes the deals."""
    return python_bots.stream_random(seed, game, DEAL_STREAM)


class RandomBot:
    name = "random"
    meaning = "uniform over the legal moves"
    parameters = ()

    def choose(self, view, legal_moves, rng):
        return legal_moves[rng.randrange(len(legal_moves))]


SEARCH_PARAMETERS = (
    Parameter("determinizations", 8, 1, 256, "worlds re-dealt (redeal) per decision"),
    Parameter("rollouts", 1, 1, 64, "games played out per world and legal move, by the "
                                    "default bot at every seat"),
)


class SimpleBots:
    """A simple-level game's plug-in for user-chosen play (sim.game.Bots)."""

    forbids = False  # a move cannot be forbidden: no command offers --forbid
    kind = "Python bots of the game's rules module, with random and search"

    def __init__(self, module: ModuleType):
        own = tuple(module.BOTS)
        if not own or own[0].name != "default":
            raise TypeError(f"{module.__name__}.BOTS must start with a bot named 'default'")
        self.classes = {cls.name: cls for cls in (RandomBot, *own)}
        self.families = (*(Family(c.name, c.meaning, tuple(c.parameters))
                           for c in self.classes.values()),
                         Family("search", "determinized search: re-deals what the seat cannot "
                                          "know, plays each legal move out with the default bot "
                                          "at every seat, and plays the one that wins most",
                                SEARCH_PARAMETERS))
        self.presets = {"random": ("random", {}),
                        **{name: (name, {}) for name in self.classes if name != "random"},
                        "search": ("search", {}),
                        **getattr(module, "PRESETS", {})}

    def forbiddable(self, rules: dict) -> dict[str, str]:
        return {}

    def resolve(self, name: str, rules: dict) -> tuple[str, dict[str, float]]:
        """Gives (family, parameters) of a strategy name: a preset of the game's or of
        --strategies-file."""
        spec = user_presets(rules).get(name)
        if spec is None:
            family, changed = self.presets[name]
        else:
            family, changed = spec["family"], {k: v for k, v in spec.items() if k != "family"}
        found = next(f for f in self.families if f.name == family)
        params = {p.name: p.default for p in found.parameters}
        params.update(changed)
        return family, params


class SimpleGame:
    """A `sim.game.Game` playing a simple-level rules module (see the module's docstring)."""

    tables = ("games", "seats")

    def __init__(self, module: ModuleType):
        self.rules_module = m = module
        self.name, self.title = m.NAME, m.TITLE
        self.min_players, self.max_players = m.MIN_PLAYERS, m.MAX_PLAYERS
        self.rules_file = Path(m.RULES_FILE)
        self.bots = SimpleBots(m)
        self.max_moves = getattr(m, "MAX_MOVES", MAX_MOVES)
        self.target = getattr(m, "TARGET", None) or Target()
        if hasattr(m, "progress"):
            self.progress = Progress(getattr(m, "PROGRESS", f"{m.__name__}.progress(state)"),
                                     getattr(m, "PROGRESS_UNIT", "points"))
            self.tables = (*self.tables, "progress")
        own = getattr(m, "COLUMNS", {})
        self.columns = {
            "games": (Column("winner", "the winning seat (null: a shared win or none)"),
                      Column("winners", "how many seats won (several: a shared win)"),
                      Column("first_won", "whether seat 0 is among the winners"),
                      *(Column(k, v) for k, v in own.get("games", {}).items())),
            "seats": (Column("score", "the seat's score at the end"),
                      *(Column(k, v) for k, v in own.get("seats", {}).items())),
        }
        # A symmetric game's balance question is the first player's edge: seat 0's share of
        # the wins (a shared win split among its winners), read against the fair share
        # 1/players, which the shares of all seats add up to.
        share = pl.col("first_won").cast(pl.Float64) / pl.col("winners").cast(pl.Float64)
        self.headline = Headline("first player's win share",
                                 pl.when(pl.col("winners") > 0).then(share).otherwise(0.0),
                                 pl.lit(1))
        # the fair share is the headline's target, which the summary and reports show
        self.summary = (("avg turns", pl.col("turns").mean()),
                        ("shared wins", (pl.col("winners") > 1).cast(pl.Float64).mean()))
        self.summary_rates = ("shared wins",)
        from sim import rules as rule_files
        rule_files.register_file(self.name, self.rules_file)

    # --- rules -------------------------------------------------------------------------

    def strategy_names(self) -> list[str]:
        return list(self.bots.presets)

    def load_rules(self, config_file, overrides) -> dict:
        from sim.rules import load_rules
        rules = load_rules(self.name, config_file, overrides)
        validate = getattr(self.rules_module, "validate", None)
        if validate is not None:
            validate(rules)
        return rules

    def check(self, rules: dict, setup: Setup) -> None:
        check = getattr(self.rules_module, "check", None)
        if check is not None:
            check(rules, setup.players)

    def compile(self, rules: dict, setups=()) -> None:
        """Nothing to compile: the rules are plain Python."""

    # --- playing -------------------------------------------------------------------------

    def _seat_bots(self, rules: dict, setup: Setup):
        """Gives per seat a maker of its bot for one game: (kind, make) with kind "bot" (make()
        gives an object with choose(view, moves, rng)), "search" (make() gives a Search) or
        "python" (make(seed, game) gives a strategies.python_bots.PythonSeat)."""
        classes = python_bots.python_classes(setup.seats)
        made = []
        for seat, text in enumerate(setup.seats):
            base = parse(text).base
            if seat in classes:
                label, cls = classes[seat]
                made.append(("python", lambda seed, game, s=seat, l=label, c=cls:
                             python_bots.PythonSeat(l, c, seed, game, s)))
                continue
            family, params = self.bots.resolve(base, rules)
            if family == "search":
                made.append(("search", lambda p=params: Search(self, rules, p)))
            else:
                cls = self.bots.classes[family]
                made.append(("bot", lambda c=cls, p=params: c(**p)))
        return made

    def _play_one(self, rules, setup, seed, game, makers, watch=None, sampler=None,
                  row: int = 0) -> Final:
        """Plays game `game`; gives how it ended (Final). Raises UserError naming the rules
        module's function or bot that broke: a failure, a seat that is none, no legal moves, a
        move not among them, no state, a result naming no seat."""
        m = self.rules_module
        state, moves, turns = _UNDEALT, None, 0
        try:
            state = m.deal(setup.players, rules, deal_rng(seed, game))
            seats = {}
            for seat, (kind, make) in enumerate(makers):
                if kind == "python":
                    seats[seat] = (kind, make(seed, game), None)
                else:
                    seats[seat] = (kind, make(), python_bots.bot_rng(seed, game, seat))
            to_move, legal_moves, apply, is_over, view = (m.to_move, m.legal_moves, m.apply,
                                                          m.is_over, m.view)
            stalled, max_moves = False, self.max_moves
            while not is_over(state):
                if turns == max_moves:
                    stalled = True
                    break
                seat = to_move(state)
                moves = legal_moves(state)
                try:  # a dict: a seat number of no seat (99, -1) is a KeyError, not another seat
                    kind, bot, rng = seats[seat]
                except (KeyError, TypeError):
                    raise _Broken(f"{m.__name__}.to_move() gave {shown(seat)}, not a seat (0 "
                                  f"to {setup.players - 1})") from None
                if kind == "bot":
                    move = bot.choose(view(state, seat), moves, rng)
                    if move not in moves:
                        raise _illegal(bot, seat, move, moves)
                elif kind == "search":
                    move = bot.choose(state, seat, moves, rng)
                else:
                    move = moves[bot.pick(view(state, seat), moves)]
                if watch is not None:
                    watch(state, seat, move)
                if sampler is not None:
                    sampler.step(state, seat)
                state = apply(state, move)
                turns += 1
            if sampler is not None:
                sampler.finish(state, row)
            return self._final(state, turns, stalled, setup.players)
        except Interruption:
            raise
        except BaseException as e:  # noqa: BLE001 - the designer's code, said in one line
            cause = _cause(e, m, state, turns, moves)
            if cause is None:  # a Python bot's failure, naming the bot, its seat and the game
                raise
            raise UserError(f"game {self.name}: {cause} in game {game}") from None

    def _final(self, state, turns: int, stalled: bool, players: int) -> Final:
        """Gives how the game in `state` ended, its result checked: each winner a seat, a score
        per seat (a stalled game: nobody won, every score 0)."""
        m = self.rules_module
        stats, seat_stats = getattr(m, "stats", None), getattr(m, "seat_stats", None)
        return Final(turns, stalled,
                     Result((), (0.0,) * players) if stalled else self._result(state, players),
                     stats(state) if stats else {},
                     [seat_stats(state, seat) if seat_stats else {} for seat in range(players)])

    def _result(self, state, players: int) -> Result:
        """Gives the result of the finished game `state`, checked: each winner a seat, a score
        per seat."""
        winners, scores = self.rules_module.result(state)
        name = f"{self.rules_module.__name__}.result()"
        for seat in winners:
            if seat not in range(players):
                raise _Broken(f"{name} named {shown(seat)} among the winners, not a seat (0 to "
                              f"{players - 1})")
        if len(scores) != players or not all(map(_is_number, scores)):
            raise _Broken(f"{name} gave the scores {shown(scores)}, not a number per seat "
                          f"({players})")
        return Result(tuple(winners), tuple(scores))

    def play(self, rules, setup, seed, start, stop, id_offset):
        makers = self._seat_bots(rules, setup)
        sampler = self._sampler(stop - start, setup.players)
        finals = [self._play_one(rules, setup, seed, game, makers, sampler=sampler,
                                 row=game - start) for game in range(start, stop)]
        return self._tables(finals, np.arange(start, stop, dtype=np.int64) + id_offset, setup,
                            sampler)

    def _sampler(self, games: int, players: int):
        """Gives the recorder of the rules' progress(state) for `games` games (None without)."""
        if "progress" not in self.tables:
            return None
        return progress_record.Sampler(progress_record.new(games, players),
                                       self.rules_module.progress)

    def trace(self, rules, setup, seed, index, out: TextIO):
        m = self.rules_module
        labels = setup.strategies()
        describe = getattr(m, "describe", None)
        print(f"{self.title}, {setup.players} players, seed {seed}, game {index}; seats: "
              + ", ".join(f"{i}:{name}" for i, name in enumerate(labels)), file=out)

        def watch(state, seat, move):
            where = f"  [{describe(state)}]" if describe else ""
            print(f"seat {seat} ({labels[seat]}): {move!r}{where}", file=out)

        sampler = self._sampler(1, setup.players)
        final = self._play_one(rules, setup, seed, index, self._seat_bots(rules, setup), watch,
                               sampler)
        if final.stalled:
            print(f"stalled after {final.turns} moves", file=out)
        else:
            result = final.result
            print(f"over after {final.turns} moves: winners {list(result.winners)}, scores "
                  f"{list(result.scores)}", file=out)
        return self._tables([final], np.array([index], np.int64), setup, sampler)

    def _tables(self, finals: Sequence, ids: np.ndarray, setup: Setup, sampler=None
                ) -> dict[str, pl.DataFrame]:
        """Gives the games and seats tables of finished games (Final), and their progress
        table where `sampler` recorded it."""
        players, n = setup.players, len(finals)
        # Built a column at a time: rows of dicts cost polars more than playing the games.
        won = np.zeros((n, players), bool)
        single = [None] * n
        for row, final in enumerate(finals):
            winners = final.result.winners
            won[row, list(winners)] = True
            if winners and winners.count(winners[0]) == len(winners):
                single[row] = winners[0]
        count = won.sum(axis=1)
        games = pl.DataFrame({
            "game_id": ids.astype(np.int64), "players": np.full(n, players, np.int8),
            "stalled": [final.stalled for final in finals],
            "turns": np.array([final.turns for final in finals], np.int32),
            "winner": pl.Series(single, dtype=pl.Int8), "winners": count.astype(np.int8),
            "first_won": won[:, 0],
            **_own_columns([final.stats for final in finals])})
        seats = pl.DataFrame({
            "game_id": np.repeat(ids.astype(np.int64), players),
            "players": np.full(n * players, players, np.int8),
            "seat": np.tile(np.arange(players, dtype=np.int8), n),
            "strategy": list(setup.strategies()) * n, "won": won.ravel(),
            "score": np.array([final.result.scores for final in finals],
                              np.float64).reshape(n * players),
            **_own_columns([stats for final in finals for stats in final.seat_stats])})
        tables = {"games": games, "seats": seats}
        if sampler is not None:
            tables["progress"] = progress_record.seat_table(sampler.rec, ids, players)
        return tables


class Search:
    """The generic determinized search of a simple-level game: at each decision, `determinizations`
    times, re-deal what the seat cannot know (`redeal`), and play every legal move out
    `rollouts` times with the default bot at every seat; play the move with the most wins (a
    shared win counts its share), then the best score margin, drawing among exact ties."""

    def __init__(self, game: SimpleGame, rules: dict, params: dict[str, float]):
        self.game, self.rules = game, rules
        self.worlds = int(params["determinizations"])
        self.rollouts = int(params["rollouts"])
        self.policy = game.bots.classes["default"]
        self.policy_params = game.bots.resolve("default", rules)[1]
        self.pickles = True  # whether the states copy through pickle (_copy)

    def choose(self, state, seat: int, moves: list, rng: random.Random):
        if len(moves) == 1:
            return moves[0]
        m = self.game.rules_module
        values = [[0.0, 0.0] for _ in moves]  # per move: wins, then score margins
        plays = len(moves) * self.rollouts
        for _ in range(self.worlds):
            world = m.redeal(state, seat, rng)
            for play in range(plays):
                # apply may change the state it is given: each play but the world's last is
                # given a copy
                start = world if play == plays - 1 else self._copy(world)
                won, margin = self._rollout(m.apply(start, moves[play // self.rollouts]), seat,
                                            rng)
                value = values[play // self.rollouts]
                value[0] += won
                value[1] += margin
        best = max(values)
        tied = [i for i, value in enumerate(values) if value == best]
        return moves[tied[rng.randrange(len(tied))] if len(tied) > 1 else tied[0]]

    def _copy(self, state):
        """Gives a copy of `state` as copy.deepcopy makes it: through pickle where the state
        pickles, three times as fast (a rollout of a short game costs less than a deepcopy)."""
        if self.pickles:
            try:
                return pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
            except Exception:  # noqa: BLE001 - a lambda, a lock...: deepcopy copies it
                self.pickles = False
        return copy.deepcopy(state)

    def _rollout(self, state, seat: int, rng: random.Random) -> tuple[float, float]:
        """Plays `state` out with the default bot at every seat; gives `seat`'s share of the
        win and its score's margin over the mean, signed so that more is better (where the
        winners scored the most; less, where they scored the least)."""
        m = self.game.rules_module
        is_over, to_move, legal_moves, view, apply = (m.is_over, m.to_move, m.legal_moves,
                                                      m.view, m.apply)
        bots = {}
        for _ in range(self.game.max_moves):
            if is_over(state):
                return _outcome(m.result(state), seat)
            mover = to_move(state)
            try:
                bot = bots[mover]
            except KeyError:  # the seat's first move in this rollout
                bot = bots[mover] = self.policy(**self.policy_params)
            moves = legal_moves(state)
            move = bot.choose(view(state, mover), moves, rng)
            if move not in moves:
                raise _illegal(bot, mover, move, moves, " in a rollout of the search")
            state = apply(state, move)
        return 0.0, 0.0


def _outcome(result: Result, seat: int) -> tuple[float, float]:
    """Gives a seat's share of the win and its margin over the mean score (see _rollout)."""
    winners, scores = result.winners, result.scores
    won = 1 / len(winners) if seat in winners else 0.0
    if not winners or min(scores) == max(scores):
        return won, 0.0
    sign = 1.0 if scores[winners[0]] == max(scores) else -1.0
    return won, sign * (scores[seat] - sum(scores) / len(scores))


_UNDEALT = object()  # the state of a game whose deal has not returned


class _Broken(Exception):
    """A rules module's function or bot gave what the interface does not allow (its message
    says which and what)."""


def _illegal(bot, seat: int, move, moves, where: str = "") -> _Broken:
    """Gives the error of `bot` (a simple-level game's own) playing `move` for `seat`, not one
    of the legal `moves` (`where`: in which play, if not the game's own)."""
    return _Broken(f"{type(bot).__module__}.{type(bot).__qualname__}.choose() (seat {seat}) "
                   f"played {shown(move)}, not one of its legal moves {shown(moves)}{where}")


def _cause(error: BaseException, module: ModuleType, state, turns: int, moves) -> str | None:
    """Gives what broke in a game of the rules `module`, in words (None: a Python bot's
    UserError, which says so itself): `error` was raised in `state` after `turns` moves, the
    legal moves last listed being `moves` (None: none yet)."""
    name = module.__name__
    if moves is not None and not hasattr(moves, "__len__"):
        return f"{name}.legal_moves() gave {shown(moves)}, not a list of moves"
    if moves is not None and not len(moves):
        return f"{name}.legal_moves() gave no moves before the game was over"
    if isinstance(error, _Broken):
        return str(error)
    if state is None:  # whatever the next function made of it, deal or apply gave none
        return f"{name}.{'apply' if turns else 'deal'}() gave no state (None)"
    if isinstance(error, UserError):
        return None
    frame = _failing(error)
    if frame is None:  # raised by this module's own code (a RandomBot given no moves)
        return f"{name} failed: {described(error)}"
    file = Path(frame.f_code.co_filename)
    return (f"{frame.f_globals.get('__name__')}.{frame.f_code.co_qualname}() failed: "
            f"{described(error)}{where(error, file)}")


def _failing(error: BaseException):
    """Gives the frame of the designer's function `error` came out of: the first one called
    from this module's code that is not this module's (None: it came from this module's)."""
    trace = error.__traceback__
    while trace is not None:
        if trace.tb_frame.f_globals.get("__name__") != __name__:
            return trace.tb_frame
        trace = trace.tb_next
    return None


def _own_columns(rows: list[dict]) -> dict[str, pl.Series]:
    """Gives the columns of a rules module's own stats, one dict a row (a key a row lacks:
    null), typed as polars reads the values (ints and floats together: floats)."""
    names = dict.fromkeys(name for row in rows for name in row)
    return {name: pl.Series(name, [row.get(name) for row in rows], strict=False)
            for name in names}


def _is_number(value) -> bool:
    """Tells whether `value` reads as a number (a score)."""
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True
