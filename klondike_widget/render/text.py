"""A position as text: stock, waste, foundations, the seven columns (face-down cards: ``##``)."""

from __future__ import annotations

from klondike_widget.engine.cards import SUIT_SYMBOLS, card_symbol
from klondike_widget.engine.state import GameState

__all__ = ["board_text"]


def board_text(state: GameState) -> str:
    """A readable text board: stock, waste, foundations, then the seven columns.

    Face-down cards show as ``##``.

    >>> from klondike_widget.engine.deals import deal
    >>> print(board_text(deal(1)).splitlines()[0])
    Stock 24 · Waste -- · Foundations ♣- ♦- ♥- ♠-
    """
    waste = " ".join(card_symbol(c) for c in state.waste[-3:]) or "--"
    found = " ".join(
        SUIT_SYMBOLS[s]
        + (card_symbol(top)[:-1] if (top := state.foundation_top(s)) is not None else "-")
        for s in range(4)
    )
    lines = [f"Stock {len(state.stock)} · Waste {waste} · Foundations {found}"]
    height = max((len(c) for c in state.columns), default=0)
    lines.append("  ".join(f" {i + 1} " for i in range(7)))
    for row in range(height):
        cells = []
        for col, down in zip(state.columns, state.face_down, strict=True):
            if row >= len(col):
                cells.append("   ")
            elif row < down:
                cells.append(" ##")
            else:
                cells.append(card_symbol(col[row]).rjust(3))
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)
