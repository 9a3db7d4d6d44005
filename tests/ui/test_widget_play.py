"""Playing like a player does, in a real JupyterLab and chromium (issue 16): keys that stay in
the game, fast clicks on a slow kernel, panels with Enter and Escape, the Draw setting, the
draw-3 fan, the win, and screenshots at 400 and 1200 px in every language.

Screenshots land in ``test-artifacts/screenshots/play-*.png``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from tests.ui.widget_page import SOLVE_TIMEOUT, TIMEOUT
from tests.ui.widget_page import center as _center
from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import py as _py
from tests.ui.widget_page import seq as _seq

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui

NOTEBOOK_STATE = """
() => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  return {types: nb.widgets.map((c) => c.model.type), mode: nb.mode,
          widgets: document.querySelectorAll('.kw-root').length};
}
"""

# The delay between kernel and browser: every message the widget sends (state updates and
# notices) and every intent it receives waits DELAY seconds on the kernel's IOLoop, in order.
DELAY = 0.15
INSTALL_DELAY = f"""
assert w._loop is not None
_send = w.comm.send
w.comm.send = lambda *a, **k: w._later({DELAY}, lambda: _send(*a, **k))
w.on_msg(w._on_msg, remove=True)
w.on_msg(lambda wd, c, b: w._later({DELAY}, lambda: w._on_msg(wd, c, b)))
print("delayed")
"""

# Hold the widget's outgoing messages (the board's updates) back, then let them go, in order.
HOLD = """
_held = []
_delayed_send = w.comm.send
w.comm.send = lambda *a, **k: _held.append((a, k))
"""
RELEASE = """
w.comm.send = _delayed_send
for _a, _k in _held:
    _delayed_send(*_a, **_k)
_held.clear()
"""


def _wait_moves(lab: LabPage, root: Locator, n: int, timeout: float = 60.0) -> None:
    """Wait until the kernel counted ``n`` moves and the board shows them."""
    lab.wait_for_kernel_output("print(w.game.moves_count)", str(n), timeout=timeout)
    root.page.wait_for_function(
        "([el, n]) => el.querySelector('.kw-moves').textContent.trim().endsWith(' ' + n)",
        arg=[root.element_handle(), n],
        timeout=timeout * 1000,
    )


def _taps(lab: LabPage, root: Locator, count: int, gap_ms: int) -> None:
    """``count`` real mouse clicks on the stock, ``gap_ms`` apart."""
    stock = root.locator(".kw-pile-s")
    stock.scroll_into_view_if_needed()
    x, y = _center(stock)
    for _ in range(count):
        lab.page.mouse.click(x, y)
        lab.page.wait_for_timeout(gap_ms)


def _expected_taps(count: int, per_pass: int) -> list[str]:
    """Stock taps on a full stock of 24: ``per_pass`` taps empty it, then one recycle."""
    out: list[str] = []
    while len(out) < count:
        out += ["s"] * per_pass + ["r"]
    return out[:count]


def test_keys_pressed_on_the_board_stay_in_the_game(lab: LabPage) -> None:
    root = _open(lab, "keys.ipynb", "w = KlondikeWidget(deal=2, analyse=False)")
    page = lab.page
    before = page.evaluate(NOTEBOOK_STATE)
    assert before["mode"] == "command"
    root.locator(".kw-pile[data-pile='t1']").focus()
    # JupyterLab's command-mode shortcuts: insert, change type, cut/copy/paste, delete, undo,
    # run, select, merge, headings, raw, line numbers, outputs, save, ...
    for key in [
        "a", "b", "m", "r", "y", "x", "c", "v", "d", "d", "z", "Shift+Z", "Shift+M", "j", "k",
        "Shift+J", "Shift+K", "1", "2", "l", "o", "Shift+O", "i", "i", "0", "0", "s", "q", "g",
        "Shift+L", "Shift+Enter", "Control+Enter", "Alt+Enter", "Shift+Space", "Shift+V",
        "Control+Shift+Minus", "Shift+ArrowDown", "Shift+ArrowUp", "Control+A", "Tab",
    ]:  # fmt: skip
        # Tab moves the focus on (the browser's own handling); bring it back to the board.
        root.locator(".kw-pile[data-pile='t1']").focus()
        page.keyboard.press(key)
        page.wait_for_timeout(30)
    page.wait_for_timeout(800)  # "d d" and other chords time out after a while in Lumino
    after = page.evaluate(NOTEBOOK_STATE)
    assert after["types"] == before["types"] == ["code", "code"]
    assert after["widgets"] == 1 and root.is_visible()
    assert _py(lab, "w.game.moves_count") == 0  # no game key among them changed the game
    lab.screenshot("play-keys-after-jupyter-shortcuts")

    # The game's keys work: Enter on the stock taps it, u undoes, y redoes, arrows move.
    root.locator(".kw-pile[data-pile='s']").focus()
    page.keyboard.press("Enter")
    _wait_moves(lab, root, 1)
    page.keyboard.press("u")
    _wait_moves(lab, root, 2)
    page.keyboard.press("y")
    _wait_moves(lab, root, 3)
    page.keyboard.press("ArrowRight")
    assert root.locator(".kw-pile[data-pile='w']").evaluate("e => e === document.activeElement")
    # "?" opens the shortcut list in the active language, Escape closes it.
    page.keyboard.press("?")
    title = _py(lab, "w.strings['strings']['keys.title']")
    root.locator(".kw-panel[data-panel='keys'] .kw-panel-title").filter(has_text=title).wait_for(
        timeout=TIMEOUT
    )
    assert root.locator(".kw-keys kbd").count() >= 10
    page.keyboard.press("Escape")
    root.locator(".kw-overlay").wait_for(state="hidden", timeout=TIMEOUT)
    assert page.evaluate(NOTEBOOK_STATE)["types"] == ["code", "code"]


def test_fast_taps_all_count_also_on_a_slow_kernel_and_a_drag_in_flight_lands(
    lab: LabPage,
) -> None:
    root = _open(lab, "fast.ipynb", "w = KlondikeWidget(deal=5, draw=3)")
    # 50 taps 20 ms apart: 50 moves, in order (8 taps empty the draw-3 stock, the 9th recycles).
    _taps(lab, root, 50, 20)
    _wait_moves(lab, root, 50)
    expected = _expected_taps(50, 8)
    assert _py(lab, "[str(m) for m in w.game.history]") == expected
    waste = _py(lab, "list(w.game.state.waste)")
    assert len(waste) == 15  # five taps into the sixth pass
    shown = root.locator(".kw-pile-w .kw-card[data-card]").evaluate_all(
        "els => els.map(e => Number(e.dataset.card))"
    )
    assert shown == waste[-3:]
    assert root.locator(".kw-notice").get_attribute("data-key") is None  # no notice at all

    # The same with 150 ms between kernel and browser each way.
    lab.kernel_exec("w.restart()")
    lab.wait_for_kernel_output("print(w.game.moves_count)", "0")
    assert lab.kernel_exec(INSTALL_DELAY).strip() == "delayed"
    t0 = time.monotonic()
    _taps(lab, root, 50, 20)
    _wait_moves(lab, root, 50, timeout=120)
    elapsed = time.monotonic() - t0
    assert _py(lab, "[str(m) for m in w.game.history]") == expected
    shown = root.locator(".kw-pile-w .kw-card[data-card]").evaluate_all(
        "els => els.map(e => Number(e.dataset.card))"
    )
    assert shown == _py(lab, "list(w.game.state.waste)")[-3:]
    print(f"50 taps with {DELAY * 1000:.0f} ms each way: all on the board after {elapsed:.1f} s")

    # A drag made while an update is in flight lands: tap the stock, and before its update
    # arrives drag 8 of diamonds (column 3) onto 9 of clubs (column 2) of deal 2. To make "in
    # flight" certain on a busy machine, the kernel holds its messages back (HOLD) until told.
    lab.kernel_exec("w.new_deal(2, draw=1)")
    root.locator(".kw-deal").filter(has_text="2").wait_for(timeout=TIMEOUT)
    page = lab.page
    for mid_drag in (False, True):
        if mid_drag:  # the second time the update lands in the middle of the drag
            lab.kernel_exec("w.undo(); w.undo()")
            root.locator(".kw-pile[data-pile='t3'] .kw-card[data-card='20']").wait_for(
                timeout=TIMEOUT
            )
            page.wait_for_timeout(500)
        seq = _seq(root)
        card = root.locator(".kw-pile[data-pile='t3'] .kw-card[data-card]").last
        x0, y0 = _center(card, 0.2)
        x1, y1 = _center(root.locator(".kw-pile[data-pile='t2']"), 0.3)
        lab.kernel_exec(HOLD)
        page.mouse.click(*_center(root.locator(".kw-pile-s")))
        lab.wait_for_kernel_output("print(len(_held) > 0)", "True")  # the tap is played
        page.mouse.move(x0, y0)
        page.mouse.down()
        for i in range(1, 11):
            page.mouse.move(x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10)
            if mid_drag and i == 5:
                lab.kernel_exec(RELEASE)
                page.wait_for_function(
                    "([el, s]) => Number(el.dataset.seq) > s",
                    arg=[root.element_handle(), seq],
                    timeout=TIMEOUT,
                )
        # The ghost that follows the pointer is opaque and lives on the page, above the cell.
        ghost = page.locator("body > .kw-ghost")
        assert ghost.count() == 1
        assert ghost.locator(".kw-card").first.evaluate("e => getComputedStyle(e).opacity") == "1"
        seq_at_drop = _seq(root)
        page.mouse.up()
        assert (seq_at_drop > seq) if mid_drag else (seq_at_drop == seq)
        lab.wait_for_kernel_output("print([str(m) for m in w.game.history[-2:]])", "['s', 't3-t2']")
        if not mid_drag:
            lab.kernel_exec(RELEASE)
        root.page.wait_for_function(
            "el => el.querySelector(\".kw-pile[data-pile='t2'] .kw-card[data-card='20']\")",
            arg=root.element_handle(),
            timeout=TIMEOUT,
        )
        page.wait_for_timeout(400)
        assert page.locator("body > .kw-ghost").count() == 0
    lab.screenshot("play-drag-in-flight")


def test_panels_enter_escape_draw_setting_fan_status_and_win(lab: LabPage) -> None:
    root = _open(lab, "panels.ipynb", "w = KlondikeWidget(deal=1, analyse=False)")
    page = lab.page
    table = root.locator(".kw-table")
    y0 = _center(table)[1]
    # Deal number: Enter in the field deals; the hint is short (no 20-digit number).
    root.locator(".kw-btn-number").click()
    field = root.locator(".kw-deal-form input")
    field.wait_for(timeout=TIMEOUT)
    expect(field).to_be_focused(timeout=TIMEOUT)  # (the panel focuses it in a timeout of 0)
    assert "18" not in root.locator(".kw-field-hint").inner_text()
    assert abs(_center(table)[1] - y0) < 1  # the panel lies over the felt: the board stays
    field.fill("3")
    page.keyboard.press("Enter")
    lab.wait_for_kernel_output("print(w.game.deal_number)", "3")
    root.locator(".kw-overlay").wait_for(state="hidden", timeout=TIMEOUT)
    # Escape closes every panel, and the focus goes back to its button.
    for button, panel in [
        (".kw-btn-number", "[data-panel='deal']"),
        (".kw-btn-rules", "[data-panel='rules']"),
        (".kw-btn-settings", ".kw-settings"),
        (".kw-btn-keys", "[data-panel='keys']"),
    ]:
        root.locator(button).click()
        root.locator(f".kw-overlay {panel}").wait_for(state="visible", timeout=TIMEOUT)
        assert abs(_center(table)[1] - y0) < 1
        page.keyboard.press("Escape")
        root.locator(".kw-overlay").wait_for(state="hidden", timeout=TIMEOUT)
        expect(root.locator(button)).to_be_focused(timeout=TIMEOUT)
    # The confirmation: Escape cancels, Enter on its OK button confirms.
    root.locator(".kw-pile-s").click()
    _wait_moves(lab, root, 1)
    root.locator(".kw-btn-new").click()
    root.locator(".kw-btn-ok").wait_for(timeout=TIMEOUT)
    page.keyboard.press("Escape")
    root.locator(".kw-overlay").wait_for(state="hidden", timeout=TIMEOUT)
    assert _py(lab, "[w.game.deal_number, w.game.moves_count]") == [3, 1]
    root.locator(".kw-btn-restart").click()
    expect(root.locator(".kw-btn-ok")).to_be_focused(timeout=TIMEOUT)
    page.keyboard.press("Enter")
    lab.wait_for_kernel_output("print(w.game.moves_count)", "0")

    # Draw 3 before the first move: the same deal again at once, in draw 3.
    root.locator(".kw-sel-draw select").select_option("3")
    lab.wait_for_kernel_output("print(w.game.rules.draw, w.game.deal_number)", "3 3")
    # After a move the game keeps its draw, and the widget says when the change applies.
    root.locator(".kw-pile-s").click()
    _wait_moves(lab, root, 1)
    root.locator(".kw-sel-draw select").select_option("1")
    text = _py(
        lab,
        "__import__('klondike_widget.i18n').i18n.text('notice.draw_next_deal', 'en', "
        "mode=w.strings['strings']['option.draw.one'])",
    )
    root.locator(".kw-notice").filter(has_text=text).wait_for(timeout=TIMEOUT)
    assert _py(lab, "[w.game.rules.draw, w.draw]") == [3, 1]

    # The draw-3 fan after playing the top card of a group: the two under it, not three.
    lab.kernel_exec("w.new_deal(8, draw=3); w.play('s'); w.play('s'); w.play('w-t5')")
    lab.wait_for_kernel_output("print(len(w.game.state.waste))", "5")
    page.wait_for_function(
        "el => el.querySelectorAll('.kw-pile-w .kw-card[data-card]').length === 2",
        arg=root.element_handle(),
        timeout=TIMEOUT,
    )
    shown = root.locator(".kw-pile-w .kw-card[data-card]").evaluate_all(
        "els => els.map(e => Number(e.dataset.card))"
    )
    assert shown == _py(lab, "list(w.game.state.waste)[3:5]")
    # The card under the top one shows its rank and its suit in the visible strip.
    under = root.locator(".kw-pile-w .kw-under").first
    assert under.locator(".kw-face text").count() >= 1 and under.locator(".kw-face g").count() >= 2
    root.locator(".kw-pile-w").screenshot(
        path=str(lab.artifacts_dir / "screenshots" / "play-draw3-fan-after-one-played.png")
    )

    # The status line: "this deal cannot be won" at move 0, hidden when the setting is off.
    lab.kernel_exec("w._analysis = 'unwinnable'; w.restart(); w._analysis = 'unwinnable'")
    lab.kernel_exec("w._publish()")
    unwinnable_deal = _py(lab, "w.strings['strings']['status.unwinnable_deal']")
    root.locator(".kw-status").filter(has_text=unwinnable_deal).wait_for(timeout=TIMEOUT)
    root.locator(".kw-btn-settings").click()
    root.locator(".kw-check-analysis input").uncheck()
    lab.wait_for_kernel_output("print(w.show_analysis)", "False")
    root.locator(".kw-status").wait_for(state="hidden", timeout=TIMEOUT)
    root.locator(".kw-sel-back select").select_option("stars")
    lab.wait_for_kernel_output("print(w.back)", "stars")
    page.keyboard.press("Escape")
    assert root.get_attribute("data-back") == "stars"

    # The win: the cards cascade on a canvas behind the "You won!" box, which stays readable.
    lab.kernel_exec("w.new_deal(3, draw=1)")
    root.locator(".kw-deal").filter(has_text="3").wait_for(timeout=TIMEOUT)
    lab.kernel_exec("n = w.finish(animate=False)", timeout=SOLVE_TIMEOUT / 1000)
    root.locator(".kw-win").wait_for(state="visible", timeout=TIMEOUT)
    root.locator(".kw-cascade").wait_for(state="attached", timeout=TIMEOUT)
    page.wait_for_timeout(1500)
    title = root.locator(".kw-win-title")
    x, y = _center(title)
    on_top = page.evaluate("([x, y]) => document.elementFromPoint(x, y).className", [x, y])
    assert on_top == "kw-win-title"
    lab.screenshot("play-win-cascade")


def _widget_shot(lab: LabPage, root: Locator, name: str) -> Any:
    path = lab.artifacts_dir / "screenshots" / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    root.screenshot(path=str(path))
    return path


@pytest.mark.parametrize("width", [400, 1200])
def test_screenshots_in_every_language(lab: LabPage, width: int) -> None:
    root = _open(
        lab,
        f"shots-{width}.ipynb",
        "w = KlondikeWidget(deal=8, draw=3, analyse=False)\n"
        "for m in ['s', 's', 'w-t5', 't5:2-t4', 't3-t2']: w.play(m)",
    )
    # The browser window is made narrow (or wide) once the notebook ran (JupyterLab's run-all
    # does not run cells of a notebook opened in a 400 px window).
    lab.page.set_viewport_size({"width": width, "height": 900})
    # As a player on a narrow screen would: the side panels folded away.
    lab.page.evaluate(
        "() => { window.jupyterapp.shell.collapseLeft(); window.jupyterapp.shell.collapseRight(); }"
    )
    lab.page.wait_for_timeout(800)
    for locale in ("en", "pl", "tr", "ar"):
        lab.kernel_exec(f"w.locale = '{locale}'")
        lab.page.wait_for_function(
            "([el, l]) => el.getAttribute('lang') === l",
            arg=[root.element_handle(), locale],
            timeout=TIMEOUT,
        )
        lab.page.wait_for_timeout(300)
        _widget_shot(lab, root, f"play-{locale}-{width}")
        sizes = root.evaluate(
            """r => ({card: r.querySelector('.kw-pile-t .kw-card[data-card]')
                       .getBoundingClientRect().width,
                     rank: Math.max(...Array.from(r.querySelectorAll(
                       '.kw-pile-t .kw-card[data-card] .kw-face text'),
                       (t) => t.getBoundingClientRect().height)),
                     bar: r.querySelector('.kw-toolbar').getBoundingClientRect().height,
                     total: r.getBoundingClientRect().height,
                     overflow: r.scrollWidth - r.clientWidth})"""
        )
        assert sizes["overflow"] <= 1, sizes
        assert sizes["bar"] < 0.2 * sizes["total"], sizes  # the toolbar stays small
        if width == 400:  # the widget is about 290 px wide in a 400 px window
            # the narrow faces' big index: a rank about as tall as body text, not a corner's
            assert sizes["card"] >= 34 and sizes["rank"] >= 15, sizes
        else:
            assert sizes["rank"] >= 12, sizes
    if width == 400:
        lab.screenshot("play-400-page")
        # "More" opens the rest of the toolbar on a narrow widget.
        root.locator(".kw-btn-more").click()
        root.locator(".kw-btn-rules").wait_for(state="visible", timeout=TIMEOUT)
        _widget_shot(lab, root, "play-ar-400-more")
