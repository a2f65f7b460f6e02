"""A rule another jitted function calls is compiled into its caller's code only (sim.jit.Rule):
no machine code, wrapper or cache entry of its own until Python calls it."""

import importlib.util
import sys

from numba.core import codegen, config

from sim.jit import Rule

OPTIONS = {"nopython": True, "_nrt": False}


def square(x):
    return x * x


def rules():
    """A fresh rule `square` (nothing compiled yet) and a rule calling it."""
    callee = Rule(square, targetoptions=OPTIONS)

    def sum_of_squares(x, y):
        return callee(x) + callee(y)

    return callee, Rule(sum_of_squares, targetoptions=OPTIONS)


def machine_code_made(monkeypatch) -> list[str]:
    """Names of the functions whose libraries are turned into machine code from now on."""
    made: list[str] = []
    finalize = codegen.JITCodeLibrary._finalize_specific

    def recording(self):
        made.append(self.name.rsplit(".", 1)[-1])
        return finalize(self)

    monkeypatch.setattr(codegen.JITCodeLibrary, "_finalize_specific", recording)
    return made


def test_a_rule_called_from_jitted_code_gets_no_machine_code_of_its_own(monkeypatch):
    callee, caller = rules()
    made = machine_code_made(monkeypatch)
    assert caller(3, 4) == 25
    assert "sum_of_squares" in made and "square" not in made
    (overload,) = callee.overloads.values()
    assert not callable(overload.entry_point)


def test_a_rule_python_calls_after_linking_it_is_then_compiled_whole(monkeypatch):
    callee, caller = rules()
    assert caller(1, 2) == 5
    made = machine_code_made(monkeypatch)
    assert callee(5) == 25
    assert made == ["square"]
    (overload,) = callee.overloads.values()
    assert callable(overload.entry_point)
    assert caller(2, 3) == 13  # still the code it was compiled with


def test_only_the_function_python_calls_is_cached(tmp_path, monkeypatch):
    (tmp_path / "linked_rules.py").write_text(
        "from sim.jit import rule\n\n\n"
        "@rule\ndef square(x):\n    return x * x\n\n\n"
        "@rule\ndef sum_of_squares(x, y):\n    return square(x) + square(y)\n")
    monkeypatch.setattr(config, "CACHE_DIR", str(tmp_path / "cache"))
    spec = importlib.util.spec_from_file_location("linked_rules", tmp_path / "linked_rules.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "linked_rules", module)
    spec.loader.exec_module(module)
    assert module.sum_of_squares(3, 4) == 25
    cached = sorted(p.name.split("-")[0] for p in (tmp_path / "cache").rglob("*.nbi"))
    assert cached == ["linked_rules.sum_of_squares"]
