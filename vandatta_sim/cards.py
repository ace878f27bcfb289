"""Card encoding, names and scoring scales.

A card *type* is one small integer: ``rank * 4 + suit`` for the 52 cards of a deck, with ranks
``0=A, 1=2, …, 7=8, …, 9=10, 10=J, 11=Q, 12=K`` and suits ``0=♣, 1=♦, 2=♥, 3=♠``; the jokers
are types 52 and 53. With two decks every type occurs twice and copies are indistinguishable,
so a hand is a multiset of types (the engine keeps it as two bitmasks: "at least one copy" and
"two copies").
"""

from __future__ import annotations

from collections.abc import Mapping

N_SUITS = 4
N_RANKS = 13
N_DECK_TYPES = 52
N_TYPES = 54  # 52 cards + up to two joker types per deck
JOKER_TYPES = (52, 53)

SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
ACE = 0
EIGHT = 7
TWO = 1


def rank_of(card: int) -> int:
    return card // N_SUITS


def suit_of(card: int) -> int:
    return card % N_SUITS


def make_card(rank: int, suit: int) -> int:
    return rank * N_SUITS + suit


def is_joker(card: int) -> bool:
    return card >= N_DECK_TYPES


def is_special(card: int) -> bool:
    """Eights, aces and jokers are special; every other card is ordinary."""
    return is_joker(card) or rank_of(card) in (ACE, EIGHT)


def card_name(card: int) -> str:
    """``♠Q`` style name of a card type; ``JK`` for a joker."""
    if is_joker(card):
        return "JK"
    return SUIT_SYMBOLS[suit_of(card)] + RANK_NAMES[rank_of(card)]


_SUIT_LETTERS = {"C": 0, "D": 1, "H": 2, "S": 3}


def parse_card(text: str) -> int:
    """Inverse of :func:`card_name`; also accepts ASCII suit letters (``SQ``, ``H10``)."""
    text = text.strip()
    if text.upper() in ("JK", "JOKER"):
        return JOKER_TYPES[0]
    head, rank = text[0], text[1:].upper()
    suit = SUIT_SYMBOLS.index(head) if head in SUIT_SYMBOLS else _SUIT_LETTERS.get(head.upper())
    if suit is None or rank not in RANK_NAMES:
        raise ValueError(f"not a card: {text!r} (examples: ♠Q, H10, C8, JK)")
    return make_card(RANK_NAMES.index(rank), suit)


# Points per rank A, 2, …, 10, J, Q, K, then the joker (which scores as an eight).
SCALES: dict[str, tuple[int, ...]] = {
    # 001: eight 10, ace 5, every other card 1 (also 002's children's scale)
    "base": (5, 1, 1, 1, 1, 1, 1, 10, 1, 1, 1, 1, 1, 10),
    # 000, 002, 001 variant: eight 25, ace 15, 10/J/Q/K 10, others 5
    "hundred": (15, 5, 5, 5, 5, 5, 5, 25, 5, 10, 10, 10, 10, 25),
    # Hoyle's Crazy Eights: eight 50, K/Q/J/10 10, ace 1, others pip value
    "crazy_eights": (1, 2, 3, 4, 5, 6, 7, 50, 9, 10, 10, 10, 10, 50),
}
SCALE_KEYS = RANK_NAMES + ("joker",)


def custom_scale(table: Mapping[str, object]) -> tuple[int, ...]:
    """A custom scale from a table of rank name → points.

    ``base`` (optional) names a scale to start from; without it every rank must be given.
    ``joker`` defaults to the eight's value.
    """
    table = dict(table)
    base_name = table.pop("base", None)
    if base_name is not None and (not isinstance(base_name, str) or base_name not in SCALES):
        raise ValueError(f"scale.base = {base_name!r} is not allowed; allowed: {', '.join(SCALES)}")
    unknown = sorted(set(table) - set(SCALE_KEYS))
    if unknown:
        raise ValueError(f"scale: unknown rank {unknown[0]!r}; allowed: {', '.join(SCALE_KEYS)}, base")
    points = list(SCALES[base_name]) if base_name else [None] * 14
    for key, value in table.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
            raise ValueError(f"scale.{key} = {value!r} is not allowed; allowed: an integer 0–1000")
        points[SCALE_KEYS.index(key)] = value
    if "joker" not in table:  # docs/spec.md: a joker scores like an eight
        points[13] = points[EIGHT]
    missing = [SCALE_KEYS[i] for i, p in enumerate(points) if p is None]
    if missing:
        raise ValueError(f"scale: no points for {', '.join(missing)}; give every rank or a base scale")
    return tuple(points)


def scale_points(scale: str | tuple[int, ...]) -> numpy.ndarray:  # noqa: F821
    """Points of every card type (length 54) under a named scale or a 14-tuple of rank points."""
    import numpy as np  # here only: the rules and the command line's help need no numpy

    per_rank = SCALES[scale] if isinstance(scale, str) else tuple(scale)
    points = np.empty(N_TYPES, dtype=np.int64)
    for card in range(N_DECK_TYPES):
        points[card] = per_rank[rank_of(card)]
    points[N_DECK_TYPES:] = per_rank[13]
    return points
