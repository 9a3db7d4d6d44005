"""KlondikeWidget in a real JupyterLab and chromium: played with the mouse, touch-free pointer
drags, clicks, the keyboard and the buttons, checked against the game in the kernel.

Screenshots land in ``test-artifacts/screenshots/widget-*.png``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.ui.widget_page import SOLVE_TIMEOUT, TIMEOUT, reload_widget
from tests.ui.widget_page import center as _center
from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import py as _py
from tests.ui.widget_page import seq as _seq

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui


def _wait_seq(root: Locator, seq: int) -> None:
    """Wait until the view shows a state newer than ``seq``."""
    root.page.wait_for_function(
        "([el, seq]) => Number(el.dataset.seq) > seq",
        arg=[root.element_handle(), seq],
        timeout=TIMEOUT,
    )


def test_board_renders_and_stock_tap(lab: LabPage) -> None:
    root = _open(lab, "render.ipynb", "w = KlondikeWidget(deal=2, locale='en')")
    assert root.locator(".kw-pile-t").count() == 7
    assert root.locator(".kw-pile-f").count() == 4
    # 28 cards on the columns: 21 backs and 7 faces.
    assert root.locator(".kw-tableau .kw-back").count() == 21
    assert root.locator(".kw-tableau .kw-card[data-card]").count() == 7
    assert root.locator(".kw-pile-s .kw-count").inner_text() == "24"
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    lab.screenshot("widget-en-start")

    seq = _seq(root)
    root.locator(".kw-pile-s").click()
    _wait_seq(root, seq)
    assert _py(lab, "w.game.moves_count") == 1
    assert _py(lab, "len(w.game.state.waste)") == 1
    assert root.locator(".kw-pile-w .kw-card[data-card]").count() == 1
    assert root.locator(".kw-pile-s .kw-count").inner_text() == "23"
    assert re.search(r"1\b", root.locator(".kw-moves").inner_text())
    # The move was announced in the aria-live region.
    assert "waste" in root.locator(".kw-live").inner_text().lower()


def _card(root: Locator, pile: str, index: int) -> Locator:
    return root.locator(f".kw-pile[data-pile='{pile}'] .kw-card[data-index='{index}']")


def _drag(lab: LabPage, src: Locator, dst: Locator, dy: float = 0.15) -> None:
    """A real pointer drag (mouse down, several moves, up) from ``src`` to ``dst``."""
    page = lab.page
    x0, y0 = _center(src, 0.15)
    x1, y1 = _center(dst, dy)
    page.mouse.move(x0, y0)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
    page.mouse.up()


def test_drag_a_run_click_move_double_click_keyboard_and_undo(lab: LabPage) -> None:
    # Deal 3 after t2-t1, t2-t3 has a two-card run to move: t3:2-t2.
    root = _open(lab, "play.ipynb", "w = KlondikeWidget(deal=3)\nw.play('t2-t1'); w.play('t2-t3')")
    assert "t3:2-t2" in _py(lab, "[str(m) for m in w.game.legal_moves]")
    # Drag the run by its lower card (index 2 = the first face-up card of column 3).
    col3 = _py(lab, "[w.game.state.face_down[2], len(w.game.state.columns[2])]")
    assert col3[1] - col3[0] == 2
    seq = _seq(root)
    _drag(lab, _card(root, "t3", col3[0]), root.locator(".kw-pile[data-pile='t2']"))
    _wait_seq(root, seq)
    assert _py(lab, "str(w.game.history[-1])") == "t3:2-t2"
    lab.page.wait_for_timeout(400)  # let the cards finish gliding for the picture
    lab.screenshot("widget-after-run-drag")

    # A drag onto a pile that is not a legal target changes nothing.
    moves = _py(lab, "w.game.moves_count")
    top = _py(lab, "[len(w.game.state.columns[1]) - 1]")[0]
    _drag(lab, _card(root, "t2", top), root.locator(".kw-pile[data-pile='fc']"), dy=0.5)
    lab.page.wait_for_timeout(400)
    assert _py(lab, "w.game.moves_count") == moves

    # Click to pick (legal targets light up), click to drop: with one-click moves off.
    lab.kernel_exec("w.new_deal(2); w.one_click = False")
    root.locator(".kw-deal").filter(has_text="2").wait_for(timeout=TIMEOUT)
    seq = _seq(root)
    _card(root, "t3", 2).click()
    assert root.locator(".kw-pile.kw-target").count() >= 1
    assert root.locator(".kw-pile[data-pile='t2'].kw-target").count() == 1
    lab.screenshot("widget-picked-targets")
    root.locator(".kw-pile[data-pile='t2']").click()
    _wait_seq(root, seq)
    # The card glides to its new place (see the reduced-motion test for the opposite).
    glides = root.evaluate(
        "root => document.getAnimations().filter("
        "a => a.effect && a.effect.target && root.contains(a.effect.target)).length"
    )
    assert glides >= 1
    assert _py(lab, "str(w.game.history[-1])") == "t3-t2"

    # Double-click sends a card to its foundation (A♦ tops column 6).
    seq = _seq(root)
    _card(root, "t6", 5).dblclick()
    _wait_seq(root, seq)
    assert _py(lab, "str(w.game.history[-1])") == "t6-f"
    root.locator(".kw-pile[data-pile='fd'] .kw-card[data-card]").wait_for(timeout=TIMEOUT)

    # Keyboard: focus column 4, Enter picks A♠, arrows walk to the spades foundation, Enter drops.
    seq = _seq(root)
    root.locator(".kw-pile[data-pile='t4']").focus()
    page = lab.page
    page.keyboard.press("Enter")
    assert root.locator(".kw-pile[data-pile='t4'] .kw-picked").count() == 1
    for _ in range(4):  # t4 -> t3 -> t2 -> t1 -> fs (wraps back to the end of the top row)
        page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowDown")  # fs -> t7 (below it)
    assert root.locator(".kw-pile[data-pile='t7']").evaluate("e => e === document.activeElement")
    page.keyboard.press("ArrowUp")  # t7 -> fs
    assert root.locator(".kw-pile[data-pile='fs']").evaluate("e => e === document.activeElement")
    page.keyboard.press("Enter")
    _wait_seq(root, seq)
    assert _py(lab, "str(w.game.history[-1])") == "t4-f"
    assert "spades" in root.locator(".kw-live").inner_text().lower()

    # Undo with the button, redo with the key.
    seq = _seq(root)
    root.locator(".kw-btn-undo").click()
    _wait_seq(root, seq)
    assert _py(lab, "[len(w.game.history), w.game.moves_count]") == [2, 4]
    seq = _seq(root)
    root.locator(".kw-pile[data-pile='t1']").focus()
    page.keyboard.press("y")
    _wait_seq(root, seq)
    assert _py(lab, "[str(w.game.history[-1]), w.game.moves_count]") == ["t4-f", 5]
    assert root.locator(".kw-moves").inner_text().endswith("5")


def test_two_views_stay_in_sync_and_survive_reload(lab: LabPage) -> None:
    _open(lab, "sync.ipynb", "w = KlondikeWidget(deal=2)", views=2)
    a = lab.cell_output(1).locator(".kw-root")
    b = lab.cell_output(2).locator(".kw-root")
    b.wait_for(state="visible", timeout=TIMEOUT)
    seq = _seq(b)
    a.locator(".kw-pile-s").click()
    _wait_seq(b, seq)
    assert b.locator(".kw-pile-s .kw-count").inner_text() == "23"
    assert b.locator(".kw-pile-w .kw-card[data-card]").count() == 1
    seq = _seq(a)
    b.locator(".kw-pile-s").click()
    _wait_seq(a, seq)
    assert a.locator(".kw-pile-s .kw-count").inner_text() == "22"
    lab.screenshot("widget-two-views")

    # After a reload of the page (the notebook saved, the kernel still running) the widget shows
    # the game the kernel holds, not the one it started with.
    again = reload_widget(lab)
    assert again.locator(".kw-pile-s .kw-count").inner_text() == "22"
    assert again.locator(".kw-moves").inner_text().endswith("2")


@pytest.mark.parametrize("locale", ["pl", "tr", "ar"])
def test_language_switch(lab: LabPage, locale: str) -> None:
    root = _open(lab, f"lang-{locale}.ipynb", "w = KlondikeWidget(deal=5, draw=3)\nw.play('s')")
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    root.locator(".kw-sel-lang select").select_option(locale)
    lab.wait_for_kernel_output("print(w.locale)", locale)
    lab.page.wait_for_function(
        "([el, l]) => el.getAttribute('lang') === l", arg=[root.element_handle(), locale]
    )
    expected_dir = "rtl" if locale == "ar" else "ltr"
    assert root.get_attribute("dir") == expected_dir
    # Texts come from the locale: the Undo button says what the locale file says.
    undo = _py(
        lab, f"__import__('klondike_widget.i18n').i18n.text('button.undo.label', '{locale}')"
    )
    assert root.locator(".kw-btn-undo").inner_text() == undo
    # Draw 3: three cards fanned on the waste, only the top one takes the pointer.
    assert root.locator(".kw-pile-w .kw-card[data-card]").count() == 3
    assert root.locator(".kw-pile-w .kw-under").count() == 2
    if locale == "ar":
        # The board mirrors (auto): column 1 is on the right, but card faces stay LTR.
        x1 = _center(root.locator(".kw-pile[data-pile='t1']"))[0]
        x7 = _center(root.locator(".kw-pile[data-pile='t7']"))[0]
        assert x1 > x7
        assert root.locator(".kw-card[data-card] .kw-face").first.get_attribute("dir") == "ltr"
        # The waste fans away from the stock, never over it.
        stock = root.locator(".kw-pile-s").bounding_box()
        for card in root.locator(".kw-pile-w .kw-card").all():
            box = card.bounding_box()
            assert box is not None and stock is not None
            assert box["x"] + box["width"] <= stock["x"] + 1
        lab.screenshot("widget-ar-rtl-mirrored")
        root.locator(".kw-btn-settings").click()
        root.locator(".kw-sel-mirror select").select_option("off")
        lab.wait_for_kernel_output("print(w.mirror)", "off")
        lab.page.wait_for_function(
            "el => el.querySelector('.kw-table').getAttribute('dir') === 'ltr'",
            arg=root.element_handle(),
        )
        x1 = _center(root.locator(".kw-pile[data-pile='t1']"))[0]
        x7 = _center(root.locator(".kw-pile[data-pile='t7']"))[0]
        assert x1 < x7
        assert root.get_attribute("dir") == "rtl"  # the text stays right-to-left
        root.locator(".kw-btn-settings").click()  # the settings panel lies over the felt: close it
        root.locator(".kw-overlay").wait_for(state="hidden", timeout=TIMEOUT)
        lab.screenshot("widget-ar-rtl-not-mirrored")
    else:
        lab.screenshot(f"widget-{locale}")
    # A move is announced in the aria-live region in the active language.
    seq = _seq(root)
    root.locator(".kw-pile-s").click()
    _wait_seq(root, seq)
    said = root.locator(".kw-live").inner_text()
    assert said == _py(lab, "w.view['announce']['text']")
    announce = "__import__('klondike_widget.i18n').i18n.announce_move"
    expected = _py(lab, f"{announce}(w.game.states[-2], w.game.history[-1], '{locale}')")
    assert said == expected
    # The rules page of the active language.
    root.locator(".kw-btn-rules").click()
    title = _py(
        lab, f"__import__('klondike_widget.i18n').i18n.strings_for('{locale}')['rules']['title']"
    )
    assert root.locator(".kw-rules-title").inner_text() == title
    lab.screenshot(f"widget-{locale}-rules")


def test_hint_then_finish_to_a_win(lab: LabPage) -> None:
    root = _open(lab, "finish.ipynb", "w = KlondikeWidget(deal=3, pace=5)")
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    root.locator(".kw-btn-hint").click()
    root.locator(".kw-hint-src").first.wait_for(timeout=TIMEOUT)
    hint = _py(lab, "w.view['hint']")
    assert hint is not None
    lab.screenshot("widget-hint")
    assert root.locator(".kw-btn-finish").get_attribute("aria-disabled") == "false"
    root.locator(".kw-btn-finish").click()
    root.locator(".kw-win").wait_for(state="visible", timeout=120_000)
    assert _py(lab, "w.game.is_won")
    moves = _py(lab, "w.game.moves_count")
    assert moves > 100
    assert root.locator(".kw-moves").inner_text().endswith(str(moves))
    assert str(moves) in root.locator(".kw-win-msg").inner_text()
    lab.page.wait_for_timeout(800)  # let the celebration settle for the picture
    lab.screenshot("widget-won")


def test_finish_can_be_stopped_and_rejections_are_shown(lab: LabPage) -> None:
    root = _open(lab, "stop.ipynb", "w = KlondikeWidget(deal=3, pace=150)")
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    root.locator(".kw-btn-finish").click()
    lab.page.wait_for_function(
        "el => el.classList.contains('kw-finishing')", arg=root.element_handle(), timeout=TIMEOUT
    )
    lab.page.wait_for_timeout(700)
    root.locator(".kw-btn-finish").click()  # now labelled Stop
    lab.wait_for_kernel_output("print(w.finishing)", "False")
    played = _py(lab, "w.game.moves_count")
    assert 0 < played < 100
    lab.page.wait_for_timeout(500)
    assert _py(lab, "w.game.moves_count") == played  # it really stopped
    # A stale intent from this view is refused and said so in the active language.
    lab.kernel_exec("w.play('s')")  # the board changes behind the page's back...
    root.page.evaluate("() => 0")
    text = _py(lab, "__import__('klondike_widget.i18n').i18n.text('reject.nothing_to_redo', 'en')")
    root.locator(".kw-btn-redo").evaluate("b => { b.disabled = false; b.click(); }")
    root.locator(".kw-notice").filter(has_text=text).wait_for(timeout=TIMEOUT)
    assert _py(lab, "w.last_notice[0]") == "reject.nothing_to_redo"


TOUCH_DRAG = """
([card, target]) => {
  // Pointer events as a finger makes them (pointerType "touch"): down, moves, up.
  const a = card.getBoundingClientRect();
  const b = target.getBoundingClientRect();
  const x0 = a.left + a.width / 2, y0 = a.top + a.height * 0.15;
  const x1 = b.left + b.width / 2, y1 = b.top + b.height * 0.15;
  const opts = (x, y) => ({bubbles: true, cancelable: true, composed: true, pointerId: 7,
                          pointerType: 'touch', isPrimary: true, button: 0, buttons: 1,
                          clientX: x, clientY: y});
  card.dispatchEvent(new PointerEvent('pointerdown', opts(x0, y0)));
  for (let i = 1; i <= 8; i++) {
    const x = x0 + (x1 - x0) * i / 8, y = y0 + (y1 - y0) * i / 8;
    card.dispatchEvent(new PointerEvent('pointermove', opts(x, y)));
  }
  card.dispatchEvent(new PointerEvent('pointerup', opts(x1, y1)));
  return true;
}
"""

TOUCH_TAP = """
(card) => {
  const r = card.getBoundingClientRect();
  const o = {bubbles: true, cancelable: true, composed: true, pointerId: 8, pointerType: 'touch',
             isPrimary: true, button: 0, clientX: r.left + r.width / 2, clientY: r.top + 10};
  card.dispatchEvent(new PointerEvent('pointerdown', o));
  card.dispatchEvent(new PointerEvent('pointerup', o));
}
"""


def test_touch_drag_double_tap_reduced_motion_and_dark_theme(lab: LabPage) -> None:
    lab.page.emulate_media(reduced_motion="reduce")
    root = _open(lab, "touch.ipynb", "w = KlondikeWidget(deal=2, one_click=False)")
    # Touch drag of 8♦ (column 3) onto 9♣ (column 2).
    seq = _seq(root)
    card = _card(root, "t3", 2).element_handle()
    target = root.locator(".kw-pile[data-pile='t2']").element_handle()
    lab.page.evaluate(TOUCH_DRAG, [card, target])
    _wait_seq(root, seq)
    assert _py(lab, "str(w.game.history[-1])") == "t3-t2"
    # With reduced motion no card glides.
    glides = root.evaluate(
        "root => document.getAnimations().filter("
        "a => a.effect && a.effect.target && root.contains(a.effect.target)).length"
    )
    assert glides == 0
    # Two taps on A♠ (top of column 4) send it to its foundation.
    seq = _seq(root)
    ace = _card(root, "t4", 3).element_handle()
    lab.page.evaluate(TOUCH_TAP, ace)
    lab.page.wait_for_timeout(60)
    lab.page.evaluate(TOUCH_TAP, ace)
    _wait_seq(root, seq)
    assert _py(lab, "str(w.game.history[-1])") == "t4-f"

    # JupyterLab's dark theme: the widget follows through the CSS variables.
    lab.page.evaluate(
        "() => window.jupyterapp.commands.execute('apputils:change-theme', "
        "{theme: 'JupyterLab Dark'})"
    )
    lab.page.wait_for_function(
        "() => document.body.dataset.jpThemeLight === 'false'", timeout=TIMEOUT
    )
    lab.page.wait_for_timeout(500)
    bg = root.locator(".kw-btn-undo").evaluate("e => getComputedStyle(e).backgroundColor")
    light = [int(x) for x in re.findall(r"\d+", bg)[:3]]
    assert sum(light) < 3 * 128, bg  # a dark button background
    lab.screenshot("widget-dark")
    lab.page.evaluate(
        "() => window.jupyterapp.commands.execute('apputils:change-theme', "
        "{theme: 'JupyterLab Light'})"
    )


def test_deal_by_number_and_finish_from_python(lab: LabPage) -> None:
    root = _open(lab, "number.ipynb", "w = KlondikeWidget(deal=1, pace=0)")
    root.locator(".kw-btn-number").click()
    root.locator(".kw-deal-form input").fill("not a number")
    root.locator(".kw-deal-form button[type='submit']").click()
    text = _py(
        lab, "__import__('klondike_widget.i18n').i18n.text('reject.invalid_deal_number', 'en')"
    )
    root.locator(".kw-notice").filter(has_text=text).wait_for(timeout=TIMEOUT)
    assert _py(lab, "w.game.deal_number") == 1
    root.locator(".kw-btn-number").click()
    root.locator(".kw-deal-form input").fill("3")
    root.locator(".kw-deal-form button[type='submit']").click()
    lab.wait_for_kernel_output("print(w.game.deal_number)", "3")
    root.locator(".kw-deal").filter(has_text="3").wait_for(timeout=TIMEOUT)
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    # Finish started from a cell: the moves land through the kernel's IOLoop, after the cell.
    lab.kernel_exec("n = w.finish()")
    root.locator(".kw-win").wait_for(state="visible", timeout=120_000)
    assert _py(lab, "[w.game.is_won, w.game.moves_count == n, w.finishing]") == [True, True, False]


def test_plays_in_notebook_7(lab: LabPage) -> None:
    """The same widget in Jupyter Notebook 7 (served by the same Jupyter server)."""
    lab.write_notebook(
        "nb7.ipynb", ["from klondike_widget import KlondikeWidget", "w = KlondikeWidget(deal=2)\nw"]
    )
    page = lab.page
    page.goto("/notebooks/nb7.ipynb", timeout=120_000)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120_000)
    # Notebook 7 may ask which kernel to start; then Run > Run All Cells through the menu bar.
    select = page.get_by_role("button", name="Select", exact=True)
    try:
        select.wait_for(state="visible", timeout=10_000)
        select.click()
    except PlaywrightError:
        pass  # no dialog: the kernel starts by itself
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle']").wait_for(
        state="attached", timeout=120_000
    )
    page.get_by_role("menuitem", name="Run").first.click()
    page.get_by_role("menuitem", name=re.compile("^Run All Cells")).first.click()
    root = page.locator(".kw-root").first
    root.wait_for(state="visible", timeout=120_000)
    seq = _seq(root)
    root.locator(".kw-pile-s").click()
    _wait_seq(root, seq)
    assert root.locator(".kw-pile-s .kw-count").inner_text() == "23"
    lab.screenshot("widget-notebook7")
