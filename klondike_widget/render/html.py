"""HTML figures of positions: a captioned board with its legal moves, and filmstrips of lines.

Each board is an ``<img>`` of its SVG (:meth:`klondike_widget.render.svg.Svg.img`), which
JupyterLab's sanitiser lets through in untrusted notebooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.render.geometry import BOARD_W
from klondike_widget.render.paint import num
from klondike_widget.render.svg import checked_line, skipped_note, state_svg

__all__ = ["state_html", "filmstrip_html"]

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
        The position to show.
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
    states, moves, shown = checked_line(states, moves, max_frames)
    width = num(BOARD_W * scale)
    cells: list[str] = []
    previous = -1
    for i in shown:
        note = skipped_note(previous, i)
        if note:
            cells.append(_film_gap(note))
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
