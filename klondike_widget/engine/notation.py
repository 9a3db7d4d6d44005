"""Text and JSON forms of positions, with validation.

A position's dictionary form names cards the way
:func:`~klondike_widget.engine.cards.card_name` does (``"Th"``) and is what saved games store::

    {"rules": {"draw": 1, "foundation_to_tableau": true},
     "columns": [["Ks"], ["4c", "Ah"], ...],        # bottom to top
     "face_down": [0, 1, ...],                        # face-down cards at each column's bottom
     "stock": [...], "waste": [...],                  # bottom to top
     "foundations": {"c": 0, "d": 0, "h": 0, "s": 0}} # heights

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> s = deal(5)
>>> state_from_dict(state_to_dict(s)) == s
True
>>> state_from_dict({"columns": []})
Traceback (most recent call last):
...
klondike_widget.engine.errors.InvalidStateError: position: keys must be ['columns', 'face_down', \
'foundations', 'rules', 'stock', 'waste'], got ['columns']
"""

from __future__ import annotations

from typing import Any

from klondike_widget.engine.cards import SUIT_LETTERS
from klondike_widget.engine.errors import InvalidStateError
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState, cards_from_names

__all__ = ["build_position", "cards_from_names", "state_from_dict", "state_to_dict"]


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The plain-JSON dictionary form of ``state`` (see the module docstring)."""
    return state.to_dict()


def state_from_dict(data: object) -> GameState:
    """Inverse of :func:`state_to_dict`; raise :class:`InvalidStateError` on anything wrong."""
    return GameState.from_dict(data)


def build_position(
    columns: list[str],
    *,
    waste: str = "",
    stock: str | None = None,
    foundations: dict[str, int] | None = None,
    rules: Rules | None = None,
) -> GameState:
    """Build a position from short text, for teaching and tests.

    Each column is a string of card names from bottom to top; a ``#`` before a card marks it
    face down (``"#4c #8d Kh Qs"``). Fewer than 7 columns leaves the rest empty. ``foundations``
    maps suit letters to heights. When ``stock`` is ``None`` every card not placed elsewhere goes
    to the stock (in card order, the lowest card on top); when ``stock`` is given, the cards not
    placed elsewhere go face down at the bottom of column 7 (out of play).

    >>> s = build_position(["#4c Kh Qs", "", "Jd"], waste="9h", foundations={"h": 3})
    >>> s.face_down[:3], [len(c) for c in s.columns[:3]], len(s.stock)
    ((1, 0, 0), [3, 0, 1], 44)
    """
    if len(columns) > 7:
        raise InvalidStateError(f"at most 7 columns, got {len(columns)}")
    cols: list[list[int]] = []
    downs: list[int] = []
    for i, text in enumerate([*columns, *[""] * (7 - len(columns))]):
        tokens = text.split()
        down = sum(1 for t in tokens if t.startswith("#"))
        if any(t.startswith("#") for t in tokens[down:]):
            raise InvalidStateError(f"column {i + 1}: face-down cards must be at the bottom")
        cols.append(cards_from_names([t.lstrip("#") for t in tokens], f"column {i + 1}"))
        downs.append(down)
    heights = [0, 0, 0, 0]
    for letter, height in (foundations or {}).items():
        if letter not in SUIT_LETTERS:
            raise InvalidStateError(f"foundations: unknown suit {letter!r} (use c, d, h, s)")
        heights[SUIT_LETTERS.index(letter)] = height
    waste_cards = cards_from_names(waste.split(), "waste")
    used = {c for col in cols for c in col} | set(waste_cards)
    on_foundations = {s * 13 + r for s in range(4) for r in range(heights[s])}
    if stock is None:
        stock_cards = sorted(set(range(52)) - used - on_foundations, reverse=True)
    else:
        stock_cards = cards_from_names(stock.split(), "stock")
        rest = sorted(set(range(52)) - used - on_foundations - set(stock_cards))
        if rest:
            if not cols[6]:
                raise InvalidStateError("column 7 must hold a face-up card to cover the rest")
            cols[6] = rest + cols[6]
            downs[6] += len(rest)
    return GameState(cols, downs, stock_cards, waste_cards, heights, rules or Rules())
