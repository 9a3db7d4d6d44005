"""Static pictures of a position: a text board, an SVG card table, HTML figures and filmstrips.

Everything here is pure Python and self-contained: the SVG carries its own felt background, card
faces, backs and suit shapes (drawn as paths, so no font has to supply ``♥``), uses no CSS classes,
no scripts and no external resources, so a picture renders the same in JupyterLab (light or dark),
VS Code, Colab, GitHub and nbviewer. Every picture gets its own id prefix: several pictures in one
page never share an element id.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> svg = state_svg(deal(1))
>>> svg.startswith("<svg") and svg.count('data-kw="back"')
21
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import math
import re
from collections.abc import Sequence
from html import escape
from typing import NamedTuple

from klondike_widget.engine.cards import (
    CARD_RANK,
    CARD_RED,
    CARD_SUIT,
    RANK_LETTERS,
    SUIT_SYMBOLS,
    card_name,
    card_symbol,
)
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.state import NUM_COLUMNS, GameState

__all__ = ["Svg", "board_text", "filmstrip_html", "line_svg", "state_html", "state_svg"]

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
_SUIT_SHAPES = (
    '<circle cx="50" cy="27" r="22"/><circle cx="26" cy="59" r="22"/>'
    '<circle cx="74" cy="59" r="22"/><path d="M50 36L32 62H68Z"/>'
    '<path d="M46.5 52C46.5 76 42 89 31 98H69C58 89 53.5 76 53.5 52Z"/>',
    '<path d="M50 2Q63 29 88 50Q63 71 50 98Q37 71 12 50Q37 29 50 2Z"/>',
    '<path d="M50 96C37 81 4 62 4 32C4 14 16 4 29 4C40 4 47 11 50 21C53 11 60 4 71 4C84 4 96 14 '
    '96 32C96 62 63 81 50 96Z"/>',
    '<path d="M50 2C61 22 96 40 96 64C96 80 84 88 72 88C63 88 57 84 53.5 78C54.5 88 58 94 67 98'
    'H33C42 94 45.5 88 46.5 78C43 84 37 88 28 88C16 88 4 80 4 64C4 40 39 22 50 2Z"/>',
)

_SVG_NS = "http://www.w3.org/2000/svg"
_XLINK_NS = "http://www.w3.org/1999/xlink"
_picture_counter = itertools.count(1)
_ROOT_SIZE = re.compile(r'<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"')
_ROOT_LABEL = re.compile(r'<svg [^>]*?aria-label="([^"]*)"')


class Svg(str):
    """An SVG picture (the text of an ``<svg>`` element) that shows itself in a notebook.

    The shape of python-chess's ``SvgWrapper``: a ``str``, so it prints, compares and saves as
    text, whose ``image/svg+xml`` representation is itself. That is what GitHub, nbviewer,
    VS Code and Colab draw. The HTML representation is an extra for JupyterLab: it renders
    ``image/svg+xml`` only in *trusted* notebooks (a freshly cloned one is not) and prefers
    ``text/html`` anyway, and its sanitiser strips inline ``<svg>`` from untrusted HTML, leaving
    the cards' text. An ``<img>`` whose source is the same picture as a ``data:`` URI passes
    the sanitiser, so :meth:`img` is what the HTML outputs embed.

    >>> pic = Svg('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="5"/>')
    >>> pic._repr_svg_() == pic, pic.img().startswith('<img src="data:image/svg+xml;base64,')
    (True, True)
    >>> 'width="10" height="5"' in pic.img()
    True
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return self.img()

    def img(self, *, alt: str | None = None) -> str:
        """An ``<img>`` element showing this picture (a base64 ``data:`` URI), same size.

        ``alt`` defaults to the picture's ``aria-label``.
        """
        size = _ROOT_SIZE.search(self)
        dims = f' width="{size.group(1)}" height="{size.group(2)}"' if size else ""
        if alt is None:
            label = _ROOT_LABEL.search(self)
            alt = label.group(1) if label else ""
        else:
            alt = escape(alt)
        data = base64.b64encode(self.encode()).decode("ascii")
        return f'<img src="data:image/svg+xml;base64,{data}"{dims} alt="{alt}">'


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


# -- layout ---------------------------------------------------------------------------------------


class _Box(NamedTuple):
    x: float
    y: float
    w: float = CARD_W
    h: float = CARD_H

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.w / 2, self.y + self.h / 2


def _slot_x(slot: int) -> float:
    return MARGIN + slot * (CARD_W + PILE_GAP)


def _column_ys(state: GameState, column: int) -> list[float]:
    """The y of every card of ``column``, bottom to top."""
    ys: list[float] = []
    y = TABLEAU_Y
    down = state.face_down[column]
    for i in range(len(state.columns[column])):
        ys.append(y)
        y += DOWN_DY if i < down else UP_DY
    return ys


def _board_height(state: GameState) -> float:
    tallest = max(
        (ys[-1] + CARD_H - TABLEAU_Y for c in range(NUM_COLUMNS) if (ys := _column_ys(state, c))),
        default=0.0,
    )
    return TABLEAU_Y + max(tallest, MIN_TABLEAU_H) + MARGIN


def _waste_shown(state: GameState) -> list[tuple[int, float]]:
    """The visible waste cards with their x, bottom to top (up to 3 fanned in draw 3)."""
    shown = state.waste[-3:] if state.rules.draw == 3 else state.waste[-1:]
    return [(card, _slot_x(WASTE_SLOT) + i * WASTE_DX) for i, card in enumerate(shown)]


def _stock_box() -> _Box:
    return _Box(_slot_x(STOCK_SLOT), TOP_Y)


def _waste_area(state: GameState) -> _Box:
    fan = 2 * WASTE_DX if state.rules.draw == 3 else 0.0
    return _Box(_slot_x(WASTE_SLOT), TOP_Y, CARD_W + fan)


def _foundation_box(suit: int) -> _Box:
    return _Box(_slot_x(FOUNDATION_SLOT0 + suit), TOP_Y)


def _column_target(state: GameState, column: int) -> _Box:
    ys = _column_ys(state, column)
    return _Box(_slot_x(column), ys[-1] if ys else TABLEAU_Y)


def _move_boxes(state: GameState, move: Move) -> tuple[_Box, _Box]:
    """Where ``move`` starts (the card or cards that move) and where it lands."""
    kind = move.kind
    if kind is MoveKind.DRAW:
        if not state.stock:
            raise ValueError(f"cannot highlight {move}: the stock is empty")
        return _stock_box(), _waste_area(state)
    if kind is MoveKind.RECYCLE:
        if not state.waste:
            raise ValueError(f"cannot highlight {move}: the waste is empty")
        return _waste_area(state), _stock_box()
    if kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.WASTE_TO_FOUNDATION):
        if not state.waste:
            raise ValueError(f"cannot highlight {move}: the waste is empty")
        source = _Box(_waste_shown(state)[-1][1], TOP_Y)
        if kind is MoveKind.WASTE_TO_FOUNDATION:
            return source, _foundation_box(CARD_SUIT[state.waste[-1]])
        return source, _column_target(state, move.target)
    if kind is MoveKind.FOUNDATION_TO_COLUMN:
        if not state.foundations[move.source]:
            raise ValueError(f"cannot highlight {move}: that foundation is empty")
        return _foundation_box(move.source), _column_target(state, move.target)
    # COLUMN_TO_FOUNDATION or COLUMN_TO_COLUMN
    column = move.source
    up = len(state.face_up(column))
    if move.count > up:
        raise ValueError(f"cannot highlight {move}: column {column + 1} has {up} face-up card(s)")
    ys = _column_ys(state, column)
    first = ys[-move.count]
    source = _Box(_slot_x(column), first, CARD_W, ys[-1] + CARD_H - first)
    if kind is MoveKind.COLUMN_TO_FOUNDATION:
        return source, _foundation_box(CARD_SUIT[state.columns[column][-1]])
    return source, _column_target(state, move.target)


# -- drawing --------------------------------------------------------------------------------------


def _n(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class _Painter:
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

    def slot(self, box: _Box) -> None:
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

    def outline(self, box: _Box, colour: str, name: str, *, dashed: bool) -> None:
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


def _defs(prefix: str) -> str:
    suits = "".join(
        f'<symbol id="{prefix}-suit{s}" viewBox="0 0 100 100">{shape}</symbol>'
        for s, shape in enumerate(_SUIT_SHAPES)
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


def _check_scale(scale: object) -> float:
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0 < scale <= 10:
        raise ValueError(f"scale must be a number in (0, 10], not {scale!r}")
    return float(scale)


def _new_prefix(state: GameState, highlight: Move | None) -> str:
    """An id prefix unique to this picture: a hash of the picture's input and a counter."""
    seed = f"{next(_picture_counter)}|{hash(state)}|{highlight}"
    return "kw" + hashlib.blake2b(seed.encode(), digest_size=5).hexdigest()


def _draw_top_row(p: _Painter, state: GameState) -> None:
    stock = _stock_box()
    if state.stock:
        layers = 1 + min(2, (len(state.stock) - 1) // 8)
        for layer in range(layers - 1, -1, -1):
            p.back(stock.x + layer * STOCK_LAYER_D, stock.y + layer * STOCK_LAYER_D, "stock")
        p.badge(stock.x + CARD_W / 2, stock.y + CARD_H - 14, str(len(state.stock)))
    else:
        p.slot(stock)
        if state.waste:
            p.recycle_mark(*stock.centre)
    shown = _waste_shown(state)
    if not shown:
        p.slot(_Box(_slot_x(WASTE_SLOT), TOP_Y))
    for i, (card, x) in enumerate(shown):
        p.card(x, TOP_Y, card, dim=i < len(shown) - 1)
    for suit in range(4):
        box = _foundation_box(suit)
        top = state.foundation_top(suit)
        if top is None:
            p.slot(box)
            p.suit(suit, *box.centre, 38, SLOT_MARK, opacity=0.3)
        else:
            p.card(box.x, box.y, top)


def _draw_columns(p: _Painter, state: GameState, show_labels: bool) -> None:
    for c in range(NUM_COLUMNS):
        x = _slot_x(c)
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
            box = _Box(x, TABLEAU_Y)
            p.slot(box)
            p.text(
                box.centre[0], box.centre[1] + 11, "K", 30, SLOT_MARK, anchor="middle", opacity=0.22
            )
            continue
        down = state.face_down[c]
        for i, (card, y) in enumerate(zip(column, _column_ys(state, c), strict=True)):
            if i < down:
                p.back(x, y, "back")
            else:
                p.card(x, y, card)


def _draw_highlight(p: _Painter, state: GameState, move: Move) -> None:
    source, target = _move_boxes(state, move)
    p.outline(target, TARGET_COLOUR, "hl-target", dashed=True)
    p.outline(source, SOURCE_COLOUR, "hl-source", dashed=False)
    # start on the first moving card's visible band; end inside the target
    sx = source.x + source.w / 2
    sy = source.y + (UP_DY / 2 + 2 if source.h > CARD_H else CARD_H / 2)
    tx, ty = target.centre
    if move.kind in (MoveKind.DRAW, MoveKind.RECYCLE):
        sy = ty = TOP_Y + CARD_H * 0.3
    p.arrow((sx, sy), (tx, ty))


def state_svg(
    state: GameState,
    *,
    highlight: Move | None = None,
    scale: float = 1.0,
    show_labels: bool = True,
) -> Svg:
    """A self-contained SVG picture of ``state`` on a green felt table.

    Parameters
    ----------
    state : GameState
    highlight : Move, optional
        A move to point out: the moving card(s) get a gold outline, the pile they go to a dashed
        blue one, and an arrow joins them. Stock taps and recycles point at the stock and the
        waste. The move need not be legal, but its source must hold the cards it moves
        (``ValueError`` otherwise).
    scale : float
        Display size factor; the picture is ``604 * scale`` pixels wide at most positions.
    show_labels : bool
        Show the column numbers 1-7 above the columns.

    Returns
    -------
    Svg
        ``<svg>...</svg>`` with its own defs (a ``str`` that displays itself as a picture);
        element ids start with a prefix unique to this call.

    Examples
    --------
    >>> from klondike_widget.engine.deals import deal
    >>> from klondike_widget.engine.moves import Move
    >>> s = deal(2)
    >>> svg = state_svg(s, highlight=Move.parse("t3-t2"), scale=0.5)
    >>> 'width="302"' in svg, svg.count('data-kw="card"'), '-hl-arrow"' in svg
    (True, 7, True)
    """
    if not isinstance(state, GameState):
        raise TypeError(f"state_svg draws a GameState, not {type(state).__name__}")
    if highlight is not None and not isinstance(highlight, Move):
        raise TypeError(f"highlight must be a Move or None, not {highlight!r}")
    scale = _check_scale(scale)
    prefix = _new_prefix(state, highlight)
    p = _Painter(prefix)
    height = _board_height(state)
    # validate the highlight before drawing anything
    if highlight is not None:
        _move_boxes(state, highlight)
    summary = (
        f"Klondike position: stock {len(state.stock)}, waste {len(state.waste)}, "
        f"{state.cards_on_foundations} of 52 cards on the foundations"
    )
    p.add(
        f'<svg xmlns="{_SVG_NS}" xmlns:xlink="{_XLINK_NS}" id="{prefix}" direction="ltr" '
        f'width="{_n(BOARD_W * scale)}" height="{_n(height * scale)}" '
        f'viewBox="0 0 {_n(BOARD_W)} {_n(height)}" role="img" aria-label="{escape(summary)}">'
        f"<title>{escape(summary)}</title>{_defs(prefix)}"
    )
    p.add(
        f'<rect width="{_n(BOARD_W)}" height="{_n(height)}" rx="{_n(FELT_RADIUS)}" '
        f'fill="url(#{p.ref("felt")})" stroke="{FELT_BORDER}" stroke-width="2"/>'
    )
    _draw_top_row(p, state)
    _draw_columns(p, state, show_labels)
    if highlight is not None:
        _draw_highlight(p, state, highlight)
    p.add("</svg>")
    return Svg("".join(p.parts))


# -- HTML -----------------------------------------------------------------------------------------

_FIGURE_STYLE = "display:inline-block;margin:0 0 8px 0;vertical-align:top"
_CAPTION_STYLE = "font:14px/1.4 sans-serif;margin:4px 2px 0 2px;max-width:{w}px"
_CODE_STYLE = (
    "font:12px/1.6 monospace;padding:0 3px;border-radius:3px;background:rgba(127,127,127,0.16)"
)


def state_html(
    state: GameState,
    *,
    highlight: Move | None = None,
    caption: str | None = None,
    legal_moves: bool = False,
) -> str:
    """An HTML figure: the picture of ``state``, an optional caption and the legal moves.

    Parameters
    ----------
    state : GameState
    highlight : Move, optional
        Passed to :func:`state_svg`.
    caption : str, optional
        Text under the picture (escaped).
    legal_moves : bool
        List the legal moves, in notation (``str(move)``), under the picture.

    Examples
    --------
    >>> from klondike_widget.engine.deals import deal
    >>> html = state_html(deal(2), caption="Deal <2>", legal_moves=True)
    >>> "Deal &lt;2&gt;" in html, "<code" in html and ">t3-t2</code>" in html
    (True, True)
    """
    svg = state_svg(state, highlight=highlight)
    parts = [f'<figure style="{_FIGURE_STYLE}">', svg.img()]
    style = _CAPTION_STYLE.format(w=int(BOARD_W))
    if caption is not None:
        parts.append(f'<figcaption style="{style}">{escape(str(caption))}</figcaption>')
    if legal_moves:
        moves = [str(m) for m in state.legal_moves]
        listed = " ".join(f'<code style="{_CODE_STYLE}">{escape(m)}</code>' for m in moves)
        text = f"Legal moves ({len(moves)}): {listed}" if moves else "No legal moves."
        parts.append(f'<div style="{style}">{text}</div>')
    parts.append("</figure>")
    return "".join(parts)


def filmstrip_html(
    states: Sequence[GameState],
    moves: Sequence[Move],
    *,
    scale: float = 0.45,
    max_frames: int | None = None,
) -> str:
    """Small boards in a wrapping row, one per position, with the move played between them.

    Each board is an ``<img>`` of its SVG (see :class:`Svg`). Frame ``i`` shows ``states[i]``
    with ``moves[i]`` highlighted; the move's notation sits
    between frame ``i`` and frame ``i + 1``. ``moves`` must be one shorter than ``states`` and
    each move must lead from one state to the next (``ValueError`` otherwise).

    Parameters
    ----------
    states : sequence of GameState
    moves : sequence of Move
    scale : float
        Size of each board (0.45: about 270 pixels wide).
    max_frames : int, optional
        Show at most this many frames: the first ``max_frames - 1`` and the last, with a note of
        how many were left out.

    Examples
    --------
    >>> from klondike_widget.engine.deals import deal
    >>> s0 = deal(2)
    >>> s1 = s0.apply("t4-f")
    >>> html = filmstrip_html([s0, s1], [s0.parse_move("t4-f")])
    >>> html.count('<img src="data:image/svg+xml'), ">t4-f<" in html
    (2, True)
    """
    states, moves, shown = _checked_line(states, moves, max_frames)
    width = _n(BOARD_W * scale)
    cells: list[str] = []
    previous = -1
    for i in shown:
        if previous >= 0 and i != previous + 1:
            skipped = i - previous - 1
            cells.append(_film_gap(f"… {skipped} more position{'s' if skipped != 1 else ''} …"))
        played = moves[i] if i < len(moves) else None
        svg = state_svg(states[i], highlight=played, scale=scale, show_labels=False)
        cells.append(
            f'<figure style="margin:0;display:flex;flex-direction:column;align-items:center">'
            f'<figcaption style="font:12px/1.3 sans-serif;opacity:0.8;max-width:{width}px">'
            f"{i}</figcaption>{svg.img()}</figure>"
        )
        if played is not None:
            cells.append(_film_gap(str(played), code=True))
        previous = i
    return (
        '<div style="display:flex;flex-wrap:wrap;gap:6px 4px;align-items:center">'
        + "".join(cells)
        + "</div>"
    )


def _film_gap(text: str, *, code: bool = False) -> str:
    body = f'<code style="{_CODE_STYLE}">{escape(text)}</code> →' if code else escape(text)
    return f'<div style="font:12px/1.3 sans-serif;padding:0 2px;white-space:nowrap">{body}</div>'


def _checked_line(
    states: Sequence[GameState], moves: Sequence[Move], max_frames: int | None
) -> tuple[list[GameState], list[Move], list[int]]:
    """Check that ``moves`` lead through ``states``; return both and the frames to show."""
    states = list(states)
    moves = list(moves)
    if not states:
        raise ValueError("a filmstrip needs at least one position")
    if len(moves) != len(states) - 1:
        raise ValueError(
            f"a filmstrip of {len(states)} positions needs {len(states) - 1} moves, "
            f"got {len(moves)}"
        )
    if max_frames is not None and (isinstance(max_frames, bool) or max_frames < 2):
        raise ValueError(f"max_frames must be at least 2, not {max_frames!r}")
    for i, (before, move, after) in enumerate(zip(states[:-1], moves, states[1:], strict=True)):
        if not isinstance(move, Move):
            raise TypeError(f"move {i + 1} is not a Move: {move!r}")
        try:
            reached = before.apply(move)
        except ValueError as exc:
            raise ValueError(
                f"move {i + 1} ({move}) cannot be played in position {i}: {exc}"
            ) from None
        if reached != after:
            raise ValueError(f"move {i + 1} ({move}) does not lead from position {i} to {i + 1}")
    shown = list(range(len(states)))
    if max_frames is not None and len(states) > max_frames:
        shown = [*range(max_frames - 1), len(states) - 1]
    return states, moves, shown


#: Height of the caption row above each frame of :func:`line_svg`.
FRAME_CAPTION_H = 18.0
FRAME_GAP = 10.0


def line_svg(
    states: Sequence[GameState],
    moves: Sequence[Move],
    *,
    scale: float = 0.45,
    per_row: int = 4,
    max_frames: int | None = 12,
) -> Svg:
    """One SVG picture of a line: small boards in rows, each captioned with the move played.

    Frame ``i`` shows ``states[i]`` with ``moves[i]`` highlighted and the caption
    ``i  →  move``; the last frame is captioned with its number alone. The same checks as
    :func:`filmstrip_html` apply (``ValueError`` for moves that do not lead through the states).

    Parameters
    ----------
    states : sequence of GameState
    moves : sequence of Move
    scale : float
        Size of each board (0.45: about 270 pixels wide).
    per_row : int
        Frames in a row.
    max_frames : int, optional
        Show at most this many frames: the first ``max_frames - 1`` and the last, with a note
        of how many were left out in the last frame's caption. ``None`` shows them all.

    Examples
    --------
    >>> from klondike_widget.engine.deals import deal
    >>> s0 = deal(2)
    >>> move = s0.parse_move("t4-f")
    >>> pic = line_svg([s0, s0.apply(move)], [move])
    >>> pic.startswith("<svg"), pic.count('data-kw="frame"'), "t4-f" in pic
    (True, 2, True)
    """
    scale = _check_scale(scale)
    if isinstance(per_row, bool) or not isinstance(per_row, int) or per_row < 1:
        raise ValueError(f"per_row must be a positive int, not {per_row!r}")
    states, moves, shown = _checked_line(states, moves, max_frames)
    frames = [
        state_svg(
            states[i],
            highlight=moves[i] if i < len(moves) else None,
            scale=scale,
            show_labels=False,
        )
        for i in shown
    ]
    sizes = [(float(m.group(1)), float(m.group(2))) for f in frames if (m := _ROOT_SIZE.search(f))]
    cell_w = max(w for w, _ in sizes)
    columns = min(per_row, len(frames))
    rows = [sizes[r : r + columns] for r in range(0, len(sizes), columns)]
    row_h = [FRAME_CAPTION_H + max(h for _, h in row) for row in rows]
    width = columns * cell_w + (columns - 1) * FRAME_GAP
    height = sum(row_h) + (len(rows) - 1) * FRAME_GAP
    summary = f"Klondike line: {len(moves)} moves, {len(states)} positions"
    parts = [
        f'<svg xmlns="{_SVG_NS}" xmlns:xlink="{_XLINK_NS}" direction="ltr" '
        f'width="{_n(width)}" height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" '
        f'role="img" aria-label="{escape(summary)}"><title>{escape(summary)}</title>'
    ]
    previous = -1
    for k, (i, frame) in enumerate(zip(shown, frames, strict=True)):
        row, col = divmod(k, columns)
        x = col * (cell_w + FRAME_GAP)
        y = sum(row_h[:row]) + row * FRAME_GAP
        caption = str(i)
        if i < len(moves):
            caption += f"  →  {moves[i]}"
        if previous >= 0 and i != previous + 1:
            skipped = i - previous - 1
            caption = f"(… {skipped} more position{'s' if skipped != 1 else ''} …)  {caption}"
        previous = i
        parts.append(
            f'<g data-kw="frame" transform="translate({_n(x)} {_n(y)})">'
            f'<text x="2" y="13" font-family="{FONT}" font-size="12" '
            f'fill="{CAPTION_COLOUR}">{escape(caption)}</text>'
            f'<g transform="translate(0 {_n(FRAME_CAPTION_H)})">{frame}</g></g>'
        )
    parts.append("</svg>")
    return Svg("".join(parts))
