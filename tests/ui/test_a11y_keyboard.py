"""The widget played with the keyboard only: moves, every panel opened and closed, a deal
finished; what changes is said in the live region, and the focus always lands somewhere useful.

The focus is put once on the widget's first button (as a Tab from the notebook would); from
there on only keys are pressed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.ui.widget_page import SOLVE_TIMEOUT, TIMEOUT
from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import py as _py

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui

PILES = ["s", "w", "fc", "fd", "fh", "fs", *[f"t{i}" for i in range(1, 8)]]
# [toolbar button, the panel it opens]
PANELS = [
    (".kw-btn-rules", ".kw-panel[data-panel='rules']"),
    (".kw-btn-settings", ".kw-settings"),
    (".kw-btn-keys", ".kw-panel[data-panel='keys']"),
    (".kw-btn-stats", ".kw-panel[data-panel='stats']"),
    (".kw-btn-number", ".kw-panel[data-panel='deal']"),
]
_ACTIVE_MATCHES = "(sel) => Boolean(document.activeElement && document.activeElement.matches(sel))"


def _focused(root: Locator, selector: str) -> bool:
    return bool(root.page.evaluate(_ACTIVE_MATCHES, selector))


def _focus_inside(root: Locator, selector: str) -> bool:
    return bool(
        root.page.evaluate(
            "(sel) => Boolean(document.activeElement && document.activeElement.closest(sel))",
            selector,
        )
    )


def _tab_to(root: Locator, selector: str, key: str = "Tab", limit: int = 60) -> None:
    """Press ``key`` (Tab or Shift+Tab) until the focused element matches ``selector``."""
    for _ in range(limit):
        if _focused(root, selector):
            return
        root.page.keyboard.press(key)
    raise AssertionError(f"{limit} presses of {key} never reached {selector}")


def _go_to_pile(root: Locator, pile: str) -> None:
    """Arrow keys along the piles (the board is not mirrored in these languages)."""
    now = root.page.evaluate("() => document.activeElement.dataset.pile")
    steps = (PILES.index(pile) - PILES.index(now)) % len(PILES)
    for _ in range(steps):
        root.page.keyboard.press("ArrowRight")
    assert _focused(root, f".kw-pile[data-pile='{pile}']")


def _live(root: Locator) -> str:
    return root.locator(".kw-live").inner_text().strip()


def _wait_moves(lab: LabPage, count: int) -> None:
    lab.wait_for_kernel_output("print(w.game.moves_count)", str(count))


def _play_a_card_move(lab: LabPage, root: Locator, moves: int) -> int:
    """Pick a card and drop it with Enter (tapping the stock until such a move shows)."""
    for _ in range(30):
        legal = _py(lab, "w.view['legal']")
        choice = next(
            ((src, m) for src, ms in legal.items() if src != "s" for m in ms if m[0] == 1), None
        )
        if choice is not None:
            break
        _go_to_pile(root, "s")
        root.page.keyboard.press("Enter")
        moves += 1
        _wait_moves(lab, moves)
    else:
        raise AssertionError("no card move showed up in 30 taps of the stock")
    src, (_, dst, text) = choice
    _go_to_pile(root, src)
    root.page.keyboard.press("Enter")
    picked = root.locator(f".kw-pile[data-pile='{src}']")
    selected = _py(lab, "w.strings['strings']['a11y.mark.picked']")
    assert selected in (picked.get_attribute("aria-label") or "")
    target = _py(lab, "w.strings['strings']['a11y.mark.target']")
    dst_label = root.locator(f".kw-pile[data-pile='{dst}']").get_attribute("aria-label") or ""
    assert target in dst_label, dst_label
    _go_to_pile(root, dst)
    root.page.keyboard.press("Enter")
    moves += 1
    _wait_moves(lab, moves)
    assert _py(lab, "str(w.game.history[-1])") == text
    announce = _py(lab, "w.view['announce']['text']")
    root.page.wait_for_function(
        "([el, t]) => el.textContent.trim() === t",
        arg=[root.locator(".kw-live").element_handle(), announce],
        timeout=TIMEOUT,
    )
    return moves


def _open_and_close_panels(root: Locator) -> None:
    page = root.page
    for button, panel in PANELS:
        _tab_to(root, button, "Shift+Tab")  # from the board back into the toolbar
        page.keyboard.press("Enter")
        root.locator(panel).wait_for(state="visible", timeout=TIMEOUT)
        page.wait_for_function(
            "(sel) => document.activeElement && document.activeElement.closest(sel)", arg=panel
        )
        name = root.locator(panel).evaluate(
            "e => e.getAttribute('aria-label') || "
            "document.getElementById(e.getAttribute('aria-labelledby')).textContent"
        )
        assert name.strip(), f"{panel} has no name"
        page.keyboard.press("Escape")
        root.locator(panel).wait_for(state="hidden", timeout=TIMEOUT)
        assert _focused(root, button), f"the focus did not go back to {button}"
        _tab_to(root, ".kw-pile")


def test_keyboard_only_moves_panels_line_and_a_finished_deal(lab: LabPage) -> None:
    root = _open(lab, "a11y-keys.ipynb", "w = KlondikeWidget(deal=3, pace=0, locale='en')")
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    page = lab.page
    root.locator(".kw-btn-new").focus()
    _tab_to(root, ".kw-pile")
    assert _focused(root, ".kw-pile[data-pile='s'][role='button']")
    # Moves: a tap of the stock, then two card moves picked and dropped with Enter; undo.
    page.keyboard.press("Enter")
    _wait_moves(lab, 1)
    assert "waste" in _live(root).lower()
    moves = _play_a_card_move(lab, root, 1)
    moves = _play_a_card_move(lab, root, moves)
    page.keyboard.press("u")
    _wait_moves(lab, moves + 1)
    assert _live(root).startswith("Undone")
    # Every panel, opened from the toolbar with Enter and closed with Escape.
    _open_and_close_panels(root)
    # "?" from the board; New deal asks first (the focus on OK), Escape says no.
    page.keyboard.press("?")
    root.locator(".kw-panel[data-panel='keys']").wait_for(state="visible", timeout=TIMEOUT)
    page.keyboard.press("Escape")
    root.locator(".kw-panel[data-panel='keys']").wait_for(state="hidden", timeout=TIMEOUT)
    assert _focus_inside(root, ".kw-pile")
    page.keyboard.press("n")
    root.locator(".kw-panel[data-panel='confirm']").wait_for(state="visible", timeout=TIMEOUT)
    page.wait_for_function(_ACTIVE_MATCHES, arg=".kw-btn-ok")
    page.keyboard.press("Escape")
    root.locator(".kw-panel[data-panel='confirm']").wait_for(state="hidden", timeout=TIMEOUT)
    assert _py(lab, "w.game.moves_count") == moves + 1
    # Restart (so the game is the solved deal again), then the solver line: each step is said.
    _tab_to(root, ".kw-btn-restart", "Shift+Tab")
    page.keyboard.press("Enter")
    page.wait_for_function(_ACTIVE_MATCHES, arg=".kw-btn-ok")
    page.keyboard.press("Enter")
    _wait_moves(lab, 0)
    root.locator(".kw-btn-line:not([disabled])").wait_for(timeout=SOLVE_TIMEOUT)
    _tab_to(root, ".kw-btn-line", "Shift+Tab")
    page.keyboard.press("Enter")
    root.locator(".kw-line").wait_for(state="visible", timeout=TIMEOUT)
    total = _py(lab, "len(w.line.moves)")
    page.keyboard.press("ArrowRight")
    lab.wait_for_kernel_output("print(w.view['line']['k'])", "1")
    page.wait_for_function(
        "([el, t]) => el.textContent.startsWith(t)",
        arg=[root.locator(".kw-live").element_handle(), f"Step 1 of {total}: "],
        timeout=TIMEOUT,
    )
    assert root.locator(".kw-line-list").get_attribute("aria-label") == "Steps of the line"
    _tab_to(root, ".kw-btn-back")
    page.keyboard.press("Enter")
    root.locator(".kw-line").wait_for(state="hidden", timeout=TIMEOUT)
    # Finish the deal with F from the board: the win dialog takes the focus and keeps Tab.
    assert _focus_inside(root, ".kw-pile")  # the line closed: the focus went back to the board
    page.keyboard.press("f")
    root.locator(".kw-win").wait_for(state="visible", timeout=SOLVE_TIMEOUT)
    assert _py(lab, "w.game.is_won")
    page.wait_for_function(_ACTIVE_MATCHES, arg=".kw-win .kw-btn-again")
    win = root.locator(".kw-win")
    assert win.get_attribute("role") == "dialog" and win.get_attribute("aria-modal") == "true"
    title = page.evaluate(
        "(id) => document.getElementById(id).textContent", win.get_attribute("aria-labelledby")
    )
    assert title == "You won!"
    assert "You won!" in _live(root)
    for _ in range(3):  # two buttons: Tab goes round inside the dialog
        page.keyboard.press("Tab")
        assert _focus_inside(root, ".kw-win")
    page.keyboard.press("Escape")
    win.wait_for(state="hidden", timeout=TIMEOUT)
    assert _focus_inside(root, ".kw-pile")
    lab.screenshot("a11y-keyboard-won")
