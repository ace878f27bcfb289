"""The engine's numba extensions: the njit wrappers with the engine's options, the cache locator
that stamps every engine kernel with a digest of all the engine's sources, a linear copy for
numba's inliner, unchecked arrays, llvm intrinsics, and the plain twins of the last two.

Everything here leans on numba internals (the cache's locator list, array data models, llvm
intrinsics, the inliner's copy of a callee's IR), so it sits together under the numba pin in
``pyproject.toml``; each piece has a test that fails if a numba release changes what it relies
on (``tests/test_engine.py``, ``tests/test_kernel_cache.py``).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import operator
import os
from collections import defaultdict

import numba
import numpy as np
from llvmlite import binding as llvm, ir
from numba import types
from numba.core import cgutils, ir as numba_ir
from numba.core.caching import (
    CacheImpl, InTreeCacheLocator, UserProvidedCacheLocator, UserWideCacheLocator)
from numba.core.imputils import lower_builtin, lower_constant
from numba.core.inline_closurecall import InlineWorker
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import NativeValue, intrinsic, models, register_model, typeof_impl, unbox

from .layout import ONE


# ================================================================================================
# the cache locator: one stamp for every kernel of a package, a digest of all its sources
# ================================================================================================
# numba stamps a cached kernel with a hash of its own source file only, so a kernel would be
# served stale after an edit in another file that is compiled into it (an inlined helper, a
# constant, an intrinsic's codegen). A package whose kernels span files registers its folder
# here; every kernel defined in a file of that folder is then stamped with a digest of all the
# folder's .py files (and the extra files and the salt it names): an edit anywhere recompiles
# every one of them. The salt also goes into the cache's file names, so that two builds of the
# same sources (the plain kernel) keep a cache each instead of evicting each other.
_STAMPED: dict[str, tuple[str, str]] = {}  # real folder path -> (stamp, salt)


def _claim(py_file: str):
    return _STAMPED.get(os.path.dirname(os.path.realpath(py_file)))


class _SourcesStamp:
    """The mixin for numba's locators: claims only the registered folders' functions."""

    @classmethod
    def from_function(cls, py_func, py_file):
        if _claim(py_file) is None:
            return None  # not ours: numba's own locators take it
        return super().from_function(py_func, py_file)

    def get_source_stamp(self):
        return _claim(self._py_file)[0]

    def get_disambiguator(self):
        salt = _claim(self._py_file)[1]
        return super().get_disambiguator() + (f"-{salt}" if salt else "")


class _StampedUserProvided(_SourcesStamp, UserProvidedCacheLocator):
    """NUMBA_CACHE_DIR (what the Makefile sets)."""


class _StampedInTree(_SourcesStamp, InTreeCacheLocator):
    """The package's own __pycache__."""


class _StampedUserWide(_SourcesStamp, UserWideCacheLocator):
    """The user's cache folder, where the package's is not writable."""


def stamp_kernels_with_sources(folder: str, extra_files=(), salt: str = "") -> str:
    """Stamp every cached kernel defined in a .py file of ``folder`` with a digest of all of
    the folder's .py files, ``extra_files`` and ``salt``; returns the stamp. Call it before the
    first kernel of the folder is decorated (numba makes a kernel's cache at decoration)."""
    folder = os.path.realpath(folder)
    paths = sorted(os.path.join(folder, name) for name in os.listdir(folder)
                   if name.endswith(".py"))
    digest = hashlib.sha256(salt.encode())
    for path in [*paths, *(os.path.realpath(f) for f in extra_files)]:
        with open(path, "rb") as source:
            digest.update(os.path.basename(path).encode() + b"\0" + source.read() + b"\0")
    _STAMPED[folder] = digest.hexdigest(), salt
    ours = [_StampedUserProvided, _StampedInTree, _StampedUserWide]
    if CacheImpl._locator_classes[:len(ours)] != ours:  # once (the list is numba's, shared)
        CacheImpl._locator_classes[:0] = ours
    return _STAMPED[folder][0]


# VANDATTA_PLAIN_KERNEL=1 (read at import) swaps the low-level extensions (unchecked arrays,
# llvm intrinsics: popcount, pdep, the 128-bit multiply, count-trailing-zeros) for plain numba
# code that plays the same games more slowly: tests compare the two, so that a numba release
# that breaks an extension is caught. The switch is part of the engine's cache stamp, so the
# plain kernels are cached apart from the others.
PLAIN_KERNEL = os.environ.get("VANDATTA_PLAIN_KERNEL", "").strip() not in ("", "0")
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# the engine's sources, and the two modules whose constants are frozen into its kernels
ENGINE_STAMP = stamp_kernels_with_sources(
    os.path.dirname(os.path.abspath(__file__)),
    extra_files=[os.path.join(_PACKAGE, "cards.py"), os.path.join(_PACKAGE, "trace.py")],
    salt="plain" if PLAIN_KERNEL else "")
njit = functools.partial(numba.njit, cache=True, nogil=True, error_model="numpy")
# the plain kernel inlines nothing: the same games from a build that compiles each helper once
inline = njit if PLAIN_KERNEL else functools.partial(njit, inline="always")


# ================================================================================================
# the inliner's copy of a callee, linear instead of quadratic
# ================================================================================================
# numba inlines an ``inline="always"`` function by copying the callee's IR block by block with
# copy.deepcopy, twice (numba issues #8989, #9204), and every block's copy deep-copies the
# function's scope with every variable in it: blocks × variables. The kernels inline their game
# once per kernel, in a chain of helpers each inlining the next (a block, a game, a deal, the
# turn loop, a move), so that product was most of a kernel's compile: in a profile of standard's
# heuristic kernel, copying the chain's six largest callees took about 200 of 270 CPU-s
# (docs/speed.md). While numba inlines, a scope's copy shares the variables themselves (a
# variable is a name, its scope and a location; no pass changes one in place) and copies only
# the maps that inlining extends: the same IR, hence the same code, in time linear in its size.
def _copy_scope(scope, memo):
    twin = copy.copy(scope)
    memo[id(scope)] = twin
    twin.parent = copy.deepcopy(scope.parent, memo)
    twin.localvars = copy.copy(scope.localvars)
    twin.localvars._con = dict(scope.localvars._con)
    twin.redefined = copy.copy(scope.redefined)
    twin.var_redefinitions = defaultdict(set, {name: set(names) for name, names in
                                               scope.var_redefinitions.items()})
    return twin


_numba_inline_ir = InlineWorker.inline_ir
_inlining = [0]  # depth: typing an inlined overload can compile, and inline, another function


@functools.wraps(_numba_inline_ir)
def _inline_ir_copying_scopes_once(*args, **kwargs):
    if _inlining[0] == 0:
        numba_ir.Scope.__deepcopy__ = _copy_scope
    _inlining[0] += 1
    try:
        return _numba_inline_ir(*args, **kwargs)
    finally:
        _inlining[0] -= 1
        if _inlining[0] == 0:
            del numba_ir.Scope.__deepcopy__


if "__deepcopy__" not in vars(numba_ir.Scope):  # a numba that copies scopes its own way: leave it
    InlineWorker.inline_ir = _inline_ir_copying_scopes_once


# ================================================================================================
# unchecked arrays: the state vectors without numba's negative-index wraparound
# ================================================================================================
class UncheckedArray(types.Array):
    """A 1-D C-contiguous view of an array's memory, compiled as its data pointer alone:
    integer indexing skips numba's negative-index wraparound, and the view is neither
    reference-counted nor a structure of seven fields.

    The kernels index their state vectors with computed offsets that are never negative; the
    wraparound test numba adds to every such access (a compare and a select, and a register for
    the length) cost 16% of the playing time (measured). Passing a reference-counted array to a
    function that is not inlined costs two atomic operations per array (measured: about 150
    cycles per call with four arrays), and passing an array's seven fields put most of a call's
    arguments on the stack (the expert's pick took 27 arguments; as pointers it takes 9). The
    view *borrows* the memory: whoever makes it keeps the array alive for as long as the view is
    used (see ``_keep_alive``). Integer indexing is all a view supports; an array operation on
    one (a slice, ``len``) does not compile."""

    def __init__(self, dtype):
        super().__init__(dtype, 1, "C", name=f"unchecked({dtype})")

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
        # an array type derived from a view's (in numba's typing) is an ordinary array's
        return types.Array(dtype or self.dtype, ndim or 1, layout or "C", readonly=bool(readonly))

    @property
    def key(self):
        return "unchecked", self.dtype


@register_model(UncheckedArray)
class _DataPointerModel(models.PointerModel):
    """The view's data model: the array's data pointer, one register."""


@unbox(UncheckedArray)
def _unbox_unchecked(typ, obj, c):
    """Never run: a view is made inside a kernel from an array (typeof gives no view), but numba
    compiles a Python wrapper for every kernel, and the wrapper unboxes each argument."""
    c.pyapi.err_set_string("PyExc_TypeError", "an unchecked view is made inside a kernel")
    null = cgutils.get_null_value(c.context.get_value_type(typ))
    return NativeValue(null, is_error=cgutils.true_bit)


def _is_plain_vector(ary):
    return isinstance(ary, types.Array) and ary.ndim == 1 and ary.layout == "C"


def _data(context, builder, ary, value):
    return context.make_array(ary)(context, builder, value).data


@intrinsic
def _unchecked(typingctx, ary):
    """View a 1-D C-contiguous array as an :class:`UncheckedArray` (the same memory)."""
    if not _is_plain_vector(ary):
        return None

    def codegen(context, builder, signature, args):
        return _data(context, builder, ary, args[0])

    return UncheckedArray(ary.dtype)(ary), codegen


@intrinsic
def _keep_alive(typingctx, a, b):
    """No code: a use of ``a`` and ``b`` that keeps them alive (unreleased) up to this point."""
    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(a, b), codegen


def _item_pointer(context, builder, aryty, data, idxty, idx):
    return builder.gep(data, [context.cast(builder, idx, idxty, types.intp)])


# The views' memory never overlaps between kinds: C (a RulesArray), the game's int64 vectors and
# the uint64 hands are different arrays. Each access through a view says so to LLVM (scoped
# no-alias metadata), so that a store to a hand does not force the game's fields to be loaded
# again, nor the other way round. Views of one kind may share memory (G and a search's copy):
# nothing is claimed between them, nor about accesses through ordinary arrays.
_VIEW_KINDS = ("rules", "int64", "uint64")


def _view_kind(aryty):
    return "rules" if isinstance(aryty, RulesArray) else str(aryty.dtype)


def _tag(builder, aryty, instruction):
    kind = _view_kind(aryty)
    if kind not in _VIEW_KINDS:
        return instruction
    module = builder.module
    domain = module.add_metadata([ir.MetaDataString(module, "vandatta.views")])
    scopes = {k: module.add_metadata([ir.MetaDataString(module, f"vandatta.views.{k}"), domain])
              for k in _VIEW_KINDS}
    instruction.set_metadata("alias.scope", module.add_metadata([scopes[kind]]))
    instruction.set_metadata("noalias", module.add_metadata(
        [scopes[k] for k in _VIEW_KINDS if k != kind]))
    return instruction


def _load(context, builder, aryty, ptr):
    return _tag(builder, aryty, builder.load(ptr))


@lower_builtin(operator.getitem, UncheckedArray, types.Integer)
def _unchecked_getitem(context, builder, signature, args):
    aryty, idxty = signature.args
    ptr = _item_pointer(context, builder, aryty, args[0], idxty, args[1])
    return _load(context, builder, aryty, ptr)


@lower_builtin(operator.setitem, UncheckedArray, types.Integer, types.Any)
def _unchecked_setitem(context, builder, signature, args):
    aryty, idxty, valty = signature.args
    ptr = _item_pointer(context, builder, aryty, args[0], idxty, args[1])
    value = context.cast(builder, args[2], valty, aryty.dtype)
    _tag(builder, aryty, builder.store(value, ptr))
    return context.get_dummy_value()


# ================================================================================================
# frozen rules: a kernel compiled with the rules as constants
# ================================================================================================
def _pairs(pairs):
    return tuple(sorted((int(i), int(v)) for i, v in pairs))


class FrozenRules:
    """Entries of the constant vector C, ``(index, value)`` pairs, that a kernel is compiled
    with as constants: it reads them as numbers in its code, not from memory, so every branch on
    a rule the pairs fix folds away at compile time (a rule that is off costs nothing). Passed
    to ``run_batch_nb`` beside C, whose entries it must equal (``simulate`` takes them from C).
    Its numba type carries the pairs, so each distinct value compiles (and caches) a kernel of
    its own; ``FrozenRules()`` (no pairs) is the general kernel, which reads every rule.

    ``playouts`` are pairs for the search's playouts alone, which may differ from C: where C's
    entries equal them (checked at run time, ``_holds_playout_rules``), the playouts run a turn
    loop compiled with them as constants, and the general one otherwise."""

    __slots__ = ("pairs", "playouts")

    def __init__(self, pairs=(), playouts=()):
        self.pairs = _pairs(pairs)
        self.playouts = _pairs(playouts)

    def __repr__(self):
        return f"FrozenRules({self.pairs}, playouts={self.playouts})"


class FrozenRulesType(types.Dummy):
    """The numba type of a :class:`FrozenRules`: its pairs are part of the type (no data)."""

    playouts = ()  # as RulesArray's

    def __init__(self, pairs, playouts=()):
        self.pairs = pairs
        self.playouts = playouts
        super().__init__(name=f"frozen_rules{pairs}" + (f"playouts{playouts}" if playouts else ""))


@typeof_impl.register(FrozenRules)
def _typeof_frozen_rules(value, context):
    return FrozenRulesType(value.pairs, value.playouts)


register_model(FrozenRulesType)(models.OpaqueModel)


@unbox(FrozenRulesType)
def _unbox_frozen_rules(typ, obj, c):
    return NativeValue(c.context.get_dummy_value())  # nothing to read: the type is the value


@lower_constant(FrozenRulesType)
def _constant_frozen_rules(context, builder, typ, value):
    return context.get_dummy_value()


# a kernel's own copy of the rules (the search's playouts) is a RulesArray with nothing frozen:
# it is the rules' kind of memory, apart from the game's (see _VIEW_KINDS)
NOTHING_FROZEN = FrozenRules()


class RulesArray(UncheckedArray):
    """An :class:`UncheckedArray` view of C whose reads at a constant index that the frozen
    pairs name are those constants (``C[R_STACKING]`` compiles to 0 under rules without
    stacking); every other read is the view's. It carries its FrozenRules' ``playouts`` pairs
    for the search (``_playout_rules``)."""

    # numba unpickles a cache index's types (then checks its stamp): one written before the
    # field existed must still make a key
    playouts = ()

    def __init__(self, dtype, pairs, playouts=()):
        self.pairs = pairs
        self.playouts = playouts
        name = f"unchecked({dtype}, frozen{pairs}" + (f", playouts{playouts})" if playouts else ")")
        types.Array.__init__(self, dtype, 1, "C", name=name)

    @property
    def key(self):
        return "unchecked", self.dtype, self.pairs, self.playouts


register_model(RulesArray)(_DataPointerModel)


@intrinsic
def _unchecked_rules(typingctx, ary, frozen):
    """View a 1-D C-contiguous array as a :class:`RulesArray` with ``frozen``'s pairs."""
    if not (_is_plain_vector(ary) and isinstance(frozen, FrozenRulesType)):
        return None

    def codegen(context, builder, signature, args):
        return _data(context, builder, ary, args[0])

    return RulesArray(ary.dtype, frozen.pairs, frozen.playouts)(ary, frozen), codegen


def _playouts_of(C):
    """The pairs that C carries for the playouts: none unless C is a RulesArray (the table's
    kernels pass C as an ordinary array)."""
    if isinstance(C, RulesArray):
        return C.playouts
    return () if isinstance(C, types.Array) else None


@intrinsic
def _playout_rules(typingctx, ary, C):
    """View a 1-D C-contiguous array (the playouts' copy of the rules) as a :class:`RulesArray`
    frozen with the pairs that C carries for the playouts (use it where
    ``_holds_playout_rules`` is true)."""
    if not _is_plain_vector(ary) or _playouts_of(C) is None:
        return None

    def codegen(context, builder, signature, args):
        return _data(context, builder, ary, args[0])

    return RulesArray(ary.dtype, _playouts_of(C))(ary, C), codegen


@intrinsic
def _holds_playout_rules(typingctx, ary, C):
    """Whether the array's entries equal the pairs that C carries for the playouts (true where
    it carries none): a compare per pair, in straight-line code."""
    if not _is_plain_vector(ary) or _playouts_of(C) is None:
        return None
    pairs = _playouts_of(C)

    def codegen(context, builder, signature, args):
        data = _data(context, builder, ary, args[0])
        holds = cgutils.true_bit
        for i, value in pairs:
            entry = builder.load(builder.gep(data, [context.get_constant(types.intp, i)]))
            same = builder.icmp_signed("==", entry, context.get_constant(ary.dtype, value))
            holds = builder.and_(holds, same)
        return holds

    return types.boolean(ary, C), codegen


@lower_builtin(operator.getitem, RulesArray, types.Integer)
def _rules_getitem(context, builder, signature, args):
    aryty = signature.args[0]
    index = args[1]  # a rule's offset (a module constant) is an llvm constant here
    if isinstance(index, ir.Constant):
        for i, value in aryty.pairs:
            if i == index.constant:
                return context.get_constant(aryty.dtype, value)
    return _unchecked_getitem(context, builder, signature, args)


# ================================================================================================
# llvm intrinsics: bit counts, the n-th set bit, the 128-bit multiply
# ================================================================================================
@intrinsic
def _popcount(typingctx, x):
    """llvm.ctpop: one instruction, where a Python-level bit loop would cost dozens."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.ctpop.i64")
        return builder.call(fn, [args[0]])

    return sig, codegen


@inline
def _low_bit(m):
    return np.int64(trailing_zeros(m))


@intrinsic
def _pdep(typingctx, x, mask):
    """x86 BMI2 parallel bit deposit: the low bits of x go to the set bits of mask."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
        return builder.call(fn, args)

    return sig, codegen


# pdep finds the n-th set bit in 3 cycles where the CPU has a fast one (BMI2, but not AMD before
# Zen 3, which microcodes it); numba compiles for, and caches per, the host CPU unless
# NUMBA_CPU_NAME asks for portable code. Measured: 9% of the playing time of `random`, whose
# every move picks the n-th legal card.
FAST_PDEP = (not PLAIN_KERNEL and numba.config.CPU_NAME is None and bool(llvm.get_host_cpu_features().get("bmi2"))
             and llvm.get_host_cpu_name() not in ("znver1", "znver2"))

if FAST_PDEP:
    @inline
    def _nth_bit(m, n):
        return np.int64(trailing_zeros(_pdep(ONE << np.uint64(n), m)))
else:
    @inline
    def _nth_bit(m, n):
        for _ in range(n):
            m &= m - ONE
        return np.int64(trailing_zeros(m))


@intrinsic
def _wymum(typingctx, a, b):
    """wyhash's mum: the 128-bit product of a and b, its high and low halves xor-ed."""
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i128 = ir.IntType(128)
        product = builder.mul(builder.zext(args[0], i128), builder.zext(args[1], i128))
        high = builder.trunc(builder.lshr(product, ir.Constant(i128, 64)), ir.IntType(64))
        return builder.xor(high, builder.trunc(product, ir.IntType(64)))

    return sig, codegen


if PLAIN_KERNEL:
    M1, M2, M4 = (np.uint64(0x5555555555555555), np.uint64(0x3333333333333333),
                  np.uint64(0x0F0F0F0F0F0F0F0F))
    H01 = np.uint64(0x0101010101010101)
    U1, U2, U4, U32, U56 = (np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(32),
                            np.uint64(56))
    LOW32 = np.uint64(0xFFFFFFFF)

    @inline
    def _unchecked(ary):  # noqa: F811 (the plain twin)
        return ary

    @inline
    def _keep_alive(a, b):  # noqa: F811
        return None

    @inline
    def _unchecked_rules(ary, frozen):  # noqa: F811 (simulate passes no pairs to this kernel)
        return ary

    @inline
    def _playout_rules(ary, C):  # noqa: F811
        return ary

    @inline
    def _holds_playout_rules(ary, C):  # noqa: F811
        return True

    @inline
    def _popcount(x):  # noqa: F811
        x = x - ((x >> U1) & M1)
        x = (x & M2) + ((x >> U2) & M2)
        x = (x + (x >> U4)) & M4
        return np.int64((x * H01) >> U56)

    @inline
    def _low_bit(m):  # noqa: F811
        return _popcount((m & (~m + ONE)) - ONE)

    @inline
    def _nth_bit(m, n):  # noqa: F811
        for _ in range(n):
            m &= m - ONE
        return _low_bit(m)

    @inline
    def _wymum(a, b):  # noqa: F811
        a_lo, a_hi = a & LOW32, a >> U32
        b_lo, b_hi = b & LOW32, b >> U32
        ll, lh, hl, hh = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo, a_hi * b_hi
        mid = (ll >> U32) + (lh & LOW32) + (hl & LOW32)
        high = hh + (lh >> U32) + (hl >> U32) + (mid >> U32)
        return high ^ (a * b)
