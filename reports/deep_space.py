"""Deep Space's own report sections: seat advantage (by turn order) per player count, win rate by
strategy style, which planets get bases (the board drawn, coloured by base frequency), and game
length in rounds."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from reports import charts
from reports.charts import plt
from reports.sections import (
    ADJUSTED,
    INTERVAL_NOTE,
    SEAT_TEST_NOTE,
    ReportContext,
    Section,
    Table,
    _apart_note,
    _n_caption,
    clustered_totals,
    game_section,
    gap_tests,
    rate_covariance,
    seat_fairness,
    with_wilson,
)
from reports.stats import significance_level
from reports.verdicts import Target, declare

# the starter is rolled for: a fair share for the player moving first is 1/players
declare("deep-space", Target(None, above="the first player", below="the other players"))


@game_section("deep-space")
def seat_advantage(ctx: ReportContext) -> Section:
    """Gives the game-win rate by turn order (0 = the player who rolled highest and started),
    per player count, with permutation tests against equal positions."""
    keys = ctx.apart("players")
    frame, tests = seat_fairness(ctx, keys, "turn_order")
    frame = frame.with_columns(pl.col("players").cast(pl.Int64),
                               (1 / pl.col("players").cast(pl.Float64)).alias("fair share"))
    rows, series = [], {}
    for group, part in frame.group_by(keys, maintain_order=True):
        test = tests[tuple(group)]
        rows.append((*group, int(part["n"].max()), test.q, part.height - 1, test.p,
                     significance_level(test.p)))
        series[" · ".join([*group[:-1], f"{group[-1]} players"])] = (
            part["turn_order"], part["rate"], part["low"], part["high"])
    fairness = pl.DataFrame(rows, orient="row", schema={
        **({"variant": pl.Utf8} if ctx.split else {}), "players": pl.Int64, "games": pl.Int64, "Q": pl.Float64, "dof": pl.Int64,
        "p": pl.Float64, "positions differ": pl.Utf8})
    games = int(fairness["games"].sum())
    path = charts.rate_lines(ctx.chart("deep_space_turn_order"), series,
                             title="Deep Space: game-win rate by turn order",
                             xlabel="turn order (0 = starting player)", ylabel="game-win rate (%)",
                             caption=_n_caption(games))
    return Section("Seat advantage by player count", [
        Table("Game-win rate by turn order and player count", frame.select(
            *keys, "turn_order", "n", "wins", "rate", "low", "high", "fair share", "even",
            "vs even", "p", "significance"), ("rate", "low", "high", "fair share", "even", "vs even"),
            chart=path, chart_caption=_n_caption(games),
            note="n = seat-games; the starter is rolled for, so turn order, not the seat number, "
                 "is what a seat's position means; stalled games count as lost for everyone; "
                 + SEAT_TEST_NOTE.replace("seat", "position") + _apart_note(ctx)),
        Table("Turn order balance", fairness,
              note="Q: Cochran's Q of the wins by turn order; p: its permutation p-value "
                   "(turn-order labels permuted within games): do the positions differ at all")])


def _style(strategy: str) -> str:
    """Gives how a strategy plays, in words: a built-in style, a Python bot or a preset from a
    file, and what it may not play (e.g. "balanced, no warp")."""
    from strategies.deep_space import STYLES
    from strategies.seats import is_python, parse

    seat = parse(strategy)
    style = STYLES.get(seat.base) or ("Python bot" if is_python(seat.base) else "preset from a file")
    return style + "".join(f", no {name}" for name in seat.forbidden)


@game_section("deep-space")
def win_rate_by_style(ctx: ReportContext) -> Section:
    """Gives the game-win rate of each strategy (its style named) per player count."""
    keys = ctx.apart("players", "strategy")
    frame = with_wilson(clustered_totals(ctx, "seats", keys, pl.col("won")))
    styles = {name: _style(name) for name in frame["strategy"].unique().to_list()}
    parts = []
    for _, part in frame.sort(keys[:-1]).group_by(keys[:-1], maintain_order=True):
        part = part.sort("rate", "strategy", descending=[True, False])
        parts.append(gap_tests(part, cov=rate_covariance(ctx, "seats", part, keys, pl.col("won"))))
    frame = pl.concat(parts).with_columns(
        pl.col("players").cast(pl.Int64),
        pl.col("strategy").replace_strict(styles, return_dtype=pl.String).alias("style"))
    # a group of bars per player count, or per variant and player count: never pooled
    frame = frame.with_columns(ctx.group_label(frame).alias("__group"))
    groups = frame.unique("__group", maintain_order=True)["__group"].to_list()
    series = {}
    for name in sorted(frame["strategy"].unique().to_list()):
        rows = {r["__group"]: r for r in frame.filter(pl.col("strategy") == name).iter_rows(named=True)}
        series[name] = tuple(np.array([rows[g][k] if g in rows else np.nan for g in groups])
                             for k in ("rate", "low", "high"))
    n = int(frame["n"].sum())
    path = charts.grouped_bars(ctx.chart("deep_space_styles"), groups, series,
                               percent=True, title="Deep Space: game-win rate by strategy",
                               xlabel="players (count)", ylabel="game-win rate (%)",
                               caption=_n_caption(n, "seat-games"))
    return Section("Win rate by strategy style", [Table(
        "Game-win rate by strategy and player count", frame.select(
            *keys, "style", "n", "wins", "rate", "low", "high", "vs first", "p",
            "significance"),
        ("rate", "low", "high", "vs first"), chart=path, chart_caption=_n_caption(n, "seat-games"),
        note="n = seat-games; vs first: difference to the best strategy at that player count; "
             f"p: z-test with games as clusters, {ADJUSTED}; {INTERVAL_NOTE}" + _apart_note(ctx))])


@game_section("deep-space")
def bases_by_planet(ctx: ReportContext) -> Section:
    """Gives, per board and player count, how often each planet gets a base, and draws each
    board coloured by bases per game."""
    boards = {}
    for run in ctx.runs:
        board = run.manifest["rules"]["board"]
        boards.setdefault(board["name"], board)
    games = ctx.collect(ctx.scan("games", ["players", "board"]).group_by("board", "players")
                        .agg(pl.len().alias("games")), "games")
    built = ctx.collect(
        ctx.scan("bases", ["game_id", "players", "planet"])
        .join(ctx.scan("games", ["game_id", "board"]), on=["run", "setup", "game_id"])
        .group_by("board", "players", "planet")
        .agg(pl.len().alias("bases"), pl.col("game_id").n_unique().alias("games with one")),
        "bases")
    frame = (built.join(games, on=["board", "players"])
             .with_columns(pl.col("players").cast(pl.Int64),
                           (pl.col("bases") / pl.col("games")).alias("bases per game"),
                           (pl.col("games with one") / pl.col("games")).alias("share of games"))
             .sort("board", "players", "bases per game", descending=[False, False, True]))
    tables = []
    for i, (name, board) in enumerate(sorted(boards.items())):
        part = frame.filter(pl.col("board") == name)
        n = int(games.filter(pl.col("board") == name)["games"].sum())
        pooled = part.group_by("planet").agg(pl.col("bases").sum())
        per_game = {r["planet"]: r["bases"] / n for r in pooled.iter_rows(named=True)} if n else {}
        path = draw_board(ctx.chart(f"deep_space_board_{i}"), board, per_game,
                          caption=f"n = {n:,} games (all player counts); colour: bases per game")
        tables.append(Table(
            f"Bases per planet: {name}",
            part.select("players", "planet", "games", "bases", "bases per game", "share of games"),
            ("share of games",), chart=path, chart_caption=f"n = {n:,} games",
            note="bases per game counts every colour's base; share of games: games in which at "
                 "least one base stands there at the end"
                 + ("; pooled over the variants on this board: " + ", ".join(ctx.variants)
                    if ctx.split else "")))
    return Section("Which planets get bases", tables)


def draw_board(path: Path, board: dict, per_game: dict[str, float], caption: str) -> Path:
    """Gives a PNG of the board at its file's coordinates: links, the gem warp, home stations
    (squares) and planets coloured by bases per game."""
    fig, ax = plt.subplots(figsize=(7.0, 6.5), dpi=110)
    planets = board["planets"]
    xy = {name: (float(p["x"]), float(p["y"])) for name, p in planets.items()}
    for a, b in board["links"]:
        ax.plot(*zip(xy[a], xy[b]), color="#999999", linewidth=1.2, zorder=1)
    warp = board.get("warp", {})
    if warp.get("planets"):
        centre = (float(warp["x"]), float(warp["y"]))
        for name in warp["planets"]:
            ax.plot(*zip(centre, xy[name]), color="#999999", linestyle=":", linewidth=1.2, zorder=1)
        ax.scatter(*centre, marker="*", s=420, color="#E69F00", edgecolor="black", zorder=2)
        ax.annotate("warp (1 gem)", centre, xytext=(0, -18), textcoords="offset points",
                    ha="center", fontsize=7)
    names = [n for n in planets if not planets[n].get("home", False)]
    values = np.array([per_game.get(n, 0.0) for n in names])
    dots = ax.scatter([xy[n][0] for n in names], [xy[n][1] for n in names], c=values, s=520,
                      cmap="cividis", vmin=0, vmax=max(float(values.max(initial=0)), 1e-9),
                      edgecolor="black", zorder=3)
    homes = [n for n in planets if planets[n].get("home", False)]
    ax.scatter([xy[n][0] for n in homes], [xy[n][1] for n in homes], marker="s", s=380,
               color="#dddddd", edgecolor="black", zorder=3)
    for name in planets:
        label = name if name in homes else f"{name}\n{per_game.get(name, 0.0):.2f}"
        ax.annotate(label, xy[name], ha="center", va="center", fontsize=6.5, zorder=4,
                    color="black" if name in homes else "white" if per_game.get(name, 0.0)
                    < 0.6 * max(float(values.max(initial=0)), 1e-9) else "black")
    fig.colorbar(dots, ax=ax, shrink=0.8, label="bases per game (all colours)")
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"Deep Space: where bases are built\n{board['name']}", fontsize=11,
                 fontweight="bold")
    fig.text(0.01, 0.01, caption + "; squares: home stations", fontsize=8, color="#444444")
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, format="png")
    plt.close(fig)
    return path


@game_section("deep-space")
def length_by_players(ctx: ReportContext) -> Section:
    """Gives rounds per game by player count, with the stalled rate."""
    keys = ctx.apart("players")
    frame = ctx.collect(
        ctx.scan("games", ["players", "rounds", "stalled"])
        .group_by(*keys)
        .agg(pl.len().alias("n"), pl.col("stalled").cast(pl.Int64).sum().alias("wins"),
             pl.col("rounds").mean().alias("mean rounds"),
             *[pl.col("rounds").quantile(q, "nearest").alias(f"p{int(100 * q)}")
               for q in (0.1, 0.5, 0.9)],
             pl.col("rounds").max().alias("max")), "games")
    frame = with_wilson(frame).with_columns(pl.col("players").cast(pl.Int64)).sort(keys)
    return Section("Game length in rounds", [Table(
        "Rounds per game by player count",
        frame.select(*keys, "n", "mean rounds", "p10", "p50", "p90", "max",
                     pl.col("wins").alias("stalled"), pl.col("rate").alias("stalled rate")),
        ("stalled rate",), note="n = games; a round is one turn of every player"
        + _apart_note(ctx))])
