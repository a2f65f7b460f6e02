"""Engines are compiled without numba's reference counting (sim/jit.py, the private `_nrt=False`
flag): a rule that would need it does not compile, and no compiled engine function, fresh or
loaded from numba's cache, calls it. If a numba upgrade stops honouring the flag, this fails."""

import importlib
import io
import pkgutil

import game_adapters
import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError
from numba.core.registry import CPUDispatcher

from sim import games
from sim.game import Setup
from sim.jit import rule, small_rule

NRT_CALLS = ("NRT_incref", "NRT_decref", "NRT_MemInfo")


def compiled_ir(dispatcher) -> str:
    """Gives the LLVM IR of every signature `dispatcher` has compiled, whether compiled now or
    loaded from numba's cache (whose `inspect_llvm()` is disabled): the module numba keeps of
    each compiled library for linking it into callers."""
    return "".join(str(result.library._get_module_for_linking())
                   for result in dispatcher.overloads.values())


def nrt_calls(dispatcher) -> dict[str, int]:
    ir = compiled_ir(dispatcher)
    assert "define" in ir, "the IR was read"
    return {name: ir.count(name) for name in NRT_CALLS if name in ir}


@small_rule
def _first(arrays):
    return arrays[0][0]


def _sum_in_a_branch(arrays, flag):
    # What reference counting makes slow (sim/jit.py): tuple fields read in a branch, and the
    # tuple passed to another jitted function.
    if flag:
        return arrays[0].sum() + arrays[1].sum()
    return _first(arrays)


counted = njit(_sum_in_a_branch)  # not cached: numba's cache key does not hold the NRT flag
uncounted = rule(_sum_in_a_branch)


def test_a_rule_that_needs_reference_counting_does_not_compile():
    @rule
    def allocates(n):
        return np.zeros(n)

    with pytest.raises(TypingError):
        allocates(3)


def test_a_rule_over_a_tuple_of_arrays_calls_no_reference_counting():
    arrays = (np.ones(3), np.arange(4.0))
    assert counted(arrays, True) == uncounted(arrays, True) == 9.0
    assert counted(arrays, False) == uncounted(arrays, False) == 1.0
    assert nrt_calls(counted), "the same function with reference counting does call it"
    assert nrt_calls(uncounted) == {}


def engine_dispatchers(name: str) -> list[CPUDispatcher]:
    """Gives every jitted function of game `name`'s package (its bots' module included)."""
    package = importlib.import_module(games.module_of(name))
    modules = [importlib.import_module(info.name)
               for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]
    return list({id(f): f for m in modules for f in vars(m).values()
                 if isinstance(f, CPUDispatcher)}.values())


@pytest.mark.parametrize("name", game_adapters.fast_level())
def test_no_compiled_engine_function_calls_reference_counting(name):
    game = games.get(name)
    rules = game.load_rules(None, [])
    players = max(game.min_players, 2)
    searching = [Setup(players, ("search",) * players)] if "search" in game.strategy_names() else []
    game.compile(rules, searching)  # the jitted loops, with every function they call linked in
    game.trace(rules, Setup(players, ("default",) * players), 0, 0, io.StringIO())
    compiled = [f for f in engine_dispatchers(name) if f.overloads]
    assert len(compiled) >= 3, "the jitted loop, and the rules the Python driver calls"
    found = {f.__name__: calls for f in compiled if (calls := nrt_calls(f))}
    assert found == {}
