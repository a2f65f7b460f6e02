"""Run folders: a manifest, one Parquet shard per chunk of games per table, one record per chunk.

Layout: RUN/manifest.json, RUN/<table>/s{setup:03d}-g{start:09d}.parquet (so that
`pl.scan_parquet("RUN/seats/*.parquet")` reads a whole table) and RUN/chunks/s...-g....json.
Every file is written under a `.tmp-` name (which no `*.parquet` glob matches) and renamed into
place. A chunk's record is written last, with its headline counts (and the per-game sums of
squares adaptive stopping takes its design effect from), each table's row count and checksum:
a chunk is done exactly when its record is there and every shard it names is whole, so
resuming replays any chunk a piece of which is missing, truncated or damaged.

The manifest carries a hash of the run's parameters (game, rules, setups, seed, games, chunk
size, stopping rule), and each record the hash of its run: a hand-edited manifest is refused,
and a record of other parameters is never taken for one of this run. One process at a time
writes a run folder: it holds a lock on RUN/.lock (released by the system if it dies).
"""

from __future__ import annotations

import errno
import fcntl
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
_SHARD = re.compile(r"s(\d{3})-g(\d{9})\.parquet")
# What a run's games depend on: changing any of them makes its stored chunks another run's.
PARAMETERS = ("format", "game", "rules", "setups", "seed", "games_per_setup", "chunk_size",
              "until_ci")


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
                 chunk_size: int, command: str, until_ci: float | None = None) -> dict:
    """Gives the manifest of a run about to start: everything needed to repeat or resume it."""
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
    # Hashed as it will be read back (JSON turns tuples into lists).
    manifest["parameters_hash"] = parameters_hash(json.loads(json.dumps(manifest)))
    return manifest


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
        if manifest.get("format") == FORMAT and \
                manifest.get("parameters_hash") != parameters_hash(manifest):
            raise UserError(f"{path / MANIFEST} was edited: its run parameters no longer match "
                            "the hash saved with them; put back the original file, or start a "
                            "new run")
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
        files of stopped writers, chunks with a missing or damaged piece (so they are played
        again) and Parquet files of no chunk the run may play are removed. UserError if
        another process writes the run, the folder is read-only, or the run is of an earlier
        format."""
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
                self.remove_strays()
            except OSError as e:
                raise UserError(_os_error(f"cannot write to the run folder {self.path}", e)) from None
        except BaseException:
            self.unlock()
            raise

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
        """Gives every chunk the run may play, in order."""
        m = self.manifest
        return plan(len(m["setups"]), m["games_per_setup"], m["chunk_size"])

    def records(self) -> dict[Chunk, dict]:
        """Gives the record of every chunk recorded as done for this run (by its chunk); records
        that cannot be read or belong to other parameters are left out."""
        folder = self.path / RECORDS
        names = set(os.listdir(folder)) if folder.is_dir() else set()
        found = {}
        for chunk in self.plan():
            name = record_name(chunk.setup, chunk.start)
            if name not in names:
                continue
            try:
                record = json.loads((folder / name).read_text())
            except (OSError, ValueError):
                continue  # cut short: the chunk is not done
            ours = self.manifest.get("parameters_hash")
            if isinstance(record, dict) and record.get("run") == ours \
                    and record.get("stop") == chunk.stop and isinstance(record.get("tables"), dict):
                found[chunk] = record
        return found

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
        (reading every shard), or whose record does not hold its games, each with what is
        wrong, in chunk order."""
        damaged = {}
        for chunk, record in self.records().items():
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
        return damaged

    def drop(self, chunk: Chunk) -> None:
        """Deletes a chunk's record, then its shards: it is to be played again, or not kept."""
        (self.path / RECORDS / record_name(chunk.setup, chunk.start)).unlink(missing_ok=True)
        for folder in self._table_folders():
            (folder / shard_name(chunk.setup, chunk.start)).unlink(missing_ok=True)

    def _table_folders(self) -> list[Path]:
        return [p for p in self.path.iterdir() if p.is_dir() and p.name != RECORDS
                and not p.name.startswith(".") and p.name != "report"]

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
        for shard in sorted(self.path.glob("*/*.parquet")):
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

    def remove_strays(self) -> None:
        """Deletes the Parquet files in the table folders that are no shard of a chunk the run
        may play (foreign names, or shard names beyond its plan): `report` refuses a run
        holding any. Shards of planned chunks past a stopping point are the runner's to drop."""
        planned = {shard_name(c.setup, c.start) for c in self.plan()}
        for folder in self._table_folders():
            for shard in folder.glob("*.parquet"):
                if shard.name not in planned:
                    shard.unlink()

    def remove_temps(self) -> None:
        """Deletes the half-written files of writers that were stopped."""
        for temp in [*self.path.glob(f"{_TEMP}*"), *self.path.glob(f"*/{_TEMP}*")]:
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
