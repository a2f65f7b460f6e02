"""numba's cache is keyed by the engines' whole source: a change to a called module never
leaves a stale compiled caller in use."""

import importlib.util
import shutil
from pathlib import Path

import sim.jit

ROOT = Path(sim.jit.__file__).resolve().parents[1]


def load_copy(root: Path):
    spec = importlib.util.spec_from_file_location("jit_copy", root / "sim" / "jit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_change_to_any_engine_module_gives_another_cache_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(sim.jit.config, "CACHE_DIR", sim.jit.config.CACHE_DIR)  # the copy sets it
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "sim").mkdir()
    shutil.copy(ROOT / "sim" / "jit.py", tmp_path / "sim" / "jit.py")
    (tmp_path / "strategies").mkdir()
    callee = tmp_path / "strategies" / "callee.py"
    callee.write_text("X = 1\n")
    jit = load_copy(tmp_path)
    before = jit.cache_folder()
    assert before == jit.cache_folder()
    assert Path(before).parent == tmp_path / "cache" / "tabletop-balance"
    callee.write_text("X = 2\n")
    assert jit.cache_folder() != before


def test_a_change_to_the_machinery_around_the_engines_keeps_the_folder(tmp_path, monkeypatch):
    """The command line or the runner (modules directly in sim/ that jit nothing) compile
    nothing: editing them keeps the compiled engines; a module there that jits is an engine's."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(sim.jit.config, "CACHE_DIR", sim.jit.config.CACHE_DIR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "sim").mkdir()
    shutil.copy(ROOT / "sim" / "jit.py", tmp_path / "sim" / "jit.py")
    cli = tmp_path / "sim" / "cli.py"
    rng = tmp_path / "sim" / "rng.py"
    cli.write_text("X = 1\n")
    rng.write_text("from sim.jit import rule\n")
    jit = load_copy(tmp_path)
    before = jit.cache_folder()
    cli.write_text("X = 2\n")
    assert jit.cache_folder() == before
    rng.write_text("from sim.jit import rule\nY = 2\n")
    assert jit.cache_folder() != before


def test_numba_caches_the_engines_in_that_folder():
    assert sim.jit.config.CACHE_DIR == sim.jit.cache_folder()


def test_numba_cache_dir_says_where_the_folders_go(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert Path(sim.jit.cache_folder()).parent == tmp_path
