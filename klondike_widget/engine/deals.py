"""Deals: numbered deals that never change, random deals, and Solvitaire's deal JSON.

The numbered deals and their algorithm (fixed forever) are in :mod:`klondike_widget.engine.shuffle`
and are re-exported here; this module adds Solvitaire's deal format.

Examples
--------
>>> record = to_solvitaire(deal(1))
>>> sorted(record), len(record["tableau piles"]), record["stock"][:2]
(['stock', 'tableau piles'], 7, ['4H', 'KH'])
>>> state_from_solvitaire(record) == deal(1)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from klondike_widget.engine.cards import CARD_RANK, CARD_SUIT, RANKS
from klondike_widget.engine.errors import InvalidStateError, quote, quote_keys
from klondike_widget.engine.game import Game
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.shuffle import (
    MAX_DEAL_NUMBER,
    check_deal_number,
    deal,
    random_deal_number,
    shuffled_deck,
)
from klondike_widget.engine.state import NUM_COLUMNS, GameState

__all__ = [
    "MAX_DEAL_NUMBER",
    "deal",
    "from_solvitaire",
    "random_deal_number",
    "shuffled_deck",
    "state_from_solvitaire",
    "to_solvitaire",
]

#: The most deals :func:`parse_deal_numbers` expands a text to (a range to 2**64 would never end).
MAX_STUDY_DEALS = 10_000_000
# -- Solvitaire's deal JSON ------------------------------------------------------------------------

_SV_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
_SV_SUITS = "CDHS"


def _sv_card(text: object, where: str) -> tuple[int, bool]:
    """Parse a Solvitaire card: rank then suit; an upper-case suit means face up."""
    if not isinstance(text, str) or not 2 <= len(text) <= 3:
        raise InvalidStateError(f"{where}: not a Solvitaire card: {quote(text)}")
    rank_text, suit_char = text[:-1].upper(), text[-1]
    if rank_text not in _SV_RANKS or suit_char.upper() not in _SV_SUITS:
        raise InvalidStateError(f"{where}: not a Solvitaire card: {quote(text)} (e.g. '10S', '4c')")
    card = _SV_SUITS.index(suit_char.upper()) * RANKS + _SV_RANKS.index(rank_text)
    return card, suit_char.isupper()


def _sv_face_up(text: object, where: str) -> int:
    """A card that can only lie face up (stock, waste and foundations are written upper-case)."""
    card, up = _sv_card(text, where)
    if not up:
        raise InvalidStateError(
            f"{where}: {quote(text)} is written face down (lower-case suit); only tableau "
            "piles hold face-down cards"
        )
    return card


def _sv_name(card: int, face_up: bool = True) -> str:
    suit = _SV_SUITS[CARD_SUIT[card]]
    return _SV_RANKS[CARD_RANK[card]] + (suit if face_up else suit.lower())


def _sv_list(data: Mapping[str, Any], key: str, required: bool) -> list[Any]:
    if key not in data:
        if required:
            raise InvalidStateError(f"Solvitaire deal: missing {key!r}")
        return []
    value = data[key]
    if not isinstance(value, list):
        raise InvalidStateError(f"Solvitaire deal: {key!r} must be a list")
    return value


def state_from_solvitaire(data: Mapping[str, Any], rules: Rules | None = None) -> GameState:
    """A position from Solvitaire's deal JSON (format in ``shared/reference/README.md``).

    >>> s = state_from_solvitaire({"tableau piles": [["KS"], [], [], [], [], [], []],
    ...     "stock": [], "foundations": [c for s in "CDHS" for c in
    ...     [r + s for r in ["A","2","3","4","5","6","7","8","9","10","J","Q","K"]]
    ...     if c != "KS"]})
    >>> s.foundations
    (13, 13, 13, 12)
    """
    if not isinstance(data, Mapping):
        raise InvalidStateError("Solvitaire deal: expected a JSON object")
    unknown = set(data) - {"tableau piles", "stock", "waste", "foundations"}
    if unknown:
        raise InvalidStateError(f"Solvitaire deal: unknown keys {quote_keys(unknown)}")
    piles = _sv_list(data, "tableau piles", True)
    if len(piles) != NUM_COLUMNS:
        raise InvalidStateError(f"Solvitaire deal: {len(piles)} tableau piles, expected 7")
    columns: list[list[int]] = []
    face_down: list[int] = []
    for i, pile in enumerate(piles):
        if not isinstance(pile, list):
            raise InvalidStateError(f"Solvitaire deal: tableau pile {i + 1} must be a list")
        cards: list[int] = []
        down = 0
        for card_text in pile:
            card, up = _sv_card(card_text, f"tableau pile {i + 1}")
            if not up:
                if down != len(cards):
                    raise InvalidStateError(
                        f"tableau pile {i + 1}: face-down {card_text} lies above a face-up card"
                    )
                down += 1
            cards.append(card)
        if cards and down == len(cards):
            raise InvalidStateError(f"tableau pile {i + 1}: its top card must be face up")
        columns.append(cards)
        face_down.append(down)
    stock = [_sv_face_up(c, "stock") for c in _sv_list(data, "stock", True)]
    waste = [_sv_face_up(c, "waste") for c in _sv_list(data, "waste", False)]
    heights = [0, 0, 0, 0]
    for card_text in _sv_list(data, "foundations", False):
        card = _sv_face_up(card_text, "foundations")
        suit = CARD_SUIT[card]
        if CARD_RANK[card] != heights[suit]:
            raise InvalidStateError(
                f"foundations: {card_text} out of order (the {_SV_SUITS[suit]} foundation "
                f"holds {heights[suit]} cards)"
            )
        heights[suit] += 1
    return GameState(columns, face_down, stock, waste, heights, rules or Rules())


def from_solvitaire(
    data: Mapping[str, Any], draw: int = 1, foundation_to_tableau: bool = True
) -> Game:
    """A :class:`~klondike_widget.engine.game.Game` starting at a position of Solvitaire's JSON.

    >>> import json
    >>> ref = json.loads('{"tableau piles": [["9D"], ["4c", "AS"], ["Qd", "10d", "JC"], '
    ...   '["9s", "Js", "8s", "6D"], ["6s", "8h", "5h", "8d", "JH"], '
    ...   '["3d", "3c", "8c", "7h", "9h", "AH"], ["2h", "5d", "Kd", "7s", "2c", "Kh", "JD"]], '
    ...   '"stock": ["6H", "KS", "10C", "QH", "AC", "2S", "4H", "QC", "QS", "3S", "AD", "5C", '
    ...   '"2D", "4D", "KC", "7C", "4S", "9C", "5S", "7D", "10H", "3H", "6C", "10S"]}')
    >>> g = from_solvitaire(ref, draw=3)
    >>> g.rules.draw, to_solvitaire(g.state) == ref
    (3, True)
    """
    rules = Rules(draw=draw, foundation_to_tableau=foundation_to_tableau)
    return Game(state_from_solvitaire(data, rules))


def to_solvitaire(state: GameState) -> dict[str, Any]:
    """Solvitaire's deal JSON for ``state`` (``waste`` and ``foundations`` only when non-empty).

    >>> to_solvitaire(deal(1))["tableau piles"][1]
    ['7s', 'JH']
    """
    out: dict[str, Any] = {
        "tableau piles": [
            [_sv_name(c, i >= down) for i, c in enumerate(col)]
            for col, down in zip(state.columns, state.face_down, strict=False)
        ],
        "stock": [_sv_name(c) for c in state.stock],
    }
    if state.waste:
        out["waste"] = [_sv_name(c) for c in state.waste]
    if any(state.foundations):
        out["foundations"] = [
            _sv_name(suit * RANKS + r) for suit in range(4) for r in range(state.foundations[suit])
        ]
    return out


def parse_deal_numbers(text: str) -> list[int]:
    """Parse ``"1-100,250,300-310"`` into a sorted list of distinct deal numbers.

    >>> parse_deal_numbers("3-5, 1,4")
    [1, 3, 4, 5]
    """
    if not isinstance(text, str):
        raise ValueError(f"deal numbers are text such as '1-2000,5000', not {quote(text)}")
    numbers: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo_text, sep, hi_text = part.partition("-")
        try:
            lo = _decimal(lo_text)
            hi = _decimal(hi_text) if sep else lo
        except ValueError:
            raise ValueError(
                f"not a deal number or range: {quote(part)} (e.g. '1-2000,5000')"
            ) from None
        if hi < lo:
            raise ValueError(f"empty deal range: {quote(part)}")
        numbers.update(check_deal_number(n) for n in (lo, hi))
        if hi - lo >= MAX_STUDY_DEALS or len(numbers) + (hi - lo) > MAX_STUDY_DEALS:
            raise ValueError(f"more than {MAX_STUDY_DEALS} deals in {quote(text)}")
        numbers.update(range(lo, hi + 1))
    if not numbers:
        raise ValueError(f"no deal numbers in {quote(text)}")
    return sorted(numbers)


def _decimal(text: str) -> int:
    """Plain ASCII digits only: ``int()`` would also take ``"1_000"``, ``"+5"`` or ``"٣"``."""
    digits = text.strip()
    if not (0 < len(digits) <= 20 and digits.isascii() and digits.isdigit()):
        raise ValueError(digits)
    return int(digits)
