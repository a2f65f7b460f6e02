"""The result tables (games, seats) of Spit and Speed, built from the engines' result arrays."""

import numpy as np
import polars as pl

from sim import progress
from sim.game import Column


def columns(length: str, length_meaning: str, options: tuple[Column, ...],
            seat_extra: tuple[Column, ...] = ()) -> dict[str, tuple[Column, ...]]:
    """Gives the columns a real-time game adds to the games and seats tables."""
    return {
        "games": (
            Column("winner", "the seat that won (null: the game stalled)"),
            Column(length, length_meaning),
            Column("stalls", "times neither player could move (each resolved by spitting or "
                             "turning up side-pile cards)"),
            Column("sim_seconds", "simulated seconds the game took (reaction times of the moves, "
                                  "stalls and slaps)"),
            Column("reaction_ratio", "seat 0's mean reaction time / seat 1's (< 1: seat 0 is faster)"),
            *options,
        ),
        "seats": (
            Column("reaction_mean", "the seat's mean reaction time (seconds)"),
            Column("reaction_spread", "the seat's reaction spread (sigma of log-seconds)"),
            Column("cards_left", "cards the seat still held at the end (0 for a Spit winner)"),
            Column("cards_played", "cards the seat played onto the centre piles"),
            *seat_extra,
        ),
    }


def build(results, ids: np.ndarray, seats: tuple[str, ...], means, spreads, length: str,
          options: dict, seat_extra: dict | None = None) -> dict[str, pl.DataFrame]:
    """Gives the games and seats tables of a chunk of games.

    `results` has winner, stalled, moves, stalls, seconds, cards_left, played and the
    game-length array named `length`; `options` are the rule options in force (one column
    each); `seat_extra` more seat columns as (games, 2) arrays.
    """
    n = ids.shape[0]
    winner = results.winner
    games = pl.DataFrame({
        "game_id": ids,
        "players": np.full(n, 2, np.int8),
        "stalled": results.stalled == 1,
        "turns": results.moves.astype(np.int32),
        "winner": pl.Series(np.where(winner >= 0, winner, 0).astype(np.int8)),
        length: getattr(results, length).astype(np.int32),
        "stalls": results.stalls.astype(np.int32),
        "sim_seconds": results.seconds,
        "reaction_ratio": np.full(n, means[0] / means[1]),
    }).with_columns(pl.when(pl.Series(winner >= 0)).then(pl.col("winner")).alias("winner"),
                    *[pl.lit(value).alias(name) for name, value in options.items()])
    seat_ids = np.tile(np.arange(2, dtype=np.int8), n)
    seat_table = pl.DataFrame({
        "game_id": np.repeat(ids, 2),
        "players": np.full(2 * n, 2, np.int8),
        "seat": seat_ids,
        "strategy": np.array(seats, dtype=object)[seat_ids.astype(np.int64)].astype(str),
        "won": np.repeat(winner, 2) == seat_ids,
        "reaction_mean": np.tile(np.asarray(means, np.float64), n),
        "reaction_spread": np.tile(np.asarray(spreads, np.float64), n),
        "cards_left": results.cards_left.ravel().astype(np.int16),
        "cards_played": results.played.ravel().astype(np.int16),
        **{name: values.ravel() for name, values in (seat_extra or {}).items()},
    })
    return {"games": games, "seats": seat_table,
            "progress": progress.seat_table(results.progress, ids, 2)}
