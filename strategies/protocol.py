"""The Python `Strategy` protocol: how a user-written bot plays any of the games.

A strategy is a class with a `choose` method, loaded by the command line from
`path/to/file.py:ClassName` (as `--strategy` or `--seat-strategy SEAT=...`):

    class FirstMove:
        def choose(self, view, legal_moves, rng):
            return legal_moves[0]

- `view` is what the player may know at that moment, and nothing more, in plain Python terms
  (a read-only View of the game's, e.g. `sim.games.saboteur.view.View`: its hand, its role, the
  public table). It is built afresh for every move, each field read when first asked for; a
  view kept on `self` still shows the position it was made in.
- `legal_moves` is a non-empty, read-only list of the game's move named tuples (e.g.
  `sim.games.saboteur.view.Move`), each readable on its own (`Move(action='place', card='cross',
  x=1, y=0, exits='NESW', ...)`): index it, slice it, iterate it; each move is put into words
  as it is first read (`strategies.python_bots.LegalMoves`). Restrictions (`--forbid`) are
  already applied.
- `view.suggest(strategy)` (every game) gives the move a built-in
  strategy would play here, e.g. `view.suggest("default")`, so that a bot can change one habit
  and leave the rest to a built-in (strategies/examples/peaceful_miner.py).
- `rng` is a `random.Random` seeded from (run seed, game index, seat) alone: draw from it, not
  from `random` or numpy's global state, and the same seed replays the same games.
- Return one of `legal_moves` (or a tuple equal to one). Anything else stops the run with an
  error naming the bot, the move and the game.

The class is instantiated with no arguments once per seat per game, so a bot may remember what
happened earlier in the same game, and a game never depends on the games before it (a run's
result is the same however it is split into chunks and workers).

Python strategies play through each game's Python driver: the same jitted rule functions, the
same seeding and the same tables as the fast jitted loop, only slower. Seats with built-in bots
in the same game keep playing their jitted bots.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Strategy(Protocol):
    def choose(self, view: Any, legal_moves: Sequence[tuple], rng: random.Random) -> tuple:
        """Gives the move to play: one of `legal_moves`."""
