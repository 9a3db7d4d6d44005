"""Text and JSON forms of positions, with validation.

A position's dictionary form names cards the way :func:`~klondike_widget.cards.card_name` does
(``"Th"``) and is what saved games store::

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

from klondike_widget.engine.cards import SUIT_LETTERS, InvalidCardError, card_name, parse_card
from klondike_widget.engine.errors import InvalidStateError, is_whole, quote, quote_keys
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState

__all__ = ["build_position", "cards_from_names", "state_from_dict", "state_to_dict"]

_KEYS = ["columns", "face_down", "foundations", "rules", "stock", "waste"]
_KEY_SET = frozenset(_KEYS)


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The plain-JSON dictionary form of ``state`` (see the module docstring)."""
    return {
        "rules": state.rules.to_dict(),
        "columns": [[card_name(c) for c in col] for col in state.columns],
        "face_down": list(state.face_down),
        "stock": [card_name(c) for c in state.stock],
        "waste": [card_name(c) for c in state.waste],
        "foundations": dict(zip(SUIT_LETTERS, state.foundations, strict=False)),
    }


def cards_from_names(names: object, where: str) -> list[int]:
    """Parse a list of card names; raise :class:`InvalidStateError` naming ``where`` if bad.

    >>> cards_from_names(["Ah", "10s"], "stock")
    [26, 48]
    """
    if not isinstance(names, list):
        raise InvalidStateError(f"{where}: expected a list of cards, got {quote(names)}")
    try:
        return [parse_card(n) for n in names]
    except InvalidCardError as exc:
        raise InvalidStateError(f"{where}: {exc}") from None


def _int_list(value: object, length: int, where: str) -> list[int]:
    if not isinstance(value, list) or len(value) != length or not all(is_whole(v) for v in value):
        raise InvalidStateError(f"{where}: expected {length} whole numbers, got {quote(value)}")
    return value


def state_from_dict(data: object) -> GameState:
    """Inverse of :func:`state_to_dict`; raise :class:`InvalidStateError` on anything wrong."""
    if not isinstance(data, dict) or set(data) != _KEY_SET:
        # keys may be of mixed types (not sortable): sort their quotes instead
        got = quote_keys(data) if isinstance(data, dict) else type(data).__name__
        raise InvalidStateError(f"position: keys must be {_KEYS}, got {got}")
    try:
        rules = Rules.from_dict(data["rules"])
    except ValueError as exc:
        raise InvalidStateError(f"position: {exc}") from None
    columns = data["columns"]
    if not isinstance(columns, list) or len(columns) != 7:
        raise InvalidStateError("position: 'columns' must be a list of 7 columns")
    foundations = data["foundations"]
    if not isinstance(foundations, dict) or set(foundations) != set(SUIT_LETTERS):
        raise InvalidStateError("position: 'foundations' must map each of c, d, h, s to a height")
    heights = _int_list([foundations[s] for s in SUIT_LETTERS], 4, "foundations")
    return GameState(
        columns=[cards_from_names(col, f"column {i + 1}") for i, col in enumerate(columns)],
        face_down=_int_list(data["face_down"], 7, "face_down"),
        stock=cards_from_names(data["stock"], "stock"),
        waste=cards_from_names(data["waste"], "waste"),
        foundations=heights,
        rules=rules,
    )


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
