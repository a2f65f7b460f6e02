"""`simulate new-game NAME`: writes a working package of a simple-level game (sim/simple.py) for
a designer to change: pyproject with the entry point, rules module, rules TOML, a bot family and
tests (the conformance checks of sim/testing.py among them), all passing as written. With
`--fast`, the same game at the fast level (sim/new_fast_game.py: jitted rules and bots on
sim/turns.py's shell).

The game written is a small push-your-luck card game, there to be replaced: on their turn a
player draws the top card of a shuffled deck onto their score or stops for good; going over
the target busts them to 0; the highest score wins once everybody has stopped or the deck is
empty."""

from __future__ import annotations

import importlib.util
import keyword
import sys
from collections.abc import Collection
from importlib import metadata
from pathlib import Path

from sim import new_fast_game as fast
from sim.errors import UserError

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1.0"
description = "{title} for the tabletop-balance simulator"
requires-python = ">=3.11"
dependencies = ["tabletop-balance"]

# How tabletop-balance finds the game: `simulate {name}`, `simulate games`, every study.
[project.entry-points."tabletop_balance.games"]
{name} = "{package}:GAME"

[tool.setuptools]
packages = ["{package}"]

[tool.setuptools.package-data]
{package} = ["rules.toml"]

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "--import-mode=importlib -p no:cacheprovider"
'''

INIT = '''\
"""{title} for tabletop-balance: a simple-level game (sim/simple.py)."""

from sim.simple import SimpleGame

from {package} import rules

GAME = SimpleGame(rules)
'''

RULES_TOML = '''\
# {title}: every key is a rule --set and --config take (e.g. --set target=25 or a sweep
# --set target=19,21,23); the comment above a key is what `simulate rules {name}` shows.

# Going over this score busts a player to 0.
target = 21
# The deck: cards 1 to highest_card, `copies` of each.
highest_card = 10
copies = 4
'''

RULES = '''\
"""{title}: the rules as plain Python (see sim/simple.py for what each function promises).

A push-your-luck card game to replace with yours: on their turn a player draws the top card of
a shuffled deck onto their score, or stops for the rest of the game. Going over `target` busts
the player: their score is 0 and they stop. The game ends when every player has stopped or the
deck is empty; the highest score wins (ties share the win).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from sim import new_fast_game as fast
from sim.errors import UserError
from sim.simple import Result
from strategies.presets import Parameter

NAME = "{name}"
TITLE = "{title}"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
RULES_FILE = Path(__file__).with_name("rules.toml")

DRAW, STOP = "draw", "stop"


class State:
    __slots__ = ("seat", "deck", "scores", "stopped", "target")

    def __init__(self, seat, deck, scores, stopped, target):
        self.seat, self.deck, self.scores = seat, deck, scores
        self.stopped, self.target = stopped, target


class View(NamedTuple):
    """What a seat sees: every score and who has stopped, and how many cards are left (not
    which)."""

    seat: int
    scores: tuple[int, ...]
    stopped: tuple[bool, ...]
    cards_left: int
    target: int


def validate(rules: dict) -> None:
    if rules["target"] < 1 or rules["highest_card"] < 1 or rules["copies"] < 1:
        raise UserError("target, highest_card and copies must be at least 1")


def deal(players: int, rules: dict, rng) -> State:
    deck = [card for card in range(1, rules["highest_card"] + 1) for _ in range(rules["copies"])]
    rng.shuffle(deck)
    return State(0, deck, [0] * players, [False] * players, rules["target"])


def to_move(state: State) -> int:
    return state.seat


def legal_moves(state: State) -> tuple[str, ...]:
    return (DRAW, STOP)


def apply(state: State, move: str) -> State:
    seat = state.seat
    if move == DRAW:
        state.scores[seat] += state.deck.pop()
        if state.scores[seat] > state.target:
            state.scores[seat], state.stopped[seat] = 0, True
    else:
        state.stopped[seat] = True
    players = len(state.scores)
    for step in range(1, players + 1):  # the next player still in
        if not state.stopped[(seat + step) % players]:
            state.seat = (seat + step) % players
            break
    return state


def is_over(state: State) -> bool:
    return all(state.stopped) or not state.deck


def result(state: State) -> Result:
    best = max(state.scores)
    return Result(tuple(s for s, score in enumerate(state.scores) if score == best),
                  tuple(state.scores))


PROGRESS = "the score so far (the highest wins)"


def progress(state: State) -> tuple[int, ...]:
    """Gives each seat's progress toward the win, higher closer: its score so far."""
    return tuple(state.scores)


def view(state: State, seat: int) -> View:
    return View(seat, tuple(state.scores), tuple(state.stopped), len(state.deck), state.target)


def redeal(state: State, seat: int, rng) -> State:
    """Gives a copy of the state with the deck shuffled afresh: its order is what nobody
    knows."""
    # Sorted first: shuffled as it lies, the deck would give its order away (the conformance
    # check redeal_independence fails such a re-deal).
    deck = sorted(state.deck)
    rng.shuffle(deck)
    return State(state.seat, deck, list(state.scores), list(state.stopped), state.target)


def describe(state: State) -> str:
    return f"scores {{state.scores}}, {{len(state.deck)}} cards left"


class Default:
    name = "default"
    meaning = "draws while its score is at most `stop_at` below the target"
    parameters = (Parameter("stop_at", 6.0, 0.0, 20.0, "how far below the target it stops"),)

    def __init__(self, stop_at=6.0):
        self.stop_at = stop_at

    def choose(self, view: View, legal_moves, rng) -> str:
        return DRAW if view.scores[view.seat] < view.target - self.stop_at else STOP


BOTS = (Default,)
'''

TEST_CONFORMANCE = '''\
"""{title} keeps every promise of a tabletop-balance game (sim/testing.py)."""

import pytest

from {package} import GAME
from sim import testing


@pytest.mark.parametrize("check", testing.CHECKS, ids=lambda check: check.__name__)
def test_conformance(check):
    check(GAME)
'''

TEST_RULES = '''\
"""{title}'s rules on exact positions: write one test per rule."""

from {package} import rules


def test_drawing_over_the_target_busts_to_zero_and_stops():
    state = rules.State(0, [5], [20, 0], [False, False], 21)
    state = rules.apply(state, rules.DRAW)
    assert state.scores == [0, 0] and state.stopped == [True, False] and state.seat == 1
'''

README = '''\
# {title}

A game for [tabletop-balance](https://example.invalid/tabletop-balance), written by
`simulate new-game {name}`.

    pip install -e .          # registers the game: `simulate games` lists it
    pytest                    # its rules and the conformance checks
    simulate {name} --players 2-4 --games 2000 --out runs/{package}
    simulate report runs/{package}

Change `{package}/rules.py` (the rules), `{package}/rules.toml` (their defaults) and the bots
in `rules.py`; the tests in `tests/` say what still holds.
'''

def check_name(name: str, commands: Collection[str] = ()) -> None:
    """Raises UserError unless `name` can be a new game's: a game name whose package (NAME with
    '_' for '-') imports, shadows no module installed or of the standard library, and whose
    distribution (NAME) replaces none installed; no game of that name installed, and no
    command of `simulate` (`commands`) so named."""
    from sim import games

    if not games.NAME.fullmatch(name):
        raise UserError(f"a game's name is {games.NAME_RULE}, got {name!r}")
    package = name.replace("-", "_")
    if name in games.names() or name in games.REFUSED:
        raise UserError(f"a game named {name!r} is installed already; choose another name")
    if name in commands:
        raise UserError(f"{name!r} is a command of simulate ('simulate {name}'); choose another "
                        "name")
    if keyword.iskeyword(package):
        raise UserError(f"{name!r} is a Python keyword: its package could not be imported; "
                        "choose another name")
    if package in sys.stdlib_module_names:
        raise UserError(f"{package!r} is a module of Python's standard library (the game's "
                        "package would shadow it); choose another name")
    if importlib.util.find_spec(package) is not None:
        raise UserError(f"a module named {package!r} is installed already (the game's package "
                        "would shadow it); choose another name")
    try:
        metadata.distribution(name)
    except metadata.PackageNotFoundError:
        return
    raise UserError(f"a package named {name!r} is installed already (installing the game would "
                    "replace it); choose another name")


FILES = {
    "pyproject.toml": PYPROJECT,
    "README.md": README,
    "{package}/__init__.py": INIT,
    "{package}/rules.py": RULES,
    "{package}/rules.toml": RULES_TOML,
    "tests/test_conformance.py": TEST_CONFORMANCE,
    "tests/test_rules.py": TEST_RULES,
}


FAST_FILES = {
    "pyproject.toml": PYPROJECT,
    "README.md": fast.README,
    "{package}/__init__.py": fast.INIT,
    "{package}/state.py": fast.STATE,
    "{package}/engine.py": fast.ENGINE,
    "{package}/bots.py": fast.BOTS,
    "{package}/view.py": fast.VIEW,
    "{package}/rules.toml": RULES_TOML,
    "tests/test_conformance.py": TEST_CONFORMANCE,
    "tests/test_rules.py": fast.TEST_RULES,
}


def write(name: str, folder: Path | None = None, commands: Collection[str] = (),
          fast: bool = False) -> str:
    """Writes the package of game `name` into `folder` (default ./NAME), at the fast level if
    `fast`; gives what to do next. Raises UserError for a name `check_name` refuses or a
    folder in use."""
    check_name(name, commands)
    folder = Path(folder if folder is not None else name)
    if folder.exists() and any(folder.iterdir()):
        raise UserError(f"{folder} exists and is not empty; give another --folder")
    package = name.replace("-", "_")
    title = " ".join(part.capitalize() for part in name.split("-"))
    fields = {"name": name, "package": package, "title": title}
    for path, template in (FAST_FILES if fast else FILES).items():
        target = folder / path.format(**fields)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(template.format(**fields))
    return (f"wrote {title} to {folder}/: pip install -e {folder}, then `cd {folder} && "
            f"pytest` and `simulate {name} --players 2-4`")
