"""Static pictures of a position: a text board, an SVG card table, HTML figures and filmstrips.

Everything here is pure Python and self-contained (see :mod:`klondike_widget.render.svg`): a
picture renders the same in JupyterLab (light or dark), VS Code, Colab, GitHub and nbviewer.

``text``
    :func:`board_text`: the position as lines of text.
``svg``
    :class:`Svg` (a ``str`` that shows itself), :func:`state_svg`, :func:`line_svg`; drawn with
    ``paint`` (colours, shapes, the painter) at the places ``geometry`` computes.
``html``
    :func:`state_html` (a captioned board with its legal moves), :func:`filmstrip_html`.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> print(board_text(deal(1)).splitlines()[0])
Stock 24 · Waste -- · Foundations ♣- ♦- ♥- ♠-
>>> state_html(deal(1)).startswith("<figure")
True
"""

from __future__ import annotations

from klondike_widget.render.geometry import (
    BOARD_W,
    CARD_H,
    CARD_RADIUS,
    CARD_W,
    DOWN_DY,
    LABEL_GAP,
    MARGIN,
    PILE_GAP,
    TABLEAU_Y,
    TOP_Y,
    UP_DY,
    WASTE_DX,
)
from klondike_widget.render.html import filmstrip_html, state_html
from klondike_widget.render.svg import FRAME_CAPTION_H, FRAME_GAP, Svg, line_svg, state_svg
from klondike_widget.render.text import board_text

__all__ = [
    "Svg",
    "board_text",
    "filmstrip_html",
    "line_svg",
    "state_html",
    "state_svg",
    # the pictures' geometry (user units), as importable from here before the split
    "BOARD_W",
    "CARD_H",
    "CARD_RADIUS",
    "CARD_W",
    "DOWN_DY",
    "LABEL_GAP",
    "MARGIN",
    "PILE_GAP",
    "TABLEAU_Y",
    "TOP_Y",
    "UP_DY",
    "WASTE_DX",
    "FRAME_CAPTION_H",
    "FRAME_GAP",
]
