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

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from klondike_widget.engine.cards import InvalidCardError, card_symbol, parse_card
from klondike_widget.engine.deals import deal
from klondike_widget.engine.errors import InvalidMoveError
from klondike_widget.engine.game import Game
from klondike_widget.engine.line import BrokenLineError, Line
from klondike_widget.engine.moves import Move, MoveKind, why_illegal
from klondike_widget.engine.notation import build_position
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.i18n import describe_move, load_locale, negotiate_locale, text
from klondike_widget.render import BOARD_W, state_svg

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

# Unicode isolates keep "10♠" and move notation reading left to right inside right-to-left text.
_LRI, _PDI = "\u2066", "\u2069"
_PICTURE_SCALE = 0.75  # two pictures side by side fit a notebook output area
_BOX = "border-radius:6px;padding:6px 10px;margin:6px 0;font:15px/1.5 sans-serif"
_CODE = "font:13px/1.6 monospace;padding:0 3px;border-radius:3px;background:rgba(127,127,127,0.16)"
_CELL = "text-align:start;padding:2px 8px"
_FIGURE = "display:inline-block;margin:0 12px 8px 0;vertical-align:top"
_CAPTION = "font:14px/1.4 sans-serif;margin:4px 2px 0 2px;max-width:{w}px"
#: Undo and redo in a demonstration; every other action is move notation.
UNDO, REDO = "undo", "redo"


# -- small HTML/text values ------------------------------------------------------------------------


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


# -- exercises -------------------------------------------------------------------------------------


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


# -- lessons ---------------------------------------------------------------------------------------


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

        >>> lesson("counter").play_demo().moves_count  # tap, tap, undo, redo
        4
        """
        game = Game(self.position)
        for action in self.demo:
            _act(game, action)
        return game

    def demonstrate(self, lang: str = "en") -> Html:
        """What the demonstration's actions do: a table with the Moves counter, before/after.

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


# -- the positions ---------------------------------------------------------------------------------


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
