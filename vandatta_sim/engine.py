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
# per seat: the weights of expert's decisions (W_*); a tuned policy is expert with a row of its
# own (vandatta_sim.tuned), every other seat has EXPERT_WEIGHTS
# (EXPERT_WEIGHT_TABLE below), a row of N_WEIGHTS (room for more without moving the layout)
N_WEIGHTS = 16
C_WEIGHTS = C_FORGET + MAX_SEATS
# the mean of C_VALUE over the ordinary cards, in hundredths: what "costly" is measured against
C_ORDINARY_VALUE = C_WEIGHTS + MAX_SEATS * N_WEIGHTS
C_SCRIPT_LEN = C_ORDINARY_VALUE + 1  # scripted deck: number of cards, then the cards
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
G_SIZE = G_POINTS + MAX_SEATS

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
SEARCH_BUDGETS = (32, 1, 2, 4, 8, 16, 64, 128, 256, 512, 1024, 2048, 4096)  # the first: default
POLICY_OPTIONS = {
    "expert": {"eights": {"hold": 0, "dump": OPT_EIGHTS_DUMP, **{
        str(k): k << EIGHTS_AT_SHIFT for k in range(1, EIGHTS_AT_MAX + 1)}}},
    "search": {
        "budget": {str(b): b << SEARCH_BUDGET_SHIFT for b in SEARCH_BUDGETS},
        "rollout": {name: POLICIES.index(name) << SEARCH_ROLLOUT_SHIFT
                    for name in ("expert", "greedy", "random", "eight-dumper")},
        "objective": {"win": 0, "points": OPT_SEARCH_POINTS, "match": OPT_SEARCH_MATCH},
        "margin": {str(z): z << SEARCH_MARGIN_SHIFT for z in (2, 0, 1, 3)}},
}
ROLLOUT_TURNS = 1000  # a playout longer than this counts as not won (points: as it stands)

# --- expert's weights: its decisions are features times these (see _expert_pick, _choose) -------
# name -> expert's own value. A card's score is the sum of the weights of the features it has;
# the counts (eight_late_at, pass_at, dragging) are thresholds, not multipliers.
EXPERT_WEIGHT_TABLE = {
    "card_value": 10,  # per point the card is believed to cost (C_VALUE): dump costly cards
    "eight_early": -100000,  # an eight while the hand has more than eight_late_at cards
    "eight_late": -1000,  # an eight once it has at most eight_late_at
    "eight_late_at": 2,
    # an eight is played like any card (neither eight_early nor eight_late, nor the draw
    # instead of it) once an opponent has at most k cards, k = the eight's cost in ordinary
    # cards (its C_VALUE over C_ORDINARY_VALUE) // eight_threat_ratio: the costlier the
    # eight, the earlier a short opponent hand makes it dump it; 0: never
    "eight_threat_ratio": 7,
    "joker": -5000,
    "ace_threat": 50000,  # an ace when an opponent is on one card (it must draw)
    "ace_follow": 3000,  # an ace whose suit the hand can follow at once (everyone draws)
    "ace_keep": -3000,  # any other ace: kept for an opponent on one card
    "suit_length": 30,  # per ordinary card held of the card's suit
    "next_lacks": 200,  # the card's suit is one the next player has shown it lacks
    "pass_at": 3,  # must_play off: it draws rather than play an eight while its hand is larger
    # A deal whose talon has been rebuilt from the discards this often is dragging: the expert
    # stops feeding cards to the table with aces
    "dragging": 2,
}
WEIGHT_NAMES = tuple(EXPERT_WEIGHT_TABLE)
EXPERT_WEIGHTS = tuple(EXPERT_WEIGHT_TABLE.values())
assert len(WEIGHT_NAMES) <= N_WEIGHTS
(W_CARD_VALUE, W_EIGHT_EARLY, W_EIGHT_LATE, W_EIGHT_LATE_AT, W_EIGHT_THREAT_RATIO, W_JOKER,
 W_ACE_THREAT, W_ACE_FOLLOW, W_ACE_KEEP, W_SUIT_LENGTH, W_NEXT_LACKS, W_PASS_AT,
 W_DRAGGING) = range(len(WEIGHT_NAMES))

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
        _emit(G, tr, EV_RESHUFFLE, -1, nd - 1, 0)
    card = _take(G, H)
    _hand_add(H, p, card)
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


@inline
def _weight(C, G, p, w):
    """Weight ``w`` (W_*) of the seat at position p: its row of expert's weights in C."""
    return C[C_WEIGHTS + _seat(G, p) * N_WEIGHTS + w]


@inline
def _eight_threatened(C, G, p, m, min_opponent):
    """Whether an opponent is close enough to going out for p's eights (of the legal mask
    ``m``) to be dumped: it holds at most k cards, k = the eight's cost in ordinary cards
    // eight_threat_ratio. The costlier the eight, the sooner a short opponent hand makes
    holding it a bad bet."""
    ratio = _weight(C, G, p, W_EIGHT_THREAT_RATIO)
    if ratio <= 0 or min_opponent == NOT_COUNTED or not (m & EIGHTS):
        return False
    cost = 100 * C[C_VALUE + _low_bit(m & EIGHTS)]  # hundredths, as C_ORDINARY_VALUE
    return min_opponent * ratio * max(C[C_ORDINARY_VALUE], 1) <= cost


@njit
def _expert_pick(C, G, H, m, p, count, next_lacks, min_opponent, threatened):
    """Seeds 000/002's advice: dump expensive cards early, keep eights for the end, play an ace
    when an opponent is on one card, never strand the hand with only specials (this comes
    before keeping eights: a hand of eights and one ordinary card sheds the eights), leave a
    suit the next player has shown it lacks and one the hand is long in. Measured on top of
    that: an ace that the hand can follow in its own suit is worth playing at once (two cards
    shed, every opponent draws), which is what lets `expert` beat `greedy`. Every number is a
    weight of the seat's row (EXPERT_WEIGHT_TABLE says which); ``threatened``: its eights are
    played like any card (_eight_threatened). Ties at random."""
    lo = H[p]
    best_score = -(1 << 40)
    ties = ZERO
    mm = m
    row = C_WEIGHTS + _seat(G, p) * N_WEIGHTS
    # all-expert tables of 6-10 players, and ace_draw=3, used to stall (half the 10-player
    # deals reached the turn cap): every ace made everyone draw what little was left, so the
    # cards went round and round. An ace the hand can follow is still played at once, but not
    # once the deal is dragging (measured: no capped deals at 2-10 players, and the same
    # strength at 4 and 6 players).
    dragging = G[S_RESHUFFLES] >= C[row + W_DRAGGING]
    while mm:
        c = _low_bit(mm)
        mm &= mm - ONE
        b = _bit(c)
        rest_lo = lo if (H[HI + p] & b) else lo & ~b
        score = C[C_VALUE + c] * C[row + W_CARD_VALUE]  # dump expensive cards early
        if b & EIGHTS:
            if not threatened:  # keep eights for the end
                score += C[row + W_EIGHT_EARLY] if count > C[row + W_EIGHT_LATE_AT] else C[
                    row + W_EIGHT_LATE]
        elif b & JOKERS:
            score += C[row + W_JOKER]
        elif b & ACES:
            if min_opponent == 1:
                score += C[row + W_ACE_THREAT]  # an opponent on one card must draw
            elif (C[R_ACE_EXTRA] and C[R_ACE_ON_ACE] != AA_COUNTER and not dragging
                  and (rest_lo & _suit_mask(_suit(c)) & ~EIGHTS)):
                score += C[row + W_ACE_FOLLOW]  # everyone draws, and its suit can follow
            else:
                score += C[row + W_ACE_KEEP]  # keep it for an opponent on one card
        if _strands(H, p, count, b):
            score -= STRANDED  # never strand the hand with only specials
        if not _is_joker(c):
            s = _suit(c)
            score += C[row + W_SUIT_LENGTH] * _suit_count(H, p, _suit_mask(s) & ORDINARY)
            if (next_lacks >> s) & 1:
                score += C[row + W_NEXT_LACKS]
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
        threatened = _eight_threatened(C, G, p, m, min_opponent)
        c = _expert_pick(C, G, H, m, p, count, next_lacks, min_opponent, threatened)
        crowded = 2 * _suit_count(H, p, ORDINARY) < count  # specials are half the hand or more
        if (may_pass and (_bit(c) & EIGHTS) and count > _weight(C, G, p, W_PASS_AT)
                and not crowded and not threatened):
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


@njit
def policy_choice_nb(constants, G_memory, H_memory, p, n):
    """The card the policy of position p plays in the state (G, H) (-1: it draws), as _move
    asks it: for tests of a decision, e.g. that it responds to what a card is believed to cost."""
    C = _unchecked(constants)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    pol = C[C_POL + _seat(G, p)]
    count = _hand_count(H, p)
    m = _legal(C, G, H[p], count, _on_top(C, G))
    nxt = _step(p, G[S_DIR], n)
    card = _choose(C, G, H, pol, m, not C[R_MUST_PLAY], p, count, G[G_LACKS + nxt],
                   _min_opponent_for(H, pol, p, n))
    _keep_alive(constants, G_memory)
    _keep_alive(H_memory, H_memory)
    return card


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
        return card
    if m == ZERO:
        G[G_LACKS + p] |= 1 << G[S_SUIT]  # seen by everyone: it could not follow this suit
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
# options, then samples ``budget`` worlds consistent with what its seat knows: its own hand, the
# discard pile, the other hands' sizes, the suits the others have shown they lack; the unseen
# cards are dealt at random to the other hands and the talon. In every world it plays each
# option out to the end of the deal (with objective=match in a match: to the end of the match),
# every seat, itself included, playing the rollout policy, the same random numbers for every
# option of a world. Its first option is the rollout policy's own move; it plays another only
# where that one's mean outcome (deals or matches won, or fewest points) is better by more than
# ``margin`` standard errors of the paired difference (flat Monte Carlo over a dozen options
# picks noise otherwise: measured, budget 32 without this rule won 21% against three experts,
# below their 25%). Its random numbers come from a stream of its own, seeded with one number of
# the game's stream per decision, so a game still depends only on (seed, game, rules, seats),
# and the decision depends only on the seat's information and that stream (tests/test_search.py
# checks both).
MAX_OPTIONS = 64
SEARCH_SEEDED = 0x5EA5C4  # mixed into the search stream's seed (a stream apart from the game's)


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
    """Fill the option arrays for p's choice from legal mask ``m``; returns their number.
    Option 0 is NO_FORCE: the rollout policy's own move."""
    cards[0] = NO_FORCE
    suits[0] = -1
    no_stack[0] = 0
    k = 1
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


@njit
def _determinize(C, G, H, Gw, Hw, p, n, S, pool):
    """A world consistent with what position p knows, into Gw/Hw: the cards p has not seen
    (the pack less its hand and the discard pile, listed in card order, whatever the true
    deal) dealt at random from stream S to the other hands (their sizes kept, a suit a player
    has shown it lacks avoided where the cards allow) and the rest to the talon."""
    for j in range(G_SIZE):
        Gw[j] = G[j]
    for j in range(H_SIZE):
        Hw[j] = H[j]
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
    size = 0
    for t in range(N_TYPES):
        for _ in range(counts[t]):
            pool[size] = t
            size += 1
    for q in range(n):
        if q == p:
            continue
        Hw[q] = ZERO
        Hw[HI + q] = ZERO
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
    for j in range(size):
        Gw[G_TALON + j] = pool[j]
    Gw[S_NT] = size
    Gw[S_SCRIPTED] = 0


@njit
def search_values(C, G, H, p, n, duty, cards, suits, no_stack, k, S):
    """Each option's total outcome over the budget's worlds (deals won, minus p's points, or
    matches won), and the sum of squares of its difference from option 0's, world by world;
    with the seat's own random stream S; depends on nothing p cannot see."""
    pol = C[C_POL + _seat(G, p)]
    budget = (pol >> SEARCH_BUDGET_SHIFT) & 0xFFFF
    Cr_memory = np.empty(C_SIZE, np.int64)
    for j in range(C_SIZE):
        Cr_memory[j] = C[j]
    for q in range(MAX_SEATS):
        Cr_memory[C_POL + q] = (pol >> SEARCH_ROLLOUT_SHIFT) & 3
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
    squares = np.zeros(k, np.float64)
    for _ in range(budget):
        _determinize(C, G, H, Gw, Hw, p, n, S, pool)
        playout_seed = _next_u64(S)
        first = 0.0
        for o in range(k):
            for j in range(G_SIZE):
                G2[j] = Gw[j]
            for j in range(H_SIZE):
                H2[j] = Hw[j]
            _seed_rng(H2, playout_seed)
            G2[S_FORCE_SUIT] = suits[o]
            G2[S_NO_STACK] = no_stack[o]
            result, _, _ = _playout_turns(Cr, G2, H2, no_trace, n, p, ROLLOUT_TURNS, cards[o],
                                          duty)
            if pol & OPT_SEARCH_POINTS:
                outcome = -1.0 * _hand_points(C, H2[p], H2[HI + p])
            elif pol & OPT_SEARCH_MATCH and C[R_MATCH_KIND] != M_SINGLE:
                winner = _playout_match(Cr, G2, H2, no_trace, n, result, playout_seed)
                outcome = 1.0 if winner == _seat(G, p) else 0.0
            else:
                outcome = 1.0 if result == p else 0.0
            if o == 0:
                first = outcome
            totals[o] += outcome
            squares[o] += (outcome - first) ** 2
    _keep_alive(Cr_memory, G_memory)
    _keep_alive(H_memory, H_memory)
    return totals, squares


@njit
def _search_move(C, G, H, tr, p, n, duty):
    cards = np.empty(MAX_OPTIONS, np.int64)
    suits = np.empty(MAX_OPTIONS, np.int64)
    no_stack = np.empty(MAX_OPTIONS, np.int64)
    k = _search_choices(C, G, H, p, duty, cards, suits, no_stack)
    if k == 0:
        return NO_FORCE  # nothing to choose: it draws
    best = 0
    if k > 2:  # option 0 and one card: the rollout policy plays that card anyway
        S = np.empty(H_SIZE, np.uint64)
        _seed_rng(S, _mix64(_next_u64(H) ^ np.uint64(SEARCH_SEEDED)))
        totals, squares = search_values(C, G, H, p, n, duty, cards, suits, no_stack, k, S)
        pol = C[C_POL + _seat(G, p)]
        budget = (pol >> SEARCH_BUDGET_SHIFT) & 0xFFFF
        z = (pol >> SEARCH_MARGIN_SHIFT) & 3
        margin = 0.0  # the best option's lead over option 0 beyond z standard errors
        for o in range(k):
            # the estimate in thousandths (of a deal won, or of a point): play narrates it
            _emit(G, tr, EV_ESTIMATE, _seat(G, p),
                  (cards[o] + 2) | ((suits[o] + 1) << 8) | (no_stack[o] << 12),
                  int(round(1000.0 * totals[o] / budget)))
            lead = (totals[o] - totals[0]) / budget
            spread = squares[o] / budget - lead * lead
            lead -= z * np.sqrt(max(spread, 0.0) / max(budget - 1, 1))
            if lead > margin:
                margin = lead
                best = o
    G[S_FORCE_SUIT] = suits[best]
    G[S_NO_STACK] = no_stack[best]
    return cards[best]


@njit
def search_decision_nb(constants, G_memory, H_memory, p, n, seed):
    """What the search player at position p weighs for its move in the state (G, H), with its
    search stream started at ``seed``: the options (cards, suits, no_stack) and each one's
    total and squared-difference sums (see search_values). For tests: a decision is a function
    of the seat's information and its stream only."""
    C = _unchecked(constants)
    G = _unchecked(G_memory)
    H = _unchecked(H_memory)
    cards = np.empty(MAX_OPTIONS, np.int64)
    suits = np.empty(MAX_OPTIONS, np.int64)
    no_stack = np.empty(MAX_OPTIONS, np.int64)
    k = _search_choices(C, G, H, p, False, cards, suits, no_stack)
    S = np.empty(H_SIZE, np.uint64)
    _seed_rng(S, np.uint64(seed))
    totals, squares = search_values(C, G, H, p, n, False, cards, suits, no_stack, k, S)
    _keep_alive(constants, G_memory)
    _keep_alive(H_memory, H_memory)
    return cards[:k].copy(), suits[:k].copy(), no_stack[:k].copy(), totals, squares


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
