"""numba's cache of the project's functions is keyed by the engines' whole source: a change to
a called module never leaves a stale compiled caller in use, and a change to the machinery
around the engines (the command line, the runner) compiles nothing anew."""

import importlib.util
import os
import shutil
import subprocess
import sys
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
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "sim").mkdir()
    shutil.copy(ROOT / "sim" / "jit.py", tmp_path / "sim" / "jit.py")
    (tmp_path / "strategies").mkdir()
    callee = tmp_path / "strategies" / "callee.py"
    callee.write_text("X = 1\n")
    before = load_copy(tmp_path).cache_folder()
    assert before == load_copy(tmp_path).cache_folder()
    assert Path(before).parent == tmp_path / "cache" / "tabletop-balance"
    callee.write_text("X = 2\n")
    assert load_copy(tmp_path).cache_folder() != before


def test_a_change_to_the_machinery_around_the_engines_keeps_the_folder(tmp_path, monkeypatch):
    """The command line or the runner (modules directly in sim/ that jit nothing) compile
    nothing: editing them keeps the compiled engines; a module there that jits is an engine's."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    (tmp_path / "sim").mkdir()
    shutil.copy(ROOT / "sim" / "jit.py", tmp_path / "sim" / "jit.py")
    cli = tmp_path / "sim" / "cli.py"
    rng = tmp_path / "sim" / "rng.py"
    cli.write_text("X = 1\n")
    rng.write_text("from sim.jit import rule\n")
    before = load_copy(tmp_path).cache_folder()
    cli.write_text("X = 2\nfrom sim.jit import cache_folder\n")  # not a decorator
    assert load_copy(tmp_path).cache_folder() == before
    rng.write_text("from sim.jit import rule\nY = 2\n")
    assert load_copy(tmp_path).cache_folder() != before


def test_editing_the_command_line_and_the_runner_keeps_the_folder(tmp_path, monkeypatch):
    """They show the compile's spinner (sim/run/warm.py), where sim.jit once held it, which
    made every edit of theirs compile every game anew."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    for package in ("sim", "strategies"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    before = load_copy(tmp_path).cache_folder()
    for edited in ("sim/cli.py", "sim/run/runner.py", "sim/run/warm.py"):
        with open(tmp_path / edited, "a") as file:
            file.write("# an edit\n")
    assert load_copy(tmp_path).cache_folder() == before
    with open(tmp_path / "sim" / "rng.py", "a") as file:  # it defines jitted functions
        file.write("# an edit\n")
    assert load_copy(tmp_path).cache_folder() != before


def test_the_project_caches_its_functions_in_that_folder_and_leaves_numbas_setting(tmp_path):
    from numba import config

    from sim import rng

    assert Path(rng.shuffle._cache.cache_path).parent == Path(sim.jit.cache_folder())
    config.reload_config()  # numba reads its environment again (as at each compile)
    assert config.CACHE_DIR == os.environ.get("NUMBA_CACHE_DIR", "")  # nothing else sets it


def test_numba_cache_dir_says_where_the_folders_go(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert Path(sim.jit.cache_folder()).parent == tmp_path


def test_a_functions_cache_is_made_when_first_used_not_when_its_engine_is_imported(tmp_path):
    # a warm run loads its play loop: making the caches of the hundred functions an engine
    # decorates (each finding its folder and stamping its source) cost 20 CPU-ms of its start
    made = subprocess.run([sys.executable, "-c", """
import sim.jit
made = []
make = sim.jit._ProjectCache.__init__
def counted(self, py_func):
    made.append(py_func.__name__)
    make(self, py_func)
sim.jit._ProjectCache.__init__ = counted
from sim.games.saboteur import play
from sim import rng
print(len(made), rng.shuffle._cache.cache_path != "", made)
"""], capture_output=True, text=True, timeout=600, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_CACHE_DIR": str(tmp_path)})
    assert made.returncode == 0, made.stderr[-2000:]
    assert made.stdout.split() == ["0", "True", "['shuffle']"]


PLAY = """\
import importlib, sys
from sim.game import Setup
game = importlib.import_module(sys.argv[1]).GAME
game.play(game.load_rules(None, []), Setup(2, ("default",) * 2), 1, 0, 5, 0)
print(sum(game.loop.play_games.stats.cache_hits.values()))
"""


def test_the_play_loops_made_for_a_game_are_cached_for_it_alone(tmp_path):
    """sim/turn_loops.py's loops of two games (made from one factory) each load from the cache
    in a later process, and neither's cache needs the other's package: a process that cannot
    import the first game plays the second (sim.jit.made_rule)."""
    from sim.new_game import write

    def hits(name: str) -> int:
        """Plays the game `name` in a process of its own; gives its loop's cache hits."""
        done = subprocess.run([sys.executable, "-c", PLAY, name.replace("-", "_")], env={
            **os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path / name)])},
            capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-2000:]
        return int(done.stdout.split()[-1])

    for name in ("first-race", "second-race"):
        write(name, tmp_path / name, fast=True)
    assert hits("first-race") == 0  # compiled, and cached
    assert hits("second-race") == 0  # the first game's package is not on its path
    assert hits("first-race") == 1
