"""The SVG elements of the pictures: colours, suit shapes, cards, backs, slots, badges, arrows.

:class:`Painter` collects the elements of one picture (its ``prefix`` keeps element ids unique
when several pictures share a page); the ``draw_*`` functions draw a position's parts with it.
"""

from __future__ import annotations

import math
from html import escape

from klondike_widget.engine.cards import (
    CARD_RANK,
    CARD_RED,
    CARD_SUIT,
    RANK_LETTERS,
    card_name,
    card_symbol,
)
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.state import NUM_COLUMNS, GameState
from klondike_widget.render.geometry import (
    CARD_H,
    CARD_RADIUS,
    CARD_W,
    STOCK_LAYER_D,
    TABLEAU_Y,
    TOP_Y,
    UP_DY,
    WASTE_SLOT,
    Box,
    column_ys,
    foundation_box,
    move_boxes,
    slot_x,
    stock_box,
    waste_shown,
)

# -- colours and type --------------------------------------------------------------------------

FELT_CENTRE = "#2b8a55"
FELT_EDGE = "#17603a"
FELT_BORDER = "#0f4a2b"
CARD_FACE = "#fffdf8"
CARD_EDGE = "#7d7d7d"
FACE_TINT = "#f7efdc"  # inner frame of Jacks, Queens and Kings
RED = "#c8102e"
BLACK = "#1c1c1c"
BACK_BORDER = "#f5f5f0"
BACK_FILL = "#1f4f99"
BACK_LINE = "#7ea6e6"
SLOT_MARK = "#ffffff"  # empty-slot outlines and faint marks (with opacity)
BADGE_FILL = "#0b0b0b"
BADGE_TEXT = "#ffffff"
SOURCE_COLOUR = "#ffc928"  # highlighted move: the card(s) that move
TARGET_COLOUR = "#3fd0ff"  # highlighted move: where they go
ARROW_COLOUR = SOURCE_COLOUR
SHADOW = "#000000"
CAPTION_COLOUR = "#808080"  # frame captions of line_svg: readable on light and dark pages
FONT = "'DejaVu Sans', 'Segoe UI', 'Helvetica Neue', Arial, sans-serif"

# Suit shapes in a 100 x 100 box (clubs, diamonds, hearts, spades), drawn with the fill of the
# <use> that places them.
SUIT_SHAPES = (
    '<circle cx="50" cy="27" r="22"/><circle cx="26" cy="59" r="22"/>'
    '<circle cx="74" cy="59" r="22"/><path d="M50 36L32 62H68Z"/>'
    '<path d="M46.5 52C46.5 76 42 89 31 98H69C58 89 53.5 76 53.5 52Z"/>',
    '<path d="M50 2Q63 29 88 50Q63 71 50 98Q37 71 12 50Q37 29 50 2Z"/>',
    '<path d="M50 96C37 81 4 62 4 32C4 14 16 4 29 4C40 4 47 11 50 21C53 11 60 4 71 4C84 4 96 14 '
    '96 32C96 62 63 81 50 96Z"/>',
    '<path d="M50 2C61 22 96 40 96 64C96 80 84 88 72 88C63 88 57 84 53.5 78C54.5 88 58 94 67 98'
    'H33C42 94 45.5 88 46.5 78C43 84 37 88 28 88C16 88 4 80 4 64C4 40 39 22 50 2Z"/>',
)


def num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


_n = num  # short, for the long element templates below


class Painter:
    """Collects the SVG elements of one picture; ``prefix`` makes its ids unique."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.parts: list[str] = []

    def add(self, element: str) -> None:
        self.parts.append(element)

    def ref(self, name: str) -> str:
        return f"{self.prefix}-{name}"

    def suit(
        self, suit: int, cx: float, cy: float, size: float, fill: str, opacity: float = 1
    ) -> None:
        alpha = f' opacity="{_n(opacity)}"' if opacity < 1 else ""  # group opacity: no overlaps
        self.add(
            f'<use xlink:href="#{self.ref(f"suit{suit}")}" x="{_n(cx - size / 2)}" '
            f'y="{_n(cy - size / 2)}" width="{_n(size)}" height="{_n(size)}" fill="{fill}"{alpha}/>'
        )

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float,
        fill: str,
        *,
        anchor: str = "start",
        opacity: float = 1,
    ) -> None:
        alpha = f' fill-opacity="{_n(opacity)}"' if opacity < 1 else ""
        self.add(
            f'<text x="{_n(x)}" y="{_n(y)}" font-family="{FONT}" font-size="{_n(size)}" '
            f'font-weight="bold" text-anchor="{anchor}" fill="{fill}"{alpha}>{escape(text)}</text>'
        )

    def card(self, x: float, y: float, card: int, *, dim: bool = False) -> None:
        """One face-up card with its top-left corner at (x, y)."""
        colour = RED if CARD_RED[card] else BLACK
        suit = CARD_SUIT[card]
        rank = CARD_RANK[card]
        label = "10" if rank == 9 else RANK_LETTERS[rank]
        self.add(
            f'<g data-kw="card" data-card="{card_name(card)}" '
            f'transform="translate({_n(x)} {_n(y)})"><title>{card_symbol(card)}</title>'
        )
        self.add(
            f'<rect width="{_n(CARD_W)}" height="{_n(CARD_H)}" rx="{_n(CARD_RADIUS)}" '
            f'fill="{CARD_FACE}" stroke="{CARD_EDGE}" stroke-width="0.8"/>'
        )
        if rank >= 10:  # Jack, Queen, King: a tinted inner frame behind the big pip
            self.add(
                f'<rect x="13" y="26" width="{_n(CARD_W - 26)}" height="{_n(CARD_H - 52)}" rx="3" '
                f'fill="{FACE_TINT}" stroke="{colour}" stroke-opacity="0.55" stroke-width="1"/>'
            )
        for turned in (False, True):  # corner index, then the same upside down (point symmetry)
            if turned:
                self.add(f'<g transform="rotate(180 {_n(CARD_W / 2)} {_n(CARD_H / 2)})">')
            self.text(4.5 if label == "10" else 6, 18, label, 17, colour)
            self.suit(suit, CARD_W - 12, 12, 14, colour)
            if rank >= 10:  # the court letter in the frame's corner
                self.text(17, 38, label, 11, colour, opacity=0.75)
            if turned:
                self.add("</g>")
        self.suit(suit, CARD_W / 2, CARD_H / 2 + 1, 30.0 if rank >= 10 else 40.0, colour)
        if dim:  # a waste card under the playable one
            self.add(
                f'<rect width="{_n(CARD_W)}" height="{_n(CARD_H)}" rx="{_n(CARD_RADIUS)}" '
                f'fill="{SHADOW}" fill-opacity="0.13"/>'
            )
        self.add("</g>")

    def back(self, x: float, y: float, tag: str) -> None:
        """One face-down card (``tag`` tells tableau backs from the stock's)."""
        inset = 4.0
        self.add(
            f'<g data-kw="{tag}" transform="translate({_n(x)} {_n(y)})">'
            f'<rect width="{_n(CARD_W)}" height="{_n(CARD_H)}" rx="{_n(CARD_RADIUS)}" '
            f'fill="{BACK_BORDER}" stroke="{CARD_EDGE}" stroke-width="0.8"/>'
            f'<rect x="{_n(inset)}" y="{_n(inset)}" width="{_n(CARD_W - 2 * inset)}" '
            f'height="{_n(CARD_H - 2 * inset)}" rx="{_n(CARD_RADIUS - 2)}" '
            f'fill="url(#{self.ref("back")})"/></g>'
        )

    def slot(self, box: Box) -> None:
        """The outline of an empty pile."""
        self.add(
            f'<rect x="{_n(box.x + 1)}" y="{_n(box.y + 1)}" width="{_n(box.w - 2)}" '
            f'height="{_n(box.h - 2)}" rx="{_n(CARD_RADIUS)}" fill="{SHADOW}" fill-opacity="0.12" '
            f'stroke="{SLOT_MARK}" stroke-opacity="0.4" stroke-width="1.5"/>'
        )

    def badge(self, cx: float, cy: float, text: str) -> None:
        width = 10 + 7.5 * len(text)
        self.add(
            f'<rect x="{_n(cx - width / 2)}" y="{_n(cy - 8.5)}" width="{_n(width)}" height="17" '
            f'rx="8.5" fill="{BADGE_FILL}" fill-opacity="0.72"/>'
        )
        self.text(cx, cy + 4.5, text, 12, BADGE_TEXT, anchor="middle")

    def recycle_mark(self, cx: float, cy: float) -> None:
        """↻: a clockwise open circular arrow (the waste can be turned over)."""
        r = 17.0
        start, end = math.radians(-20), math.radians(245)  # clockwise on screen (y points down)
        x0, y0 = cx + r * math.cos(start), cy + r * math.sin(start)
        x1, y1 = cx + r * math.cos(end), cy + r * math.sin(end)
        tx, ty = -math.sin(end), math.cos(end)  # direction of travel at the end
        nx, ny = math.cos(end), math.sin(end)
        tip = (x1 + tx * 10, y1 + ty * 10)
        a, b = (x1 + nx * 7.5, y1 + ny * 7.5), (x1 - nx * 7.5, y1 - ny * 7.5)
        self.add(
            f'<g data-kw="recycle" opacity="0.75"><title>↻</title>'
            f'<path d="M{_n(x0)} {_n(y0)}A{_n(r)} {_n(r)} 0 1 1 {_n(x1)} {_n(y1)}" fill="none" '
            f'stroke="{SLOT_MARK}" stroke-width="4.5" stroke-linecap="round"/>'
            f'<path d="M{_n(tip[0])} {_n(tip[1])}L{_n(a[0])} {_n(a[1])}L{_n(b[0])} {_n(b[1])}Z" '
            f'fill="{SLOT_MARK}"/></g>'
        )

    def outline(self, box: Box, colour: str, name: str, *, dashed: bool) -> None:
        pad = 3.0
        dash = ' stroke-dasharray="7 4"' if dashed else ""
        geometry = (
            f'x="{_n(box.x - pad)}" y="{_n(box.y - pad)}" width="{_n(box.w + 2 * pad)}" '
            f'height="{_n(box.h + 2 * pad)}" rx="{_n(CARD_RADIUS + pad)}" fill="none"'
        )
        self.add(
            f'<g id="{self.ref(name)}" data-kw="{name}"><rect {geometry} stroke="{colour}" '
            f'stroke-opacity="0.35" stroke-width="8"/><rect {geometry} stroke="{colour}" '
            f'stroke-width="3"{dash}/></g>'
        )

    def arrow(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        """A curved arrow from ``start`` to ``end`` (bending upwards), with a dark casing."""
        (x0, y0), (x1, y1) = start, end
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length  # a normal; make it point up (or left if level)
        if ny > 0 or (ny == 0 and nx > 0):
            nx, ny = -nx, -ny
        bend = min(0.25 * length, 60.0)
        cx, cy = (x0 + x1) / 2 + nx * bend, (y0 + y1) / 2 + ny * bend
        # the head: along the curve's end tangent (control point -> end)
        tx, ty = x1 - cx, y1 - cy
        tl = math.hypot(tx, ty) or 1.0
        tx, ty = tx / tl, ty / tl
        head, half = 15.0, 8.0
        bx, by = x1 - tx * head, y1 - ty * head
        left = (bx - ty * half, by + tx * half)
        right = (bx + ty * half, by - tx * half)
        d = f"M{_n(x0)} {_n(y0)}Q{_n(cx)} {_n(cy)} {_n(bx)} {_n(by)}"
        head_d = f"M{_n(x1)} {_n(y1)}L{_n(left[0])} {_n(left[1])}L{_n(right[0])} {_n(right[1])}Z"
        self.add(
            f'<g id="{self.ref("hl-arrow")}" data-kw="hl-arrow">'
            f'<path d="{d}" fill="none" stroke="{SHADOW}" stroke-opacity="0.55" stroke-width="8" '
            f'stroke-linecap="round"/>'
            f'<path d="{head_d}" fill="{SHADOW}" fill-opacity="0.55" stroke="{SHADOW}" '
            f'stroke-opacity="0.55" stroke-width="4" stroke-linejoin="round"/>'
            f'<path d="{d}" fill="none" stroke="{ARROW_COLOUR}" stroke-width="4" '
            f'stroke-linecap="round"/><path d="{head_d}" fill="{ARROW_COLOUR}"/></g>'
        )


def defs(prefix: str) -> str:
    suits = "".join(
        f'<symbol id="{prefix}-suit{s}" viewBox="0 0 100 100">{shape}</symbol>'
        for s, shape in enumerate(SUIT_SHAPES)
    )
    return (
        f"<defs>{suits}"
        f'<pattern id="{prefix}-back" width="8" height="8" patternUnits="userSpaceOnUse">'
        f'<rect width="8" height="8" fill="{BACK_FILL}"/>'
        f'<path d="M0 0L8 8M8 0L0 8" stroke="{BACK_LINE}" stroke-width="1.1"/></pattern>'
        f'<radialGradient id="{prefix}-felt" cx="50%" cy="40%" r="75%">'
        f'<stop offset="0" stop-color="{FELT_CENTRE}"/><stop offset="1" stop-color="{FELT_EDGE}"/>'
        f"</radialGradient></defs>"
    )


def draw_top_row(p: Painter, state: GameState) -> None:
    stock = stock_box()
    if state.stock:
        layers = 1 + min(2, (len(state.stock) - 1) // 8)
        for layer in range(layers - 1, -1, -1):
            p.back(stock.x + layer * STOCK_LAYER_D, stock.y + layer * STOCK_LAYER_D, "stock")
        p.badge(stock.x + CARD_W / 2, stock.y + CARD_H - 14, str(len(state.stock)))
    else:
        p.slot(stock)
        if state.waste:
            p.recycle_mark(*stock.centre)
    shown = waste_shown(state)
    if not shown:
        p.slot(Box(slot_x(WASTE_SLOT), TOP_Y))
    for i, (card, x) in enumerate(shown):
        p.card(x, TOP_Y, card, dim=i < len(shown) - 1)
    for suit in range(4):
        box = foundation_box(suit)
        top = state.foundation_top(suit)
        if top is None:
            p.slot(box)
            p.suit(suit, *box.centre, 38, SLOT_MARK, opacity=0.3)
        else:
            p.card(box.x, box.y, top)


def draw_columns(p: Painter, state: GameState, show_labels: bool) -> None:
    for c in range(NUM_COLUMNS):
        x = slot_x(c)
        if show_labels:
            p.text(
                x + CARD_W / 2,
                TABLEAU_Y - 7,
                str(c + 1),
                12,
                SLOT_MARK,
                anchor="middle",
                opacity=0.7,
            )
        column = state.columns[c]
        if not column:
            box = Box(x, TABLEAU_Y)
            p.slot(box)
            p.text(
                box.centre[0], box.centre[1] + 11, "K", 30, SLOT_MARK, anchor="middle", opacity=0.22
            )
            continue
        down = state.face_down[c]
        for i, (card, y) in enumerate(zip(column, column_ys(state, c), strict=True)):
            if i < down:
                p.back(x, y, "back")
            else:
                p.card(x, y, card)


def draw_highlight(p: Painter, state: GameState, move: Move) -> None:
    source, target = move_boxes(state, move)
    p.outline(target, TARGET_COLOUR, "hl-target", dashed=True)
    p.outline(source, SOURCE_COLOUR, "hl-source", dashed=False)
    # start on the first moving card's visible band; end inside the target
    sx = source.x + source.w / 2
    sy = source.y + (UP_DY / 2 + 2 if source.h > CARD_H else CARD_H / 2)
    tx, ty = target.centre
    if move.kind in (MoveKind.DRAW, MoveKind.RECYCLE):
        sy = ty = TOP_Y + CARD_H * 0.3
    p.arrow((sx, sy), (tx, ty))
