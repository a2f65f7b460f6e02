"""The largest runs, seeds, game indices and worker counts the machinery can hold, and the
checks that refuse anything beyond them in one line (before anything is allocated or written).
"""

from __future__ import annotations

import os

from sim.counts import MAX_SETUPS
from sim.errors import UserError

# A run folder names a shard by its configuration (3 digits: sim.counts.MAX_SETUPS) and its
# first game (9 digits).
MAX_GAMES = 10**9
# The chunk plan is a list held in memory (about 200 bytes a chunk), as are the finished ones.
MAX_CHUNKS = 250_000
# A chunk's results are arrays of its games, held in memory until its shards are written.
MAX_CHUNK_SIZE = 100_000
# Engines take the seed and a game's index as int64.
MAX_SEED = 2**63 - 1
MAX_GAME_INDEX = 2**63 - 2  # the index one past it must fit too
# More worker processes than this many per core only queue for the cores and eat memory.
WORKERS_PER_CORE = 4


def check_games(games: int, flag: str = "--games", most: int = MAX_GAMES,
                per: str = "per configuration") -> None:
    """Raises UserError unless 1 <= games <= most (by default MAX_GAMES, per configuration)."""
    if games < 1:
        raise UserError(f"{flag} must be at least 1, got {games}")
    if games > most:
        raise UserError(f"{flag} is at most {most:,} {per}, got {games:,}")


def check_setups(setups: int) -> None:
    """Raises UserError when a sweep has more configurations than a run folder holds."""
    if setups > MAX_SETUPS:
        raise UserError(f"the sweep has {setups:,} configurations; a run holds at most "
                        f"{MAX_SETUPS:,}: split it into several runs")


def check_chunk_size(chunk_size: int) -> None:
    """Raises UserError unless 1 <= chunk_size <= MAX_CHUNK_SIZE."""
    if chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1, got {chunk_size}")
    if chunk_size > MAX_CHUNK_SIZE:
        raise UserError(f"--chunk-size is at most {MAX_CHUNK_SIZE:,}, got {chunk_size:,}")


def check_plan(setups: int, games_per_setup: int, chunk_size: int) -> None:
    """Raises UserError when the run would be cut into more chunks than its plan can hold."""
    chunks = setups * -(-games_per_setup // chunk_size)
    if chunks > MAX_CHUNKS:
        raise UserError(f"{setups:,} configuration(s) × {games_per_setup:,} games in chunks of "
                        f"{chunk_size:,} make {chunks:,} chunks, more than a run can plan "
                        f"({MAX_CHUNKS:,}): play fewer games or configurations per run")


def max_workers() -> int:
    """Gives the most worker processes a run starts on this machine."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_workers(workers: int) -> None:
    """Raises UserError unless 1 <= workers <= max_workers()."""
    if workers < 1:
        raise UserError(f"--workers must be at least 1, got {workers}")
    if workers > max_workers():
        raise UserError(f"--workers is at most {max_workers()} here ({WORKERS_PER_CORE} × the "
                        f"{os.cpu_count() or 1} cores), got {workers:,}")


def check_seed(seed: int) -> None:
    """Raises UserError unless the engines can take `seed`."""
    if not 0 <= seed <= MAX_SEED:
        raise UserError(f"--seed must be between 0 and 2**63-1, got {seed}")


def check_game_index(index: int) -> None:
    """Raises UserError unless the engines can take game `index`."""
    if not 0 <= index <= MAX_GAME_INDEX:
        raise UserError(f"--game-index must be between 0 and 2**63-2, got {index}")
