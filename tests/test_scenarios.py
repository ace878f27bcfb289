"""Scripted-deal scenarios that pin every rule parameter of the engine (docs/spec.md §2).

Each scenario scripts the first deal with ``trace_game(..., deck=...)`` (seat 0's hand, seat 1's,
…, the start card, then the talon from the top) and plays it with the deterministic ``greedy``
policy (aces first, then the ordinary card worth most points, an eight only when nothing else is
legal; it names the suit it holds most ordinary cards of) or ``eight-dumper``, so the whole trace
is fixed by the script, except a choice among equally valued cards, which the policies make at
random (``P_tied`` accepts any of them). The trace is turned into readable tuples such as
``("PLAY", 0, "♠8")`` and the moment that a parameter decides is compared with the value that
docs/spec.md and docs/engine-rules.md prescribe.

Match formats and the talon/reshuffle rules are checked on unscripted games with fixed seeds,
against invariants that follow from the rules (totals, eliminations, wins).
"""

from __future__ import annotations

import pytest
from conftest import PASS, C, D, Deal, N, P, P_tied, T, readable

from vandatta_sim.cards import card_name
from vandatta_sim.referee import referee
from vandatta_sim.rules import Rules
from vandatta_sim.simulate import SimulationError, simulate, trace_game
from vandatta_sim.trace import Event, as_rows

# Rank points per scale, written out here from docs/spec.md §2 (A, 2, …, 10, J, Q, K), so that the
# score checks do not read the engine's own tables.
SCALE_TABLES = {
    "base": {"A": 5, "8": 10, "other": 1},
    "hundred": {"A": 15, "8": 25, "10": 10, "J": 10, "Q": 10, "K": 10, "other": 5},
    "crazy_eights": {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 50, "9": 9,
                     "10": 10, "J": 10, "Q": 10, "K": 10},
}


# ------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------
def points_of(card: str, table: dict) -> int:
    if card == "JK":
        return points_of("♣8", table)
    rank = card[1:]
    return table.get(rank, table.get("other"))


def replay_scores(trace, table: dict) -> list[tuple[int, int, int]]:
    """(deal number, seat, points) of every SCORE row, recomputed from the cards each seat was
    dealt, drew and played in that deal, and checked against the row."""
    hands: dict[int, list[str]] = {}
    deal_no = -1
    checked = []
    for e in readable(trace):
        if e[0] == "NEW_DEAL":
            hands, deal_no = {}, e[3]
        elif e[0] in ("DEAL", "DRAW"):
            hands.setdefault(e[1], []).append(e[2])
        elif e[0] == "PLAY":
            hands[e[1]].remove(e[2])
        elif e[0] == "SWAP":
            hands[e[1]].remove(card_name(e[2]))
            hands[e[1]].append(card_name(e[3]))
        elif e[0] == "SCORE":
            expected = sum(points_of(c, table) for c in hands[e[1]])
            assert e[2] == expected, f"deal {deal_no} seat {e[1]}: {hands[e[1]]}"
            checked.append((deal_no, e[1], e[2]))
    return checked


def deals_of(events: list[tuple]) -> list[list[tuple]]:
    """The events split into deals (each starting with its NEW_DEAL)."""
    out: list[list[tuple]] = []
    for e in events:
        if e[0] == "NEW_DEAL":
            out.append([])
        if out:
            out[-1].append(e)
    return out


TALON = "♥9 ♥10 ♥J ♥Q ♥K ♠9 ♠10 ♠J ♠Q ♠K"  # a talon of cards nobody can play on clubs/diamonds


# ------------------------------------------------------------------------------------------------
# the helpers themselves
# ------------------------------------------------------------------------------------------------
def test_script_deals_hands_start_card_and_talon_in_order():
    d = Deal("♠Q ♠3 ♥4 | ♦5 ♦6 ♣9 | ♠5 | ♥K ♥2", hand_size=3)
    assert d.hand(0) == ["♠Q", "♠3", "♥4"]
    assert d.hand(1) == ["♦5", "♦6", "♣9"]
    d.opening_is([("START", "♠5")])
    assert d.events[0] == ("NEW_DEAL", 1, 0, 0)  # seat 1 deals, seat 0 is förhand
    # seat 0 plays its best spade; seat 1 has neither a spade nor a queen: draws the talon top
    d.starts_with([T(0), P(0, "♠Q"), T(1), *D(1, "♥K ♥2")])


def test_script_with_too_many_copies_is_refused():
    with pytest.raises(SimulationError, match="appears 2 times"):
        trace_game(Rules(players=2, match="single"), 0, 0, deck=["♠Q", "♠Q"])


# ------------------------------------------------------------------------------------------------
# table set-up: players, decks, hand_size, jokers
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 5, 6, 10])
def test_players_every_seat_is_dealt_and_the_last_seat_deals(players):
    trace = trace_game(Rules(players=players, hand_size=4, match="single"), 3, 0,
                       policies="greedy")
    events = readable(trace)
    assert events[0] == ("NEW_DEAL", players - 1, 0, 0)
    dealt = [e[1] for e in events if e[0] == "DEAL"]
    assert sorted(set(dealt)) == list(range(players))
    assert all(dealt.count(s) == 4 for s in range(players))
    assert [e for e in events if e[0] == "TURN"][0] == ("TURN", 0)
    assert sum(e[0] == "SCORE" for e in events) == players


@pytest.mark.parametrize("hand_size", [1, 2, 5, 7, 10, 15])
def test_hand_size_deals_that_many_cards_from_the_top(hand_size):
    script = ("♣2 ♣3 ♣4 ♣6 ♣7 ♣9 ♣10 ♣J ♣Q ♣K ♦2 ♦3 ♦4 ♦5 ♦6 "
              "♥2 ♥3 ♥4 ♥5 ♥6 ♥7 ♥9 ♥10 ♥J ♥Q ♥K ♠2 ♠3 ♠4 ♠5").split()
    d = Deal(" ".join(script[: 2 * hand_size] + ["♠K"]), hand_size=hand_size)
    assert d.hand(0) == script[:hand_size]
    assert d.hand(1) == script[hand_size: 2 * hand_size]
    assert d.opening[0] == ("START", "♠K")


def test_one_deck_has_one_copy_of_each_card():
    trace = trace_game(Rules(players=5, hand_size=10, match="single"), 5, 0, policies="greedy")
    events = readable(trace)
    dealt = [e[2] for e in events if e[0] == "DEAL"]
    start = [e[1] for e in events if e[0] == "START"][-1]
    assert len(set(dealt + [start])) == len(dealt) + 1 == 51


@pytest.mark.parametrize("decks", [2, "auto"])
def test_two_decks_allow_two_copies_in_one_hand(decks):
    players = 2 if decks == 2 else 6  # auto: two decks from six players
    others = ["♠2 ♠3", "♠4 ♠5", "♠6 ♠7", "♠9 ♠10"][: players - 2]
    hands = " | ".join(["♣9 ♣10", "♠Q ♠Q", *others])
    d = Deal(f"{hands} | ♣5 | ♦K ♦Q ♦3", hand_size=2, decks=decks, players=players)
    assert d.hand(1) == ["♠Q", "♠Q"]
    # seat 0 plays ♣10, seat 1 cannot follow and draws three
    d.starts_with([T(0), P(0, "♣10"), C(0), T(1), *D(1, "♦K ♦Q ♦3"), PASS(1)])
    replay_scores(d.trace, SCALE_TABLES["hundred"])  # every copy held counts
    if players == 2:  # seat 0 goes out with ♣9; both queens count
        assert d.end() == [("END_DEAL", 0, "won"), ("SCORE", 0, 0, 0),
                           ("SCORE", 1, 10 + 10 + 10 + 10 + 5, 45)]


def test_two_decks_hold_104_cards():
    rules = Rules(players=2, decks=2, hand_size=15, match="single")
    assert rules.deck_size == 104
    trace = trace_game(rules, 1, 0, policies="greedy")
    dealt = [e[2] for e in readable(trace) if e[0] == "DEAL"]
    assert max(dealt.count(c) for c in set(dealt)) <= 2
    with pytest.raises(SimulationError, match="appears 3 times"):
        trace_game(rules, 0, 0, deck=["♠Q", "♠Q", "♠Q"])


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_jokers_per_deck_are_in_the_pack(jokers):
    rules = Rules(players=2, hand_size=15, jokers=jokers, match="single")
    assert rules.deck_size == 52 + jokers
    got = set()
    for seed in range(6):
        trace = trace_game(rules, seed, 0, policies="greedy")
        got |= {e[2] for e in readable(trace) if e[0] in ("DEAL", "DRAW")} & {"JK"}
        dealt = [a for k, _, a, _ in as_rows(trace) if k == Event.DEAL]
        assert sum(a >= 52 for a in dealt) <= jokers
        assert all(a < 52 + jokers for a in dealt)
    assert bool(got) == (jokers > 0)
    if jokers == 2:  # both joker types can be scripted
        d = Deal("JK JK2 ♥3 | ♦3 ♦4 ♦6 | ♣5", hand_size=3, jokers=2)
        assert d.hand(0) == ["JK", "JK", "♥3"]
        assert [a for k, s, a, _ in as_rows(d.trace) if k == Event.DEAL and s == 0] == \
            [52, 53, 10]  # ♥3 = rank 2 * 4 + suit 2
    else:
        with pytest.raises(SimulationError):
            trace_game(rules, 0, 0, deck=[53])


# ------------------------------------------------------------------------------------------------
# jokers: joker_effect and the joker's own legality
# ------------------------------------------------------------------------------------------------
JOKER3 = "JK ♥3 ♥4 ♥6 | ♦3 ♦4 ♦6 ♦7 | ♣9 ♠3 ♠4 ♠6 | ♣5 | " + TALON


def test_joker_reverse_turns_the_direction_of_play():
    d = Deal(JOKER3, players=3, hand_size=4, jokers=1, joker_effect="reverse")
    # seat 0's joker goes on the ordinary ♣5 (worth an eight's 25 points, so greedy plays it);
    # play turns to seat 2, which plays on the ♣5 under the joker; then seat 1
    d.starts_with([T(0), P(0, "JK"), T(2), P(2, "♣9"), T(1)])


def test_joker_reverse_changes_nothing_with_two_players():
    d = Deal("JK ♥3 ♥4 ♥6 | ♣9 ♠3 ♠4 ♠6 | ♣5 | " + TALON, hand_size=4, jokers=1)
    d.starts_with([T(0), P(0, "JK"), T(1), P(1, "♣9"), T(0)])


def test_joker_draw_two_makes_the_next_player_draw_two_and_lose_the_turn():
    d = Deal(JOKER3, players=3, hand_size=4, jokers=1, joker_effect="draw_two")
    d.starts_with([T(0), P(0, "JK"), T(1), *D(1, "♥9 ♥10", "two"), PASS(1),
                   T(2), P(2, "♣9")])  # the ♣5 under the joker is in force


def test_joker_draw_two_adds_to_a_two_duty_and_may_be_answered_with_a_two():
    d = Deal("JK ♥3 ♥4 ♥6 | ♦2 ♦4 ♦6 ♦7 | ♣9 ♠3 ♠4 ♠6 | ♣5 | " + TALON, players=3,
             hand_size=4, jokers=1, joker_effect="draw_two", two_draws_two=True)
    d.starts_with([T(0), P(0, "JK"), T(1), P(1, "♦2"),
                   T(2), *D(2, "♥9 ♥10 ♥J ♥Q", "two"), PASS(2), T(0)])


@pytest.mark.parametrize("eight_follow", ["next_player", "same_player"])
def test_joker_super_eight_names_a_suit_without_a_follow_up(eight_follow):
    d = Deal(JOKER3, players=3, hand_size=4, jokers=1, joker_effect="super_eight",
             eight_follow=eight_follow)
    # seat 0 names hearts (its longest suit) and its turn ends; seat 1 must follow hearts
    d.starts_with([T(0), P(0, "JK"), N(0, "♥"), T(1), *D(1, "♥9"), P(1, "♥9"), T(2)])


@pytest.mark.parametrize("effect", ["reverse", "draw_two", "super_eight"])
def test_joker_is_never_played_on_an_eight(effect):
    d = Deal("♠8 ♥3 ♥4 ♥6 | JK ♦3 ♦4 ♦6 | ♣5 | ♠2 ♠3 ♠4", hand_size=4, jokers=1,
             joker_effect=effect)
    d.starts_with([T(0), P(0, "♠8"), N(0, "♥"), T(1), *D(1, "♠2 ♠3 ♠4"), PASS(1)])


@pytest.mark.parametrize("effect", ["reverse", "draw_two", "super_eight"])
def test_joker_is_never_played_on_an_ace(effect):
    d = Deal("♣A ♥3 ♥4 ♥6 | JK ♦3 ♦4 ♦6 | ♣5 | ♥9 ♠2 ♠3 ♠4", hand_size=4, jokers=1,
             joker_effect=effect, ace_extra_turn=False)
    d.starts_with([T(0), P(0, "♣A"), *D(1, "♥9", "ace"), T(1), *D(1, "♠2 ♠3 ♠4"), PASS(1)])


def test_joker_is_never_played_on_a_joker():
    d = Deal("JK ♥3 ♥4 ♥6 | JK2 ♦3 ♦4 ♦6 | ♣5 | ♠2 ♠3 ♠4", hand_size=4, jokers=2)
    # seat 1's joker may not go on seat 0's; the ♣5 under it asks for clubs or a five
    d.starts_with([T(0), P(0, "JK"), T(1), *D(1, "♠2 ♠3 ♠4"), PASS(1)])


@pytest.mark.parametrize("out_on_special", [False, True])
def test_joker_is_the_last_card_only_with_out_on_special(out_on_special):
    d = Deal("JK | ♦3 | ♣5 | ♠2 ♠3 ♠4", hand_size=1, jokers=1, out_on_special=out_on_special,
             specials_only_must_draw=False)
    if out_on_special:
        d.starts_with([T(0), P(0, "JK"), ("END_DEAL", 0, "won")])
    else:
        d.starts_with([T(0), *D(0, "♠2 ♠3 ♠4"), PASS(0)])


def test_joker_scores_like_an_eight():
    d = Deal("♣9 ♣10 | JK ♦A | ♣5 | ♦K ♦Q ♦3", hand_size=2, jokers=1, scale="base")
    # seat 1 holds only specials, so it must draw (and the drawn card does not fit)
    d.starts_with([T(0), P(0, "♣9"), C(0), T(1), *D(1, "♦K ♦Q ♦3"), PASS(1), T(0),
                   P(0, "♣10"), ("END_DEAL", 0, "won")])
    assert d.end()[2] == ("SCORE", 1, 10 + 5 + 1 + 1 + 1, 18)


def test_a_joker_turned_up_is_always_buried():
    d = Deal("♥3 ♥4 | ♦3 ♦4 | JK ♣5", hand_size=2, jokers=1)
    d.opening_is([("START", "JK"), ("BURY", "JK"), ("START", "♣5")])


# ------------------------------------------------------------------------------------------------
# the start card: start_eight, start_ace
# ------------------------------------------------------------------------------------------------
# seat 0 is longest in hearts, seat 1 in spades, seat 2 (the dealer with three players) in diamonds
START3 = "♥3 ♥4 ♥6 ♣9 | ♠3 ♠4 ♠6 ♦9 | ♦3 ♦4 ♦6 ♣10 | {start} | ♥K ♠K ♦K ♣K ♥Q ♠Q ♦Q ♣Q ♥J ♠J ♦J"


def test_start_eight_bury_turns_another_card():
    d = Deal(START3.format(start="♠8"), players=3, hand_size=4, start_eight="bury")
    d.opening_is([("START", "♠8"), ("BURY", "♠8"), ("START", "♥K")])
    d.starts_with([T(0), P_tied(0, "♥3 ♥4 ♥6")])


def test_start_eight_dealer_names_the_suit():
    d = Deal(START3.format(start="♠8"), players=3, hand_size=4, start_eight="dealer_names")
    d.opening_is([("START", "♠8"), N(2, "♦")])  # the dealer is the last seat
    # förhand has no diamond: draws until the ♦K it may play
    d.starts_with([T(0), *D(0, "♥K ♠K ♦K"), P(0, "♦K")])


def test_start_eight_forehand_names_the_suit():
    d = Deal(START3.format(start="♠8"), players=3, hand_size=4, start_eight="forehand_names")
    d.opening_is([("START", "♠8"), N(0, "♥")])
    d.starts_with([T(0), P_tied(0, "♥3 ♥4 ♥6"), T(1)])


@pytest.mark.parametrize("start_eight", ["dealer_names", "forehand_names"])
def test_a_named_start_eight_asks_for_the_named_suit_only(start_eight):
    # förhand holds an eight, which may not go on the start eight (eight_on_eight is off)
    d = Deal("♥8 ♠3 ♠4 ♠6 | ♦3 ♦4 ♦6 ♦9 | ♠8 | ♥K ♠K ♦K", hand_size=4, start_eight=start_eight)
    if start_eight == "dealer_names":
        d.opening_is([("START", "♠8"), N(1, "♦")])
        d.starts_with([T(0), *D(0, "♥K ♠K ♦K"), P(0, "♦K")])  # no eight on the eight
    else:
        d.opening_is([("START", "♠8"), N(0, "♠")])
        d.starts_with([T(0), P_tied(0, "♠3 ♠4 ♠6")])


START_ACE3 = "♥3 ♥4 ♥6 | ♠3 ♠4 ♠6 | ♦3 ♦4 ♦6 | ♣A | ♥9 ♥10 ♥J ♥Q ♥K ♠9 ♠10 ♠J ♠Q ♠K"


@pytest.mark.parametrize("ace_draw", [1, 2])
@pytest.mark.parametrize("start_ace, drawers", [("all_draw", [0, 1, 2]),
                                                ("all_but_dealer_draw", [0, 1]),
                                                ("dealer_draws", [2])])
def test_start_ace_draws(start_ace, drawers, ace_draw):
    d = Deal(START_ACE3, players=3, hand_size=3, start_ace=start_ace, ace_draw=ace_draw)
    talon = iter("♥9 ♥10 ♥J ♥Q ♥K ♠9 ♠10".split())
    expected = [("START", "♣A")]
    for seat in drawers:  # förhand first, clockwise
        expected += [("DRAW", seat, next(talon), "start_ace") for _ in range(ace_draw)]
    d.opening_is(expected)
    # förhand then plays on the ace by the usual rules: no club, so it draws
    d.starts_with([T(0), ("DRAW", 0, next(talon), "draw")])


def test_start_ace_bury_turns_another_card():
    d = Deal(START_ACE3, players=3, hand_size=3, start_ace="bury")
    d.opening_is([("START", "♣A"), ("BURY", "♣A"), ("START", "♥9")])
    d.starts_with([T(0), P_tied(0, "♥3 ♥4 ♥6")])


def test_start_ace_never_opens_a_counter_duty():
    d = Deal("♥3 ♥4 ♥6 | ♠A ♠4 ♠6 | ♣A | ♥9 ♥10 ♥J ♥Q ♥K", hand_size=3, ace_on_ace="counter")
    d.opening_is([("START", "♣A"), *D(0, "♥9", "start_ace"), *D(1, "♥10", "start_ace")])
    # förhand faces no duty: it plays on the ace (no club, so it draws and passes)
    d.starts_with([T(0), *D(0, "♥J ♥Q ♥K"), PASS(0), T(1)])


# ------------------------------------------------------------------------------------------------
# play: special on special
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("eight_on_ace", [False, True])
def test_eight_on_ace(eight_on_ace):
    d = Deal("♣A ♥3 ♥4 ♥6 | ♦8 ♦3 ♦4 ♦6 | ♣5 | ♥9 ♥10 ♥J ♥Q ♠2", hand_size=4,
             ace_extra_turn=False, eight_on_ace=eight_on_ace)
    opening = [T(0), P(0, "♣A"), *D(1, "♥9", "ace"), T(1)]
    if eight_on_ace:
        d.starts_with([*opening, P(1, "♦8"), N(1, "♦"), T(0)])
    else:  # seat 1 has no club: it draws three and passes, holding its eight
        d.starts_with([*opening, *D(1, "♥10 ♥J ♥Q"), PASS(1), T(0)])


@pytest.mark.parametrize("eight_on_eight", [False, True])
def test_eight_on_eight(eight_on_eight):
    d = Deal("♠8 ♥3 ♥4 ♥6 | ♦8 ♦3 ♦4 ♦6 | ♣5 | ♠2 ♠3 ♠4", hand_size=4,
             eight_on_eight=eight_on_eight)
    opening = [T(0), P(0, "♠8"), N(0, "♥"), T(1)]
    if eight_on_eight:
        d.starts_with([*opening, P(1, "♦8"), N(1, "♦"), T(0)])
    else:
        d.starts_with([*opening, *D(1, "♠2 ♠3 ♠4"), PASS(1), T(0)])


@pytest.mark.parametrize("ace_on_eight", [False, True])
def test_ace_on_eight(ace_on_eight):
    d = Deal("♠8 ♥3 ♥4 ♥6 | ♥A ♦3 ♦4 ♦6 | ♣5 | ♠2 ♠3 ♠4 ♠5", hand_size=4,
             ace_on_eight=ace_on_eight)
    opening = [T(0), P(0, "♠8"), N(0, "♥"), T(1)]
    if ace_on_eight:  # an ace of the named suit
        d.starts_with([*opening, P(1, "♥A"), *D(0, "♠2", "ace")])
    else:
        d.starts_with([*opening, *D(1, "♠2 ♠3 ♠4"), PASS(1), T(0)])


def test_ace_on_eight_needs_the_named_suit():
    d = Deal("♠8 ♥3 ♥4 ♥6 | ♦A ♦3 ♦4 ♦6 | ♣5 | ♠2 ♠3 ♠4 ♠5", hand_size=4, ace_on_eight=True)
    d.starts_with([T(0), P(0, "♠8"), N(0, "♥"), T(1), *D(1, "♠2 ♠3 ♠4"), PASS(1)])


ACES3 = "♣A ♥3 ♥4 ♥6 | ♦A ♦3 ♦4 ♦6 | ♠3 ♠4 ♠6 ♠7 | ♣5 | ♥9 ♥10 ♥J ♥Q ♠2 ♠9 ♠10"


def test_ace_on_ace_forbidden():
    d = Deal(ACES3, players=3, hand_size=4, ace_on_ace="forbidden", ace_extra_turn=False)
    d.starts_with([T(0), P(0, "♣A"), *D(1, "♥9", "ace"), *D(2, "♥10", "ace"),
                   T(1), *D(1, "♥J ♥Q ♠2"), PASS(1), T(2)])


def test_ace_on_ace_allowed():
    d = Deal(ACES3, players=3, hand_size=4, ace_on_ace="allowed", ace_extra_turn=False)
    d.starts_with([T(0), P(0, "♣A"), *D(1, "♥9", "ace"), *D(2, "♥10", "ace"),
                   T(1), P(1, "♦A"), *D(2, "♥J", "ace"), *D(0, "♥Q", "ace"), T(2)])


@pytest.mark.parametrize("ace_extra_turn", [False, True])
def test_ace_on_ace_counter_passes_a_growing_duty_on(ace_extra_turn):
    d = Deal(ACES3, players=3, hand_size=4, ace_on_ace="counter", ace_extra_turn=ace_extra_turn)
    # nobody draws for an ace at once and the ace's player does not continue; seat 1 answers
    # with its ace, and seat 2, with no ace, draws the whole duty of 2, passes and loses its turn
    d.starts_with([T(0), P(0, "♣A"), T(1), P(1, "♦A"), T(2), *D(2, "♥9 ♥10", "counter"),
                   PASS(2), T(0), *D(0, "♥J ♥Q ♠2"), PASS(0)])  # then seat 0 plays on ♦A


@pytest.mark.parametrize("ace_draw", [1, 2, 3])
def test_ace_on_ace_counter_duty_grows_by_ace_draw(ace_draw):
    d = Deal("♣A ♥3 ♥4 ♥6 | ♦A ♦3 ♦4 ♦6 | ♣5 | " + TALON, hand_size=4, ace_on_ace="counter",
             ace_draw=ace_draw)
    # two players: seat 0 must answer seat 1's ace, and has none left
    drawn = " ".join(TALON.split()[: 2 * ace_draw])
    d.starts_with([T(0), P(0, "♣A"), T(1), P(1, "♦A"), T(0), *D(0, drawn, "counter"), PASS(0),
                   T(1)])


def test_ace_on_ace_counter_a_legal_ace_must_answer():
    # seat 1 also holds a club it could play on the ♣A, but a duty is answered with an ace or drawn
    d = Deal("♣A ♥3 ♥4 ♥6 | ♦A ♣K ♦4 ♦6 | ♠3 ♠4 ♠6 ♠7 | ♣5 | " + TALON, players=3, hand_size=4,
             ace_on_ace="counter")
    d.starts_with([T(0), P(0, "♣A"), T(1), P(1, "♦A"), T(2)])


# ------------------------------------------------------------------------------------------------
# aces: ace_draw, ace_extra_turn
# ------------------------------------------------------------------------------------------------
ACE_DRAW3 = "♣A ♥3 ♥4 ♥6 | ♦3 ♦4 ♦6 ♦7 | ♠3 ♠4 ♠6 ♠7 | ♣5 | " + TALON


@pytest.mark.parametrize("ace_draw", [0, 1, 2, 3])
def test_ace_draw_each_other_player_draws(ace_draw):
    d = Deal(ACE_DRAW3, players=3, hand_size=4, ace_draw=ace_draw, ace_extra_turn=False)
    talon = TALON.split()
    first, second = talon[:ace_draw], talon[ace_draw: 2 * ace_draw]
    d.starts_with([T(0), P(0, "♣A"), *D(1, " ".join(first), "ace"),
                   *D(2, " ".join(second), "ace"), T(1)])


def test_ace_draws_go_in_the_direction_of_play():
    # seat 0's reverse joker turns play; seat 2's ace then makes seat 1 draw before seat 0
    d = Deal("JK ♥3 ♥4 ♥6 | ♦3 ♦4 ♦6 ♦7 | ♣A ♠3 ♠4 ♠6 | ♣5 | " + TALON, players=3, hand_size=4,
             jokers=1, joker_effect="reverse", ace_extra_turn=False, ace_draw=2)
    d.starts_with([T(0), P(0, "JK"), T(2), P(2, "♣A"), *D(1, "♥9 ♥10", "ace"),
                   *D(0, "♥J ♥Q", "ace"), T(1)])


@pytest.mark.parametrize("ace_extra_turn", [False, True])
def test_ace_extra_turn(ace_extra_turn):
    d = Deal("♣A ♣3 ♥4 ♥6 | ♦3 ♦4 ♦6 ♦7 | ♣5 | " + TALON, hand_size=4,
             ace_extra_turn=ace_extra_turn)
    opening = [T(0), P(0, "♣A"), *D(1, "♥9", "ace")]
    if ace_extra_turn:  # the same player moves again on the ace's suit
        d.starts_with([*opening, P(0, "♣3"), T(1)])
    else:
        d.starts_with([*opening, T(1), *D(1, "♥10 ♥J ♥Q"), PASS(1)])


def test_ace_extra_turn_without_a_card_draws_with_a_fresh_limit_then_passes():
    d = Deal("♣A ♥3 ♥4 ♥6 | ♦3 ♦4 ♦6 ♦7 | ♣5 | " + TALON, hand_size=4, draw_limit=2)
    d.starts_with([T(0), P(0, "♣A"), *D(1, "♥9", "ace"), *D(0, "♥10 ♥J"), PASS(0), T(1)])


def test_ace_extra_turn_may_play_another_ace_where_ace_on_ace_is_allowed():
    d = Deal("♣A ♥A ♥3 ♥4 | ♦3 ♦4 ♦6 ♦7 | ♣5 | " + TALON, hand_size=4, ace_on_ace="allowed")
    d.starts_with([T(0), P(0, "♣A"), *D(1, "♥9", "ace"), P(0, "♥A"), *D(1, "♥10", "ace"),
                   P(0, "♥3"), C(0), T(1)])


def test_ace_extra_turn_may_not_play_another_ace_where_ace_on_ace_is_forbidden():
    d = Deal("♣A ♥A ♥3 ♥4 | ♦3 ♦4 ♦6 ♦7 | ♣5 | " + TALON, hand_size=4)
    d.starts_with([T(0), P(0, "♣A"), *D(1, "♥9", "ace"), *D(0, "♥10 ♥J ♥Q"), PASS(0), T(1)])


# ------------------------------------------------------------------------------------------------
# specials_only_must_draw
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("must_draw", [False, True])
def test_specials_only_must_draw(must_draw):
    d = Deal("♣A ♠8 ♥8 | ♦3 ♦4 ♦6 | ♣5 | ♥2 ♥3 ♥4 ♥5", hand_size=3,
             specials_only_must_draw=must_draw)
    if must_draw:  # a hand of only eights and aces has no legal play
        d.starts_with([T(0), *D(0, "♥2 ♥3 ♥4"), PASS(0), T(1)])
    else:  # it may play its ace (greedy prefers it to an eight)
        d.starts_with([T(0), P(0, "♣A"), *D(1, "♥2", "ace")])


@pytest.mark.parametrize("must_draw", [False, True])
def test_specials_only_must_draw_eights_only(must_draw):
    d = Deal("♠8 ♥8 ♦A | ♦3 ♦4 ♦6 | ♣5 | ♥2 ♥3 ♥4 ♥5", hand_size=3,
             specials_only_must_draw=must_draw)
    if must_draw:
        d.starts_with([T(0), *D(0, "♥2 ♥3 ♥4"), PASS(0), T(1)])
    else:  # the ♦A does not fit the ♣5: an eight (the lowest type, ♥8) is the only play
        d.starts_with([T(0), P(0, "♥8"), ("NAME_SUIT", 0, d.play[2][2]), T(1)])


# ------------------------------------------------------------------------------------------------
# stacking
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("stacking", [False, True])
def test_stacking_plays_several_cards_of_one_rank_and_the_last_sets_the_suit(stacking):
    d = Deal("♣K ♦K ♥K ♥3 ♥4 | ♥5 ♣9 ♠3 ♠4 ♠6 | ♣5 | ♦2 ♦3 ♦4", hand_size=5,
             stacking=stacking)
    if stacking:  # ♣K fits; ♦K and ♥K go with it, and hearts are in force
        d.starts_with([T(0), P(0, "♣K"), P(0, "♦K"), P(0, "♥K"), T(1), P(1, "♥5"), T(0)])
    else:
        d.starts_with([T(0), P(0, "♣K"), T(1), P(1, "♣9"), T(0)])


def test_stacking_aces_each_ace_makes_the_others_draw():
    d = Deal("♣A ♥A ♥3 ♥4 ♥6 | ♦3 ♦4 ♦6 ♦7 ♦9 | ♣5 | ♠2 ♠3 ♠4", hand_size=5, stacking=True)
    d.starts_with([T(0), P(0, "♣A"), *D(1, "♠2", "ace"), P(0, "♥A"), *D(1, "♠3", "ace"),
                   P_tied(0, "♥3 ♥4 ♥6"), T(1)])  # the extra turn is on the last ace's suit


def test_stacking_eights_names_one_suit_after_the_stack():
    d = Deal("♠8 ♥8 ♥3 ♥4 ♥6 | ♦3 ♦4 ♦6 ♦7 ♦9 | ♣5 | ♠2 ♠3 ♠4", hand_size=5, stacking=True)
    d.starts_with([T(0), P(0, "♥8"), P(0, "♠8"), N(0, "♥"), T(1)])


def test_stacking_twos_each_two_adds_to_the_duty():
    d = Deal("♣2 ♥2 ♥3 ♥4 ♥6 | ♦3 ♦4 ♦6 ♦7 ♦9 | ♣5 | " + TALON, hand_size=5, stacking=True,
             two_draws_two=True)
    d.starts_with([T(0), P(0, "♣2"), P(0, "♥2"), T(1), *D(1, "♥9 ♥10 ♥J ♥Q", "two"), PASS(1)])


@pytest.mark.parametrize("out_on_special", [False, True])
def test_stacking_may_end_the_hand_on_a_special_only_with_out_on_special(out_on_special):
    d = Deal("♣A ♥A | ♦3 ♦6 | ♣5 | " + TALON, hand_size=2, stacking=True,
             out_on_special=out_on_special, specials_only_must_draw=False)
    opening = [T(0), P(0, "♣A"), C(0), *D(1, "♥9", "ace")]
    if out_on_special:
        d.starts_with([*opening, P(0, "♥A"), ("END_DEAL", 0, "won")])
    else:  # ♥A stays: no ace on the ace, and it may not be the last card anyway
        d.starts_with([*opening, *D(0, "♥10 ♥J ♥Q"), PASS(0), T(1)])


def test_stacking_may_empty_the_hand_with_ordinary_cards():
    d = Deal("♣4 ♥4 ♣A | ♦3 ♦6 ♦7 | ♣5 | " + TALON, hand_size=3, stacking=True)
    d.starts_with([T(0), P(0, "♣A"), *D(1, "♥9", "ace"), P(0, "♣4"), C(0), P(0, "♥4"),
                   ("END_DEAL", 0, "won")])


# ------------------------------------------------------------------------------------------------
# eight_follow
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("eight_follow", ["next_player", "same_player"])
def test_eight_follow(eight_follow):
    d = Deal("♠8 ♥3 ♥4 ♦6 | ♠3 ♠4 ♠6 ♠7 | ♣5 | ♦2 ♦3 ♦4", hand_size=4,
             eight_follow=eight_follow)
    if eight_follow == "same_player":  # the eight's player follows the named suit at once
        d.starts_with([T(0), P(0, "♠8"), N(0, "♥"), P(0, "♥3"), T(1)])
    else:
        d.starts_with([T(0), P(0, "♠8"), N(0, "♥"), T(1), *D(1, "♦2 ♦3 ♦4"), PASS(1)])


def test_eight_follow_same_player_refuses_an_eight_without_a_follow_up():
    # no ordinary card to follow with: the eight may not be played, so seat 0 draws
    d = Deal("♠8 ♦A ♥A | ♠3 ♠4 ♠6 | ♣5 | ♦2 ♦3 ♦4", hand_size=3, eight_follow="same_player",
             specials_only_must_draw=False)
    d.starts_with([T(0), *D(0, "♦2 ♦3 ♦4"), PASS(0), T(1)])
    d = Deal("♠8 ♦A ♥A | ♠3 ♠4 ♠6 | ♣5 | ♦2 ♦3 ♦4", hand_size=3, eight_follow="next_player",
             specials_only_must_draw=False)
    d.starts_with([T(0), P(0, "♠8"), ("NAME_SUIT", 0, d.play[2][2]), T(1)])


def test_eight_follow_same_player_with_an_ace_on_eight_follow_up():
    d = Deal("♠8 ♦A ♥A | ♠3 ♠4 ♠6 | ♣5 | ♦2 ♣3 ♣4 ♣6", hand_size=3,
             eight_follow="same_player", specials_only_must_draw=False, ace_on_eight=True)
    # the named suit must have a follow-up: diamonds (the lower of ♦, ♥); the ♦A follows and
    # its effects apply (seat 1 draws, seat 0 moves again on the ace: with ♥A only, it draws)
    d.starts_with([T(0), P(0, "♠8"), N(0, "♦"), P(0, "♦A"), C(0), *D(1, "♦2", "ace"),
                   *D(0, "♣3 ♣4 ♣6"), PASS(0), T(1)])


def test_eight_follow_same_player_the_follow_up_must_be_a_legal_last_card():
    # ♠8 + ♥A: the ace would be the last card, which is not allowed without out_on_special
    d = Deal("♠8 ♥A | ♠3 ♠4 | ♣5 | ♦2 ♦3 ♦4", hand_size=2, eight_follow="same_player",
             specials_only_must_draw=False, ace_on_eight=True)
    d.starts_with([T(0), *D(0, "♦2 ♦3 ♦4"), PASS(0), T(1)])


def test_eight_follow_same_player_eight_dumper():
    d = Deal("♣9 ♠8 ♥3 ♥4 | ♠3 ♠4 ♠6 ♠7 | ♣5 | ♦2 ♦3 ♦4", hand_size=4,
             eight_follow="same_player", policies="eight-dumper")
    # the eight-dumper plays its eight although ♣9 fits, names its longest suit and follows up
    d.starts_with([T(0), P(0, "♠8"), N(0, "♥"), P(0, "♥3"), T(1)])


# ------------------------------------------------------------------------------------------------
# drawing: draw_limit, must_play
# ------------------------------------------------------------------------------------------------
DRAWS = "♥3 ♥4 ♥6 ♥7 | ♠2 ♠3 ♠4 ♠6 | ♣5 | ♦2 ♦3 ♦4 ♦6 ♦7 ♣9 ♦9"


@pytest.mark.parametrize("draw_limit", [1, 2, 3, 4, 5])
def test_draw_limit_bounds_the_draws(draw_limit):
    d = Deal(DRAWS, hand_size=4, draw_limit=draw_limit)
    drawn = " ".join("♦2 ♦3 ♦4 ♦6 ♦7".split()[:draw_limit])
    d.starts_with([T(0), *D(0, drawn), PASS(0), T(1)])


def test_draw_limit_zero_draws_until_a_playable_card_and_plays_it():
    d = Deal(DRAWS, hand_size=4, draw_limit=0)
    d.starts_with([T(0), *D(0, "♦2 ♦3 ♦4 ♦6 ♦7 ♣9"), P(0, "♣9"), T(1)])


def test_draw_limit_a_playable_drawn_card_is_played_at_once():
    d = Deal("♥3 ♥4 ♥6 ♥7 | ♠2 ♠3 ♠4 ♠6 | ♣5 | ♦2 ♣9 ♦4", hand_size=4, draw_limit=3)
    d.starts_with([T(0), *D(0, "♦2 ♣9"), P(0, "♣9"), T(1)])


@pytest.mark.parametrize("must_play", [False, True])
def test_must_play(must_play):
    # the expert keeps an eight for the end when it may: with must_play off it draws instead
    d = Deal("♠8 ♥3 ♥4 ♥6 ♥7 | ♠2 ♠3 ♠4 ♠6 ♠7 | ♣5 | ♣9 ♦2 ♦3", hand_size=5,
             policies="expert", must_play=must_play)
    if must_play:
        d.starts_with([T(0), P(0, "♠8"), N(0, "♥"), T(1)])
    else:  # it draws although it could play, and plays the drawn ♣9 on
        d.starts_with([T(0), *D(0, "♣9"), P(0, "♣9"), T(1)])


def test_must_play_false_random_players_sometimes_draw_with_a_legal_card():
    drew_instead = {False: 0, True: 0}
    for must_play in (False, True):
        for seed in range(40):
            d = Deal("♣9 ♥3 ♥4 ♥6 | ♠2 ♠3 ♠4 ♠6 | ♣5 | ♦2 ♦3 ♦4", hand_size=4,
                     policies="random", must_play=must_play, seed=seed)
            if d.play[1][0] == "DRAW":
                drew_instead[must_play] += 1
    assert drew_instead[True] == 0
    assert drew_instead[False] > 0


# ------------------------------------------------------------------------------------------------
# going out: out_on_special, last_card_start_suit; the deal ends at once
# ------------------------------------------------------------------------------------------------
def test_the_deal_ends_as_soon_as_a_hand_is_empty_and_the_winner_scores_zero():
    d = Deal("♣9 | ♥3 | ♣5 | ♦2", hand_size=1)
    assert d.play == [T(0), P(0, "♣9"), ("END_DEAL", 0, "won"), ("SCORE", 0, 0, 0),
                      ("SCORE", 1, 5, 5)]


@pytest.mark.parametrize("card", ["♠8", "♣A"])
@pytest.mark.parametrize("out_on_special", [False, True])
def test_out_on_special(out_on_special, card):
    d = Deal(f"{card} | ♥3 | ♣5 | ♦2 ♦3 ♦4", hand_size=1, out_on_special=out_on_special,
             specials_only_must_draw=False)
    if out_on_special:  # it goes out at once: no suit is named, nobody draws for the ace
        assert d.play == [T(0), P(0, card), ("END_DEAL", 0, "won"), ("SCORE", 0, 0, 0),
                          ("SCORE", 1, 5, 5)]
    else:
        d.starts_with([T(0), *D(0, "♦2 ♦3 ♦4"), PASS(0), T(1)])


def test_out_on_special_still_needs_more_than_specials_under_specials_only_must_draw():
    d = Deal("♠8 | ♥3 | ♣5 | ♦2 ♦3 ♦4", hand_size=1, out_on_special=True)
    d.starts_with([T(0), *D(0, "♦2 ♦3 ♦4"), PASS(0), T(1)])


@pytest.mark.parametrize("last_card_start_suit", [False, True])
def test_last_card_start_suit(last_card_start_suit):
    d = Deal("♥5 | ♠3 | ♣5 | ♦2 ♦3 ♦4", hand_size=1, last_card_start_suit=last_card_start_suit)
    if last_card_start_suit:  # ♥5 fits the ♣5 but is not of the start suit
        d.starts_with([T(0), *D(0, "♦2 ♦3 ♦4"), PASS(0), T(1)])
    else:
        d.starts_with([T(0), P(0, "♥5"), ("END_DEAL", 0, "won")])


def test_last_card_start_suit_allows_the_start_suit():
    d = Deal("♣9 | ♠3 | ♣5 | ♦2 ♦3 ♦4", hand_size=1, last_card_start_suit=True)
    d.starts_with([T(0), P(0, "♣9"), ("END_DEAL", 0, "won")])


def test_last_card_start_suit_after_a_named_start_eight_is_the_named_suit():
    d = Deal("♥5 | ♠3 | ♠8 | ♦2 ♦3 ♦4", hand_size=1, last_card_start_suit=True,
             start_eight="forehand_names")
    d.opening_is([("START", "♠8"), N(0, "♥")])
    d.starts_with([T(0), P(0, "♥5"), ("END_DEAL", 0, "won")])


def test_last_card_start_suit_holds_for_the_whole_deal():
    # seat 0 plays ♦K on the ♦5 start card, then its ♥K would be a legal last card on ♥... but
    # only a diamond may go out
    d = Deal("♦K ♥K | ♥3 ♥4 | ♦5 | ♠2 ♠3 ♠4 ♠6", hand_size=2, last_card_start_suit=True)
    d.starts_with([T(0), P(0, "♦K"), C(0), T(1), *D(1, "♠2 ♠3 ♠4"), PASS(1), T(0),
                   *D(0, "♠6")])


# ------------------------------------------------------------------------------------------------
# two_draws_two
# ------------------------------------------------------------------------------------------------
TWOS3 = "♣2 ♥3 ♥4 ♥6 | {seat1} | ♠3 ♠4 ♠6 ♠7 | ♣5 | ♥9 ♥10 ♥J ♥Q ♥K"


def test_two_draws_two_the_next_player_draws_two_and_loses_the_turn():
    d = Deal(TWOS3.format(seat1="♦3 ♦4 ♦6 ♦7"), players=3, hand_size=4, two_draws_two=True)
    d.starts_with([T(0), P(0, "♣2"), T(1), *D(1, "♥9 ♥10", "two"), PASS(1), T(2)])


def test_two_draws_two_answered_with_a_two_grows_the_duty():
    d = Deal(TWOS3.format(seat1="♦2 ♦3 ♦4 ♦6"), players=3, hand_size=4, two_draws_two=True)
    d.starts_with([T(0), P(0, "♣2"), T(1), P(1, "♦2"),
                   T(2), *D(2, "♥9 ♥10 ♥J ♥Q", "two"), PASS(2), T(0)])


def test_two_draws_two_off_a_two_is_an_ordinary_card():
    d = Deal(TWOS3.format(seat1="♦2 ♦3 ♦4 ♦6"), players=3, hand_size=4, two_draws_two=False)
    d.starts_with([T(0), P(0, "♣2"), T(1), P(1, "♦2"),
                   T(2), *D(2, "♥9 ♥10 ♥J"), PASS(2), T(0)])


def test_two_draws_two_a_start_two_has_no_effect():
    d = Deal("♥3 ♥4 | ♦3 ♦4 | ♣2 | ♥9 ♥10 ♥J ♥Q", hand_size=2, two_draws_two=True)
    d.opening_is([("START", "♣2")])
    d.starts_with([T(0), *D(0, "♥9 ♥10 ♥J"), PASS(0), T(1)])


# ------------------------------------------------------------------------------------------------
# calls: call_at, call_penalty (forgetting is a seat setting)
# ------------------------------------------------------------------------------------------------
CALLS = "♣9 ♣10 | ♠3 ♠4 | ♣5 | ♦2 ♦3 ♦4 ♦6 ♦7 ♦9 ♦10"


@pytest.mark.parametrize("call_penalty", [0, 1, 2, 3, 4, 5])
def test_call_penalty_for_a_forgotten_call(call_penalty):
    d = Deal(CALLS, hand_size=2, call_penalty=call_penalty, forget="all=1")
    drawn = " ".join("♦2 ♦3 ♦4 ♦6 ♦7".split()[:call_penalty])
    d.starts_with([T(0), P(0, "♣10"), C(0, 0), *D(0, drawn, "call"), T(1)])


@pytest.mark.parametrize("call_penalty", [0, 3, 5])
def test_a_made_call_costs_nothing(call_penalty):
    d = Deal(CALLS, hand_size=2, call_penalty=call_penalty, forget=0)
    d.starts_with([T(0), P(0, "♣10"), C(0, 1), T(1), *D(1, "♦2 ♦3 ♦4"), PASS(1)])


def test_forget_is_per_seat():
    d = Deal("♣9 ♣10 | ♠3 ♣4 | ♣5 | ♦2 ♦3 ♦4 ♦6 ♦7 ♦9 ♦10", hand_size=2, forget="1=1")
    d.starts_with([T(0), P(0, "♣10"), C(0, 1), T(1), P(1, "♣4"), C(1, 0),
                   *D(1, "♦2 ♦3 ♦4", "call"), T(0)])


@pytest.mark.parametrize("call_at", [1, 3])
def test_call_at(call_at):
    d = Deal("♣10 ♥3 ♥4 ♥6 | ♠3 ♠4 ♠6 ♠7 | ♣5 | ♦2 ♦3 ♦4 ♦6", hand_size=4, call_at=call_at,
             forget="all=1")
    if call_at == 3:  # from four cards to three: the varning is due (and forgotten here)
        d.starts_with([T(0), P(0, "♣10"), C(0, 0), *D(0, "♦2 ♦3 ♦4", "call"), T(1)])
    else:
        d.starts_with([T(0), P(0, "♣10"), T(1), *D(1, "♦2 ♦3 ♦4"), PASS(1)])


def test_call_at_three_is_not_due_for_a_hand_that_never_had_more_than_three():
    # dealt three cards: going from three to two is not going from more than three
    d = Deal("♣10 ♣9 ♣3 | ♠3 ♠4 ♠6 | ♣5 | ♦2 ♦3 ♦4 ♦6", hand_size=3, call_at=3)
    d.starts_with([T(0), P(0, "♣10"), T(1), *D(1, "♦2 ♦3 ♦4"), PASS(1), T(0), P(0, "♣3"),
                   T(1)])


def test_call_at_three_with_stacking_calls_once():
    d = Deal("♣K ♦K ♥K ♥3 ♥4 | ♥5 ♣9 ♠3 ♠4 ♠6 | ♣5 | ♦2 ♦3 ♦4", hand_size=5, stacking=True,
             call_at=3)
    d.starts_with([T(0), P(0, "♣K"), P(0, "♦K"), C(0, 1), P(0, "♥K"), T(1)])


def test_call_penalty_comes_at_the_end_of_the_turn_after_the_extra_turn():
    d = Deal("♣A ♥3 | ♠3 ♠4 | ♣5 | ♦2 ♦3 ♦4 ♦6 ♦7 ♦9 ♦10", hand_size=2, forget="all=1")
    d.starts_with([T(0), P(0, "♣A"), C(0, 0), *D(1, "♦2", "ace"), *D(0, "♦3 ♦4 ♦6"), PASS(0),
                   *D(0, "♦7 ♦9 ♦10", "call"), T(1)])


def test_no_call_penalty_once_the_hand_is_empty():
    d = Deal("♣A ♣3 | ♠3 ♠4 | ♣5 | ♦2 ♦3 ♦4 ♦6 ♦7 ♦9 ♦10", hand_size=2, forget="all=1")
    assert d.play == [T(0), P(0, "♣A"), C(0, 0), *D(1, "♦2", "ace"), P(0, "♣3"),
                      ("END_DEAL", 0, "won"), ("SCORE", 0, 0, 0), ("SCORE", 1, 15, 15)]


# ------------------------------------------------------------------------------------------------
# the talon: reshuffles, blocked deals
# ------------------------------------------------------------------------------------------------
# two players with 15 cards each leave a talon of 21; seat 1 cannot follow ♣K and (draw_limit 0)
# draws it all, so the talon runs dry early and the discards are needed again and again
RESHUFFLE_SCRIPT = ("♣K ♣2 ♣3 ♣4 ♣6 ♣7 ♣9 ♦K ♥K ♠K ♣8 ♦8 ♥8 ♠8 ♦2 | "
                    "♦3 ♦4 ♦5 ♦6 ♦7 ♦9 ♦10 ♦J ♦Q ♦A ♥A ♥2 ♥3 ♥4 ♥5 | ♣5 | "
                    "♥6 ♥7 ♥9 ♥10 ♥J ♥Q ♠A ♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠9 ♠10 ♠J ♠Q ♣A ♣10 ♣J ♣Q")


def talon_walk(events: list[tuple], deck_size: int) -> list[tuple[tuple, int, int]]:
    """Follow the talon and the discard pile through one deal's events; returns
    (event, talon size before it, discard pile size before it) for every event, and checks that
    nothing is drawn from an empty talon and that a RESHUFFLE moves all discards but the top."""
    talon, pile, out = deck_size, 0, []
    for e in events:
        out.append((e, talon, pile))
        if e[0] == "DEAL":
            talon -= 1
        elif e[0] == "START":
            talon, pile = talon - 1, 1
        elif e[0] == "BURY":
            talon, pile = talon + 1, 0
        elif e[0] == "DRAW":
            assert talon > 0, f"a draw from an empty talon: {e}"
            talon -= 1
        elif e[0] == "PLAY":
            pile += 1
        elif e[0] == "RESHUFFLE":
            assert talon == 0, "a reshuffle while the talon still has cards"
            assert e[1] == pile - 1, f"{e}: the pile holds {pile} cards"
            talon, pile = e[1], 1
    return out


@pytest.mark.parametrize("reshuffles", [0, 1, 2, "unlimited"])
def test_reshuffles(reshuffles):
    d = Deal(RESHUFFLE_SCRIPT, hand_size=15, draw_limit=0, reshuffles=reshuffles)
    # seat 1 draws the whole talon: 17 misses, then the ♣A that fits
    d.starts_with([T(0), P(0, "♣K"), T(1), *D(1, " ".join(RESHUFFLE_SCRIPT.split()[-21:-3])),
                   P(1, "♣A"), *D(0, "♣10", "ace"), *D(1, "♣J"), P(1, "♣J")])
    walk = talon_walk(d.events, 52)
    n_reshuffles = sum(e[0] == "RESHUFFLE" for e in d.events)
    if reshuffles == "unlimited":
        assert n_reshuffles > 2
    else:
        assert n_reshuffles == reshuffles
    # once the reshuffles are spent, a player who must draw passes without drawing
    stuck = [i for i, (e, talon, pile) in enumerate(walk) if e[0] == "PASS" and talon == 0
             and walk[i - 1][0][0] == "TURN"]
    assert bool(stuck) == (reshuffles != "unlimited")
    if reshuffles == 0:  # the first such pass: seat 1 on the ♣ named by seat 0's ♣8
        i = d.events.index(("PLAY", 0, "♣8"))
        assert d.events[i: i + 4] == [P(0, "♣8"), N(0, "♣"), T(1), PASS(1)]


@pytest.mark.parametrize("reshuffles", [0, 1, 2, "unlimited"])
def test_reshuffles_per_deal_are_bounded(reshuffles):
    rules = Rules(players=2, hand_size=15, draw_limit=0, reshuffles=reshuffles, match="single")
    df = simulate(rules, 200, seed=7, policies="greedy", threads=1)
    if reshuffles == "unlimited":
        assert df.reshuffles.max() > 2
    else:
        assert df.reshuffles.max() == reshuffles


def test_a_blocked_deal_ends_when_nobody_can_play_or_draw():
    rules = Rules(players=2, hand_size=15, draw_limit=0, reshuffles=0, match="single")
    df = simulate(rules, 40, seed=7, policies="greedy", threads=1)
    blocked = df.index[df.blocked > 0].tolist()
    assert blocked and (df.winner[blocked] == -1).all()
    for game in blocked[:3]:
        trace = trace_game(rules, 7, game, policies="greedy")
        events = readable(trace)
        end = next(i for i, e in enumerate(events) if e[0] == "END_DEAL")
        assert events[end] == ("END_DEAL", -1, "blocked")
        # the last round of the table: one TURN and one PASS per player, nothing drawn or played
        assert events[end - 4: end] == [T(0), PASS(0), T(1), PASS(1)] or \
            events[end - 4: end] == [T(1), PASS(1), T(0), PASS(0)]
        assert talon_walk(events, 52)[end][1] == 0  # the talon is gone
        scores = replay_scores(trace, SCALE_TABLES["hundred"])
        assert all(points > 0 for _, _, points in scores)  # everybody scores its hand



# ------------------------------------------------------------------------------------------------
# scoring: scale
# ------------------------------------------------------------------------------------------------
FULL_CUSTOM = {"A": 14, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
               "J": 11, "Q": 12, "K": 13}
# seat 1 holds only specials, must draw five cards that do not fit, and seat 0 goes out:
# seat 1 ends with ♠8 ♥A ♦K ♦2 ♦J ♦6 ♦3
SCORED = "♣9 ♣10 | ♠8 ♥A | ♣5 | ♦K ♦2 ♦J ♦6 ♦3"


@pytest.mark.parametrize("scale, table, points", [
    ("base", SCALE_TABLES["base"], 10 + 5 + 1 + 1 + 1 + 1 + 1),
    ("hundred", SCALE_TABLES["hundred"], 25 + 15 + 10 + 5 + 10 + 5 + 5),
    ("crazy_eights", SCALE_TABLES["crazy_eights"], 50 + 1 + 10 + 2 + 10 + 6 + 3),
    ({"base": "base", "8": 40, "K": 3}, {"8": 40, "K": 3, "A": 5, "other": 1},
     40 + 5 + 3 + 1 + 1 + 1 + 1),
    (FULL_CUSTOM, FULL_CUSTOM, 8 + 14 + 13 + 2 + 11 + 6 + 3),
], ids=["base", "hundred", "crazy_eights", "custom-on-base", "custom-full"])
def test_scale_scores_the_hands_left(scale, table, points):
    d = Deal(SCORED, hand_size=2, draw_limit=5, scale=scale)
    d.starts_with([T(0), ("PLAY", 0, d.play[1][2]), C(0), T(1), *D(1, "♦K ♦2 ♦J ♦6 ♦3"),
                   PASS(1), T(0), ("PLAY", 0, d.play[11][2]), ("END_DEAL", 0, "won")])
    assert d.end()[1:] == [("SCORE", 0, 0, 0), ("SCORE", 1, points, points)]
    replay_scores(d.trace, table)


@pytest.mark.parametrize("scale, table", [
    ("base", SCALE_TABLES["base"]), ("hundred", SCALE_TABLES["hundred"]),
    ("crazy_eights", SCALE_TABLES["crazy_eights"]), (FULL_CUSTOM, FULL_CUSTOM)],
    ids=["base", "hundred", "crazy_eights", "custom"])
def test_scale_scores_every_random_deal(scale, table):
    rules = Rules(players=3, jokers=1, scale=scale, match="single")
    for game in range(5):
        replay_scores(trace_game(rules, 11, game, policies="random"), table)


def test_greedy_values_cards_apart_from_the_scale():
    # ♣A scores most under hundred (15) but least under crazy_eights (1): greedy plays it first
    # under both (its own valuation); among ordinary cards it sheds the costliest (♣10)
    for scale in ("hundred", "crazy_eights"):
        d = Deal("♣A ♣10 ♣3 | ♠3 ♠4 ♠6 | ♣5 | " + TALON, hand_size=3, scale=scale)
        mine = [e for e in d.play if e[:2] == ("PLAY", 0)]
        assert mine[:2] == [P(0, "♣A"), P(0, "♣10")], d.text


# ------------------------------------------------------------------------------------------------
# matches: single, deals:N, elimination:T (reach / pass), best_of:N
# ------------------------------------------------------------------------------------------------
def check_totals(events: list[tuple], players: int) -> tuple[list[int], list[list[tuple]]]:
    """Every SCORE row's total is the running sum of that seat's deal points; each deal has a
    winner who scores 0 and goes out with its play. Returns the final totals and the deals."""
    totals = [0] * players
    deals = deals_of(events)
    for deal in deals:
        end = next(i for i, e in enumerate(deal) if e[0] == "END_DEAL")
        winner = deal[end][1]
        if deal[end][2] == "won":
            assert deal[end - 1][0] == "PLAY" and deal[end - 1][1] == winner
        for e in deal:
            if e[0] == "SCORE":
                totals[e[1]] += e[2]
                assert e[3] == totals[e[1]]
                if e[1] == winner:
                    assert e[2] == 0
    return totals, deals


def lowest(totals: list[int], seats) -> int:
    seats = list(seats)
    low = min(totals[s] for s in seats)
    best = [s for s in seats if totals[s] == low]
    return best[0] if len(best) == 1 else -1


def same_as_simulate(rules, seed, game, events, totals, policies):
    row = simulate(rules, 1, seed=seed, first_game=game, policies=policies, threads=1).iloc[0]
    end = events[-1]
    assert end[0] == "END_MATCH"
    assert row.winner == end[1] and row.deals == end[2]
    assert [row[f"points_{s}"] for s in range(rules.players)] == totals


def test_single_is_one_deal_without_end_match():
    rules = Rules(players=3, match="single")
    events = readable(trace_game(rules, 2, 0, policies="random"))
    assert sum(e[0] == "NEW_DEAL" for e in events) == 1
    assert events[-1][0] == "SCORE" and not any(e[0] == "END_MATCH" for e in events)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_deals_n_plays_n_deals_and_the_lowest_total_wins(n):
    rules = Rules(players=3, match=f"deals:{n}", scale="base")
    for game in range(4):
        events = readable(trace_game(rules, 5, game, policies="random"))
        totals, deals = check_totals(events, 3)
        assert len(deals) == n
        # the dealer moves one seat on each deal, förhand sits after the dealer
        assert [d[0] for d in deals] == [("NEW_DEAL", (2 + k) % 3, k % 3, k) for k in range(n)]
        assert events[-1] == ("END_MATCH", lowest(totals, range(3)), n)
        same_as_simulate(rules, 5, game, events, totals, "random")


def check_elimination(events: list[tuple], players: int, target: int, pass_: bool) -> int:
    """Check an elimination match; returns how many times a total ended exactly on target."""
    totals = [0] * players
    active = list(range(players))
    on_target = 0
    deals = deals_of(events)
    for k, deal in enumerate(deals):
        assert sorted({e[1] for e in deal if e[0] == "DEAL"}) == active  # only active seats
        dealer, forehand = deal[0][1], deal[0][2]
        assert dealer in active and forehand == active[(active.index(dealer) + 1) % len(active)]
        if k:  # the dealer moves one active seat on
            previous = deals[k - 1][0][1]
            later = [s for s in range(previous + 1, previous + players + 1)
                     if s % players in active]
            assert dealer == later[0] % players
        for e in deal:
            if e[0] == "SCORE":
                totals[e[1]] += e[2]
                assert e[3] == totals[e[1]]
                on_target += totals[e[1]] == target
        out = [s for s in active if (totals[s] > target if pass_ else totals[s] >= target)]
        eliminated = [e[1] for e in deal if e[0] == "ELIMINATED"]
        if len(out) == len(active):  # everyone left would go: the lowest total wins
            assert deal[-1] == ("END_MATCH", lowest(totals, active), k + 1)
            return on_target
        assert sorted(eliminated) == out  # (rows in playing order)
        active = [s for s in active if s not in out]
        if len(active) == 1:
            assert k == len(deals) - 1
            assert deal[-1] == ("END_MATCH", active[0], k + 1)
            return on_target
    raise AssertionError("the match ended without a winner decided")


@pytest.mark.parametrize("eliminate_at", ["reach", "pass"])
def test_elimination(eliminate_at):
    target = 12
    rules = Rules(players=4, match=f"elimination:{target}", scale="base",
                  eliminate_at=eliminate_at)
    on_target = 0
    for game in range(12):
        events = readable(trace_game(rules, 9, game, policies="random"))
        on_target += check_elimination(events, 4, target, eliminate_at == "pass")
        totals = [0] * 4
        for e in events:
            if e[0] == "SCORE":
                totals[e[1]] = e[3]
        same_as_simulate(rules, 9, game, events, totals, "random")
    assert on_target > 0  # some total landed exactly on the target: reach and pass differ there


def test_elimination_reach_and_pass_differ_exactly_at_the_target():
    # find a game whose first deal leaves one total exactly on the target and another below it
    target = 5
    base = dict(players=3, scale="base", match=f"elimination:{target}")
    play = dict(policies="random")  # the games this test was written with
    for game in range(100):
        reach = deals_of(readable(trace_game(Rules(**base, eliminate_at="reach"), 4, game, **play)))
        totals = {e[1]: e[3] for e in reach[0] if e[0] == "SCORE"}
        on = [s for s, t in totals.items() if t == target]
        if on and min(totals.values()) < target:
            break
    else:
        pytest.fail("no first deal ended exactly on the target")
    passed = deals_of(readable(trace_game(Rules(**base, eliminate_at="pass"), 4, game, **play)))
    first = [e for e in reach[0] if e[0] not in ("ELIMINATED", "END_MATCH")]
    assert [e for e in passed[0] if e[0] not in ("ELIMINATED", "END_MATCH")] == first
    for seat in on:  # reach: out at the target; pass: still in, dealt again
        assert ("ELIMINATED", seat) in reach[0]
        assert ("ELIMINATED", seat) not in passed[0]
        assert any(e[0] == "DEAL" and e[1] == seat for e in passed[1])


@pytest.mark.parametrize("n", [1, 3, 5])
def test_best_of_n_ends_when_a_player_has_won_a_majority(n):
    rules = Rules(players=3, match=f"best_of:{n}")
    need = n // 2 + 1
    for game in range(4):
        events = readable(trace_game(rules, 13, game, policies="random"))
        totals, deals = check_totals(events, 3)
        wins = [0] * 3
        for k, deal in enumerate(deals):
            end = next(e for e in deal if e[0] == "END_DEAL")
            if end[2] == "won":
                wins[end[1]] += 1
            if k < len(deals) - 1:
                assert max(wins) < need
        assert max(wins) == need
        assert events[-1] == ("END_MATCH", wins.index(need), len(deals))
        same_as_simulate(rules, 13, game, events, totals, "random")


# ------------------------------------------------------------------------------------------------
# combinations of parameters
# ------------------------------------------------------------------------------------------------
def test_eight_follow_same_player_goes_out_with_the_follow_up():
    d = Deal("♠8 ♥3 | ♠3 ♠4 | ♣5 | ♦2 ♦3 ♦4", hand_size=2, eight_follow="same_player")
    assert d.play == [T(0), P(0, "♠8"), C(0), N(0, "♥"), P(0, "♥3"), ("END_DEAL", 0, "won"),
                      ("SCORE", 0, 0, 0), ("SCORE", 1, 10, 10)]


def test_eight_follow_same_player_with_last_card_start_suit_refuses_a_wrong_suit_follow_up():
    d = Deal("♠8 ♥3 | ♠3 ♠4 | ♣5 | ♦2 ♦3 ♦4", hand_size=2, eight_follow="same_player",
             last_card_start_suit=True)
    d.starts_with([T(0), *D(0, "♦2 ♦3 ♦4"), PASS(0), T(1)])


def test_stacking_eights_with_same_player_follow_up():
    d = Deal("♠8 ♥8 ♥3 ♥4 ♥6 | ♦3 ♦4 ♦6 ♦7 ♦9 | ♣5 | ♠2 ♠3 ♠4", hand_size=5, stacking=True,
             eight_follow="same_player")
    d.starts_with([T(0), P(0, "♥8"), P(0, "♠8"), N(0, "♥"), P(0, "♥3"), T(1)])


def test_stacking_on_a_drawn_card():
    d = Deal("♦K ♥3 ♥4 ♥6 | ♠3 ♠4 ♠6 ♠7 | ♣5 | ♦2 ♣K ♦4", hand_size=4, stacking=True)
    d.starts_with([T(0), *D(0, "♦2 ♣K"), P(0, "♣K"), P(0, "♦K"), T(1)])


def test_stacking_counter_aces_each_adds_to_the_duty():
    d = Deal("♣A ♥A ♥3 ♥4 | ♦3 ♦4 ♦6 ♦7 | ♣5 | " + TALON, hand_size=4, stacking=True,
             ace_on_ace="counter")
    d.starts_with([T(0), P(0, "♣A"), P(0, "♥A"), T(1), *D(1, "♥9 ♥10", "counter"), PASS(1),
                   T(0), P(0, "♥3")])


def test_draw_two_joker_cannot_be_answered_with_a_two_when_two_draws_two_is_off():
    d = Deal("JK ♥3 ♥4 ♥6 | ♣2 ♦2 ♦4 ♦6 | ♣5 | " + TALON, hand_size=4, jokers=1,
             joker_effect="draw_two")
    d.starts_with([T(0), P(0, "JK"), T(1), *D(1, "♥9 ♥10", "two"), PASS(1), T(0)])


def test_two_draws_two_and_the_last_cards():
    d = Deal("♣2 | ♦2 | ♣5 | " + TALON, hand_size=1, two_draws_two=True)
    d.starts_with([T(0), P(0, "♣2"), ("END_DEAL", 0, "won")])  # a two may go out
    # seat 1 answers seat 0's two; the duty of 4 comes back to seat 0, which has no two left
    d = Deal("♣2 ♥3 | ♦2 ♠3 | ♣5 | " + TALON, hand_size=2, two_draws_two=True)
    d.starts_with([T(0), P(0, "♣2"), C(0), T(1), P(1, "♦2"), C(1),
                   T(0), *D(0, "♥9 ♥10 ♥J ♥Q", "two"), PASS(0), T(1)])
    # with stacking, seat 1 answers with both its twos and goes out: nobody draws the duty
    d = Deal("♣2 ♥3 | ♦2 ♠2 | ♣5 | " + TALON, hand_size=2, two_draws_two=True, stacking=True)
    d.starts_with([T(0), P(0, "♣2"), C(0), T(1), P(1, "♦2"), C(1), P(1, "♠2"),
                   ("END_DEAL", 1, "won")])


def test_direction_is_reset_to_clockwise_each_deal():
    rules = Rules(players=3, jokers=2, joker_effect="reverse", match="deals:8")
    checked = 0
    for game in range(6):
        for deal in deals_of(readable(trace_game(rules, 21, game, policies="random"))):
            turns = [e for e in deal if e[0] in ("TURN", "PLAY")]
            forehand = deal[0][2]
            first_plays = [e for e in turns[1:] if e[0] == "PLAY"][:1]
            nxt = next(e for e in turns[1:] if e[0] == "TURN")
            if first_plays != [P(forehand, "JK")]:
                assert nxt == T((forehand + 1) % 3)
                checked += 1
    assert checked > 20


def test_start_ace_with_eight_on_ace_forehand_may_play_an_eight():
    d = Deal("♥8 ♥3 ♥4 | ♠3 ♠4 ♠6 | ♣A | " + TALON, hand_size=3, eight_on_ace=True)
    d.opening_is([("START", "♣A"), *D(0, "♥9", "start_ace"), *D(1, "♥10", "start_ace")])
    d.starts_with([T(0), P(0, "♥8"), N(0, "♥"), T(1)])


def test_two_buried_start_cards_in_a_row_in_a_scripted_deal():
    d = Deal("♥3 ♥4 | ♦3 ♦4 | ♠8 ♥8 ♣5 | " + TALON, hand_size=2)
    d.opening_is([("START", "♠8"), ("BURY", "♠8"), ("START", "♥8"), ("BURY", "♥8"),
                  ("START", "♣5")])


# A start special kept (rule 4): four seats of twelve take every card that could stay, so the
# talon holds only cards the rules bury too and the first one turned up stays, as a plain card.
HEARTS, SPADES = "♥2 ♥3 ♥4 ♥5 ♥6 ♥7 ♥9 ♥10 ♥J ♥Q ♥K", "♠2 ♠3 ♠4 ♠5 ♠6 ♠7 ♠9 ♠10 ♠J ♠Q ♠K"
DIAMONDS, CLUBS = "♦2 ♦3 ♦4 ♦5 ♦6 ♦7 ♦9 ♦10 ♦J ♦Q ♦K", "♣2 ♣3 ♣4 ♣5 ♣6 ♣7 ♣9 ♣10 ♣J ♣Q ♣K"


def kept(script: str, **fields) -> Deal:
    d = Deal(script, players=4, hand_size=12, **fields)
    referee(d.trace, d.rules)
    return d


def test_a_kept_start_joker_takes_any_card_but_a_joker():
    d = kept(f"♥A {HEARTS} | ♠A {SPADES} | ♦A {DIAMONDS} | ♣A {CLUBS} | JK | ♣8 ♦8 ♥8 ♠8",
             jokers=1)
    d.opening_is([("START", "JK")])  # not buried: only eights are left to turn
    d.starts_with([T(0), P(0, "♥A")])  # no club and no eight: anything goes on it


def test_a_kept_start_ace_is_matched_as_a_plain_card():
    d = kept(f"♥8 {HEARTS} | ♠8 {SPADES} | ♦8 {DIAMONDS} | ♣8 {CLUBS} | ♣A | ♦A ♥A ♠A",
             start_ace="bury", eight_on_ace=False)
    d.opening_is([("START", "♣A")])  # no draws for the others: it has no effect
    d.starts_with([T(0), P(0, "♥8"), N(0, "♥")])  # an eight goes on it, as on any plain card


def test_a_kept_start_eight_takes_no_joker():
    d = kept(f"JK {HEARTS} | ♠A {SPADES} | ♦A {DIAMONDS} | JK2 {CLUBS} | ♣8 | ♥A ♣A ♥8 ♦8 ♠8",
             jokers=2, start_ace="bury")
    d.opening_is([("START", "♣8")])  # no suit named: it has no effect
    assert d.play[:2] == [T(0), ("DRAW", 0, "♥A", "draw")], d.text  # the joker may not go on it


def test_specials_only_must_draw_counts_a_joker_as_special():
    d = Deal("JK ♠8 | ♦3 ♦4 | ♣5 | ♥2 ♥3 ♥4 ♥6", hand_size=2, jokers=1)
    d.starts_with([T(0), *D(0, "♥2 ♥3 ♥4"), PASS(0), T(1)])
    d = Deal("JK ♠8 | ♦3 ♦4 | ♣5 | ♥2 ♥3 ♥4 ♥6", hand_size=2, jokers=1,
             specials_only_must_draw=False)
    d.starts_with([T(0), P(0, "JK"), C(0), T(1)])


def test_ace_on_ace_counter_with_ace_draw_zero_leaves_no_duty():
    d = Deal("♣A ♥3 ♥4 ♥6 | ♦A ♣K ♦4 ♦6 | ♣5 | " + TALON, hand_size=4, ace_on_ace="counter",
             ace_draw=0)
    # nothing to draw or pass on: seat 1 plays on the ♣A as usual (its best card, the ♦A)
    d.starts_with([T(0), P(0, "♣A"), T(1), P(1, "♦A"), T(0)])
