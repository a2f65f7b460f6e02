"""How the game plays (reports/plays.py), read from progress rows built by hand: who leads at
each point, whether the leader wins, from when the winner leads for good, lead changes and
comebacks."""

import polars as pl

from reports.plays import HALF, leaders, slab_totals
from sim.progress import PERCENTS


def rows(game_id: int, winner: int | None, values: dict[int, tuple[float, float]]):
    """Gives a two-seat game's progress rows: values[percent] = (seat 0's, seat 1's), each
    point holding the last given at or before it."""
    out, last = [], None
    for percent in PERCENTS:
        last = values.get(percent, last)
        for seat in (0, 1):
            out.append({"configuration": "2p default", "run": 0, "game_id": game_id,
                        "point": percent, "side": str(seat), "value": last[seat],
                        "winner": None if winner is None else str(winner), "decisions": percent,
                        "players": 2})
    return out


def totals(*games):
    frame = pl.LazyFrame([row for game in games for row in game])
    return slab_totals(leaders(frame).collect())


LEADER_ALL_ALONG = rows(1, 0, {0: (0, 0), 10: (1, 0), 50: (3, 1), 100: (5, 2)})
COMEBACK = rows(2, 1, {0: (0, 0), 10: (1, 0), 50: (4, 1), 90: (4, 4), 100: (4, 5)})
STALLED = rows(3, None, {0: (0, 0), 50: (2, 0)})


def test_the_leader_at_half_time_wins_where_it_keeps_the_lead_and_not_where_it_loses_it():
    curve, _ = totals(LEADER_ALL_ALONG, COMEBACK, STALLED)
    half = curve.filter(point=HALF).row(0, named=True)
    assert (half["n"], half["wins"], half["decided"]) == (2, 1, 2)  # the stalled game: no winner
    start = curve.filter(point=0).row(0, named=True)
    assert (start["n"], start["wins"]) == (0, 0)  # everyone level: no leader


def test_a_winner_trailing_at_half_time_is_a_comeback_by_its_deficit():
    _, games = totals(LEADER_ALL_ALONG, COMEBACK)
    row = games.row(0, named=True)
    assert (row["comebacks"], row["decided"]) == (1, 2)
    assert (row["deficit|n"], row["deficit|sum"]) == (1, 3)


def test_the_winner_leads_for_good_from_the_first_point_after_its_last_without_the_lead():
    _, games = totals(LEADER_ALL_ALONG, COMEBACK)
    row = games.row(0, named=True)
    # from 10% (level at 0%), and from 100% (level at 90%, behind before)
    assert (row["leads for good from|n"], row["leads for good from|sum"]) == (2, 10 + 100)
    assert row["settled"] == 2


def test_a_lead_change_is_counted_between_points_with_a_sole_leader():
    _, games = totals(LEADER_ALL_ALONG, COMEBACK)
    # seat 0 all along; seat 0 then, past a level point at 90%, seat 1
    assert (games["lead changes|n"][0], games["lead changes|sum"][0]) == (2, 1)
