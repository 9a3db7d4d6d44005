"""The widget's analysis panel: a :class:`~klondike_widget.engine.line.Line` being stepped through.

:class:`LinePanel` holds an open line, the step shown (``index``: how many of its moves have been
played on the board shown, ``0..len(line.moves)``) and whether it plays by itself. It makes the two
small JSON pieces the widget publishes:

* :meth:`LinePanel.published` (the ``line_view`` trait): the moves in notation as one text, and
  localized descriptions (:func:`klondike_widget.i18n.describe_move`) for a *window* of moves
  around the step shown. A whole line's descriptions can exceed 8 KB in Arabic, so only
  :data:`WINDOW` of them are sent at a time; the window follows the step.
* :meth:`LinePanel.view_part` (``view["line"]``): the step, the total, the move about to be
  played (source and target piles, for the highlight) and whether "Play from here" is possible.

The board at a step is never published per step: the widget draws ``line[index]`` with
:func:`klondike_widget.widget.view.board_view` when the step changes.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> panel = LinePanel(line_from(["s", "s", "t3-t2"], deal(2)), ident=1)
>>> panel.index, panel.total
(0, 3)
>>> panel.published("en")["moves"], panel.published("en")["words"][0]
('s s t3-t2', 'tap the stock')
>>> panel.view_part(True, "en")["next"]
{'src': 's', 'n': 0, 'dst': 'w'}
>>> panel.index = 3; panel.view_part(True, "en")["next"] is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from klondike_widget import i18n
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.i18n import narrate
from klondike_widget.widget.protocol import LineStep, NextStep
from klondike_widget.widget.view import move_target

__all__ = ["WINDOW", "LinePanel", "line_from"]

#: How many move descriptions are published at a time (a window around the step shown).
WINDOW = 48
#: The window moves when the step comes this close to one of its ends.
_MARGIN = 8


def line_from(source: object, start: GameState) -> Line:
    """A :class:`Line` from a Line, a solver result (``.moves``) or moves played from ``start``.

    A :class:`Line` keeps its own start; the other two are played from ``start``. Raises
    ``TypeError`` for anything else, :class:`~klondike_widget.engine.line.BrokenLineError`
    (naming the first bad move) when the moves do not play, and ``ValueError`` for a line
    without moves.

    >>> from klondike_widget.engine.deals import deal
    >>> line_from("s t3-t2", deal(2)).text()
    's t3-t2'
    >>> line_from([], deal(2))
    Traceback (most recent call last):
    ...
    ValueError: a line to step through needs at least one move
    """
    if isinstance(source, Line):
        line = source
    elif isinstance(source, str):
        line = Line.parse(source, start)
    elif isinstance(source, Iterable) or hasattr(source, "moves"):
        moves = getattr(source, "moves", source)
        if not isinstance(moves, Iterable) or isinstance(moves, str | bytes):
            raise TypeError(f"expected a Line, a solver result or moves, not {moves!r}")
        line = Line(start, list(moves))
    else:
        raise TypeError(f"expected a Line, a solver result or moves, not {type(source).__name__}")
    if not line.moves:
        raise ValueError("a line to step through needs at least one move")
    return line


class LinePanel:
    """An open line, the step shown, and the autoplay flag.

    Parameters
    ----------
    line : Line
        The line (at least one move).
    ident : int
        A number telling this line from the ones opened before (intents carry it, so an intent
        about a line that was replaced meanwhile is refused as stale).
    """

    def __init__(
        self,
        line: Line,
        ident: int,
        *,
        marks: dict[int, str] | None = None,
        review: bool = False,
        summary: Callable[[str], str] | None = None,
    ) -> None:
        self.line = line
        self.ident = ident
        #: Move index -> strings key of a mark the panel shows on that move, with an icon (a
        #: review marks the losing move so).
        self.marks = dict(marks or {})
        #: ``summary(locale)``: a sentence over the list (what a review found), or None.
        self.summary = summary
        #: A game review: the panel is titled so and "Try from here" starts a new game.
        self.review = review
        self.autoplay = False
        self._index = 0
        self._first = 0  # the first move whose description is published
        self._runs = narrate.tap_runs(line.moves)

    @property
    def total(self) -> int:
        """The number of moves."""
        return len(self.line.moves)

    @property
    def index(self) -> int:
        """The step shown: how many moves of the line are played on the board shown."""
        return self._index

    @index.setter
    def index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"a step is a whole number, not {type(index).__name__}")
        if not 0 <= index <= self.total:
            raise IndexError(f"step {index} is not on this line (0..{self.total})")
        self._index = index
        lo, hi = self._first, self._first + WINDOW
        low_ok = lo == 0 or index >= lo + _MARGIN
        high_ok = hi >= self.total or index <= hi - _MARGIN
        if not (low_ok and high_ok):
            self._first = max(0, min(index - WINDOW // 2, self.total - WINDOW))

    @property
    def first(self) -> int:
        """The first move (0-based) whose description :meth:`published` includes."""
        return self._first

    @property
    def state(self) -> GameState:
        """The position shown: ``line[index]``."""
        return self.line[self._index]

    @property
    def next_move(self) -> Move | None:
        """The move about to be played from the position shown (None at the end)."""
        return self.line.moves[self._index] if self._index < self.total else None

    def published(self, locale: str) -> dict[str, Any]:
        """The ``line_view`` trait: notation of every move, words for the window.

        ``words[i]`` describes move ``first + i`` (0-based), as played from ``line[first + i]``;
        ``why[i]`` says what it achieves (:func:`klondike_widget.i18n.narrate.why`, ``""`` when
        nothing). ``runs`` lists the runs of taps and recycles that touch the window as
        ``[start, length, text]`` (0-based first move): the panel shows each as one step,
        "turn the stock until 7♥", that expands when clicked. ``marks`` lists every mark as
        ``[move index, words]`` (the panel draws it with an icon); ``summary`` is a sentence
        over the list, when the panel has one.
        """
        first = self._first
        last = min(self.total, first + WINDOW)
        states = self.line.states()
        moves = self.line.moves
        words = [i18n.describe_move(states[i], moves[i], locale) for i in range(first, last)]
        out: dict[str, Any] = {"id": self.ident, "moves": self.line.text(), "first": first}
        out["words"] = words
        # every mark, in or out of the window: [move index (0-based), its words]
        out["marks"] = [[i, i18n.text(key, locale)] for i, key in sorted(self.marks.items())]
        if self.summary is not None:
            out["summary"] = self.summary(locale)
        out["why"] = [narrate.why(self.line, i, locale) for i in range(first, last)]
        out["runs"] = [
            [start, length, narrate.run_text(self.line, start, length, locale)]
            for start, length in self._runs
            if start < last and start + length > first
        ]
        if self.review:
            out["title"] = "review.title"
            out["play"] = "review.try_from_here.label"
        return out

    def view_part(self, playable: bool, locale: str) -> LineStep:
        """``view["line"]``: the step, the total, the next move's piles, autoplay, playable,
        and the step in words (``text``, ``said`` when it is taken, ``opened`` with the title).

        >>> from klondike_widget.engine.deals import deal
        >>> panel = LinePanel(line_from(["s", "s", "t3-t2"], deal(2)), ident=1)
        >>> panel.index = 3
        >>> part = panel.view_part(True, "en")
        >>> part["text"], part["opened"]
        ('Step 3 of 3', 'Solver line: Step 3 of 3')
        >>> part["said"]
        'Step 3 of 3: 8♦ from column 3 onto 9♣ in column 2'
        """
        move = self.next_move
        nxt: NextStep | None = None
        if move is not None:
            src, count, dst = move_target(move, self.state)
            nxt = {"src": src, "n": count, "dst": dst}
        k = self._index
        text = i18n.text(
            "analysis.start" if k == 0 else "analysis.step", locale, index=k, total=self.total
        )
        said = text
        if k:
            words = i18n.describe_move(self.line[k - 1], self.line.moves[k - 1], locale)
            said = i18n.text("announce.step", locale, step=text, move=words)
        title = i18n.text("review.title" if self.review else "analysis.title", locale)
        return {
            "id": self.ident,
            "k": k,
            "total": self.total,
            "next": nxt,
            "auto": self.autoplay,
            "playable": playable,
            "text": text,
            "said": said,
            "opened": i18n.text("announce.step", locale, step=title, move=text),
        }
