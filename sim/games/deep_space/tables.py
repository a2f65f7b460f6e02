"""Deep Space's result tables (games, seats, bases) built from the engine's result arrays."""

import numpy as np
import polars as pl

from sim import progress, usage
from sim.games.deep_space.forbid import ACTIONS, PLAY
from sim.game import Column

COLUMNS = {
    "games": (
        Column("rounds", "rounds begun: turns / players, rounded up"),
        Column("winner", "the winning seat (null when the game stalled at the turn cap)"),
        Column("first_seat", "the seat that started (the highest roll)"),
        Column("board", "the name of the board played on"),
    ),
    "seats": (
        Column("turn_order", "0 for the player who started, 1 for the next, ..."),
        Column("bases", "bases built"),
        Column("recruits_lost", "recruits removed from the board: combat, meteor storms, sacrifices"),
        Column("combats_won, combats_lost", "combats (one per attacker-defender pair) won and lost"),
        Column("gems_mined, ore_mined", "resources taken by mining"),
        Column("cards_played", "action cards played"),
        *usage.described([*ACTIONS, PLAY, "<card>"]),
    ),
    "bases": (
        Column("game_id, players, seat", "one row per base built"),
        Column("planet", "the planet's name on the board"),
        Column("turn", "the game turn (from 1) it was built in"),
    ),
}


def build(results, ids: np.ndarray, players: int, seats: tuple[str, ...], board: str,
          planets: list[str], uses: list[str]) -> dict[str, pl.DataFrame]:
    """Gives the games, seats and bases tables of a chunk of games (`uses`: the kinds of move
    results.uses counts, forbid.uses)."""
    n = len(ids)
    stalled = results.winner < 0
    games = pl.DataFrame({
        "game_id": ids,
        "players": np.full(n, players, np.int8),
        "stalled": stalled,
        "turns": results.turns.astype(np.int32),
        "rounds": ((results.turns + players - 1) // players).astype(np.int32),
        "winner": pl.Series(np.where(stalled, 0, results.winner).astype(np.int8)),
        "first_seat": results.first_seat.astype(np.int8),
    }).with_columns(winner=pl.when(pl.col("stalled")).then(None).otherwise(pl.col("winner")),
                    board=pl.lit(board, pl.String))
    seat_ids = np.tile(np.arange(players, dtype=np.int8), n)
    won = (results.winner[:, None] == np.arange(players)[None, :]).ravel()
    order = (np.arange(players)[None, :] - results.first_seat[:, None]) % players
    seat_table = pl.DataFrame({
        "game_id": np.repeat(ids, players),
        "players": np.full(n * players, players, np.int8),
        "seat": seat_ids,
        "won": won,
        "turn_order": order.ravel().astype(np.int8),
        "bases": results.bases.ravel().astype(np.int8),
        "recruits_lost": results.lost.ravel().astype(np.int16),
        "combats_won": results.won_fights.ravel().astype(np.int16),
        "combats_lost": results.lost_fights.ravel().astype(np.int16),
        "gems_mined": results.gems_mined.ravel().astype(np.int16),
        "ore_mined": results.ore_mined.ravel().astype(np.int16),
        "cards_played": results.played.ravel().astype(np.int16),
        **usage.columns(results.uses, uses),
    }).with_columns(
        strategy=pl.Series(seats, dtype=pl.String).gather(pl.Series(seat_ids, dtype=pl.UInt32)))
    seat_table = seat_table.select("game_id", "players", "seat", "strategy", "won",
                                   *[c for c in seat_table.columns
                                     if c not in ("game_id", "players", "seat", "strategy", "won")])
    game_i, seat_i, planet_i = np.nonzero(results.base_turn)
    base_table = pl.DataFrame({
        "game_id": ids[game_i],
        "players": np.full(len(game_i), players, np.int8),
        "seat": seat_i.astype(np.int8),
        "planet": pl.Series(planets, dtype=pl.String).gather(pl.Series(planet_i, dtype=pl.UInt32)),
        "turn": results.base_turn[game_i, seat_i, planet_i].astype(np.int32),
    })
    return {"games": games, "seats": seat_table, "bases": base_table,
            "progress": progress.seat_table(results.progress, ids, players)}
