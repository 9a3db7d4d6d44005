"""A lesson played on a live board: the widget with one lesson's position and only its goal.

:func:`lesson_board` gives a :class:`~klondike_widget.widget.KlondikeWidget` set on the exercise
position of one :class:`~klondike_widget.teach.exercise.Lesson` (no solver, no statistics). Its
:class:`LessonCoach` judges the moves the student makes with that lesson's own checker
(:meth:`Lesson.check`), so every board is bound to its lesson, and publishes ``view["lesson"]``:
the question, the verdict in the active language (whether it was the move asked for, and why), a
hint on request, and whether "Show me" played the answer (the widget animates it move by move).

Exercises that ask for a move or a line are judged on the board. Those that ask for a number or
a set of cards (count the face-down cards, which cards a pass of the stock brings up) are
explored on the board and answered in a cell below it.

Examples
--------
>>> from klondike_widget.teach.lessons import lesson
>>> w = lesson_board(lesson("flip"), "en")
>>> w.view["lesson"]["verdict"] is None, w.view["lesson"]["kind"]
(True, 'move')
>>> w.play("t2-t1") and None
>>> w.view["lesson"]["verdict"]["ok"]
True
>>> w.view["lesson"]["verdict"]["text"]  # doctest: +ELLIPSIS
'Yes, that is the move asked for: 4♥ from column 2 onto 5♠ in column 1...'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from klondike_widget import i18n
from klondike_widget.engine.game import Game
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.i18n import narrate
from klondike_widget.teach.exercise import AnswerKind, Lesson
from klondike_widget.widget.protocol import LessonVerdict, LessonView

if TYPE_CHECKING:
    from klondike_widget.widget import KlondikeWidget

__all__ = ["LessonCoach", "lesson_board", "lesson_part"]

#: Exercises answered by playing on the board (the others are answered in a cell).
_PLAYED = (AnswerKind.MOVE, AnswerKind.LINE)


class LessonCoach:
    """Judges a lesson board's game with its lesson's checker; keeps what was asked for.

    Parameters
    ----------
    lesson : Lesson
        The lesson whose exercise the board is.
    """

    def __init__(self, lesson: Lesson) -> None:
        if not isinstance(lesson, Lesson):
            raise TypeError(f"a lesson board needs a Lesson, not {type(lesson).__name__}")
        self.lesson = lesson
        self.hinted = False
        self.shown = False

    @property
    def played(self) -> bool:
        """True when the exercise is answered by playing on the board."""
        return self.lesson.exercise_.kind in _PLAYED

    def new_game(self) -> Game:
        """The exercise's position, as a new game (the board starts, and starts again, here)."""
        self.shown = False
        return Game(self.lesson.exercise_position)

    def answer(self) -> tuple[Move, ...]:
        """The moves of the stored solution ("Show me" plays them); empty for typed answers."""
        if not self.played:
            return ()
        line = Line.parse(str(self.lesson.exercise_.solution), self.lesson.exercise_position)
        return tuple(line.moves)

    def part(self, game: Game, locale: str) -> LessonView:
        """``view["lesson"]`` for ``game`` (the board's game) in ``locale``."""
        lesson = self.lesson
        ex = lesson.exercise_
        values = ex.values(ex.position, locale)
        hint = i18n.text(f"notebook.{lesson.key}.hint", locale, **values)
        return {
            "key": lesson.key,
            "title": lesson.title(locale),
            "question": i18n.text(f"notebook.{lesson.key}.exercise", locale, **values),
            "kind": ex.kind.value if self.played else "answer",
            "verdict": self._verdict(game, locale),
            "hint": hint if self.hinted else None,
            "shown": self.shown,
        }

    def _verdict(self, game: Game, locale: str) -> LessonVerdict | None:
        moves = list(game.history)
        if not moves:
            return None
        if not self.played:
            return {"ok": None, "text": i18n.text("lesson.explore", locale)}
        start = self.lesson.exercise_position
        if self.lesson.exercise_.kind is AnswerKind.MOVE:
            moves = moves[:1]  # the first move is the answer; later ones are only play
        feedback = self.lesson.check(" ".join(str(m) for m in moves), locale)
        if feedback.correct:
            return {"ok": True, "text": _right(start, moves, locale)}
        if self.lesson.exercise_.kind is AnswerKind.LINE and game.legal_moves:
            played = i18n.describe_move(game.states[-2], moves[-1], locale)
            return {"ok": None, "text": i18n.text("lesson.going", locale, move=played)}
        return {"ok": False, "text": feedback.message}


def _right(start: GameState, moves: list[Move], locale: str) -> str:
    """The verdict on a right answer: the move in words and what it achieves, if anything."""
    if len(moves) > 1:
        return i18n.text("lesson.right_line", locale)
    words = i18n.describe_move(start, moves[0], locale)
    why = narrate.why(Line(start, moves), 0, locale)
    if why:
        return i18n.text("lesson.right_why", locale, move=words, why=why)
    return i18n.text("lesson.right", locale, move=words)


def lesson_part(coach: LessonCoach | None, game: Game, locale: str) -> LessonView | None:
    """``view["lesson"]``: ``coach``'s part for ``game``, or None on an ordinary board."""
    return None if coach is None else coach.part(game, locale)


def lesson_board(lesson: Lesson, locale: str = "en", **kwargs: object) -> KlondikeWidget:
    """A live board for ``lesson``'s exercise, in ``locale`` (other widget options in kwargs).

    The board has no solver and records no statistics; it keeps only the lesson's goal.

    >>> from klondike_widget.teach.lessons import lesson
    >>> w = lesson_board(lesson("stock"), "pl")
    >>> w.view["lesson"]["question"] == i18n.text("notebook.stock.exercise", "pl")
    True
    >>> lesson_board("stock")
    Traceback (most recent call last):
    ...
    TypeError: a lesson board needs a Lesson, not str
    """
    from klondike_widget.widget import KlondikeWidget

    coach = LessonCoach(lesson)
    options: dict[str, object] = {"analyse": False, "stats": False, "locale": locale}
    options.update(kwargs)
    return KlondikeWidget(game=coach.new_game(), coach=coach, **options)  # type: ignore[arg-type]
