"""Lessons on live boards (no browser): each board judges the student's move with its own
lesson's checker, in the active language; hint, "Show me" and "Start again" as the front end
sends them; exercises answered in a cell are explored on the board, never judged there.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from klondike_widget.i18n import text
from klondike_widget.teach.exercise import AnswerKind
from klondike_widget.teach.lessons import LESSONS, lesson
from klondike_widget.widget import KlondikeWidget
from klondike_widget.widget.lesson_coach import lesson_board
from tests.teach.test_lessons import RIGHT_MOVES

LANGS = ("en", "pl", "tr", "ar")
MOVE_LESSONS = [les.key for les in LESSONS if les.exercise_.kind is AnswerKind.MOVE]
PLAYED = [les.key for les in LESSONS if les.exercise_.kind in (AnswerKind.MOVE, AnswerKind.LINE)]


def _board(key: str, lang: str = "en") -> KlondikeWidget:
    board = lesson_board(lesson(key), lang)
    board.send = lambda content, buffers=None: None  # type: ignore[method-assign]
    return board


def intent(w: KlondikeWidget, kind: str, **fields: Any) -> None:
    w._handle_custom_msg({"kind": kind, "seq": w.view["seq"], **fields}, [])


def _wait_finish(w: KlondikeWidget) -> None:
    deadline = time.monotonic() + 30
    while (w.finishing or w.view["status"] == "finishing") and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.mark.parametrize("key", MOVE_LESSONS)
def test_every_legal_move_is_judged_by_its_own_lesson(key: str) -> None:
    start = lesson(key).exercise_position
    for move in start.legal_moves:
        board = _board(key)
        try:
            board.play(move)
            verdict = board.view["lesson"]["verdict"]
            assert verdict["ok"] is (str(move) in RIGHT_MOVES[key]), (key, str(move))
        finally:
            board.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_verdict_says_why_in_the_active_language(lang: str) -> None:
    board = _board("flip", lang)
    try:
        board.play("t1-t3")  # legal, but it turns nothing face up
        wrong = board.view["lesson"]["verdict"]
        assert wrong["ok"] is False
        assert text("notebook.flip.hint", lang) in wrong["text"]  # why: the rule
        intent(board, "lesson_retry")
        assert board.game.moves_count == 0 and board.view["lesson"]["verdict"] is None
        board.play("t2-t1")
        right = board.view["lesson"]["verdict"]
        assert right["ok"] is True
        head = text("lesson.right_why", lang, move="\0", why="\0").split("\0")[0]
        assert right["text"].startswith(head)
        board.locale = "en" if lang != "en" else "pl"  # the verdict follows the language
        assert board.view["lesson"]["verdict"]["text"] != right["text"]
    finally:
        board.close()


@pytest.mark.parametrize("key", PLAYED)
def test_show_me_plays_the_answer_and_it_is_right(key: str) -> None:
    board = _board(key)
    try:
        board.play(next(iter(board.game.legal_moves)))  # whatever the student did first
        intent(board, "lesson_show")
        assert board.game.moves_count == 0 or board.finishing  # back at the start, playing
        _wait_finish(board)
        part = board.view["lesson"]
        assert part["shown"] is True and part["verdict"]["ok"] is True, part
        assert str(board.game.history[0]) == str(lesson(key).exercise_.solution).split()[0]
    finally:
        board.close()


def test_the_hint_shows_words_and_lights_up_the_move() -> None:
    board = _board("foundation_back", "tr")
    try:
        assert board.view["lesson"]["hint"] is None
        intent(board, "lesson_hint")
        part = board.view["lesson"]
        values = lesson("foundation_back").exercise_.values
        hint = text("notebook.foundation_back.hint", "tr", **values(board.game.state, "tr"))
        assert part["hint"] == hint
        assert board.view["hint"] is not None and board.view["hint"]["src"] == "fc"
    finally:
        board.close()


@pytest.mark.parametrize("key", ["deal", "draw3", "counter"])
def test_a_typed_answer_is_explored_on_the_board_never_judged(key: str) -> None:
    board = _board(key)
    try:
        assert board.view["lesson"]["kind"] == "answer"
        board.play(next(iter(board.game.legal_moves)))
        assert board.view["lesson"]["verdict"] == {"ok": None, "text": text("lesson.explore", "en")}
        intent(board, "lesson_show")
        assert board.last_notice is not None and board.last_notice[0] == "reject.no_lesson"
    finally:
        board.close()


def test_a_lesson_board_deals_nothing_and_records_nothing() -> None:
    board = _board("stock")
    try:
        intent(board, "new_deal")
        assert board.last_notice is not None and board.last_notice[0] == "reject.in_lesson"
        assert board.game.state == lesson("stock").exercise_position
        board.play("w-f")
        intent(board, "restart")  # Restart on a lesson board starts the exercise again
        assert board.game.state == lesson("stock").exercise_position
        assert board.table.tracker.summary().get("off") is True
    finally:
        board.close()


def test_an_ordinary_board_has_no_lesson() -> None:
    w = KlondikeWidget(deal=2, analyse=False, stats=False)
    w.send = lambda content, buffers=None: None  # type: ignore[method-assign]
    try:
        assert w.view["lesson"] is None
        intent(w, "lesson_hint")
        assert w.last_notice is not None and w.last_notice[0] == "reject.no_lesson"
    finally:
        w.close()
