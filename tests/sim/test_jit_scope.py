"""sim/jit.py's changes to numba stay inside the project's own compiles: in place only while
`project_compiles()` is (a project's function compiling), numba's own functions otherwise; a
user's own jitted code compiles and caches as stock numba does; a change whose numba functions
differ from those it was written for (their fingerprint), or a numba outside the tested range,
is one warning line, and the games are the same with stock numba."""

import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numba
import pytest
from numba.core import analysis, event, ssa, targetconfig

import sim.jit

ROOT = Path(sim.jit.__file__).resolve().parents[1]

SNAPSHOT = '''
import sys, types
import numba, numba.core.compiler, numba.core.caching, numba.core.inline_closurecall
import numba.core.ssa, numba.core.analysis, numba.core.targetconfig, numba.core.codegen

def snapshot():
    """Every function, class and module numba's modules hold, and the functions of their
    classes, by identity."""
    found = {}
    for name, module in list(sys.modules.items()):
        if name != "numba" and not name.startswith("numba."):
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, (types.FunctionType, types.ModuleType, type)):
                found[name, attribute] = value
            if isinstance(value, type) and value.__module__ == name:
                for inner, member in list(vars(value).items()):
                    if isinstance(member, (types.FunctionType, staticmethod, classmethod)):
                        found[name, attribute, inner] = member
    return found

before = snapshot()
cache_dir = numba.config.CACHE_DIR
'''


def python(script: str, *args, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, **env}, timeout=900)


def test_importing_the_project_and_playing_leaves_numbas_functions_as_they_were(tmp_path):
    script = SNAPSHOT + textwrap.dedent('''
        from numba.core import analysis, event
        from sim import api, games
        import sim.jit

        during = []

        class Compiles(event.Listener):
            def on_start(self, data):
                during.append(analysis.compute_live_map.__module__)

            def on_end(self, data):
                pass

        for name in games.names():
            games.get(name)
        with event.install_listener("numba:compile", Compiles()):
            api.run("speed", players=2, games=20, seed=3, workers=1, out=sys.argv[1],
                    quiet=True)
        after = snapshot()
        changed = sorted(".".join(key) for key, value in before.items() if after[key] is not value)
        print(changed, numba.config.CACHE_DIR == cache_dir, set(during))
    ''')
    done = python(script, tmp_path / "run", NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    assert done.returncode == 0, done.stderr
    # the compiles of the game ran with the changes, and numba is as it was after
    assert done.stdout == "[] True {'sim.jit'}\n", done.stdout


NAMES = [(analysis, "compute_live_map"), (ssa, "_run_ssa"), (ssa, "_run_block_rewrite"),
         (targetconfig.TargetConfig, "values")]


def numbas() -> list:
    return [getattr(owner, name) for owner, name in NAMES]


def test_the_changes_are_in_place_only_inside_the_projects_compiles_one_inside_another():
    stock = numbas()
    with sim.jit.project_compiles():
        ours = numbas()
        with sim.jit.project_compiles():  # a rule compiling while its caller is typed
            assert numbas() == ours
        assert numbas() == ours
    assert numbas() == stock
    assert all(a is not b for a, b in zip(ours, stock))


def test_another_threads_compile_waits_for_the_projects_to_end():
    """numba's compile lock, which every compile takes, is held while the changes are in
    place: a user's compile in another thread never runs under them."""
    seen = []

    @numba.njit
    def user_function(x):
        return x + 1

    def compile_elsewhere():
        seen.append(user_function(1))

    with sim.jit.project_compiles():
        other = threading.Thread(target=compile_elsewhere)
        other.start()
        other.join(timeout=2)
        assert other.is_alive() and not seen  # waiting for the lock
    other.join()
    assert seen == [2]


def test_a_users_njit_function_compiles_with_stock_numba_and_caches_where_numba_would(
        tmp_path, monkeypatch):
    (tmp_path / "user_code.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef plus_one(x):\n    return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import user_code

    stock, during = numbas(), []

    class Compiles(event.Listener):
        def on_start(self, data):
            during.append(numbas())

        def on_end(self, data):
            pass

    with event.install_listener("numba:compile", Compiles()):
        assert user_code.plus_one(1) == 2
    assert during == [stock]
    kept = Path(user_code.plus_one._cache.cache_path)
    assert list(kept.glob("user_code.plus_one-*.nbi"))
    assert not kept.is_relative_to(Path(sim.jit.cache_folder()).parent)
    assert type(user_code.plus_one._cache._impl.locator).__module__ == "numba.core.caching"


@pytest.fixture
def decided_again(monkeypatch):
    """Makes sim.jit decide anew which changes fit (and after the test, as before)."""
    sim.jit.fitting.cache_clear()
    yield
    sim.jit.fitting.cache_clear()


def test_a_numba_outside_the_tested_range_is_one_warning_line(decided_again, monkeypatch,
                                                              capsys):
    monkeypatch.setattr(numba, "__version__", "0.67.0")
    assert sim.jit.fitting() == set(sim.jit.FINGERPRINTS)  # its functions alike: all fit
    assert capsys.readouterr().err == (
        "warning: numba 0.67.0 is outside the range tabletop-balance is tested with "
        "(>=0.68,<0.69)\n")
    sim.jit.fitting()
    assert capsys.readouterr().err == ""  # once


def test_a_change_whose_numba_functions_differ_is_left_out_with_one_warning_line(
        decided_again, monkeypatch, capsys):
    monkeypatch.setitem(sim.jit.FINGERPRINTS, "liveness", "0" * 16)
    assert sim.jit.fitting() == set(sim.jit.FINGERPRINTS) - {"liveness"}
    err = capsys.readouterr().err
    assert err.startswith("warning: the numba functions that sim/jit.py's compile-time changes "
                          "replace differ from numba 0.68's")
    assert err.endswith(": liveness on bitsets\n") and err.count("\n") == 1
    with sim.jit.project_compiles():
        assert analysis.compute_live_map.__module__ == "numba.core.analysis"
        assert ssa._run_ssa.__module__ == "sim.jit"


def test_the_off_switch_leaves_every_change_out_without_a_word(decided_again, monkeypatch,
                                                              capsys):
    monkeypatch.setenv(sim.jit.STOCK, "1")
    assert sim.jit.fitting() == set()
    with sim.jit.project_compiles():
        assert numbas() == [getattr(owner, name) for owner, name in NAMES]
        assert analysis.compute_live_map.__module__ == "numba.core.analysis"
    assert capsys.readouterr().err == ""


def test_the_fingerprints_are_those_of_the_numba_installed():
    assert sim.jit.fitting() == set(sim.jit.FINGERPRINTS), "numba differs from 0.68.1"


PLAY = '''
import hashlib, sys
import sim.jit
if sys.argv[1] == "stock":
    for name in sim.jit.FINGERPRINTS:
        sim.jit.FINGERPRINTS[name] = "0" * 16
from numba.core import analysis, event
from sim import api

during = set()

class Compiles(event.Listener):
    def on_start(self, data):
        during.add(analysis.compute_live_map.__module__)

    def on_end(self, data):
        pass

with event.install_listener("numba:compile", Compiles()):
    run = api.run("speed", players=2, games=50, seed=7, workers=1, quiet=True,
                  out=sys.argv[2])
tables = [run.games().sort("game_id").write_csv(), run.seats().sort("game_id", "seat").write_csv()]
print(hashlib.sha256("".join(tables).encode()).hexdigest(), sorted(during))
'''


def test_stock_numba_plays_the_same_games(tmp_path):
    played = {}
    for how in ("stock", "changed"):
        done = python(PLAY, how, tmp_path / how / "run",
                      NUMBA_CACHE_DIR=str(tmp_path / how / "cache"))
        assert done.returncode == 0, done.stderr
        played[how] = done.stdout.split(" ", 1)
        warnings = [line for line in done.stderr.splitlines() if line.startswith("warning")]
        assert len(warnings) == (how == "stock")
    assert played["stock"][1] == "['numba.core.analysis']\n"
    assert played["changed"][1] == "['sim.jit']\n"
    assert played["stock"][0] == played["changed"][0]
