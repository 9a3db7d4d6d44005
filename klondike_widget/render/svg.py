"""SVG pictures of a position (:func:`state_svg`) and of a line (:func:`line_svg`).

The SVG carries its own felt background, card faces, backs and suit shapes (drawn as paths, so no
font has to supply ``♥``), uses no CSS classes, no scripts and no external resources, so a
picture renders the same in JupyterLab (light or dark), VS Code, Colab, GitHub and nbviewer.
Every picture gets its own id prefix: several pictures in one page never share an element id.
:class:`Svg` is the ``str`` that shows itself as a picture.

>>> from klondike_widget.engine.deals import deal
>>> svg = state_svg(deal(1))
>>> svg.startswith("<svg") and svg.count('data-kw="back"')
21
"""

from __future__ import annotations

import base64
import hashlib
import itertools
import re
from collections.abc import Sequence
from html import escape

from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.render.geometry import BOARD_W, FELT_RADIUS, board_height, move_boxes
from klondike_widget.render.paint import (
    CAPTION_COLOUR,
    FELT_BORDER,
    FONT,
    Painter,
    defs,
    draw_columns,
    draw_highlight,
    draw_top_row,
    num,
)

__all__ = ["Svg", "state_svg", "line_svg"]

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_picture_counter = itertools.count(1)
ROOT_SIZE = re.compile(r'<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"')
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
        size = ROOT_SIZE.search(self)
        dims = f' width="{size.group(1)}" height="{size.group(2)}"' if size else ""
        if alt is None:
            label = _ROOT_LABEL.search(self)
            alt = label.group(1) if label else ""
        else:
            alt = escape(alt)
        data = base64.b64encode(self.encode()).decode("ascii")
        return f'<img src="data:image/svg+xml;base64,{data}"{dims} alt="{alt}">'


def check_scale(scale: object) -> float:
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0 < scale <= 10:
        raise ValueError(f"scale must be a number in (0, 10], not {scale!r}")
    return float(scale)


def new_prefix(state: GameState, highlight: Move | None) -> str:
    """An id prefix unique to this picture: a hash of the picture's input and a counter."""
    seed = f"{next(_picture_counter)}|{hash(state)}|{highlight}"
    return "kw" + hashlib.blake2b(seed.encode(), digest_size=5).hexdigest()


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
    scale = check_scale(scale)
    prefix = new_prefix(state, highlight)
    p = Painter(prefix)
    height = board_height(state)
    # validate the highlight before drawing anything
    if highlight is not None:
        move_boxes(state, highlight)
    summary = (
        f"Klondike position: stock {len(state.stock)}, waste {len(state.waste)}, "
        f"{state.cards_on_foundations} of 52 cards on the foundations"
    )
    p.add(
        f'<svg xmlns="{SVG_NS}" xmlns:xlink="{XLINK_NS}" id="{prefix}" direction="ltr" '
        f'width="{num(BOARD_W * scale)}" height="{num(height * scale)}" '
        f'viewBox="0 0 {num(BOARD_W)} {num(height)}" role="img" aria-label="{escape(summary)}">'
        f"<title>{escape(summary)}</title>{defs(prefix)}"
    )
    p.add(
        f'<rect width="{num(BOARD_W)}" height="{num(height)}" rx="{num(FELT_RADIUS)}" '
        f'fill="url(#{p.ref("felt")})" stroke="{FELT_BORDER}" stroke-width="2"/>'
    )
    draw_top_row(p, state)
    draw_columns(p, state, show_labels)
    if highlight is not None:
        draw_highlight(p, state, highlight)
    p.add("</svg>")
    return Svg("".join(p.parts))


def checked_line(
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


def _frame(x: float, y: float, caption: str, picture: str) -> str:
    """One frame of :func:`line_svg`: the caption, and the board's picture under it."""
    return (
        f'<g data-kw="frame" transform="translate({num(x)} {num(y)})">'
        f'<text x="2" y="13" font-family="{FONT}" font-size="12" '
        f'fill="{CAPTION_COLOUR}">{escape(caption)}</text>'
        f'<g transform="translate(0 {num(FRAME_CAPTION_H)})">{picture}</g></g>'
    )


def skipped_note(previous: int, i: int) -> str:
    """The note between frames ``previous`` and ``i`` when positions were left out, else "".

    >>> skipped_note(3, 4), skipped_note(3, 9)
    ('', '… 5 more positions …')
    """
    skipped = i - previous - 1
    if previous < 0 or skipped <= 0:
        return ""
    return f"… {skipped} more position{'s' if skipped != 1 else ''} …"


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
    states, moves : sequences of GameState and of Move
        The positions and the moves between them.
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
    scale = check_scale(scale)
    if isinstance(per_row, bool) or not isinstance(per_row, int) or per_row < 1:
        raise ValueError(f"per_row must be a positive int, not {per_row!r}")
    states, moves, shown = checked_line(states, moves, max_frames)
    frames = [
        state_svg(
            states[i],
            highlight=moves[i] if i < len(moves) else None,
            scale=scale,
            show_labels=False,
        )
        for i in shown
    ]
    sizes = [(float(m.group(1)), float(m.group(2))) for f in frames if (m := ROOT_SIZE.search(f))]
    cell_w = max(w for w, _ in sizes)
    columns = min(per_row, len(frames))
    rows = [sizes[r : r + columns] for r in range(0, len(sizes), columns)]
    row_h = [FRAME_CAPTION_H + max(h for _, h in row) for row in rows]
    width = columns * cell_w + (columns - 1) * FRAME_GAP
    height = sum(row_h) + (len(rows) - 1) * FRAME_GAP
    summary = f"Klondike line: {len(moves)} moves, {len(states)} positions"
    parts = [
        f'<svg xmlns="{SVG_NS}" xmlns:xlink="{XLINK_NS}" direction="ltr" '
        f'width="{num(width)}" height="{num(height)}" viewBox="0 0 {num(width)} {num(height)}" '
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
        note = skipped_note(previous, i)
        if note:
            caption = f"({note})  {caption}"
        previous = i
        parts.append(_frame(x, y, caption, frame))
    parts.append("</svg>")
    return Svg("".join(parts))
