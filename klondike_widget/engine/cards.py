"""Cards as small integers.

A card is an ``int`` from 0 to 51: ``card = suit * 13 + rank`` where ``rank`` is 0 for the Ace
up to 12 for the King and ``suit`` is 0 clubs, 1 diamonds, 2 hearts, 3 spades (the order
Solvitaire uses). Clubs and spades are black, diamonds and hearts red. Every property a hot path
needs is a table computed once at import, indexed by the card.

Examples
--------
>>> c = parse_card("9h")
>>> c, card_name(c), card_symbol(c)
(34, '9h', '9♥')
>>> rank_of(c) + 1, SUIT_LETTERS[suit_of(c)], is_red(c)
(9, 'h', True)
>>> parse_card("10♠") == parse_card("Ts") == parse_card("TS")
True
>>> can_stack(parse_card("9h"), parse_card("Ts")), can_stack(parse_card("9h"), parse_card("Td"))
(True, False)
"""

from __future__ import annotations

from klondike_widget.engine.errors import is_whole, quote

__all__ = [
    "ACE",
    "CARD_RANK",
    "CARD_RED",
    "CARD_SUIT",
    "CLUBS",
    "DIAMONDS",
    "HEARTS",
    "KING",
    "NUM_CARDS",
    "RANKS",
    "RANK_LETTERS",
    "SPADES",
    "STACKS_ON",
    "SUIT_LETTERS",
    "SUIT_SYMBOLS",
    "InvalidCardError",
    "can_stack",
    "card_name",
    "card_symbol",
    "colour_of",
    "is_red",
    "make_card",
    "parse_card",
    "rank_of",
    "suit_of",
]

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
ACE, KING = 0, 12
RANKS = 13
NUM_CARDS = 52
SUIT_LETTERS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_LETTERS = "A23456789TJQK"

_RED_SUITS = frozenset({DIAMONDS, HEARTS})


class InvalidCardError(ValueError):
    """Raised for text that does not name a card."""


def make_card(rank: int, suit: int) -> int:
    """Return the card of ``rank`` (0 = Ace .. 12 = King) and ``suit`` (0..3).

    >>> card_name(make_card(KING, SPADES))
    'Ks'
    """
    if not (is_whole(rank) and is_whole(suit) and 0 <= rank < RANKS and 0 <= suit < 4):
        raise InvalidCardError(
            f"no card with rank index {quote(rank)} and suit index {quote(suit)}"
        )
    return suit * RANKS + rank


CARD_RANK: tuple[int, ...] = tuple(c % RANKS for c in range(NUM_CARDS))
CARD_SUIT: tuple[int, ...] = tuple(c // RANKS for c in range(NUM_CARDS))
CARD_RED: tuple[bool, ...] = tuple(CARD_SUIT[c] in _RED_SUITS for c in range(NUM_CARDS))
#: ``STACKS_ON[c]`` is the set of cards ``c`` may be placed on in a column.
STACKS_ON: tuple[frozenset[int], ...] = tuple(
    frozenset(
        t
        for t in range(NUM_CARDS)
        if CARD_RANK[t] == CARD_RANK[c] + 1 and CARD_RED[t] != CARD_RED[c]
    )
    for c in range(NUM_CARDS)
)


def rank_of(card: int) -> int:
    """Rank index of ``card``: 0 for the Ace up to 12 for the King.

    >>> rank_of(parse_card("Qd"))
    11
    """
    return CARD_RANK[card]


def suit_of(card: int) -> int:
    """Suit index of ``card``: 0 clubs, 1 diamonds, 2 hearts, 3 spades.

    >>> suit_of(parse_card("Qd"))
    1
    """
    return CARD_SUIT[card]


def is_red(card: int) -> bool:
    """True for diamonds and hearts.

    >>> is_red(parse_card("Ah")), is_red(parse_card("As"))
    (True, False)
    """
    return CARD_RED[card]


def colour_of(card: int) -> str:
    """``"red"`` or ``"black"``.

    >>> colour_of(parse_card("2c"))
    'black'
    """
    return "red" if CARD_RED[card] else "black"


def can_stack(card: int, onto: int) -> bool:
    """True if ``card`` may lie on ``onto`` in a column (one rank lower, other colour).

    >>> can_stack(parse_card("Qh"), parse_card("Kc"))
    True
    """
    return onto in STACKS_ON[card]


def card_name(card: int) -> str:
    """Short ASCII name: rank letter (``T`` for ten) and lower-case suit letter.

    >>> card_name(0), card_name(51)
    ('Ac', 'Ks')
    """
    _check(card)
    return RANK_LETTERS[CARD_RANK[card]] + SUIT_LETTERS[CARD_SUIT[card]]


def card_symbol(card: int) -> str:
    """Name with a Unicode suit symbol and ``10`` for ten.

    >>> card_symbol(parse_card("Th"))
    '10♥'
    """
    _check(card)
    rank = CARD_RANK[card]
    return ("10" if rank == 9 else RANK_LETTERS[rank]) + SUIT_SYMBOLS[CARD_SUIT[card]]


def _check(card: object) -> None:
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < NUM_CARDS:
        raise InvalidCardError(f"not a card: {quote(card)} (cards are ints 0..51)")


_SUIT_BY_TEXT = {ch: i for i, ch in enumerate(SUIT_LETTERS)}
_SUIT_BY_TEXT.update({ch: i for i, ch in enumerate(SUIT_SYMBOLS)})
_SUIT_BY_TEXT.update({"♧": 0, "♢": 1, "♡": 2, "♤": 3})
_RANK_BY_TEXT = {ch: i for i, ch in enumerate(RANK_LETTERS)}
_RANK_BY_TEXT.update({"10": 9, "1": 0})


def parse_card(text: str) -> int:
    """Parse a card name such as ``"9h"``, ``"Th"``, ``"10H"``, ``"T♥"`` or ``"10♥"``.

    Case does not matter. Raises :class:`InvalidCardError` for anything else.

    >>> card_name(parse_card(" kS "))
    'Ks'
    >>> parse_card("11h")
    Traceback (most recent call last):
    ...
    klondike_widget.engine.cards.InvalidCardError: not a card: '11h' (try '9h', 'Th', '10♥')
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"not a card: {quote(text)} (expected text such as '9h')")
    raw = text.strip() if len(text) <= 16 else ""  # a card name is at most "10♥" and spaces
    if len(raw) >= 2:
        rank = _RANK_BY_TEXT.get(raw[:-1].upper())
        suit = _SUIT_BY_TEXT.get(raw[-1].lower())
        if rank is not None and suit is not None:
            return suit * RANKS + rank
    raise InvalidCardError(f"not a card: {quote(text)} (try '9h', 'Th', '10♥')")
