"""sim/jit.py's changes to how numba compiles, for compile time: the inliner copies an
inlined function's scope once per copy (not once per block), the liveness analysis computes on
bitsets, the compile flags list their values in one merge, the SSA reconstruction rewrites only
the blocks where a variable occurs, the inliner prepares a function inlined at several calls
once per compile, and LLVM optimises each function alone at FUNCTION_OPT before the linked
whole at numba's level. Each is in place only inside `sim.jit.project_compiles()`, where the
project's functions compile (tests/sim/test_jit_scope.py)."""

import copy

import pytest
from numba import njit
from numba.core import analysis, codegen, config, ir, ssa, untyped_passes
from numba.core.compiler import Flags, run_frontend

import sim.jit
from sim.games.saboteur import bots, maze, play


def test_inlining_copies_the_scope_of_the_inlined_function_once_per_copy(monkeypatch):
    copies = []

    def counting_deepcopy(self, memo):
        if self.has_parent:  # the function's scope, not the global one above it
            copies.append(self)
        new = object.__new__(ir.Scope)
        memo[id(self)] = new
        for name, value in self.__dict__.items():
            setattr(new, name, copy.deepcopy(value, memo))
        return new

    monkeypatch.setattr(ir.Scope, "__deepcopy__", counting_deepcopy, raising=False)

    @njit(inline="always")
    def clipped_sum(values, low, high):  # several blocks: a loop and branches
        total = 0
        for v in values:
            if v < low:
                total += low
            elif v > high:
                total += high
            else:
                total += v
        return total

    @njit
    def caller(values):
        return clipped_sum(values, 1, 5)

    with sim.jit.project_compiles():
        assert caller((0, 3, 9)) == 1 + 3 + 5
    # one scope copy for the callee's one copy (to inline), where numba alone copied it for
    # each of the callee's blocks, twice (the second copy, kept unmutated, is discarded)
    assert len(copies) == 1


def test_llvm_optimises_functions_alone_at_function_opt_and_the_linked_whole_at_numbas(
        monkeypatch):
    levels = {"function": [], "module": []}
    make = codegen.create_pass_builder

    def recording(tm, opt, **options):
        builder = make(tm, opt=opt, **options)
        recorded.append(opt)
        return builder

    recorded: list[int] = []
    monkeypatch.setattr(codegen, "create_pass_builder", recording)
    function_passes, module_passes = (codegen.CPUCodegen._function_pass_manager,
                                      codegen.CPUCodegen._module_pass_manager)

    def spying(kind, passes):
        def spy(self, **options):
            start = len(recorded)
            result = passes(self, **options)
            levels[kind] += recorded[start:]
            return result
        return spy

    monkeypatch.setattr(codegen.CPUCodegen, "_function_pass_manager",
                        spying("function", function_passes))
    monkeypatch.setattr(codegen.CPUCodegen, "_module_pass_manager",
                        spying("module", module_passes))

    @njit
    def twice(x):
        return 2 * x

    with sim.jit.project_compiles():
        assert twice(21) == 42
    assert levels["function"] and set(levels["function"]) == {sim.jit.FUNCTION_OPT}
    assert config.OPT in levels["module"]  # the full pass over the linked module
    assert sim.jit.FUNCTION_OPT < config.OPT


@pytest.mark.parametrize("function", [maze.refresh, bots.default_move, play.python_steps],
                         ids=lambda f: f.__name__)
def test_the_live_map_of_bitsets_is_numbas(function):
    blocks = run_frontend(function.py_func).blocks  # loops, branches, a generator's yields
    cfg = analysis.compute_cfg_from_blocks(blocks)
    uses = analysis.compute_use_defs(blocks)
    with sim.jit.project_compiles():
        live = analysis.compute_live_map(cfg, blocks, uses.usemap, uses.defmap)
    assert live == analysis.compute_live_map(cfg, blocks, uses.usemap, uses.defmap)  # numba's
    assert any(live.values())


def test_the_flags_list_the_values_of_their_options_as_numba_does():
    flags = Flags()
    flags.nrt = True
    flags.error_model = "numpy"
    with sim.jit.project_compiles():
        values = flags.values()
    assert values == flags.values()  # numba's
    assert values["nrt"] is True and values["error_model"] == "numpy"
    assert values["boundscheck"] is Flags.options["boundscheck"].default  # not set
    assert list(values) == list(flags.options)
    copied = flags.copy()
    assert copied == flags and hash(copied) == hash(flags)
    copied.error_model = "python"
    assert copied != flags


@pytest.mark.parametrize("function", [bots.default_move, play.python_steps],
                         ids=lambda f: f.__name__)
def test_the_ssa_rewritten_block_by_block_where_a_variable_occurs_is_numbas(function):
    def listing(blocks):
        return {label: [str(statement) for statement in block.body]
                for label, block in blocks.items()}

    blocks = run_frontend(function.py_func).blocks
    numbas = ssa._run_ssa(copy.deepcopy(blocks))  # the rewrite of every block
    with sim.jit.project_compiles():
        ours = ssa._run_ssa(blocks)
    assert listing(ours) == listing(numbas)
    assert listing(ours) != listing(run_frontend(function.py_func).blocks)  # it renamed


def test_a_function_inlined_at_several_calls_is_prepared_once_per_compile(monkeypatch):
    prepared = []
    extract = untyped_passes.ExtractByteCode.run_pass

    def recording(self, state):
        prepared.append(state.func_id.func.__name__)
        return extract(self, state)

    monkeypatch.setattr(untyped_passes.ExtractByteCode, "run_pass", recording)

    @njit(inline="always")
    def clipped(value, low, high):  # its own variables, branches
        result = value
        if value < low:
            result = low
        elif value > high:
            result = high
        return result

    @njit
    def caller(a, b, c):
        return clipped(a, 1, 5) + 10 * clipped(b, 1, 5) + 100 * clipped(c, 1, 5)

    # each call inlined with variables of its own, though the IR was made once
    with sim.jit.project_compiles():
        assert caller(0, 3, 9) == 1 + 30 + 500
    assert prepared.count("clipped") == 1  # numba alone: once per call inlined
