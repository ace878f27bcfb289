"""The engine's state layout and codes: limits, the offsets of the rule, constant and state
vectors, the rules' and policies' codes and option bits, card masks, event codes.

No numba here: ``simulate`` writes the vectors by these offsets, and the tests and docs read
them, without importing a compiler. Every offset is built from ``MAX_SEATS``, ``TALON_SIZE``
and ``N_TYPES``. The kernels freeze these numbers in when they compile; the engine's cache stamp
covers this file, so an edit here recompiles them (see ``_numba.stamp_kernels_with_sources``).
"""

from __future__ import annotations

import numpy as np

from ..cards import (
    ACE, EIGHT, JOKER_TYPES, N_DECK_TYPES, N_RANKS, N_SUITS, N_TYPES, TWO, make_card)
from ..trace import DRAW_CAUSES, END_REASONS, Event

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

# --- the constant vector C: rules, scale points, seat policies, forget thresholds, weights ----
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
# The step (vandatta_sim.step): 0 in every batch run; in a game played to its next decision,
# 1 + the number of answers the external seats have given so far, which follow at C_ANSWERS
# (beyond C_SIZE: only the step's constants have room for them).
C_STEP = C_SCRIPT + TALON_SIZE
C_SIZE = C_STEP + 1
C_ANSWERS = C_SIZE

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
# The public bookkeeping (worlds.py; kept by real games only, read by a search seat's worlds,
# never by a playout or a policy): per position, what its failed plays have shown about its
# hand. "At least G_STRONG_N cards avoid the card types of mask G_STRONG, and at least G_WIDE_N
# (of which those) avoid G_WIDE" (G_STRONG includes G_WIDE). G_RESHUFFLED: per card type, its
# copies in the talon as rebuilt at the last reshuffle (valid where S_RESHUFFLES > 0).
G_STRONG = G_PLAY_SIZE
G_STRONG_N = G_STRONG + MAX_SEATS
G_WIDE = G_STRONG_N + MAX_SEATS
G_WIDE_N = G_WIDE + MAX_SEATS
G_RESHUFFLED = G_WIDE_N + MAX_SEATS
# For beliefs=weighted, per position: its last CHOICES_KEPT moves from the hand as its policy
# made them since it last drew (G_CHOICES_N of them, oldest first), each CHOICE_FIELDS numbers:
# the card, the top it was played on (eff | suit << 2 | rank << 4 | joker << 8 | reshuffles
# << 9), its hand size then, the suits the next player lacked, the smallest opponent hand; the
# suit it named last (-1: none, or a draw since), the suits it might name (| the next player's
# lacks << 4) and its hand size after naming.
CHOICES_KEPT = 3
CHOICE_FIELDS = 5
G_CHOICES_N = G_RESHUFFLED + N_TYPES
G_CHOICES = G_CHOICES_N + MAX_SEATS
G_NAMED = G_CHOICES + MAX_SEATS * CHOICES_KEPT * CHOICE_FIELDS
G_NAMED_ALLOWED = G_NAMED + MAX_SEATS
G_NAMED_COUNT = G_NAMED_ALLOWED + MAX_SEATS
# The game feel's bookkeeping (feel.py; kept only by the kernels that record the feel measures,
# never by a playout or a policy, so it changes no game; docs/columns.md defines the measures).
# This deal, at the end of each turn so far: F_LEADER the seat holding strictly the fewest
# cards (-1: a tie), F_LAST_LEADER the last seat that did (-1: none yet), F_LEAD_SINCE the turn
# from which F_LEADER has done so without a break, F_WAS_LAST a bit per seat that held strictly
# the most cards, F_FIRST_MOVE 1 while the turn's first move is still to be counted, F_CHANGES
# the lead changes, F_BEHIND per position its largest lag behind the fewest cards. The match's standings after each deal
# (F_P_*: the same on penalty points, fewer leading, per seat). The game's real choices per
# seat: its turns counted, those with two or more options, and their options summed.
G_FEEL = G_NAMED_COUNT + MAX_SEATS
(F_LEADER, F_LAST_LEADER, F_LEAD_SINCE, F_WAS_LAST, F_FIRST_MOVE, F_CHANGES, F_P_LEADER,
 F_P_LAST_LEADER, F_P_WAS_LAST, F_P_CHANGES) = range(G_FEEL, G_FEEL + 10)
F_BEHIND = G_FEEL + 10
F_P_BEHIND = F_BEHIND + MAX_SEATS
F_SEAT_TURNS = F_P_BEHIND + MAX_SEATS
F_CHOICE_TURNS = F_SEAT_TURNS + MAX_SEATS
F_OPTIONS = F_CHOICE_TURNS + MAX_SEATS
G_SIZE = F_OPTIONS + MAX_SEATS
# The step's fields, beyond G_SIZE: only the step kernel's G has room for them (and only a
# game whose C says it is a step writes them). The decision the game stopped at (X_*: answers
# used so far, whether it stopped, the decision's kind (DK_*), position, options (a card-type
# mask, a suit mask, or CALL_OPTIONS), whether -1 (draw, take the duty, stop stacking) is an
# option, the seat's own policy's choice, the trace's length there), then a copy of G and H
# as they were at that decision (the game goes on past it with the suggestion, to the end of
# the turn, before the kernel returns). G_STEP_SIZE (below H_SIZE) is the step's G length.
(X_DONE, X_HALT, X_KIND, X_POS, X_OPTIONS, X_DECLINE, X_SUGGEST, X_NEV, X_BAD, X_TAKES,
 X_TAKEN, X_SIZE) = range(12)
# X_BAD: an answer was not one of its decision's options, or a scripted take was not in the
# talon (a world that cannot be: the game went on with the policy's choice / a random card).
# X_TAKES: the cards the step scripts (G_TAKES: the k-th card taken from the talon in the whole
# game, dealt, turned or drawn, is G_TAKES[k]; then random ones), X_TAKEN: how many were taken.
# A world that agrees with what one seat has seen is such a script (vandatta_sim.step).
MAX_TAKES = 8192
G_EXT = G_SIZE
G_SNAP = G_EXT + X_SIZE
G_SNAP_H = G_SNAP + G_SIZE

# --- the hand vector H (uint64): "at least one" masks, "two copies" masks, the random state ----
HI = MAX_SEATS  # H[p] is position p's "at least one" mask, H[HI + p] its "two copies" mask
H_RNG = 2 * MAX_SEATS
H_AHEAD = H_RNG + 1  # the stream's next output, computed one call ahead
H_SIZE = H_AHEAD + 1
G_TAKES = G_SNAP_H + H_SIZE
G_STEP_SIZE = G_TAKES + MAX_TAKES

# --- the decisions a seat makes (the step's kinds) -------------------------------------------
# move: play a legal card or draw (-1); duty: answer a pending counter-ace / two duty or take it
# (-1); stack: stack one more card of the rank just played or stop (-1); suit: the suit an eight
# (or a super-eight joker) names; follow: the card that follows one's own eight
# (eight_follow=same_player); call: say lappen (1) or forget (0) as a call falls due.
DECISION_KINDS = ("move", "duty", "stack", "suit", "follow", "call")
DK_MOVE, DK_DUTY, DK_STACK, DK_SUIT, DK_FOLLOW, DK_CALL = range(len(DECISION_KINDS))
CALL_OPTIONS = 3  # bit 0: forget the call, bit 1: say it

# What the effective top card asks for; EFF_ANY: a start joker kept because the talon held no
# card to turn instead (any card but a joker). S_TOP_JOKER: the top takes no joker (a joker on
# top, or a start special kept: a joker goes on ordinary cards only).
EFF_ORDINARY, EFF_ACE, EFF_EIGHT, EFF_ANY = 0, 1, 2, 3
#: what an observation calls each effect (vandatta_sim.step, the OpenSpiel adapter)
EFFECT_NAMES = ("ordinary", "ace", "eight", "any")

# --- policies: to add one, add its name here and its branches in policies.py -----------------
POLICIES = ("random", "greedy", "expert", "eight-dumper", "search", "ismcts")
POL_RANDOM, POL_GREEDY, POL_EXPERT, POL_EIGHT_DUMPER, POL_SEARCH, POL_ISMCTS = range(len(POLICIES))
# the searching kinds come last: a seat searches where ``pol & POL_KIND >= POL_SEARCH``
# A seat's policy code is its POL_* number plus its options' bits; a decision reads the kind as
# ``pol & POL_KIND`` and an option as ``pol & OPT_*``. The options each policy accepts: name ->
# allowed values (the first is the default), and the bits each value sets.
POL_KIND = 7
# a seat whose decisions the step hands out (vandatta_sim.step): its policy still makes each
# choice first (it is the suggestion, and it draws the random numbers a simulation would), then
# the answer given replaces it. Never set in a batch run.
OPT_EXTERNAL = 1 << 40
OPT_EIGHTS_DUMP = 8  # expert:eights=dump: the expert, except that it plays an eight when it may
# expert:eights=K: the expert, except that it plays an eight whenever one is legal once its hand
# has at most K cards (a timing study between hold and dump); K sits in these bits
EIGHTS_AT_SHIFT = 4
EIGHTS_AT_MAX = 15
# search: determinized Monte Carlo (see search.py). Its options: budget (worlds per option per
# decision), the rollout policy that plays every seat in the playouts, the objective (win the
# deal, fewest points, or win the match: its playouts then play the rest of the match), the
# margin, the beliefs its worlds are dealt with and how the budget is allocated.
SEARCH_ROLLOUT_SHIFT = 3  # 2 bits: the rollout policy's POL_* (random … eight-dumper)
ROLLOUT_KIND = 3
OPT_SEARCH_POINTS = 1 << 5  # objective=points
SEARCH_MARGIN_SHIFT = 6  # 2 bits: standard errors an option must lead the rollout move by
SEARCH_BUDGET_SHIFT = 8  # 16 bits
OPT_SEARCH_MATCH = 1 << 24  # objective=match
SEARCH_BELIEFS_SHIFT = 25  # 2 bits: the worlds' beliefs (BELIEFS_*, see worlds.py)
BELIEFS_PUBLIC, BELIEFS_LACKS, BELIEFS_ORACLE, BELIEFS_WEIGHTED = 0, 1, 2, 3
OPT_SEARCH_FLAT = 1 << 27  # alloc=flat: every option in every world (no racing)
SEARCH_BUDGETS = (32, 1, 2, 4, 8, 16, 64, 128, 256, 512, 1024, 2048, 4096)  # the first: default
# ismcts: information-set Monte Carlo tree search over the seat's own decisions (see search.py).
# It shares search's rollout, beliefs and budget bits (the budget: iterations per decision);
# its exploration constant c sits in search's margin bits, its own margin in ISMCTS_MARGIN_SHIFT.
ISMCTS_ITERATIONS = (256, 16, 32, 64, 128, 512, 1024, 2048, 4096, 8192, 16384)
ISMCTS_C = (0.7, 0.35, 1.0, 1.4)  # UCB1's exploration constant, by its code (the first: default)
# root=plain: the root's options by UCB1 on their own outcomes, the decision the most played;
# the default (paired) also plays the root's rollout move out in every iteration's world, on the
# same random stream, and weighs the root's options by their outcome minus that one's
OPT_ISMCTS_PLAIN_ROOT = 1 << 28
ISMCTS_MARGIN_SHIFT = 29  # 2 bits: the paired root's margin in standard errors
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
    "ismcts": {
        "iterations": {str(i): i << SEARCH_BUDGET_SHIFT for i in ISMCTS_ITERATIONS},
        "rollout": {name: POLICIES.index(name) << SEARCH_ROLLOUT_SHIFT
                    for name in ("expert", "greedy", "random", "eight-dumper")},
        "c": {str(c): i << SEARCH_MARGIN_SHIFT for i, c in enumerate(ISMCTS_C)},
        "root": {"paired": 0, "plain": OPT_ISMCTS_PLAIN_ROOT},
        # 1, not search's 2: at 256 iterations it won 1.6 pp more at 2 players (docs/policies.md)
        "margin": {str(z): z << ISMCTS_MARGIN_SHIFT for z in (1, 0, 2, 3)},
        "beliefs": {"public": BELIEFS_PUBLIC << SEARCH_BELIEFS_SHIFT,
                    "lacks": BELIEFS_LACKS << SEARCH_BELIEFS_SHIFT,
                    "oracle": BELIEFS_ORACLE << SEARCH_BELIEFS_SHIFT,
                    "weighted": BELIEFS_WEIGHTED << SEARCH_BELIEFS_SHIFT}},
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


# outcome columns of the per-game int32 table (simulate._run allocates it): O_LEAN_SIZE of them
# for a kernel that does not record the game feel, O_SIZE for one that does (the feel kernels:
# a 1-D int16 dummy trace or a 2-D trace; see feel.py). The feel columns, summed over the
# game's deals (docs/columns.md): lead changes in cards; over the deals someone won: those
# deals, their turns, the winner's largest lag in cards, the deals won from last place (a
# comeback), the turns from which the winner led to the end; the match's lead changes on
# points, its winner's largest lag on points and whether it was last on points at some deal's
# end; per seat: its turns, those with two or more options, their options summed.
(O_WINNER, O_TURNS, O_PLAYS, O_DRAWS, O_RESHUFFLES, O_BLOCKED, O_CAPPED, O_DEALS, O_SWAPPED,
 O_FIRST_WINNER, O_EVENTS, O_LEAN_SIZE) = range(12)
(O_LEAD_CHANGES, O_WON_DEALS, O_WON_TURNS, O_BEHIND, O_COMEBACKS, O_DECISIVE_TURNS,
 O_POINTS_LEAD_CHANGES, O_POINTS_BEHIND, O_POINTS_COMEBACK) = range(O_LEAN_SIZE, O_LEAN_SIZE + 9)
O_SEAT_TURNS = O_LEAN_SIZE + 9
O_CHOICE_TURNS = O_SEAT_TURNS + MAX_SEATS
O_OPTIONS = O_CHOICE_TURNS + MAX_SEATS
O_SIZE = O_OPTIONS + MAX_SEATS
