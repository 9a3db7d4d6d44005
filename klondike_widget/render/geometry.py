"""Where everything sits in the SVG pictures of :mod:`klondike_widget.render.svg`.

User units of the SVG's viewBox (``scale`` multiplies the displayed size): card and pile sizes,
the slots of the top row, the y of every card of a column, and the boxes a move goes from and to.

>>> from klondike_widget.engine.deals import deal
>>> slot_x(0) == MARGIN, board_height(deal(1)) >= TABLEAU_Y + MIN_TABLEAU_H
(True, True)
"""

from __future__ import annotations

from typing import NamedTuple

from klondike_widget.engine.cards import CARD_SUIT
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.state import NUM_COLUMNS, GameState

# -- geometry (user units of the SVG's viewBox; ``scale`` multiplies the displayed size) ---------

CARD_W = 72.0
CARD_H = 100.0
CARD_RADIUS = 6.0
PILE_GAP = 12.0  # horizontal gap between piles
MARGIN = 14.0  # felt border around the piles
LABEL_GAP = 24.0  # space between the top row and the columns (column numbers live here)
DOWN_DY = 9.0  # vertical step after a face-down card in a column
UP_DY = 25.0  # vertical step after a face-up card (shows its corner index)
WASTE_DX = 22.0  # horizontal step of the draw-3 waste fan
STOCK_LAYER_D = 2.0  # offset of the cards under the stock's top card
#: The tableau area is at least this tall, so early positions all get the same picture height.
MIN_TABLEAU_H = CARD_H + 6 * DOWN_DY + 3 * UP_DY
FELT_RADIUS = 14.0
BOARD_W = 2 * MARGIN + NUM_COLUMNS * CARD_W + (NUM_COLUMNS - 1) * PILE_GAP
TOP_Y = MARGIN
TABLEAU_Y = MARGIN + CARD_H + LABEL_GAP
#: Pile slots in the top row: stock, waste (its fan reaches into slot 2), foundations c d h s.
STOCK_SLOT, WASTE_SLOT, FOUNDATION_SLOT0 = 0, 1, 3


class Box(NamedTuple):
    x: float
    y: float
    w: float = CARD_W
    h: float = CARD_H

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


def slot_x(slot: int) -> float:
    return MARGIN + slot * (CARD_W + PILE_GAP)


def column_ys(state: GameState, column: int) -> list[float]:
    """The y of every card of ``column``, bottom to top."""
    ys: list[float] = []
    y = TABLEAU_Y
    down = state.face_down[column]
    for i in range(len(state.columns[column])):
        ys.append(y)
        y += DOWN_DY if i < down else UP_DY
    return ys


def board_height(state: GameState) -> float:
    tallest = max(
        (ys[-1] + CARD_H - TABLEAU_Y for c in range(NUM_COLUMNS) if (ys := column_ys(state, c))),
        default=0.0,
    )
    return TABLEAU_Y + max(tallest, MIN_TABLEAU_H) + MARGIN


def waste_shown(state: GameState) -> list[tuple[int, float]]:
    """The visible waste cards with their x, bottom to top (up to 3 fanned in draw 3)."""
    shown = state.waste[-3:] if state.rules.draw == 3 else state.waste[-1:]
    return [(card, slot_x(WASTE_SLOT) + i * WASTE_DX) for i, card in enumerate(shown)]


def stock_box() -> Box:
    return Box(slot_x(STOCK_SLOT), TOP_Y)


def waste_area(state: GameState) -> Box:
    fan = 2 * WASTE_DX if state.rules.draw == 3 else 0.0
    return Box(slot_x(WASTE_SLOT), TOP_Y, CARD_W + fan)


def foundation_box(suit: int) -> Box:
    return Box(slot_x(FOUNDATION_SLOT0 + suit), TOP_Y)


def column_target(state: GameState, column: int) -> Box:
    ys = column_ys(state, column)
    return Box(slot_x(column), ys[-1] if ys else TABLEAU_Y)


def move_boxes(state: GameState, move: Move) -> tuple[Box, Box]:
    """Where ``move`` starts (the card or cards that move) and where it lands."""
    kind = move.kind
    if kind is MoveKind.DRAW:
        if not state.stock:
            raise ValueError(f"cannot highlight {move}: the stock is empty")
        return stock_box(), waste_area(state)
    if kind is MoveKind.RECYCLE:
        if not state.waste:
            raise ValueError(f"cannot highlight {move}: the waste is empty")
        return waste_area(state), stock_box()
    if kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.WASTE_TO_FOUNDATION):
        if not state.waste:
            raise ValueError(f"cannot highlight {move}: the waste is empty")
        source = Box(waste_shown(state)[-1][1], TOP_Y)
        if kind is MoveKind.WASTE_TO_FOUNDATION:
            return source, foundation_box(CARD_SUIT[state.waste[-1]])
        return source, column_target(state, move.target)
    if kind is MoveKind.FOUNDATION_TO_COLUMN:
        if not state.foundations[move.source]:
            raise ValueError(f"cannot highlight {move}: that foundation is empty")
        return foundation_box(move.source), column_target(state, move.target)
    # COLUMN_TO_FOUNDATION or COLUMN_TO_COLUMN
    column = move.source
    up = len(state.face_up(column))
    if move.count > up:
        raise ValueError(f"cannot highlight {move}: column {column + 1} has {up} face-up card(s)")
    ys = column_ys(state, column)
    first = ys[-move.count]
    source = Box(slot_x(column), first, CARD_W, ys[-1] + CARD_H - first)
    if kind is MoveKind.COLUMN_TO_FOUNDATION:
        return source, foundation_box(CARD_SUIT[state.columns[column][-1]])
    return source, column_target(state, move.target)
