"""klondike_widget.lessons: the rules notebook's positions, demonstrations and exercise checkers."""

from __future__ import annotations

import re
import warnings

import pytest

from klondike_widget.engine.cards import card_name, parse_card
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.rules import Rules
from klondike_widget.i18n import UnknownLocaleError, available_locales
from klondike_widget.teach import exercise, lessons
from klondike_widget.teach import page as teach_page
from klondike_widget.teach.lessons import LESSONS, AnswerKind, lesson

LANGS = ("en", "pl", "tr", "ar")
#: How a lesson page embeds a board: an <img> of the SVG (untrusted notebooks keep it).
PICTURE = '<img src="data:image/svg+xml;base64,'
KEYS = [les.key for les in LESSONS]

# Hand-derived from the rules, independently of the checkers: every legal move the checker must
# accept in each move exercise (all the other legal moves must be refused).
RIGHT_MOVES = {
    "moving": {"t3:2-t2", "t3:2-t5"},  # 8♠ 7♦ onto either red 9
    "empty_column": {"w-t2", "t3:2-t2"},  # K♣ from the waste, or the K♠ Q♦ run
    "flip": {"t2-t1"},  # 4♥ onto 5♠ uncovers J♣; 5♠ onto 6♦ leaves 6♥ face up
    "foundations": {"w-f", "t2-f"},  # 5♠ onto 4♠, 2♦ onto A♦
    "foundation_back": {"fc-t1"},  # 9♣ onto 10♦, then 8♥ onto 9♣
    "stock": {"w-f"},  # only the waste top (2♣) plays: onto A♣
}


def test_every_rule_of_the_rules_pages_has_a_lesson() -> None:
    assert KEYS == [
        "deal",
        "moving",
        "empty_column",
        "flip",
        "foundations",
        "foundation_back",
        "stock",
        "draw3",
        "recycle",
        "win",
        "counter",
    ]
    assert [les.number for les in LESSONS] == list(range(1, len(LESSONS) + 1))


@pytest.mark.parametrize("key", KEYS)
def test_positions_are_valid_and_demonstrations_play(key: str) -> None:
    les = lesson(key)
    les.position.validate()
    les.exercise_position.validate()
    game = les.play_demo()
    assert game.moves_count == len(les.demo)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_stored_solution_is_accepted_and_no_answer_is_not(key: str, lang: str) -> None:
    les = lesson(key)
    solution, verdict = les.solution_feedback(lang)
    assert verdict.correct, (solution, verdict)
    assert not les.check(..., lang).correct
    assert not les.check("", lang).correct


@pytest.mark.parametrize("key", sorted(RIGHT_MOVES))
def test_move_exercises_accept_exactly_the_right_legal_moves(key: str) -> None:
    les = lesson(key)
    assert les.exercise_.kind is AnswerKind.MOVE
    state = les.exercise_position
    accepted = {str(m) for m in state.legal_moves if les.check(str(m)).correct}
    assert accepted == RIGHT_MOVES[key]
    assert len(list(state.legal_moves)) > len(accepted), "the exercise must have wrong choices"


@pytest.mark.parametrize(
    ("key", "answer"),
    [
        ("moving", "t3-t1"),  # 7♦ onto 9♣: not one rank higher
        ("empty_column", "t1-t2"),  # a Queen to the empty column
        ("empty_column", "t4-t2"),  # a Jack to the empty column
        ("foundations", "t1-f"),  # 6♠ while the spades foundation needs the 5♠
        ("foundations", "t3-f"),  # 3♦ while the diamonds foundation needs the 2♦
        ("stock", "w-t1"),  # the 2♣ on top of the waste cannot go on the 7♠
        ("foundation_back", "fh-t2"),  # the hearts foundation is empty
    ],
)
def test_illegal_answers_are_refused_and_said_to_be_illegal(key: str, answer: str) -> None:
    les = lesson(key)
    feedback = les.check(answer, "en")
    assert not feedback.correct
    assert "is not a legal move here" in feedback.message


def test_move_answers_in_other_spellings() -> None:
    les = lesson("moving")
    assert les.check(" T3-T2 ").correct  # case and spaces; the run size is found by the engine
    assert not les.check("t3:1-t2").correct  # 7♦ alone onto 9♥ is not legal
    for bad in ("t9-t1", "move it", 32, ["t3-t2"]):
        feedback = les.check(bad)
        assert not feedback.correct and "is not a move in notation" in feedback.message


def test_number_exercises() -> None:
    deal_lesson = lesson("deal")
    assert deal_lesson.check(21).correct and deal_lesson.check(" 21 ").correct
    assert sum(deal_lesson.exercise_position.face_down) == 21
    for wrong in (20, 24, 28, "0"):
        assert not deal_lesson.check(wrong).correct
    for bad in (True, 21.0, "twenty-one", [21]):
        feedback = deal_lesson.check(bad)
        assert not feedback.correct and "is not a whole number" in feedback.message
    counter = lesson("counter")
    # three taps, a recycle, undo, redo: six actions, undo and redo counted
    assert counter.check(6).correct
    assert not counter.check(4).correct  # as if undo and redo were not counted
    assert not counter.check(5).correct


def test_draw3_exercise_is_the_third_card_of_each_tap() -> None:
    les = lesson("draw3")
    state = les.exercise_position
    assert state.rules.draw == 3
    top_first = [card_name(c) for c in reversed(state.stock)]
    assert len(top_first) == 7
    # taps turn cards 1-3, 4-6 and 7 (from the top): the 3rd, 6th and 7th end on top
    expected = {top_first[2], top_first[5], top_first[6]}
    assert les.check(" ".join(expected)).correct
    assert les.check(sorted(expected)).correct  # a list works too, in any order
    assert not les.check(" ".join(top_first)).correct  # all of them: draw 1 thinking
    assert not les.check(" ".join(top_first[:3])).correct
    feedback = les.check("7c Xx")
    assert not feedback.correct and "card names" in feedback.message
    # in draw 1 every card of the stock reaches the top: the exercise's point
    draw1 = state.replace(rules=Rules(draw=1))
    assert lessons._waste_tops_in_one_pass(draw1) == frozenset(state.stock)


def test_draw3_demonstration_buries_two_playable_cards() -> None:
    les = lesson("draw3")
    after = les.play_demo().state
    assert len(after.waste) == 3
    assert not any(m.kind is MoveKind.WASTE_TO_COLUMN for m in after.legal_moves)
    for buried in after.waste[:2]:
        # the same card on top of the waste would have a column to go to
        uncovered = after.replace(waste=(*(c for c in after.waste if c != buried), buried))
        assert any(m.kind is MoveKind.WASTE_TO_COLUMN for m in uncovered.legal_moves)


def test_line_exercises() -> None:
    recycle = lesson("recycle")
    bottom = recycle.exercise_position.waste[0]
    assert recycle.check("r s").correct
    assert recycle.exercise_position.apply("r").apply("s").waste_top == bottom
    assert not recycle.check("r").correct  # legal, but the waste is empty then
    assert "does not reach the goal" in recycle.check("r").message
    broken = recycle.check("s")  # the stock is empty: tapping is not possible
    assert not broken.correct and "Move 1 of your line (s)" in broken.message
    win = lesson("win")
    assert win.check("t3-f, t1-f, t2-f, t3-f, t1-f, t4-f, t5-f").correct
    assert not win.check("t3-f t1-f").correct
    assert "Move 3" in win.check("t3-f t3-f t3-f").message  # column 3 is empty by then


def test_demonstrations_show_what_their_texts_say() -> None:
    # deal, moving, empty column, flip: the move uncovers a face-down card
    for key in ("deal", "moving", "empty_column", "flip"):
        les = lesson(key)
        assert sum(les.play_demo().state.face_down) == sum(les.position.face_down) - 1, key
    # empty column: the Queens may not go to column 1, the King-headed run may
    empty = lesson("empty_column").position
    assert empty.top(0) is None
    to_col1 = {str(m) for m in empty.legal_moves if m.target == 0 and m.kind != MoveKind.DRAW}
    assert to_col1 == {"t3:3-t1"}
    assert card_name(empty.waste_top or 0) == "Qs" and card_name(empty.top(1) or 0) == "Qd"
    # foundations: 3♥ and A♣ go up, 3♦ may not
    found = lesson("foundations").position
    assert {str(m) for m in found.legal_moves if m.kind is MoveKind.COLUMN_TO_FOUNDATION} == {
        "t1-f",
        "t3-f",
    }
    # foundation back: only allowed by the rule option
    back = lesson("foundation_back").position
    assert Move.parse("fs-t1") in back.legal_moves
    assert (
        Move.parse("fs-t1")
        not in back.replace(rules=Rules(foundation_to_tableau=False)).legal_moves
    )
    # stock: one tap turns one card, which plays at once
    stock = lesson("stock")
    after = stock.play_demo().state
    assert len(after.waste) == 0 and len(after.stock) == len(stock.position.stock) - 1
    # recycle: the first tap after turning over brings back the first card turned
    recycle = lesson("recycle")
    assert Move.recycle() in recycle.position.legal_moves
    assert recycle.play_demo().state.waste_top == recycle.position.waste[0]
    # win: the demonstration wins and leaves no move
    won = lesson("win").play_demo().state
    assert won.is_won and not won.legal_moves
    # counter: undo and redo count
    counter = lesson("counter").play_demo()
    assert counter.moves_count == 4 and len(counter.history) == 2


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_exists_in_every_language(lang: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a MissingStringWarning fails the test
        pages = [lessons.introduction(lang), lessons.answers(lang)]
        for les in LESSONS:
            pages += [les.show(lang), les.demonstrate(lang), les.exercise(lang)]
            pages.append(les.check("zz", lang))
            pages.append(les.check(..., lang))
    for page in pages:
        text = str(page)
        assert "notebook." not in text, text  # a key shown instead of its text
        assert not re.search(r"\{[a-z_]+\}", text), text  # an unfilled placeholder


def test_languages_differ_and_arabic_is_right_to_left() -> None:
    titles = {lang: str(lessons.introduction(lang)).splitlines()[0] for lang in LANGS}
    assert len(set(titles.values())) == 4
    page = lesson("moving").exercise("ar")
    assert page._repr_html_().startswith('<div lang="ar" dir="rtl">')
    assert "\u20668♠\u2069" in str(page)  # the card kept left to right inside Arabic text
    assert lesson("moving").exercise("en")._repr_html_().startswith('<div lang="en" dir="ltr">')
    # the pictures are images (they keep their own left-to-right text) with an Arabic alt text
    shown = lesson("moving").show("ar")._repr_html_()
    assert shown.count('<img src="data:image/svg+xml;base64,') == 1 and "<svg" not in shown
    assert re.search(r'<img [^>]* alt="[^"]*[\u0600-\u06ff]', shown)
    feedback = lesson("deal").check(21, "ar")
    assert feedback.correct and 'dir="rtl"' in feedback._repr_html_()


def test_pictures_and_legal_moves_in_the_html() -> None:
    page = lesson("moving").show("en")
    html = page._repr_html_()
    assert html.count(PICTURE) == 1 and "<h3>Rule 2: Moving cards and runs</h3>" in html
    for move in lesson("moving").position.legal_moves:
        assert f">{move}</code>" in html
    assert "Legal moves (8): w-t6 t2-t3 t4:3-t2" in str(page)
    demo = lesson("foundation_back").demonstrate("en")
    assert demo._repr_html_().count(PICTURE) == 2
    assert str(demo).splitlines()[:2] == [
        "1. 6♠ from the foundation onto 7♥ in column 1 | Moves: 1",
        "2. 5♦ from the waste onto 6♠ in column 1 | Moves: 2",
    ]
    assert lesson("win").demonstrate("en")._repr_html_().count(PICTURE) == 2
    assert "No legal moves" in teach_page._legal_moves(lesson("win").play_demo().state, "en")[1]


def test_same_output_every_time() -> None:
    # The notebook checks these outputs with nbval: they must not depend on anything but input.
    assert str(lesson("draw3").demonstrate("pl")) == str(lesson("draw3").demonstrate("pl"))
    assert str(lessons.answers("tr")) == str(lessons.answers("tr"))


def test_lookup_and_bad_input() -> None:
    assert lesson(1) is lesson("deal") and lesson(len(LESSONS)) is LESSONS[-1]
    for bad in (0, 12, True, "chess", None):
        with pytest.raises(KeyError, match="no lesson"):
            lesson(bad)  # type: ignore[arg-type]
    with pytest.raises(UnknownLocaleError):
        lesson("deal").show("fr")
    assert set(available_locales()) == set(LANGS)


def test_cards_answers_parse_like_the_engine() -> None:
    assert exercise._as_cards("7c, 10♥ jd") == frozenset(parse_card(c) for c in ("7c", "Th", "Jd"))
    assert exercise._as_cards("7c 1x") is None
    assert exercise._as_cards(7) is None


def _run_cell(source: str, namespace: dict[str, object]) -> object:
    """Run a notebook cell's code; return the value of its last expression (as Jupyter shows)."""
    import ast

    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)


def test_each_notebook_exercise_is_checked_against_its_own_lesson() -> None:
    """Run All, then answer any exercise and run its cell again: its own lesson checks it.

    (Once every lesson reused one variable, so after Run All the answer to rule 1, 21, was
    checked against the last lesson and marked wrong.)
    """
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parents[2] / "notebooks" / "02-rules.ipynb").read_text())
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    cells = [s for s in code if "google.colab" not in s]  # the Colab install cell (IPython magic)
    namespace: dict[str, object] = {}
    for source in cells:
        _run_cell(source, namespace)
    checks = [s for s in cells if re.search(r"^answer_\w+ = \.\.\.", s, re.M)]
    assert len(checks) == len(LESSONS)
    for source in reversed(checks):  # the first exercise last: after all the others ran
        key = re.search(r"^answer_(\w+) = \.\.\.", source, re.M).group(1)  # type: ignore[union-attr]
        solution = lesson(key).exercise_.solution
        answered = re.sub(
            r"^answer_(\w+) = \.\.\.", rf"answer_\1 = {solution!r}", source, count=1, flags=re.M
        )
        feedback = _run_cell(answered, namespace)
        assert isinstance(feedback, lessons.Feedback) and feedback.correct, (key, str(feedback))
