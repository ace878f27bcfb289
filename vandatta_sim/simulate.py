"""The public batch API: play N games under one rules object and get a pandas DataFrame.

Game ``i`` of a run depends only on ``(seed, i)``, the rules and the seat settings, so a run
split into chunks, or played on any number of threads, gives the same table, and
:func:`trace_game` replays any single game with its full event record.
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

import numba
import numpy as np

from . import engine as E
from . import tuned
from .cards import RANK_NAMES, card_name, parse_card
from .rules import PRESETS, Rules, RulesError

if TYPE_CHECKING:
    import pandas as pd


class SimulationError(ValueError):
    """Bad simulation settings (policies, seeds, counts); the message is one line."""


SeatSpec = str | Sequence | Mapping | None


# --- validators: one per argument, called by simulate(), Seats, the sweep and the CLI ----------
# Strict everywhere: a bool is never a count or a probability, and a rank index is an integer.


def _is_integer(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def check_count(value, what: str, low: int = 0, high: int | None = None) -> int:
    """``value`` as an int: an integer (not a bool, not a float) from ``low`` to ``high``."""
    if not _is_integer(value) or value < low or (high is not None and value > high):
        allowed = f"an integer ≥ {low}" + (f" and ≤ {high:,}" if high is not None else "")
        raise SimulationError(f"{what} = {value!r} is not allowed; allowed: {allowed}")
    return int(value)


def check_threads(threads) -> int | None:
    """None (numba's current setting) or a thread count from 1 to numba's maximum."""
    if threads is None:
        return None
    most = numba.config.NUMBA_NUM_THREADS
    if not _is_integer(threads) or not 1 <= threads <= most:
        raise SimulationError(f"threads {threads!r} is not allowed; allowed: 1–{most}")
    return int(threads)


def _policy_parts(name) -> tuple[str, dict[str, str]]:
    """The policy spec ``NAME[:OPTION=VALUE]...`` checked, as its name and options (defaults
    included); ``:`` separates options, so a spec survives comma-separated lists."""
    text = str(name).strip()
    base, *parts = [part.strip() for part in text.split(":")]
    if base not in E.POLICIES:
        raise SimulationError(f"policy {text!r} is not allowed; allowed: {', '.join(E.POLICIES)}"
                              ", tuned:NAME (options: expert:eights=hold|dump|K, search:budget=N:rollout=P"
                              ":objective=win|points|match, ismcts:iterations=N:c=C)")
    allowed = E.POLICY_OPTIONS.get(base, {})
    options = {option: next(iter(values)) for option, values in allowed.items()}
    given = set()
    for part in parts:
        option, _, value = (x.strip() for x in part.partition("="))
        if option not in allowed or option in given:
            kinds = ", ".join(allowed) if allowed else "none"
            raise SimulationError(f"policy {text!r}: option {option!r} is not allowed; "
                                  f"allowed for {base}: {kinds}")
        if value not in allowed[option]:
            raise SimulationError(f"policy {text!r}: {option}={value!r} is not allowed; "
                                  f"allowed: {', '.join(allowed[option])}")
        options[option] = value
        given.add(option)
    return base, options


def check_policy(name) -> str:
    """The canonical spelling of the policy spec ``name`` (``NAME[:OPTION=VALUE]...``, blanks
    ignored; names in ``engine.POLICIES``, options in ``engine.POLICY_OPTIONS``): options in
    sorted order, a default value left out, so ``expert:eights=hold`` is ``expert``. A stored
    tuned policy is ``tuned:NAME`` (:mod:`vandatta_sim.tuned`)."""
    if tuned.is_tuned(name):
        try:
            return tuned.check_spec(name)
        except tuned.TunedPolicyError as exc:
            raise SimulationError(str(exc)) from None
    base, options = _policy_parts(name)
    defaults = E.POLICY_OPTIONS.get(base, {})
    return ":".join([base] + [f"{k}={v}" for k, v in sorted(options.items())
                              if v != next(iter(defaults[k]))])


def policy_code(name) -> int:
    """The kernel's number for the policy spec ``name``: its POL_* plus its options' bits (a
    tuned policy is `expert` with its own weights, which travel apart: Seats.weight_rows)."""
    if tuned.is_tuned(name):
        return E.POL_EXPERT
    base, options = _policy_parts(name)
    code = E.POLICIES.index(base)
    for option, value in options.items():
        code |= E.POLICY_OPTIONS[base][option][value]
    return code


def is_seat_assignment(text: str) -> bool:
    """Whether ``text`` is ``SEAT=VALUE`` (seat ``all`` or a number), not a policy's option."""
    seat, eq, _ = str(text).partition("=")
    return bool(eq) and (seat.strip() == "all" or seat.strip().isdigit())


def check_probability(value, what: str = "forget") -> float:
    """A probability 0–1 as a float, from a number or its text (``"0.25"``), never a bool."""
    try:
        p = float(value)
    except (TypeError, ValueError):
        p = -1.0
    if isinstance(value, bool | np.bool_) or not 0.0 <= p <= 1.0:
        raise SimulationError(f"{what} {value!r} is not allowed; allowed: a probability 0–1")
    return p + 0.0  # -0.0 is 0.0: equal settings make one key


def check_swap_rank(swap) -> str | None:
    """The canonical rank name of a swap experiment (``"8"``, ``"A"``, …) or None for no swap:
    from a rank name in any case, ``"none"``/None, or a rank index 0–12 (an integer)."""
    if swap is None:
        return None
    if isinstance(swap, str):
        if swap.strip().lower() == "none":
            return None
        if swap.strip().upper() in RANK_NAMES:
            return swap.strip().upper()
    elif _is_integer(swap) and 0 <= swap < 13:
        return RANK_NAMES[int(swap)]
    raise SimulationError(f"swap {swap!r} is not allowed; allowed: none or a rank "
                          f"({', '.join(RANK_NAMES)})")


def check_swap_seat(seat, players: int) -> int | None:
    """None (the seat follows the game index) or a seat 0 … players-1."""
    if seat is None:
        return None
    if not _is_integer(seat) or not 0 <= seat < players:
        raise SimulationError(f"swap_seat {seat!r} is not allowed; allowed: 0–{players - 1}")
    return int(seat)


def _per_seat(spec: SeatSpec, n_seats: int, default, parse, what: str) -> list:
    """Per-seat values from ``NAME`` (all seats), a list, a mapping ``{seat|"all": value}`` or
    ``"all=NAME,1=NAME"`` strings."""
    values = [default] * n_seats
    if spec is None:
        return values
    if isinstance(spec, str) or np.isscalar(spec):
        spec = [spec]
    if isinstance(spec, Mapping):
        items = list(spec.items())
    elif all(isinstance(s, str) and is_seat_assignment(s) for s in spec):
        items = [tuple(s.split("=", 1)) for s in spec]
    else:
        if len(spec) == 1:
            return [parse(spec[0])] * n_seats
        if len(spec) != n_seats:
            raise SimulationError(f"{what}: {len(spec)} values for {n_seats} seats")
        return [parse(v) for v in spec]
    # The one conflict rule of the seats: a seat (or all) given twice is an error, and a named
    # seat wins over all= whatever their order (all=expert 0=random and 0=random all=expert
    # are the same seats).
    seen: dict = {}
    for seat, value in items:
        seat = str(seat).strip()
        if seat != "all" and (not (seat.isascii() and seat.isdigit())
                              or not 0 <= int(seat) < n_seats):
            raise SimulationError(
                f"{what}: seat {seat!r} is not allowed; allowed: all, 0–{n_seats - 1}")
        name = seat if seat == "all" else int(seat)
        if name in seen:
            raise SimulationError(f"{what}: seat {name} is given twice ({name}={seen[name]} and "
                                  f"{name}={value}); give each seat once")
        seen[name] = value
    if "all" in seen:
        values = [parse(seen.pop("all"))] * n_seats
    for seat, value in seen.items():
        values[seat] = parse(value)
    return values


#: The policy of a seat that is given none, everywhere (API, command line, sweeps): ``expert``,
#: the policy the README and every report use, so that a bare run answers how the game plays
#: between good players. ``random`` is a baseline to be asked for.
DEFAULT_POLICY = "expert"


@dataclass(frozen=True)
class Seats:
    """Per-seat simulation settings: each seat's policy and its chance of forgetting a call;
    ``weights``, where given, a seat's row of expert's weights in place of its policy's (the
    tuner's candidates: None for a seat that keeps its policy's)."""

    policies: tuple[str, ...]
    forget: tuple[float, ...]
    weights: tuple = ()

    @classmethod
    def build(cls, n_seats: int, policies: SeatSpec = None, forget: SeatSpec = None) -> Seats:
        pol = _per_seat(policies, n_seats, DEFAULT_POLICY, check_policy, "policy")
        fgt = _per_seat(forget, n_seats, 0.0, check_probability, "forget")
        return cls(tuple(pol), tuple(fgt))

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        pol = np.full(E.MAX_SEATS, E.POL_RANDOM, np.int64)
        pol[: len(self.policies)] = [policy_code(p) for p in self.policies]
        fgt = np.zeros(E.MAX_SEATS, np.float64)
        fgt[: len(self.forget)] = self.forget
        return pol, fgt

    def any_search(self) -> bool:
        """Whether a seat searches (its games need the kernel with the public bookkeeping)."""
        pol, _ = self.arrays()
        return bool(((pol[: len(self.policies)] & E.POL_KIND) >= E.POL_SEARCH).any())

    def weight_rows(self) -> np.ndarray:
        """Each seat's row of expert's weights (engine.W_*), as the kernel reads them."""
        rows = np.zeros((E.MAX_SEATS, E.N_WEIGHTS), np.int64)
        rows[:, : len(E.EXPERT_WEIGHTS)] = E.EXPERT_WEIGHTS
        for seat, policy in enumerate(self.policies):
            given = self.weights[seat] if seat < len(self.weights) else None
            row = given if given is not None else tuned.weights_of(policy)
            rows[seat, : len(row)] = row
        return rows

    def describe(self) -> str:
        if len(set(self.policies)) == 1:
            text = f"all={self.policies[0]}"
        else:
            text = ",".join(f"{i}={p}" for i, p in enumerate(self.policies))
        if any(self.forget):
            text += " forget=" + ",".join(f"{f:g}" for f in self.forget)
        return text


def _code(field: str, values: tuple[str, ...]) -> Callable[[Rules], int]:
    """A named choice, written as its index in the kernel's tuple of the rule's values."""
    return lambda rules: values.index(getattr(rules, field))


_as_is = operator.attrgetter

# How each Rules field is written into the kernels' rule vector (layout: ``engine.R_*``):
# field -> the slots it fills, each with the function of the rules that gives its value. Every
# field has an entry (checked at import), so a new rule cannot be forgotten on its way to the
# kernels; one with no slot says where it goes instead.
KERNEL_RULES: dict[str, tuple[tuple[int, Callable[[Rules], int]], ...]] = {
    "players": ((E.R_PLAYERS, _as_is("players")),),
    "decks": ((E.R_DECKS, _as_is("n_decks")),),
    "hand_size": ((E.R_HAND, _as_is("hand_size")),),
    "jokers": ((E.R_JOKERS, _as_is("jokers")),),
    "joker_effect": ((E.R_JOKER_EFFECT, _code("joker_effect", E.JOKER_EFFECTS)),),
    "start_eight": ((E.R_START_EIGHT, _code("start_eight", E.START_EIGHT)),),
    "start_ace": ((E.R_START_ACE, _code("start_ace", E.START_ACE)),),
    "must_play": ((E.R_MUST_PLAY, _as_is("must_play")),),
    "stacking": ((E.R_STACKING, _as_is("stacking")),),
    "eight_follow": ((E.R_EIGHT_SAME, lambda rules: rules.eight_follow == "same_player"),),
    "eight_on_ace": ((E.R_EIGHT_ON_ACE, _as_is("eight_on_ace")),),
    "eight_on_eight": ((E.R_EIGHT_ON_EIGHT, _as_is("eight_on_eight")),),
    "ace_on_eight": ((E.R_ACE_ON_EIGHT, _as_is("ace_on_eight")),),
    "ace_on_ace": ((E.R_ACE_ON_ACE, _code("ace_on_ace", E.ACE_ON_ACE)),),
    "ace_draw": ((E.R_ACE_DRAW, _as_is("ace_draw")),),
    "ace_extra_turn": ((E.R_ACE_EXTRA, _as_is("ace_extra_turn")),),
    "draw_limit": ((E.R_DRAW_LIMIT, _as_is("draw_limit")),),
    "specials_only_must_draw": ((E.R_SPECIALS_DRAW, _as_is("specials_only_must_draw")),),
    "out_on_special": ((E.R_OUT_ON_SPECIAL, _as_is("out_on_special")),),
    "last_card_start_suit": ((E.R_LAST_START_SUIT, _as_is("last_card_start_suit")),),
    "two_draws_two": ((E.R_TWO_DRAWS_TWO, _as_is("two_draws_two")),),
    "call_at": ((E.R_CALL_AT, _as_is("call_at")),),
    "call_penalty": ((E.R_CALL_PENALTY, _as_is("call_penalty")),),
    "reshuffles": ((E.R_RESHUFFLES,
                    lambda rules: -1 if rules.reshuffles == "unlimited" else rules.reshuffles),),
    "scale": (),  # not a rule slot: kernel_constants writes its points at engine.C_SCALE
    "match": ((E.R_MATCH_KIND, lambda rules: E.MATCH_KINDS.index(rules.match_kind)),
              (E.R_MATCH_PARAM, _as_is("match_param"))),
    "eliminate_at": ((E.R_ELIM_PASS, lambda rules: rules.eliminate_at == "pass"),),
}


def check_kernel_rules(table: Mapping[str, tuple], names: Sequence[str], size: int) -> None:
    """ImportError unless ``table`` lowers exactly the Rules fields ``names`` and fills each of
    the ``size`` slots of the rule vector once."""
    missing = [name for name in names if name not in table]
    if missing:
        raise ImportError(f"simulate.KERNEL_RULES does not lower the Rules field(s) "
                          f"{', '.join(missing)}: add how each is written into the kernel's rule "
                          f"vector (engine.R_*)")
    unknown = [name for name in table if name not in names]
    if unknown:
        raise ImportError(f"simulate.KERNEL_RULES lowers {', '.join(unknown)}, which Rules "
                          f"does not have")
    slots = Counter(slot for lowering in table.values() for slot, _ in lowering)
    wrong = sorted(set(range(size)) ^ set(slots)) + sorted(k for k, n in slots.items() if n > 1)
    if wrong:
        raise ImportError(f"simulate.KERNEL_RULES fills the rule vector's slots {wrong} not "
                          f"exactly once (engine.R_SIZE = {size})")


check_kernel_rules(KERNEL_RULES, [field.name for field in fields(Rules)], E.R_SIZE)


def kernel_rules(rules: Rules) -> np.ndarray:
    """The rules as the int64 vector the kernels read (layout: ``engine.R_*``)."""
    R = np.zeros(E.R_SIZE, np.int64)
    for lowering in KERNEL_RULES.values():
        for slot, value in lowering:
            R[slot] = value(rules)
    return R


def seed_key(seed: int) -> np.uint64:
    """The 64-bit key of a user seed (numpy SeedSequence: well mixed, any non-negative int)."""
    seed = check_count(seed, "seed")
    return np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]


def valuation_points(rules: Rules, valuation=None) -> np.ndarray:
    """The points per card type that the policies weigh as penalty risk: the rules' own scale,
    or ``valuation`` (a scale name, a mapping of ranks to points, or a 14-tuple, as for the rule
    ``scale``), so that an experiment can change what cards score with play held fixed."""
    if valuation is None:
        return rules.scale_points()
    try:
        return rules.replace(scale=valuation).scale_points()
    except RulesError as exc:
        raise SimulationError(str(exc).replace("scale", "valuation", 1)) from None


def kernel_constants(rules: Rules, seats: Seats, deck: Sequence[str | int] = (),
                     valuation=None) -> np.ndarray:
    """Everything constant during a run, as the int64 vector the kernels read (``engine.C_*``)."""
    C = np.zeros(E.C_SIZE, np.int64)
    C[: E.R_SIZE] = kernel_rules(rules)
    C[E.C_SCALE: E.C_SCALE + 54] = rules.scale_points()
    C[E.C_VALUE: E.C_VALUE + 54] = valuation_points(rules, valuation)
    ordinary = [c for c in range(52) if c // 4 not in (0, 7)]  # neither ace nor eight
    C[E.C_ORDINARY_VALUE] = round(100 * float(np.mean(C[E.C_VALUE + np.array(ordinary)])))
    pol, fgt = seats.arrays()
    C[E.C_POL: E.C_POL + E.MAX_SEATS] = pol
    C[E.C_FORGET: E.C_FORGET + E.MAX_SEATS] = np.round(fgt * 2.0**53).astype(np.int64)
    C[E.C_WEIGHTS: E.C_WEIGHTS + E.MAX_SEATS * E.N_WEIGHTS] = seats.weight_rows().ravel()
    cards = [parse_card(c) if isinstance(c, str) else int(c) for c in deck]
    available = Counter({c: rules.n_decks for c in range(52)})
    available.update({52 + j: rules.n_decks for j in range(rules.jokers)})
    for card, count in Counter(cards).items():
        if count > available[card]:
            raise SimulationError(f"deck: {card_name(card)} appears {count} times; the pack has "
                                  f"{available[card]}")
    C[E.C_SCRIPT_LEN] = len(cards)
    C[E.C_SCRIPT: E.C_SCRIPT + len(cards)] = cards
    return C


# The rules a heuristic batch run compiles into its kernel as constants (engine.FrozenRules):
# those of these presets, at any table size and match format (scales are not rules: any scale
# shares them). Measured on standard, 4 players (scripts/bench_ab.py against the engine before,
# with the cheaper expert decisions of the same change): 1.10x `random` and `expert`, the same
# games. Each entry is one more compiled kernel (about 130 CPU-s to compile and 0.25 MB of
# cache, once), so the list is short: standard is the table that commands, reports and
# benchmarks run unless told otherwise; other rules run the general kernel. The first one's
# rules are also those the search's playouts are compiled for (FrozenRules.playouts): one more
# turn loop in the kernel with the search, which stays one kernel for all rules.
FROZEN_PRESETS = ("standard",)
# read once a game or deal, so freezing them buys nothing and would split the tables' kernels
NOT_FROZEN = (E.R_PLAYERS, E.R_MATCH_KIND, E.R_MATCH_PARAM, E.R_ELIM_PASS)


@functools.cache
def _preset_rules(name: str) -> tuple[int, ...]:
    return tuple(int(v) for v in kernel_rules(PRESETS[name]))


def frozen_rules(C: np.ndarray, lean: bool, feel: bool = False) -> E.FrozenRules:
    """The rules of C to compile into a heuristic (``lean``) run's kernel: all of them but
    NOT_FROZEN where they are a preset of FROZEN_PRESETS', none otherwise. The kernel with the
    trace and the search player stays general (one kernel for every rules), but carries the
    first preset's rules for its playouts: a search seat under them plays out its options on a
    turn loop compiled with them as constants. The plain kernel freezes nothing, and neither
    does the game feel's (``feel``): it is asked for, not the default, and one kernel for every
    rules saves a compile of minutes (once per install, and in every fresh report run) for
    about a tenth of its speed under a preset (docs/speed.md)."""
    if E.PLAIN_KERNEL or feel:
        return E.FrozenRules()
    pairs = tuple((i, int(C[i])) for i in range(E.R_SIZE) if i not in NOT_FROZEN)
    frozen = [tuple((i, _preset_rules(name)[i]) for i, _ in pairs) for name in FROZEN_PRESETS]
    if not lean:
        return E.FrozenRules(playouts=frozen[0] if frozen else ())
    return E.FrozenRules(pairs if pairs in frozen else ())


def _run(rules, n_games, seed, seats, first_game, threads, swap, swap_seat, record, deck=(),
         valuation=None, feel=False):
    C = kernel_constants(rules, seats, deck, valuation)
    # the kernel with the trace records the game feel always; a heuristic run where asked (its
    # own kernel, a 1-D int16 dummy: the lean one stays as fast as before, see engine/feel.py)
    feel = bool(feel or record or seats.any_search())
    # the kernel writes each game's row into the narrowest arrays that hold it (it casts): fresh
    # memory is paid for page by page; measured in a new process, zeroing and first touching
    # the int64 arrays of 200,000 games (192 bytes a game) took 20-180 ms beside about 0.65 s
    # of expert play, these (72 bytes a game) 40-70 ms
    out = np.zeros((n_games, E.O_SIZE if feel else E.O_LEAN_SIZE), np.int32)
    P = rules.players
    points = np.zeros((n_games, P), np.int32)
    eights = np.zeros((n_games, P), np.int8)
    aces = np.zeros((n_games, P), np.int8)
    if record or seats.any_search():
        # zero rows record nothing: trace_game and the search players share this kernel
        trace = np.zeros((record, 4), np.int32)
    else:
        # heuristic players only, nothing recorded: the kernel compiled for this 1-D dummy
        # has no trace, public bookkeeping or search code at all (int8: the playouts' own kind,
        # int16: the same with the game feel's bookkeeping)
        trace = np.zeros(0, np.int16 if feel else np.int8)
    frozen = frozen_rules(C, lean=trace.ndim == 1, feel=feel and trace.ndim == 1)
    swap_seat = check_swap_seat(swap_seat, P)
    threads = check_threads(threads)
    swap = check_swap_rank(swap)
    swap_rank = -1 if swap is None else RANK_NAMES.index(swap)
    previous = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        # threads take blocks of games 4 at a time as they finish (not a fixed half each): game
        # lengths vary, and so does a shared machine's speed (measured on 2 cores: 1.82x
        # instead of 1.68x over one thread). Results never depend on the schedule.
        with numba.parallel_chunksize(4):
            E.run_batch_nb(C, frozen, seed_key(seed), first_game, swap_rank,
                           -1 if swap_seat is None else swap_seat, trace, out, points, eights,
                           aces)
    finally:
        numba.set_num_threads(previous)
    return out, points, eights, aces, trace, int(out[0, E.O_EVENTS]) if record else 0


# The game feel's columns (docs/columns.md defines each): per game, summed over its deals, and
# for a match its standings on points; then per seat its turns, the turns where it had two or
# more options, and their options summed.
FEEL_COLUMNS = ("lead_changes", "won_deals", "won_turns", "behind", "comebacks",
                "decisive_turns")
MATCH_FEEL_COLUMNS = ("points_lead_changes", "points_behind", "points_comeback")
SEAT_FEEL_COLUMNS = ("seat_turns", "choice_turns", "options")


def feel_columns(out: np.ndarray, players: int, match: bool) -> dict[str, np.ndarray]:
    """The game feel's columns of a feel kernel's rows ``out``: FEEL_COLUMNS, then
    MATCH_FEEL_COLUMNS for a match, then SEAT_FEEL_COLUMNS as ``<name>_<seat>``."""
    starts = dict(zip(FEEL_COLUMNS, range(E.O_LEAD_CHANGES, E.O_LEAD_CHANGES + 6)))
    if match:
        starts.update(zip(MATCH_FEEL_COLUMNS, (E.O_POINTS_LEAD_CHANGES, E.O_POINTS_BEHIND,
                                               E.O_POINTS_COMEBACK)))
    columns = {name: out[:, j].astype(np.int32) for name, j in starts.items()}
    for name, first in zip(SEAT_FEEL_COLUMNS, (E.O_SEAT_TURNS, E.O_CHOICE_TURNS, E.O_OPTIONS)):
        for s in range(players):
            columns[f"{name}_{s}"] = out[:, first + s].astype(np.int32)
    return columns


def simulate(rules: Rules, games: int, seed: int = 0, policies: SeatSpec = DEFAULT_POLICY,
             forget: SeatSpec = None, first_game: int = 0, threads: int | None = None,
             swap=None, swap_seat: int | None = None, valuation=None,
             feel: bool = False) -> pd.DataFrame:
    """Play ``games`` games (deals or matches, by ``rules.match``) and return one row per game.

    Parameters
    ----------
    policies, forget : a name/number for every seat, a list per seat, or a mapping
        ``{"all": ..., 0: ...}`` / strings ``"all=random"``, ``"1=greedy"``; a seat given no
        policy plays ``expert`` (:data:`DEFAULT_POLICY`), as on the command line.
    first_game : index of the first game; ``simulate(..., games=n, first_game=k)`` returns
        exactly rows k … k+n-1 of a longer run with the same seed.
    threads : number of threads (default: numba's current setting, normally all cores).
    swap, swap_seat : swap experiment: in the first deal, one ordinary card of seat
        ``swap_seat`` (default: game index mod players) is exchanged for a card of rank
        ``swap`` (``"8"``, ``"A"``, …) from the talon, with the game's own random stream left
        where it was (the paired games part ways once the hands are played differently).
    valuation : the scale the policies weigh as penalty risk (default: the rules' ``scale``).
        Varying ``rules.scale`` with ``valuation`` fixed changes what the cards score and
        nothing of how the game is played (the break-even experiment of a card's value).
    feel : also return the game feel's columns (:data:`FEEL_COLUMNS`, docs/columns.md): the
        same games, from a kernel that records them (a few percent slower).

    Columns: ``game, winner, points_<s>, turns, plays, draws, reshuffles, blocked, capped,
    deals, first_winner, eights_<s>, aces_<s>`` (and ``swapped`` for a swap run; the feel
    columns with ``feel``). Seats are
    numbered from förhand of the first deal. ``winner`` is -1 for a blocked/capped deal or a
    drawn match; ``points_<s>`` are deal points for single deals, match totals otherwise.
    """
    import pandas as pd  # here, not at the top: `play` and a small `simulate` need no pandas

    # every column is a fresh array: no copy (merging them into blocks cost 5% of simulate's time)
    return pd.DataFrame(game_columns(rules, games, seed, policies, forget, first_game, threads,
                                     swap, swap_seat, valuation, feel), copy=False)


def game_columns(rules: Rules, games: int, seed: int = 0, policies: SeatSpec = DEFAULT_POLICY,
                 forget: SeatSpec = None, first_game: int = 0, threads: int | None = None,
                 swap=None, swap_seat: int | None = None,
                 valuation=None, feel: bool = False) -> dict[str, np.ndarray]:
    """:func:`simulate`'s games as its columns, name → array in the table's order: for a
    caller that only sums them (the summary reads either form), without loading pandas."""
    games = check_count(games, "games")
    first_game = check_count(first_game, "first_game")
    swap = check_swap_rank(swap)
    seats = policies if isinstance(policies, Seats) else Seats.build(rules.players, policies, forget)
    out, points, eights, aces, _, _ = _run(rules, games, seed, seats, first_game, threads, swap,
                                           swap_seat, 0, valuation=valuation, feel=feel)
    P = rules.players
    columns = {"game": np.arange(first_game, first_game + games, dtype=np.int64),
               "winner": out[:, E.O_WINNER].astype(np.int8)}
    for s in range(P):
        columns[f"points_{s}"] = points[:, s].astype(np.int32)
    columns.update(
        turns=out[:, E.O_TURNS].astype(np.int32), plays=out[:, E.O_PLAYS].astype(np.int32),
        draws=out[:, E.O_DRAWS].astype(np.int32),
        reshuffles=out[:, E.O_RESHUFFLES].astype(np.int32),
        blocked=out[:, E.O_BLOCKED].astype(np.int16), capped=out[:, E.O_CAPPED].astype(bool),
        deals=out[:, E.O_DEALS].astype(np.int16),
        first_winner=out[:, E.O_FIRST_WINNER].astype(np.int8))
    for s in range(P):
        columns[f"eights_{s}"] = eights[:, s].astype(np.int8)
    for s in range(P):
        columns[f"aces_{s}"] = aces[:, s].astype(np.int8)
    if swap is not None:
        columns["swapped"] = out[:, E.O_SWAPPED].astype(bool)
    if feel:
        columns.update(feel_columns(out, P, rules.match != "single"))
    return columns


def trace_game(rules: Rules, seed: int, game: int, policies: SeatSpec = DEFAULT_POLICY,
               forget: SeatSpec = None, swap=None, swap_seat: int | None = None,
               deck: Sequence[str | int] = (), valuation=None) -> np.ndarray:
    """Replay game ``game`` of the run with ``seed`` and return its events, an int32 array of
    rows ``(kind, seat, a, b)`` (format: docs/engine-rules.md). Same game as in :func:`simulate`.

    ``deck`` scripts the first deal for scenario tests: cards (``"♠Q"``, ``"H10"``, …) in the
    order they come off the pack: seat 0's hand, seat 1's, …, the start card, then the talon
    from the top; the rest of the pack follows in a fixed order. ``valuation`` as for
    :func:`simulate`.
    """
    seats = policies if isinstance(policies, Seats) else Seats.build(rules.players, policies, forget)
    capacity = 4096
    while True:
        *_, trace, n_events = _run(rules, 1, seed, seats, int(game), 1, swap, swap_seat, capacity,
                                   deck, valuation)
        if n_events <= capacity:
            return trace[:n_events].copy()
        capacity = int(n_events) + 16


__all__ = ["SimulationError", "DEFAULT_POLICY", "Seats", "simulate", "trace_game",
           "FEEL_COLUMNS", "MATCH_FEEL_COLUMNS", "SEAT_FEEL_COLUMNS", "feel_columns", "kernel_rules",
           "seed_key", "check_count", "check_threads", "check_policy", "policy_code",
           "check_probability",
           "check_swap_rank", "check_swap_seat"]
