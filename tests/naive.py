"""Plain, obviously correct references that the tests check the simulator against.

Test-only: enumerations by hand, which the package itself does not need.
"""

from __future__ import annotations

from fractions import Fraction

from vandatta_sim import cards
from vandatta_sim.rules import Rules


def exact_first_turn_win(rules: Rules) -> Fraction:
    """Exact probability that förhand empties its hand on its first turn, for ``hand_size=1``.

    With one card each förhand wins at once iff its card is legal on the start card and may be
    the last card (and no start ace made it draw). It cannot win later in that turn: a legal
    drawn card must be played and leaves the dealt card in hand, and a drawn ace's extra turn
    needs a card of the ace's suit, which would have been legal at once. (Two settings open
    other paths, which this function does not count, so it refuses them:
    ``eight_follow=same_player``, where a drawn eight is followed up by the dealt card, and
    ``ace_on_ace=allowed``, where a drawn ace on a start ace gives an extra turn in a new
    suit.) Under ``must_play`` every policy plays its only legal card, so the value does not
    depend on the policies. The start card is uniform over the cards that are not buried
    (every order of the talon is equally likely and the bury loop treats all non-buried cards
    alike), whatever the other seats hold.

    Supported: one deck, no jokers, ``start_eight=bury``, ``must_play``, no stacking,
    ``eight_follow=next_player``, ``ace_on_ace`` forbidden or counter; the other parameters
    (``start_ace``, ``ace_draw``, ``eight_on_ace``, ``out_on_special``,
    ``specials_only_must_draw``, ``last_card_start_suit``) are honoured.
    """
    if rules.hand_size != 1 or rules.n_decks != 1 or rules.jokers or not rules.must_play \
            or rules.stacking or rules.start_eight != "bury" \
            or rules.eight_follow != "next_player" or rules.ace_on_ace == "allowed":
        raise ValueError("exact_first_turn_win needs hand_size=1, one deck, no jokers, "
                         "must_play, no stacking, start_eight=bury, "
                         "eight_follow=next_player and ace_on_ace forbidden or counter")
    ace, eight = cards.ACE, cards.EIGHT
    buried = {eight} | ({ace} if rules.start_ace == "bury" else set())
    dealer = rules.players - 1
    forehand_draws = rules.ace_draw > 0 and (
        rules.start_ace == "all_draw"
        or (rules.start_ace == "all_but_dealer_draw" and dealer != 0)
        or (rules.start_ace == "dealer_draws" and dealer == 0))

    def wins(c: int, s: int) -> bool:
        rc, sc, rs, ss = c // 4, c % 4, s // 4, s % 4
        special = rc in (ace, eight)
        if special and (rules.specials_only_must_draw or not rules.out_on_special):
            return False  # a hand of only specials cannot play; or specials may not end it
        if rules.last_card_start_suit and sc != ss:
            return False
        if rs == ace:  # a start ace (not buried)
            if forehand_draws:
                return False
            if rc == eight:
                return rules.eight_on_ace
            if rc == ace:
                return rules.ace_on_ace != "forbidden"
            return sc == ss
        if rc == eight:
            return True
        return sc == ss or rc == rs

    total = Fraction(0)
    for c in range(52):
        starts = [s for s in range(52) if s != c and s // 4 not in buried]
        total += Fraction(sum(wins(c, s) for s in starts), len(starts))
    return total / 52
