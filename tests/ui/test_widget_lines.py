"""The analysis panel in a real JupyterLab and chromium: a solver line opened after Hint and
after Finish, stepped with the buttons, the list, the slider and the keys (swapped in Arabic),
the board read from the DOM and compared with the engine's ``Line[k]`` in the kernel.

Screenshots: ``test-artifacts/screenshots/widget-line-*.png``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.ui.widget_page import SOLVE_TIMEOUT, TIMEOUT, open_runs, reload_widget
from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import py as _py

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui


# What the board shows, read from the DOM: every pile's face-down count and face-up card ids.
READ_BOARD = """
root => {
  const pile = (id) => root.querySelector(`.kw-pile[data-pile='${id}']`);
  const up = (id) => Array.from(pile(id).querySelectorAll('.kw-card[data-card]'))
    .map((c) => Number(c.dataset.card));
  const cols = [1, 2, 3, 4, 5, 6, 7].map((i) => [
    pile('t' + i).querySelectorAll('.kw-back').length, up('t' + i)]);
  const count = pile('s').querySelector('.kw-count');
  const found = ['fc', 'fd', 'fh', 'fs'].map((f) => up(f).length ? up(f)[0] : null);
  return {cols, waste: up('w'), found, stock: count ? Number(count.textContent) : 0};
}
"""

# The same, from the engine's position in the kernel.
ENGINE_BOARD = (
    "(lambda s: {{'cols': [[s.face_down[i], list(s.columns[i][s.face_down[i]:])] "
    "for i in range(7)], 'waste': list(s.waste[-(3 if s.rules.draw == 3 else 1):]) "
    "if s.waste else [], 'found': [s.foundation_top(j) for j in range(4)], "
    "'stock': len(s.stock)}})({state})"
)


def _at_step(root: Locator, k: int) -> None:
    """Wait until the panel marks step ``k`` as the current one."""
    current = root.locator(f".kw-line-item.kw-current[data-step='{k}']")
    current.wait_for(timeout=TIMEOUT)
    assert current.get_attribute("aria-current") == "step"


def _check_board(lab: LabPage, root: Locator, k: int) -> None:
    """The board in the DOM is the engine's ``w.line[k]``; the next move is highlighted."""
    _at_step(root, k)
    assert _py(lab, "w.line_index") == k
    shown = root.evaluate(READ_BOARD)
    assert shown == _py(lab, ENGINE_BOARD.format(state=f"w.line[{k}]")), k
    nxt = _py(
        lab,
        f"(lambda m: m and __import__('klondike_widget.view').view.move_target(m, w.line[{k}]))"
        f"(w.line.moves[{k}] if {k} < len(w.line.moves) else None)",
    )
    if nxt is None:
        assert root.locator(".kw-next-src").count() == 0
    else:
        src = root.locator(f".kw-pile[data-pile='{nxt[0]}']")
        marked = src.locator(".kw-next-src").count() + (
            1 if "kw-next-src" in (src.get_attribute("class") or "") else 0
        )
        assert marked >= 1, (k, nxt)
        if nxt[2] != "w":
            assert "kw-next-dst" in (
                root.locator(f".kw-pile[data-pile='{nxt[2]}']").get_attribute("class") or ""
            )


# The first step from 20 on whose next move goes from column to column.
TABLEAU_STEP = (
    "next(i for i, m in enumerate(L.moves)"
    " if i >= 20 and str(m).startswith('t') and '-t' in str(m))"
)


def _current_in_view(root: Locator) -> None:
    """The current step's entry is inside the list's visible part."""
    inside = root.evaluate(
        "root => { const l = root.querySelector('.kw-line-list');"
        " const c = l.querySelector('.kw-current'); const a = l.getBoundingClientRect();"
        " const b = c.getBoundingClientRect(); return b.top >= a.top && b.bottom <= a.bottom; }"
    )
    assert inside


def _set_slider(root: Locator, k: int) -> None:
    root.locator(".kw-line-slider").evaluate(
        "(el, k) => { el.value = String(k);"
        " el.dispatchEvent(new Event('input', {bubbles: true})); }",
        k,
    )


def test_line_after_hint_step_jump_and_play_from_here(lab: LabPage) -> None:
    root = _open(lab, "line-en.ipynb", "w = KlondikeWidget(deal=3, pace=5)")
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    root.locator(".kw-btn-hint").click()
    root.locator(".kw-hint-src").first.wait_for(timeout=TIMEOUT)
    assert root.locator(".kw-btn-line").is_enabled()
    root.locator(".kw-btn-line").click()
    root.locator(".kw-line").wait_for(state="visible", timeout=TIMEOUT)
    lab.kernel_exec("L = w.line")
    total = _py(lab, "len(w.line.moves)")
    assert total > 100 and _py(lab, "w.line.start == w.game.state")
    assert root.locator(".kw-line-item").count() == total + 1
    # Runs of stock taps are folded into one step each ("turn the stock until ..."); a click
    # on one opens it. Open them all for what follows.
    heads = root.locator(".kw-line-run")
    assert heads.count() > 0 and root.locator(".kw-line-item[hidden]").count() > 0
    first_run = int(heads.first.get_attribute("data-run-head") or "0")
    assert root.locator(f".kw-line-item[data-step='{first_run + 1}']").is_hidden()
    open_runs(root)
    # The words are the localized descriptions computed in Python.
    words = _py(
        lab,
        "[__import__('klondike_widget.i18n').i18n.describe_move(w.line[i], w.line.moves[i], 'en')"
        " for i in range(5)]",
    )
    assert [
        root.locator(f".kw-line-item[data-step='{i + 1}'] .kw-line-words").inner_text()
        for i in range(5)
    ] == words
    moves_text = root.locator(".kw-moves").inner_text()
    _check_board(lab, root, 0)
    assert root.locator(".kw-line-step").inner_text() == "Starting position"

    # Forward and back with the buttons.
    for k in (1, 2, 3):
        root.locator(".kw-line-next").click()
        _check_board(lab, root, k)
    root.locator(".kw-line-previous").click()
    _check_board(lab, root, 2)
    assert root.locator(".kw-line-step").inner_text() == f"Step 2 of {total}"
    # Jump: a click on a move of the list, the slider, the last and first buttons.
    root.locator(".kw-line-item[data-step='10']").click()
    _check_board(lab, root, 10)
    # For the picture: a step whose next move goes from column to column, far down the list.
    k = _py(lab, TABLEAU_STEP)
    root.locator(f".kw-line-item[data-step='{k}']").click()
    _check_board(lab, root, k)
    _current_in_view(root)
    lab.page.mouse.move(0, 0)
    lab.screenshot("widget-line-en")
    _set_slider(root, 40)
    _check_board(lab, root, 40)
    root.locator(".kw-line-last").click()
    _check_board(lab, root, total)
    root.locator(".kw-line-first").click()
    _check_board(lab, root, 0)
    # Keys: Right/Left step, End/Home jump (focus inside the panel, on a button that disables
    # at the end: the focus stays in the panel).
    root.locator(".kw-line-next").focus()
    page = lab.page
    page.keyboard.press("ArrowRight")
    _check_board(lab, root, 1)
    page.keyboard.press("ArrowRight")
    _check_board(lab, root, 2)
    page.keyboard.press("ArrowLeft")
    _check_board(lab, root, 1)
    page.keyboard.press("End")
    _check_board(lab, root, total)
    assert root.locator(".kw-line-list").evaluate("e => e === document.activeElement")
    page.keyboard.press("Home")
    _check_board(lab, root, 0)
    # Stepping never touched the game.
    assert _py(lab, "[w.game.moves_count, len(w.game.history)]") == [0, 0]
    assert root.locator(".kw-moves").inner_text() == moves_text
    # The board is read-only meanwhile.
    assert root.locator(".kw-btn-undo").is_disabled() and root.locator(".kw-btn-hint").is_disabled()

    # Play from here at step 12: twelve real moves in the game, the panel closes.
    root.locator(".kw-line-item[data-step='12']").click()
    _at_step(root, 12)
    root.locator(".kw-btn-play-here").click()
    root.locator(".kw-line").wait_for(state="hidden", timeout=TIMEOUT)
    assert _py(lab, "[w.game.moves_count, w.line is None, w.view['status']]") == [
        12,
        True,
        "playing",
    ]
    assert _py(lab, "w.game.history == L.moves[:12] and w.game.state == L[12]") is True
    assert root.locator(".kw-moves").inner_text().endswith("12")
    shown = root.evaluate(READ_BOARD)
    assert shown == _py(lab, ENGINE_BOARD.format(state="w.game.state"))
    # Undo takes a played move back.
    root.locator(".kw-btn-undo").click()
    lab.wait_for_kernel_output("print(len(w.game.history))", "11")


def test_line_after_finish_in_arabic_keys_swap(lab: LabPage) -> None:
    root = _open(lab, "line-ar.ipynb", "w = KlondikeWidget(deal=3, pace=0, locale='ar')")
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    root.locator(".kw-btn-finish").click()
    root.locator(".kw-win").wait_for(state="visible", timeout=120_000)
    moves = _py(lab, "w.game.moves_count")
    root.locator(".kw-btn-line").click()
    root.locator(".kw-line").wait_for(state="visible", timeout=TIMEOUT)
    assert root.get_attribute("dir") == "rtl"
    assert _py(lab, "[w.line.moves == w.game.history, w.line.end == w.game.state]") == [True, True]
    # The game is won: this line does not start at the position on the table.
    assert root.locator(".kw-btn-play-here").is_disabled()
    assert root.locator(".kw-line-title").inner_text() == _py(
        lab, "__import__('klondike_widget.i18n').i18n.text('analysis.title', 'ar')"
    )
    _check_board(lab, root, 0)
    # Right-to-left: ArrowLeft goes forward, ArrowRight back; Home/End as usual.
    root.locator(".kw-line-list").focus()
    page = lab.page
    for k in (1, 2, 3):
        page.keyboard.press("ArrowLeft")
        _check_board(lab, root, k)
    page.keyboard.press("ArrowRight")
    _check_board(lab, root, 2)
    page.keyboard.press("End")
    _check_board(lab, root, moves)
    page.keyboard.press("Home")
    _check_board(lab, root, 0)
    # The controls follow the text direction: "first" is right of "last".
    first = root.locator(".kw-line-first").bounding_box()
    last = root.locator(".kw-line-last").bounding_box()
    assert first is not None and last is not None and first["x"] > last["x"]
    open_runs(root)
    root.locator(".kw-line-item[data-step='30']").click()
    _check_board(lab, root, 30)
    k = _py(lab, TABLEAU_STEP.replace("L.", "w.line."))
    _set_slider(root, k)
    _check_board(lab, root, k)
    _current_in_view(root)
    lab.page.mouse.move(0, 0)
    lab.screenshot("widget-line-ar")
    # Autoplay moves on by itself and pauses on request.
    lab.kernel_exec("w.step_pace = 100")
    root.locator(".kw-line-autoplay").click()
    root.locator(".kw-line-autoplay[aria-pressed='true']").wait_for(timeout=TIMEOUT)
    page.wait_for_function(
        "([el, k]) => Number(el.querySelector('.kw-line-item.kw-current').dataset.step) >= k",
        arg=[root.element_handle(), k + 3],
        timeout=TIMEOUT,
    )
    root.locator(".kw-line-autoplay").click()
    lab.wait_for_kernel_output("print(w.view['line']['auto'])", "False")
    paused = _py(lab, "w.line_index")
    page.wait_for_timeout(500)
    assert _py(lab, "w.line_index") == paused
    _check_board(lab, root, paused)
    # Back to the game: the won game, untouched.
    root.locator(".kw-btn-back").click()
    root.locator(".kw-win").wait_for(state="visible", timeout=TIMEOUT)
    assert _py(lab, "[w.game.moves_count, w.game.is_won, w.line is None]") == [moves, True, True]


def test_line_from_python_two_views_and_reload(lab: LabPage) -> None:
    setup = (
        "from klondike_widget.solver import solve, Limit\n"
        "w = KlondikeWidget(deal=3, analyse=False)\n"
        "w.show_line(solve(w.game.state, Limit(seconds=60)))"
    )
    _open(lab, "line-sync.ipynb", setup, views=2)
    a = lab.cell_output(1).locator(".kw-root")
    b = lab.cell_output(2).locator(".kw-root")
    b.locator(".kw-line").wait_for(state="visible", timeout=TIMEOUT)
    a.locator(".kw-line-next").click()
    _at_step(b, 1)
    lab.kernel_exec("w.step(25)")
    _check_board(lab, a, 25)
    _check_board(lab, b, 25)
    lab.kernel_exec("w.line_index = 7")
    _check_board(lab, b, 7)
    # After a reload the panel is back at the same step (everything is in traits).
    again = reload_widget(lab)
    _check_board(lab, again, 7)
    lab.kernel_exec("w.back_to_game()")
    again.locator(".kw-line").wait_for(state="hidden", timeout=TIMEOUT)
    assert _py(lab, "w.game.moves_count") == 0
