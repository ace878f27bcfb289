"""The compiled Vändåtta engine: deal, turn, policies, matches, batch runner and event trace.

The entry points are ``run_batch_nb`` (a batch of games, or one game's trace),
``search_decision_nb``, ``policy_choice_nb`` (one policy decision, for tests) and
``game_seed_nb``; the Python-facing API is
:mod:`vandatta_sim.simulate`; the rules the kernels implement are RULES.md plus the choices
written down in ``docs/engine-rules.md``. The package has one concept per module, in the order
they build on each other:

- ``layout``: the state layout and codes (offsets, rule and policy codes, option bits, card
  masks, event codes); no numba, so ``simulate``, the tests and the docs read it cheaply;
- ``_numba``: the njit wrappers with the engine's options, the cache locator, unchecked arrays,
  llvm intrinsics and their plain twins;
- ``primitives``: card bits, the random stream, hands, one trace event (all inlined);
- ``policies``: the heuristic policies, every decision side by side;
- ``game``: one deal under the rules: draws, legality, playing a card, a turn, a deal;
- ``match``: the match's bookkeeping and the batch runner;
- ``worlds``: what a search seat believes about the hidden cards: the public bookkeeping
  (compiled into the game through hooks declared in ``primitives``), the worlds it deals,
  their likelihood weights, and the audit of its beliefs against the true hands;
- ``search``: the search player, compiled into the turn loop through the hook ``game._search``.

Caching: numba stamps a cached kernel with its own source file only; the engine's locator
(``_numba.stamp_kernels_with_sources``) stamps every engine kernel with a digest of all the
engine's modules, of :mod:`vandatta_sim.cards` and :mod:`vandatta_sim.trace` (whose constants
are frozen into the kernels) and of the plain-kernel switch, so an edit in any of them
recompiles every kernel and nothing is served stale. It is registered when ``_numba`` is
imported, before the first kernel is decorated.

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
random state) and ``tr``. The type of ``tr`` picks one of two compiled kinds of every game
kernel: a 2-D int32 array (the event trace, or zero rows: record nothing) gives the kernel with
the trace, the public bookkeeping and the search player, which traced games, search seats and
the table use; a 1-D int8 dummy gives the kernel with none of the three, which heuristic batch
runs and the search's own playouts use (measured: the bookkeeping, the per-event record test and
the search hook cost a heuristic batch half its speed). The lean kind is compiled once more
for each ``FrozenRules`` that ``simulate`` passes beside C: standard's rules as constants, so
that every branch on a rule that is off folds away (``simulate.FROZEN_PRESETS`` says which rules
and what it measured); any other rules run the general one. Inside the kernel C, G and H are
:class:`UncheckedArray` views: each is compiled as a bare data pointer (no wraparound on
indexing, no reference counting, one argument in a call), and every access through one tells
LLVM that the rules, the game's vectors and the hands never overlap (``_numba._VIEW_KINDS``).
The search's playouts and the worlds it draws get views too (their states, scratch and trace
dummy): an array handed to a call that is not inlined costs two atomic reference counts.
The turn's helpers are ``inline="always"``, each written so that it is inlined in few places
(compile time grows with every inlined copy): the expert's pick is inlined into the turn's move
alone (a cost model, ``policies._into_the_move``), and rarely used paths (duties, an ace's
draws, the start card, an eight's follow-up) are ordinary calls, which keeps the compiled turn
loop small. The kernel with the trace and the search player calls its block of games from
the parallel body (``match._block``), which the heuristic kernels inline: it compiles faster.
A call that is not inlined passes positions and counts as ``np.int64(...)``: numba types a
loop in rounds, and a call it typed while a variable was still the literal it starts at (the
position 0) compiled a copy of the callee for that literal, never used; the parallel body's
index, typed two ways, had compiled the search kernel's whole block twice (``match``).
Its search seats play out their options, under the rules that ``simulate`` freezes for them
(``FrozenRules.playouts``: standard's), on a turn loop with those rules as constants.
What each of these measures was worth is in the commit history
(``git log -- vandatta_sim/engine.py vandatta_sim/engine/``).

Speed is guarded by an A/B, not by tests: **every engine change quotes** ``make bench-ab``
(``scripts/bench_ab.py``: this checkout against the engine before it, ``BASE=REF`` for any
commit, alternating fresh processes, medians) in its closing note, and says why where it is
slower; ``scripts/games_digest.py`` before and after shows whether it changed any game.
"""

# Import order matters: ``_numba`` registers the cache locator before any module decorates a
# kernel (the ``layout`` it imports has none), and ``search`` and ``worlds`` must be imported
# before anything compiles, because their overloads of ``game._search`` and of the bookkeeping
# hooks are what the turn loop calls; numba looks them
# up when it first compiles ``run_batch_nb``, by which time this file has run to the end.
from . import _numba, game, layout, match, policies, primitives, search, worlds  # noqa: F401
from ._numba import (
    ENGINE_STAMP, FAST_PDEP, PLAIN_KERNEL, FrozenRules, RulesArray, UncheckedArray, inline, njit)
from .layout import *  # noqa: F403 (the layout and codes: simulate and the tests read engine.X)
from .game import policy_choice_nb
from .match import MATCH_GOES_ON, run_batch_nb, step_nb
from .policies import NO_FORCE, NOT_COUNTED, STRANDED
from .primitives import GOLDEN, LOW32, MIX1, MIX2, U11, U27, U30, U31, U32, WY0, WY1, game_seed_nb
from .search import (
    MAX_OPTIONS, ROLLOUT_MOVE_BIT, SEARCH_SEEDED, search_decision_nb, search_options,
    search_values)
from .worlds import AUDIT_FIELDS, belief_audit_nb
