"""Lessons of the rules notebook (``notebooks/02-rules.ipynb``): one rule at a time.

Each :class:`Lesson` holds a constructed position that shows one rule, a short demonstration
(moves played through a :class:`~klondike_widget.engine.game.Game`, so the Moves counter is the real
one) and an :class:`Exercise` whose answer the reader checks with a cell. Every text comes from
the locale files (keys ``notebook.*``) and every picture is a static SVG from
:mod:`klondike_widget.render`, so a lesson reads the same in JupyterLab, VS Code, Colab, GitHub
and nbviewer, in any shipped language.

The answers are never stored as results: each exercise computes what is right from its position
through the engine (legal moves, taps, the Moves counter), and :attr:`Exercise.solution` is one
answer that the tests check against that computation.

Examples
--------
>>> [lesson.key for lesson in LESSONS][:4]
['deal', 'moving', 'empty_column', 'flip']
>>> lesson("moving").check("t3:2-t2", "en").correct
True
>>> print(lesson("moving").check("t3-t1", "en"))  # doctest: +ELLIPSIS
✗ 7♦ from column 3 onto column 1 is not a legal move here. Hint: A card goes onto a card one ...
>>> print(lesson("deal").check(21, "pl"))
✓ Dobrze!
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from klondike_widget.engine.cards import parse_card
from klondike_widget.engine.deals import deal
from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.notation import build_position
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.teach.exercise import REDO, UNDO, AnswerKind, Exercise, Lesson, _act
from klondike_widget.teach.page import _CODE, Feedback, Html, _lang, _sym, _t, _wrap

__all__ = [
    "LESSONS",
    "AnswerKind",
    "Exercise",
    "Feedback",
    "Html",
    "Lesson",
    "answers",
    "introduction",
    "lesson",
]


def _pos(columns: list[str], **kwargs: Any) -> GameState:
    return build_position(columns, **kwargs)


def _card(name: str) -> int:
    return parse_card(name)


def _moves_card(state: GameState, move: Move, card: int) -> bool:
    return (
        move.kind is MoveKind.COLUMN_TO_COLUMN and state.face_up(move.source)[-move.count] == card
    )


def _flips(state: GameState, move: Move) -> bool:
    return sum(state.apply(move).face_down) < sum(state.face_down)


def _onto_empty(state: GameState, move: Move) -> bool:
    return (
        move.kind in (MoveKind.WASTE_TO_COLUMN, MoveKind.COLUMN_TO_COLUMN)
        and state.top(move.target) is None
    )


def _to_foundation(state: GameState, move: Move) -> bool:
    return move.kind in (MoveKind.WASTE_TO_FOUNDATION, MoveKind.COLUMN_TO_FOUNDATION)


def _frees_waste(state: GameState, move: Move) -> bool:
    """A card back from a foundation after which the waste card can go onto a column."""
    if move.kind is not MoveKind.FOUNDATION_TO_COLUMN:
        return False
    after = state.apply(move)
    return any(m.kind is MoveKind.WASTE_TO_COLUMN for m in after.legal_moves)


def _from_waste(state: GameState, move: Move) -> bool:
    return move.kind in (MoveKind.WASTE_TO_FOUNDATION, MoveKind.WASTE_TO_COLUMN)


def _waste_tops_in_one_pass(state: GameState) -> frozenset[int]:
    """The cards that come to the top of the waste, tapping through the whole stock once."""
    tops = set()
    while state.stock:
        state = state.apply(Move.draw())
        if state.waste_top is not None:
            tops.add(state.waste_top)
    return frozenset(tops)


def _counter_after(actions: Sequence[str]) -> Callable[[GameState], int]:
    def count(state: GameState) -> int:
        game = Game(state)
        for action in actions:
            _act(game, action)
        return game.moves_count

    return count


_HIGH = {"c": 7, "d": 7, "h": 7, "s": 7}  # Aces to 7s home: a small stock, short columns
_DRAW3 = _pos(
    ["#8c Kd", "#Jh 9s", "#Qc Td", "#Ks 8h", "#9c Jd", "#7d Qs", "Jc"],
    stock="Kh 9d Qd 7s Js Th 8d",  # bottom to top: the top card is 8♦
    foundations={"c": 6, "d": 6, "h": 6, "s": 6},
    rules=Rules(draw=3),
)
_RECYCLE = _pos(
    ["#Tc Kd", "#Jh 8s", "#Qd Td", "#Ks 8d", "#9c Jd", "#Th Qs", "Jc"],
    waste="9s 8h Qc",
    stock="",
    foundations=_HIGH,
)
_COUNTER = _pos(
    ["#Tc Kd", "#Jh 9s", "#Qd Th", "#Ks 8d", "#9c Jd", "#Td Qs", "Jc"],
    stock="9h 8h 8s",
    foundations=_HIGH,
)
_WIN_FOUNDATIONS = {"c": 12, "d": 12, "h": 11, "s": 12}
_COUNTER_ACTIONS = ("s", "s", "s", "r", UNDO, REDO)

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        1,
        "deal",
        deal(3),
        ("t2-t1",),
        Exercise(deal(3), AnswerKind.NUMBER, lambda s: sum(s.face_down), 21),
    ),
    Lesson(
        2,
        "moving",
        _pos(
            ["#4d Kc Qh", "#3s 9d", "Ts", "#5c #Jh 8c 7h 6s", "#2d 9h", "#Ad 5d", "#7c #2h Js"],
            waste="4c",
        ),
        ("t4:3-t2",),
        Exercise(
            _pos(
                ["#6d 9c", "#3s 9h", "#Tc 8s 7d", "Td", "#2c 9d", "#Qd 4s", "#3c Kh"],
                waste="Qc",
            ),
            AnswerKind.MOVE,
            lambda s, m: _moves_card(s, m, _card("8s")),
            "t3:2-t2",
            lambda s, lang: {"card": _sym(_card("8s"), lang)},
        ),
    ),
    Lesson(
        3,
        "empty_column",
        _pos(["", "#4c Qd", "#7s Kh Qc Jh", "#2s Jd", "#9c 5h", "#Ah 3c", "#8d Ts"], waste="Qs"),
        ("t3:3-t1",),
        Exercise(
            _pos(["#2c Qh", "", "#9c Ks Qd", "Jc", "#5s 8h", "#6d 3s", "#Td Qc"], waste="Kc"),
            AnswerKind.MOVE,
            _onto_empty,
            "t3:2-t2",
            lambda s, lang: {"column": 2},
        ),
    ),
    Lesson(
        4,
        "flip",
        _pos(["#7s 5h", "6c", "#3d Jc", "#Kd 9s", "#4h 2c", "#Qs 8d", "#Th 4c"], waste="2s"),
        ("t1-t2",),
        Exercise(
            _pos(["#3d 6h 5s", "#Jc 4h", "6d", "#8c Qs", "#Kc 2d", "#9s 7h", "#5c Td"], waste="Kd"),
            AnswerKind.MOVE,
            _flips,
            "t2-t1",
        ),
    ),
    Lesson(
        5,
        "foundations",
        _pos(
            ["3h", "#5c 3d", "#9s Ac", "#Jd 4h", "#2s 8c", "#Kh Qc", "#6d Td"],
            waste="7s",
            foundations={"h": 2},
        ),
        ("t1-f", "t3-f"),
        Exercise(
            _pos(
                ["6s", "#3c 2d", "#Qh 3d", "#Jc 9h", "#4d 7c", "#Kd 8h", "#Tc Ks"],
                waste="5s",
                foundations={"s": 4, "d": 1},
            ),
            AnswerKind.MOVE,
            _to_foundation,
            "w-f",
        ),
    ),
    Lesson(
        6,
        "foundation_back",
        _pos(
            ["7h", "#Jc 9d", "#Qh Ts", "#4d Kc", "#8c Jh", "#Td 5c", "#9h Qs"],
            waste="5d",
            foundations={"s": 6, "c": 3, "d": 2, "h": 1},
        ),
        ("fs-t1", "w-t1"),
        Exercise(
            _pos(
                ["Td", "#Qs 6s", "#Kh Jc", "#3s 7d", "#4h Kd", "#5h Qc", "#Jh 4s"],
                waste="8h",
                foundations={"c": 9, "d": 5, "s": 2},
            ),
            AnswerKind.MOVE,
            _frees_waste,
            "fc-t1",
            lambda s, lang: {"card": _sym(_card("8h"), lang)},
        ),
    ),
    Lesson(
        7,
        "stock",
        _pos(["#Qd 8h", "#3c Ts", "#Kd 5c", "#7h Jc", "#2h 4s", "#9d Qs", "#Jh 6h"]),
        ("s", "w-f"),
        Exercise(
            _pos(
                ["#Qd 7s", "#3c Ts", "#Kd 5c", "#7h Jc", "#2h 4s", "#9d Qs", "#Jh 6d"],
                waste="6h 2c",
                foundations={"c": 1},
            ),
            AnswerKind.MOVE,
            _from_waste,
            "w-f",
        ),
    ),
    Lesson(
        8,
        "draw3",
        _DRAW3,
        ("s",),
        Exercise(
            _DRAW3,
            AnswerKind.CARDS,
            _waste_tops_in_one_pass,
            "Js 9d Kh",
            lambda s, lang: {"cards": " ".join(_sym(c, lang) for c in reversed(s.stock))},
        ),
    ),
    Lesson(
        9,
        "recycle",
        _RECYCLE,
        ("r", "s"),
        Exercise(
            _RECYCLE,
            AnswerKind.LINE,
            lambda end: end.waste_top == _card("9s"),
            "r s",
            lambda s, lang: {"card": _sym(_card("9s"), lang)},
        ),
    ),
    Lesson(
        10,
        "win",
        _pos(["Kh", "Kc Qh", "Kd", "Ks"], foundations=_WIN_FOUNDATIONS),
        ("t2-f", "t1-f", "t2-f", "t3-f", "t4-f"),
        Exercise(
            _pos(
                ["Kc Qh", "Kh", "Qc Jh", "Kd", "Ks"],
                foundations={"c": 11, "d": 12, "h": 10, "s": 12},
            ),
            AnswerKind.LINE,
            lambda end: end.is_won,
            "t3-f t1-f t2-f t3-f t1-f t4-f t5-f",
        ),
    ),
    Lesson(
        11,
        "counter",
        _COUNTER,
        ("s", "s", UNDO, REDO),
        Exercise(
            _COUNTER,
            AnswerKind.NUMBER,
            _counter_after(_COUNTER_ACTIONS),
            6,
        ),
    ),
)

_BY_KEY = {lesson.key: lesson for lesson in LESSONS}


def lesson(key: str | int) -> Lesson:
    """The lesson with this key (``"moving"``) or number (2).

    >>> lesson(2) is lesson("moving")
    True
    >>> lesson("chess")
    Traceback (most recent call last):
    ...
    KeyError: "no lesson 'chess'; lessons: deal, moving, empty_column, flip, foundations, \
foundation_back, stock, draw3, recycle, win, counter"
    """
    if isinstance(key, int) and not isinstance(key, bool) and 1 <= key <= len(LESSONS):
        return LESSONS[key - 1]
    if isinstance(key, str) and key in _BY_KEY:
        return _BY_KEY[key]
    raise KeyError(f"no lesson {key!r}; lessons: {', '.join(_BY_KEY)}")


def introduction(lang: str = "en") -> Html:
    """The notebook's opening: what it teaches and how the exercises work.

    >>> introduction("pl").text.splitlines()[0]
    'Poznaj zasady pasjansa Klondike'
    """
    lang = _lang(lang)
    title = _t("title", lang)
    intro = _t("intro", lang)
    how = _t("how", lang)
    items = [les.title(lang) for les in LESSONS]
    html = (
        f"<h2>{escape(title)}</h2><p>{escape(intro)}</p><ol>"
        + "".join(f"<li>{escape(_t(f'{les.key}.title', lang))}</li>" for les in LESSONS)
        + f"</ol><p>{escape(how)}</p>"
    )
    return Html(_wrap(html, lang), "\n".join([title, intro, *items, how]))


def answers(lang: str = "en") -> Html:
    """One correct answer to every exercise, each with the checker's verdict on it.

    >>> print(answers("en").text.splitlines()[1])
    Rule 1: The deal: 21 ✓ Correct!
    """
    lang = _lang(lang)
    rows = []
    lines = [_t("answers.title", lang)]
    for les in LESSONS:
        solution, verdict = les.solution_feedback(lang)
        rows.append(
            f"<tr><td>{escape(les.title(lang))}</td>"
            f'<td><code dir="ltr" style="{_CODE}">{escape(solution)}</code></td>'
            f"<td>{escape(str(verdict))}</td></tr>"
        )
        lines.append(f"{les.title(lang)}: {solution} {verdict}")
    html = (
        f"<h3>{escape(lines[0])}</h3>"
        '<table style="border-collapse:collapse">' + "".join(rows) + "</table>"
    )
    return Html(_wrap(html, lang), "\n".join(lines))
