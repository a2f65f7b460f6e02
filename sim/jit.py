"""How engines are compiled: numba, cached on disk, without reference counting.

Engine state is a named tuple of numpy arrays allocated in Python. With numba's reference
counting on, every read of a tuple field inside a branch, and every call taking the tuple,
costs two atomic operations per array in it (about 0.3 us for a 27-array state): most of the
run time. Engine functions therefore never allocate arrays; they only read and write the
arrays they are given, and are compiled with `_nrt=False`.

Seven changes to numba's internals cut the time of a cold compile, not what the code does:
the inliner copies an inlined function's scope once per copy (`_inlining_copies_a_scope_once`),
the liveness analysis works on bitsets (`_live_map_of_bitsets`), the compile flags list their
values in one merge (`_flags_listed_at_once`), the SSA reconstruction rewrites only the
blocks where a variable occurs (`_ssa_rewrites_only_blocks_using_the_variable`), the inliner
makes the IR of a function inlined at several calls once per compile
(`_inlined_functions_prepared_once`), and LLVM's first pass over each function runs at
FUNCTION_OPT (`_function_passes_at`). One more cuts a warm start: a function loaded from the
cache does not load numba's compiler registries (`_ProjectCache.load_overload`). And a rule that
jitted code calls is compiled into its callers only, without machine code of its own, until
Python calls it (`Rule`, tests/sim/test_jit_linking.py).

They stay inside the project's own compiles: the project's jitted functions (`rule`,
`small_rule`) compile inside `project_compiles()`, which installs the changes on entry and puts
numba's own functions back on exit, and keep their cache in the project's folder
(`cache_folder`) through their own cache locator; numba's settings are left alone, so a user's
own `@njit` code in the same process compiles and caches as stock numba does. Each change is
guarded by a fingerprint of the numba functions it replaces, taken with numba 0.68: where numba
differs, that change is left out (stock numba compiles, slower) and one warning line says so
(tests/sim/test_jit_scope.py).
"""

import contextlib
import copy
import functools
import hashlib
import inspect
import multiprocessing
import os
import pickle
import re
import sys
import types
from collections import defaultdict
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

import numba
from llvmlite import binding as llvm
from numba import config, typeof
from numba.core import (analysis, caching, codegen, compiler, dispatcher, inline_closurecall, ir,
                        ir_utils, registry, sigutils, ssa, targetconfig)
from numba.core.compiler_lock import global_compiler_lock
from numpy import ndarray

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("sim", "strategies")
"""The packages jitted code is built from: every module of the games (sim/games/) and of
strategies/, and elsewhere in them the modules that define jitted functions (sim/rng.py, ...):
not the machinery around the engines (the command line, the runner, the studies)."""

_DEFINES_JITTED = re.compile(
    rb"^(from sim\.jit import (\([^)]*\)|[^\n]*)|from numba\b[^\n]*|import numba\b[^\n]*)",
    re.MULTILINE)
_DECORATORS = re.compile(rb"\b(rule|small_rule|Rule)\b")


def _defines_jitted(text: bytes) -> bool:
    """Tells whether a module's source defines jitted code: it imports the decorators of this
    module, or numba itself (an overload), not merely something else from here."""
    return any(not found.group(1).startswith(b"from sim.jit")
               or _DECORATORS.search(found.group(1).partition(b"import")[2])
               for found in _DEFINES_JITTED.finditer(text))


def engines_digest(root: Path = ROOT) -> str:
    """Gives a hash of the engines' source under `root`: every module of `SOURCES` that jitted
    code is built from (by relative path and content), and of this module."""
    digest = hashlib.sha256()
    for package in SOURCES:
        for file in sorted((root / package).rglob("*.py")):
            text = file.read_bytes()
            if (package == "sim" and not file.is_relative_to(root / "sim" / "games")
                    and file != root / "sim" / "jit.py" and not _defines_jitted(text)):
                continue  # machinery around the engines: editing it compiles nothing anew
            digest.update(file.relative_to(root).as_posix().encode() + b"\0" + text)
    return digest.hexdigest()[:16]


_digest = functools.cache(engines_digest)


def cache_folder() -> str:
    """Gives the folder the project's jitted functions are cached in: one per state of the
    engines' source.

    numba checks a cached function against its own file only, so after a change to a function
    it calls in another module (an engine rule inlined into a play loop) it would load the
    stale compiled loop: edited or pulled code would silently play the old rules. A folder
    named after a hash of the engines' modules (`engines_digest`) starts a fresh cache on any
    change to them, and only then. NUMBA_CACHE_DIR, when set, is where these folders go."""
    base = os.environ.get("NUMBA_CACHE_DIR") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tabletop-balance"
    return str(Path(base) / f"numba-{_digest()}")


FUNCTION_OPT = 1
"""LLVM's optimisation level for each function on its own, before the functions a compiled
function calls are linked to it; the linked whole is still optimised at numba's level (3).

The engines' play loops are large (their rules inlined) and numba optimises every function
twice: alone at -O3, then linked with its callees at -O3, the pass that makes the code that
runs. At -O1 the first pass takes a third less time (in Saboteur's cold compile 2.8 CPU-s
instead of 4.3) and the games play as fast (docs/development.md, "The numba cache")."""

TESTED = ((0, 68), (0, 69))
"""The numba versions the project is tested with, [from, to): pyproject's pin."""


def _function_passes_at(level: int) -> list:
    """Makes LLVM's first pass over each function, alone, run at `level` (`FUNCTION_OPT`)."""
    make = codegen.CPUCodegen._function_pass_manager

    def function_pass_manager(self, **options):
        options.setdefault("opt", level)
        return make(self, **options)

    return [(codegen.CPUCodegen, "_function_pass_manager", function_pass_manager)]


def _inlining_copies_a_scope_once() -> list:
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

    module = types.ModuleType("copy")  # stands for the copy module in numba's inliner
    module.__dict__.update(copy.__dict__, deepcopy=deepcopy)
    return [(inline_closurecall, "copy", module),
            (inline_closurecall.InlineWorker, "inline_ir", inline_ir_once)]


def _live_map_of_bitsets() -> list:
    """Makes numba's liveness analysis (`compute_live_map`, run after every pass that changes
    a function's IR) compute with sets of variables as bits of integers rather than as sets.

    Its first fix-point collects, for each block, every variable defined on a path to it: in
    an engine's play loop, thousands of blocks each holding most of thousands of variables, a
    set union per edge per sweep. 2.7 of Saboteur's 25 CPU-s of cold compile went there; an
    integer's `|` does the same union a machine word at a time. The same fix-points (the
    least sets that satisfy the same equations), so the same live variables."""
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

    return [(analysis, "compute_live_map", compute_live_map),
            (ir_utils, "compute_live_map", compute_live_map)]


def _flags_listed_at_once() -> list:
    """Makes the values of numba's compile flags (`TargetConfig.values`) one merge of their
    defaults with the options set, rather than a read of each of its about 60 options through
    its property.

    numba's typing hashes and compares the current flags each time it looks up an overloaded
    function's implementation: 53,000 hashes and 39,000 comparisons in Saboteur's cold
    compile, 0.66 CPU-s. The same dict: a property gives the option's value if set, else its
    default."""
    defaults: dict[type, dict] = {}  # per class of flags: option -> default

    def values(self):
        found = defaults.get(type(self))
        if found is None:
            found = defaults[type(self)] = {name: option.default
                                            for name, option in self.options.items()}
        return {**found, **self._values}

    return [(targetconfig.TargetConfig, "values", values)]


def _ssa_rewrites_only_blocks_using_the_variable() -> list:
    """Makes numba's SSA reconstruction rewrite, for each variable assigned more than once,
    only the blocks where that variable occurs, rather than every statement of the function
    twice per such variable.

    The rewrite of a block where the variable does not occur changes nothing and records
    nothing (its handlers act on the variable's definitions and uses only): each block is
    still given anew, with the same statements. In Saboteur's play loop hundreds of variables
    are reassigned, each making two passes over tens of thousands of statements."""
    run_ssa, rewrite = ssa._run_ssa, ssa._run_block_rewrite
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

    return [(ssa, "_run_ssa", run_ssa_indexed), (ssa, "_run_block_rewrite", run_block_rewrite)]


def _inlined_functions_prepared_once() -> list:
    """Makes numba's inliner run its untyped passes over a function inlined with
    `inline="always"` (`small_rule`) once per compile rather than at every call inlined.

    For each call of a `small_rule` the inliner turns the function's bytecode into numba IR
    anew (`run_untyped_passes`: bytecode analysis, IR, the rules it inlines in turn...), then
    copies that IR into the caller (`inline_ir` copies it first thing, leaving it as it was).
    Within one compile (the top-level function and the rules compiled while it is typed) the
    same function gives the same IR, so it is kept until the outermost of the project's
    compiles ends (`_prepared`). Each inlining still gets a fresh identity of the function
    (numba names the inlined variables after it), so every copy's variables are new ones."""
    prepare = inline_closurecall.InlineWorker.run_untyped_passes

    def run_untyped_passes(self, func, enable_ssa=False):
        flags = {**self.flags.values(), "enable_ssa": enable_ssa}  # numba's sets it so
        key = (func, repr(sorted(flags.items())))
        found = _prepared.get(key)
        if found is None:
            found = _prepared[key] = prepare(self, func, enable_ssa)
        else:
            self.flags.enable_ssa = enable_ssa  # as numba's does
        fresh = copy.copy(found)
        fresh.func_id = found.func_id.derive()
        return fresh

    return [(inline_closurecall.InlineWorker, "run_untyped_passes", run_untyped_passes)]


_prepared: dict = {}
"""(function, flags) -> its untyped IR, during the outermost of the project's compiles."""


class _Change(NamedTuple):
    """One change to numba: what it does (for the warning), the numba functions it replaces or
    relies on, and how it replaces them (owner, attribute, replacement: none for the changes
    this module's own classes make)."""

    does: str
    replaced: Callable[[], tuple]
    make: Callable[[], list]


_CHANGES = {
    "function passes": _Change(
        "LLVM's first pass at -O1", lambda: (codegen.CPUCodegen._function_pass_manager,),
        lambda: _function_passes_at(FUNCTION_OPT)),
    "inlined scopes": _Change(
        "inlined scopes copied once", lambda: (inline_closurecall.InlineWorker.inline_ir,),
        _inlining_copies_a_scope_once),
    "liveness": _Change(
        "liveness on bitsets", lambda: (analysis.compute_live_map,), _live_map_of_bitsets),
    "flags": _Change(
        "flags listed at once", lambda: (targetconfig.TargetConfig.values,),
        _flags_listed_at_once),
    "ssa": _Change(
        "SSA rewrites only the blocks using a variable",
        lambda: (ssa._run_ssa, ssa._run_block_rewrite),
        _ssa_rewrites_only_blocks_using_the_variable),
    "inlined once": _Change(
        "inlined functions prepared once",
        lambda: (inline_closurecall.InlineWorker.run_untyped_passes,),
        _inlined_functions_prepared_once),
    "cache loads": _Change(
        "cache loads without registries", lambda: (caching.Cache.load_overload,), list),
    "linking": _Change(
        "rules compiled into their callers only",
        lambda: (codegen.CPUCodeLibrary._finalize_final_module, compiler.CompileResult._rebuild),
        list),
}

FINGERPRINTS = {
    "function passes": "e006d96632459d8c",
    "inlined scopes": "26fd2b7600c9d929",
    "liveness": "713c4c094977e93b",
    "flags": "12a29dc810f6a91b",
    "ssa": "767a87787e5f202d",
    "inlined once": "b6ca82e78918c615",
    "cache loads": "49a98e578d710b9b",
    "linking": "1da1406a65761508",
}
"""Each change's fingerprint of the numba functions it replaces or relies on, taken with numba
0.68.1 (`fingerprint`): a change whose functions differ is left out."""

STOCK = "TABLETOP_STOCK_NUMBA"
"""The environment variable that, set to 1, compiles the project's functions with stock numba."""


def fingerprint(functions) -> str:
    """Gives a hash of the source of `functions`."""
    digest = hashlib.sha256()
    for function in functions:
        digest.update(inspect.getsource(function).encode())
    return digest.hexdigest()[:16]


@functools.cache
def fitting() -> frozenset[str]:
    """Gives the names of the changes that fit the numba installed (all of them with numba 0.68),
    saying in one warning line on stderr (from the main process) what is left out and whether
    numba is outside the tested range."""
    if os.environ.get(STOCK) == "1":
        return frozenset()
    fit = set()
    for name, change in _CHANGES.items():
        try:
            if fingerprint(change.replaced()) == FINGERPRINTS[name]:
                fit.add(name)
        except (AttributeError, OSError, TypeError):  # gone, or its source not found
            pass
    found = numba.__version__
    problems = []
    version = tuple(int(part) for part in re.findall(r"\d+", found)[:2])
    if not TESTED[0] <= version < TESTED[1]:
        problems.append(f"numba {found} is outside the range tabletop-balance is tested with "
                        f"(>={'.'.join(map(str, TESTED[0]))},<{'.'.join(map(str, TESTED[1]))})")
    if len(fit) < len(_CHANGES):
        left = ", ".join(change.does for name, change in _CHANGES.items() if name not in fit)
        problems.append(f"the numba functions that sim/jit.py's compile-time changes replace "
                        f"differ from numba 0.68's, so these are left out and compile as stock "
                        f"numba does (slower first runs): {left}")
    if problems and multiprocessing.parent_process() is None:  # a worker would repeat it
        print(f"warning: {'; '.join(problems)}", file=sys.stderr)
    return frozenset(fit)


_ABSENT = object()
_depth = 0  # the project's compiles under way in this process (one inside another)
_installed: list = []  # (owner, attribute, numba's value) of the changes installed


@contextlib.contextmanager
def project_compiles() -> Iterator[None]:
    """Installs the changes to numba that fit it (`fitting`) for the time of a compile of the
    project's functions, and puts numba's own functions back when the outermost ends.

    Re-entrant (a rule compiles while its caller is typed) and held under numba's compile
    lock, which every numba compile takes: no other thread's compile (a user's own code)
    runs while the changes are in place."""
    global _depth
    with global_compiler_lock:
        _depth += 1
        try:
            if _depth == 1:
                for change in (c for name, c in _CHANGES.items() if name in fitting()):
                    for owner, attribute, replacement in change.make():
                        _installed.append((owner, attribute, vars(owner).get(attribute, _ABSENT)))
                        setattr(owner, attribute, replacement)
            yield
        finally:
            _depth -= 1
            if _depth == 0:
                for owner, attribute, numbas in reversed(_installed):
                    if numbas is _ABSENT:
                        delattr(owner, attribute)
                    else:
                        setattr(owner, attribute, numbas)
                _installed.clear()
                _prepared.clear()


def fits(name: str) -> bool:
    """Tells whether the change `name` is made (it fits the numba installed)."""
    return name in fitting()


_warned: set = set()


def _warn_once(line: str) -> None:
    if line not in _warned:
        _warned.add(line)
        print(f"warning: {line}", file=sys.stderr)


_MAGIC = b"tabletop-balance numba cache 1\n"


class _CheckedCacheFile(caching.IndexDataCacheFile):
    """numba's index and data files of a cached function, each written with a checksum of its
    content and checked before numba reads it: a damaged file (truncated, emptied, a byte
    changed) is dropped with one warning and its function compiled again, where numba would
    raise on every run, or crash on machine code a flipped byte changed."""

    def _load_index(self):
        found = self._read(self._index_path)
        if found is None:
            return {}
        version, stamp, overloads = found
        return overloads if (version, stamp) == (self._version, self._source_stamp) else {}

    def _save_index(self, overloads):
        self._write(self._index_path, (self._version, self._source_stamp, overloads))

    def _load_data(self, name):
        return self._read(self._data_path(name))

    def _save_data(self, name, data):
        self._write(self._data_path(name), data)

    def _write(self, path: str, value) -> None:
        payload = self._dump(value)
        with self._open_for_write(path) as file:
            file.write(_MAGIC + hashlib.sha256(payload).digest() + payload)

    def _read(self, path: str):
        try:
            with open(path, "rb") as file:
                content = file.read()
        except FileNotFoundError:
            return None
        start = len(_MAGIC) + 32
        payload = content[start:]
        if content[:len(_MAGIC)] == _MAGIC and content[len(_MAGIC):start] == hashlib.sha256(
                payload).digest():
            return pickle.loads(payload)
        _warn_once(f"a damaged entry of the compile cache was dropped and compiles again: {path}")
        with contextlib.suppress(OSError):  # a read-only cache keeps it, and skips it
            os.unlink(path)
        return None


class _ProjectLocator(caching.UserProvidedCacheLocator):
    """Puts a function's cache in `cache_folder()` (whatever numba's own settings), and is used
    read-only where that folder cannot be written, never falling back to a folder beside the
    source (numba's `__pycache__`, in the source tree or site-packages)."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(cache_folder(), self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        return cls(py_func, py_file) if os.path.exists(py_file) else None


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


class _ProjectCacheImpl(caching.CompileResultCacheImpl):
    """Caches a project's function in `cache_folder()`, and a rule compiled into its callers as
    its callers link it: its optimised LLVM code (bitcode) and its signature, no machine code;
    loaded, it is linked as if just compiled."""

    _locator_classes = [_ProjectLocator, caching.IPythonCacheLocator]  # a notebook's: numba's

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


class _ProjectCache(caching.FunctionCache):
    """numba's cache of a project's function, in `cache_folder()`, its files checked
    (`_CheckedCacheFile`); a cache folder that cannot be written is used read-only."""

    _impl_class = _ProjectCacheImpl

    def __init__(self, py_func) -> None:
        super().__init__(py_func)
        self._cache_file = _CheckedCacheFile(self._cache_path, self._impl.filename_base,
                                             self._impl.locator.get_source_stamp())

    def load_overload(self, sig, target_context):
        """numba's, but for its `refresh` of the target context, which imports and installs
        every registry of numba's implementations (arraymath, npyimpl, ...) so that code can
        be compiled: a cached function's machine code needs none of them, and numba's compiler
        refreshes the context itself when something does compile (a miss in the cache). About
        0.2 CPU-s of a warm run's start (docs/development.md)."""
        if not fits("cache loads"):
            target_context.refresh()
        return self._load_overload(sig, target_context)

    def save_overload(self, sig, data):
        try:
            self._save_overload(sig, data)
        except OSError as error:  # a read-only folder, a full disk: the run goes on
            folder = Path(self._cache_path).parent
            _warn_once(f"the compile cache {folder} cannot keep what compiles now "
                       f"({(error.strerror or str(error)).lower()}): it compiles again next run")


_UNMADE = object()  # a dispatcher's cache, until it is first used


class _ProjectDispatcher(registry.CPUDispatcher):
    """numba's dispatcher of a jitted function, for the project's own: it compiles inside
    `project_compiles()` and caches in `cache_folder()`."""

    def enable_caching(self):
        self._cache = _UNMADE

    @property
    def _cache(self):
        """Gives numba's cache of the function (`_ProjectCache`), made when first used.

        Making one finds the cache folder and reads the source file's stamp: for the hundred
        jitted functions an engine's import decorates, most of which are never loaded on
        their own (a warm run loads its play loop, the rules linked into it), about 20 CPU-ms
        of a warm start."""
        if self._made_cache is _UNMADE:
            self._made_cache = self._new_cache()
        return self._made_cache

    @_cache.setter
    def _cache(self, cache) -> None:
        self._made_cache = cache

    def _new_cache(self) -> _ProjectCache:
        return _ProjectCache(self.py_func)

    def compile(self, sig):
        with project_compiles():
            return super().compile(sig)


class _RuleCache(_ProjectCache):
    """The cache of a rule, which keeps a rule compiled into its callers apart from the rule
    compiled whole, for Python to call (its index key says which)."""

    def __init__(self, py_func, made: "_RuleCompiler") -> None:
        super().__init__(py_func)
        self._made = made

    def _index_key(self, sig, codegen):
        key = super()._index_key(sig, codegen)
        return (*key, "linked") if self._made.linking else key


class Rule(_ProjectDispatcher):
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

    def _new_cache(self) -> _ProjectCache:
        return _RuleCache(self.py_func, self._compiler)

    def get_call_template(self, args, kws):
        if not fits("linking"):
            return super().get_call_template(args, kws)
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


class _MadeCache(_RuleCache):
    """The cache of a function a factory makes for a game (`made_rule`), in files of the
    game's own: keyed by its own code and `key`, where numba's key pickles what the function
    closes over, which pickles differently in every process (the cache would never be
    read)."""

    def __init__(self, py_func, made: "_RuleCompiler", key: str) -> None:
        super().__init__(py_func, made)
        self._key = key
        # files of the game's own: an index read unpickles the types of its signatures, which
        # name the game's modules (another game's would not import)
        self._cache_file = _CheckedCacheFile(self._cache_path,
                                             f"{self._impl.filename_base}-{key}",
                                             self._impl.locator.get_source_stamp())

    def _index_key(self, sig, codegen):
        code = hashlib.sha256(self._py_func.__code__.co_code).hexdigest()
        key = (sig, codegen.magic_tuple(), (code, self._key))
        return (*key, "linked") if self._made.linking else key


class _MadeRule(Rule):
    key = ""  # what the function closes over (`made_rule`)

    def _new_cache(self) -> _ProjectCache:
        return _MadeCache(self.py_func, self._compiler, self.key)


def made_rule(functions):
    """Decorates a jitted function that a factory makes for a game, closing over the game's
    jitted `functions` (sim/turn_loops.py's play loops): a `Rule` cached under the functions'
    names and a hash of the source of their packages (a change to any of the game's modules
    compiles anew, as `cache_folder` does for the project's own)."""
    digest = hashlib.sha256()
    folders = set()
    for function in functions:
        module = sys.modules[function.__module__]
        digest.update(f"{function.__module__}.{function.__qualname__}\0".encode())
        folders.add(Path(module.__file__).resolve().parent)
    for folder in sorted(folders):
        for file in sorted(folder.glob("*.py")):
            digest.update(file.name.encode() + b"\0" + file.read_bytes())

    def decorate(function):
        if config.DISABLE_JIT:
            return function
        compiled = _MadeRule(function, targetoptions={"nopython": True, "_nrt": False})
        compiled.key = digest.hexdigest()[:16]
        compiled.enable_caching()
        return compiled
    return decorate


def small_rule(function):
    """Decorates a small jitted helper that hot loops call often (inlined where it is called;
    cached, without reference counting)."""
    if config.DISABLE_JIT:
        return function
    compiled = _ProjectDispatcher(function, targetoptions={"nopython": True, "_nrt": False,
                                                          "inline": "always"})
    compiled.enable_caching()
    return compiled


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
