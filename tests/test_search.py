"""The search player: its spec, reproducibility, and that it decides from its own information only."""

import numpy as np
import pytest

from vandatta_sim import engine as E
from vandatta_sim.cards import EIGHT, N_DECK_TYPES, SUIT_SYMBOLS, card_name, make_card
from vandatta_sim.referee import referee
from vandatta_sim.rules import get_preset
from vandatta_sim.simulate import (Seats, SimulationError, check_policy, frozen_rules,
                                   kernel_constants, policy_code, simulate, trace_game)
from vandatta_sim.trace import Event, estimate_option, narrate

SINGLE = get_preset("standard").replace(match="single")


def test_search_specs_are_canonical_and_checked():
    assert check_policy("search:budget=32:rollout=expert:objective=win") == "search"
    assert check_policy("search:objective=points:budget=8") == "search:budget=8:objective=points"
    assert check_policy("search:beliefs=public:alloc=race") == "search"
    assert check_policy("search:beliefs=oracle:alloc=flat") == "search:alloc=flat:beliefs=oracle"
    code = policy_code("search:budget=8:rollout=greedy")
    assert code & E.POL_KIND == E.POL_SEARCH
    assert (code >> E.SEARCH_BUDGET_SHIFT) & 0xFFFF == 8
    assert (code >> E.SEARCH_ROLLOUT_SHIFT) & E.ROLLOUT_KIND == E.POL_GREEDY
    for bad, message in [("search:budget=7", "allowed: 32, 1, 2"),
                         ("search:beliefs=peek", "allowed: public, lacks, oracle"),
                         ("search:rollout=search", "allowed: expert, greedy"),
                         ("search:objective=fun", "allowed: win, points, match")]:
        with pytest.raises(SimulationError, match=message):
            check_policy(bad)


def test_search_games_do_not_depend_on_threads_or_blocks():
    seats = ["search:budget=4", "expert", "greedy"]
    rules = SINGLE.replace(players=3)
    one = simulate(rules, 70, seed=4, policies=seats, threads=1)
    two = simulate(rules, 70, seed=4, policies=seats, threads=2)
    assert one.equals(two)
    tail = simulate(rules, 30, seed=4, policies=seats, first_game=40)
    assert tail.reset_index(drop=True).equals(one.iloc[40:].reset_index(drop=True))


def test_a_search_seat_plays_differently_from_its_rollout_policy():
    rules = SINGLE.replace(players=2)
    searched = simulate(rules, 60, seed=2, policies=["search:budget=16", "expert"])
    plain = simulate(rules, 60, seed=2, policies=["expert", "expert"])
    assert not searched.equals(plain)


def _state(seed: int, players: int = 4, hand: int = 7):
    """A deal just dealt, by hand: hands, a start card (not a special), the talon."""
    rng = np.random.default_rng(seed)
    pack = [int(c) for c in rng.permutation(N_DECK_TYPES)]
    G = np.zeros(E.G_SIZE, np.int64)
    H = np.zeros(E.H_SIZE, np.uint64)
    for q in range(players):
        for card in pack[q * hand:(q + 1) * hand]:
            H[q] |= np.uint64(1) << np.uint64(card)
        G[E.G_SEATS + q] = q
    rest = pack[players * hand:]
    start = next(c for c in rest if c // 4 not in (0, EIGHT))
    rest.remove(start)
    G[E.G_DISCARD] = start
    G[E.S_ND] = 1
    G[E.G_TALON:E.G_TALON + len(rest)] = rest
    G[E.S_NT] = len(rest)
    G[E.S_SUIT], G[E.S_RANK], G[E.S_EFF] = start % 4, start // 4, E.EFF_ORDINARY
    G[E.S_DIR] = 1
    G[E.S_FORCE_SUIT] = -1
    return G, H


def _move_card(H, G, source, target, card):
    """Move a card between two hidden places: ('hand', q) or ('talon', None)."""
    bit = np.uint64(1) << np.uint64(card)
    for (where, q), add in ((source, False), (target, True)):
        if where == "hand":
            H[q] = (H[q] | bit) if add else (H[q] & ~bit)
        else:
            talon = list(G[E.G_TALON:E.G_TALON + G[E.S_NT]])
            talon = talon + [card] if add else [c for c in talon if c != card]
            G[E.G_TALON:E.G_TALON + len(talon)] = talon
            G[E.S_NT] = len(talon)


def _decide(G, H, seed, policy="search:budget=16", frozen=None):
    C = kernel_constants(SINGLE, Seats.build(4, [policy, "expert", "expert", "expert"]))
    frozen = frozen_rules(C, lean=False) if frozen is None else frozen
    # the seed as the coach passes it (a uint64), so that this is the coach's compiled kernel
    return E.search_decision_nb(C, frozen, G.copy(), H.copy(), 0, 4, np.uint64(seed))


def _rich_state():
    """The first hand-made state in which seat 0 has at least three cards to choose from."""
    for seed in range(100):
        G, H = _state(seed)
        if len(_decide(G, H, seed=0, policy="search:budget=1")[0]) >= 3:
            return G, H
    raise AssertionError("no state with a choice")


def _cards_of(H, q):
    return [c for c in range(N_DECK_TYPES) if int(H[q]) >> c & 1]


def _with_public_facts(G, H, talon=True):
    """The state with public bookkeeping in force: seat 1 showed at 7 cards that it held no
    heart (and, at 3 of them, no spade either); with ``talon``, the talon was rebuilt once, from
    its own cards and two more that seat 2 has drawn since (the public record of that talon)."""
    G = G.copy()
    hearts = sum(1 << make_card(r, 2) for r in range(13))
    spades = sum(1 << make_card(r, 3) for r in range(13))
    G[E.G_WIDE + 1], G[E.G_WIDE_N + 1] = hearts, 7
    G[E.G_STRONG + 1], G[E.G_STRONG_N + 1] = hearts | spades, 3
    if not talon:
        return G
    G[E.S_RESHUFFLES] = 1
    for card in list(G[E.G_TALON:E.G_TALON + G[E.S_NT]]) + _cards_of(H, 2)[:2]:
        G[E.G_RESHUFFLED + card] += 1
    return G


def _swap_hidden(G, H):
    """The state with hidden cards moved: one between two opponents (both ways), and one between
    an opponent and the talon (both ways); the hand sizes and everything public unchanged."""
    other = (G.copy(), H.copy())
    # swap a card between two opponents, and one between an opponent and the talon
    a, b = _cards_of(H, 1)[0], _cards_of(H, 2)[0]
    _move_card(other[1], other[0], ("hand", 1), ("hand", 2), a)
    _move_card(other[1], other[0], ("hand", 2), ("hand", 1), b)
    c, t = _cards_of(other[1], 3)[0], int(other[0][E.G_TALON])
    _move_card(other[1], other[0], ("hand", 3), ("talon", None), c)
    _move_card(other[1], other[0], ("talon", None), ("hand", 3), t)
    assert [len(_cards_of(other[1], q)) for q in range(4)] == [7] * 4
    assert not np.array_equal(other[1], H)
    return other


def _same(one, other):
    return all(np.array_equal(a, b) for a, b in zip(one, other))


@pytest.mark.parametrize("policy", ["search:budget=16", "search:budget=16:beliefs=lacks",
                                    "search:budget=16:alloc=flat"])
def test_no_peeking_hidden_cards_do_not_change_the_decision(policy):
    G, H = _rich_state()
    for state in ((G, H), (_with_public_facts(G, H), H)):
        seen = _decide(*state, seed=5, policy=policy)
        assert _same(seen, _decide(*_swap_hidden(*state), seed=5, policy=policy))


def test_the_public_bookkeeping_is_read_and_the_oracle_peeks():
    G, H = _rich_state()
    plain = _decide(G, H, seed=5)
    # the public facts change the worlds, so the estimates (the same stream otherwise)
    assert not _same(plain, _decide(_with_public_facts(G, H), H, seed=5))
    assert not _same(plain, _decide(_with_public_facts(G, H, talon=False), H, seed=5))
    # ... but not for the old rule, which reads only the lacks flags (a reshuffle would count:
    # the expert's playouts read how often the talon was rebuilt)
    lacks = "search:budget=16:beliefs=lacks"
    assert _same(_decide(G, H, seed=5, policy=lacks),
                 _decide(_with_public_facts(G, H, talon=False), H, seed=5, policy=lacks))
    # the oracle (a cheat, for diagnostics) sees the hidden cards: moving them moves it
    oracle = "search:budget=16:beliefs=oracle"
    assert not _same(_decide(G, H, seed=5, policy=oracle),
                     _decide(*_swap_hidden(G, H), seed=5, policy=oracle))


def test_no_option_is_played_twice_and_racing_spends_at_most_the_budget():
    G, H = _rich_state()
    cards, suits, no_stack, base, totals, diffs, squares, played = _decide(G, H, seed=5)
    options = list(zip(cards, suits, no_stack))
    assert len(set(options)) == len(options) and E.NO_FORCE not in cards
    assert 0 <= base < len(cards) and played[base] == played.max()
    assert played.sum() <= 16 * len(cards)
    assert diffs[base] == 0 and squares[base] == 0
    flat = _decide(G, H, seed=5, policy="search:budget=16:alloc=flat")[-1]
    assert list(flat) == [16] * len(cards)


def test_the_decision_does_depend_on_what_the_seat_sees_and_its_stream():
    G, H = _rich_state()
    cards, _, _, _, totals, _, _, _ = _decide(G, H, seed=5)
    assert len(cards) >= 3 and totals.sum() > 0
    assert not np.array_equal(_decide(G, H, seed=6)[4], totals)
    mine = _cards_of(H, 0)[0]
    theirs = _cards_of(H, 1)[0]
    _move_card(H, G, ("hand", 0), ("hand", 1), mine)
    _move_card(H, G, ("hand", 1), ("hand", 0), theirs)
    changed = _decide(G, H, seed=5)
    assert not (np.array_equal(changed[0], cards) and np.array_equal(changed[4], totals))


@pytest.mark.parametrize("policy", ["search:budget=16", "search:budget=8:objective=points",
                                    "search:budget=8:rollout=random"])
def test_playouts_on_the_frozen_rules_decide_as_the_general_ones(policy):
    """Under standard's rules the search plays its options out on a turn loop compiled with
    them as constants (FrozenRules.playouts); every option's outcome in every world is that of
    the general turn loop, which other rules use."""
    G, H = _rich_state()
    frozen = _decide(G, H, seed=5, policy=policy)
    assert frozen_rules(kernel_constants(SINGLE, Seats.build(4, ["expert"] * 4)),
                        lean=False).playouts or E.PLAIN_KERNEL
    general = _decide(G, H, seed=5, policy=policy, frozen=E.FrozenRules())
    assert _same(frozen, general) and frozen[-1].sum() > 0


def test_search_games_are_legal_and_narrated():
    rules = get_preset("seed001").replace(players=3, match="single", jokers=2,
                                          joker_effect="super_eight")
    policies = ["search:budget=4", "search:budget=2:objective=points", "expert"]
    df = simulate(rules, 8, seed=3, policies=policies)
    for game in range(8):
        trace = trace_game(rules, 3, game, policies=policies)
        summary = referee(trace, rules)
        assert summary["winner"] == df.winner[game]
    estimates = trace[trace[:, 0] == Event.ESTIMATE]
    assert len(estimates) and set(estimates[:, 1]) <= {0, 1}
    text = narrate(trace)
    assert "weighs: " in text and " (rollout) " in text


def test_estimate_options_read_back():
    eight = make_card(EIGHT, 2)
    assert estimate_option((eight + 2) | (1 + 1) << 8) == f"{card_name(eight)}→{SUIT_SYMBOLS[1]}"
    assert estimate_option((eight + 2) | 1 << 12) == f"{card_name(eight)} (no stack)"
    assert estimate_option(1) == "draw"
    assert estimate_option(0) == "rollout"  # an option of its own in traces before version 6
    assert estimate_option(1 | E.ROLLOUT_MOVE_BIT) == "draw (rollout)"


def test_the_match_objective_plays_the_match_on():
    # in single deals the match is the deal: the same games as the win objective
    single = SINGLE.replace(players=3)
    seats = ["search:budget=4:objective=match", "expert", "expert"]
    assert simulate(single, 30, seed=6, policies=seats).equals(
        simulate(single, 30, seed=6, policies=["search:budget=4", "expert", "expert"]))
    # in a match its playouts score the match, so its choices (and the games) change
    match = SINGLE.replace(players=3, match="elimination:50")
    by_match = simulate(match, 12, seed=6, policies=seats, threads=2)
    by_deal = simulate(match, 12, seed=6, policies=["search:budget=4", "expert", "expert"])
    assert not by_match.equals(by_deal)
    assert by_match.equals(simulate(match, 12, seed=6, policies=seats, threads=1))
    for game in range(3):
        trace = trace_game(match, 6, game, policies=seats)
        assert referee(trace, match)["winner"] == by_match.winner[game]


def test_the_points_objective_weighs_the_valuation_not_the_scale():
    # with a random rollout nothing else in the game weighs the cards: only the search's scoring
    rules = SINGLE.replace(players=3)
    seats = ["search:budget=8:objective=points:rollout=random", "expert", "expert"]
    plain = simulate(rules, 40, seed=8, policies=seats)
    assert not plain.equals(simulate(rules, 40, seed=8, policies=seats, valuation="crazy_eights"))
    # the win objective does not weigh cards: the same games whatever the valuation
    wins = ["search:budget=8:rollout=random", "random", "random"]
    assert simulate(rules, 40, seed=8, policies=wins).equals(
        simulate(rules, 40, seed=8, policies=wins, valuation="crazy_eights"))


def test_the_public_bookkeeping_is_never_contradicted_by_the_true_hands():
    from vandatta_sim.play.beliefs import audit
    # without specials_only_must_draw the bookkeeping is exact: never wrong
    exact = audit(SINGLE.replace(players=4, specials_only_must_draw=False), 150, seed=3,
                  policies=["search:budget=2"] + ["expert"] * 3)
    assert exact["turns"] > 1000 and exact["opponents_tiered"] > 0
    assert exact["turns_public_wrong"] == 0 and exact["turns_talon_wrong"] == 0
    # while the old lacks flags (never cleared by a draw) are wrong at some turns
    assert exact["turns_lacks_wrong"] > 0
    assert exact["turns_talon_known"] > 0
