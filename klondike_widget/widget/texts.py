"""``view["texts"]``: every parameterised text the board shows or says, finished in Python.

Messages are composed on one side only, here: the front end never fills a ``{name}`` template
and never picks a plural form, it puts these strings in the page as they are. Python has to
compose texts anyway where there is no browser (notebook HTML, lessons, the review, the CLI), and
move descriptions need the engine. The texts are made from the published view itself, so they
always say what the board draws (the position shown, a step of a solver line included).

Examples
--------
>>> from klondike_widget.engine.game import Game
>>> from klondike_widget.widget.view import board_view
>>> texts = view_texts(board_view(Game.new(deal=2), seq=0), "en")
>>> texts["piles"]["s"], texts["piles"]["t3"]
('Stock: 24 cards left', 'Column 3: 2 face-down cards: eight of diamonds')
>>> view_texts(board_view(Game.new(deal=2), seq=0), "pl")["piles"]["fh"]
'Stos bazowy: kier: pusty'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from klondike_widget import i18n
from klondike_widget.engine.cards import RANKS
from klondike_widget.i18n.numbers import format_duration, format_number

if TYPE_CHECKING:
    from klondike_widget.widget.protocol import ReviewProgress, View, ViewTexts

__all__ = ["review_text", "stats_warnings", "view_texts"]

_FOUNDATIONS = ("fc", "fd", "fh", "fs")


def _pile_names(view: View, locale: str) -> dict[str, str]:
    """The accessible name of every pile: what is on it (the marks are added by the front end)."""

    def text(key: str, **values: object) -> str:
        return i18n.text(key, locale, **values)

    def card(c: int) -> str:
        return i18n.card_label(c, locale)

    empty = text("pile.empty")
    stock = i18n.plural_text("counter.stock", view["stock"], locale)
    waste = view["waste"]
    top = card(waste[-1]) if waste else empty
    in_waste = i18n.plural_text("counter.waste", view["wn"], locale)
    names = {
        "s": f"{text('pile.stock')}: {stock}",
        "w": f"{text('pile.waste')}: {top}; {in_waste}",
    }
    for suit, (pile, found) in enumerate(zip(_FOUNDATIONS, view["found"], strict=True)):
        name = text("pile.foundation", suit=text(f"card.suit.{suit}"))
        names[pile] = f"{name}: {empty if found is None else card(found)}"
    for index, (down, up) in enumerate(view["cols"]):
        parts = [text("pile.column", column=index + 1)]
        if down + len(up) == 0:
            parts.append(empty)
        if down:
            parts.append(i18n.plural_text("pile.face_down", down, locale))
        if up:
            parts.append(", ".join(card(c) for c in up))
        names[f"t{index + 1}"] = ": ".join(parts)
    return names


def review_text(review: ReviewProgress | None, locale: str) -> str | None:
    """The progress of a running review in words, or None.

    >>> review_text({"running": True, "decided": 3, "total": 1200}, "en")
    'Reviewing… 3 of 1,200 positions decided'
    """
    if not review:
        return None
    return i18n.text("review.progress", locale, decided=review["decided"], total=review["total"])


def view_texts(view: View, locale: str) -> ViewTexts:
    """The finished texts of ``view`` in ``locale``.

    ``piles`` (pile id: accessible name), ``deal`` (the info line's deal, or None), ``hint``
    ("Hint: …", or None), ``finishing`` (said while Finish plays: how many cards are up),
    ``win`` (the win dialog's message, or None) and ``review`` (a running review's progress).
    """
    status = view["status"]
    deal = view["deal"]
    hint = view["hint"]
    win = None
    numbering = i18n.load_locale(locale).meta.numbering
    if status == "won":
        time = format_duration(view["clock"]["ms"], locale, numbering)
        win = i18n.plural_text("win.message", view["moves"], locale, time=time)
    finishing = None
    if status == "finishing":
        up = sum(0 if top is None else top % RANKS + 1 for top in view["found"])
        finishing = i18n.plural_text("announce.finishing", up, locale)
    number = None if deal is None else _deal_number(deal, locale, numbering)
    return {
        "piles": _pile_names(view, locale),
        "deal": None if number is None else i18n.text("counter.deal", locale, number=number),
        "hint": None if hint is None else i18n.text("hint.show", locale, move=hint["text"]),
        "finishing": finishing,
        "win": win,
        "review": review_text(view.get("review"), locale),
    }


def _deal_number(deal: int | str, locale: str, numbering: str) -> str:
    """A deal number (published as text: it can exceed JavaScript's exact integers), grouped."""
    text = str(deal)
    return format_number(int(text), locale, numbering) if text.isdigit() else text


def stats_warnings(summary: Mapping[str, Any], locale: str) -> list[str]:
    """The statistics panel's warnings in words: damaged lines skipped, a file not written.

    >>> for line in stats_warnings({"skipped": 2, "error": "disk full"}, "en"):
    ...     print(line)
    Damaged lines skipped in the statistics file: 2
    The statistics could not be saved (disk full).
    """
    out = []
    if summary.get("skipped"):
        out.append(i18n.text("stats.skipped", locale, number=summary["skipped"]))
    if summary.get("error"):
        out.append(i18n.text("stats.error", locale, detail=summary["error"]))
    return out
