"""The compiled Vändåtta engine: deal, turn, policies, matches, the batch runner, the step and
the event trace.

The entry points are ``run_batch_nb`` (a batch of games, or one game's trace), ``step_nb`` (one
game played to its next external decision: :mod:`vandatta_sim.step`), ``search_decision_nb``,
``policy_choice_nb`` (one policy decision, for tests) and ``game_seed_nb``; the Python-facing
API is :mod:`vandatta_sim.simulate` (whole games) and :mod:`vandatta_sim.step` (one decision at
a time). The rules the kernels implement are docs/spec.md plus the choices written down in
``docs/engine-rules.md``. One concept per module, in the order they build on each other:

- ``layout``: the state layout and codes (offsets, rule and policy codes, option bits, card
  masks, event codes, the step's decision kinds); no numba, so ``simulate``, the tests and the
  docs read it cheaply;
- ``_numba``: the njit wrappers with the engine's options, the cache locator, unchecked arrays,
  llvm intrinsics and their plain twins;
- ``primitives``: card bits, the random stream, hands, one trace event, and the step's hooks
  (a decision handed out, the game stopping there), all inlined;
- ``policies``: the heuristic policies, every decision side by side;
- ``feel``: the game feel's measures (lead changes, drama, comebacks, decisiveness, real
  choices), recorded through hooks declared there where a kernel records them;
- ``bookkeeping``: the public bookkeeping (what everyone has seen of each hand), recorded
  through hooks declared there in real games, for a search seat's worlds;
- ``game``: one deal under the rules: draws, legality, playing a card, a move, a turn, a deal;
  the turn loop takes the searching seats' choice as an argument, ``decide``;
- ``match``: the match's bookkeeping, one game (a deal or a match) and a block of a batch;
- ``worlds``: the worlds a search seat deals within the public bookkeeping, their likelihood
  weights and the audit of its beliefs;
- ``search``: the search players (``search``, ``ismcts``): a search seat's choice,
  ``search.search_move``, and its playouts on copies of the game's state;
- ``kernels``: the entry points that play real games (the batch runner, the step kernel, the
  belief audit), the one place that hands the turn loop its ``decide``
  (``search.search_move``, or ``game.no_search`` in the heuristic kernels).

Every hook a kernel calls (the step's, the feel's, the bookkeeping's) is declared in the module
that compiles it, as a plain function and its overload chosen by the trace's type; none is
filled in from another module at import time.

The rules of a turn exist once: every choice a policy makes passes through
``primitives._decide``, which in a step hands an external seat's decision out; the heuristic
batch kernels and the search's playouts have no code for it (their trace is a 1-D dummy).

Caching: numba stamps a cached kernel with its own source file only; the engine's locator
(``_numba.stamp_kernels_with_sources``) stamps every engine kernel with a digest of all the
engine's modules, of :mod:`vandatta_sim.cards` and :mod:`vandatta_sim.trace` (whose constants
are frozen into the kernels) and of the plain-kernel switch, so an edit in any of them
recompiles every kernel and nothing is served stale.

Encoding (see :mod:`vandatta_sim.cards`): a card type is ``rank * 4 + suit`` (52 cards) or
52/53 (jokers). A hand is two 64-bit masks per seat: ``lo`` has a bit for every type held at
least once, ``hi`` for every type held twice (two decks), so legality is ``lo & allowed`` and
``popcount(lo) + popcount(hi)`` is the hand size. The talon is an array from which each draw
takes a uniformly random remaining card (a lazily shuffled pile).

Randomness: game ``i`` of a run owns a private wyrand stream whose start is a splitmix64 hash
of ``(seed, i)``, so a game's result does not depend on threads, blocks or chunks, and any game
can be replayed alone (which is how the step resumes a game).

Kernel conventions: the entry points end in ``_nb``; kernels see only arrays and scalars, and
all state travels in four arrays: ``C`` (int64, constant for a run: the rules at ``R_*``, the
scale, seat policies and forget thresholds, a scripted deck, a step's answers), ``G`` (int64,
the game: per-deal scalars at ``S_*``, talon, discard pile, per-seat arrays; a step's G has the
decision and the state at it beyond ``G_SIZE``), ``H`` (uint64: the hand masks and the random
state) and ``tr``. The type of ``tr`` picks the compiled kind of every game kernel: a 2-D int32
trace (or zero rows) gives the kernel with the trace, the public bookkeeping, the search player,
the step's hooks and the game feel; a 1-D int8 dummy the lean kernel of heuristic batch runs and
playouts, compiled once more for each ``FrozenRules`` (rules as constants); a 1-D int16 dummy
the same heuristic kernel with the game feel's bookkeeping (``simulate(..., feel=True)``, every
sweep's chunks), so that neither the lean kernel nor the playouts pay for it. Inside the kernel C, G and H
are :class:`UncheckedArray` views (bare data pointers, no reference counting). The turn's
helpers are ``inline="always"``, each inlined in few places; a call that is not inlined passes
positions and counts as ``np.int64(...)`` so that numba compiles it once. Why each of these
choices, with its measurements: docs/speed.md and ``git log -- vandatta_sim/engine/``.

Speed is guarded by an A/B, not by tests: **every engine change quotes** ``make bench-ab``
(``scripts/bench_ab.py``) in its closing note, and says why where it is slower;
``scripts/games_digest.py`` before and after shows whether it changed any game.
"""

# Import order matters: ``_numba`` registers the cache locator before any module decorates a
# kernel (the ``layout`` it imports has none).
from . import (  # noqa: F401
    _numba, bookkeeping, feel, game, kernels, layout, match, policies, primitives, search,
    worlds)
from ._numba import (
    ENGINE_STAMP, FAST_PDEP, PLAIN_KERNEL, FrozenRules, RulesArray, UncheckedArray, inline, njit)
from .layout import *  # noqa: F403 (the layout and codes: simulate and the tests read engine.X)
from .game import policy_choice_nb
from .kernels import belief_audit_nb, run_batch_nb, step_nb
from .match import MATCH_GOES_ON
from .policies import NO_FORCE, NOT_COUNTED, STRANDED
from .primitives import GOLDEN, LOW32, MIX1, MIX2, U11, U27, U30, U31, U32, WY0, WY1, game_seed_nb
from .search import (
    ISMCTS_SEEDED, MAX_OPTIONS, ROLLOUT_MOVE_BIT, SEARCH_SEEDED, ismcts_decision_nb,
    search_decision_nb, search_options, search_values)
from .worlds import AUDIT_FIELDS
