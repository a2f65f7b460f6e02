"""Sequence Stacks' result tables (games, seats) built from the engine's result arrays."""

import numpy as np
import polars as pl

from sim import progress, usage
from sim.game import Column
from sim.games.sequence_stacks.cards import ACTIONS
from sim.games.sequence_stacks.forbid import USES

PLURALS = ("skips", "reverses", "steal_cards", "blocks", "steal_chips")  # by cards.ACTIONS

COLUMNS = {
    "games": (
        Column("winner", "the winning seat (null when the game stalled)"),
        Column("reshuffles", "times the removed sequence piles were shuffled into a new draw pile"),
        Column("sequences_blocked", "completed sequences a Block took away (no chip given)"),
        Column(", ".join(PLURALS), "action cards of each type played in the game (blocks: "
                                   "Blocks played out of turn)"),
    ),
    "seats": (
        Column("chips_red, chips_blue", "chips of each colour held at the end"),
        Column("sequences_completed", "sequences whose fifth card the seat played (blocked ones "
                                      "included)"),
        Column("blocks_played", "Blocks the seat played on others' completions"),
        Column(", ".join(f"{p}_played" for p in PLURALS if p != "blocks"),
               "the seat's other action cards played, by type"),
        *usage.described(USES),
    ),
}


def build(results, ids: np.ndarray, players: int, seats: tuple[str, ...]) -> dict[str, pl.DataFrame]:
    """Gives the games and seats tables of a chunk of games."""
    n = ids.shape[0]
    winner = results.winner
    by_type = results.actions.sum(axis=1)
    games = pl.DataFrame({
        "game_id": ids,
        "players": np.full(n, players, np.int8),
        "stalled": winner < 0,
        "turns": results.turns.astype(np.int32),
        "winner": winner.astype(np.int8),
        "reshuffles": results.reshuffles.astype(np.int16),
        "sequences_blocked": results.blocked.astype(np.int16),
        **{plural: by_type[:, k].astype(np.int16) for k, plural in enumerate(PLURALS)},
    }).with_columns(winner=pl.when(pl.col("stalled")).then(None).otherwise(pl.col("winner")))
    seat_ids = np.tile(np.arange(players, dtype=np.int8), n)
    seat_table = pl.DataFrame({
        "game_id": np.repeat(ids, players),
        "players": np.full(n * players, players, np.int8),
        "seat": seat_ids,
        "won": (winner[:, None] == np.arange(players)[None, :]).ravel(),
        "chips_red": results.chips[:, :, 0].ravel().astype(np.int8),
        "chips_blue": results.chips[:, :, 1].ravel().astype(np.int8),
        "sequences_completed": results.completed.ravel().astype(np.int16),
        "blocks_played": results.actions[:, :, ACTIONS.index("block")].ravel().astype(np.int16),
        **{f"{plural}_played": results.actions[:, :, k].ravel().astype(np.int16)
           for k, plural in enumerate(PLURALS) if plural != "blocks"},
        **usage.columns(results.uses, USES),
    }).with_columns(
        strategy=pl.Series(seats, dtype=pl.String).gather(pl.Series(seat_ids, dtype=pl.UInt32)))
    first = ["game_id", "players", "seat", "strategy", "won"]
    seat_table = seat_table.select(first + [c for c in seat_table.columns if c not in first])
    return {"games": games, "seats": seat_table,
            "progress": progress.seat_table(results.progress, ids, players)}
