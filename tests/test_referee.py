"""The referee: scripted deals that must pass, and one broken copy per rule it must enforce.

Each scenario is written card by card with :class:`TraceBuilder`; a broken copy changes one
thing and the referee must name it. ``SelfPlay`` at the bottom plays random legal games through
the referee's own state (a consistency check of the referee's bookkeeping and its speed, not a
second opinion on the rules).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import TraceBuilder, card

from vandatta_sim.referee import (
    CAUSE_CALL,
    CAUSE_DRAW,
    GameState,
    RefereeError,
    has_follow_up,
    legal_plays,
    may_go_out_with,
    referee,
)
from vandatta_sim.rules import Rules
from vandatta_sim.trace import DRAW_CAUSES, Event, as_rows, narrate


def rules(**changes) -> Rules:
    base = dict(players=2, hand_size=2, match="single")
    base.update(changes)
    return Rules(**base)


def replay(rows, rules_, **kw) -> GameState:
    """Step through rows without requiring a finished deal (for legal prefixes)."""
    game = GameState(rules_, **kw)
    for i, row in enumerate(as_rows(np.array(rows, dtype=np.int32).reshape(-1, 4))):
        game.step(i, row)
    return game


def rejects(rows, rules_, match: str, **kw) -> RefereeError:
    with pytest.raises(RefereeError, match=match) as info:
        referee(np.array(rows, dtype=np.int32), rules_, **kw)
    return info.value


def replace_row(rows, index, new):
    rows = list(rows)
    rows[index] = new
    return rows


# ---------------------------------------------------------------------------------------------
# Scenarios
# ---------------------------------------------------------------------------------------------

def short_game() -> TraceBuilder:
    """Two players, two cards each: three plays and seat 0 is out."""
    return (TraceBuilder().new_deal(1, 0)
            .deal(0, "C4 C5").deal(1, "H3 CK").start("C7")
            .turn(0).play(0, "C4").call(0)
            .turn(1).play(1, "CK").call(1)
            .turn(0).play(0, "C5")
            .end(0).scores((0, 0, 0), (1, 5, 5)))


def rich_game() -> TraceBuilder:
    """An ace with its draw and extra turn, an eight with a named suit, draws, a call."""
    return (TraceBuilder().new_deal(1, 0)
            .deal(0, "CA C4 S8 D9").deal(1, "CK H3 HQ C2").start("C7")
            .turn(0).play(0, "CA").draw(1, "S5", "ace").play(0, "C4")
            .turn(1).play(1, "CK")
            .turn(0).play(0, "S8").name(0, "D").call(0)
            .turn(1).draw(1, "H4 D6").play(1, "D6")
            .turn(0).play(0, "D9")
            .end(0).scores((0, 0, 0), (1, 30, 30)))


def eight_on_ace_game() -> TraceBuilder:
    return (TraceBuilder().new_deal(1, 0)
            .deal(0, "CA S8 D9").deal(1, "CK H3 D2").start("C7")
            .turn(0).play(0, "CA").draw(1, "S5", "ace").play(0, "S8").name(0, "D").call(0)
            .turn(1).play(1, "D2")
            .turn(0).play(0, "D9")
            .end(0).scores((0, 0, 0), (1, 20, 20)))


def index_of(rows, kind, seat=None, a=None, nth=0):
    hits = [i for i, r in enumerate(rows) if r[0] == kind and (seat is None or r[1] == seat)
            and (a is None or r[2] == a)]
    return hits[nth]


# ---------------------------------------------------------------------------------------------
# trace.py
# ---------------------------------------------------------------------------------------------

def test_event_numbers_follow_the_documented_table():
    expected = ["NEW_DEAL", "DEAL", "START", "BURY", "TURN", "PLAY", "NAME_SUIT", "DRAW", "PASS",
                "RESHUFFLE", "CALL", "END_DEAL", "SCORE", "ELIMINATED", "END_MATCH", "SWAP",
                "ESTIMATE"]
    assert [e.name for e in sorted(Event)] == expected
    assert [int(e) for e in sorted(Event)] == list(range(1, 18))
    assert DRAW_CAUSES == ("draw", "ace", "counter", "two", "call", "start_ace")


def test_narrate_reads_like_a_game():
    text = narrate(rich_game().array())
    for line in ("Deal 1: dealer seat 1, förhand seat 0",
                 "seat 0 is dealt ♣A ♣4 ♠8 ♦9",
                 "start card ♣7",
                 "seat 1 draws ♠5 (ace)",
                 "seat 0 plays ♠8 and names ♦",
                 "seat 0: lappen!",
                 "seat 1 draws ♥4",
                 "seat 0 wins the deal",
                 "scores: seat 0 0 (total 0), seat 1 30 (total 30)"):
        assert line in text.splitlines(), line
    wide = TraceBuilder().scores(*((s, 12 * s, 100 + s) for s in range(6))).array()
    names = [f"seat {s} (search:objective=match)" for s in range(6)]
    lines = narrate(wide, seat_names=names).splitlines()
    assert len(lines) > 1 and all(len(line) <= 80 for line in lines), lines
    assert " ".join(line.strip() for line in lines) == "scores: " + ", ".join(
        f"{names[s]} {12 * s} (total {100 + s})" for s in range(6))
    named = narrate(short_game().array(), seat_names=["Anna", "Bo"])
    assert "Bo plays ♣K" in named
    assert "Anna wins the deal" in named


# ---------------------------------------------------------------------------------------------
# Legal games pass
# ---------------------------------------------------------------------------------------------

def test_legal_short_game_passes_with_its_scores():
    summary = referee(short_game().array(), rules())
    assert summary["winner"] == 0
    assert summary["deals"] == 1 and summary["turns"] == 3 and summary["plays"] == 3
    assert summary["points"] == [0, 5] and summary["totals"] == [0, 5]


def test_legal_rich_game_passes():
    summary = referee(rich_game().array(), rules(hand_size=4))
    assert summary["winner"] == 0
    assert summary["draws"] == 3 and summary["draws_by_cause"]["ace"] == 1
    assert summary["points"] == [0, 30]


def test_scores_follow_the_scale():
    rows = short_game().rows
    i = index_of(rows, Event.SCORE, seat=1)
    # ♥3 is worth 1 on the base scale and 3 on the crazy-eights scale
    referee(np.array(replace_row(rows, i, (Event.SCORE, 1, 1, 1))), rules(scale="base"))
    referee(np.array(replace_row(rows, i, (Event.SCORE, 1, 3, 3))), rules(scale="crazy_eights"))


# ---------------------------------------------------------------------------------------------
# Each broken rule is rejected
# ---------------------------------------------------------------------------------------------

def test_eight_on_ace_needs_eight_on_ace():
    rows = eight_on_ace_game().rows
    err = rejects(rows, rules(hand_size=3), "eight_on_ace")
    assert err.index == index_of(rows, Event.PLAY, 0, card("S8"))
    referee(np.array(rows), rules(hand_size=3, eight_on_ace=True))


def test_play_out_of_turn_is_rejected():
    rows = short_game().rows
    first_turn = index_of(rows, Event.TURN)
    rejects(replace_row(rows, first_turn, (Event.TURN, 1, 0, 0)), rules(), "wrong turn order")
    # seat 1 slips a card in during seat 0's turn
    i = index_of(rows, Event.CALL, 0)
    bad = rows[:i + 1] + [(Event.PLAY, 1, card("CK"), 0)] + rows[i + 1:]
    rejects(bad, rules(), "PLAY by seat 1 during seat 0's turn")


def test_card_not_in_hand_is_rejected():
    rows = short_game().rows
    i = index_of(rows, Event.PLAY, 0, card("C4"))
    rejects(replace_row(rows, i, (Event.PLAY, 0, card("C6"), 0)), rules(),
            "♣6, which is not in its hand")


def test_going_out_on_an_eight_is_rejected():
    rows = (TraceBuilder().new_deal(1, 0)
            .deal(0, "C4 S8").deal(1, "H3 HK").start("C7")
            .turn(0).play(0, "C4").call(0)
            .turn(1).draw(1, "H4").play(1, "H4")
            .turn(0).play(0, "S8")
            .end(0).scores((0, 0, 0), (1, 15, 15))).rows
    rejects(rows, rules(specials_only_must_draw=False), "no going out on a special")
    # out_on_special alone is not enough: a hand of only specials must draw (rule 13)
    rejects(rows, rules(out_on_special=True), "rule 13")
    referee(np.array(rows), rules(out_on_special=True, specials_only_must_draw=False))


def test_wrong_score_is_rejected():
    rows = short_game().rows
    i = index_of(rows, Event.SCORE, seat=1)
    rejects(replace_row(rows, i, (Event.SCORE, 1, 10, 10)), rules(), "worth 5")
    rejects(replace_row(rows, i, (Event.SCORE, 1, 5, 7)), rules(), "match total")


def test_wrong_winner_is_rejected():
    rows = short_game().rows
    i = index_of(rows, Event.END_DEAL)
    rejects(replace_row(rows, i, (Event.END_DEAL, 1, 0, 0)), rules(), "wrong winner")
    rejects(replace_row(rows, i, (Event.END_DEAL, -1, 1, 0)), rules(), "won, not blocked")


def test_duplicated_card_breaks_conservation():
    rows = short_game().rows
    i = index_of(rows, Event.DEAL, 1, card("H3"))
    rejects(replace_row(rows, i, (Event.DEAL, 1, card("C4"), 0)), rules(), "not in the talon")
    # the start card cannot be drawn again either
    bad = rich_game().rows
    i = index_of(bad, Event.DRAW, 1, card("H4"))
    rejects(replace_row(bad, i, (Event.DRAW, 1, card("C7"), 0)), rules(hand_size=4),
            "not in the talon")


def test_draw_with_a_legal_play_under_must_play():
    rows = short_game().rows
    i = index_of(rows, Event.PLAY, 0, card("C4"))
    prefix = rows[:i] + [(Event.DRAW, 0, card("D2"), CAUSE_DRAW)]
    with pytest.raises(RefereeError, match="must_play"):
        replay(prefix, rules())
    # without must_play the draw is a legal choice, and the player must draw on to the limit
    free = rules(must_play=False)
    replay(prefix, free)
    rejects(prefix + [(Event.PASS, 0, 0, 0)], free, "could draw")
    game = replay(prefix + [(Event.DRAW, 0, card("D3"), 0), (Event.DRAW, 0, card("D4"), 0),
                            (Event.PASS, 0, 0, 0), (Event.TURN, 1, 0, 0)], free)
    assert game.deal.hand_sizes[0] == 5


def test_pass_before_the_draw_limit_is_rejected():
    rows = rich_game().rows
    i = index_of(rows, Event.DRAW, 1, card("H4"))
    bad = rows[:i + 1] + [(Event.PASS, 1, 0, 0)]
    rejects(bad, rules(hand_size=4), "could draw")
    # with draw_limit = 1 the same pass is legal, and a second draw is not
    replay(bad + [(Event.TURN, 0, 0, 0)], rules(hand_size=4, draw_limit=1))
    rejects(rows, rules(hand_size=4, draw_limit=1), "past draw_limit")


def test_legal_drawn_card_must_be_played():
    rows = rich_game().rows
    i = index_of(rows, Event.PLAY, 1, card("D6"))
    rejects(replace_row(rows, i, (Event.PASS, 1, 0, 0)), rules(hand_size=4), "just drew")
    rejects(replace_row(rows, i, (Event.DRAW, 1, card("H5"), 0)), rules(hand_size=4),
            "just drew")
    # only the drawn card may be played after drawing
    rejects(replace_row(rows, i, (Event.PLAY, 1, card("C2"), 0)), rules(hand_size=4),
            "only the card just drawn")


def test_missing_ace_penalty_draws_are_rejected():
    rows = rich_game().rows
    i = index_of(rows, Event.DRAW, 1, card("S5"))
    rejects(rows[:i] + rows[i + 1:], rules(hand_size=4), "ace penalty cards not drawn")
    # two cards each with ace_draw = 2
    rejects(rows, rules(hand_size=4, ace_draw=2), "ace penalty cards not drawn")
    # ... and without the extra turn seat 0 may not play on
    rejects(rows, rules(hand_size=4, ace_extra_turn=False), "already played this turn")


def test_ace_extra_turn_has_a_fresh_draw_limit():
    b = (TraceBuilder().new_deal(1, 0)
         .deal(0, "D9 H9").deal(1, "CK H3").start("C7")
         .turn(0).draw(0, "CA").play(0, "CA").draw(1, "S5", "ace").draw(0, "D2"))
    one = rules(draw_limit=1)
    replay(b.rows + [(Event.TURN, 1, 0, 0)], one)                       # extra turn ends
    replay(b.rows + [(Event.PASS, 0, 0, 0), (Event.TURN, 1, 0, 0)], one)  # ... or passes
    with pytest.raises(RefereeError, match="past draw_limit"):
        replay(b.rows + [(Event.DRAW, 0, card("D3"), 0)], one)
    # the extra turn must draw when it cannot play
    with pytest.raises(RefereeError, match="could draw"):
        replay(b.rows[:-1] + [(Event.TURN, 1, 0, 0)], one)


def test_a_winning_card_has_no_effect():
    b = (TraceBuilder().new_deal(1, 0)
         .deal(0, "C4 CA").deal(1, "H3 CK").start("C7")
         .turn(0).play(0, "C4").call(0)
         .turn(1).play(1, "CK").call(1)
         .turn(0).play(0, "CA"))
    out = rules(out_on_special=True, specials_only_must_draw=False)
    ending = [(Event.END_DEAL, 0, 0, 0), (Event.SCORE, 0, 0, 0), (Event.SCORE, 1, 5, 5)]
    referee(np.array(b.rows + ending), out)
    rejects(b.rows + [(Event.DRAW, 1, card("D2"), 1)] + ending, out, "ends at once")
    rejects(b.rows + [(Event.NAME_SUIT, 0, 1, 0)] + ending, out, "ends at once")


def test_missing_call_and_forgotten_call_penalty():
    rows = short_game().rows
    i = index_of(rows, Event.CALL, 0)
    rejects(rows[:i] + rows[i + 1:], rules(), "CALL")
    forgot = replace_row(rows, i, (Event.CALL, 0, 0, 0))
    rejects(forgot, rules(), "call-penalty")
    penalty = [(Event.DRAW, 0, card(c), CAUSE_CALL) for c in ("D2", "D3", "D4")]
    j = index_of(rows, Event.TURN, 1)
    game = replay(forgot[:j] + penalty + forgot[j:j + 1], rules())
    assert game.deal.hand_sizes[0] == 4
    with pytest.raises(RefereeError, match="more call"):
        replay(forgot[:j] + penalty + penalty[:1], rules())
    rejects(forgot, rules(), "forget probability is 0", policies_forget=[0.0, 0.0])


def test_turn_order_follows_a_reverse_joker():
    b = (TraceBuilder().new_deal(2, 0)
         .deal(0, "JK C4").deal(1, "C5 H3").deal(2, "C6 H9").start("C7")
         .turn(0).play(0, "JK").call(0)
         .turn(2).play(2, "C6").call(2)
         .turn(1).play(1, "C5").call(1)
         .turn(0).play(0, "C4")
         .end(0).scores((0, 0, 0), (1, 5, 5), (2, 5, 5)))
    three = dict(players=3, jokers=1)
    referee(b.array(), rules(**three))
    i = index_of(b.rows, Event.TURN, 2)
    rejects(replace_row(b.rows, i, (Event.TURN, 1, 0, 0)), rules(**three), "wrong turn order")
    # a joker on a joker is never legal; a joker never goes on an ace
    rejects(b.rows, rules(players=3), "not in the talon")


def test_counter_duty_must_be_answered_or_drawn_in_full():
    b = (TraceBuilder().new_deal(1, 0)
         .deal(0, "CA C4 D9").deal(1, "HA H3 S5").start("C7")
         .turn(0).play(0, "CA")
         .turn(1).play(1, "HA")
         .turn(0).draw(0, "D2 S3", "counter").pass_(0)
         .turn(1).play(1, "H3").call(1)
         .turn(0).play(0, "S3")
         .turn(1).play(1, "S5")
         .end(1).scores((0, 15, 15), (1, 0, 0)))
    counter = rules(hand_size=3, ace_on_ace="counter")
    referee(b.array(), counter)
    rows = b.rows
    # seat 1 holds an ace and must answer with it
    i = index_of(rows, Event.PLAY, 1, card("HA"))
    rejects(replace_row(rows, i, (Event.DRAW, 1, card("D2"), 2)), counter, "answer")
    # the duty of two is drawn in full
    j = index_of(rows, Event.DRAW, 0, card("S3"))
    rejects(rows[:j] + rows[j + 1:], counter, "counter penalty cards not drawn")
    # the player who drew its duty passes
    k = index_of(rows, Event.PASS, 0)
    rejects(rows[:k] + rows[k + 1:], counter, "PASS expected")
    # without counter the first ace gives seat 1 a card and seat 0 an extra turn
    rejects(rows, rules(hand_size=3), "ace penalty cards not drawn")


def test_same_player_eight_needs_a_follow_up():
    same = rules(hand_size=3, eight_follow="same_player")
    ok = (TraceBuilder().new_deal(1, 0)
          .deal(0, "S8 H4 C9").deal(1, "D3 DK H3").start("C7")
          .turn(0).play(0, "S8").name(0, "H").play(0, "H4").call(0)
          .turn(1).play(1, "H3"))
    replay(ok.rows, same)
    i = index_of(ok.rows, Event.PLAY, 0, card("H4"))
    with pytest.raises(RefereeError, match="follow-up"):
        replay(ok.rows[:i] + [(Event.TURN, 1, 0, 0)], same)
    with pytest.raises(RefereeError, match="no follow-up"):
        replay(replace_row(ok.rows, i, (Event.PLAY, 0, card("C9"), 0)), same)
    # an eight with only an ace beside it has no follow-up (ace_on_eight off)
    no_follow = (TraceBuilder().new_deal(1, 0)
                 .deal(0, "S8 CA").deal(1, "D3 DK").start("C7")
                 .turn(0).play(0, "S8")).rows
    with pytest.raises(RefereeError, match="rule 15"):
        replay(no_follow, rules(eight_follow="same_player", specials_only_must_draw=False))
    replay(no_follow, rules(specials_only_must_draw=False))


def test_stacking_only_when_allowed():
    b = (TraceBuilder().new_deal(1, 0)
         .deal(0, "C4 D4 H4").deal(1, "S5 S6 S9").start("C7")
         .turn(0).play(0, "C4", "D4").call(0).play(0, "H4")
         .end(0).scores((0, 0, 0), (1, 15, 15)))
    referee(b.array(), rules(hand_size=3, stacking=True))
    rejects(b.rows, rules(hand_size=3), "stacking is off")


def test_reshuffle_and_short_penalty_draws_with_ten_players():
    # 10 players x 10 cards from two decks: the talon holds only 3 cards after the start card
    pack = [c for c in range(52) for _ in range(2)]
    for text in ("D2", "D3", "D4", "C7", "CA", "C4"):
        pack.remove(card(text))    # ♦2 ♦3 ♦4 ♣7 stay in the talon; ♣A ♣4 go to seat 0
    hands = {0: [card("CA"), card("C4")] + pack[:8]}
    pack = pack[8:]
    for s in range(1, 10):
        hands[s], pack = pack[:10], pack[10:]
    assert not pack
    b = TraceBuilder().new_deal(9, 0)
    for s in range(10):
        for c in hands[s]:
            b.add(Event.DEAL, s, c)
    b.start("C7").turn(0).play(0, "CA").draw(1, "D2", "ace").draw(2, "D3", "ace")
    b.draw(3, "D4", "ace")
    ten = dict(players=10, hand_size=10, match="single")
    # no reshuffle allowed: the others' draws fall short, and that is legal
    replay(b.rows + [(Event.PLAY, 0, card("C4"), 0)], Rules(**ten, reshuffles=0))
    # with a reshuffle available the missing draws are an error
    with pytest.raises(RefereeError, match="ace penalty cards not drawn"):
        replay(b.rows + [(Event.PLAY, 0, card("C4"), 0)], Rules(**ten))
    # the reshuffle moves all discards but the top (only ♣7 under the ♣A)
    good = b.rows + [(Event.RESHUFFLE, -1, 1, 0), (Event.DRAW, 4, card("C7"), 1)]
    replay(good, Rules(**ten))
    with pytest.raises(RefereeError, match="all discards but the top"):
        replay(replace_row(good, len(b.rows), (Event.RESHUFFLE, -1, 2, 0)), Rules(**ten))
    with pytest.raises(RefereeError, match="reshuffles = 0"):
        replay(good, Rules(**ten, reshuffles=0))
    with pytest.raises(RefereeError, match="still holds"):
        replay(b.rows[:-1] + [(Event.RESHUFFLE, -1, 1, 0)], Rules(**ten))


def test_start_ace_draws_in_order_and_bury():
    b = (TraceBuilder().new_deal(1, 0)
         .deal(0, "C4 C5").deal(1, "H3 CK").start("SA")
         .draw(0, "D2", "start_ace").draw(1, "D3", "start_ace")
         .turn(0))
    replay(b.rows, rules())
    swapped = replace_row(replace_row(b.rows, 6, (Event.DRAW, 1, card("D3"), 5)),
                          7, (Event.DRAW, 0, card("D2"), 5))
    with pytest.raises(RefereeError, match="seat 0 draws next"):
        replay(swapped, rules())
    with pytest.raises(RefereeError, match="seat 1 draws next"):
        replay(b.rows, rules(start_ace="dealer_draws"))  # only the dealer, seat 1, draws
    # start_ace = bury: the ace goes back and another card is turned
    buried = (TraceBuilder().new_deal(1, 0)
              .deal(0, "C4 C5").deal(1, "H3 CK").start("SA").bury("SA").start("C7")
              .turn(0).play(0, "C4"))
    replay(buried.rows, rules(start_ace="bury"))
    with pytest.raises(RefereeError, match="may not be buried"):
        replay(buried.rows, rules())


def test_match_totals_eliminations_and_winner():
    first = short_game()
    b = TraceBuilder()
    b.rows = list(first.rows)
    b.new_deal(0, 1, 1).deal(0, "C4 C5").deal(1, "H3 CK").start("C7")
    b.turn(1).play(1, "CK").call(1).turn(0).play(0, "C4").call(0).turn(1).draw(1, "C2")
    b.play(1, "C2").call(1).turn(0).play(0, "C5").end(0).scores((0, 0, 0), (1, 5, 10))
    referee(np.array(b.rows + [(Event.END_MATCH, 0, 2, 0)]), rules(match="deals:2"))
    rejects(b.rows + [(Event.END_MATCH, 1, 2, 0)], rules(match="deals:2"), "wrong match winner")
    rejects(b.rows + [(Event.END_MATCH, 0, 2, 0)], rules(match="deals:3"), "not over")
    # elimination at 5: seat 1 reaches 5 after the first deal and is out, seat 0 wins
    elim = first.rows + [(Event.ELIMINATED, 1, 0, 0), (Event.END_MATCH, 0, 1, 0)]
    summary = referee(np.array(elim), rules(match="elimination:5"))
    assert summary["winner"] == 0 and summary["eliminated"] == [1]
    rejects(first.rows + [(Event.END_MATCH, 0, 1, 0)], rules(match="elimination:5"),
            "ELIMINATED rows missing")
    # eliminate_at = pass: 5 is not over 5, the match goes on
    rejects(elim, rules(match="elimination:5", eliminate_at="pass"), "not out")
    referee(np.array(b.rows[:len(first.rows)] + b.rows[len(first.rows):]
                     + [(Event.ELIMINATED, 1, 0, 0), (Event.END_MATCH, 0, 2, 0)]),
            rules(match="elimination:10"))


def test_capped_and_blocked_deals():
    rows = short_game().rows
    i = index_of(rows, Event.TURN, 0, nth=1)
    capped = rows[:i] + [(Event.END_DEAL, -1, 2, 0), (Event.SCORE, 0, 5, 5),
                         (Event.SCORE, 1, 5, 5)]
    summary = referee(np.array(capped), rules(), turn_cap=2)
    assert summary["end_reasons"] == [2] and summary["winner"] == -1
    rejects(capped, rules(), "not capped")
    rejects(rows, rules(), "turn cap", turn_cap=2)
    blocked = rows[:i] + [(Event.END_DEAL, -1, 1, 0)]
    rejects(blocked, rules(), "not blocked")
    # a capped deal ends its match at once, without a winner or eliminations (choice 28)
    match = capped + [(Event.END_MATCH, -1, 1, 0)]
    referee(np.array(match), rules(match="elimination:5"), turn_cap=2)
    rejects(capped + [(Event.NEW_DEAL, 0, 1, 1)], rules(match="deals:3"), "match is over",
            turn_cap=2)
    rejects(capped + [(Event.ELIMINATED, 0, 0, 0)] + match[-1:], rules(match="elimination:5"),
            "at once", turn_cap=2)


# ---------------------------------------------------------------------------------------------
# Random legal games through the referee's own state
# ---------------------------------------------------------------------------------------------

class SelfPlay:
    """Plays random legal moves, asking a referee GameState what is legal, and records them."""

    def __init__(self, rules_, seed, forget=0.1, turn_cap=400):
        self.rng = random.Random(seed)
        self.game = GameState(rules_, turn_cap=turn_cap)
        self.r = self.game.rules
        self.forget = forget
        self.turn_cap = turn_cap
        self.rows: list[tuple[int, int, int, int]] = []

    def emit(self, kind, seat=-1, a=0, b=0):
        row = (int(kind), seat, a, b)
        self.game.step(len(self.rows), row)
        self.rows.append(row)

    def random_talon_card(self):
        talon = self.game.deal.talon
        pick = self.rng.randrange(self.game.deal.talon_size)
        for c, n in enumerate(talon):
            if pick < n:
                return c
            pick -= n
        raise AssertionError("talon count broken")

    def draw(self, seat, cause):
        g = self.game
        if g.deal.talon_size == 0:
            if not g.can_reshuffle():
                return None
            self.emit(Event.RESHUFFLE, -1, len(g.deal.discard) - 1)
        c = self.random_talon_card()
        self.emit(Event.DRAW, seat, c, cause)
        return c

    def penalty(self, entries, cause):
        for seat, n in entries:
            for _ in range(n):
                if self.draw(seat, cause) is None:
                    return

    def match(self):
        g = self.game
        while True:
            self.deal()
            if g.rules.match_kind == "elimination" and g.end_reasons[-1] != 2:
                due = [s for s in range(g.P) if g.active[s] and g._out_by_total(s)]
                if len(due) < g.n_active:
                    for s in due:
                        self.emit(Event.ELIMINATED, s)
            g._close_deal_results()
            if g.match_over:
                self.emit(Event.END_MATCH, g.match_winner_expected, g.deals)
                return self.rows

    def deal(self):
        g, r, rng = self.game, self.r, self.rng
        dealer = g.P - 1 if g.dealer is None else g.next_active(g.dealer)
        forehand = g.next_active(dealer)
        self.emit(Event.NEW_DEAL, dealer, forehand, g.deals)
        for s in range(g.P):
            if g.active[s]:
                for _ in range(r.hand_size):
                    self.emit(Event.DEAL, s, self.random_talon_card())
        while True:
            c = self.random_talon_card()
            self.emit(Event.START, -1, c)
            if g._needs_bury(c) and any(g.deal.talon[t] and not g._needs_bury(t) for t in range(54)):
                self.emit(Event.BURY, -1, c)
                continue
            break
        g._resolve_start()
        if g.deal.start_namer is not None:
            self.emit(Event.NAME_SUIT, g.deal.start_namer, rng.randrange(4))
        if g.deal.queue_open:
            self.penalty([tuple(e) for e in g.deal.queue], 5)
        seat, quiet, turns = forehand, 0, 0
        while True:
            self.emit(Event.TURN, seat)
            turns += 1
            before = len(self.rows)
            if self.turn(seat) == "won":
                self.emit(Event.END_DEAL, seat, 0)
                break
            acted = any(row[0] in (Event.PLAY, Event.DRAW) for row in self.rows[before:])
            quiet = 0 if acted else quiet + 1
            if quiet >= g.n_active:
                self.emit(Event.END_DEAL, -1, 1)
                break
            if turns >= self.turn_cap:
                self.emit(Event.END_DEAL, -1, 2)
                break
            seat = g.next_active(seat, g.deal.direction)
        for s in range(g.P):
            if g.active[s]:
                value = sum(r.points[c] * n for c, n in g.deal.hands[s].items())
                self.emit(Event.SCORE, s, value, g.totals[s] + value)

    def turn(self, seat):
        g, r, rng = self.game, self.r, self.rng
        if g.deal.duty > 0:
            answers = sorted(legal_plays(g))
            if answers and (r.must_play or rng.random() < 0.7):
                result = self.play(seat, rng.choice(answers))
            else:
                cause = 2 if g.deal.duty_kind == "counter" else 3
                self.penalty([(seat, g.deal.duty)], cause)
                self.emit(Event.PASS, seat)
                return None
        else:
            result = self.move(seat, extra=False)
        if result != "won" and g.turn.forgot and g.deal.hand_sizes[seat]:
            self.penalty([(seat, r.call_penalty)], 4)
        return result

    def move(self, seat, extra):
        g, r, rng = self.game, self.r, self.rng
        legal = sorted(legal_plays(g))
        if legal and (r.must_play or rng.random() < 0.8):
            return self.play(seat, rng.choice(legal))
        drawn = 0
        while r.draw_limit == 0 or drawn < r.draw_limit:
            drawn += 1
            c = self.draw(seat, 0)
            if c is None:
                break
            if c in legal_plays(g):
                if r.must_play or rng.random() < 0.8:
                    return self.play(seat, c)
                if r.draw_limit == 0:
                    break
        if not extra or rng.random() < 0.5:
            self.emit(Event.PASS, seat)
        return None

    def play(self, seat, c):
        g, r, rng = self.game, self.r, self.rng
        self.emit(Event.PLAY, seat, c)
        if g.turn.call_due:
            self.emit(Event.CALL, seat, 0 if rng.random() < self.forget else 1)
        if g.phase == "won":
            return "won"
        if g.deal.queue_open:
            self.penalty([tuple(e) for e in g.deal.queue], 1)
        if g.turn.stack_rank is not None and rng.random() < 0.5:
            size = g.deal.hand_sizes[seat]
            rank = g.turn.stack_rank
            more = sorted(x for x in g.deal.hands[seat] if x < 52 and x // 4 == rank
                          and (size > 1 or may_go_out_with(x, r, g.deal.start_suit))
                          and not (x // 4 == 7 and r.same_player
                                   and not has_follow_up(g.deal.hands[seat], size - 1, r,
                                                         g.deal.start_suit)))
            if more:
                return self.play(seat, rng.choice(more))
        if g.turn.name_due:
            suit = rng.randrange(4)
            if g.turn.name_due == "eight" and r.same_player:
                size = g.deal.hand_sizes[seat]
                follow = sorted(f for f in g.deal.hands[seat] if f < 52 and f // 4 not in (0, 7)
                                or (f // 4 == 0 and r.ace_on_eight))
                follow = [f for f in follow if size > 1 or
                          (not (f // 4 == 0 and not r.out_on_special)
                           and (not r.last_card_start_suit or f % 4 == g.deal.start_suit))]
                f = rng.choice(follow)
                self.emit(Event.NAME_SUIT, seat, f % 4)
                return self.play(seat, f)
            self.emit(Event.NAME_SUIT, seat, suit)
            return None
        if g.turn.extra_turn_due:
            return self.move(seat, extra=True)
        return None


PRESET_LIKE = {
    "standard": dict(),
    "seed000": dict(eight_follow="same_player", start_eight="dealer_names",
                    start_ace="all_but_dealer_draw"),
    "seed002": dict(start_eight="forehand_names", start_ace="bury",
                    specials_only_must_draw=False, reshuffles=1, eliminate_at="pass"),
    "seed001": dict(stacking=True, scale="base", match="deals:5"),
    "stack8": dict(stacking=True, eight_follow="same_player", eight_on_eight=True,
                   ace_on_ace="allowed", two_draws_two=True, jokers=1, joker_effect="draw_two",
                   out_on_special=True, specials_only_must_draw=False, call_at=3),
    "wild": dict(must_play=False, stacking=True, jokers=2, joker_effect="draw_two",
                 two_draws_two=True,
                 ace_on_ace="counter", draw_limit=0, call_at=3, reshuffles=0,
                 eight_on_eight=True, ace_on_eight=True, out_on_special=True),
    "super": dict(jokers=1, joker_effect="super_eight", eight_on_ace=True,
                  ace_on_ace="allowed", ace_draw=2, last_card_start_suit=True, players=6),
}


@pytest.mark.parametrize("name", sorted(PRESET_LIKE))
def test_random_legal_matches_are_accepted(name):
    rules_ = Rules(**{"players": 4, "match": "elimination:60", **PRESET_LIKE[name]})
    assert rules_.match_kind in ("elimination", "deals")
    for seed in range(3):
        rows = SelfPlay(rules_, seed).match()
        summary = referee(np.array(rows, dtype=np.int32), rules_, turn_cap=400)
        assert summary["deals"] >= 1
        assert summary["turns"] == sum(1 for row in rows if row[0] == Event.TURN)


def test_deleting_any_play_draw_or_turn_is_caught():
    rules_ = Rules(players=3, match="single")
    rng = random.Random(7)
    for seed in range(4):
        rows = SelfPlay(rules_, seed).match()
        rows = [row for row in rows if row[0] != Event.END_MATCH]
        targets = [i for i, row in enumerate(rows)
                   if row[0] in (Event.PLAY, Event.DRAW, Event.TURN)]
        for i in rng.sample(targets, min(15, len(targets))):
            with pytest.raises(RefereeError):
                referee(np.array(rows[:i] + rows[i + 1:], dtype=np.int32), rules_)
