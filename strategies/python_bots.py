"""Python strategies at the table: seating a bot class (strategies/bot_files.py loads it),
seeding it, and checking what it plays. Shared by every game's Python driver (see strategies/protocol.py)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from sys import getrefcount

import numpy as np

from sim import rng as streams
from sim.errors import Interruption, UserError
from sim.jit import direct
from strategies import bot_timeout
from strategies.bot_files import described, load_class, shown, where
from strategies.presets import SEARCH, user_presets
from strategies.seats import is_python, parse

PYTHON_BOT_STREAM = 300  # + seat: apart from the deal's and the jitted bots' streams


def stream_random(seed: int, game: int, stream: int) -> random.Random:
    """Gives a random.Random for Python code of one game, seeded from (run seed, game index,
    stream) alone, by the same stateless streams the engines use (seeded at its first draw)."""
    return _SeededAtFirstDraw((seed, game, stream))


def bot_rng(seed: int, game: int, seat: int) -> random.Random:
    """Gives the random.Random of a Python bot's seat in one game."""
    return stream_random(seed, game, PYTHON_BOT_STREAM + seat)


class _SeededAtFirstDraw(random.Random):
    """A random.Random of the stream (run seed, game index, stream), seeded when first drawn
    from (or asked its state), then a plain random.Random: a simple-level game makes one per
    seat and game, and most bots never draw (seeding one costs as much as twenty No Thanks!
    turns)."""

    def __init__(self, stream: tuple[int, int, int]):  # not Random.__init__, which seeds now
        self._stream = stream
        self.gauss_next = None  # as seeding leaves it (gauss reads it before it draws)

    # Every draw comes through these two (random.Random builds the others on them; gauss
    # keeps the bound `random` for a second draw).
    def random(self) -> float:
        _plain(self, seeded=True)
        return random.Random.random(self)

    def getrandbits(self, k: int) -> int:
        _plain(self, seeded=True)
        return random.Random.getrandbits(self, k)

    def getstate(self):
        _plain(self, seeded=True)
        return random.Random.getstate(self)

    def __reduce__(self):  # a copy, or a pickle, is a plain random.Random
        _plain(self, seeded=True)
        return random.Random.__reduce__(self)

    def seed(self, *args, **kwargs) -> None:  # seeded afresh by its owner: its own seed is moot
        _plain(self, seeded=False)
        random.Random.seed(self, *args, **kwargs)

    def setstate(self, state) -> None:
        _plain(self, seeded=False)
        random.Random.setstate(self, state)


def _plain(rng: random.Random, seeded: bool) -> None:
    """Makes a _SeededAtFirstDraw a plain random.Random (the same layout: Random's own methods
    from then on), seeded from its stream if `seeded`."""
    if type(rng) is _SeededAtFirstDraw:
        rng.__class__ = random.Random
        stream = rng.__dict__.pop("_stream")
        if seeded:
            random.Random.seed(rng, streams.first_u64(*stream))


class LegalMoves(Sequence):
    """A seat's legal moves in words, in the engine's order: a read-only list whose moves are
    put into words as a bot reads them.

    Most bots look at a few of the dozens of moves a Saboteur turn offers; wording them all
    cost a Python driver most of its time. `rows` are the engine's moves (a 2-D int array),
    and `word(row)` gives one (a list of ints) in words; both may read the live position, so
    that a list the bot keeps is worded whole (`keep`) before the position moves on. A list
    the bot did not keep serves the seat's next decision (`again`)."""

    __slots__ = ("rows", "_word", "_made")

    def __init__(self, rows: np.ndarray | None, word: Callable[[list], tuple],
                 n: int | None = None):
        """n: the moves are rows[:n] (None: all of `rows`), the engine's own array unsliced.
        rows None: no moves yet, only the wording (`again` gives the first)."""
        self.rows, self._word = rows, word
        self._made = [None] * (0 if rows is None else len(rows) if n is None else n)

    def again(self, rows: np.ndarray, n: int | None = None, word=None) -> LegalMoves:
        """Gives the legal moves `rows` (n: as for a new list), worded by `word` (None: as
        these are): this list emptied when its bot did not keep it, else a new one."""
        word = word or self._word
        if self.rows is None:  # kept, and worded whole: the bot's
            return LegalMoves(rows, word, n)
        self.rows, self._word = rows, word
        self._made = [None] * (len(rows) if n is None else n)
        return self

    def __len__(self) -> int:
        return len(self._made)

    def __getitem__(self, i):
        move = self._made[i]
        if move is None:  # first: the common case, a move not yet worded
            move = self._made[i] = self._word(self.rows[i if i >= 0 else i + len(self._made)]
                                              .tolist())
        elif isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self._made)))]
        return move

    def index(self, move, start: int = 0, stop: int | None = None) -> int:
        """Gives the position of `move` (one of these moves, or a tuple equal to one)."""
        if move is not None:  # None stands for a move not yet worded: never one of them
            for i, made in enumerate(self._made):  # the bot's own pick, not wording the rest
                if made is move:
                    return i
        return super().index(move, start, len(self._made) if stop is None else stop)

    def keep(self) -> None:
        """Words every move now: the list no longer reads the position (nor `rows`)."""
        for i in range(len(self._made)):
            self[i]
        self.rows = None

    def __eq__(self, other) -> bool:
        if not isinstance(other, (list, LegalMoves)):
            return NotImplemented
        return list(self) == list(other)

    def __repr__(self) -> str:
        return repr(list(self))


class Suggests:
    """Gives a game's View its `suggest`: what a built-in strategy would play in the view's
    position, so that a Python bot can change one habit and leave the rest to a built-in."""

    __slots__ = ("_advise", "_legal")

    def suggest(self, strategy: str = "default"):
        """Gives the move, one of `legal_moves`, that the built-in strategy `strategy` (a
        family or preset of the game, e.g. "default", or one of --strategies-file) would
        play here. It sees what this seat sees, and nothing more.

        None when the strategy has no move here: in Spit and Speed a restricted built-in
        ("default-no-uncover") waits when its restrictions leave it nothing to play.

        Raises ValueError for a strategy the game does not have, and RuntimeError once the
        bot's `choose` has returned (the position has moved on)."""
        if getattr(self, "_legal", None) is None:
            raise RuntimeError("suggest() works only while choose() runs, for its own view")
        i = self._advise(strategy)
        return None if i is None else self._legal[i]


_set = object.__setattr__  # a View is read-only: it sets its own fields past __setattr__
_forget = object.__delattr__


class View(Suggests):
    """What one seat may know at one moment, read-only: a game's View (its fields, `FIELDS`).

    Each field is read from the position when first asked for (most bots read a few; a Deep
    Space view holds hundreds of numbers): READERS[field](*position) gives it. A view the bot
    keeps is read whole (`keep`) before the position moves on; one it did not keep serves the
    seat's next decision (`again`)."""

    __slots__ = ("_position", "_read")
    FIELDS: tuple[str, ...] = ()
    READERS: dict[str, Callable] = {}

    def __init__(self, position: tuple | None, advise: Callable[[str], int] | None = None):
        """position: what READERS read (None: none yet, `again` gives the first);
        advise(strategy) gives the index among the legal moves of a built-in strategy's move
        (`suggest`; None: no advice)."""
        _set(self, "_position", position)
        _set(self, "_read", [])  # the fields read so far
        _set(self, "_advise", advise)  # `_legal` is set while a move is chosen (PythonSeat)

    def again(self, position: tuple) -> View:
        """Gives a view of `position` with the same advice: this view, its fields forgotten,
        when its bot did not keep it, else a new one."""
        if self._position is None:  # kept, and read whole: the bot's
            return type(self)(position, self._advise)
        if self._read:
            for name in self._read:
                _forget(self, name)
            self._read.clear()
        _set(self, "_position", position)
        return self

    def __getattr__(self, name: str):
        read = self.READERS.get(name)
        if read is None or self._position is None:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        value = read(*self._position)
        _set(self, name, value)
        self._read.append(name)
        return value

    def __setattr__(self, name, value):
        raise AttributeError("a View is read-only")

    def keep(self) -> View:
        """Reads every field now: the view no longer reads the position. Gives the view."""
        for name in self.READERS:
            getattr(self, name)
        _set(self, "_position", None)
        return self

    def __eq__(self, other) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self.FIELDS)

    __hash__ = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(
            f"{f}={getattr(self, f)!r}" for f in self.FIELDS) + ")"


def built_in_chooser(bots) -> Callable:
    """Gives choose(s, rs, seat, family, params, out), the game's built-in bots
    (sim/games/<game>/bots.py) called from Python, giving what they give (the real-time games:
    whether the bot plans a move), bound to the arguments' types on first use
    (sim/jit.py `direct`): `builtin_choose` for the random and default families, and `choose`
    only once a Python bot asks what a search preset would play, so that nothing else compiles
    the search. A first call may compile: that time is not the asking bot's (--bot-timeout)."""
    bound = {}

    def choose(s, rs, seat, family, params, out) -> None:
        searching = family == SEARCH
        if searching not in bound:
            with bot_timeout.paused():
                bound[searching] = direct(bots.choose if searching else bots.builtin_choose,
                                          s, rs, seat, family, params, out)
        return bound[searching](s, rs, seat, family, params, out)

    return choose


def suggested_index(strategy: str, known: list[str], forbiddable: list[str], rows: np.ndarray,
                    seat: int, masks: Callable[[tuple[str, ...]], list],
                    resolve: Callable[[str], tuple],
                    choose: Callable[[int, np.ndarray], np.ndarray | None]) -> int | None:
    """Gives the index in `rows` (the legal moves of `seat`, the engine's rows) of the move the
    built-in strategy `strategy` picks (None: it has none): what a game's View.suggest answers.

    A strategy is a name of `known`, maybe restricted as seat strategies are
    ("default-no-break": what default plays when it may not break tools), its restrictions
    added to the seat's own while it chooses. ValueError for anything else.
    masks(forbidden) gives the game's [(restriction array, mask)]: the bits `forbidden` sets in
    each array's row `seat`; resolve(name) gives the strategy's (family, parameters);
    choose(family, parameters) lets the jitted bot choose, and gives the move row it wrote
    (None: it found no move)."""
    base, forbidden = parse(strategy)
    if base not in known:
        raise ValueError(f"no built-in strategy {base!r}; the game's are {', '.join(known)}")
    unknown = [name for name in forbidden if name.rpartition(":")[2] not in forbiddable]
    if unknown:
        raise ValueError(f"cannot forbid {unknown[0]!r}; the game forbids {', '.join(forbiddable)}")
    family, params = resolve(base)
    widened = masks(forbidden)
    own = [array[seat].copy() for array, _ in widened]
    for array, mask in widened:
        array[seat] |= mask
    try:
        move = choose(family, params)
    finally:
        for (array, _), was in zip(widened, own):
            array[seat] = was
    return None if move is None else rows.tolist().index(move.tolist())


class PythonSeat:
    """A Python strategy playing one seat of one game: a fresh instance and its own rng."""

    def __init__(self, label: str, cls: type, seed: int, game: int, seat: int,
                 timeout: float | None = None):
        """timeout: the per-move limit (None: the one in force, bot_timeout.seconds())."""
        self.label, self.game, self.seat = label, game, seat
        self.timeout = bot_timeout.seconds() if timeout is None else timeout
        self.clock = bot_timeout.one_move(self.timeout)  # one for every move: made once
        self.bot = self._ask(cls)
        self.rng = bot_rng(seed, game, seat)

    def pick(self, view, moves) -> int:
        """Gives the index in `moves` of the move the bot chooses. A View (python_bots.View)
        suggests among `moves` while the bot chooses; a view or LegalMoves the bot keeps is
        read whole before this returns (the position moves on after).

        Raises UserError naming the bot, the seat and the game when the bot fails, overruns
        the per-move limit or gives a move that is not among `moves`.
        """
        suggests = isinstance(view, Suggests)
        if suggests:
            _set(view, "_legal", moves)
        # What refers to the view or the moves after the bot's move and did not before, the
        # bot kept (itself, or inside anything it kept): they are read whole before the
        # position moves on. Compared in this frame, before and after, the counts do not
        # depend on how the interpreter counts its own references (3.14 skips some).
        held = getrefcount(view), getrefcount(moves)
        clock = self.clock
        try:
            try:  # `_ask`, inlined and timed without a `with`: the one call made at every move
                clock.move = held
                chosen = self.bot.choose(view, moves, self.rng)
                clock.ended()  # raises what stopped the move, if the bot caught it
            except BaseException as e:  # noqa: BLE001 - the user's code, said in one line
                self._failed(e)
            try:
                i = moves.index(chosen)
            except Exception:  # noqa: BLE001 - not one of them, or not even comparable
                self._illegal(chosen, len(moves))
            if getrefcount(view) > held[0] and isinstance(view, View):
                view.keep()
            if getrefcount(moves) > held[1] and isinstance(moves, LegalMoves):
                moves.keep()
        finally:
            if suggests:
                _set(view, "_legal", None)  # its advice ends with the move
        return i

    def _ask(self, call, *args):
        """Gives what the bot's `call` returns within the per-move limit; UserError naming the
        bot, the seat and the game for any failure of the bot's (any exception, sys.exit, a
        KeyboardInterrupt of its own) or an overrun."""
        try:
            with self.clock:
                return call(*args)
        except BaseException as e:  # noqa: BLE001 - the user's code, said in one line
            self._failed(e)

    def _illegal(self, chosen, legal: int):
        """Raises UserError naming the bot, the seat, the game and what it returned (`chosen`,
        not one of its `legal` moves)."""
        bot_timeout.rest()  # the game ends here: no alarm may ring after the run
        raise UserError(f"strategy {self.label} (seat {self.seat}) played an illegal move in "
                        f"game {self.game}: {shown(chosen)} is not one of its {legal} legal "
                        "moves") from None

    def _failed(self, e: BaseException):
        """Raises UserError naming the bot, the seat and the game for a failure `e` of the
        bot's move or constructor; re-raises an Interruption (the user's Ctrl-C)."""
        bot_timeout.rest()  # the game ends here
        if isinstance(e, Interruption):  # the user's Ctrl-C, not the bot's doing
            raise e
        if isinstance(e, bot_timeout.MoveTimeout):
            raise UserError(f"strategy {self.label} (seat {self.seat}) took more than "
                            f"{self.timeout:g} s for a move in game {self.game}; give it longer "
                            "with --bot-timeout SECONDS (0: no limit)") from None
        raise UserError(f"strategy {self.label} (seat {self.seat}) failed in game "
                        f"{self.game}: {described(e)}"
                        f"{where(e, Path(self.label.rpartition(':')[0]))}") from None


class SeatPlayer:
    """Plays one seat of a game for a Python strategy in the game's Python driver: asks the
    strategy about each position of that seat (`ask`), and answers its View.suggest with the
    game's built-in bots. Made once per state, for the games played on it; `seat` is each
    game's PythonSeat (`seated`).

    A game's player subclasses it: it lists the seat's legal moves when the driver stops for
    it, and gives `masks`, what --forbid names set in the state's restrictions."""

    def __init__(self, s, rs, strategies, forbiddable, rules: dict, view: type[View],
                 word: Callable[[list], tuple] | None = None):
        """strategies: the game's built-in bots (sim/games/<game>/bots.py); forbiddable: the names
        --forbid takes; view: the game's View; word: the game's wording of a move row (None:
        each `ask` gives its own)."""
        self.s, self.rs, self.strategies = s, rs, strategies
        self.presets = user_presets(rules)
        self.known = [*strategies.strategy_names(), *self.presets]
        self.forbiddable = list(forbiddable)
        self.built_in = built_in_chooser(strategies)
        self.seat: PythonSeat | None = None
        self.asking = 0  # the seat whose move is being chosen
        # What the bot is asked about, made anew only when it kept the last (PythonSeat.pick).
        self.view = view(None, self.suggested)
        self.moves = LegalMoves(None, word)

    def ask(self, seat: int, position: tuple, rows: np.ndarray, n: int | None = None,
            word: Callable[[list], tuple] | None = None) -> int:
        """Gives the index in `rows` (n: rows[:n]) of the move the strategy chooses for `seat`
        in `position` (what the game's View reads); word: the moves' wording (None: as
        before)."""
        self.asking = seat
        self.view = view = self.view.again(position)
        self.moves = moves = self.moves.again(rows, n, word)
        return self.seat.pick(view, moves)

    def choose(self, s, rs, seat: int, family: int, params, out: np.ndarray):
        """Lets the built-in bot `family` choose for `seat`, writing its move into `out`; gives
        what it gives (the real-time games: False when it has no move)."""
        return self.built_in(s, rs, seat, family, params, out)

    def out(self, seat: int) -> np.ndarray:
        """Gives an array a built-in bot writes `seat`'s move into."""
        return np.zeros_like(self.s.move)

    def masks(self, forbidden: tuple[str, ...]) -> list:
        """Gives [(restriction array, mask)]: the bits `forbidden` (--forbid names) sets in each
        of the state's restriction arrays (row: a seat)."""
        raise NotImplementedError

    def suggested(self, strategy: str) -> int | None:
        """Gives the index among the legal moves of the move the built-in `strategy` picks
        (View.suggest)."""
        s, rs, seat, moves = self.s, self.rs, self.asking, self.moves
        out = self.out(seat)

        def choose(family: int, params) -> np.ndarray | None:
            return None if self.choose(s, rs, seat, family, params, out) is False else out

        return suggested_index(strategy, self.known, self.forbiddable,
                               moves.rows[:len(moves)], seat, self.masks,
                               lambda name: self.strategies.resolve(name, self.presets), choose)


def python_classes(seats: tuple[str, ...]) -> dict[int, tuple[str, type]]:
    """Gives {seat: (strategy string, class)} for the seats that Python strategies play."""
    found = {}
    for seat, text in enumerate(seats):
        base = parse(text).base
        if is_python(base):
            found[seat] = (text, load_class(base))
    return found


def seated(players: dict, classes: dict[int, tuple[str, type]], seed: int, game: int) -> dict:
    """Gives `players` ({seat: a game's player of that seat, made once for the games of a
    state}), each given its fresh Python seat for `game` (as its `seat`)."""
    timeout = bot_timeout.seconds()
    for seat, (label, cls) in classes.items():
        players[seat].seat = PythonSeat(label, cls, seed, game, seat, timeout)
    return players
