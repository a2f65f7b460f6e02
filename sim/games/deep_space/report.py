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
    UNRANKED,
    ReportContext,
    Section,
    Table,
    _apart_note,
    _n_caption,
    clustered_totals,
    gap_tests,
    rate_covariance,
    seat_fairness,
    with_quantiles,
    with_wilson,
)
from reports.stats import significance_level

# the starter is rolled for: a fair share for the player moving first is 1/players


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
              note="p asks: could every position in the turn order be equally strong? "
                   "Method: Cochran's Q of the wins by turn order and its permutation p-value "
                   "(turn-order labels permuted within games)")])


def _style(strategy: str) -> str:
    """Gives how a strategy plays, in words: a built-in style, a Python bot or a preset from a
    file, and what it may not play (e.g. "balanced, no warp")."""
    from sim.games.deep_space.bots import STYLES
    from strategies.seats import is_python, parse

    seat = parse(strategy)
    style = STYLES.get(seat.base) or ("Python bot" if is_python(seat.base) else "preset from a file")
    return style + "".join(f", no {name}" for name in seat.forbidden)


def win_rate_by_style(ctx: ReportContext) -> Section:
    """Gives the game-win rate of each strategy (its style named) per player count."""
    keys = ctx.apart("players", "strategy")
    frame = with_wilson(clustered_totals(ctx, "seats", keys, pl.col("won")))
    # strategies are ranked only within a group whose games seat several (not a ladder's rung)
    frame = frame.filter(pl.col("strategy").n_unique().over(keys[:-1]) > 1)
    if frame.is_empty():
        return Section("Win rate by strategy style", text=UNRANKED)
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
             "p asks: could this strategy be as strong as the best, the gap luck? Method: a "
             f"z-test with games as clusters, {ADJUSTED}; {INTERVAL_NOTE}" + _apart_note(ctx))])


def bases_by_planet(ctx: ReportContext) -> Section:
    """Gives, per board and player count, how often each planet gets a base, and draws each
    board coloured by bases per game."""
    boards = {}
    for run in ctx.runs:
        board = run.manifest["rules"]["board"]
        boards.setdefault(board["name"], board)
    # a table per board and variant: variants (rules, runs, bots) are never pooled
    keys = ["board", "variant", "players"]
    games = ctx.collect(ctx.scan("games", ["players", "board"]).group_by(*keys)
                        .agg(pl.len().alias("games")), "games")
    built = ctx.collect(
        ctx.scan("bases", ["game_id", "players", "planet"])
        .join(ctx.scan("games", ["game_id", "board"]).select("run", "setup", "game_id", "board"),
              on=["run", "setup", "game_id"])
        .group_by(*keys, "planet")
        .agg(pl.len().alias("bases"), pl.col("game_id").n_unique().alias("games with one")),
        "bases")
    frame = (built.join(games, on=keys)
             .with_columns(pl.col("players").cast(pl.Int64),
                           (pl.col("bases") / pl.col("games")).alias("bases per game"),
                           (pl.col("games with one") / pl.col("games")).alias("share of games"))
             .sort(*keys, "bases per game", descending=[False, False, False, True]))
    tables = []
    shown = [(name, variant) for name in sorted(boards)
             for variant in ctx.kept_apart if not games.filter(
                 pl.col("board") == name, pl.col("variant") == variant).is_empty()]
    for i, (name, variant) in enumerate(shown):
        board = boards[name]
        part = frame.filter(pl.col("board") == name, pl.col("variant") == variant)
        counts = games.filter(pl.col("board") == name, pl.col("variant") == variant).sort("players")
        n = int(counts["games"].sum())
        # one panel per player count: covered planets and home stations differ between them
        per_game = {int(r["players"]): {
            p["planet"]: p["bases"] / r["games"]
            for p in part.filter(pl.col("players") == r["players"]).iter_rows(named=True)}
            for r in counts.iter_rows(named=True)}
        path = draw_board(ctx.chart(f"deep_space_board_{i}"), board, per_game,
                          {int(r["players"]): int(r["games"]) for r in counts.iter_rows(named=True)},
                          caption="colour: bases per game (all colours); squares: home "
                                  "stations; grey crosses: planets covered at that count")
        tables.append(Table(
            f"Bases per planet: {name}" + (f" · {variant}" if ctx.split else ""),
            part.select("players", "planet", "games", "bases", "bases per game", "share of games"),
            ("share of games",), chart=path, chart_caption=f"n = {n:,} games",
            note="bases per game counts every colour's base; share of games: games in which at "
                 "least one base stands there at the end" + _apart_note(ctx)))
    return Section("Which planets get bases", tables)


def draw_board(path: Path, board: dict, per_game: dict[int, dict[str, float]],
               games: dict[int, int], caption: str) -> Path:
    """Gives a chart of the board at its file's coordinates, one panel per player count (each
    with its n): links, the gem warp, home stations (squares), the planets covered at that
    count (crosses) and the others coloured by bases per game, on one scale for all panels."""
    counts = sorted(per_game)
    top = max([v for pg in per_game.values() for v in pg.values()] + [1e-9])
    columns = min(3, len(counts))
    rows = -(-len(counts) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(5.2 * columns + 1.2, 5.0 * rows + 1.0),
                             dpi=100, squeeze=False)
    planets = board["planets"]
    xy = {name: (float(p["x"]), float(p["y"])) for name, p in planets.items()}
    dots = None
    for ax, players in zip(axes.flat, counts):
        values = per_game[players]
        for a, b in board["links"]:
            ax.plot(*zip(xy[a], xy[b]), color="#999999", linewidth=1.2, zorder=1)
        warp = board.get("warp", {})
        if warp.get("planets"):
            centre = (float(warp["x"]), float(warp["y"]))
            for name in warp["planets"]:
                ax.plot(*zip(centre, xy[name]), color="#999999", linestyle=":", linewidth=1.2,
                        zorder=1)
            ax.scatter(*centre, marker="*", s=420, color="#E69F00", edgecolor="black", zorder=2)
            ax.annotate("warp (1 gem)", centre, xytext=(0, -20), textcoords="offset points",
                        ha="center", fontsize=9)
        covered = set(_covered(board, players))
        homes = [n for n in planets if planets[n].get("home", False)]
        names = [n for n in planets if n not in homes and n not in covered]
        dots = ax.scatter([xy[n][0] for n in names], [xy[n][1] for n in names],
                          c=[values.get(n, 0.0) for n in names], s=520, cmap="cividis", vmin=0,
                          vmax=top, edgecolor="black", zorder=3)
        ax.scatter([xy[n][0] for n in homes], [xy[n][1] for n in homes], marker="s", s=380,
                   color="#dddddd", edgecolor="black", zorder=3)
        ax.scatter([xy[n][0] for n in covered], [xy[n][1] for n in covered], marker="X", s=300,
                   color="#bbbbbb", edgecolor="black", zorder=3)
        for name in planets:
            if name in covered:  # named beside its cross, which the name would hide
                ax.annotate(f"{name} (covered)", xy[name], xytext=(0, -17),
                            textcoords="offset points", ha="center", fontsize=8, zorder=4)
                continue
            label = name if name in homes else f"{name}\n{values.get(name, 0.0):.2f}"
            dark = name not in homes and values.get(name, 0.0) < 0.6 * top
            ax.annotate(label, xy[name], ha="center", va="center", fontsize=8, zorder=4,
                        color="white" if dark else "black")
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(f"{players} players (n = {games[players]:,} games)", fontsize=12)
    for ax in list(axes.flat)[len(counts):]:
        ax.axis("off")
    fig.subplots_adjust(left=0.02, right=0.88, top=0.86, bottom=0.08, wspace=0.05)
    bar = fig.colorbar(dots, ax=list(axes.flat), fraction=0.03, pad=0.02)
    bar.set_label("bases per game (all colours)")
    fig.suptitle(f"Deep Space: where bases are built — {board['name']}", fontsize=15,
                 fontweight="bold")
    fig.text(0.01, 0.01, caption, fontsize=charts.CAPTION_SIZE, color="#444444")
    return charts.save(fig, path)


def _covered(board: dict, players: int) -> list[str]:
    """Gives the planets a board covers (takes out of play) at a player count."""
    covers = board.get("covers", {})
    return list(covers.get(str(players), covers.get(players, [])))


def length_by_players(ctx: ReportContext) -> Section:
    """Gives rounds per game by player count, with the stalled rate."""
    keys = ctx.apart("players")
    lf = ctx.scan("games", ["players", "rounds", "stalled"])
    frame = ctx.collect(
        lf.group_by(*keys)
        .agg(pl.len().alias("n"), pl.col("stalled").cast(pl.Int64).sum().alias("wins"),
             pl.col("rounds").mean().alias("mean rounds"), pl.col("rounds").max().alias("max")),
        "games")
    frame = with_quantiles(ctx, frame, lf, keys, "rounds", (0.1, 0.5, 0.9))
    frame = with_wilson(frame).with_columns(pl.col("players").cast(pl.Int64)).sort(keys)
    return Section("Game length in rounds", [Table(
        "Rounds per game by player count",
        frame.select(*keys, "n", "mean rounds", "p10", "p50", "p90", "max",
                     pl.col("wins").alias("stalled"), pl.col("rate").alias("stalled rate")),
        ("stalled rate",), note="n = games; a round is one turn of every player"
        + _apart_note(ctx))])


# the report's own sections, in order (the game declares them: DeepSpace.report_sections)
SECTIONS = (seat_advantage, win_rate_by_style, bases_by_planet, length_by_players)
