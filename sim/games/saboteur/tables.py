"""Saboteur's result tables (games, seats, rounds) built from the engine's result arrays."""

import numpy as np
import polars as pl

from sim import progress, usage
from sim.game import Column
from sim.games.saboteur.forbid import USES

COLUMNS = {
    "games": (
        Column("rounds", "rounds the game played (the rule `rounds`, 3 by default)"),
        Column("miner_rounds", "rounds won by the miners (0 to `rounds`)"),
        Column("saboteurs_fixed", "the number of saboteurs fixed by --saboteurs (null: role cards dealt)"),
    ),
    "seats": (
        Column("gold", "nuggets at the end of the game"),
        Column("rank", "1 + how many seats have more nuggets (tied seats share a rank; rank 1 won)"),
        *usage.described(USES),
    ),
    "rounds": (
        Column("game_id, round, players", "one row per game, round (1 to `rounds`) and seat"),
        Column("saboteurs", "saboteurs in play that round"),
        Column("seat, role", "the seat and its role: 'miner' or 'saboteur'"),
        Column("strategy", "the bot that played the seat that round (with --role-strategy, "
                           "its role's; else the seat's)"),
        Column("winner_team", "'miners' or 'saboteurs'"),
        Column("gold_gained", "nuggets the seat gained that round"),
        Column("turns", "moves played in the round"),
        Column("finder_seat", "the seat that reached the gold (null when the saboteurs won)"),
    ),
}


def build(results, ids: np.ndarray, players: int, seats: tuple[str, ...],
          fixed_saboteurs: int | None, by_role: list[tuple[str, ...]]) -> dict[str, pl.DataFrame]:
    """Gives the games, seats and rounds tables of a chunk of games; by_role[role][seat]: the
    strategy the seat plays in that role."""
    n, rounds = results.round_turns.shape
    games = pl.DataFrame({
        "game_id": ids,
        "players": np.full(n, players, np.int8),
        "stalled": np.zeros(n, bool),
        "turns": results.turns.astype(np.int32),
        "rounds": np.full(n, rounds, np.int16),
        "miner_rounds": results.miner_rounds.astype(np.int8),
        "saboteurs_fixed": pl.Series([fixed_saboteurs] * n, dtype=pl.Int8),
    })
    seat_ids = np.tile(np.arange(players, dtype=np.int8), n)
    seat_table = pl.DataFrame({
        "game_id": np.repeat(ids, players),
        "players": np.full(n * players, players, np.int8),
        "seat": seat_ids,
        "won": results.rank.ravel() == 1,
        "gold": results.gold.ravel().astype(np.int16),
        "rank": results.rank.ravel().astype(np.int8),
        **usage.columns(results.uses, USES),
    }).with_columns(
        strategy=pl.Series(seats, dtype=pl.String).gather(pl.Series(seat_ids, dtype=pl.UInt32)))
    seat_table = seat_table.select("game_id", "players", "seat", "strategy", "won", "gold", "rank",
                                   *usage.names(USES))
    per_round = n * rounds
    miners_won = np.repeat(results.round_miners_won.ravel(), players) == 1
    round_table = pl.DataFrame({
        "game_id": np.repeat(ids, rounds * players),
        "round": np.tile(np.repeat(np.arange(1, rounds + 1, dtype=np.int8), players), n),
        "players": np.full(per_round * players, players, np.int8),
        "saboteurs": np.repeat(results.round_saboteurs.ravel(), players).astype(np.int8),
        "seat": np.tile(np.arange(players, dtype=np.int8), per_round),
        "role": results.round_role.ravel() == 1,
        "winner_team": miners_won,
        "gold_gained": results.round_gold.ravel().astype(np.int16),
        "turns": np.repeat(results.round_turns.ravel(), players).astype(np.int16),
        "finder_seat": np.repeat(results.round_finder.ravel(), players).astype(np.int8),
    }).with_columns(
        role=pl.when(pl.col("role")).then(pl.lit("saboteur")).otherwise(pl.lit("miner")),
        winner_team=pl.when(pl.col("winner_team")).then(pl.lit("miners")).otherwise(pl.lit("saboteurs")),
        finder_seat=pl.when(pl.col("winner_team")).then(pl.col("finder_seat")),
        strategy=pl.Series([name for row in by_role for name in row], dtype=pl.String).gather(
            pl.Series(results.round_role.ravel() * players
                      + np.tile(np.arange(players), per_round), dtype=pl.UInt32)),
    )
    return {"games": games, "seats": seat_table, "rounds": round_table,
            "progress": progress_table(results.progress, ids, players, rounds)}


def progress_table(rec, ids: np.ndarray, players: int, rounds: int) -> pl.DataFrame:
    """Gives the progress table of a chunk of games: per game, round (from 1), point and team
    (the recorder's rows: game row * rounds + round)."""
    frame = progress.table(rec, np.repeat(ids, rounds), players, "team",
                           np.array(("miners", "saboteurs")))
    per_round = progress.POINTS * 2
    return frame.insert_column(1, pl.Series("round", np.repeat(
        np.tile(np.arange(1, rounds + 1, dtype=np.int8), ids.shape[0]), per_round)))
