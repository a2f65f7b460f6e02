"""A rule another jitted function calls is compiled into its callers' code only (sim.jit.Rule):
no machine code or wrapper of its own until Python calls it, and cached as its callers link it."""

import importlib.util
import sys

from numba.core import codegen, event

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


def import_file(path, name: str, monkeypatch):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)
    spec.loader.exec_module(module)
    return module


def test_a_rule_compiled_into_a_caller_is_cached_as_such_for_the_next_caller(tmp_path,
                                                                             monkeypatch):
    source = tmp_path / "linked_rules.py"
    source.write_text(
        "from sim.jit import rule\n\n\n"
        "@rule\ndef square(x):\n    return x * x\n\n\n"
        "@rule\ndef sum_of_squares(x, y):\n    return square(x) + square(y)\n\n\n"
        "@rule\ndef double_square(x):\n    return 2 * square(x)\n")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))  # where its folder goes
    first = import_file(source, "linked_rules", monkeypatch)
    assert first.sum_of_squares(3, 4) == 25
    # as a new process would: the same file, nothing compiled yet
    again = import_file(source, "linked_rules_again", monkeypatch)
    compiled: list[str] = []

    class Compiles(event.Listener):
        def on_start(self, data):
            compiled.append(data.data["dispatcher"].py_func.__name__)

        def on_end(self, data):
            pass

    with event.install_listener("numba:compile", Compiles()):
        made = machine_code_made(monkeypatch)
        assert again.double_square(3) == 18
    assert compiled == ["double_square"] and made == ["double_square"]
    (overload,) = again.square.overloads.values()
    assert not callable(overload.entry_point)  # loaded as linked, still no machine code
