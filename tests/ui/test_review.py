"""The game review in a real JupyterLab and chromium, in each language: the Review button runs
the review in the kernel's background (its progress shows), the history opens in the panel titled
"Game review" at the position before the losing move, which is marked with a cross and words; a
click on a move shows its position; "Try from here" starts a new game there. Also: a winnable easy
deal chosen in the settings panel.

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

#: In the kernel: every search of the review takes 0.4 s longer, so its progress can be seen.
SLOW_REVIEW = """
import time as _time
import klondike_widget.review as _review
_solve = _review.solve
def _slow_solve(*args, **kwargs):
    _time.sleep(0.4)
    return _solve(*args, **kwargs)
_review.solve = _slow_solve
"""


@pytest.fixture(scope="module")
def slip() -> tuple[str, int]:
    game, k = slip_game(8, 1)
    return game.to_json(), k


@pytest.mark.parametrize("lang", ["en", "pl", "tr", "ar"])
def test_review_button_marks_the_losing_move_and_tries_from_there(
    lab: LabPage, slip: tuple[str, int], lang: str
) -> None:
    saved, k = slip
    setup = (
        f"w = KlondikeWidget(game=Game.from_json({saved!r}), analyse=False, locale={lang!r},"
        " stats=False)"
    )
    root = _open(lab, f"review-{lang}.ipynb", setup)
    if lang == "en":
        lab.kernel_exec(SLOW_REVIEW)
    button = root.locator(".kw-btn-review")
    assert button.get_attribute("aria-label") == text("button.review.label", lang)
    if not button.is_visible():  # a narrow widget keeps it in the "more" menu
        root.locator(".kw-btn-more").click()
    button.click()
    if lang == "en":  # the review runs in the background: the progress shows, the kernel answers
        progress = root.locator(".kw-review-progress")
        progress.wait_for(state="visible", timeout=TIMEOUT)
        assert _py(lab, "w.view['review']['running']") is True
        assert progress.get_attribute("role") == "progressbar"
        assert button.is_disabled()
        lab.page.wait_for_function(
            "el => Number(el.getAttribute('aria-valuenow')) > 0",
            arg=progress.element_handle(),
            timeout=TIMEOUT,
        )
        lab.screenshot("review-en-progress")
    panel = root.locator(".kw-line")
    panel.wait_for(state="visible", timeout=60_000)
    assert root.locator(".kw-review-progress").is_hidden()
    assert root.locator(".kw-line-title").inner_text() == text("review.title", lang)
    summary = root.locator(".kw-line-summary").inner_text()
    assert summary == _py(lab, "w.line_view['summary']")
    assert summary.startswith(text("review.summary.losing", lang, index=k + 1, move="\0")[:12])
    total = _py(lab, "len(w.game.history)")
    assert root.locator(".kw-line-item").count() == total + 1
    # The position before the mistake is shown; the mistake (step k + 1) is marked, once.
    root.locator(f".kw-line-item.kw-current[data-step='{k}']").wait_for(timeout=TIMEOUT)
    marked = root.locator(".kw-line-item.kw-line-marked")
    assert marked.count() == 1 and marked.get_attribute("data-step") == str(k + 1)
    assert marked.locator(".kw-line-mark-icon").inner_text() == "✗"
    assert marked.locator(".kw-line-mark-text").inner_text() == text("review.losing", lang)
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


def test_a_won_game_offers_its_review_in_the_win_box(lab: LabPage) -> None:
    root = _open(lab, "review-won.ipynb", "w = KlondikeWidget(deal=2, analyse=False, stats=False)")
    lab.kernel_exec(
        "from klondike_widget.solver import solve, Limit\n"
        "w.game.play_line(solve(w.game, Limit(seconds=20)).moves); w.game = w.game"
    )
    again = root.locator(".kw-win .kw-btn-review-game")
    again.wait_for(state="visible", timeout=60_000)
    assert root.locator(".kw-btn-review.kw-suggested").is_visible()
    again.click()
    root.locator(".kw-line").wait_for(state="visible", timeout=60_000)
    assert root.locator(".kw-line-summary").inner_text() == text("review.summary.none", "en")
    assert root.locator(".kw-line-item.kw-line-marked").count() == 0
    lab.screenshot("review-won")


def test_new_deal_with_the_easy_setting_deals_a_rated_easy_deal(lab: LabPage) -> None:
    from klondike_widget.engine.ratings import rating

    setup = "w = KlondikeWidget(deal=2, draw=3, analyse=False, stats=False)"
    root = _open(lab, "review-easy.ipynb", setup)
    root.locator(".kw-btn-settings").click()
    level = root.locator(".kw-sel-level select")
    options = level.locator("option").all_inner_texts()
    assert options == [text(f"settings.deal_level.{v}", "en") for v in LEVELS_SHOWN]
    level.select_option("easy")
    lab.wait_for_kernel_output("print(w.deal_level)", "easy")
    lab.screenshot("review-easy-setting")
    root.locator(".kw-btn-settings").click()  # close the panel (it lies over the felt)
    root.locator(".kw-overlay").wait_for(state="hidden", timeout=TIMEOUT)
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


LEVELS_SHOWN = ("any", "winnable", "easy", "medium", "hard")
