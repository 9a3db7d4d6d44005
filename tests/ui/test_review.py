"""The game review in a real JupyterLab and chromium, in each language: the history opens in the
panel titled "Game review" at the position before the losing move, which is marked; a click on a
move shows its position; "Try from here" starts a new game there.

Screenshots: ``test-artifacts/screenshots/review-*.png``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from klondike_widget.i18n import text
from tests.test_review import slip_game
from tests.ui.widget_page import TIMEOUT, open_runs
from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import py as _py

if TYPE_CHECKING:
    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def slip() -> tuple[str, int]:
    game, k = slip_game(8, 1)
    return game.to_json(), k


@pytest.mark.parametrize("lang", ["en", "pl", "tr", "ar"])
def test_review_strip_marks_the_losing_move_and_tries_from_there(
    lab: LabPage, slip: tuple[str, int], lang: str
) -> None:
    saved, k = slip
    setup = f"w = KlondikeWidget(game=Game.from_json({saved!r}), analyse=False, locale={lang!r})"
    root = _open(lab, f"review-{lang}.ipynb", setup)
    lab.kernel_exec("r = w.review()")
    assert _py(lab, "r.losing_move.index") == k
    panel = root.locator(".kw-line")
    panel.wait_for(state="visible", timeout=TIMEOUT)
    assert root.locator(".kw-line-title").inner_text() == text("review.title", lang)
    total = _py(lab, "len(w.game.history)")
    assert root.locator(".kw-line-item").count() == total + 1
    # The position before the mistake is shown; the mistake (step k + 1) is marked.
    root.locator(f".kw-line-item.kw-current[data-step='{k}']").wait_for(timeout=TIMEOUT)
    losing = root.locator(f".kw-line-item[data-step='{k + 1}'] .kw-line-words")
    assert losing.inner_text().startswith(text("review.losing", lang))
    marked = root.locator(".kw-line-words", has_text=text("review.losing", lang))
    assert marked.count() == 1
    play = root.locator(".kw-btn-play-here")
    assert play.inner_text() == text("review.try_from_here.label", lang)
    assert play.is_enabled()
    lab.screenshot(f"review-{lang}")
    # A click on the losing move shows the position after it, a click on the one before, back
    # (runs of stock taps are folded into one step each until opened).
    open_runs(root)
    root.locator(f".kw-line-item[data-step='{k + 1}']").click()
    root.locator(f".kw-line-item.kw-current[data-step='{k + 1}']").wait_for(timeout=TIMEOUT)
    assert _py(lab, "w.line_index") == k + 1
    root.locator(f".kw-line-item[data-step='{k}']").click()
    root.locator(f".kw-line-item.kw-current[data-step='{k}']").wait_for(timeout=TIMEOUT)
    # Try from here: a new game with the moves up to the position before the mistake.
    play.click()
    panel.wait_for(state="hidden", timeout=TIMEOUT)
    assert _py(lab, "len(w.game.history)") == k
    assert _py(lab, "w.game.moves_count") == k
    assert _py(lab, "w.line is None")
    lab.screenshot(f"review-{lang}-tried")


def test_new_deal_with_the_easy_setting_deals_a_rated_easy_deal(lab: LabPage) -> None:
    from klondike_widget.engine.ratings import rating

    setup = "w = KlondikeWidget(deal=2, draw=3, analyse=False)\nw.deal_level = 'easy'"
    root = _open(lab, "review-easy.ipynb", setup)
    before = root.locator(".kw-deal").inner_text()
    root.locator(".kw-btn-new").click()  # no move played yet: no confirmation asked
    dealt = root.locator(".kw-deal")
    for _ in range(100):
        if dealt.inner_text() != before:
            break
        lab.page.wait_for_timeout(100)
    number = int(_py(lab, "w.game.deal_number"))
    digits = "".join(c for c in dealt.inner_text() if c.isdigit())  # shown as "Deal 1,625"
    assert digits == str(number) and dealt.inner_text() != before
    assert rating(number, draw=3) == "easy"
    lab.screenshot("review-easy-deal")
