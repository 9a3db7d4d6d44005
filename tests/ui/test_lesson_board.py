"""A lesson on a live board in a real JupyterLab and chromium, in each language: the student
drags a card; the board says whether it was the move asked for and why; "Start again", the
right move, the hint, and "Show me" (the answer played, the cards gliding).

Screenshots: ``test-artifacts/screenshots/lesson-*.png``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from klondike_widget.i18n import text
from tests.ui.widget_page import TIMEOUT, center
from tests.ui.widget_page import py as _py

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui


def _drag(lab: LabPage, src: Locator, dst: Locator) -> None:
    page = lab.page
    x0, y0 = center(src, 0.15)
    x1, y1 = center(dst, 0.3)
    page.mouse.move(x0, y0)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
    page.mouse.up()


def _card(root: Locator, pile: str, index: int) -> Locator:
    return root.locator(f".kw-pile[data-pile='{pile}'] .kw-card[data-index='{index}']")


def _verdict(root: Locator, state: str) -> Locator:
    verdict = root.locator(f".kw-lesson-verdict[data-verdict='{state}']")
    verdict.wait_for(state="visible", timeout=TIMEOUT)
    return verdict


@pytest.mark.parametrize("lang", ["en", "pl", "tr", "ar"])
def test_a_live_lesson_judges_the_move_in_each_language(lab: LabPage, lang: str) -> None:
    cells = [
        "from klondike_widget.teach.lessons import lesson\n"
        "from klondike_widget.widget.lesson_coach import lesson_board\n"
        f"w = lesson_board(lesson('flip'), {lang!r}, one_click=False)",
        "w",
    ]
    lab.run_notebook(f"lesson-{lang}.ipynb", cells)
    root = lab.cell_output(1).locator(".kw-root")
    root.wait_for(state="visible", timeout=TIMEOUT)
    assert root.get_attribute("dir") == ("rtl" if lang == "ar" else "ltr")
    box = root.locator(".kw-lesson-box")
    assert box.locator(".kw-lesson-question").inner_text() == text("notebook.flip.exercise", lang)
    assert root.locator(".kw-btn-new").is_hidden()  # only the lesson's goal: no new deal
    # A legal move that is not the one asked for: 5♠ (column 1) onto 6♦ (column 3).
    _drag(lab, _card(root, "t1", 2), root.locator(".kw-pile[data-pile='t3']"))
    wrong = _verdict(root, "wrong")
    assert wrong.locator(".kw-lesson-icon").inner_text() == "✗"
    assert text("notebook.flip.hint", lang) in wrong.inner_text()
    assert _py(lab, "str(w.game.history[0])") == "t1-t3"
    lab.screenshot(f"lesson-{lang}-wrong")
    root.locator(".kw-btn-lesson-retry").click()
    lab.wait_for_kernel_output("print(w.game.moves_count)", "0")
    root.locator(".kw-lesson-verdict").wait_for(state="hidden", timeout=TIMEOUT)
    # The move asked for: 4♥ (column 2) onto 5♠ (column 1) turns J♣ face up.
    _drag(lab, _card(root, "t2", 1), root.locator(".kw-pile[data-pile='t1']"))
    right = _verdict(root, "right")
    assert right.locator(".kw-lesson-icon").inner_text() == "✓"
    head = text("lesson.right_why", lang, move="\0", why="\0").split("\0")[0].strip()
    assert right.inner_text().split("\n")[-1].strip().startswith(head)
    assert _py(lab, "str(w.game.history[0])") == "t2-t1"
    lab.page.wait_for_timeout(400)  # the card glides into place before the picture
    lab.screenshot(f"lesson-{lang}-right")
    if lang == "en":  # the hint, then "Show me" plays the answer from the exercise's position
        root.locator(".kw-btn-lesson-retry").click()
        lab.wait_for_kernel_output("print(w.game.moves_count)", "0")
        root.locator(".kw-btn-lesson-hint").click()
        hint = root.locator("p.kw-lesson-hint")
        hint.wait_for(state="visible", timeout=TIMEOUT)
        assert hint.inner_text() == text("notebook.flip.hint", "en")
        root.locator(".kw-btn-lesson-show").click()
        _verdict(root, "right")
        assert _py(lab, "[str(m) for m in w.game.history]") == ["t2-t1"]
        assert _py(lab, "w.view['lesson']['shown']") is True
        lab.screenshot("lesson-en-shown")
