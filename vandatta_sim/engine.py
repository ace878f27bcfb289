"""The compiled Vändåtta engine: deal, turn, policies, matches, batch runner and event trace.

Everything the kernels need lives in this one module on purpose: numba's on-disk cache does not
notice edits in *other* modules that a cached kernel calls, so splitting the kernels over files
invites stale caches. The constants it takes from :mod:`vandatta_sim.cards` (the card
encoding) and :mod:`vandatta_sim.trace` (event, draw-cause and deal-end codes) are frozen into
the compiled kernels as well: after changing one of those, clear the cache (``make
clean-cache``). The Python-facing API is :mod:`vandatta_sim.simulate`; the rules the kernels
implement are RULES.md plus the choices written down in ``docs/engine-rules.md``.

Encoding (see :mod:`vandatta_sim.cards`): a card type is ``rank * 4 + suit`` (52 cards) or
52/53 (jokers). A hand is two 64-bit masks per seat: ``lo`` has a bit for every type held at
least once, ``hi`` for every type held twice (two decks), so legality is ``lo & allowed`` and
``popcount(lo) + popcount(hi)`` is the hand size. The talon is an array from which each draw
takes a uniformly random remaining card (a lazily shuffled pile).

Randomness: game ``i`` of a run owns a private wyrand stream (Wang Yi's generator: a Weyl
sequence hashed by one 128-bit multiply) whose start is a splitmix64 hash of ``(seed, i)``, so a
game's result does not depend on threads, blocks or chunks, and any game can be replayed alone.

Kernel conventions: the entry points end in ``_nb``; kernels see only arrays and scalars, and
all state travels in four arrays: ``C`` (int64, constant for a run: the rules at ``R_*``, the
scale, seat policies and forget thresholds, a scripted deck), ``G`` (int64, the game: per-deal
scalars at ``S_*``, talon, discard pile, per-seat arrays), ``H`` (uint64: the hand masks and the
random state) and ``tr`` (the event trace, or zero rows). Inside the kernel C, G and H are
:class:`UncheckedArray` views (no wraparound on indexing, no reference counting), and the turn's
helpers are ``inline="always"``, each written so that it is inlined in few places (compile time
grows with every inlined copy); rarely used paths (duties, an ace's draws, the start card, the
expert's choice) are ordinary calls, which keeps the compiled turn loop small.
What each of these measures was worth is in the commit history (``git log -- engine.py``).
"""

from __future__ import annotations

import functools
import operator
import os

import numba
import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba import prange, types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed, lower_builtin
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic, models, overload, register_model

from .cards import ACE, EIGHT, JOKER_TYPES, N_DECK_TYPES, N_RANKS, N_SUITS, N_TYPES, TWO, make_card
from .trace import DRAW_CAUSES, END_REASONS, Event

# VANDATTA_PLAIN_KERNEL=1 (read at import) swaps the low-level extensions (unchecked arrays,
# llvm intrinsics: popcount, pdep, the 128-bit multiply, count-trailing-zeros) for plain numba
# code that plays the same games more slowly: tests compare the two, so that a numba release
# that breaks an extension is caught. Plain kernels are not cached (the cache cannot tell the
# two paths apart).
PLAIN_KERNEL = os.environ.get("VANDATTA_PLAIN_KERNEL", "").strip() not in ("", "0")
njit = functools.partial(numba.njit, cache=not PLAIN_KERNEL, nogil=True, error_model="numpy")
inline = functools.partial(njit, inline="always")

# --- limits ------------------------------------------------------------------------------------
TURN_CAP = 5000  # turns in one deal; a deal reaching it is flagged `capped`
DEAL_CAP = 1000  # deals in one match
MAX_SEATS = 10
MAX_DECKS = 2
TALON_SIZE = MAX_DECKS * N_TYPES  # the largest pack: two decks with both jokers
BLOCK = 64  # games per parallel work item (results never depend on it)

# --- rules vector layout (filled by simulate.kernel_rules) -----------------------------------
(R_PLAYERS, R_DECKS, R_HAND, R_JOKERS, R_JOKER_EFFECT, R_START_EIGHT, R_START_ACE,
 R_MUST_PLAY, R_STACKING, R_EIGHT_SAME, R_EIGHT_ON_ACE, R_EIGHT_ON_EIGHT, R_ACE_ON_EIGHT,
 R_ACE_ON_ACE, R_ACE_DRAW, R_ACE_EXTRA, R_DRAW_LIMIT, R_SPECIALS_DRAW, R_OUT_ON_SPECIAL,
 R_LAST_START_SUIT, R_TWO_DRAWS_TWO, R_CALL_AT, R_CALL_PENALTY, R_RESHUFFLES, R_MATCH_KIND,
 R_MATCH_PARAM, R_ELIM_PASS, R_SIZE) = range(28)

# the values of the rules with named choices, in the order of their codes (the kernel's numbers)
JOKER_EFFECTS = ("reverse", "draw_two", "super_eight")
START_EIGHT = ("bury", "dealer_names", "forehand_names")
START_ACE = ("all_draw", "all_but_dealer_draw", "dealer_draws", "bury")
ACE_ON_ACE = ("forbidden", "allowed", "counter")
MATCH_KINDS = ("single", "deals", "elimination", "best_of")
JK_REVERSE, JK_DRAW_TWO, JK_SUPER_EIGHT = 0, 1, 2
SE_BURY, SE_DEALER, SE_FOREHAND = 0, 1, 2
SA_ALL, SA_ALL_BUT_DEALER, SA_DEALER, SA_BURY = 0, 1, 2, 3
AA_FORBIDDEN, AA_ALLOWED, AA_COUNTER = 0, 1, 2
M_SINGLE, M_DEALS, M_ELIMINATION, M_BEST_OF = 0, 1, 2, 3

# --- the constant vector C: rules, then scale points, seat policies, seat forget thresholds ----
C_SCALE = R_SIZE  # per card type: its points
# per card type: the points the policies believe it costs (their penalty risk). Normally the
# scale; an experiment that varies one card's score with play held fixed keeps this one.
C_VALUE = C_SCALE + N_TYPES
C_POL = C_VALUE + N_TYPES  # per seat: its policy (POL_*)
C_FORGET = C_POL + MAX_SEATS  # per seat: probability * 2**53, compared with 53 random bits
C_SCRIPT_LEN = C_FORGET + MAX_SEATS  # scripted deck for tests: number of cards, then the cards
C_SCRIPT = C_SCRIPT_LEN + 1
C_SIZE = C_SCRIPT + TALON_SIZE

# --- the game-state vector G: per-deal scalars (S_*), then the piles and per-seat arrays -------
(S_NT, S_ND, S_EFF, S_SUIT, S_RANK, S_TOP_JOKER, S_DIR, S_DUTY_ACE, S_DUTY_TWO, S_RESHUFFLES,
 S_START_SUIT, S_PLAYS, S_DRAWS, S_NEV, S_CALL_FORGOT, S_TURNS, S_SWAPPED, S_SCRIPTED,
 S_FORCE_SUIT, S_NO_STACK, S_DEAL_NO, S_SIZE) = range(22)
# S_FORCE_SUIT / S_NO_STACK: the search player's choice for the move it is making (the suit an
# eight names, whether to stop stacking); -1 / 0 when no choice is forced. S_DEAL_NO: the
# match's deal under way (0 first), for a playout that plays the match on.
G_TALON = S_SIZE
G_DISCARD = G_TALON + TALON_SIZE
G_LACKS = G_DISCARD + TALON_SIZE  # per position: bit s = has shown it cannot follow suit s
G_SEATS = G_LACKS + MAX_SEATS  # per position (0 = förhand): the absolute seat
G_ACTIVE = G_SEATS + MAX_SEATS  # per seat: still in the match
G_TOTALS = G_ACTIVE + MAX_SEATS  # per seat: match points
G_WINS = G_TOTALS + MAX_SEATS  # per seat: deals won
G_POINTS = G_WINS + MAX_SEATS  # per position: points of the deal just played
G_PLAY_SIZE = G_POINTS + MAX_SEATS  # the part of G a search playout copies and plays on
# The public bookkeeping (see "the search player"; kept by real games only, read by a search
# seat's worlds, never by a playout): per position, what its failed plays have shown about its
# hand. "At least G_STRONG_N cards avoid the card types of mask G_STRONG, and at least G_WIDE_N
# (of which those) avoid G_WIDE" (G_STRONG includes G_WIDE). G_RESHUFFLED: per card type, its
# copies in the talon as rebuilt at the last reshuffle (valid where S_RESHUFFLES > 0).
G_STRONG = G_PLAY_SIZE
G_STRONG_N = G_STRONG + MAX_SEATS
G_WIDE = G_STRONG_N + MAX_SEATS
G_WIDE_N = G_WIDE + MAX_SEATS
G_RESHUFFLED = G_WIDE_N + MAX_SEATS
# per position, its last move from the hand as its policy made it (for beliefs=weighted): the
# card (-1: none, or a draw since), the top it was played on (eff | suit << 2 | rank << 4 |
# joker << 8 | reshuffles << 9), its hand size then, the suits the next player lacked and the
# smallest opponent hand; the suit it named last (-1: none, or a draw since), the suits it might
# name (| the next player's lacks << 4) and its hand size after naming.
G_CHOICE_CARD = G_RESHUFFLED + N_TYPES
G_CHOICE_TOP = G_CHOICE_CARD + MAX_SEATS
G_CHOICE_COUNT = G_CHOICE_TOP + MAX_SEATS
G_CHOICE_LACKS = G_CHOICE_COUNT + MAX_SEATS
G_CHOICE_MIN = G_CHOICE_LACKS + MAX_SEATS
G_NAMED = G_CHOICE_MIN + MAX_SEATS
G_NAMED_ALLOWED = G_NAMED + MAX_SEATS
G_NAMED_COUNT = G_NAMED_ALLOWED + MAX_SEATS
G_SIZE = G_NAMED_COUNT + MAX_SEATS

# --- the hand vector H (uint64): "at least one" masks, "two copies" masks, the random state ----
HI = MAX_SEATS  # H[p] is position p's "at least one" mask, H[HI + p] its "two copies" mask
H_RNG = 2 * MAX_SEATS
H_AHEAD = H_RNG + 1  # the stream's next output, computed one call ahead
H_SIZE = H_AHEAD + 1

EFF_ORDINARY, EFF_ACE, EFF_EIGHT = 0, 1, 2  # what the effective top card asks for

# --- policies: to add one, add its name here and its branches in the section "policies" -----
POLICIES = ("random", "greedy", "expert", "eight-dumper", "search")
POL_RANDOM, POL_GREEDY, POL_EXPERT, POL_EIGHT_DUMPER, POL_SEARCH = range(len(POLICIES))
# A seat's policy code is its POL_* number plus its options' bits; a decision reads the kind as
# ``pol & POL_KIND`` and an option as ``pol & OPT_*``. The options each policy accepts: name ->
# allowed values (the first is the default), and the bits each value sets.
POL_KIND = 7
OPT_EIGHTS_DUMP = 8  # expert:eights=dump: the expert, except that it plays an eight when it may
# expert:eights=K: the expert, except that it plays an eight whenever one is legal once its hand
# has at most K cards (a timing study between hold and dump); K sits in these bits
EIGHTS_AT_SHIFT = 4
EIGHTS_AT_MAX = 15
# search: determinized Monte Carlo (see the section "the search player"). Its options: budget
# (worlds sampled per decision; every option is played out in each), the rollout policy that
# plays every seat in the playouts, and the objective (win the deal, fewest points, or win the
# match: its playouts then play the rest of the match).
SEARCH_ROLLOUT_SHIFT = 3  # 2 bits: the rollout policy's POL_* (random … eight-dumper)
ROLLOUT_KIND = 3
OPT_SEARCH_POINTS = 1 << 5  # objective=points
SEARCH_MARGIN_SHIFT = 6  # 2 bits: standard errors an option must lead the rollout move by
SEARCH_BUDGET_SHIFT = 8  # 16 bits
OPT_SEARCH_MATCH = 1 << 24  # objective=match
SEARCH_BELIEFS_SHIFT = 25  # 2 bits: the worlds' beliefs (BELIEFS_*)
BELIEFS_PUBLIC, BELIEFS_LACKS, BELIEFS_ORACLE, BELIEFS_WEIGHTED = 0, 1, 2, 3
OPT_SEARCH_FLAT = 1 << 27  # alloc=flat: every option in every world (no racing)
SEARCH_BUDGETS = (32, 1, 2, 4, 8, 16, 64, 128, 256, 512, 1024, 2048, 4096)  # the first: default
POLICY_OPTIONS = {
    "expert": {"eights": {"hold": 0, "dump": OPT_EIGHTS_DUMP, **{
        str(k): k << EIGHTS_AT_SHIFT for k in range(1, EIGHTS_AT_MAX + 1)}}},
    "search": {
        "budget": {str(b): b << SEARCH_BUDGET_SHIFT for b in SEARCH_BUDGETS},
        "rollout": {name: POLICIES.index(name) << SEARCH_ROLLOUT_SHIFT
                    for name in ("expert", "greedy", "random", "eight-dumper")},
        "objective": {"win": 0, "points": OPT_SEARCH_POINTS, "match": OPT_SEARCH_MATCH},
        "margin": {str(z): z << SEARCH_MARGIN_SHIFT for z in (2, 0, 1, 3)},
        # oracle is a cheat (it sees the true hands): a diagnostic ceiling, never a player
        "beliefs": {"public": BELIEFS_PUBLIC << SEARCH_BELIEFS_SHIFT,
                    "lacks": BELIEFS_LACKS << SEARCH_BELIEFS_SHIFT,
                    "oracle": BELIEFS_ORACLE << SEARCH_BELIEFS_SHIFT,
                    "weighted": BELIEFS_WEIGHTED << SEARCH_BELIEFS_SHIFT},
        "alloc": {"race": 0, "flat": OPT_SEARCH_FLAT}},
}
ROLLOUT_TURNS = 1000  # a playout longer than this counts as not won (points: as it stands)
# A deal whose talon has been rebuilt from the discards this often is dragging: the expert stops
# feeding cards to the table with aces (see _expert_pick)
DRAGGING_RESHUFFLES = 2

# --- cards -------------------------------------------------------------------------------------
# A card type's suit is its low SUIT_BITS bits and its rank the bits above (cards.make_card).
SUIT_BITS = 2
assert 1 << SUIT_BITS == N_SUITS, "the kernel takes suit and rank apart with bit operations"
SUIT_OF = N_SUITS - 1  # card & SUIT_OF is its suit
ALL_SUITS = (1 << N_SUITS) - 1  # a set of suits has bit s for suit s
ONE = np.uint64(1)
ZERO = np.uint64(0)
assert N_TYPES <= 64, "a hand is a 64-bit mask of card types"


def _mask(cards) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


def _rank_cards(rank) -> np.uint64:
    return _mask(make_card(rank, s) for s in range(N_SUITS))


CLUBS = _mask(make_card(r, 0) for r in range(N_RANKS))  # suit s is CLUBS << s
RANK_ZERO = _rank_cards(0)  # rank r is RANK_ZERO << (N_SUITS * r)
ACES = _rank_cards(ACE)
TWOS = _rank_cards(TWO)
EIGHTS = _rank_cards(EIGHT)
JOKERS = _mask(JOKER_TYPES)
ORDINARY = _mask(range(N_DECK_TYPES)) & ~ACES & ~EIGHTS

# splitmix64 constants (seeding)
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
U30, U27, U31, U32, U11 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32), np.uint64(11)
LOW32 = np.uint64(0xFFFFFFFF)
# wyrand constants (Wang Yi's wyhash)
WY0 = np.uint64(0xA0761D6478BD642F)
WY1 = np.uint64(0xE7037ED1A0B428DB)

# event codes, draw causes and deal ends as plain ints for the kernels (the trace's own numbers)
EV_NEW_DEAL, EV_DEAL, EV_START, EV_BURY, EV_TURN, EV_PLAY, EV_NAME_SUIT, EV_DRAW, EV_PASS = (
    int(Event.NEW_DEAL), int(Event.DEAL), int(Event.START), int(Event.BURY), int(Event.TURN),
    int(Event.PLAY), int(Event.NAME_SUIT), int(Event.DRAW), int(Event.PASS))
EV_RESHUFFLE, EV_CALL, EV_END_DEAL, EV_SCORE, EV_ELIMINATED, EV_END_MATCH, EV_SWAP = (
    int(Event.RESHUFFLE), int(Event.CALL), int(Event.END_DEAL), int(Event.SCORE),
    int(Event.ELIMINATED), int(Event.END_MATCH), int(Event.SWAP))
EV_ESTIMATE = int(Event.ESTIMATE)
CAUSE_DRAW, CAUSE_ACE, CAUSE_COUNTER, CAUSE_TWO, CAUSE_CALL, CAUSE_START_ACE = (
    DRAW_CAUSES.index(cause) for cause in ("draw", "ace", "counter", "two", "call", "start_ace"))
END_WON, END_BLOCKED, END_CAPPED = (END_REASONS.index(end) for end in ("won", "blocked", "capped"))


# ================================================================================================
# unchecked arrays: the state vectors without numba's negative-index wraparound
# ================================================================================================
class UncheckedArray(types.Array):
    """A 1-D C-contiguous view of an array's memory: integer indexing skips numba's
    negative-index wraparound, and the view is not reference-counted.

    The kernels index their state vectors with computed offsets that are never negative; the
    wraparound test numba adds to every such access (a compare and a select, and a register for
    the length) cost 16% of the playing time (measured). Passing a reference-counted array to a
    function that is not inlined costs two atomic operations per array (measured: about 150
    cycles per call with four arrays). The view *borrows* the memory: whoever makes it keeps
    the array alive for as long as the view is used (see ``_keep_alive``). Other operations are
    the ordinary array's."""

    def __init__(self, dtype):
        super().__init__(dtype, 1, "C", name=f"unchecked({dtype})")

    def copy(self, dtype=None, ndim=None, layout=None, readonly=None):
        # derived arrays (slices, reshapes) are ordinary, reference-counted arrays
        return types.Array(dtype or self.dtype, ndim or 1, layout or "C", readonly=bool(readonly))

    @property
    def key(self):
        return "unchecked", self.dtype


@register_model(UncheckedArray)
class _BorrowedArrayModel(models.ArrayModel):
    """The array's data model, with no meminfo for the reference counting to find."""

    def traverse(self, builder):
        return []

    def contains_nrt_meminfo(self):
        return False


@intrinsic
def _unchecked(typingctx, ary):
    """View a 1-D C-contiguous array as an :class:`UncheckedArray` (the same memory)."""
    if not (isinstance(ary, types.Array) and ary.ndim == 1 and ary.layout == "C"):
        return None

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, signature.return_type, args[0])

    return UncheckedArray(ary.dtype)(ary), codegen


@intrinsic
def _keep_alive(typingctx, a, b):
    """No code: a use of ``a`` and ``b`` that keeps them alive (unreleased) up to this point."""
    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(a, b), codegen


def _item_pointer(context, builder, aryty, ary, idxty, idx):
    data = context.make_array(aryty)(context, builder, ary).data
    return builder.gep(data, [context.cast(builder, idx, idxty, types.intp)])


@lower_builtin(operator.getitem, UncheckedArray, types.Integer)
def _unchecked_getitem(context, builder, signature, args):
    aryty, idxty = signature.args
    ptr = _item_pointer(context, builder, aryty, args[0], idxty, args[1])
    return context.unpack_value(builder, aryty.dtype, ptr)


@lower_builtin(operator.setitem, UncheckedArray, types.Integer, types.Any)
def _unchecked_setitem(context, builder, signature, args):
    aryty, idxty, valty = signature.args
    ptr = _item_pointer(context, builder, aryty, args[0], idxty, args[1])
    context.pack_value(builder, aryty.dtype, context.cast(builder, args[2], valty, aryty.dtype),
                       ptr)
    return context.get_dummy_value()


# ================================================================================================
# bits and randomness
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


@inline
def _bit(card):
    return ONE << np.uint64(card)


@inline
def _suit_mask(suit):
    return CLUBS << np.uint64(suit)


@inline
def _rank_mask(rank):
    return RANK_ZERO << np.uint64(N_SUITS * rank)


@inline
def _suit(card):
    return card & SUIT_OF


@inline
def _rank(card):
    return card >> SUIT_BITS


@inline
def _is_joker(card):
    return card >= N_DECK_TYPES


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


@inline
def _mix64(z):
    z = (z ^ (z >> U30)) * MIX1
    z = (z ^ (z >> U27)) * MIX2
    return z ^ (z >> U31)


@njit
def game_seed_nb(seed_key, game):
    """The first state of game ``game``'s private stream: a hash of (seed, game index)."""
    return _mix64(_mix64(np.uint64(seed_key) ^ (np.uint64(game) * GOLDEN)) + GOLDEN)


@inline
def _step(p, direction, n):
    """The position after p in the direction of play (no division: it costs as much as a
    whole turn's other arithmetic)."""
    p += direction
    if p >= n:
        return p - n
    if p < 0:
        return p + n
    return p


@inline
def _seat(G, p):
    """The absolute seat at position p of the deal (0 = förhand)."""
    return G[G_SEATS + p]


@inline
def _next_u64(H):
    """The next output of the game's wyrand stream. It was computed by the previous call, so the
    hashing runs while the caller uses the number, not before."""
    value = H[H_AHEAD]
    H[H_RNG] += WY0
    H[H_AHEAD] = _wyrand(H[H_RNG])
    return value


@inline
def _wyrand(state):
    """The output that follows ``state`` (which the stream then advances to)."""
    state += WY0
    return _wymum(state, state ^ WY1)


@inline
def _seed_rng(H, state):
    H[H_RNG] = state
    H[H_AHEAD] = _wyrand(state)


@inline
def _rand_below(H, n):
    """Uniform integer in [0, n), exact (Lemire's multiply-and-reject)."""
    un = np.uint64(n)
    m = (_next_u64(H) >> U32) * un
    if (m & LOW32) < un:
        t = (LOW32 + ONE - un) % un
        while (m & LOW32) < t:
            m = (_next_u64(H) >> U32) * un
    return np.int64(m >> U32)


# ================================================================================================
# hands, talon, trace
# ================================================================================================
@inline
def _hand_add(H, p, card):
    b = _bit(card)
    if H[p] & b:
        H[HI + p] |= b
    else:
        H[p] |= b


@inline
def _hand_remove(H, p, card):
    b = _bit(card)
    if H[HI + p] & b:
        H[HI + p] &= ~b
    else:
        H[p] &= ~b


@inline
def _hand_count(H, p):
    return _popcount(H[p]) + _popcount(H[HI + p])


@inline
def _suit_count(H, p, mask):
    return _popcount(H[p] & mask) + _popcount(H[HI + p] & mask)


def _emit(G, tr, kind, seat, a, b):
    """Record one event (kind, seat, a, b) in the trace ``tr``; compiled by ``_emit_nb``."""


@overload(_emit, inline="always")
def _emit_nb(G, tr, kind, seat, a, b):
    """Records only when ``tr`` has rows: every batch run passes a trace of zero rows, so that
    ``simulate`` and ``play`` share one compiled kernel (a second, tracing kernel compiled for
    minutes on the first ``play``); the test of the row count is the same at every event, and
    predicted right. A search player's playouts pass a 1-D dummy: no trace code at all."""
    if tr.ndim != 2:
        return lambda G, tr, kind, seat, a, b: None

    def record(G, tr, kind, seat, a, b):
        if tr.shape[0] != 0:
            k = G[S_NEV]
            if k < tr.shape[0]:
                tr[k, 0] = kind
                tr[k, 1] = seat
                tr[k, 2] = a
                tr[k, 3] = b
            G[S_NEV] = k + 1
    return record


# --- the public bookkeeping: what everyone has seen of each hand (read by search worlds) ------
# Kept in real games only (a playout's 1-D trace compiles it away), in fields of its own that no
# policy reads, so that it changes no game. What a failed play shows: the hand held no card the
# top accepted (``on_top``), except that a last card may not be a special (out_on_special off),
# an eight without a follow-up card is no play (eight_follow=same_player), and a hand of only
# specials cannot play at all where specials_only_must_draw (for 1-2 cards that case is likely,
# so specials stay possible there; from 3 cards on it is taken as excluded, and the belief audit
# counts how often that is wrong).
def _note_play(G, tr, p, card, left):
    """Position p played ``card`` and holds ``left`` cards: a card of a type a tier excludes came
    from outside it; any other may have come from inside (the tier's count drops)."""


def _note_failure(C, G, tr, p, shown, count):
    """Position p, holding ``count`` cards, could not play: none of them is of the types of
    ``shown`` (the caller's mask of what would have been playable), with the exceptions above."""


def _note_reshuffle(G, tr):
    """The talon was just rebuilt from the discards: record its composition (public)."""


def _note_new_hand(G, tr, q):
    """A new deal: nothing is known about q's hand yet."""


def _note_draw(G, tr, p):
    """p drew a card it has not shown: its last choices no longer tell about the hand it holds."""


def _note_choice(G, H, tr, p, n, card, count):
    """p, holding ``count`` cards, plays ``card`` from its hand: record the public context."""


def _note_named(G, H, tr, p, suit, allowed, next_lacks):
    """p names ``suit`` of ``allowed`` (the next player lacking ``next_lacks``): record it."""


def _real_game(tr):
    return isinstance(tr, types.Array) and tr.ndim == 2


@overload(_note_play, inline="always")
def _note_play_nb(G, tr, p, card, left):
    if not _real_game(tr):
        return lambda G, tr, p, card, left: None

    def note(G, tr, p, card, left):
        b = np.int64(_bit(card))
        wide_n = G[G_WIDE_N + p]
        strong_n = G[G_STRONG_N + p]
        if not (b & G[G_WIDE + p]):
            wide_n -= 1
        if not (b & G[G_STRONG + p]):
            strong_n -= 1
        wide_n = min(max(wide_n, 0), left)
        G[G_WIDE_N + p] = wide_n
        G[G_STRONG_N + p] = min(max(strong_n, 0), wide_n)
    return note


@overload(_note_failure, inline="always")
def _note_failure_nb(C, G, tr, p, shown, count):
    if not _real_game(tr):
        return lambda C, G, tr, p, shown, count: None

    def note(C, G, tr, p, shown, count):
        f = shown
        if count == 1:
            f &= _last_card_mask(C, G)
        if C[R_EIGHT_SAME]:
            f &= ~EIGHTS
        if C[R_SPECIALS_DRAW] and count < 3:
            f &= ORDINARY
        if f == ZERO:
            return
        # the cards that avoided the old wide tier now avoid the new types too; all avoid these
        G[G_STRONG + p] = G[G_WIDE + p] | np.int64(f)
        G[G_STRONG_N + p] = min(G[G_WIDE_N + p], count)
        G[G_WIDE + p] = np.int64(f)
        G[G_WIDE_N + p] = count
    return note


@overload(_note_reshuffle, inline="always")
def _note_reshuffle_nb(G, tr):
    if not _real_game(tr):
        return lambda G, tr: None

    def note(G, tr):
        for t in range(N_TYPES):
            G[G_RESHUFFLED + t] = 0
        for j in range(G[S_NT]):
            G[G_RESHUFFLED + G[G_TALON + j]] += 1
    return note


@overload(_note_new_hand, inline="always")
def _note_new_hand_nb(G, tr, q):
    if not _real_game(tr):
        return lambda G, tr, q: None

    def note(G, tr, q):
        G[G_STRONG + q] = 0
        G[G_STRONG_N + q] = 0
        G[G_WIDE + q] = 0
        G[G_WIDE_N + q] = 0
        G[G_CHOICE_CARD + q] = -1
        G[G_NAMED + q] = -1
    return note


@overload(_note_draw, inline="always")
def _note_draw_nb(G, tr, p):
    if not _real_game(tr):
        return lambda G, tr, p: None

    def note(G, tr, p):
        G[G_CHOICE_CARD + p] = -1
        G[G_NAMED + p] = -1
    return note


@overload(_note_choice, inline="always")
def _note_choice_nb(G, H, tr, p, n, card, count):
    if not _real_game(tr):
        return lambda G, H, tr, p, n, card, count: None

    def note(G, H, tr, p, n, card, count):
        G[G_CHOICE_CARD + p] = card
        G[G_CHOICE_TOP + p] = (G[S_EFF] | (G[S_SUIT] << 2) | (G[S_RANK] << 4)
                               | (G[S_TOP_JOKER] << 8) | (G[S_RESHUFFLES] << 9))
        G[G_CHOICE_COUNT + p] = count
        G[G_CHOICE_LACKS + p] = G[G_LACKS + _step(p, G[S_DIR], n)]
        G[G_CHOICE_MIN + p] = _min_opponent(H, p, n)
        G[G_NAMED + p] = -1
    return note


@overload(_note_named, inline="always")
def _note_named_nb(G, H, tr, p, suit, allowed, next_lacks):
    if not _real_game(tr):
        return lambda G, H, tr, p, suit, allowed, next_lacks: None

    def note(G, H, tr, p, suit, allowed, next_lacks):
        G[G_NAMED + p] = suit
        G[G_NAMED_ALLOWED + p] = allowed | (next_lacks << 4)
        G[G_NAMED_COUNT + p] = _hand_count(H, p)
    return note


@inline
def _take(G, H):
    """Remove and return a uniformly random card of the talon (which must not be empty);
    in a scripted deal, the top card (the end of the talon array)."""
    nt = G[S_NT]
    j = nt - 1 if G[S_SCRIPTED] else _rand_below(H, nt)
    card = G[G_TALON + j]
    G[G_TALON + j] = G[G_TALON + nt - 1]
    G[S_NT] = nt - 1
    return card


@inline
def _draw(C, G, H, tr, p, cause):
    """Player p draws one card (reshuffling the discards if allowed); -1 if nothing to draw."""
    if G[S_NT] == 0:
        nd = G[S_ND]
        if nd <= 1 or (C[R_RESHUFFLES] >= 0 and G[S_RESHUFFLES] >= C[R_RESHUFFLES]):
            return -1
        for k in range(nd - 1):
            G[G_TALON + k] = G[G_DISCARD + k]
        G[G_DISCARD + 0] = G[G_DISCARD + nd - 1]
        G[S_ND] = 1
        G[S_NT] = nd - 1
        G[S_RESHUFFLES] += 1
        _note_reshuffle(G, tr)
        _emit(G, tr, EV_RESHUFFLE, -1, nd - 1, 0)
    card = _take(G, H)
    _hand_add(H, p, card)
    _note_draw(G, tr, p)
    G[S_DRAWS] += 1
    _emit(G, tr, EV_DRAW, _seat(G, p), card, cause)
    return card


@inline
def _draw_n(C, G, H, tr, p, n, cause):
    got = 0
    for _ in range(n):
        if _draw(C, G, H, tr, p, cause) < 0:
            break
        got += 1
    return got


# ================================================================================================
# legality
# ================================================================================================
@inline
def _last_card_mask(C, G):
    """Cards allowed to empty the hand (RULES: no special unless out_on_special; start suit)."""
    m = ~ZERO
    if not C[R_OUT_ON_SPECIAL]:
        m = ORDINARY
    if C[R_LAST_START_SUIT]:
        m &= _suit_mask(G[S_START_SUIT])
    return m


@inline
def _on_eight_mask(C, suit):
    """Non-eight cards that may follow an eight-like top of ``suit``."""
    m = _suit_mask(suit) & ORDINARY
    if C[R_ACE_ON_EIGHT]:
        m |= _suit_mask(suit) & ACES
    return m


@inline
def _follow_ups(C, G, lo, count):
    """Cards that could follow this player's own eight under eight_follow=same_player."""
    f = lo & (ORDINARY | (ACES if C[R_ACE_ON_EIGHT] else ZERO))
    if count == 2:  # eight + follow-up: the follow-up empties the hand
        f &= _last_card_mask(C, G)
    return f


@inline
def _on_top(C, G):
    """Mask of the card types that the top of the pile accepts (before the hand's own limits)."""
    eff = G[S_EFF]
    suit = G[S_SUIT]
    if eff == EFF_ORDINARY:
        m = _suit_mask(suit) | _rank_mask(G[S_RANK]) | EIGHTS
        if not G[S_TOP_JOKER]:
            m |= JOKERS
    elif eff == EFF_ACE:
        m = _suit_mask(suit) & ORDINARY
        if C[R_ACE_ON_ACE] != AA_FORBIDDEN:
            m |= ACES
        if C[R_EIGHT_ON_ACE]:
            m |= EIGHTS
    else:
        m = _on_eight_mask(C, suit)
        if C[R_EIGHT_ON_EIGHT]:
            m |= EIGHTS
    return m


@inline
def _legal(C, G, lo, count, on_top):
    """Mask of the card types among ``on_top`` that hand ``lo`` (``count`` cards) may play."""
    m = on_top & lo
    if C[R_SPECIALS_DRAW] and (lo & ORDINARY) == ZERO:
        return ZERO
    if count == 1:
        m &= _last_card_mask(C, G)
    if C[R_EIGHT_SAME] and (m & EIGHTS) and not (count == 1 and C[R_OUT_ON_SPECIAL]):
        if _follow_ups(C, G, lo, count) == ZERO:
            m &= ~EIGHTS
    return m


# ================================================================================================
# policies: every decision a player makes, side by side
# ================================================================================================
# A policy is its name in POLICIES (its number POL_* is the index there) and its branches in the
# decisions of this section; no other part of the kernel looks at a policy's number. The rules
# have decided what is allowed before a decision is asked for; the decision only picks:
#   _choose        which card to play from the mask of legal cards (none: -1); -1 = draw
#                  instead, which only a caller that passes ``may_pass`` (must_play off) accepts
#   _choose_suit   which suit to name after an eight or a super-eight joker, one of a set of
#                  suits (bit s = suit s) that the rules allow
#   _choose_stack  whether to go on stacking and with which card: one of a mask of same-rank
#                  cards that the rules let it stack, or -1 to stop
#   _min_opponent_for   what p's own move is told about the opponents' hand sizes
# A decision may read the player's own hand (H[p], H[HI + p]), the run's constants C (rules,
# scale) and what its arguments say (public facts: the hand size, the suits the next player has
# shown it lacks, the smallest opponent hand); it reads no other hand and not the talon. It
# changes no state, except that it may take numbers from the game's random stream
# (``_rand_below(H, k)``, as `random` does). A policy without a branch in a decision gets that
# decision's last lines, the shared default. A card decision breaks ties between equally valued
# cards at random (``_pick_tied``). Today's policies (docs/policies.md says more):
#   policy         card                                 suit                  stacking
#   random         a uniformly random legal card, or    the longest           the default
#                  a draw where passing is allowed
#   greedy         _greedy_pick: aces and jokers, then  the longest           the default
#                  the costliest ordinary, eights last
#   expert         _expert_pick; it draws rather than   one the next player   the default, but
#                  play an eight early where it may     lacks, else longest   never an eight
#   expert:eights=dump   an eight if it may, else expert  as expert           the default
#   eight-dumper   an eight if it has one, else greedy  the longest           the default
NOT_COUNTED = MAX_SEATS  # min_opponent where it was not counted: "no opponent is on one card"
NO_FORCE = -2  # a move whose choice the policy makes (see _move)


@inline
def _best_suit(H, p, allowed_suits, prefer_suits):
    """Suit with most ordinary cards in hand among ``allowed_suits`` (ties: lowest suit);
    a suit in ``prefer_suits`` that the player holds wins over a longer one."""
    best = -1
    best_score = -1
    for s in range(N_SUITS):
        if not (allowed_suits >> s) & 1:
            continue
        k = _suit_count(H, p, _suit_mask(s) & ORDINARY)
        if k > 0 and (prefer_suits >> s) & 1:
            k += 100
        if k > best_score:
            best_score = k
            best = s
    return best


@inline
def _pick_tied(H, ties):
    """One card type of the mask ``ties`` (the equally valued best cards), uniformly at random
    from the game's stream, so that no rank gains value from the order of the card types."""
    k = _popcount(ties)
    return _low_bit(ties) if k == 1 else _nth_bit(ties, _rand_below(H, k))


@inline
def _strands(H, p, count, b):
    """Whether playing the card with bit ``b`` leaves p a hand of only specials (which must
    draw, where specials_only_must_draw, and can never go out)."""
    lo = H[p]
    rest_lo = lo if (H[HI + p] & b) else lo & ~b
    return count > 1 and (rest_lo & ORDINARY) == ZERO


STRANDED = 1 << 30  # a policy's value of a card that strands the hand: below every other card


@inline
def _greedy_pick(C, H, m, p, count):
    """greedy's card: jokers and aces first (its own valuation: everyone draws or the direction
    turns, whatever they score), then the ordinary card that would cost most points if caught
    with it (penalty risk, from the scale), eights last; never one that strands the hand with
    only specials while another card does not; ties at random."""
    best_value = -(1 << 40)
    ties = ZERO
    mm = m
    while mm:
        c = _low_bit(mm)
        mm &= mm - ONE
        b = _bit(c)
        if b & EIGHTS:
            value = -1
        elif b & (ACES | JOKERS):
            value = 1 << 20
        else:
            value = C[C_VALUE + c]
        if _strands(H, p, count, b):
            value -= STRANDED
        if value > best_value:
            best_value = value
            ties = b
        elif value == best_value:
            ties |= b
    return _pick_tied(H, ties)


@njit
def _expert_pick(C, G, H, m, p, count, next_lacks, min_opponent):
    """Seeds 000/002's advice: dump expensive cards early, keep eights for the end, play an ace
    when an opponent is on one card, never strand the hand with only specials (this comes
    before keeping eights: a hand of eights and one ordinary card sheds the eights), leave a
    suit the next player has shown it lacks and one the hand is long in. Measured on top of
    that: an ace that the hand can follow in its own suit is worth playing at once (two cards
    shed, every opponent draws), which is what lets `expert` beat `greedy`. Ties at random."""
    lo = H[p]
    best_score = -(1 << 40)
    ties = ZERO
    mm = m
    # all-expert tables of 6-10 players, and ace_draw=3, used to stall (half the 10-player
    # deals reached the turn cap): every ace made everyone draw what little was left, so the
    # cards went round and round. An ace the hand can follow is still played at once, but not
    # once the deal is dragging (measured: no capped deals at 2-10 players, and the same
    # strength at 4 and 6 players).
    dragging = G[S_RESHUFFLES] >= DRAGGING_RESHUFFLES
    while mm:
        c = _low_bit(mm)
        mm &= mm - ONE
        b = _bit(c)
        rest_lo = lo if (H[HI + p] & b) else lo & ~b
        score = C[C_VALUE + c] * 10  # dump expensive cards early (penalty risk)
        if b & EIGHTS:
            score -= 100000 if count > 2 else 1000  # keep eights for the end
        elif b & JOKERS:
            score -= 5000
        elif b & ACES:
            if min_opponent == 1:
                score += 50000  # an opponent on one card must draw
            elif (C[R_ACE_EXTRA] and C[R_ACE_ON_ACE] != AA_COUNTER and not dragging
                  and (rest_lo & _suit_mask(_suit(c)) & ~EIGHTS)):
                score += 3000  # everyone draws, and the ace's suit can follow at once
            else:
                score -= 3000  # keep it for an opponent on one card
        if _strands(H, p, count, b):
            score -= STRANDED  # never strand the hand with only specials
        if not _is_joker(c):
            s = _suit(c)
            score += 30 * _suit_count(H, p, _suit_mask(s) & ORDINARY)
            if (next_lacks >> s) & 1:
                score += 200
        if score > best_score:
            best_score = score
            ties = b
        elif score == best_score:
            ties |= b
    return _pick_tied(H, ties)


@inline
def _choose(C, G, H, pol, m, may_pass, p, count, next_lacks, min_opponent):
    """The card type policy ``pol`` plays from legal mask ``m``; -1 to draw instead
    (only offered when ``may_pass``, i.e. must_play is off). ``count`` is p's hand size,
    ``next_lacks`` the suits the next player has shown it lacks, ``min_opponent`` the smallest
    opponent hand or NOT_COUNTED. (A search player's moves are decided in _turn_loop, which
    hands what the search leaves open to its rollout policy.)"""
    if m == ZERO:
        return -1
    kind = pol & POL_KIND
    if kind == POL_RANDOM:
        k = _popcount(m)
        j = _rand_below(H, k + 1 if may_pass else k)
        return -1 if j == k else _nth_bit(m, j)
    if (m & EIGHTS) and (kind == POL_EIGHT_DUMPER or (kind == POL_EXPERT and (
            (pol & OPT_EIGHTS_DUMP) or count <= _eights_at(pol)))):
        return _pick_tied(H, m & EIGHTS)
    if kind == POL_EXPERT:
        c = _expert_pick(C, G, H, m, p, count, next_lacks, min_opponent)
        crowded = 2 * _suit_count(H, p, ORDINARY) < count  # specials are half the hand or more
        if may_pass and (_bit(c) & EIGHTS) and count > 3 and not crowded:
            return -1  # keep the eight for the end: draw instead, unless specials crowd the hand
        return c
    return _greedy_pick(C, H, m, p, count)


@inline
def _choose_suit(H, pol, p, allowed_suits, next_lacks):
    """The suit policy ``pol`` names, one of ``allowed_suits``; ``next_lacks`` as for _choose."""
    # the expert leaves the next player stuck
    prefer = next_lacks if (pol & POL_KIND) in (POL_EXPERT, POL_SEARCH) else 0
    return _best_suit(H, p, allowed_suits, prefer)


@inline
def _eights_at(pol):
    """K of expert:eights=K (0 where not set): it plays eights once its hand has at most K."""
    return (pol >> EIGHTS_AT_SHIFT) & EIGHTS_AT_MAX


@inline
def _choose_stack(H, pol, p, rank, same):
    """The next card policy ``pol`` stacks from ``same``, p's cards of the ``rank`` it just
    played that the rules let it stack; -1 to stop."""
    if (rank == EIGHT and (pol & POL_KIND) == POL_EXPERT and not (pol & OPT_EIGHTS_DUMP)
            and _hand_count(H, p) > _eights_at(pol)):
        return -1  # the expert keeps its eights for the end (expert:eights=dump stacks them)
    # the last card of a stack sets the suit, so the stack ends on the suit p is longest in
    card = _low_bit(same)
    if _suit(card) == _best_suit(H, p, ALL_SUITS, 0) and _suit_count(H, p, _rank_mask(rank)) > 1:
        others = same & ~_bit(card)
        if others:
            card = _low_bit(others)
    return card


@inline
def _min_opponent(H, p, n):
    best = 1 << 20
    for q in range(n):
        if q != p:
            best = min(best, _hand_count(H, q))
    return best


@inline
def _min_opponent_for(H, pol, p, n):
    """min_opponent for p's own move: counted only for the policy that reads it (a loop over
    the seats that the others need not pay for)."""
    return _min_opponent(H, p, n) if (pol & POL_KIND) == POL_EXPERT else NOT_COUNTED


# ================================================================================================
# playing cards
# ================================================================================================
@inline
def _set_top(G, card):
    b = _bit(card)
    G[S_TOP_JOKER] = 1 if b & JOKERS else 0
    if b & JOKERS:
        return
    G[S_SUIT] = _suit(card)
    G[S_RANK] = _rank(card)
    G[S_EFF] = EFF_ACE if b & ACES else EFF_ORDINARY


@inline
def _place(C, G, H, tr, p, card):
    """Move ``card`` from p's hand to the pile; returns the hand size left.
    Emits PLAY and, when this card made a call due, CALL."""
    before = _hand_count(H, p)
    _hand_remove(H, p, card)
    G[G_DISCARD + G[S_ND]] = card
    G[S_ND] += 1
    G[S_PLAYS] += 1
    _emit(G, tr, EV_PLAY, _seat(G, p), card, 0)
    if not _is_joker(card):
        G[G_LACKS + p] &= ~(1 << _suit(card))
    left = before - 1
    _note_play(G, tr, p, card, left)
    if before > C[R_CALL_AT] and 1 <= left <= C[R_CALL_AT]:
        threshold = C[C_FORGET + _seat(G, p)]
        forgot = threshold > 0 and np.int64(_next_u64(H) >> U11) < threshold
        if forgot:
            G[S_CALL_FORGOT] = 1
        _emit(G, tr, EV_CALL, _seat(G, p), 0 if forgot else 1, 0)
    return left


@njit
def _ace_draws(C, G, H, tr, p, n):
    """Every other player draws ace_draw cards, in the direction of play from the ace's player."""
    q = p
    for _ in range(1, n):
        q = _step(q, G[S_DIR], n)
        _draw_n(C, G, H, tr, q, C[R_ACE_DRAW], CAUSE_ACE)


@inline
def _name(G, H, tr, pol, p, allowed_suits, next_lacks):
    suit = G[S_FORCE_SUIT]  # the search player's choice, made with the card
    if suit < 0 or not (allowed_suits >> suit) & 1:
        suit = _choose_suit(H, pol, p, allowed_suits, next_lacks)
    _note_named(G, H, tr, p, suit, allowed_suits, next_lacks)
    G[S_EFF] = EFF_EIGHT
    G[S_SUIT] = suit
    _emit(G, tr, EV_NAME_SUIT, _seat(G, p), suit, 0)
    return suit


@inline
def _stack_next(C, G, H, pol, p, rank):
    """The next card p stacks on a card of ``rank`` it just played, or -1 to stop: the
    policy's choice among the cards that the rules let it stack."""
    if not C[R_STACKING] or G[S_NO_STACK]:
        return -1
    same = H[p] & _rank_mask(rank)
    if same == ZERO:
        return -1
    rest = _hand_count(H, p)
    if rest == 1 and not (same & _last_card_mask(C, G)):  # ``same`` is that one card
        return -1
    if rank == EIGHT and C[R_EIGHT_SAME] and rest > 1 and _follow_ups(C, G, H[p], rest) == ZERO:
        return -1  # an eight now would leave no follow-up card
    return _choose_stack(H, pol, p, rank, same)


@inline
def _play_card(C, G, H, tr, pol, p, n, card):
    """Play ``card`` (already known to be legal) with stacking, naming and all its effects.
    Returns 2 if the hand is now empty, 1 if the player moves again (ace), else 0.
    (Written as one loop with one call of each helper so that inlining stays small.)"""
    nxt = _step(p, G[S_DIR], n)
    while True:  # one round per card placed: stacked cards and an eight's follow-up too
        if _place(C, G, H, tr, p, card) == 0:
            return 2  # the deal ends at once; the card's effect no longer matters
        rank = -1
        name_suits = 0  # suits the player may name now (0: nothing to name)
        follow = ZERO  # same-player follow-up cards after an eight
        if _bit(card) & JOKERS:
            G[S_TOP_JOKER] = 1  # the card under the joker stays in force for matching
            effect = C[R_JOKER_EFFECT]
            if effect == JK_REVERSE:
                G[S_DIR] = -G[S_DIR]
            elif effect == JK_DRAW_TWO:
                G[S_DUTY_TWO] += 2
            else:
                name_suits = ALL_SUITS
        else:
            rank = _rank(card)
            _set_top(G, card)
            if rank == ACE:
                if C[R_ACE_ON_ACE] == AA_COUNTER:
                    G[S_DUTY_ACE] += C[R_ACE_DRAW]
                else:
                    _ace_draws(C, G, H, tr, p, n)
            elif rank == TWO and C[R_TWO_DRAWS_TWO]:
                G[S_DUTY_TWO] += 2
            stacked = _stack_next(C, G, H, pol, p, rank)
            if stacked >= 0:
                card = stacked
                continue
            if rank == EIGHT:
                name_suits = ALL_SUITS
                if C[R_EIGHT_SAME]:
                    follow = _follow_ups(C, G, H[p], _hand_count(H, p) + 1)
                    name_suits = 0
                    for s in range(N_SUITS):
                        if follow & _suit_mask(s):
                            name_suits |= 1 << s
        if name_suits:
            suit = _name(G, H, tr, pol, p, name_suits, G[G_LACKS + nxt])
            if rank == EIGHT and C[R_EIGHT_SAME]:
                card = _choose(C, G, H, pol, follow & _suit_mask(suit), False, p,
                               _hand_count(H, p), G[G_LACKS + nxt], NOT_COUNTED)
                continue  # the same player follows up in the named suit
            return 0
        if rank == ACE and C[R_ACE_EXTRA] and C[R_ACE_ON_ACE] != AA_COUNTER:
            return 1
        return 0


# ================================================================================================
# a turn, a deal, a match
# ================================================================================================
@inline
def _move(C, G, H, tr, pol, p, n, forced):
    """One move of player p: the card it plays from hand, or else it draws; returns the drawn
    card if that one is to be played, or -1 after a pass. ``forced`` (a card, or -1 to draw)
    replaces the policy's choice in a search player's playouts; NO_FORCE otherwise."""
    count = _hand_count(H, p)
    on_top = _on_top(C, G)  # the top does not change while p draws
    m = _legal(C, G, H[p], count, on_top)
    if forced != NO_FORCE:
        card = forced
    else:
        nxt = _step(p, G[S_DIR], n)
        min_opp = _min_opponent_for(H, pol, p, n)
        card = _choose(C, G, H, pol, m, not C[R_MUST_PLAY], p, count, G[G_LACKS + nxt],
                       min_opp)
    if card >= 0:
        _note_choice(G, H, tr, p, n, card, count)
        return card
    if m == ZERO:
        G[G_LACKS + p] |= 1 << G[S_SUIT]  # seen by everyone: it could not follow this suit
        _note_failure(C, G, tr, p, on_top, count)
    drawn = 0
    limit = C[R_DRAW_LIMIT]
    while limit == 0 or drawn < limit:
        card = _draw(C, G, H, tr, p, CAUSE_DRAW)
        if card < 0:
            break
        drawn += 1
        count += 1
        if _legal(C, G, H[p], count, on_top & _bit(card)):  # only the drawn card may be played
            return card
    _emit(G, tr, EV_PASS, _seat(G, p), 0, 0)
    return -1


@inline
def _duty_answers(C, G, H, p):
    """The cards with which p may answer the pending duty (counter-aces or twos)."""
    answers = H[p] & ACES if G[S_DUTY_ACE] > 0 else (H[p] & TWOS if C[R_TWO_DRAWS_TWO] else ZERO)
    if _hand_count(H, p) == 1:
        answers &= _last_card_mask(C, G)
    if C[R_SPECIALS_DRAW] and (H[p] & ORDINARY) == ZERO:
        answers = ZERO  # a hand of only specials has no legal play, not even an answer
    return answers


@njit
def _answer_duty(C, G, H, tr, pol, p, n, forced):
    """A pending counter-ace or two duty: the ace / two that answers it, or else p draws the
    whole duty, passes, and -1 is returned. ``forced`` as for _move."""
    answers = _duty_answers(C, G, H, p)
    cause = CAUSE_COUNTER if G[S_DUTY_ACE] > 0 else CAUSE_TWO
    count = _hand_count(H, p)
    nxt = _step(p, G[S_DIR], n)
    card = forced if forced != NO_FORCE else _choose(
        C, G, H, pol, answers, not C[R_MUST_PLAY], p, count, G[G_LACKS + nxt], NOT_COUNTED)
    if card >= 0:
        return card
    if answers == ZERO:
        _note_failure(C, G, tr, p, ACES if G[S_DUTY_ACE] > 0 else (
            TWOS if C[R_TWO_DRAWS_TWO] else ZERO), count)
    duty = G[S_DUTY_ACE] + G[S_DUTY_TWO]
    G[S_DUTY_ACE] = 0
    G[S_DUTY_TWO] = 0
    _draw_n(C, G, H, tr, p, duty, cause)
    _emit(G, tr, EV_PASS, _seat(G, p), 0, 0)
    return -1


@inline
def _hand_points(C, lo, hi):
    total = 0
    while lo:
        total += C[C_SCALE + _low_bit(lo)]
        lo &= lo - ONE
    while hi:
        total += C[C_SCALE + _low_bit(hi)]
        hi &= hi - ONE
    return total


@njit
def _swap_in(G, H, tr, q, rank):
    """Swap experiment: exchange one of q's ordinary cards (of another rank) for a card of
    ``rank`` from the talon. Uses random numbers of its own, so that the game's stream is where
    it is in the unswapped game; later draws and choices part ways as soon as the two hands are
    played differently (eight-value.md measures how much the paired games still share)."""
    out_mask = H[q] & ORDINARY & ~_rank_mask(rank)
    n_in = 0
    for j in range(G[S_NT]):
        if _rank(G[G_TALON + j]) == rank and not _is_joker(G[G_TALON + j]):
            n_in += 1
    if out_mask == ZERO or n_in == 0:
        return
    side = np.empty(H_SIZE, np.uint64)
    _seed_rng(side, _mix64(H[H_RNG] ^ MIX2))
    out_card = _nth_bit(out_mask, _rand_below(side, _popcount(out_mask)))
    k = _rand_below(side, n_in)
    for j in range(G[S_NT]):
        if _rank(G[G_TALON + j]) == rank and not _is_joker(G[G_TALON + j]):
            if k == 0:
                in_card = G[G_TALON + j]
                G[G_TALON + j] = out_card
                _hand_remove(H, q, out_card)
                _hand_add(H, q, in_card)
                G[S_SWAPPED] = 1
                _emit(G, tr, EV_SWAP, _seat(G, q), out_card, in_card)
                return
            k -= 1


@njit
def _start_card(C, G, H, tr, n):
    card = _take(G, H)
    _emit(G, tr, EV_START, -1, card, 0)
    for _ in range(TALON_SIZE):
        b = _bit(card)
        bury = (b & JOKERS) or ((b & EIGHTS) and C[R_START_EIGHT] == SE_BURY) or (
            (b & ACES) and C[R_START_ACE] == SA_BURY)
        if not bury or G[S_NT] == 0:
            break
        again = _take(G, H)
        if G[S_SCRIPTED]:  # a scripted pack is ordered: the buried card goes to the bottom
            for j in range(G[S_NT], 0, -1):
                G[G_TALON + j] = G[G_TALON + j - 1]
            G[G_TALON] = card
        else:  # back into the talon; draws take a random card anyway
            G[G_TALON + G[S_NT]] = card
        G[S_NT] += 1
        _emit(G, tr, EV_BURY, -1, card, 0)
        _emit(G, tr, EV_START, -1, again, 0)
        card = again
    G[G_DISCARD + 0] = card
    G[S_ND] = 1
    b = _bit(card)
    if b & JOKERS:  # kept only when nothing else could be turned: clubs are in force
        G[S_TOP_JOKER] = 1
        G[S_EFF] = EFF_EIGHT
        G[S_SUIT] = 0
    else:
        _set_top(G, card)
        if (b & EIGHTS) and C[R_START_EIGHT] != SE_BURY:
            namer = n - 1 if C[R_START_EIGHT] == SE_DEALER else 0
            _name(G, H, tr, C[C_POL + _seat(G, namer)], namer, ALL_SUITS, G[G_LACKS + 0])
        elif (b & ACES) and C[R_START_ACE] != SA_BURY:
            mode = C[R_START_ACE]
            first = n - 1 if mode == SA_DEALER else 0
            last = n - 2 if mode == SA_ALL_BUT_DEALER else n - 1
            for q in range(first, last + 1):
                _draw_n(C, G, H, tr, q, C[R_ACE_DRAW],
                        CAUSE_START_ACE)
    G[S_START_SUIT] = G[S_SUIT]


@njit
def _script_talon(C, G):
    """Order the talon so that the scripted cards come off the top first, in script order
    (the rest of the pack follows in a fixed order). Used by scenario tests."""
    nt = G[S_NT]
    n_script = C[C_SCRIPT_LEN]
    rest = nt
    for i in range(n_script):  # move each scripted card to the end of the unscripted part
        card = C[C_SCRIPT + i]
        for j in range(rest):
            if G[G_TALON + j] == card:
                G[G_TALON + j] = G[G_TALON + rest - 1]
                G[G_TALON + rest - 1] = card
                rest -= 1
                break
    # script[0] now sits at the end of the array, the top of the talon, script[1] below it, …
    G[S_SCRIPTED] = 1


@njit
def _turn_loop(C, G, H, tr, n, p, max_turns, forced, first_duty):
    """Turns from position p's on until the deal ends or ``max_turns`` turns are played: the
    winner's position (-1 blocked, -2 capped), the END_* reason and the turns played.

    With ``forced`` (not NO_FORCE) p's turn is under way: its first move is that choice (and
    the suit and stacking in G[S_FORCE_SUIT], G[S_NO_STACK]), an answer to a duty when
    ``first_duty``. That is how a search player's playout continues a decision it is weighing;
    a deal starts with NO_FORCE. One function for both, compiled once per kind of trace."""
    idle = 0
    result = -2
    reason = END_CAPPED
    turns = 0
    resume = forced != NO_FORCE
    while turns < max_turns:
        turns += 1
        plays, draws = G[S_PLAYS], G[S_DRAWS]
        pol = C[C_POL + _seat(G, p)]
        if resume:
            duty = first_duty != 0
        else:
            _emit(G, tr, EV_TURN, _seat(G, p), 0, 0)
            G[S_CALL_FORGOT] = 0
            duty = G[S_DUTY_ACE] > 0 or G[S_DUTY_TWO] > 0
        status = 1
        while status == 1:  # an ace's extra turn is another move
            move_pol = pol
            if forced == NO_FORCE and (pol & POL_KIND) == POL_SEARCH:
                forced = _search(C, G, H, tr, p, n, duty)
                # what the search leaves open (all of the move, where it keeps its rollout
                # policy's choice) its rollout policy decides
                move_pol = (pol >> SEARCH_ROLLOUT_SHIFT) & ROLLOUT_KIND
            if duty:
                card = _answer_duty(C, G, H, tr, move_pol, p, n, forced)
                duty = False
            else:
                card = _move(C, G, H, tr, move_pol, p, n, forced)
            forced = NO_FORCE
            status = _play_card(C, G, H, tr, move_pol, p, n, card) if card >= 0 else 0
            G[S_FORCE_SUIT] = -1  # a search player's choices hold for the one move
            G[S_NO_STACK] = 0
        resume = False
        if status == 2:
            result = p
            reason = END_WON
            break
        if G[S_CALL_FORGOT]:
            _draw_n(C, G, H, tr, p, C[R_CALL_PENALTY],
                    CAUSE_CALL)
        idle = idle + 1 if (G[S_PLAYS] == plays and G[S_DRAWS] == draws) else 0
        if idle >= n:
            result = -1
            reason = END_BLOCKED
            break
        p = _step(p, G[S_DIR], n)
    return result, reason, turns


# The playouts' turn loop: the same code under a dispatcher of its own. (Numba takes a call to a
# dispatcher that is still being compiled for recursion and leaves it unlinked: a null call.)
_playout_turns = njit(_turn_loop.py_func)


@inline
def _deal_hands(C, G, H, tr, n, deal_no):
    """A new deal's pack and hands among the n seats of G_SEATS (förhand first, dealer last)."""
    G[S_DEAL_NO] = deal_no
    G[S_ND] = 0
    G[S_DIR] = 1
    G[S_DUTY_ACE] = 0
    G[S_DUTY_TWO] = 0
    G[S_TOP_JOKER] = 0
    G[S_RESHUFFLES] = 0
    G[S_PLAYS] = 0
    G[S_DRAWS] = 0
    G[S_FORCE_SUIT] = -1
    G[S_NO_STACK] = 0
    k = 0
    for _ in range(C[R_DECKS]):
        for c in range(N_DECK_TYPES):
            G[G_TALON + k] = c
            k += 1
        for j in range(C[R_JOKERS]):
            G[G_TALON + k] = N_DECK_TYPES + j  # the jokers' types follow the deck's
            k += 1
    G[S_NT] = k
    G[S_SCRIPTED] = 0
    if C[C_SCRIPT_LEN] > 0 and deal_no == 0:
        _script_talon(C, G)
    _emit(G, tr, EV_NEW_DEAL, _seat(G, n - 1), _seat(G, 0), deal_no)
    for q in range(n):
        H[q] = ZERO
        H[HI + q] = ZERO
        G[G_LACKS + q] = 0
        _note_new_hand(G, tr, q)
        for _ in range(C[R_HAND]):
            card = _take(G, H)
            _hand_add(H, q, card)
            _emit(G, tr, EV_DEAL, _seat(G, q), card, 0)


@inline
def _hand_points_all(C, G, H, n):
    """Each position's penalty points for the hand it holds, into G_POINTS."""
    for q in range(n):
        G[G_POINTS + q] = _hand_points(C, H[q], H[HI + q])


@inline
def _play_deal(C, G, H, tr, n, deal_no, swap_pos, swap_rank, eights, aces):
    """Play one deal among the n seats of G_SEATS (förhand first, dealer last).
    Returns the winner's position, -1 if blocked, -2 if capped; fills G_POINTS."""
    _deal_hands(C, G, H, tr, n, deal_no)
    if swap_rank >= 0 and deal_no == 0:
        _swap_in(G, H, tr, swap_pos, swap_rank)
    if deal_no == 0:
        for q in range(n):
            eights[_seat(G, q)] = _suit_count(H, q, EIGHTS)
            aces[_seat(G, q)] = _suit_count(H, q, ACES)
    _start_card(C, G, H, tr, n)
    result, reason, turns = _turn_loop(C, G, H, tr, n, 0, TURN_CAP, NO_FORCE, 0)
    G[S_TURNS] = turns
    _hand_points_all(C, G, H, n)
    _emit(G, tr, EV_END_DEAL, _seat(G, result) if result >= 0 else -1, reason, 0)
    return result


# ================================================================================================
# the search player: determinized Monte Carlo over its own information
# ================================================================================================
# At each move (which card, with which suit for an eight or a super-eight joker, whether to stack
# on, or to draw where must_play is off; or how to answer a duty) the search player lists its
# options, one of which is its rollout policy's own move (the baseline), then samples worlds
# consistent with what its seat knows (beliefs=public: its own hand, the discard pile, the other
# hands' sizes, and the public bookkeeping: what each failed play showed about the cards held
# then, and the talon's composition after a reshuffle; the unseen cards are dealt at random within
# those constraints). In every world it plays the options out to the end of the deal (with
# objective=match in a match: to the end of the match), every seat, itself included, playing the
# rollout policy, the same random numbers for every option of a world. It plays another option
# than the baseline only where that one's mean outcome (deals or matches won, or fewest points as
# the `valuation` weighs them) is better by more than ``margin`` standard errors of the paired
# difference (flat Monte Carlo over a dozen options picks noise otherwise: measured, budget 32
# without this rule won 21% against three experts, below their 25%).
# Budget where it matters (alloc=race): the playouts of ``budget`` worlds of every option are
# spent in rounds; at looks after 8, 16, 32 … worlds an option whose upper bound (mean paired
# difference from the baseline + RACE_Z standard errors) is below the best lower bound (the
# baseline's is 0) is dropped, and the playouts it would have used go to more worlds for those
# left (at most RACE_WORLDS × budget worlds); alone with nothing left to race, the baseline stops.
# Its random numbers come from a stream of its own, seeded with one number of the game's stream
# per decision, so a game still depends only on (seed, game, rules, seats), and the decision
# depends only on the seat's information and that stream (tests/test_search.py checks both).
MAX_OPTIONS = 64
SEARCH_SEEDED = 0x5EA5C4  # mixed into the search stream's seed (a stream apart from the game's)
FIRST_LOOK = 8  # racing: worlds before the first look at the paired differences (then doubling)
RACE_WORLDS = 4  # racing: at most this many times the budget in worlds
RACE_Z = 2.0  # racing: standard errors of the bounds that drop an option
ROLLOUT_MOVE_BIT = 1 << 13  # in an ESTIMATE row's option code: this is the rollout's own move


def _search(C, G, H, tr, p, n, duty):
    """The search player's choice for the move p is about to make (an answer to a duty where
    ``duty``): a card, -1 to draw or take the duty, or NO_FORCE where nothing is to be chosen;
    it leaves its suit and stacking choice in G. Compiled by ``_search_nb``."""


@overload(_search, inline="always")
def _search_nb(C, G, H, tr, p, n, duty):
    """In a playout (a 1-D int8 ``tr``) no seat searches: every seat plays the rollout policy.
    The playouts get a stub here, so the kernel never compiles itself recursively."""
    if isinstance(tr, types.Array) and tr.dtype == types.int8:
        return lambda C, G, H, tr, p, n, duty: NO_FORCE
    return lambda C, G, H, tr, p, n, duty: _search_move(C, G, H, tr, p, n, duty)


@njit
def search_options(C, H, p, m, may_pass, cards, suits, no_stack):
    """Fill the option arrays for p's choice from legal mask ``m``; returns their number: each
    legal card (with each suit it may name, with and without stopping a stack), and a draw
    where ``may_pass``."""
    k = 0
    mm = m
    while mm and k < MAX_OPTIONS - 9:
        c = _low_bit(mm)
        mm &= mm - ONE
        b = _bit(c)
        names = ((b & EIGHTS) and not C[R_EIGHT_SAME]) or (
            (b & JOKERS) and C[R_JOKER_EFFECT] == JK_SUPER_EIGHT)
        stackable = C[R_STACKING] and not (b & (JOKERS | EIGHTS)) and (
            (H[p] & _rank_mask(_rank(c)) & ~b) or (H[HI + p] & b))
        for s in range(N_SUITS if names else 1):
            for stop in range(2 if stackable else 1):
                cards[k] = c
                suits[k] = s if names else -1
                no_stack[k] = stop
                k += 1
    if may_pass:
        cards[k] = -1
        suits[k] = -1
        no_stack[k] = 0
        k += 1
    return k


@njit
def _search_choices(C, G, H, p, duty, cards, suits, no_stack):
    """Fill the option arrays for p's move (an answer to a duty where ``duty``); returns their
    number, 0 where p has no card it may play (it draws: nothing to choose)."""
    if duty:
        m = _duty_answers(C, G, H, p)
    else:
        m = _legal(C, G, H[p], _hand_count(H, p), _on_top(C, G))
    if m == ZERO:
        return 0
    return search_options(C, H, p, m, not C[R_MUST_PLAY], cards, suits, no_stack)


@njit
def _rollout_option(C, G, H, p, n, duty, cards, suits, no_stack, k, S):
    """The index of the option that is the rollout policy's own move (its ties broken with the
    search stream S): the baseline that another option must beat. It reads only p's hand and
    public facts, as the policy does."""
    rollout = (C[C_POL + _seat(G, p)] >> SEARCH_ROLLOUT_SHIFT) & ROLLOUT_KIND
    Hc = np.empty(H_SIZE, np.uint64)
    for j in range(H_SIZE):
        Hc[j] = H[j]
    _seed_rng(Hc, _next_u64(S))
    count = _hand_count(H, p)
    nxt = _step(p, G[S_DIR], n)
    if duty:
        m = _duty_answers(C, G, H, p)
        min_opp = NOT_COUNTED
    else:
        m = _legal(C, G, H[p], count, _on_top(C, G))
        min_opp = _min_opponent_for(H, rollout, p, n)
    card = _choose(C, G, Hc, rollout, m, not C[R_MUST_PLAY], p, count, G[G_LACKS + nxt],
                   min_opp)
    suit = -1
    if card >= 0:
        b = _bit(card)
        if ((b & EIGHTS) and not C[R_EIGHT_SAME]) or (
                (b & JOKERS) and C[R_JOKER_EFFECT] == JK_SUPER_EIGHT):
            suit = _choose_suit(H, rollout, p, ALL_SUITS, G[G_LACKS + nxt])
    for o in range(k):
        if cards[o] == card and suits[o] == suit and no_stack[o] == 0:
            return o
    return 0


@njit
def _playout_match(C, G, H, tr, n, res, world_seed):
    """The rest of the match after a playout's deal ended with ``res`` (G_POINTS not yet
    filled), every seat playing C's policies: the match winner's seat, or -1. Each later deal's
    stream starts from ``world_seed`` and the deal's number, so that every option of a world
    meets the same later deals (common random numbers, as far as the options' matches allow)."""
    n_seats = C[R_PLAYERS]
    deal_no = G[S_DEAL_NO]
    dealer = _seat(G, n - 1)
    while deal_no < DEAL_CAP:
        _hand_points_all(C, G, H, n)
        winner = _after_deal(C, G, tr, n, res, deal_no)
        if winner != MATCH_GOES_ON:
            return winner
        dealer = _next_dealer(G, n_seats, dealer)
        n = _seat_order(G, n_seats, dealer)
        deal_no += 1
        _seed_rng(H, _mix64(world_seed ^ (np.uint64(deal_no) * GOLDEN)))
        _deal_hands(C, G, H, tr, n, deal_no)
        _start_card(C, G, H, tr, n)
        res, _, _ = _playout_turns(C, G, H, tr, n, 0, ROLLOUT_TURNS, NO_FORCE, 0)
    return -1


@inline
def _take_avoiding(S, pool, lo, size, avoid):
    """The index in pool[lo:size] of a random card whose type is not in ``avoid`` (a few random
    tries, then the first such card; where none is left, a random card: a world that
    contradicts the bookkeeping, which the belief audit counts)."""
    j = lo + _rand_below(S, size - lo)
    if avoid == ZERO:
        return j
    for _ in range(8):
        if not (_bit(pool[j]) & avoid):
            return j
        j = lo + _rand_below(S, size - lo)
    for i in range(lo, size):
        if not (_bit(pool[i]) & avoid):
            return i
    return j


@njit
def _determinize(C, G, H, Gw, Hw, p, n, S, pool, beliefs):
    """A world consistent with what position p knows, into Gw/Hw: the cards p has not seen
    (the pack less its hand and the discard pile, listed in card order, whatever the true
    deal) dealt at random from stream S to the other hands (their sizes kept) and the talon,
    within the ``beliefs`` (BELIEFS_*): public, the bookkeeping's tiers and known talon; lacks,
    only the suits a player has shown it lacks, avoided where the cards allow (the rule before
    the bookkeeping, kept to measure it); oracle, the true hands (a cheat, for diagnostics)."""
    for j in range(G_PLAY_SIZE):
        Gw[j] = G[j]
    for j in range(H_SIZE):
        Hw[j] = H[j]
    Gw[S_SCRIPTED] = 0
    if beliefs == BELIEFS_ORACLE:
        return
    counts = np.zeros(N_TYPES, np.int64)
    for t in range(N_DECK_TYPES):
        counts[t] = C[R_DECKS]
    for j in range(C[R_JOKERS]):
        counts[N_DECK_TYPES + j] = C[R_DECKS]
    for hand in (H[p], H[HI + p]):
        while hand:
            counts[_low_bit(hand)] -= 1
            hand &= hand - ONE
    for j in range(G[S_ND]):
        counts[G[G_DISCARD + j]] -= 1
    known_talon = beliefs == BELIEFS_PUBLIC and G[S_RESHUFFLES] > 0
    if known_talon:
        candidates = 0
        for t in range(N_TYPES):
            candidates += min(G[G_RESHUFFLED + t], counts[t])
        known_talon = candidates >= G[S_NT]  # else the bookkeeping missed a card: not used
    size = 0
    if known_talon:  # the rebuilt talon's cards still unseen come first: the talon is of them
        for t in range(N_TYPES):
            for _ in range(min(G[G_RESHUFFLED + t], counts[t])):
                pool[size] = t
                size += 1
                counts[t] -= 1
        nt = G[S_NT]
        for j in range(nt):
            i = j + _rand_below(S, size - j)
            pool[i], pool[j] = pool[j], pool[i]
            Gw[G_TALON + j] = pool[j]
    for t in range(N_TYPES):
        for _ in range(counts[t]):
            pool[size] = t
            size += 1
    lo = G[S_NT] if known_talon else 0
    for q in range(n):
        if q != p:
            Hw[q] = ZERO
            Hw[HI + q] = ZERO
    if beliefs == BELIEFS_LACKS:
        for q in range(n):
            if q == p:
                continue
            lacks = G[G_LACKS + q]
            for _ in range(_hand_count(H, q)):
                j = _rand_below(S, size)
                for _ in range(8):  # a few tries for a card of a suit it may hold
                    c = pool[j]
                    if _is_joker(c) or (_bit(c) & EIGHTS) or not (lacks >> _suit(c)) & 1:
                        break
                    j = _rand_below(S, size)
                _hand_add(Hw, q, pool[j])
                pool[j] = pool[size - 1]
                size -= 1
    else:
        for tier in range(3):  # the most constrained cards of every hand first
            for q in range(n):
                if q == p:
                    continue
                held = _hand_count(H, q)
                wide_n = min(G[G_WIDE_N + q], held)
                strong_n = min(G[G_STRONG_N + q], wide_n)
                if tier == 0:
                    want, avoid = strong_n, np.uint64(G[G_STRONG + q])
                elif tier == 1:
                    want, avoid = wide_n - strong_n, np.uint64(G[G_WIDE + q])
                else:
                    want, avoid = held - wide_n, ZERO
                for _ in range(want):
                    j = _take_avoiding(S, pool, lo, size, avoid)
                    _hand_add(Hw, q, pool[j])
                    pool[j] = pool[size - 1]
                    size -= 1
    if not known_talon:
        for j in range(size):
            Gw[G_TALON + j] = pool[j]
    Gw[S_NT] = G[S_NT]


# beliefs=weighted: each world is one of WEIGHT_CANDIDATES public worlds, drawn with probability
# proportional to how likely each opponent's last choices (its last card from the hand and the
# suit it last named, where it has drawn nothing since, so that its hand then is known in the
# world) are under the policy it plays (a seat knows the policies at its table; a search
# opponent is modelled by its rollout policy), tempered: a choice's likelihood is
# (1 - WEIGHT_EPS) * P(policy makes it) + WEIGHT_EPS / (its choices), so that a wrong model
# only flattens the weights. P(policy makes it) is estimated by one draw of the policy's tie
# breaking (unbiased: 1/ties for a card among its best).
WEIGHT_CANDIDATES = 4
WEIGHT_EPS = 0.1


@njit
def _world_weight(C, G, Hw, p, n, Gs, Hs):
    """The tempered likelihood of the opponents' last choices in the world Hw (see above);
    Gs and Hs are scratch copies of G and H (Hs with a stream of its own for the ties)."""
    weight = 1.0
    for q in range(n):
        if q == p:
            continue
        pol = C[C_POL + _seat(G, q)]
        if (pol & POL_KIND) == POL_SEARCH:
            pol = (pol >> SEARCH_ROLLOUT_SHIFT) & ROLLOUT_KIND
        held = _hand_count(Hw, q)
        card = G[G_CHOICE_CARD + q]
        count = G[G_CHOICE_COUNT + q]
        if card >= 0 and held == count - 1:
            Hs[q] = Hw[q]
            Hs[HI + q] = Hw[HI + q]
            _hand_add(Hs, q, card)
            top = G[G_CHOICE_TOP + q]
            Gs[S_EFF] = top & 3
            Gs[S_SUIT] = (top >> 2) & 3
            Gs[S_RANK] = (top >> 4) & 15
            Gs[S_TOP_JOKER] = (top >> 8) & 1
            Gs[S_RESHUFFLES] = top >> 9
            m = _legal(C, Gs, Hs[q], count, _on_top(C, Gs))
            if m & _bit(card):
                pick = _choose(C, Gs, Hs, pol, m, not C[R_MUST_PLAY], q, count,
                               G[G_CHOICE_LACKS + q], G[G_CHOICE_MIN + q])
                weight *= (1.0 - WEIGHT_EPS) * (1.0 if pick == card else 0.0) + WEIGHT_EPS / _popcount(m)
            else:
                weight *= WEIGHT_EPS / N_TYPES
        named = G[G_NAMED + q]
        if named >= 0 and held == G[G_NAMED_COUNT + q]:
            allowed = G[G_NAMED_ALLOWED + q] & ALL_SUITS
            suit = _choose_suit(Hw, pol, q, allowed, G[G_NAMED_ALLOWED + q] >> 4)
            weight *= (1.0 - WEIGHT_EPS) * (1.0 if suit == named else 0.0) + WEIGHT_EPS / _popcount(
                np.uint64(allowed))
    return weight


@njit
def _weighted_world(C, G, H, Gw, Hw, p, n, S, pool, Gc, Hc, Gs, Hs):
    """A world for beliefs=weighted into Gw/Hw: one of WEIGHT_CANDIDATES public worlds, drawn
    by weight (a weighted reservoir of one, so only the kept world is copied)."""
    total = 0.0
    for r in range(WEIGHT_CANDIDATES):
        _determinize(C, G, H, Gc, Hc, p, n, S, pool, BELIEFS_PUBLIC)
        _seed_rng(Hs, _next_u64(S))
        w = _world_weight(C, G, Hc, p, n, Gs, Hs)
        total += w
        if r == 0 or (_next_u64(S) >> U11) * (1.0 / 9007199254740992.0) * total < w:
            for j in range(G_PLAY_SIZE):
                Gw[j] = Gc[j]
            for j in range(H_SIZE):
                Hw[j] = Hc[j]


@njit
def search_values(C, G, H, p, n, duty, cards, suits, no_stack, k, base, S):
    """Play the options out in worlds drawn with the seat's own random stream S (see the
    section's comment for the rounds and the racing): per option its total outcome (deals won,
    minus p's points as the valuation weighs them, or matches won), the sums of its paired
    differences from the baseline ``base`` and of their squares, the worlds it was played in,
    and whether it is still in the race. Depends on nothing p cannot see (except beliefs=oracle)."""
    pol = C[C_POL + _seat(G, p)]
    budget = (pol >> SEARCH_BUDGET_SHIFT) & 0xFFFF
    beliefs = (pol >> SEARCH_BELIEFS_SHIFT) & 3
    flat = pol & OPT_SEARCH_FLAT
    Cr_memory = np.empty(C_SIZE, np.int64)
    for j in range(C_SIZE):
        Cr_memory[j] = C[j]
    for q in range(MAX_SEATS):
        Cr_memory[C_POL + q] = (pol >> SEARCH_ROLLOUT_SHIFT) & 3
    for t in range(N_TYPES):  # the playouts are scored, and matches played, at the valuation
        Cr_memory[C_SCALE + t] = C[C_VALUE + t]
    Gw = np.empty(G_SIZE, np.int64)
    Hw = np.empty(H_SIZE, np.uint64)
    G_memory = np.empty(G_SIZE, np.int64)
    H_memory = np.empty(H_SIZE, np.uint64)
    Cr = _unchecked(Cr_memory)
    G2 = _unchecked(G_memory)
    H2 = _unchecked(H_memory)
    pool = np.empty(TALON_SIZE, np.int64)
    no_trace = np.zeros(0, np.int8)
    totals = np.zeros(k, np.float64)
    diffs = np.zeros(k, np.float64)
    squares = np.zeros(k, np.float64)
    played = np.zeros(k, np.int64)
    alive = np.ones(k, np.bool_)
    left = k
    playouts = budget * k
    max_worlds = budget if flat else RACE_WORLDS * budget
    look = FIRST_LOOK
    worlds = 0
    if beliefs == BELIEFS_WEIGHTED:  # scratch states for the candidate worlds and weights
        Gc = np.empty(G_SIZE, np.int64)
        Hc = np.empty(H_SIZE, np.uint64)
        Gs = np.empty(G_SIZE, np.int64)
        Hs = np.empty(H_SIZE, np.uint64)
        for j in range(G_SIZE):
            Gs[j] = G[j]
        for j in range(H_SIZE):
            Hs[j] = H[j]
    else:
        Gc = Gs = Gw
        Hc = Hs = Hw
    while worlds < max_worlds and playouts >= left and left > 1:
        if beliefs == BELIEFS_WEIGHTED:
            _weighted_world(C, G, H, Gw, Hw, p, n, S, pool, Gc, Hc, Gs, Hs)
        else:
            _determinize(C, G, H, Gw, Hw, p, n, S, pool, beliefs)
        playout_seed = _next_u64(S)
        first = 0.0
        for i in range(k):
            o = base if i == 0 else (i - 1 if i <= base else i)  # the baseline first
            if not alive[o]:
                continue
            for j in range(G_PLAY_SIZE):
                G2[j] = Gw[j]
            for j in range(H_SIZE):
                H2[j] = Hw[j]
            _seed_rng(H2, playout_seed)
            G2[S_FORCE_SUIT] = suits[o]
            G2[S_NO_STACK] = no_stack[o]
            result, _, _ = _playout_turns(Cr, G2, H2, no_trace, n, p, ROLLOUT_TURNS, cards[o],
                                          duty)
            if pol & OPT_SEARCH_POINTS:
                outcome = -1.0 * _hand_points(Cr, H2[p], H2[HI + p])
            elif pol & OPT_SEARCH_MATCH and C[R_MATCH_KIND] != M_SINGLE:
                winner = _playout_match(Cr, G2, H2, no_trace, n, result, playout_seed)
                outcome = 1.0 if winner == _seat(G, p) else 0.0
            else:
                outcome = 1.0 if result == p else 0.0
            if i == 0:
                first = outcome
            totals[o] += outcome
            diffs[o] += outcome - first
            squares[o] += (outcome - first) ** 2
            played[o] += 1
        worlds += 1
        playouts -= left
        if not flat and worlds == look:
            look *= 2
            lowest = 0.0  # the best lower bound: the baseline's own is 0
            for o in range(k):
                if alive[o] and o != base:
                    mean = diffs[o] / worlds
                    se = np.sqrt(max(squares[o] / worlds - mean * mean, 0.0) / (worlds - 1))
                    lowest = max(lowest, mean - RACE_Z * se)
            for o in range(k):
                if alive[o] and o != base:
                    mean = diffs[o] / worlds
                    se = np.sqrt(max(squares[o] / worlds - mean * mean, 0.0) / (worlds - 1))
                    if mean + RACE_Z * se < lowest:
                        alive[o] = False
                        left -= 1
    _keep_alive(Cr_memory, G_memory)
    _keep_alive(H_memory, H_memory)
    return totals, diffs, squares, played, alive


@njit
def _search_move(C, G, H, tr, p, n, duty):
    cards = np.empty(MAX_OPTIONS, np.int64)
    suits = np.empty(MAX_OPTIONS, np.int64)
    no_stack = np.empty(MAX_OPTIONS, np.int64)
    k = _search_choices(C, G, H, p, duty, cards, suits, no_stack)
    if k <= 1:
        return NO_FORCE  # nothing to choose, or one card: the rollout policy plays it anyway
    S = np.empty(H_SIZE, np.uint64)
    _seed_rng(S, _mix64(_next_u64(H) ^ np.uint64(SEARCH_SEEDED)))
    base = _rollout_option(C, G, H, p, n, duty, cards, suits, no_stack, k, S)
    totals, diffs, squares, played, alive = search_values(C, G, H, p, n, duty, cards, suits,
                                                          no_stack, k, base, S)
    z = (C[C_POL + _seat(G, p)] >> SEARCH_MARGIN_SHIFT) & 3
    best = base
    margin = 0.0  # the best option's lead over the baseline beyond z standard errors
    for o in range(k):
        w = max(played[o], 1)
        # the estimate in thousandths (of a deal won, or of a point): play narrates it
        _emit(G, tr, EV_ESTIMATE, _seat(G, p),
              (cards[o] + 2) | ((suits[o] + 1) << 8) | (no_stack[o] << 12)
              | (ROLLOUT_MOVE_BIT if o == base else 0), int(round(1000.0 * totals[o] / w)))
        if alive[o] and o != base and played[o] > 1:
            lead = diffs[o] / w
            spread = squares[o] / w - lead * lead
            lead -= z * np.sqrt(max(spread, 0.0) / (w - 1))
            if lead > margin:
                margin = lead
                best = o
    G[S_FORCE_SUIT] = suits[best]
    G[S_NO_STACK] = no_stack[best]
    return cards[best]


@njit
def search_decision_nb(constants, G_memory, H_memory, p, n, seed):
    """What the search player at position p weighs for its move in the state (G, H), with its
    search stream started at ``seed``: the options (cards, suits, no_stack), the baseline's
    index, and per option its total, paired-difference and squared-difference sums and worlds
    played (see search_values). For tests: a decision is a function of the seat's information
    and its stream only."""
    C = _unchecked(constants)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    cards = np.empty(MAX_OPTIONS, np.int64)
    suits = np.empty(MAX_OPTIONS, np.int64)
    no_stack = np.empty(MAX_OPTIONS, np.int64)
    k = _search_choices(C, G, H, p, False, cards, suits, no_stack)
    S = np.empty(H_SIZE, np.uint64)
    _seed_rng(S, np.uint64(seed))
    base = _rollout_option(C, G, H, p, n, False, cards, suits, no_stack, k, S)
    totals, diffs, squares, played, _ = search_values(C, G, H, p, n, False, cards, suits,
                                                      no_stack, k, base, S)
    _keep_alive(constants, G_memory)
    _keep_alive(H_memory, H_memory)
    return (cards[:k].copy(), suits[:k].copy(), no_stack[:k].copy(), base, totals, diffs,
            squares, played)


# --- diagnostics: how right the worlds' beliefs are about the true hands ------------------------
AUDIT_FIELDS = ("turns", "turns_lacks_wrong", "turns_public_wrong", "opponents_flagged",
                "lacks_types_excluded", "opponents_tiered", "public_types_excluded",
                "turns_talon_known", "turns_talon_wrong", "weighed_turns", "worlds_below_true",
                "worlds_compared")
AUDIT_WORLDS = 16  # beliefs=weighted: public worlds whose weight the true world's is ranked among


@njit
def _belief_audit(G, H, p, n, counts):
    """At position p's turn, compare what its worlds assume with the true hands: counts (see
    AUDIT_FIELDS) of turns where the lacks flags (beliefs=lacks) or the public tiers
    (beliefs=public) exclude a card an opponent really holds, and of what each excludes."""
    counts[0] += 1
    lacks_wrong = public_wrong = 0
    for q in range(n):
        if q == p:
            continue
        lacks = G[G_LACKS + q]
        if lacks:
            excluded = ZERO
            for s in range(N_SUITS):
                if (lacks >> s) & 1:
                    excluded |= _suit_mask(s) & ~EIGHTS
            counts[3] += 1
            counts[4] += _popcount(excluded)
            lacks_wrong += (H[q] & excluded) != ZERO
        held = _hand_count(H, q)
        wide_n = min(G[G_WIDE_N + q], held)
        if wide_n > 0:
            wide = np.uint64(G[G_WIDE + q])
            strong = np.uint64(G[G_STRONG + q])
            counts[5] += 1
            counts[6] += _popcount(wide)
            public_wrong += (held - _suit_count(H, q, wide) < wide_n
                             or held - _suit_count(H, q, strong) < min(G[G_STRONG_N + q], wide_n))
    counts[1] += lacks_wrong > 0
    counts[2] += public_wrong > 0
    if G[S_RESHUFFLES] > 0:
        counts[7] += 1
        tally = np.zeros(N_TYPES, np.int64)
        wrong = False
        for j in range(G[S_NT]):
            tally[G[G_TALON + j]] += 1
            wrong |= tally[G[G_TALON + j]] > G[G_RESHUFFLED + G[G_TALON + j]]
        counts[8] += wrong


@njit
def _weight_audit(C, G, H, p, n, counts, S):
    """Does the likelihood carry signal? Where the weights are not all equal, rank the true
    world's weight among AUDIT_WORLDS public worlds: counts[10] gets twice the number below it
    plus the ties (so counts[10] / counts[11] is its mean rank share: 0.5 = no signal)."""
    Gs = np.empty(G_SIZE, np.int64)
    Hs = np.empty(H_SIZE, np.uint64)
    Gw = np.empty(G_SIZE, np.int64)
    Hw = np.empty(H_SIZE, np.uint64)
    pool = np.empty(TALON_SIZE, np.int64)
    for j in range(G_SIZE):
        Gs[j] = G[j]
    for j in range(H_SIZE):
        Hs[j] = H[j]
    _seed_rng(Hs, _next_u64(S))
    true_weight = _world_weight(C, G, H, p, n, Gs, Hs)
    below = 0
    varied = False
    for _ in range(AUDIT_WORLDS):
        _determinize(C, G, H, Gw, Hw, p, n, S, pool, BELIEFS_PUBLIC)
        _seed_rng(Hs, _next_u64(S))
        w = _world_weight(C, G, Hw, p, n, Gs, Hs)
        varied |= w != true_weight
        below += 2 if w < true_weight else (1 if w == true_weight else 0)
    if varied:
        counts[9] += 1
        counts[10] += below
        counts[11] += 2 * AUDIT_WORLDS


@njit
def belief_audit_nb(constants, seed_key, games, focal_seat, counts):
    """Play single deals 0 … games-1 of ``seed_key`` (the games ``simulate`` plays) turn by turn
    and audit the beliefs at every turn of ``focal_seat`` (_belief_audit) into ``counts``."""
    C = _unchecked(constants)
    G_memory = np.zeros(G_SIZE, np.int64)
    H_memory = np.zeros(H_SIZE, np.uint64)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    tr = np.zeros((0, 4), np.int32)
    S = np.empty(H_SIZE, np.uint64)
    _seed_rng(S, _mix64(np.uint64(seed_key) ^ np.uint64(SEARCH_SEEDED)))
    n_seats = C[R_PLAYERS]
    for g in range(games):
        _seed_rng(H, game_seed_nb(seed_key, g))
        G[S_NEV] = 0
        for q in range(n_seats):
            G[G_ACTIVE + q] = 1
        n = _seat_order(G, n_seats, n_seats - 1)
        _deal_hands(C, G, H, tr, n, 0)
        _start_card(C, G, H, tr, n)
        p = 0
        idle = 0
        for _ in range(TURN_CAP):
            if _seat(G, p) == focal_seat:
                _belief_audit(G, H, p, n, counts)
                _weight_audit(C, G, H, p, n, counts, S)
            plays, draws = G[S_PLAYS], G[S_DRAWS]
            result, _, _ = _turn_loop(C, G, H, tr, n, p, 1, NO_FORCE, 0)
            if result >= 0:
                break
            idle = idle + 1 if (G[S_PLAYS] == plays and G[S_DRAWS] == draws) else 0
            if idle >= n:
                break
            p = _step(p, G[S_DIR], n)
    _keep_alive(G_memory, H_memory)
    _keep_alive(constants, constants)


# outcome columns of the per-game int64 table
(O_WINNER, O_TURNS, O_PLAYS, O_DRAWS, O_RESHUFFLES, O_BLOCKED, O_CAPPED, O_DEALS, O_SWAPPED,
 O_FIRST_WINNER, O_EVENTS, O_SIZE) = range(12)


@inline
def _lowest_total(G, n):
    best = -1
    low = 1 << 60
    tie = False
    for k in range(n):
        t = G[G_TOTALS + _seat(G, k)]
        if t < low:
            low, best, tie = t, _seat(G, k), False
        elif t == low:
            tie = True
    return -1 if tie else best


MATCH_GOES_ON = -3  # _after_deal: the match is not over


@inline
def _seat_order(G, n_seats, dealer):
    """Fill G_SEATS with the seats still in the match in playing order, förhand first and
    ``dealer`` last; returns their number."""
    n = 0
    q = dealer
    for _ in range(n_seats):
        q = (q + 1) % n_seats
        if G[G_ACTIVE + q]:
            G[G_SEATS + n] = q
            n += 1
    return n


@inline
def _next_dealer(G, n_seats, dealer):
    """The first seat after ``dealer`` still in the match."""
    q = dealer
    for _ in range(n_seats):
        q = (q + 1) % n_seats
        if G[G_ACTIVE + q]:
            return q
    return dealer


@inline
def _is_out(C, G, k, target):
    """Whether position k's match total eliminates it (past the target, or on it unless
    eliminate_at is pass)."""
    t = G[G_TOTALS + _seat(G, k)]
    return t > target or (t == target and not C[R_ELIM_PASS])


@inline
def _after_deal(C, G, tr, n, res, deal_no):
    """Score deal ``deal_no`` (result ``res`` as _play_deal's, points in G_POINTS) into the
    match and eliminate who is out: the match winner's seat, -1 where the match ended without
    one, or MATCH_GOES_ON."""
    kind = C[R_MATCH_KIND]
    target = C[R_MATCH_PARAM]
    for k in range(n):
        G[G_TOTALS + _seat(G, k)] += G[G_POINTS + k]
        _emit(G, tr, EV_SCORE, _seat(G, k), G[G_POINTS + k], G[G_TOTALS + _seat(G, k)])
    if res >= 0:
        G[G_WINS + _seat(G, res)] += 1
    if kind == M_SINGLE:
        return _seat(G, res) if res >= 0 else -1
    if res == -2:  # a capped deal ends the match undecided
        return -1
    if kind == M_DEALS:
        if deal_no + 1 >= target:
            return _lowest_total(G, n)
    elif kind == M_BEST_OF:
        if res >= 0 and G[G_WINS + _seat(G, res)] >= target // 2 + 1:
            return _seat(G, res)
    else:
        n_out = 0
        for k in range(n):
            n_out += _is_out(C, G, k, target)
        if n_out == n:
            return _lowest_total(G, n)
        for k in range(n):
            if _is_out(C, G, k, target):
                G[G_ACTIVE + _seat(G, k)] = 0
                _emit(G, tr, EV_ELIMINATED, _seat(G, k), 0, 0)
        if n - n_out == 1:
            for k in range(n):
                if G[G_ACTIVE + _seat(G, k)]:
                    return _seat(G, k)
            return -1
    return MATCH_GOES_ON


@inline
def _play_game(C, G, H, tr, swap_rank, swap_seat, out, points, eights, aces):
    """One game: a single deal or a whole match, by C[R_MATCH_KIND]."""
    n_seats = C[R_PLAYERS]
    for q in range(n_seats):
        G[G_ACTIVE + q] = 1
        G[G_TOTALS + q] = 0
        G[G_WINS + q] = 0
    for j in range(O_SIZE):
        out[j] = 0
    out[O_FIRST_WINNER] = -1
    dealer = n_seats - 1
    winner = -1
    G[S_SWAPPED] = 0
    for deal_no in range(DEAL_CAP):
        n = _seat_order(G, n_seats, dealer)
        swap_pos = 0
        if swap_rank >= 0:
            for k in range(n):
                if _seat(G, k) == swap_seat:
                    swap_pos = k
        res = _play_deal(C, G, H, tr, n, deal_no, swap_pos, swap_rank, eights, aces)
        out[O_DEALS] += 1
        out[O_TURNS] += G[S_TURNS]
        out[O_PLAYS] += G[S_PLAYS]
        out[O_DRAWS] += G[S_DRAWS]
        out[O_RESHUFFLES] += G[S_RESHUFFLES]
        if deal_no == 0:
            out[O_FIRST_WINNER] = _seat(G, res) if res >= 0 else -1
        if res == -1:
            out[O_BLOCKED] += 1
        elif res == -2:
            out[O_CAPPED] = 1
        winner = _after_deal(C, G, tr, n, res, deal_no)
        if winner != MATCH_GOES_ON:
            break
        dealer = _next_dealer(G, n_seats, dealer)
    else:
        out[O_CAPPED] = 1
        winner = -1
    if C[R_MATCH_KIND] != M_SINGLE:
        _emit(G, tr, EV_END_MATCH, winner, out[O_DEALS], 0)
    out[O_WINNER] = winner
    out[O_SWAPPED] = G[S_SWAPPED]
    out[O_EVENTS] = G[S_NEV]
    for q in range(n_seats):
        points[q] = G[G_TOTALS + q]


@njit(parallel=True)
def run_batch_nb(constants, seed_key, first_game, swap_rank, swap_seat, tr, out, points, eights,
                 aces):
    """Play games first_game … first_game + len(out) - 1 into the output arrays.

    Game g uses only its own random stream (seed_key, first_game + g), so the results are the
    same for any number of threads. ``tr`` (int32 rows of kind, seat, a, b) records game 0's
    events when it has rows (use it with a single game; their number is in
    ``out[:, O_EVENTS]``); with zero rows nothing is recorded. Both uses share this one
    compiled kernel.
    """
    n_games = out.shape[0]
    n_seats = constants[R_PLAYERS]
    n_blocks = (n_games + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        C = _unchecked(constants)  # made in the parallel body: the parfor passes only plain arrays
        G_memory = np.zeros(G_SIZE, np.int64)
        H_memory = np.zeros(H_SIZE, np.uint64)
        G = _unchecked(G_memory)
        H = _unchecked(H_memory)
        for g in range(b * BLOCK, min(n_games, (b + 1) * BLOCK)):
            _seed_rng(H, game_seed_nb(seed_key, first_game + g))
            G[S_NEV] = 0
            seat = swap_seat if swap_seat >= 0 else (first_game + g) % n_seats
            _play_game(C, G, H, tr, swap_rank, seat, out[g], points[g], eights[g], aces[g])
        _keep_alive(G_memory, H_memory)  # the views G and H borrow their memory
