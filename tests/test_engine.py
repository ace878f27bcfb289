"""The compiled engine: reproducibility, the DataFrame API, and the independent referee replaying
thousands of games over random rule configurations (property-based)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vandatta_sim.referee import RefereeError, referee
from vandatta_sim.rules import PRESETS, Rules
from vandatta_sim.simulate import SimulationError, simulate, trace_game
from vandatta_sim.trace import Event

SINGLE = Rules(match="single")


def test_same_seed_same_games_any_thread_count():
    one = simulate(SINGLE, 3000, seed=11, threads=1)
    two = simulate(SINGLE, 3000, seed=11, threads=2)
    pd.testing.assert_frame_equal(one, two)


def test_chunks_concatenate_to_the_whole_run():
    whole = simulate(PRESETS["seed002"], 600, seed=5)
    parts = [simulate(PRESETS["seed002"], 200, seed=5, first_game=k) for k in (0, 200, 400)]
    pd.testing.assert_frame_equal(whole, pd.concat(parts, ignore_index=True))


def test_different_seeds_differ():
    a = simulate(SINGLE, 500, seed=1)
    b = simulate(SINGLE, 500, seed=2)
    assert not a.equals(b)


def test_columns_and_invariants():
    df = simulate(SINGLE.replace(players=3), 2000, seed=3, policies=["random", "greedy", "expert"])
    assert list(df.columns[:5]) == ["game", "winner", "points_0", "points_1", "points_2"]
    won = df[df.winner >= 0]
    # the winner of a deal scores nothing; every loser holds at least one card
    for s in range(3):
        assert (won.loc[won.winner == s, f"points_{s}"] == 0).all()
        assert (won.loc[won.winner != s, f"points_{s}"] > 0).all()
    assert df.deals.eq(1).all()
    assert (df.plays > 0).all()
    assert ((df.eights_0 + df.eights_1 + df.eights_2) <= 4).all()


def test_trace_replays_the_same_game_as_simulate():
    rules = PRESETS["seed000"]
    df = simulate(rules, 40, seed=9, policies="expert")
    for game in (0, 17, 39):
        summary = referee(trace_game(rules, 9, game, policies="expert"), rules)
        row = df.iloc[game]
        assert summary["winner"] == row.winner
        assert summary["deals"] == row.deals
        assert summary["turns"] == row.turns
        assert summary["plays"] == row.plays
        assert summary["draws"] == row.draws
        assert list(summary["totals"]) == [row[f"points_{s}"] for s in range(rules.players)]


def test_the_batch_kernel_has_three_kinds_and_all_play_the_same_games():
    """Heuristic batch runs use the kernel without trace, bookkeeping or search code (a 1-D
    int8 dummy trace), or where asked for the game feel its twin with the feel's bookkeeping
    (a 1-D int16 dummy); traces and search seats share the third (a 2-D trace, zero rows to
    record nothing), so `play` compiles nothing that a search run has not. All play the same
    game."""
    from vandatta_sim import engine

    rules = PRESETS["standard"]
    before = simulate(rules, 30, seed=4)
    events = trace_game(rules, 4, 29)
    assert len(events) > 0 and referee(events, rules)["winner"] == before.winner.iloc[29]
    searched = simulate(rules.replace(match="single"), 2, seed=4, policies="0=search")
    assert len(searched) == 2
    pd.testing.assert_frame_equal(simulate(rules, 30, seed=4), before)
    felt = simulate(rules, 30, seed=4, feel=True)
    pd.testing.assert_frame_equal(felt[before.columns], before)
    kinds = {(sig[6].ndim, sig[6].dtype.name) for sig in engine.run_batch_nb.signatures}
    assert kinds == {(1, "int8"), (1, "int16"), (2, "int32")}


def test_frozen_rules_play_the_same_games_as_the_general_kernel(monkeypatch):
    """A heuristic run under standard's rules compiles them into its kernel as constants
    (simulate.FROZEN_PRESETS); the games are those of the general kernel, at every table size
    the freezing covers and with a scale and a match format of its own. Other rules, a search
    seat and a trace stay on the general kernel (whose search playouts carry standard's rules:
    tests/test_search.py checks that they decide as the general ones)."""
    from vandatta_sim import engine
    from vandatta_sim import simulate as sim

    cases = [(PRESETS["standard"].replace(players=players, match="single"), policy)
             for players, policy in ((2, "random"), (4, "expert"), (5, "greedy"))]
    cases.append((PRESETS["standard"].replace(players=3, match="elimination:50",
                                              scale="hundred"), "expert"))
    frozen = [simulate(rules, 200, seed=3, policies=policy) for rules, policy in cases]
    used = {sig[1].pairs for sig in engine.run_batch_nb.signatures if sig[6].ndim == 1}
    standard = sim.frozen_rules(sim.kernel_rules(PRESETS["standard"]), lean=True).pairs
    assert standard in used
    assert sim.frozen_rules(sim.kernel_rules(PRESETS["kids"]), lean=True).pairs == ()
    assert sim.frozen_rules(sim.kernel_rules(PRESETS["standard"]), lean=False).pairs == ()
    # the kernel with the search is one for all rules; its playouts carry standard's
    for name in ("standard", "kids"):
        carried = sim.frozen_rules(sim.kernel_rules(PRESETS[name]), lean=False)
        assert carried.playouts == (() if engine.PLAIN_KERNEL else standard)
    monkeypatch.setattr(sim, "FROZEN_PRESETS", ())
    assert sim.frozen_rules(sim.kernel_rules(PRESETS["standard"]), lean=True).pairs == ()
    assert sim.frozen_rules(sim.kernel_rules(PRESETS["standard"]), lean=False).playouts == ()
    for (rules, policy), games in zip(cases, frozen):
        pd.testing.assert_frame_equal(simulate(rules, 200, seed=3, policies=policy), games)


def test_first_player_advantage_is_visible_with_two_players():
    """Sanity of the whole pipeline: docs/spec.md §4 says förhand has a small advantage."""
    df = simulate(SINGLE.replace(players=2), 40_000, seed=4, policies="greedy")
    assert (df.winner == 0).mean() > 0.5


def test_swap_experiment_keeps_every_other_random_choice():
    rules = SINGLE.replace(players=3)
    base = simulate(rules, 300, seed=2)
    swapped = simulate(rules, 300, seed=2, swap="8", swap_seat=1)
    assert swapped.swapped.mean() > 0.9
    assert (swapped.eights_1 >= base.eights_1).all()
    assert (swapped.eights_1[swapped.swapped] == base.eights_1[swapped.swapped] + 1).all()
    # the other seats' hands are untouched
    assert (swapped.eights_0 == base.eights_0).all() and (swapped.aces_2 == base.aces_2).all()
    trace = trace_game(rules, 2, 7, swap="8", swap_seat=1)
    assert Event.SWAP in trace[:, 0]
    referee(trace, rules)


@pytest.mark.parametrize("bad", [
    dict(games=-1), dict(games=1.5), dict(seed=-3), dict(seed="x"), dict(policies="smart"),
    dict(policies={"9": "random"}), dict(forget="all=2"), dict(swap="Z"), dict(threads=0),
])
def test_bad_settings_are_one_line_errors(bad):
    kwargs = dict(games=10, seed=0) | bad
    with pytest.raises(SimulationError) as info:
        simulate(SINGLE, **kwargs)
    assert "\n" not in str(info.value)


# --- property-based: random rule configurations, every game refereed ---------------------------
_choices = {
    "joker_effect": ["reverse", "draw_two", "super_eight"],
    "start_eight": ["bury", "dealer_names", "forehand_names"],
    "start_ace": ["all_draw", "all_but_dealer_draw", "dealer_draws", "bury"],
    "eight_follow": ["next_player", "same_player"],
    "ace_on_ace": ["forbidden", "allowed", "counter"],
    "eliminate_at": ["reach", "pass"],
}
_bools = ["must_play", "stacking", "eight_on_ace", "eight_on_eight", "ace_on_eight",
          "ace_extra_turn", "specials_only_must_draw", "out_on_special", "last_card_start_suit",
          "two_draws_two"]


# a scale: a named one or a table of rank points of its own (A, 2, ..., K, joker: 14 numbers,
# as rules._check_scale takes them); a valuation the same, or none (the rules' scale)
scales = st.one_of(st.sampled_from(["base", "hundred", "crazy_eights"]),
                   st.tuples(*[st.integers(0, 1000)] * 14))
valuations = st.one_of(st.none(), scales)


@st.composite
def rule_sets(draw):
    """Rules of every field, at every table size (2-10 seats) and scale."""
    fields = {name: draw(st.sampled_from(values)) for name, values in _choices.items()}
    fields |= {name: draw(st.booleans()) for name in _bools}
    fields["scale"] = draw(scales)
    players = draw(st.integers(2, 10))
    decks = draw(st.sampled_from(["auto", 1, 2]))
    n_decks = (1 if players <= 5 else 2) if decks == "auto" else decks
    jokers = draw(st.integers(0, 2))
    max_hand = min(15, (n_decks * (52 + jokers) - 1) // players)
    fields |= dict(
        players=players, decks=decks, jokers=jokers, hand_size=draw(st.integers(1, max_hand)),
        ace_draw=draw(st.integers(0, 3)), draw_limit=draw(st.integers(0, 5)),
        call_at=draw(st.sampled_from([1, 3])), call_penalty=draw(st.integers(0, 5)),
        reshuffles=draw(st.sampled_from([0, 1, 2, "unlimited"])),
        match=draw(st.sampled_from(["single", "single", "deals:3", "elimination:60", "best_of:3"])),
    )
    return Rules(**fields)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(), seed=st.integers(0, 2**32), policy=st.sampled_from(
    ["random", "greedy", "expert", "expert:eights=dump", "eight-dumper", "search:budget=2",
     "mixed"]), valuation=valuations)
def test_referee_accepts_every_engine_game(rules, seed, policy, valuation):
    """Every game the engine plays, traced, is legal to the referee and scores as the batch run
    says: any rules, 2-10 seats, named and custom scales, policies weighing another scale
    (``valuation``). The trace is the batch run's game (same seed, same valuation)."""
    mixed = ["search:budget=2", "random", "greedy", "expert", "eight-dumper", "expert:eights=3",
             "expert:eights=dump", "greedy", "random", "expert"]
    policies = mixed[: rules.players] if policy == "mixed" else policy
    forget = {"all": 0.3}
    df = simulate(rules, 12, seed=seed, policies=policies, forget=forget, valuation=valuation)
    for game in range(12):
        trace = trace_game(rules, seed, game, policies=policies, forget=forget,
                           valuation=valuation)
        summary = referee(trace, rules)
        row = df.iloc[game]
        assert summary["winner"] == row.winner
        assert list(summary["totals"]) == [row[f"points_{s}"] for s in range(rules.players)]
        assert summary["draws"] == row.draws and summary["plays"] == row.plays


def test_referee_rejects_a_tampered_engine_trace():
    rules = Rules(players=3, match="single")
    trace = trace_game(rules, 1, 0)
    plays = np.flatnonzero(trace[:, 0] == Event.PLAY)
    bad = trace.copy()
    bad[plays[3], 2] = (bad[plays[3], 2] + 4) % 52  # a card of another rank, same suit
    with pytest.raises(RefereeError):
        referee(bad, rules)
    scored = trace.copy()
    row = np.flatnonzero(scored[:, 0] == Event.SCORE)[0]
    scored[row, 2] += 1
    with pytest.raises(RefereeError):
        referee(scored, rules)


def test_unchecked_views_write_through_and_nth_bit_picks_the_nth_card():
    """The kernel's own building blocks: an UncheckedArray view shares its array's memory
    (writes reach the array, reads see it), a frozen view reads its frozen rules as
    constants, and _nth_bit (pdep or the loop, by CPU) finds the
    n-th set bit of a mask, as the random policy needs."""
    import numba

    from vandatta_sim.engine import _numba as E
    from vandatta_sim.engine.layout import R_ACE_DRAW, R_SIZE, R_STACKING

    @numba.njit
    def fill(a):
        view = E._unchecked(a)
        for i in range(a.shape[0]):
            view[i] = view[i] * 10 + i
        E._keep_alive(a, a)
        return view[a.shape[0] - 1]

    a = np.arange(5, dtype=np.int64)
    assert fill(a) == 44
    np.testing.assert_array_equal(a, [0, 11, 22, 33, 44])

    @numba.njit
    def nth(m, n):
        return E._nth_bit(np.uint64(m), n)

    # a frozen view reads a rule at a constant offset as the frozen number (the array's own
    # entry is not read: here it differs on purpose), and any other entry from memory
    @numba.njit
    def rules_read(a, frozen, k):
        C = E._unchecked_rules(a, frozen)
        return C[R_STACKING], C[R_ACE_DRAW], C[k]

    a = np.arange(R_SIZE + 3, dtype=np.int64)
    general = rules_read(a, E.FrozenRules(), R_STACKING)
    assert general == (R_STACKING, R_ACE_DRAW, R_STACKING)
    if not E.PLAIN_KERNEL:  # the plain kernel freezes nothing
        assert rules_read(a, E.FrozenRules([(R_STACKING, -7)]), R_STACKING) == (
            -7, R_ACE_DRAW, R_STACKING)

    # the pairs a view carries for the search's playouts: whether an array holds them (every
    # pair compared), and a view of that array frozen with them
    @numba.njit
    def playouts(a, frozen):
        C = E._unchecked_rules(a, frozen)
        return E._holds_playout_rules(a, C), E._playout_rules(a, C)[R_STACKING]

    assert playouts(a, E.FrozenRules()) == (True, R_STACKING)
    if not E.PLAIN_KERNEL:
        carried = E.FrozenRules(playouts=[(R_STACKING, -7), (R_ACE_DRAW, R_ACE_DRAW)])
        assert playouts(a, carried) == (False, -7)
        b = a.copy()
        b[R_STACKING] = -7
        assert playouts(b, carried) == (True, -7)
        b[R_ACE_DRAW] = 0
        assert playouts(b, carried)[0] is False
    # numba unpickles a cache index's types before it checks the stamp: a type pickled before
    # the playouts existed must still make a key (else an old cache stops every kernel loading)
    old = E.RulesArray(numba.int64, ((R_STACKING, 0),))
    del old.__dict__["playouts"]
    assert old.key == ("unchecked", numba.int64, ((R_STACKING, 0),), ())

    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = int(rng.integers(1, 2**54))
        bits = [b for b in range(54) if mask >> b & 1]
        n = int(rng.integers(len(bits)))
        assert nth(mask, n) == bits[n]


def test_views_are_pointers_that_llvm_knows_apart():
    """A view is compiled as its data pointer alone (a call passes one argument per view, not an
    array's seven fields), works across a call that is not inlined, and tells LLVM that the
    game's int64 vectors and the uint64 hands never overlap: a field stored before a store to a
    hand is not loaded again after it. Fails if a numba or llvmlite release stops honouring the
    model or the scoped no-alias metadata (the kernels would still play the same games)."""
    import numba
    from llvmlite import ir
    from numba import types

    from vandatta_sim.engine import _numba as E

    model = numba.core.datamodel.default_manager.lookup(E.UncheckedArray(types.int64))
    assert isinstance(model.get_value_type(), ir.PointerType)

    @numba.njit
    def bump(G, H, k):  # not inlined: the views are passed as arguments
        G[k] += 1
        H[k] = H[k] + np.uint64(G[k])

    @numba.njit
    def forwarded(g, h):
        G = E._unchecked(g)
        H = E._unchecked(h)
        bump(G, H, 1)
        G[0] = 7
        H[0] = np.uint64(5)
        value = G[0]  # known to be 7: the store to H cannot have changed it
        E._keep_alive(g, h)
        return value

    g = np.array([0, 10], np.int64)
    h = np.array([0, 100], np.uint64)
    assert forwarded(g, h) == 7
    np.testing.assert_array_equal(g, [7, 11])
    np.testing.assert_array_equal(h, [5, 111])
    if not E.PLAIN_KERNEL:  # the plain twin's views are the arrays themselves
        llvm = forwarded.inspect_llvm(forwarded.signatures[0])
        body = next(part for part in llvm.split("\ndefine")[1:]  # the function, not its wrappers
                    if "9forwarded" in part.splitlines()[0]
                    and not any(w in part.splitlines()[0] for w in ("cpython", "cfunc")))
        body = body[:body.index("\n}")]
        assert "!alias.scope" in body and "!noalias" in body
        assert "store i64 7, ptr %retptr" in body  # G[0] forwarded, not loaded again


def test_the_inliners_scope_copy_keeps_the_ir_and_is_undone_after():
    """numba's inliner deep-copies a callee block by block, each block's copy copying the whole
    scope (_numba._copy_scope makes that linear): a block copied with it keeps every variable
    name, refers to one fresh scope, and a variable defined in the copy does not reach the
    original; the patch is in place only while numba inlines. Fails if a numba release changes
    the scope's maps or the inliner's entry point (the kernels would then compile slowly again,
    or not at all)."""
    import copy

    import numba
    from numba.core import ir
    from numba.core.compiler import run_frontend
    from numba.core.inline_closurecall import InlineWorker

    from vandatta_sim.engine import _numba as E

    assert InlineWorker.inline_ir is E._inline_ir_copying_scopes_once

    def many_variables(a, b):
        c = a + b
        if c > 3:
            d = c * 2
        else:
            d = c - 1
        return d + a

    func_ir = run_frontend(many_variables)
    block = max(func_ir.blocks.values(), key=lambda b: len(b.body))
    ir.Scope.__deepcopy__ = E._copy_scope
    try:
        twin = copy.deepcopy(block)
    finally:
        del ir.Scope.__deepcopy__
    assert twin.scope is not block.scope and twin.scope == block.scope
    assert twin.scope.localvars._con.keys() == block.scope.localvars._con.keys()
    assert [str(stmt) for stmt in twin.body] == [str(stmt) for stmt in block.body]
    assert all(v.scope is twin.scope for stmt in twin.body for v in stmt.list_vars())
    twin.scope.redefine("c", block.loc)
    assert "c.1" in twin.scope.localvars and "c.1" not in block.scope.localvars

    many_variables_jit = numba.njit(inline="always")(many_variables)

    @numba.njit(inline="always")
    def helper(x):
        return many_variables_jit(x, 2) + 1

    @numba.njit
    def caller(x):
        return helper(x) + helper(x + 1)

    assert caller(3) == many_variables(3, 2) + many_variables(4, 2) + 2
    assert "__deepcopy__" not in vars(ir.Scope)  # undone after inlining


# --- lowering: Rules -> the kernels' rule vector ------------------------------------------------
def test_kernel_rules_lowers_every_rules_field_once():
    """KERNEL_RULES has an entry for every Rules field and fills every slot of the rule vector
    once; the import-time check says which field or slot is wrong."""
    from dataclasses import fields

    from vandatta_sim import engine as E
    from vandatta_sim.simulate import KERNEL_RULES, check_kernel_rules

    names = [field.name for field in fields(Rules)]
    assert sorted(KERNEL_RULES) == sorted(names)
    check_kernel_rules(KERNEL_RULES, names, E.R_SIZE)
    with pytest.raises(ImportError, match="does not lower the Rules field.* new_rule"):
        check_kernel_rules(KERNEL_RULES, names + ["new_rule"], E.R_SIZE)
    without_stacking = {k: v for k, v in KERNEL_RULES.items() if k != "stacking"}
    with pytest.raises(ImportError, match="stacking"):
        check_kernel_rules(without_stacking, names, E.R_SIZE)
    with pytest.raises(ImportError, match=rf"slots \[{E.R_SIZE}\]"):
        check_kernel_rules(KERNEL_RULES, names, E.R_SIZE + 1)  # a slot nothing fills
    doubled = KERNEL_RULES | {"stacking": KERNEL_RULES["must_play"]}
    with pytest.raises(ImportError, match=rf"slots \[{E.R_STACKING}, {E.R_MUST_PLAY}\]"):
        check_kernel_rules(doubled, names, E.R_SIZE)


# a value other than the default for every field (players 4, so decks=2 means two decks)
_OTHER_VALUES = dict(
    players=3, decks=2, hand_size=6, jokers=1, joker_effect="draw_two", start_eight="dealer_names",
    start_ace="bury", must_play=False, stacking=True, eight_follow="same_player",
    eight_on_ace=True, eight_on_eight=True, ace_on_eight=True, ace_on_ace="counter", ace_draw=2,
    ace_extra_turn=False, draw_limit=0, specials_only_must_draw=False, out_on_special=True,
    last_card_start_suit=True, two_draws_two=True, call_at=3, call_penalty=0, reshuffles=2,
    scale="base", match="deals:5", eliminate_at="pass")


@pytest.mark.parametrize("field", sorted(_OTHER_VALUES))
def test_every_rule_field_reaches_the_kernel(field):
    from dataclasses import fields

    from vandatta_sim.simulate import Seats, kernel_constants

    assert sorted(_OTHER_VALUES) == sorted(f.name for f in fields(Rules))  # no field untested
    base = Rules()
    changed = base.replace(**{field: _OTHER_VALUES[field]})
    assert changed != base
    seats = Seats.build(base.players)
    assert not np.array_equal(kernel_constants(base, seats), kernel_constants(changed, seats))


def test_kernel_choice_codes_are_the_rules_allowed_values():
    """The kernel numbers a named choice by its index in its own tuple; those tuples must hold
    exactly the values the rules allow, and the kernel's named codes must point at them."""
    from vandatta_sim import engine as E
    from vandatta_sim.rules import CHOICES, MATCH_KINDS

    assert E.JOKER_EFFECTS == CHOICES["joker_effect"]
    assert E.START_EIGHT == CHOICES["start_eight"]
    assert E.START_ACE == CHOICES["start_ace"]
    assert E.ACE_ON_ACE == CHOICES["ace_on_ace"]
    assert E.MATCH_KINDS == MATCH_KINDS
    assert [E.JK_REVERSE, E.JK_DRAW_TWO, E.JK_SUPER_EIGHT] == [
        E.JOKER_EFFECTS.index(v) for v in ("reverse", "draw_two", "super_eight")]
    assert [E.SE_BURY, E.SE_DEALER, E.SE_FOREHAND] == [
        E.START_EIGHT.index(v) for v in ("bury", "dealer_names", "forehand_names")]
    assert [E.SA_ALL, E.SA_ALL_BUT_DEALER, E.SA_DEALER, E.SA_BURY] == [
        E.START_ACE.index(v) for v in ("all_draw", "all_but_dealer_draw", "dealer_draws", "bury")]
    assert [E.AA_FORBIDDEN, E.AA_ALLOWED, E.AA_COUNTER] == [
        E.ACE_ON_ACE.index(v) for v in ("forbidden", "allowed", "counter")]
    assert [E.M_SINGLE, E.M_DEALS, E.M_ELIMINATION, E.M_BEST_OF] == [
        E.MATCH_KINDS.index(v) for v in ("single", "deals", "elimination", "best_of")]
    # the choices the kernel reads as a yes/no (and decks, read as a count) still tell their
    # values apart
    from vandatta_sim.simulate import kernel_rules

    for field, values in CHOICES.items():
        lowered = {kernel_rules(Rules(**{field: v})).tobytes() for v in values if v != "auto"}
        assert len(lowered) == len(values) - ("auto" in values), field


def test_kernel_state_layout_holds_the_largest_game():
    """The state vectors are laid out from MAX_SEATS, TALON_SIZE and the number of card types;
    the rules allow no table or pack larger than that."""
    from vandatta_sim import cards
    from vandatta_sim import engine as E
    from vandatta_sim.rules import RulesError

    for too_big in (dict(players=E.MAX_SEATS + 1), dict(decks=E.MAX_DECKS + 1), dict(jokers=3)):
        with pytest.raises(RulesError):
            Rules(**too_big)
    biggest = Rules(players=E.MAX_SEATS, decks=E.MAX_DECKS, jokers=2, hand_size=1)
    assert biggest.deck_size == E.TALON_SIZE
    assert biggest.scale_points().shape == (cards.N_TYPES,) == (E.C_VALUE - E.C_SCALE,) == (E.C_POL - E.C_VALUE,)
    # the scripted deck's room in C ends where the step's slot begins
    assert E.G_DISCARD - E.G_TALON == E.TALON_SIZE == E.C_STEP - E.C_SCRIPT
    assert [E.POL_RANDOM, E.POL_GREEDY, E.POL_EXPERT, E.POL_EIGHT_DUMPER] == [
        E.POLICIES.index(v) for v in ("random", "greedy", "expert", "eight-dumper")]


# --- the plain path: the same games without the low-level extensions ----------------------------
_PLAIN_RUNS = [
    ("standard", dict(match="single"), "random", None),
    ("seed002", dict(players=3), "expert", None),
    # heuristic players only: the plain build then compiles only the batch kernel without the
    # search (the extensions it checks are the same in both kinds of kernel), which halves the
    # suite's longest compile
    ("kids", dict(match="single", players=5), ["greedy", "expert:eights=dump", "eight-dumper",
                                                "random", "expert:eights=3"], None),
    ("standard", dict(match="single", players=2), "expert", "8"),
]
_PLAIN_SCRIPT = """
import hashlib, json, sys
import pandas as pd
from vandatta_sim import engine
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import simulate
out = {"plain": engine.PLAIN_KERNEL, "hashes": []}
for preset, changes, policies, swap in json.loads(sys.argv[1]):
    df = simulate(get_preset(preset).replace(**changes), 300, seed=9, policies=policies,
                  swap=swap, threads=2)
    out["hashes"].append(hashlib.sha256(pd.util.hash_pandas_object(df).values.tobytes())
                         .hexdigest())
print(json.dumps(out))
"""


def test_the_plain_kernel_path_plays_the_same_games():
    """VANDATTA_PLAIN_KERNEL=1 swaps the unchecked arrays and llvm intrinsics for plain numba
    code (and builds it without inlining or threads, which compiles in a tenth of the time): a
    numba release that breaks an extension shows up here as different games."""
    import json
    import os
    import subprocess
    import sys

    runs = json.dumps(_PLAIN_RUNS)
    results = {}
    for flag in ("0", "1"):
        env = dict(os.environ, VANDATTA_PLAIN_KERNEL=flag)
        done = subprocess.run([sys.executable, "-c", _PLAIN_SCRIPT, runs], env=env,
                              capture_output=True, text=True, timeout=1200)
        assert done.returncode == 0, done.stderr[-2000:]
        results[flag] = json.loads(done.stdout.strip().splitlines()[-1])
    assert (results["0"]["plain"], results["1"]["plain"]) == (False, True)
    assert results["0"]["hashes"] == results["1"]["hashes"]
