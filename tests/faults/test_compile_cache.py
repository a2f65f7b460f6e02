"""The compile cache heals itself: a damaged entry (truncated, emptied, garbage, one byte
flipped, in an index `.nbi` or a data `.nbc` file) is dropped with one warning line and
compiled again, never a traceback, an exit 130 or a crash; a read-only cache folder is used
read-only, nothing written beside the source; a full disk under the cache names the cache.

Each case runs a fresh Python process on a small module of rules (sim/jit.py caches every
project function alike), as a new run of `simulate` loads the cache."""

import contextlib
import errno
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

RULES = '''from sim.jit import rule, small_rule


@small_rule
def square(x):
    return x * x


@rule
def sum_of_squares(x, y):
    return square(x) + square(y)


@rule
def double(x):
    return 2 * x
'''

MORE = '''

@rule
def triple(x):
    return 3 * x
'''

CALLS = ("import sys; sys.path.insert(0, sys.argv[1]); import cached_rules as r; "
         "print(r.sum_of_squares(3, 4), r.double(5), *([r.triple(2)] if hasattr(r, 'triple') else []))")


def play(source: Path, cache: Path) -> subprocess.CompletedProcess:
    """Runs the rules in a new process caching in `cache`; gives the process."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-c", CALLS, str(source)], capture_output=True,
                          text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """Gives the rules' source folder and a cache folder they were compiled into."""
    root = tmp_path_factory.mktemp("compile_cache")
    source = root / "src"
    source.mkdir()
    (source / "cached_rules.py").write_text(RULES)
    done = play(source, root / "cache")
    assert (done.returncode, done.stdout, done.stderr) == (0, "25 10\n", "")
    return source, root / "cache"


@pytest.fixture
def cache(compiled, tmp_path):
    """Gives a copy of the compiled cache folder (the source stays where it was compiled)."""
    copy = tmp_path / "cache"
    shutil.copytree(compiled[1], copy)
    return copy


def entry(cache: Path, pattern: str) -> Path:
    (found,) = cache.rglob(pattern)
    return found


def flip(content: bytes) -> bytes:
    """One byte changed, in the middle: in a data file, the function's object code, which
    numba would load and run (wrong code, or a crash)."""
    middle = len(content) // 2
    return content[:middle] + bytes([content[middle] ^ 0x10]) + content[middle + 1:]


DAMAGE = {
    "truncated": lambda content: content[:len(content) // 2],
    "empty": lambda content: b"",
    "garbage": lambda content: os.urandom(len(content)),
    "one byte flipped": flip,
}


@pytest.mark.parametrize("kind", ["nbi", "nbc"])
@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_entry_is_dropped_with_one_warning_and_compiled_again(compiled, cache, kind,
                                                                        damage):
    source, _ = compiled
    damaged = entry(cache, f"cached_rules.sum_of_squares-*.{kind}")
    damaged.write_bytes(DAMAGE[damage](damaged.read_bytes()))
    done = play(source, cache)
    assert (done.returncode, done.stdout) == (0, "25 10\n"), done.stderr
    assert done.stderr == (f"warning: a damaged entry of the compile cache was dropped and "
                           f"compiles again: {damaged}\n")
    if damage == "truncated":
        again = play(source, cache)  # healed: kept anew, loaded without a word
        assert (again.returncode, again.stdout, again.stderr) == (0, "25 10\n", "")


@pytest.fixture
def read_only(cache, tmp_path, tmpfs):
    """Gives the cache folder made read-only: a read-only tmpfs holding a copy of it, as root
    (root writes through permissions), else by its permissions."""
    if os.geteuid() != 0:
        for path in [cache, *cache.rglob("*")]:
            path.chmod(0o555 if path.is_dir() else 0o444)
        yield cache
        for path in [cache, *cache.rglob("*")]:
            path.chmod(0o755)
        return
    held = tmp_path / "held"
    shutil.copytree(cache, held)
    tmpfs(cache, "16m")
    shutil.copytree(held, cache, dirs_exist_ok=True)
    subprocess.run(["mount", "-o", "remount,ro", str(cache)], check=True)
    yield cache


def written_beside(source: Path) -> list[Path]:
    return list(source.rglob("*.nb[ic]"))


def test_a_read_only_cache_is_used_read_only_without_compiling(compiled, read_only):
    source, _ = compiled
    done = play(source, read_only)
    assert (done.returncode, done.stdout, done.stderr) == (0, "25 10\n", "")
    assert not written_beside(source)


def test_what_compiles_into_a_read_only_cache_is_not_written_elsewhere(compiled, read_only,
                                                                       tmp_path):
    source, _ = compiled
    more = tmp_path / "more"
    shutil.copytree(source, more)  # the same rules and one more, in another folder
    (more / "cached_rules.py").write_text(RULES + MORE)
    done = play(more, read_only)
    assert (done.returncode, done.stdout) == (0, "25 10 6\n"), done.stderr
    assert done.stderr.startswith(f"warning: the compile cache {read_only}")
    assert done.stderr.count("\n") == 1
    assert any(cause in done.stderr for cause in ("read-only file system", "permission denied"))
    assert not written_beside(more) and not written_beside(source)


def test_a_full_disk_under_the_cache_names_the_cache_and_the_run_goes_on(compiled, tmp_path,
                                                                        tmpfs):
    source, _ = compiled
    disk = tmp_path / "disk"
    disk.mkdir()
    tmpfs(disk, "64k")
    with open(disk / "filler", "wb", buffering=0) as filler:  # the disk full
        for size in (4096, 1):
            with contextlib.suppress(OSError):
                while True:
                    filler.write(b"\0" * size)
    done = play(source, disk)
    assert (done.returncode, done.stdout) == (0, "25 10\n"), done.stderr
    assert done.stderr.startswith(f"warning: the compile cache {disk}/numba-")
    assert "no space left on device" in done.stderr and done.stderr.count("\n") == 1
    assert not written_beside(source)


def test_an_os_error_keeping_a_compile_is_one_warning_naming_the_cache(tmp_path, monkeypatch,
                                                                        capsys):
    """The same where no tmpfs can be mounted: the cache's writes fail as on a full disk."""
    import sim.jit

    def full(self, path, value):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)

    monkeypatch.setattr(sim.jit._CheckedCacheFile, "_write", full)
    monkeypatch.setattr(sim.jit, "_warned", set())
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "full_disk_rules.py"
    source.write_text("from sim.jit import rule\n\n\n@rule\ndef halve(x):\n    return x // 2\n")
    sys.path.insert(0, str(tmp_path))
    monkeypatch.setattr(sys, "path", sys.path)
    import full_disk_rules

    assert full_disk_rules.halve(9) == 4
    err = capsys.readouterr().err
    assert err.startswith(f"warning: the compile cache {tmp_path / 'cache'}/numba-")
    assert err.endswith("(no space left on device): it compiles again next run\n")
