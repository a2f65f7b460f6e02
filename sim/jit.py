"""How engines are compiled: numba, cached on disk, without reference counting.

Engine state is a named tuple of numpy arrays allocated in Python. With numba's reference
counting on, every read of a tuple field inside a branch, and every call taking the tuple,
costs two atomic operations per array in it (about 0.3 us for a 27-array state): most of the
run time. Engine functions therefore never allocate arrays; they only read and write the
arrays they are given, and are compiled with `_nrt=False`.

Six changes to numba's internals cut the time of a cold compile, not what the code does:
the inliner copies an inlined function's scope once per copy (`_inlining_copies_a_scope_once`),
the liveness analysis works on bitsets (`_live_map_of_bitsets`), the compile flags list their
values in one merge (`_flags_listed_at_once`), the SSA reconstruction rewrites only the
blocks where a variable occurs (`_ssa_rewrites_only_blocks_using_the_variable`), the inliner
makes the IR of a function inlined at several calls once per compile
(`_inlined_functions_prepared_once`), and LLVM's first pass over each function runs at
FUNCTION_OPT. One more cuts a warm start: a function loaded from the cache does not load
numba's compiler registries (`_cache_loads_without_registries`). numba is pinned to the minor
version they are tested with (tests/sim/test_jit_compile_time.py). And a rule that jitted code
calls is compiled into its callers only, without machine code of its own, until Python calls
it (`Rule`, tests/sim/test_jit_linking.py).
"""

import contextlib
import copy
import hashlib
import os
import types
from collections import defaultdict
from pathlib import Path
from typing import Callable, Iterator

from llvmlite import binding as llvm
from numba import config, njit, typeof
from numba.core import (analysis, caching, codegen, compiler, dispatcher, event,
                        inline_closurecall, ir, ir_utils, registry, sigutils, ssa, targetconfig)
from numpy import ndarray

from sim import live

SOURCES = ("sim", "strategies")
"""The packages jitted code is built from: every module of their subpackages (the games) and of
strategies/, and those modules directly in sim/ that jit code themselves (sim/rng.py, ...);
not the machinery around the engines (the command line, the runner, the searches)."""


def cache_folder() -> str:
    """Gives the folder numba caches compiled engines in: one per state of the engines' source.

    numba checks a cached function against its own file only, so after a change to a function
    it calls in another module (an engine rule inlined into a play loop) it would load the
    stale compiled loop: edited or pulled code would silently play the old rules. A folder
    named after a hash of the engines' modules (`SOURCES`) starts a fresh cache on any change
    to them, and only then. NUMBA_CACHE_DIR, when set, is where these folders go."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in SOURCES:
        for file in sorted((root / package).rglob("*.py")):
            text = file.read_bytes()
            engine = file.is_relative_to(root / "sim" / "games") or b"sim.jit" in text
            if package == "sim" and not engine and file.name != "jit.py":
                continue  # machinery around the engines: editing it compiles nothing anew
            digest.update(file.relative_to(root).as_posix().encode() + b"\0" + text)
    base = os.environ.get("NUMBA_CACHE_DIR") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tabletop-balance"
    return str(Path(base) / f"numba-{digest.hexdigest()[:16]}")


config.CACHE_DIR = cache_folder()  # read by numba when a function below is decorated

FUNCTION_OPT = 1
"""LLVM's optimisation level for each function on its own, before the functions a compiled
function calls are linked to it; the linked whole is still optimised at numba's level (3).

The engines' play loops are large (their rules inlined) and numba optimises every function
twice: alone at -O3, then linked with its callees at -O3, the pass that makes the code that
runs. At -O1 the first pass takes a third less time (in Saboteur's cold compile 2.8 CPU-s
instead of 4.3) and the games play as fast (docs/development.md, "The numba cache")."""


def _function_passes_at(level: int) -> None:
    make = codegen.CPUCodegen._function_pass_manager
    if hasattr(make, "level"):  # sim/jit.py run again (a test loads a copy)
        return

    def function_pass_manager(self, **options):
        options.setdefault("opt", level)
        return make(self, **options)

    function_pass_manager.level = level
    codegen.CPUCodegen._function_pass_manager = function_pass_manager


def _inlining_copies_a_scope_once() -> None:
    """Makes numba's inliner copy the scope of an inlined function once per copy of its code
    rather than once per block of it (numba issue #8989, open in 0.68), and its code once.

    A function inlined with `inline="always"` (`small_rule`) is copied twice, block by block,
    each block by `copy.deepcopy` on its own: every block's copy drags along a copy of the
    function's whole scope (all its variables), so the copying grows with blocks times
    variables, and a rule inlining rules that inline rules copies the lot again at each level:
    6.2 of Saboteur's 24.6 CPU-s of cold compile went to inlining, 1.3 with this. Here the
    blocks of one copy share one copy of their scope, as the blocks copied share the scope
    copied: the same code (the same games, tested by their tables' hash). `inline_ir` also
    copies its copy again, to return it unmutated; both of numba's callers discard it, so
    that second copy is left out (about 1 CPU-s of the cold compile)."""
    inline_ir = inline_closurecall.InlineWorker.inline_ir
    if hasattr(inline_ir, "memos"):  # sim/jit.py run again
        return
    memos: list[dict] = []  # per inlining in progress: scope id -> the memo of its blocks' copy
    made: list[set] = []  # per inlining in progress: the ids of the blocks it copied

    def deepcopy(x, memo=None):
        if memo is None and memos and isinstance(x, ir.Block):
            if id(x) in made[-1]:  # the copy kept unmutated, which numba's callers discard
                return x
            copied = copy.deepcopy(x, memos[-1].setdefault(id(x.scope), {}))
            made[-1].add(id(copied))
            return copied
        return copy.deepcopy(x, memo)

    def inline_ir_once(self, *args, **kwargs):
        memos.append({})
        made.append(set())
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            memos.pop()
            made.pop()

    inline_ir_once.memos = memos
    module = types.ModuleType("copy")  # stands for the copy module in numba's inliner
    module.__dict__.update(copy.__dict__, deepcopy=deepcopy)
    inline_closurecall.copy = module
    inline_closurecall.InlineWorker.inline_ir = inline_ir_once


def _live_map_of_bitsets() -> None:
    """Makes numba's liveness analysis (`compute_live_map`, run after every pass that changes
    a function's IR) compute with sets of variables as bits of integers rather than as sets.

    Its first fix-point collects, for each block, every variable defined on a path to it: in
    an engine's play loop, thousands of blocks each holding most of thousands of variables, a
    set union per edge per sweep. 2.7 of Saboteur's 25 CPU-s of cold compile went there; an
    integer's `|` does the same union a machine word at a time. The same fix-points (the
    least sets that satisfy the same equations), so the same live variables."""
    numbas = analysis.compute_live_map
    if hasattr(numbas, "numbas"):  # sim/jit.py run again
        return

    def compute_live_map(cfg, blocks, var_use_map, var_def_map):
        names: dict[str, int] = {}

        def bits(variables) -> int:
            mask = 0
            for name in variables:
                mask |= 1 << names.setdefault(name, len(names))
            return mask

        order = cfg.topo_order()
        uses = {label: bits(var_use_map[label]) for label in blocks}
        defs = defaultdict(int, {label: bits(var_def_map[label]) for label in var_def_map})
        reach: defaultdict[int, int] = defaultdict(int)  # variables defined on a way here
        changed = True
        while changed:
            changed = False
            for label in order:
                mask = reach[label] | defs[label] | uses[label]
                if mask != reach[label]:
                    reach[label], changed = mask, True
                for successor, _ in cfg.successors(label):
                    if reach[successor] | mask != reach[successor]:
                        reach[successor], changed = reach[successor] | mask, True
        live = dict(uses)  # variables used here or later, defined before
        changed = True
        while changed:
            changed = False
            for label in reversed(order):
                for predecessor, _ in cfg.predecessors(label):
                    mask = live[predecessor] | (live[label] & reach[predecessor]
                                                & ~defs[predecessor])
                    if mask != live[predecessor]:
                        live[predecessor], changed = mask, True
        variables = list(names)

        def members(mask: int) -> set[str]:
            found = set()
            while mask:
                lowest = mask & -mask
                found.add(variables[lowest.bit_length() - 1])
                mask ^= lowest
            return found

        return {label: members(mask) for label, mask in live.items()}

    compute_live_map.numbas = numbas
    analysis.compute_live_map = ir_utils.compute_live_map = compute_live_map


def _flags_listed_at_once() -> None:
    """Makes the values of numba's compile flags (`TargetConfig.values`) one merge of their
    defaults with the options set, rather than a read of each of its about 60 options through
    its property.

    numba's typing hashes and compares the current flags each time it looks up an overloaded
    function's implementation: 53,000 hashes and 39,000 comparisons in Saboteur's cold
    compile, 0.66 CPU-s. The same dict: a property gives the option's value if set, else its
    default."""
    numbas = targetconfig.TargetConfig.values
    if hasattr(numbas, "numbas"):  # sim/jit.py run again
        return
    defaults: dict[type, dict] = {}  # per class of flags: option -> default

    def values(self):
        found = defaults.get(type(self))
        if found is None:
            found = defaults[type(self)] = {name: option.default
                                            for name, option in self.options.items()}
        return {**found, **self._values}

    values.numbas = numbas
    targetconfig.TargetConfig.values = values


def _ssa_rewrites_only_blocks_using_the_variable() -> None:
    """Makes numba's SSA reconstruction rewrite, for each variable assigned more than once,
    only the blocks where that variable occurs, rather than every statement of the function
    twice per such variable.

    The rewrite of a block where the variable does not occur changes nothing and records
    nothing (its handlers act on the variable's definitions and uses only): each block is
    still given anew, with the same statements. In Saboteur's play loop hundreds of variables
    are reassigned, each making two passes over tens of thousands of statements."""
    run_ssa, rewrite = ssa._run_ssa, ssa._run_block_rewrite
    if hasattr(run_ssa, "numbas"):  # sim/jit.py run again
        return
    where: list[dict[str, set]] = []  # per reconstruction under way: variable -> its blocks

    def run_ssa_indexed(blocks):
        found: defaultdict[str, set] = defaultdict(set)
        for label, block in blocks.items():
            for statement in block.body:
                for variable in statement.list_vars():
                    found[variable.name].add(label)
        where.append(found)
        try:
            return run_ssa(blocks)
        finally:
            where.pop()

    def run_block_rewrite(blocks, states, handler):
        if not where:
            return rewrite(blocks, states, handler)
        occurs = where[-1].get(states["varname"], ())
        new = {}
        for label, block in blocks.items():
            if label in occurs:
                new.update(rewrite({label: block}, states, handler))
            else:
                new[label] = copied = ir.Block(scope=block.scope, loc=block.loc)
                copied.body = list(block.body)
        return new

    run_ssa_indexed.numbas = run_ssa
    ssa._run_ssa, ssa._run_block_rewrite = run_ssa_indexed, run_block_rewrite


def _cache_loads_without_registries() -> None:
    """Makes loading a compiled function from the cache skip numba's `refresh` of its target
    context, which imports and installs every registry of numba's implementations (arraymath,
    npyimpl, ...) so that code can be compiled: a cached function's machine code needs none of
    them, and numba's compiler refreshes the context itself when something does compile (a miss
    in the cache). About 0.2 CPU-s of a warm run's start (docs/development.md)."""
    load = caching.Cache.load_overload
    if hasattr(load, "numbas"):  # sim/jit.py run again
        return

    def load_overload(self, sig, target_context):
        with self._guard_against_spurious_io_errors():
            return self._load_overload(sig, target_context)
        # None (a miss) if the `with` block swallows an error reading the cache

    load_overload.numbas = load
    caching.Cache.load_overload = load_overload


def _inlined_functions_prepared_once() -> None:
    """Makes numba's inliner run its untyped passes over a function inlined with
    `inline="always"` (`small_rule`) once per compile rather than at every call inlined.

    For each call of a `small_rule` the inliner turns the function's bytecode into numba IR
    anew (`run_untyped_passes`: bytecode analysis, IR, the rules it inlines in turn...), then
    copies that IR into the caller (`inline_ir` copies it first thing, leaving it as it was).
    Within one compile (the top-level function and the rules compiled while it is typed) the
    same function gives the same IR, so it is kept until that compile ends. Each inlining
    still gets a fresh identity of the function (numba names the inlined variables after it),
    so every copy's variables are new ones, as before."""
    prepare = inline_closurecall.InlineWorker.run_untyped_passes
    if hasattr(prepare, "numbas"):  # sim/jit.py run again
        return
    prepared: dict = {}  # (function, flags) -> its untyped IR, during one compile

    def run_untyped_passes(self, func, enable_ssa=False):
        if not compiling:
            return prepare(self, func, enable_ssa)
        flags = {**self.flags.values(), "enable_ssa": enable_ssa}  # numba's sets it so
        key = (func, repr(sorted(flags.items())))
        found = prepared.get(key)
        if found is None:
            found = prepared[key] = prepare(self, func, enable_ssa)
        else:
            self.flags.enable_ssa = enable_ssa  # as numba's does
        fresh = copy.copy(found)
        fresh.func_id = found.func_id.derive()
        return fresh

    compiling: list = []  # one entry per dispatcher compile under way

    class Compiles(event.Listener):
        def on_start(self, _):
            compiling.append(True)

        def on_end(self, _):
            compiling.pop()
            if not compiling:
                prepared.clear()

    event.register("numba:compile", Compiles())
    run_untyped_passes.numbas = prepare
    inline_closurecall.InlineWorker.run_untyped_passes = run_untyped_passes


_function_passes_at(FUNCTION_OPT)
_inlining_copies_a_scope_once()
_live_map_of_bitsets()
_flags_listed_at_once()
_ssa_rewrites_only_blocks_using_the_variable()
_inlined_functions_prepared_once()
_cache_loads_without_registries()


class _Linked:
    """The key a rule compiled only into its callers is found by when they are lowered (numba
    keys a compiled function's code by its entry point, which such a rule has none of)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}, compiled into its callers>"


def _finalize_for_linking(library) -> None:
    """`CPUCodeLibrary._finalize_final_module`, but the machine code."""
    library._finalize_dynamic_globals()
    library._verify_declare_only_symbols()
    library._finalized = True


class _RuleCompiler(dispatcher._FunctionCompiler):
    linking = False  # True while a jitted caller is typed: compile into callers only

    def _customize_flags(self, flags):
        flags.no_cfunc_wrapper = True  # no rule is called through a C function pointer
        if self.linking:
            flags.no_compile = flags.no_cpython_wrapper = True
        return flags


class _LinkedCacheImpl(caching.CompileResultCacheImpl):
    """Keeps a rule compiled into its callers as its callers link it: its optimised LLVM code
    (bitcode) and its signature, no machine code; loaded, it is linked as if just compiled."""

    def reduce(self, cres):
        if cres.entry_point is not None:
            return super().reduce(cres)
        fndesc = cres.fndesc
        fndesc.typemap = fndesc.calltypes = None  # not needed to call it, as numba's reduce
        return ("linked", cres.library.name,
                cres.library._get_module_for_linking().as_bitcode(), fndesc, cres.signature)

    def rebuild(self, target_context, payload):
        if payload[0] != "linked":
            return super().rebuild(target_context, payload)
        _, name, bitcode, fndesc, signature = payload
        library = target_context.codegen().create_library(name)
        library._final_module = library._shared_module = llvm.parse_bitcode(bitcode)
        _finalize_for_linking(library)
        return compiler.CompileResult(
            target_context=target_context, typing_context=target_context.typing_context,
            library=library, environment=None, entry_point=_Linked(fndesc.qualname),
            fndesc=fndesc, type_annotation="", signature=signature, objectmode=False,
            lifted=(), typing_error=None, call_helper=None, metadata=None, reload_init=[],
            referenced_envs=None)


class _RuleCache(caching.FunctionCache):
    """numba's cache of a rule, which keeps a rule compiled into its callers apart from the
    rule compiled whole, for Python to call (its index key says which)."""

    _impl_class = _LinkedCacheImpl

    def __init__(self, py_func, made: "_RuleCompiler") -> None:
        super().__init__(py_func)
        self._made = made

    def _index_key(self, sig, codegen):
        key = super()._index_key(sig, codegen)
        return (*key, "linked") if self._made.linking else key


class Rule(registry.CPUDispatcher):
    """A jitted engine function compiled on its own (not copied where it is called), which is
    compiled into its jitted callers' code only, until Python calls it.

    numba compiles a function another jitted function calls to machine code of its own, with
    a wrapper for Python to call it, and caches that; then it links the function's optimised
    LLVM code into the caller, and the caller's machine code is what runs. A game run calls one
    function from Python, its play loop: the machine code and wrappers of the rules the loop
    calls (a third of a cold compile's LLVM time) were made and cached to go unused. A rule is
    compiled for a jitted caller as numba compiles its own helpers for one
    (`BaseContext.compile_subroutine`: `no_compile`, no wrapper), linked into the caller the
    same way, and cached as the LLVM code linked (for the next caller to compile, say a search
    seat's loop); when Python calls it (a test, the Python driver), it is compiled whole."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        made = self._compiler
        self._compiler = _RuleCompiler(made.py_func, made.targetdescr, made.targetoptions,
                                       made.locals, made.pipeline_class)

    def enable_caching(self):
        self._cache = _RuleCache(self.py_func, self._compiler)

    def get_call_template(self, args, kws):
        linking, self._compiler.linking = self._compiler.linking, True
        try:
            return super().get_call_template(args, kws)
        finally:
            self._compiler.linking = linking

    def compile(self, sig):
        if not self._compiler.linking:  # for Python to call: it needs machine code
            args, _ = sigutils.normalize_signature(sig)
            found = self.overloads.get(tuple(args))
            if found is not None and isinstance(found.entry_point, _Linked):
                del self.overloads[tuple(args)]
        return super().compile(sig)

    def add_overload(self, cres):
        if cres.entry_point is None:  # compiled just now, into its callers
            key = _Linked(cres.fndesc.qualname)
            self.targetctx.insert_user_function(key, cres.fndesc, [cres.library])
            cres.library._finalize_final_module = types.MethodType(_finalize_for_linking,
                                                                   cres.library)
            cres = cres._replace(entry_point=key)
        if isinstance(cres.entry_point, _Linked):  # no code for Python to call
            self.overloads[tuple(cres.signature.args)] = cres
        else:
            super().add_overload(cres)


def rule(function):
    """Decorates a jitted engine function (a `Rule`: cached, without reference counting)."""
    if config.DISABLE_JIT:
        return function
    compiled = Rule(function, targetoptions={"nopython": True, "_nrt": False})
    compiled.enable_caching()
    return compiled


small_rule = njit(cache=True, _nrt=False, inline="always")
"""Decorates a small jitted helper that hot loops call often (inlined where it is called)."""


def direct(function, *args):
    """Gives `function`'s compiled code for arguments of the types of `args`, to be called with
    arguments of exactly those types, without numba's typing of every argument on every call.

    A Python driver calls engine rules once per move: numba types the 30 arrays of the state
    at each call, which costs about five times what a small rule does. The code is looked up
    once per state (arrays and tuples by identity, kept alive meanwhile; scalars by type)."""
    key = (function, *(id(a) if isinstance(a, (tuple, ndarray)) else type(a) for a in args))
    found = _direct.get(key)
    if found is None:
        if len(_direct) >= 512:  # states of finished chunks
            _direct.clear()
        found = _direct[key] = (args, function.compile(tuple(typeof(a) for a in args)))
    return found[1]


_direct: dict = {}


def is_compiled(game_name: str) -> bool:
    """Tells whether a game's engine was compiled into the current cache folder."""
    return (Path(config.CACHE_DIR) / f"{game_name}.compiled").exists()


@contextlib.contextmanager
def first_compile(game_name: str, title: str, show: bool = True) -> Iterator[Callable[[str], None]]:
    """Shows a spinner on stderr while a game's engine compiles into a cold cache (when `show`,
    on a terminal or in a notebook: sim/live.py), then marks the cache folder as holding it.
    Gives a function saying what is compiling now (e.g. "default bots, 7 players"), which the
    spinner shows beside the time elapsed.

    A cold compile takes half a minute or more; silence that long reads as a hang. No estimate
    of how long: it depends on the machine's load, so the time elapsed is all that is true.
    The mark, not numba's own index files, tells cold from warm: their names are numba's."""
    if is_compiled(game_name):
        yield lambda what: None
        return
    status = None
    say: Callable[[str], None] = lambda what: None
    console = live.stderr_console() if show else None
    if console is not None:
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
        from rich.table import Column

        # the time first, whole: a narrow terminal cuts the end of the text instead
        status = Progress(SpinnerColumn(), TimeElapsedColumn(table_column=Column(min_width=7)),
                          TextColumn("{task.description}",
                                     table_column=Column(no_wrap=True, overflow="ellipsis")),
                          console=console, transient=True)
        task = status.add_task(_compiling(title, ""), total=None)
        status.start()
        status.refresh()  # at once, not at the first tick

        def say(what: str) -> None:
            status.update(task, description=_compiling(title, what))
            status.refresh()
    try:
        yield say
    finally:
        if status is not None:
            status.stop()
    with contextlib.suppress(OSError):  # a read-only cache: numba does not cache there either
        mark = Path(config.CACHE_DIR) / f"{game_name}.compiled"
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()


def _compiling(title: str, what: str) -> str:
    return f"compiling {title}{f' for {what}' if what else ''} (once per install)"
