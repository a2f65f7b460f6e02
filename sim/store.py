"""Run folders: a manifest plus one Parquet shard per chunk of games per table.

Layout: RUN/manifest.json and RUN/<table>/s{setup:03d}-g{start:09d}.parquet, so that
`pl.scan_parquet("RUN/seats/*.parquet")` reads a whole table. Every file is written under a
`.tmp-` name (which no `*.parquet` glob matches) and renamed into place; a chunk's `games`
shard is renamed last, so a chunk is done exactly when its `games` shard exists.
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
from datetime import datetime
from importlib import metadata
from pathlib import Path

import polars as pl

import sim
from sim.errors import UserError
from sim.game import Setup

FORMAT = 1
MANIFEST = "manifest.json"
_TEMP = ".tmp-"
_SHARD = re.compile(r"s(\d{3})-g(\d{9})\.parquet")


def shard_name(setup: int, start: int) -> str:
    """Gives the file name of the shard holding the chunk starting at game `start` of a setup."""
    return f"s{setup:03d}-g{start:09d}.parquet"


def write_chunk(run_path: Path, shards: dict[str, bytes], setup: int, start: int) -> None:
    """Writes one chunk's Parquet shards (by table), each atomically, the `games` shard last."""
    for table in sorted(shards, key=lambda name: name == "games"):
        folder = run_path / table
        folder.mkdir(exist_ok=True)
        final = folder / shard_name(setup, start)
        temp = folder / f"{_TEMP}{final.name}.{os.getpid()}"
        temp.write_bytes(shards[table])
        os.replace(temp, final)


def new_manifest(game: str, rules: dict, setups: list[Setup], seed: int, games_per_setup: int,
                 chunk_size: int, command: str, until_ci: float | None = None) -> dict:
    """Gives the manifest of a run about to start: everything needed to repeat or resume it."""
    return {
        "format": FORMAT,
        "game": game,
        "created": datetime.now().astimezone().isoformat(timespec="seconds"),
        "command": command,
        "seed": seed,
        "games_per_setup": games_per_setup,
        "chunk_size": chunk_size,
        "until_ci": until_ci,
        "rules": rules,
        "setups": [s.to_json() for s in setups],
        "versions": _versions(),
        "git_revision": _git_revision(),
        "games_requested": games_per_setup * len(setups),
        "games_done": 0,
        "status": "running",
        "elapsed_seconds": 0.0,
    }


def _versions() -> dict[str, str]:
    """Gives the versions of Python and of the packages a run's results depend on."""
    versions = {"python": platform.python_version()}
    for package in ("tabletop-balance", "numpy", "numba", "polars"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = sim.__version__ if package == "tabletop-balance" else None
    return versions


def _git_revision() -> str | None:
    """Gives the commit of the repository this package runs from, or None outside a checkout."""
    repo = Path(__file__).resolve().parent.parent
    if not (repo / ".git").exists():
        return None  # installed copy: git would report some enclosing repository instead
    try:
        done = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    revision = done.stdout.strip()
    return revision if done.returncode == 0 and revision else None


class Run:
    """A run folder: its manifest, its setups and its tables."""

    def __init__(self, path: Path, manifest: dict, created: Path | None = None):
        self.path = path
        self.manifest = manifest
        self._created = created  # topmost folder this process made for the run, if any

    @classmethod
    def open(cls, path: str | Path) -> "Run":
        """Gives the run stored in `path`; UserError if it is not a readable run folder."""
        path = Path(path)
        file = path / MANIFEST
        if not file.is_file():
            raise UserError(f"{path} is not a run folder (it has no {MANIFEST})")
        try:
            manifest = json.loads(file.read_text())
        except (OSError, ValueError) as e:
            raise UserError(f"cannot read {file}: {e}") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise UserError(f"{file} is not a format-{FORMAT} run manifest")
        return cls(path, manifest)

    @classmethod
    def open_for_writing(cls, path: str | Path) -> "Run":
        """Gives the run stored in `path`, rid of the temporary files an interrupted writer left."""
        run = cls.open(path)
        run.remove_temps()
        return run

    @classmethod
    def create(cls, path: str | Path, manifest: dict) -> "Run":
        """Gives a new run folder at `path` holding `manifest`; UserError if it cannot be made."""
        path = Path(path)
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            raise UserError(f"{path} already exists; choose another --out"
                            f" or continue it with 'simulate resume {path}'")
        created = next((p for p in reversed([path, *path.parents]) if not p.exists()), None)
        run = cls(path, manifest, created)
        try:
            path.mkdir(parents=True, exist_ok=True)
            run.save()
        except OSError as e:
            run.discard()
            raise UserError(f"cannot write the run folder {path}: {e.strerror}") from None
        return run

    @property
    def game(self) -> str:
        return self.manifest["game"]

    @property
    def setups(self) -> list[Setup]:
        return [Setup.from_json(s) for s in self.manifest["setups"]]

    def scan(self, table: str) -> pl.LazyFrame:
        """Gives a lazy frame over every shard of `table`."""
        if not any((self.path / table).glob("*.parquet")):
            raise UserError(f"run {self.path} has no games yet")
        return pl.scan_parquet(str(self.path / table / "*.parquet"))

    def done_chunks(self) -> set[tuple[int, int]]:
        """Gives the (setup, start) of every finished chunk."""
        folder = self.path / "games"
        names = (m for m in map(_SHARD.fullmatch, os.listdir(folder)) if m) if folder.is_dir() else ()
        return {(int(m[1]), int(m[2])) for m in names}

    def check_shards(self) -> None:
        """Raises UserError naming the first shard that is not a readable Parquet file."""
        for shard in sorted(self.path.glob("*/*.parquet")):
            try:
                pl.read_parquet_schema(shard)
            except Exception as e:  # polars raises several kinds for a damaged file
                raise UserError(f"cannot read shard {shard} ({str(e).splitlines()[0] if str(e) else type(e).__name__}); "
                                "delete it, and 'simulate resume' plays its games again") from None

    def save(self) -> None:
        """Writes the manifest atomically."""
        temp = self.path / f"{_TEMP}{MANIFEST}"
        temp.write_text(json.dumps(self.manifest, indent=2) + "\n")
        os.replace(temp, self.path / MANIFEST)

    def remove_temps(self) -> None:
        """Deletes the half-written files of writers that were stopped."""
        for temp in [*self.path.glob(f"{_TEMP}*"), *self.path.glob(f"*/{_TEMP}*")]:
            temp.unlink(missing_ok=True)

    def discard(self) -> None:
        """Deletes what this process created for the run (used when not one game was kept)."""
        if self._created is not None:
            shutil.rmtree(self._created, ignore_errors=True)
        elif self.path.is_dir():
            # The folder existed (empty) before the run: leave it as it was.
            for entry in self.path.iterdir():
                if entry.is_dir():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
