"""Hand-made positions for the scoring, one-click and statistics tests."""

from __future__ import annotations

from collections.abc import Sequence

from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState


def card(text: str) -> int:
    """``"Qh"`` -> the card number (suits c d h s, ranks A 2..9 T J Q K)."""
    rank = "A23456789TJQK".index(text[:-1])
    return "cdhs".index(text[-1]) * 13 + rank


def position(
    columns: Sequence[Sequence[str]],
    face_down: Sequence[int] = (0,) * 7,
    *,
    waste: Sequence[str] = (),
    foundations: Sequence[int] = (0, 0, 0, 0),
    draw: int = 1,
    rest: str = "stock",
) -> GameState:
    """A valid position: the cards not placed go to the stock (or under the waste)."""
    cols = [[card(c) for c in col] for col in columns] + [[]] * (7 - len(columns))
    placed = {c for col in cols for c in col} | {card(c) for c in waste}
    placed |= {suit * 13 + r for suit in range(4) for r in range(foundations[suit])}
    others = [c for c in range(52) if c not in placed]
    wa = [card(c) for c in waste]
    stock: list[int] = []
    if rest == "stock":
        stock = others
    else:
        wa = others + wa
    fd = list(face_down) + [0] * (7 - len(face_down))
    return GameState(cols, fd, stock, wa, foundations, Rules(draw=draw))
