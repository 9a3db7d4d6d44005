"""How a lesson shows itself in a notebook: HTML with a plain-text twin, feedback, pictures.

Every text is from the locale files (keys ``notebook.*``), every picture a static SVG from
:mod:`klondike_widget.render` embedded as an ``<img>``, so a lesson reads the same in JupyterLab,
VS Code, Colab, GitHub and nbviewer, in any shipped language (right to left in Arabic).

Examples
--------
>>> print(Feedback(True, "Correct!"))
✓ Correct!
>>> Html("<b>hi</b>", "hi")._repr_html_()
'<b>hi</b>'
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from klondike_widget.engine.cards import card_symbol
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.i18n import describe_move, load_locale, negotiate_locale, text
from klondike_widget.render import BOARD_W, state_svg

__all__ = ["Feedback", "Html"]

# Unicode isolates keep "10♠" and move notation reading left to right inside right-to-left text.
_LRI, _PDI = "\u2066", "\u2069"
_PICTURE_SCALE = 0.75  # two pictures side by side fit a notebook output area
_BOX = "border-radius:6px;padding:6px 10px;margin:6px 0;font:15px/1.5 sans-serif"
_CODE = "font:13px/1.6 monospace;padding:0 3px;border-radius:3px;background:rgba(127,127,127,0.16)"
_CELL = "text-align:start;padding:2px 8px"
_FIGURE = "display:inline-block;margin:0 12px 8px 0;vertical-align:top"
_CAPTION = "font:14px/1.4 sans-serif;margin:4px 2px 0 2px;max-width:{w}px"


@dataclass(frozen=True)
class Html:
    """Something a notebook shows: HTML for the page, plain text for consoles and diffs."""

    html: str
    text: str

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Feedback:
    """The verdict on an answer: ``correct`` and the message shown to the reader."""

    correct: bool
    message: str
    lang: str = "en"

    def __str__(self) -> str:
        return f"{'✓' if self.correct else '✗'} {self.message}"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour = "#1b7f3b" if self.correct else "#b3261e"
        style = f"{_BOX};border-inline-start:4px solid {colour};background:rgba(127,127,127,0.08)"
        return _wrap(
            f'<div style="{style}"><b style="color:{colour}">{"✓" if self.correct else "✗"}'
            f"</b> {escape(self.message)}</div>",
            self.lang,
        )


def _lang(lang: str) -> str:
    return negotiate_locale(lang)


def _rtl(lang: str) -> bool:
    return load_locale(lang).meta.dir == "rtl"


def _wrap(body: str, lang: str) -> str:
    meta = load_locale(lang).meta
    return f'<div lang="{meta.code}" dir="{meta.dir}">{body}</div>'


def _iso(value: str, lang: str) -> str:
    """``value`` kept left to right inside right-to-left text (cards, notation)."""
    return f"{_LRI}{value}{_PDI}" if _rtl(lang) else value


def _sym(card: int, lang: str) -> str:
    return _iso(card_symbol(card), lang)


def _t(key: str, lang: str, **values: object) -> str:
    return text(f"notebook.{key}", lang, **values)


def _figure(state: GameState, caption: str, lang: str, *, highlight: Move | None = None) -> str:
    svg = state_svg(state, highlight=highlight, scale=_PICTURE_SCALE)
    width = int(BOARD_W * _PICTURE_SCALE)
    return (
        # an <img>, not inline SVG: it survives the sanitiser of untrusted notebooks, and the
        # picture keeps its own left-to-right text in right-to-left pages
        f'<figure style="{_FIGURE}">{svg.img(alt=caption)}'
        f'<figcaption style="{_CAPTION.format(w=width)}">{escape(caption)}</figcaption></figure>'
    )


def _legal_moves(state: GameState, lang: str) -> tuple[str, str]:
    """HTML and plain text listing the legal moves of ``state`` (notation, described on hover)."""
    moves = list(state.legal_moves)
    if not moves:
        label = _t("no_legal_moves", lang)
        return f"<p>{escape(label)}</p>", label
    label = _t("legal_moves", lang, count=len(moves))
    codes = " ".join(
        f'<code dir="ltr" style="{_CODE}" title="{escape(describe_move(state, m, lang))}">'
        f"{escape(str(m))}</code>"
        for m in moves
    )
    return f"<p>{escape(label)} {codes}</p>", f"{label} {' '.join(str(m) for m in moves)}"
