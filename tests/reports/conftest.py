"""Fixtures: synthetic Saboteur-shaped run folders written straight to manifest + Parquet shards."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import numpy as np
import polars as pl
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sim.errors import UserError  # noqa: E402
from sim.game import Column, Headline, Setup, Target  # noqa: E402
from sim.games.saboteur import report as saboteur_report  # noqa: E402


def _install_store_stand_in() -> None:
    """Puts a minimal `sim.run.store.Run` in place while the real store has not landed."""
    try:
        import sim.run.store  # noqa: F401
        return
    except ImportError:
        pass

    class Run:
        def __init__(self, path: Path, manifest: dict):
            self.path = path
            self.manifest = manifest
            self.game = manifest["game"]
            self.setups = [Setup.from_json(s) for s in manifest["setups"]]

        @classmethod
        def open(cls, path):
            path = Path(path)
            try:
                manifest = json.loads((path / "manifest.json").read_text())
            except (OSError, ValueError):
                raise UserError(f"{path} is not a run folder (no readable manifest.json)") from None
            return cls(path, manifest)

        def scan(self, table: str) -> pl.LazyFrame:
            shards = sorted((self.path / table).glob("*.parquet"))
            if not shards:
                raise UserError(f"{self.path}: no shards for table {table!r}")
            return pl.scan_parquet(shards)

    module = types.ModuleType("sim.run.store")
    module.Run = Run
    sys.modules["sim.run.store"] = module


_install_store_stand_in()

SABOTEUR_LIKE = types.SimpleNamespace(
    name="saboteur",
    title="Saboteur",
    min_players=3,
    max_players=10,
    tables=("games", "seats", "rounds"),
    headline=Headline("miners' round-win rate", pl.col("miner_rounds"), pl.col("rounds")),
    summary=(("avg rounds won by saboteurs", (pl.col("rounds") - pl.col("miner_rounds")).mean()),
             ("avg turns", pl.col("turns").mean())),
    strategy_names=lambda: ["default", "greedy", "careful"],
    target=Target(0.5, above="miners", below="saboteurs", sides=("the miners", "the saboteurs")),
    # the columns the ladder's section looks for (roles per round)
    columns={"rounds": (Column("role", "miner or saboteur"),
                        Column("winner_team", "miners or saboteurs"))},
    # Saboteur's own report sections and Answer driver, as the real game declares them
    report_sections=saboteur_report.SECTIONS, compare_sections=saboteur_report.COMPARE_SECTIONS,
    driver=saboteur_report.DRIVER,
)


DUEL = types.SimpleNamespace(
    name="duel", title="Duel", min_players=2, max_players=2, tables=("games", "seats"),
    headline=Headline("decided rate", (~pl.col("stalled")).cast(pl.Int64), pl.lit(1)),
    summary=(),
    strategy_names=lambda: ["greedy", "random", "careful"],
)
FAKES = {"saboteur": SABOTEUR_LIKE, "duel": DUEL}


@pytest.fixture(autouse=True, scope="module")
def saboteur_like():
    """Makes the reports see a Saboteur-shaped game (and a two-player Duel) whatever the
    engines' state, in these tests only (a module at a time: the tests run after them in the
    same process read the real games)."""
    from reports import runs

    real = runs.game_named

    def game_named(name):
        return FAKES[name] if name in FAKES else real(name)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(runs, "game_named", game_named)
        yield SABOTEUR_LIKE


def saboteur_tables(setups: list[Setup], games: int, seed: int = 1) -> dict[str, pl.DataFrame]:
    """Gives random but well-formed games/seats/rounds tables for the setups."""
    rng = np.random.default_rng(seed)
    g_rows, s_rows, r_rows = [], [], []
    gid = 0
    for sid, setup in enumerate(setups):
        n = setup.players
        fixed = setup.option("saboteurs")
        for _ in range(games):
            stalled = bool(rng.random() < 0.05)
            gold = np.zeros(n, int)
            miner_rounds = 0
            total_turns = 0
            for rnd in (1, 2, 3):
                sabs = fixed if fixed is not None else int(rng.integers(1, max(2, n // 2)))
                roles = np.array(["miner"] * n, dtype=object)
                roles[rng.choice(n, sabs, replace=False)] = "saboteur"
                miners_win = bool(rng.random() < 0.4 + 0.2 * (seed % 2) + 0.03 * (n - sabs))
                miner_rounds += miners_win
                turns = int(rng.integers(20, 60))
                total_turns += turns
                finder = int(rng.choice(np.flatnonzero(roles == "miner"))) if miners_win else None
                for seat in range(n):
                    if miners_win:
                        gained = int(rng.integers(1, 5)) if roles[seat] == "miner" else 0
                    else:
                        gained = (4 if sabs == 1 else 3) if roles[seat] == "saboteur" else 0
                    gold[seat] += gained
                    r_rows.append((gid, sid, rnd, n, sabs, seat, roles[seat],
                                   "miners" if miners_win else "saboteurs", gained, turns, finder))
            best = gold.max()
            ranks = np.array([1 + int((gold > g).sum()) for g in gold])
            g_rows.append((gid, sid, n, stalled, total_turns, 3, miner_rounds, fixed))
            for seat in range(n):
                s_rows.append((gid, sid, n, seat, setup.seats[seat],
                               bool(gold[seat] == best and not stalled), int(gold[seat]),
                               int(ranks[seat])))
            gid += 1
    games_df = pl.DataFrame(g_rows, orient="row", schema={
        "game_id": pl.Int64, "setup": pl.Int16, "players": pl.Int8, "stalled": pl.Boolean,
        "turns": pl.Int32, "rounds": pl.Int16, "miner_rounds": pl.Int8, "saboteurs_fixed": pl.Int8})
    seats_df = pl.DataFrame(s_rows, orient="row", schema={
        "game_id": pl.Int64, "setup": pl.Int16, "players": pl.Int8, "seat": pl.Int8,
        "strategy": pl.Utf8, "won": pl.Boolean, "gold": pl.Int16, "rank": pl.Int8})
    rounds_df = pl.DataFrame(r_rows, orient="row", schema={
        "game_id": pl.Int64, "setup": pl.Int16, "round": pl.Int8, "players": pl.Int8,
        "saboteurs": pl.Int8, "seat": pl.Int8, "role": pl.Utf8, "winner_team": pl.Utf8,
        "gold_gained": pl.Int16, "turns": pl.Int32, "finder_seat": pl.Int8})
    return {"games": games_df, "seats": seats_df, "rounds": rounds_df}


def write_run(path: Path, setups: list[Setup], tables: dict[str, pl.DataFrame],
              game: str = "saboteur", shards: int = 2, seed: int = 1) -> Path:
    """Writes a run folder: manifest.json and each table split into `shards` Parquet shards."""
    path.mkdir(parents=True, exist_ok=True)
    n = tables["games"].height if "games" in tables else 0
    manifest = {
        "format": 1, "game": game, "created": "2026-01-01T00:00:00Z", "command": "test",
        "seed": seed, "games_per_setup": n // max(len(setups), 1), "chunk_size": 100,
        "rules": {}, "setups": [s.to_json() for s in setups], "versions": {},
        "git_revision": None, "games_requested": n, "games_done": n, "status": "complete",
    }
    (path / "manifest.json").write_text(json.dumps(manifest))
    for name, df in tables.items():
        (path / name).mkdir(exist_ok=True)
        size = -(-df.height // shards) if df.height else 0
        for i in range(shards):
            part = df.slice(i * size, size) if size else df
            part.write_parquet(path / name / f"chunk-{i:04d}.parquet")
            if not size:
                break
    return path


SETUPS = [
    Setup(4, ("default",) * 4),
    Setup(5, ("default",) * 5),
    Setup(5, ("default",) * 5, (("saboteurs", 2),)),
    Setup(7, ("default",) * 7, (("saboteurs", 2),)),
]


@pytest.fixture
def saboteur_run(tmp_path) -> Path:
    """A 4-configuration Saboteur-shaped run of 60 games per configuration."""
    return write_run(tmp_path / "run", SETUPS, saboteur_tables(SETUPS, 60))


@pytest.fixture(scope="module")
def shared_saboteur_run(tmp_path_factory) -> Path:
    """The same run, written once per module, for tests that only read it."""
    return write_run(tmp_path_factory.mktemp("shared") / "run", SETUPS, saboteur_tables(SETUPS, 60))


def duel_tables(setups: list[Setup], games: int, strength: dict[str, float],
                seed: int = 3) -> dict[str, pl.DataFrame]:
    """Gives two-player games where seat i wins with odds strength[a] : strength[b]."""
    rng = np.random.default_rng(seed)
    g_rows, s_rows = [], []
    for sid, setup in enumerate(setups):
        a, b = setup.seats
        for i in range(games):
            gid = sid * games + i  # the runner's id_offset: configuration * games + index
            first = bool(rng.random() < strength[a] / (strength[a] + strength[b]))
            g_rows.append((gid, sid, 2, False, int(rng.integers(5, 30))))
            s_rows += [(gid, sid, 2, 0, a, first), (gid, sid, 2, 1, b, not first)]
    return {
        "games": pl.DataFrame(g_rows, orient="row", schema={
            "game_id": pl.Int64, "setup": pl.Int16, "players": pl.Int8, "stalled": pl.Boolean,
            "turns": pl.Int32}),
        "seats": pl.DataFrame(s_rows, orient="row", schema={
            "game_id": pl.Int64, "setup": pl.Int16, "players": pl.Int8, "seat": pl.Int8,
            "strategy": pl.Utf8, "won": pl.Boolean}),
    }


@pytest.fixture(scope="session")
def runkit():
    """The builders above, for tests that write their own runs (conftest is not importable)."""
    return types.SimpleNamespace(write=write_run, tables=saboteur_tables, duel=duel_tables,
                                 SETUPS=SETUPS, SABOTEUR=SABOTEUR_LIKE, DUEL=DUEL)
