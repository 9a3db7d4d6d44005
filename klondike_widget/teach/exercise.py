"""A lesson and its exercise: the rule's position, a demonstration, a question and its checker.

Each :class:`Lesson` holds a constructed position that shows one rule, a short demonstration
(moves played through a :class:`~klondike_widget.engine.game.Game`, so the Moves counter is the
real one) and an :class:`Exercise` whose answer is checked against the engine. The lessons
themselves are in :mod:`klondike_widget.teach.lessons`.

Examples
--------
>>> from klondike_widget.teach.lessons import lesson
>>> lesson("moving").check("t3:2-t2", "en").correct
True
>>> AnswerKind("move")
<AnswerKind.MOVE: 'move'>
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html import escape
from typing import Any

from klondike_widget.engine.cards import InvalidCardError, parse_card
from klondike_widget.engine.errors import InvalidMoveError
from klondike_widget.engine.game import Game
from klondike_widget.engine.line import BrokenLineError, Line
from klondike_widget.engine.moves import Move, MoveKind, why_illegal
from klondike_widget.engine.state import GameState
from klondike_widget.i18n import describe_move, text
from klondike_widget.teach.page import (
    _CELL,
    _CODE,
    Feedback,
    Html,
    _figure,
    _iso,
    _lang,
    _legal_moves,
    _sym,
    _t,
    _wrap,
)

__all__ = ["REDO", "UNDO", "AnswerKind", "Exercise", "Lesson"]

#: Undo and redo in a demonstration; every other action is move notation.
UNDO, REDO = "undo", "redo"


class AnswerKind(str, enum.Enum):
    """What an exercise asks for."""

    NUMBER = "number"  #: a whole number
    MOVE = "move"  #: one move in notation, e.g. "t3-t6"
    CARDS = "cards"  #: a set of cards, e.g. "7c Jd 2c" or ["7c", "Jd"]
    LINE = "line"  #: moves in notation separated by spaces, e.g. "r s"


#: How an answer of each kind is written (shown with each question).
_EXAMPLES = {
    AnswerKind.NUMBER: "answer = 7",
    AnswerKind.MOVE: 'answer = "t3-t6"',
    AnswerKind.CARDS: 'answer = "7c Jd 10s"',
    AnswerKind.LINE: 'answer = "s s w-t3"',
}


@dataclass(frozen=True)
class Exercise:
    """A question about ``position`` and the check of an answer.

    Parameters
    ----------
    position : GameState
        The position the question is about (shown with the question).
    kind : AnswerKind
    goal : callable
        For ``MOVE``: ``goal(position, move) -> bool`` on a legal move. For ``LINE``:
        ``goal(end_position) -> bool`` at the end of a legal line. For ``NUMBER``:
        ``goal(position) -> int``, the right number. For ``CARDS``: ``goal(position) ->
        frozenset`` of the right cards.
    solution : str or int
        One correct answer (shown in the answers section; the tests check it).
    values : callable
        ``values(position, lang) -> dict`` of placeholders for the question and the hint.
    """

    position: GameState
    kind: AnswerKind
    goal: Callable[..., Any]
    solution: str | int
    values: Callable[[GameState, str], dict[str, object]] = field(default=lambda s, lang: {})


def _not_answered(answer: object) -> bool:
    return answer is Ellipsis or answer is None or (isinstance(answer, str) and not answer.strip())


def _as_cards(answer: object) -> frozenset[int] | None:
    items: Iterable[object]
    if isinstance(answer, str):
        items = answer.replace(",", " ").split()
    elif isinstance(answer, Iterable):
        items = answer
    else:
        return None
    try:
        return frozenset(parse_card(str(item)) for item in items)
    except InvalidCardError:
        return None


def _act(game: Game, action: str) -> Move:
    """Play one demonstration action on ``game``: ``UNDO``, ``REDO`` or a move's notation."""
    if action == UNDO:
        return game.undo()
    if action == REDO:
        return game.redo()
    return game.play(action)


def _move_text(state: GameState, move: Move, lang: str) -> str:
    """A move described in words if it is legal, otherwise its notation."""
    if why_illegal(state, move) is None:
        return describe_move(state, move, lang)
    return _iso(str(move), lang)


@dataclass(frozen=True)
class Lesson:
    """One rule: its position, a demonstration and an exercise.

    Texts come from the locale keys ``notebook.<key>.title``, ``.text`` (the rule, told about
    the position), ``.after`` (what the demonstration showed), ``.exercise`` (the question) and
    ``.hint`` (added to the feedback on a wrong answer).
    """

    number: int
    key: str
    position: GameState
    demo: tuple[str, ...]
    exercise_: Exercise

    @property
    def exercise_position(self) -> GameState:
        """The position of the exercise."""
        return self.exercise_.position

    def title(self, lang: str) -> str:
        """The heading, e.g. ``Rule 2: Moving cards and runs``."""
        return _t("heading", lang, number=self.number, title=_t(f"{self.key}.title", lang))

    def show(self, lang: str = "en") -> Html:
        """The rule explained on its position, with a picture and the legal moves.

        >>> from klondike_widget.teach.lessons import lesson
        >>> print(lesson("foundations").show("en").text.splitlines()[-1])
        Legal moves (3): t1-f t3-f s
        """
        lang = _lang(lang)
        title = self.title(lang)
        body = _t(f"{self.key}.text", lang)
        caption = _t("caption.position", lang)
        moves_html, moves_text = _legal_moves(self.position, lang)
        html = (
            f"<h3>{escape(title)}</h3><p>{escape(body)}</p>"
            f"{_figure(self.position, caption, lang)}{moves_html}"
        )
        return Html(_wrap(html, lang), "\n".join([title, body, moves_text]))

    def play_demo(self) -> Game:
        """The demonstration played through a :class:`~klondike_widget.engine.game.Game`.

        >>> from klondike_widget.teach.lessons import lesson
        >>> lesson("counter").play_demo().moves_count  # tap, tap, undo, redo
        4
        """
        game = Game(self.position)
        for action in self.demo:
            _act(game, action)
        return game

    def demonstrate(self, lang: str = "en") -> Html:
        """What the demonstration's actions do: a table with the Moves counter, before/after.

        >>> from klondike_widget.teach.lessons import lesson
        >>> print(lesson("counter").demonstrate("en").text.splitlines()[2])
        3. Undo: tap the stock | Moves: 3
        """
        lang = _lang(lang)
        game = Game(self.position)
        rows: list[tuple[str, int]] = []
        first: Move | None = None
        for action in self.demo:
            before = game.state
            move = _act(game, action)
            if action == UNDO:
                label = f"{text('button.undo.label', lang)}: {_move_text(game.state, move, lang)}"
            elif action == REDO:
                label = f"{text('button.redo.label', lang)}: {_move_text(before, move, lang)}"
            else:
                label = describe_move(before, move, lang)
                first = first or move
            rows.append((label, game.moves_count))
        head = (_t("demo.action", lang), text("counter.label.moves", lang))
        table = (
            '<table style="border-collapse:collapse;margin:6px 0">'
            f'<tr><th style="{_CELL}">#</th><th style="{_CELL}">{escape(head[0])}</th>'
            f'<th style="{_CELL}">{escape(head[1])}</th></tr>'
            + "".join(
                f'<tr><td style="{_CELL}">{i}</td><td style="{_CELL}">{escape(label)}</td>'
                f'<td style="{_CELL}">{count}</td></tr>'
                for i, (label, count) in enumerate(rows, start=1)
            )
            + "</table>"
        )
        after = _t(f"{self.key}.after", lang)
        before_pic = _figure(self.position, _t("caption.before", lang), lang, highlight=first)
        after_pic = _figure(game.state, _t("caption.after", lang), lang)
        html = f"{table}<div>{before_pic}{after_pic}</div><p>{escape(after)}</p>"
        lines = [f"{i}. {label} | {head[1]}: {count}" for i, (label, count) in enumerate(rows, 1)]
        return Html(_wrap(html, lang), "\n".join([*lines, after]))

    def exercise(self, lang: str = "en") -> Html:
        """The question, with its position.

        >>> from klondike_widget.teach.lessons import lesson
        >>> print(lesson("moving").exercise("tr").text.splitlines()[1])
        8♠ kartını üzerindeki kartla birlikte taşıyın.
        """
        lang = _lang(lang)
        values = self.exercise_.values(self.exercise_.position, lang)
        heading = _t("exercise.heading", lang, number=self.number)
        question = _t(f"{self.key}.exercise", lang, **values)
        kind = self.exercise_.kind
        how = _t(f"answer.{kind.value}", lang, example=_iso(_EXAMPLES[kind], lang))
        how_html = escape(_t(f"answer.{kind.value}", lang, example="\0")).replace(
            "\0", f'<code dir="ltr" style="{_CODE}">{escape(_EXAMPLES[kind])}</code>'
        )
        picture = _figure(self.exercise_.position, _t("caption.exercise", lang), lang)
        html = f"<h4>{escape(heading)}</h4><p>{escape(question)}</p>{picture}<p>{how_html}</p>"
        return Html(_wrap(html, lang), "\n".join([heading, question, how]))

    def check(self, answer: object, lang: str = "en") -> Feedback:
        """Check the reader's answer to the exercise; say what is wrong if it is.

        ``...`` (the notebook's placeholder) or an empty answer is "no answer yet".

        >>> from klondike_widget.teach.lessons import lesson
        >>> lesson("draw3").check("Js 9d Kh").correct, lesson("draw3").check(...).correct
        (True, False)
        """
        lang = _lang(lang)
        ex = self.exercise_
        if _not_answered(answer):
            return Feedback(False, _t("check.no_answer", lang), lang)
        message = self._problem(answer, lang)
        if message is None:
            return Feedback(True, _t("check.correct", lang), lang)
        hint = _t(f"{self.key}.hint", lang, **ex.values(ex.position, lang))
        return Feedback(False, f"{message} {_t('check.hint', lang, hint=hint)}", lang)

    def _problem(self, answer: object, lang: str) -> str | None:
        """``None`` if ``answer`` is right, otherwise what is wrong with it."""
        ex = self.exercise_
        state = ex.position
        shown = _iso(str(answer), lang)
        if ex.kind is AnswerKind.NUMBER:
            if isinstance(answer, bool) or not isinstance(answer, (int, str)):
                return _t("check.not_a_number", lang, answer=shown)
            try:
                number = int(answer)
            except ValueError:
                return _t("check.not_a_number", lang, answer=shown)
            return None if number == ex.goal(state) else _t("check.wrong", lang, answer=shown)
        if ex.kind is AnswerKind.CARDS:
            cards = _as_cards(answer)
            if cards is None:
                return _t("check.not_cards", lang, answer=shown)
            right: frozenset[int] = ex.goal(state)
            if cards == right:
                return None
            listed = " ".join(_sym(c, lang) for c in sorted(cards))
            return _t("check.wrong", lang, answer=listed)
        if not isinstance(answer, str):
            return _t("check.not_a_move", lang, answer=shown)
        if ex.kind is AnswerKind.MOVE:
            try:
                move = state.parse_move(answer.strip())
            except InvalidMoveError:
                return _t("check.not_a_move", lang, answer=shown)
            if why_illegal(state, move) is not None:
                return _t("check.illegal", lang, move=_describe_any(state, move, lang))
            if ex.goal(state, move):
                return None
            return _t("check.wrong_move", lang, move=describe_move(state, move, lang))
        # LINE
        try:
            line = Line.parse(answer, state)
        except BrokenLineError as exc:
            return _t("check.line_broken", lang, index=exc.index, move=_iso(str(exc.move), lang))
        return None if ex.goal(line.end) else _t("check.line_short", lang)

    def solution_feedback(self, lang: str = "en") -> tuple[str, Feedback]:
        """The stored solution and the checker's verdict on it."""
        solution = self.exercise_.solution
        return str(solution), self.check(solution, lang)


def _describe_any(state: GameState, move: Move, lang: str) -> str:
    """An illegal move in words: the card it would move and where to (or its notation)."""
    kind = move.kind
    card: int | None = None
    if kind is MoveKind.COLUMN_TO_COLUMN:
        up = state.face_up(move.source)
        card = up[-move.count] if move.count <= len(up) else None
    elif kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.WASTE_TO_FOUNDATION):
        card = state.waste_top
    elif kind is MoveKind.COLUMN_TO_FOUNDATION:
        card = state.top(move.source)
    if card is None:
        return _iso(str(move), lang)
    if kind is MoveKind.COLUMN_TO_COLUMN:
        return _t(
            "illegal.column",
            lang,
            card=_sym(card, lang),
            source=move.source + 1,
            to=move.target + 1,
        )
    if kind is MoveKind.WASTE_TO_COLUMN:
        return _t("illegal.waste", lang, card=_sym(card, lang), to=move.target + 1)
    return _t("illegal.foundation", lang, card=_sym(card, lang))
