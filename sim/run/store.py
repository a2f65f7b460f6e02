"""Run folders: a manifest, one Parquet shard per chunk of games per table, one record per chunk.

Layout: RUN/manifest.json, RUN/<table>/s{setup:03d}-g{start:09d}.parquet (so that
`pl.scan_parquet("RUN/seats/*.parquet")` reads a whole table) and RUN/chunks/s...-g....json.
Every file is written under a `.tmp-` name (which no `*.parquet` glob matches) and renamed into
place. A chunk's record is written last, with its headline counts (and the per-game sums of
squares adaptive stopping takes its design effect from), each table's row count and checksum:
a chunk is done exactly when its record is there and every shard it names is whole, so
resuming replays any chunk a piece of which is missing, truncated or damaged.

The manifest carries a hash of the run's parameters (game, rules, setups, seed, games, chunk
size, stopping rule, and the code its games ran: sim/run/sources.py), and each record the hash
of its run: a hand-edited manifest is refused, and a record of other parameters is never taken
for one of this run. A record that is not whole (a table's entry or a field missing, a value of
the wrong kind) makes its chunk damaged, never a chunk with fewer tables. One process at a time
writes a run folder: it holds a lock on RUN/.lock (released by the system if it dies). A writer
deletes only the files of the chunks it plays again and its own temporary files: a file in the
folder that no chunk record names is left as it is (`audit` names it).
"""

from __future__ import annotations

import errno
import fcntl
import functools
import hashlib
import json
import os
import platform
import re
import secrets
import shutil
import subprocess
from datetime import datetime
from importlib import metadata
from pathlib import Path

import polars as pl

import sim
from sim.run.chunks import Chunk, Played, plan, stopping_point
from sim.errors import UserError
from sim.game import Setup

FORMAT = 2
LEGACY_FORMAT = 1  # before chunk records: reported as it is, not resumed
MANIFEST = "manifest.json"
RECORDS = "chunks"
LOCK = ".lock"
_TEMP = ".tmp-"
_TABLE = re.compile(r"[a-z][a-z0-9_]*")  # a table's name: a folder of the run, never a path
_SHARD = re.compile(r"s(\d{3})-g(\d{9})\.parquet")
# The temporary names _write_atomically gives (before the writer's random part existed: pid only).
_TEMP_NAME = re.compile(r"\.tmp-(manifest\.json|s\d{3}-g\d{9}\.(parquet|json))\.\d+(\.[0-9a-f]{8})?")
# Every game's first two tables (sim.game.Game.tables): every chunk record names them.
TABLES = ("games", "seats")
# What a run's games depend on: changing any of them makes its stored chunks another run's.
PARAMETERS = ("format", "game", "rules", "setups", "seed", "games_per_setup", "chunk_size",
              "until_ci")
# Hashed with them when the manifest has them (runs from before they existed keep their hash):
# the code the games ran, and what a run started with `resume --force` continues.
RECORDED = ("code", "continues")


def shard_name(setup: int, start: int) -> str:
    """Gives the file name of the shard holding the chunk starting at game `start` of a setup."""
    return f"s{setup:03d}-g{start:09d}.parquet"


def unstarted(path: Path) -> bool:
    """Tells whether `path` is a folder a run was stopped in before it wrote its manifest: it
    holds the lock file and nothing else (a new run may start there)."""
    try:
        return [entry.name for entry in Path(path).iterdir()] == [LOCK]
    except OSError:
        return False


def record_name(setup: int, start: int) -> str:
    """Gives the file name of the record of the chunk starting at game `start` of a setup."""
    return f"s{setup:03d}-g{start:09d}.json"


def parameters_hash(manifest: dict) -> str:
    """Gives the hash of the parameters a run's games depend on, as its manifest states them."""
    parameters = {key: manifest.get(key) for key in PARAMETERS}
    parameters |= {key: manifest[key] for key in RECORDED if key in manifest}
    return hashlib.sha256(json.dumps(parameters, sort_keys=True).encode()).hexdigest()


def _write_atomically(final: Path, data: bytes) -> None:
    # A name no other writer uses: two processes never share a temporary file.
    temp = final.parent / f"{_TEMP}{final.name}.{os.getpid()}.{secrets.token_hex(4)}"
    temp.write_bytes(data)
    os.replace(temp, final)


def write_chunk(run_path: Path, played: Played, shards: dict[str, bytes]) -> None:
    """Writes one chunk's Parquet shards (by table), each atomically, then its chunk record,
    which makes the chunk done."""
    chunk = played.chunk
    tables = {}
    for table, data in shards.items():
        folder = run_path / table
        folder.mkdir(exist_ok=True)
        _write_atomically(folder / shard_name(chunk.setup, chunk.start), data)
        tables[table] = {"rows": played.rows[table], "bytes": len(data),
                         "sha256": hashlib.sha256(data).hexdigest()}
    record = {"run": played.run, "setup": chunk.setup, "start": chunk.start, "stop": chunk.stop,
              "successes": played.successes, "trials": played.trials, "sums": list(played.sums),
              "tables": tables}
    (run_path / RECORDS).mkdir(exist_ok=True)
    _write_atomically(run_path / RECORDS / record_name(chunk.setup, chunk.start),
                      (json.dumps(record, indent=1) + "\n").encode())


def new_manifest(game: str, rules: dict, setups: list[Setup], seed: int, games_per_setup: int,
                 chunk_size: int, command: str, until_ci: float | None = None,
                 code: dict | None = None, continues: dict | None = None) -> dict:
    """Gives the manifest of a run about to start: everything needed to repeat or resume it
    (`code`: sim/run/sources.py's fingerprint; `continues`: the run folder and the chunks of it
    a `resume --force` plays)."""
    manifest = {
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
    if code is not None:
        manifest["code"] = code
    if continues is not None:
        manifest["continues"] = continues
        manifest["games_requested"] = sum(stop - start for _, start, stop in continues["chunks"])
    # Hashed as it will be read back (JSON turns tuples into lists).
    manifest["parameters_hash"] = parameters_hash(json.loads(json.dumps(manifest)))
    return manifest


def resumed_now(manifest: dict) -> None:
    """Adds to the manifest's list of resumes when and from which revision and versions this
    process goes on with the run (its `git_revision` stays the one it started from)."""
    manifest.setdefault("resumes", []).append({
        "at": datetime.now().astimezone().isoformat(timespec="seconds"),
        "git_revision": _git_revision(), "versions": _versions()})


def version() -> str | None:
    """Gives the version of tabletop-balance running now."""
    return _versions()["tabletop-balance"]


def _versions() -> dict[str, str]:
    """Gives the versions of Python and of the packages a run's results depend on."""
    return dict(_versions_read())


@functools.cache
def _versions_read() -> dict[str, str]:
    """Gives what `_versions` gives, read once a process: each version reads a package's
    metadata file, and a run's start asks twice (its manifest, its code's fingerprint)."""
    versions = {"python": platform.python_version()}
    for package in ("tabletop-balance", "numpy", "numba", "polars"):
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = sim.__version__ if package == "tabletop-balance" else None
    return versions


def _git_revision() -> str | None:
    """Gives the commit of the repository this package runs from, or None outside a checkout."""
    repo = Path(sim.__file__).resolve().parent.parent
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
    """A run folder: its manifest, its setups, its chunk records and its tables."""

    def __init__(self, path: Path, manifest: dict, created: Path | None = None):
        self.path = path
        self.manifest = manifest
        self._created = created  # topmost folder this process made for the run, if any
        self._lock: int | None = None  # the lock file's descriptor while this process writes

    @classmethod
    def open(cls, path: str | Path) -> "Run":
        """Gives the run stored in `path`; UserError if it is not a readable run folder or its
        manifest was edited."""
        path = Path(path)
        manifest = _read_manifest(path)
        # Only a run of the format before hashes has none to check: a manifest saying so in a
        # folder of chunk records, or holding a hash, was edited.
        hashed = (manifest.get("format") != LEGACY_FORMAT or "parameters_hash" in manifest
                  or (path / RECORDS).exists())
        if hashed and manifest.get("parameters_hash") != parameters_hash(manifest):
            raise UserError(f"{path / MANIFEST} was edited: its run parameters no longer match "
                            "the hash saved with them; put back the original file, or start a "
                            "new run")
        _check_kinds(path / MANIFEST, manifest)
        return cls(path, manifest)

    @classmethod
    def create(cls, path: str | Path, manifest: dict) -> "Run":
        """Gives a new run folder at `path` holding `manifest`, locked for writing by this
        process; UserError if it cannot be made."""
        path = Path(path)
        if path.exists() and (not path.is_dir() or (any(path.iterdir()) and not unstarted(path))):
            hint = (f" or continue it with 'simulate resume {path}'"
                    if (path / MANIFEST).is_file() else "")
            raise UserError(f"{path} already exists; choose another --out{hint}")
        created = next((p for p in reversed([path, *path.parents]) if not p.exists()), None)
        run = cls(path, manifest, created)
        try:
            path.mkdir(parents=True, exist_ok=True)
            run._take_lock()
            if (path / MANIFEST).exists():  # another run was started there meanwhile
                run.unlock()
                raise UserError(f"{path} already exists; choose another --out")
            run.save()
        except OSError as e:
            run.discard()
            raise UserError(_os_error(f"cannot write the run folder {path}", e)) from None
        return run

    def start_writing(self) -> None:
        """Makes this process the run's only writer, and the folder ready to go on: temporary
        files of stopped writers and chunks with a missing or damaged piece (so they are played
        again) are removed; nothing else is. UserError if another process writes the run, the
        folder is read-only, or the run is of an earlier format."""
        if self.manifest.get("format") != FORMAT:
            raise UserError(f"{self.path} was written by an earlier version of simulate (run "
                            f"format {self.manifest.get('format')}, without chunk records): it "
                            "can be reported but not resumed; start the run again in a new --out")
        try:
            try:
                self._take_lock()
                self.manifest = Run.open(self.path).manifest  # as the writer before us left it
                self.remove_temps()
                for chunk in self.damaged_chunks():
                    self.drop(chunk)
            except OSError as e:
                raise UserError(_os_error(f"cannot write to the run folder {self.path}", e)) from None
        except BaseException:
            self.unlock()
            raise

    def hold(self) -> None:
        """Makes this process the run's only writer, changing nothing in it (UserError if
        another process writes it)."""
        try:
            self._take_lock()
        except OSError as e:
            raise UserError(_os_error(f"cannot lock the run folder {self.path}", e)) from None

    def _take_lock(self) -> None:
        descriptor = os.open(self.path / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(descriptor, 32).decode(errors="replace").strip() or "unknown"
            os.close(descriptor)
            raise UserError(f"{self.path} is being written by another simulate (process "
                            f"{holder}); wait for it to end, or stop it, then retry") from None
        os.ftruncate(descriptor, 0)
        os.write(descriptor, f"{os.getpid()}\n".encode())
        self._lock = descriptor

    def unlock(self) -> None:
        """Lets another process write the run (the lock file stays: removing it would race)."""
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None

    def writer(self) -> str | None:
        """Gives the process id of the process writing the run now, else None."""
        try:
            descriptor = os.open(self.path / LOCK, os.O_RDONLY)
        except OSError:
            return None
        try:
            fcntl.flock(descriptor, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return None
        except BlockingIOError:
            return os.read(descriptor, 32).decode(errors="replace").strip() or "unknown"
        finally:
            os.close(descriptor)

    @property
    def game(self) -> str:
        return self.manifest["game"]

    @property
    def setups(self) -> list[Setup]:
        return [Setup.from_json(s) for s in self.manifest["setups"]]

    @property
    def legacy(self) -> bool:
        """Whether the run predates chunk records (its shards are all it has)."""
        return self.manifest.get("format") == LEGACY_FORMAT

    def plan(self) -> list[Chunk]:
        """Gives every chunk the run may play, in order (a run continuing another with `resume
        --force`: the chunks that one was missing)."""
        m = self.manifest
        chunks = plan(len(m["setups"]), m["games_per_setup"], m["chunk_size"])
        if "continues" in m:
            own = {tuple(c) for c in m["continues"]["chunks"]}
            chunks = [c for c in chunks if (c.setup, c.start, c.stop) in own]
        return chunks

    def records(self) -> dict[Chunk, dict]:
        """Gives the record of every chunk recorded as done for this run (by its chunk); records
        that are not whole records of this run's chunk are left out (`unusable_records`)."""
        return self._read_records()[0]

    def unusable_records(self) -> dict[Chunk, str]:
        """Gives the chunks of the plan whose record is there but cannot be used, each with
        why: cut short, of other parameters, a field or a table's entry missing or of the wrong
        kind."""
        return self._read_records()[1]

    def _read_records(self) -> tuple[dict[Chunk, dict], dict[Chunk, str]]:
        folder = self.path / RECORDS
        names = set(os.listdir(folder)) if folder.is_dir() else set()
        found, unusable = {}, {}
        for chunk in self.plan():
            name = record_name(chunk.setup, chunk.start)
            if name not in names:
                continue
            try:
                record = json.loads((folder / name).read_text())
            except (OSError, ValueError):
                unusable[chunk] = f"the chunk record {folder / name} cannot be read (cut short?)"
                continue
            why = _record_fault(record, chunk, self.manifest.get("parameters_hash"))
            if why:
                unusable[chunk] = f"the chunk record {folder / name} {why}"
            else:
                found[chunk] = record
        # Every chunk has every table of its game: a record without one would leave its games
        # out of that table alone. (A game that cannot be loaded here has at least the tables
        # every game has, and those some chunk has.)
        declared = self._game_tables
        tables = declared or set(TABLES).union(*(r["tables"] for r in found.values()))
        for chunk, record in list(found.items()):
            name = folder / record_name(chunk.setup, chunk.start)
            lacking = sorted(tables - record["tables"].keys())
            foreign = sorted(record["tables"].keys() - tables)
            if lacking or foreign:
                del found[chunk]
                unusable[chunk] = (f"the chunk record {name} names no {lacking[0]} shard" if lacking
                                   else f"the chunk record {name} names a table {foreign[0]!r} "
                                        f"{self.game} does not write")
        return found, dict(sorted(unusable.items(), key=lambda item: (item[0].setup, item[0].start)))

    @functools.cached_property
    def _game_tables(self) -> set[str] | None:
        """Gives the tables the run's game writes, None when the game cannot be loaded here."""
        from sim import games

        try:
            return set(games.get(self.game).tables)
        except UserError:
            return None

    def shard(self, table: str, chunk: Chunk) -> Path:
        """Gives the path of a chunk's shard of `table`."""
        return self.path / table / shard_name(chunk.setup, chunk.start)

    def done_chunks(self) -> set[tuple[int, int]]:
        """Gives the (setup, start) of every finished chunk: recorded, every shard it names
        there at its recorded size (checksums are for `damaged_chunks`)."""
        if self.legacy:
            folder = self.path / "games"
            names = (m for m in map(_SHARD.fullmatch, os.listdir(folder)) if m) \
                if folder.is_dir() else ()
            return {(int(m[1]), int(m[2])) for m in names}
        return {(c.setup, c.start) for c, record in self.records().items()
                if all(_size(self.shard(t, c)) == piece.get("bytes")
                       for t, piece in record["tables"].items())}

    def counts(self) -> dict[Chunk, tuple[float, ...]]:
        """Gives the headline (successes, trials, Σs², Σt², Σs·t) of every finished chunk
        (`Played`). A record written before the sums were recorded has them summed from its
        chunk's games shard; a chunk whose shard cannot be read then counts as unplayed."""
        done = self.done_chunks()
        counts = {}
        for chunk, record in self.records().items():
            if (chunk.setup, chunk.start) not in done:
                continue
            sums = record.get("sums")
            if not (isinstance(sums, list) and len(sums) == 3):
                sums = self._sums_from_shard(chunk)
                if sums is None:
                    continue
            counts[chunk] = (record["successes"], record["trials"], *sums)
        return counts

    def _sums_from_shard(self, chunk: Chunk) -> tuple[float, float, float] | None:
        """Gives Σs², Σt², Σs·t of the headline over the chunk's games, read from its games
        shard (None if it cannot be read)."""
        from sim import games

        s, t = pl.col("__s"), pl.col("__t")
        try:
            row = (pl.read_parquet(self.shard("games", chunk))
                   .select(*games.get(self.game).headline.per_game())
                   .select((s * s).sum(), (t * t).sum().alias("tt"), (s * t).sum().alias("st"))
                   .row(0))
        except Exception:  # polars raises several kinds for a damaged file
            return None
        return tuple(float(x or 0) for x in row)

    def damaged_chunks(self) -> dict[Chunk, str]:
        """Gives the recorded chunks a piece of which is missing or differs from its record
        (reading every shard), or whose record is unusable or does not hold its games, each
        with what is wrong, in chunk order."""
        records, damaged = self._read_records()
        for chunk, record in records.items():
            if record["tables"].get("games", {}).get("rows") != chunk.games:
                damaged[chunk] = (f"the chunk record {self.path / RECORDS / record_name(chunk.setup, chunk.start)} "
                                  f"does not hold its {chunk.games} games")
                continue
            for table, piece in sorted(record["tables"].items()):
                shard = self.shard(table, chunk)
                try:
                    data = shard.read_bytes()
                except FileNotFoundError:
                    damaged[chunk] = f"shard {shard} is missing"
                    break
                if len(data) != piece.get("bytes"):
                    damaged[chunk] = (f"shard {shard} is damaged ({len(data):,} bytes, its chunk "
                                      f"record says {piece.get('bytes', 0):,})")
                    break
                if hashlib.sha256(data).hexdigest() != piece.get("sha256"):
                    damaged[chunk] = (f"shard {shard} is damaged (its checksum is not its chunk "
                                      "record's)")
                    break
        return dict(sorted(damaged.items(), key=lambda item: (item[0].setup, item[0].start)))

    def drop(self, chunk: Chunk) -> None:
        """Deletes a chunk's record, then its shards (in the run's tables): it is to be played
        again, or not kept."""
        record = self.path / RECORDS / record_name(chunk.setup, chunk.start)
        try:
            named = json.loads(record.read_text())["tables"]
            tables = {t for t in named if isinstance(t, str) and _TABLE.fullmatch(t)}
        except (OSError, ValueError, TypeError, KeyError):
            tables = set()  # shards it may have left are written over when it is played again
        record.unlink(missing_ok=True)
        for table in sorted(tables | set(TABLES)):
            (self.path / table / shard_name(chunk.setup, chunk.start)).unlink(missing_ok=True)

    def _table_folders(self) -> list[Path]:
        """Gives the folders of the run's tables: those its chunk records name (any other
        folder of the run is the user's)."""
        tables = set(TABLES).union(*(r["tables"] for r in self.records().values()))
        return [self.path / table for table in sorted(tables)
                if _TABLE.fullmatch(table) and (self.path / table).is_dir()]

    def kept_chunks(self) -> tuple[list[Chunk], bool]:
        """Gives the chunks the finished run keeps as far as the played ones tell (every chunk;
        with a stopping rule, each configuration's stopping point), and whether they tell it
        all (no chunk before a stopping point is unplayed)."""
        counts = self.counts()
        until_ci = self.manifest.get("until_ci")
        kept, known = [], True
        for setup in range(len(self.manifest["setups"])):
            own = [c for c in self.plan() if c.setup == setup]
            point = stopping_point(own, counts, until_ci)
            if point.final:
                kept += own[:point.chunks]
            else:
                known = False
                kept += own if until_ci is None else own[:point.chunks + 1]
        return kept, known

    def audit(self) -> list[tuple[str, str]]:
        """Gives what keeps the run from holding exactly the games it should, each with what to
        do about it, the most telling first; empty when the run is whole."""
        status = self.manifest.get("status")
        resume = f"continue it with 'simulate resume {self.path}'"
        found = []
        if status != "complete":
            writer = self.writer()
            said = (f"it is still being written (process {writer})" if writer
                    else "it was interrupted" if status == "interrupted"
                    else f"it stopped before it finished (status {status!r}: killed?)")
            found.append((said + self._games_told(), "wait for it to end" if writer else resume))
        if self.legacy:
            return found  # its shards are all it has: nothing more to check them against
        records = self.records()
        damaged = self.damaged_chunks()
        found += [(what, resume) for what in damaged.values()]
        kept, known = self.kept_chunks()
        missing = [c for c in kept if c not in records]
        if missing and status == "complete":
            first = missing[0]
            found.append((f"{len(missing)} chunk(s) of games are missing (the first: games "
                          f"{first.start}-{first.stop - 1} of configuration {first.setup})", resume))
        if known:
            names = {shard_name(c.setup, c.start) for c in kept}
            strays = sorted(shard for folder in self._table_folders()
                            for shard in folder.glob("*.parquet") if shard.name not in names)
            if strays:
                found.append((f"{strays[0]} belongs to no chunk the run keeps"
                              + (f" (nor do {len(strays) - 1} more)" if len(strays) > 1 else ""),
                              "remove it, or start the run again"))
        if status == "complete" and known:
            held = sum(c.games for c in kept if c in records)
            if held != self.manifest.get("games_done"):
                found.append((f"its manifest says {self.manifest.get('games_done')} games are done, "
                              f"its chunk records hold {held:,}", resume))
        return found

    def _games_told(self) -> str:
        """Gives ': N of M games' for a run that did not finish."""
        held = (self.manifest.get("games_done", 0) if self.legacy
                else sum(c.games for c in self.records()))
        most = self.manifest.get("games_requested", 0)
        return f": {held:,} of {'at most ' if self.manifest.get('until_ci') else ''}{most:,} games"

    def scan(self, table: str) -> pl.LazyFrame:
        """Gives a lazy frame over the shards of `table` of every finished chunk."""
        if self.legacy:
            shards = sorted((self.path / table).glob("*.parquet"))
        else:
            done = self.done_chunks()
            shards = [self.shard(table, c) for c, r in self.records().items()
                      if (c.setup, c.start) in done and table in r["tables"]]
        if not shards:
            raise UserError(f"run {self.path} has no games yet")
        return pl.scan_parquet([str(s) for s in shards])

    def check_shards(self) -> None:
        """Raises UserError naming the first shard that is not a readable Parquet file."""
        folders = [self.path] if self.legacy else self._table_folders()
        for shard in sorted(s for folder in folders
                            for s in folder.glob("*/*.parquet" if self.legacy else "*.parquet")):
            try:
                pl.read_parquet_schema(shard)
            except Exception as e:  # polars raises several kinds for a damaged file
                why = str(e).splitlines()[0] if str(e) else type(e).__name__
                remedy = ("the run must be played again" if self.legacy
                          else f"'simulate resume {self.path}' plays its games again")
                raise UserError(f"cannot read shard {shard} ({why}); {remedy}") from None

    def save(self) -> None:
        """Writes the manifest atomically."""
        _write_atomically(self.path / MANIFEST,
                          (json.dumps(self.manifest, indent=2) + "\n").encode())

    def remove_temps(self) -> None:
        """Deletes the half-written files of writers that were stopped (the temporary names
        they give, in the run's folder, its records' and its tables')."""
        for folder in (self.path, self.path / RECORDS, *self._table_folders()):
            for temp in folder.glob(f"{_TEMP}*"):
                if _TEMP_NAME.fullmatch(temp.name):
                    temp.unlink(missing_ok=True)

    def discard(self) -> None:
        """Deletes what this process created for the run (used when not one game was kept)."""
        self.unlock()
        if self._created is not None:
            shutil.rmtree(self._created, ignore_errors=True)
        elif self.path.is_dir():
            # The folder existed (empty) before the run: leave it as it was.
            for entry in self.path.iterdir():
                if entry.is_dir():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()


def check_apart(runs: list[Run]) -> None:
    """Raises UserError when one of `runs` continues another of them (`resume --force`): the
    two were played by different code, so their games are never pooled."""
    by_hash = {run.manifest.get("parameters_hash"): run for run in runs}
    for run in runs:
        if "continues" not in run.manifest:
            continue
        continued = by_hash.get(run.manifest["continues"].get("parameters_hash"))
        if continued is not None and continued is not run:
            raise UserError(f"{run.path} holds the games {continued.path} was missing, played "
                            "by other code ('simulate resume --force'): their games are not "
                            "pooled; report them one at a time")


def _record_fault(record, chunk: Chunk, run: str | None) -> str | None:
    """Gives what keeps `record` from being the whole record of `chunk` in the run whose
    parameter hash is `run`, in words (None when nothing does)."""
    if not isinstance(record, dict):
        return "is not a chunk record"
    if record.get("run") != run:
        return "belongs to a run of other parameters"
    for key in ("setup", "start", "stop"):
        if not _is_int(record.get(key)) or record[key] != getattr(chunk, key):
            return f"does not give its chunk's {key} ({getattr(chunk, key)})"
    for key in ("successes", "trials"):
        if not _is_number(record.get(key)):
            return f"gives no number of {key}"
    sums = record.get("sums", [])  # records from before the sums were kept have none
    if not (isinstance(sums, list) and all(map(_is_number, sums))):
        return "gives sums that are not numbers"
    tables = record.get("tables")
    if not isinstance(tables, dict):
        return "names no tables"
    for table, piece in tables.items():
        if not _TABLE.fullmatch(table):
            return f"names a table {table[:40]!r} that is no table name"
        if not (isinstance(piece, dict) and _is_int(piece.get("rows")) and
                _is_int(piece.get("bytes")) and isinstance(piece.get("sha256"), str)):
            return f"gives no rows, bytes and checksum for its {table} shard"
    return None


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# What a manifest's fields hold (those a run is read or resumed by), each with how to say it.
_KINDS = {
    "game": (lambda v: isinstance(v, str) and v != "", "a game's name"),
    "seed": (lambda v: _is_int(v) and v >= 0, "a seed (a whole number from 0)"),
    "games_per_setup": (lambda v: _is_int(v) and v > 0, "a number of games"),
    "chunk_size": (lambda v: _is_int(v) and v > 0, "a number of games"),
    "until_ci": (lambda v: v is None or _is_number(v), "a half-width or null"),
    "rules": (lambda v: isinstance(v, dict), "a table of rules"),
    "setups": (lambda v: isinstance(v, list) and len(v) > 0 and all(map(_is_setup, v)),
               "a list of configurations"),
    "status": (lambda v: isinstance(v, str), "a status"),
    "games_done": (_is_int, "a number of games"),
    "games_requested": (_is_int, "a number of games"),
    "elapsed_seconds": (_is_number, "a number of seconds"),
    "versions": (lambda v: isinstance(v, dict), "a table of versions"),
    "git_revision": (lambda v: v is None or isinstance(v, str), "a revision or null"),
    "command": (lambda v: isinstance(v, str), "a command line"),
    "created": (lambda v: isinstance(v, str), "a date"),
    "resumes": (lambda v: isinstance(v, list) and all(
        isinstance(r, dict) and (r.get("git_revision") is None or isinstance(r["git_revision"], str))
        for r in v), "a list of resumes"),
    "code": (lambda v: isinstance(v, dict) and isinstance(v.get("sources"), dict)
             and isinstance(v.get("bots"), dict), "a record of the run's code"),
    "continues": (lambda v: isinstance(v, dict) and isinstance(v.get("run"), str)
                  and isinstance(v.get("chunks"), list)
                  and all(isinstance(c, list) and len(c) == 3 and all(map(_is_int, c))
                          for c in v["chunks"]), "the run it continues and its chunks"),
}
_REQUIRED = ("game", "seed", "games_per_setup", "chunk_size", "rules", "setups")


def _is_setup(value) -> bool:
    try:
        setup = Setup.from_json(value)
    except Exception:  # whatever a hand-made entry makes from_json raise
        return False
    return _is_int(setup.players) and all(isinstance(seat, str) for seat in setup.seats)


def _check_kinds(file: Path, manifest: dict) -> None:
    """Raises UserError naming the first field of the manifest that is missing or holds a value
    of the wrong kind."""
    for key, (holds, what) in _KINDS.items():
        if key not in manifest and key not in _REQUIRED:
            continue
        value = manifest.get(key)
        if not holds(value):
            shown = json.dumps(value)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            said = "is missing" if key not in manifest else f"holds {shown}"
            raise UserError(f"{file}: {key} {said}, not {what}; put back the original file, "
                            "or start a new run")


def _read_manifest(path: Path) -> dict:
    """Gives the manifest of the run folder `path`; UserError if there is none to read."""
    file = path / MANIFEST
    if not file.is_file():
        if (path / RECORDS).is_dir():
            raise UserError(f"{path} has lost its {MANIFEST}: the run's parameters are gone, "
                            "so its games cannot be resumed or reported; start the run again")
        if unstarted(path):
            raise UserError(f"{path} holds no run: the one started there was stopped before it "
                            f"wrote its {MANIFEST}; start it again with the same command and "
                            f"--out {path}")
        raise UserError(f"{path} is not a run folder (it has no {MANIFEST})")
    try:
        manifest = json.loads(file.read_text())
    except (OSError, ValueError) as e:
        raise UserError(f"cannot read {file}: {e}") from None
    if not isinstance(manifest, dict) or manifest.get("format") not in (FORMAT, LEGACY_FORMAT):
        raise UserError(f"{file} is not a run manifest of format {LEGACY_FORMAT} or {FORMAT} "
                        "(made by another version of simulate?)")
    return manifest


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def _os_error(what: str, error: OSError) -> str:
    """Gives a one-line message naming an error of the operating system (EROFS, EACCES, ...)."""
    name = errno.errorcode.get(error.errno, "") if error.errno else ""
    return f"{what}: {error.strerror or error}" + (f" ({name})" if name else "")
