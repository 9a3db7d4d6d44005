"""The widget in the high-contrast (``forced-colors``) mode, at 320 px and at 200% zoom.

Screenshots (``test-artifacts/screenshots/a11y-*.png``) show a picked card, its legal targets
and a hint; the checks read what the browser applies: the marks keep a shape of their own
(a tick, an arrow, solid / dashed / dotted outlines) when the system's colours replace the
widget's, and no part of the board needs a horizontal scroll at 320 CSS px (the width of a
phone, and of a 1280 px window at 400% zoom) or at 640 CSS px (1280 px at 200% zoom).
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

_STYLE = """(el, pseudo) => {
  const s = getComputedStyle(el, pseudo);
  return {outline: s.outlineStyle + ' ' + s.outlineWidth, content: s.content};
}"""

# Every element of the widget that reaches past the right or left edge of the output area, and
# whether the widget or the output area scrolls sideways.
_OVERFLOW = """(root) => {
  const area = root.closest('.jp-OutputArea-output') || root.parentElement;
  const box = area.getBoundingClientRect();
  const out = [];
  for (const e of root.querySelectorAll('.kw-pile, .kw-table, .kw-toolbar, .kw-info, .kw-btn')) {
    const r = e.getBoundingClientRect();
    if (!r.width) continue;
    if (r.right > box.right + 0.5 || r.left < box.left - 0.5) {
      out.push(`${e.className}: ${r.left.toFixed(1)}..${r.right.toFixed(1)}`);
    }
  }
  return {out, area: [box.left, box.right], rootScroll: root.scrollWidth - root.clientWidth,
          areaScroll: area.scrollWidth - area.clientWidth,
          table: root.querySelector('.kw-table').scrollWidth
            - root.querySelector('.kw-table').clientWidth};
}"""


def _pick_with_targets(lab: LabPage, root: Locator) -> None:
    """Pick (Enter: a click would play it at once, one-click moves being on) the top card of a
    column that Python says can move; wait for its marks."""
    legal = _py(lab, "w.view['legal']")
    src = next(s for s, moves in legal.items() if s[0] == "t" and any(m[0] == 1 for m in moves))
    root.locator(f".kw-pile[data-pile='{src}']").focus()
    root.page.keyboard.press("Enter")
    root.locator(".kw-pile.kw-target").first.wait_for(timeout=TIMEOUT)


def test_forced_colors_keep_the_marks_and_their_shapes(lab: LabPage) -> None:
    root = _open(lab, "a11y-forced.ipynb", "w = KlondikeWidget(deal=3, pace=0)")
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    root.locator(".kw-btn-hint").click()
    root.locator(".kw-hint-src").first.wait_for(timeout=TIMEOUT)
    _pick_with_targets(lab, root)
    page = lab.page
    page.emulate_media(forced_colors="active")
    try:
        assert page.evaluate("() => matchMedia('(forced-colors: active)').matches")
        page.wait_for_timeout(300)
        root.screenshot(path=str(lab.artifacts_dir / "screenshots" / "a11y-forced-colors.png"))
        picked = root.locator(".kw-picked").first.evaluate(_STYLE, None)
        tick = root.locator(".kw-picked").first.evaluate(_STYLE, "::after")
        target = root.locator(".kw-pile.kw-target").first.evaluate(_STYLE, None)
        arrow = root.locator(".kw-pile.kw-target").first.evaluate(_STYLE, "::after")
        hint = root.locator(".kw-hint-src").first.evaluate(_STYLE, None)
    finally:
        page.emulate_media(forced_colors="none")
    assert picked["outline"] == "solid 3px" and tick["content"] == '"✓"'
    assert target["outline"] == "dashed 3px" and arrow["content"] == '"↓"'
    assert hint["outline"] == "dotted 3px"
    root.screenshot(path=str(lab.artifacts_dir / "screenshots" / "a11y-marks-light.png"))


@pytest.mark.parametrize("width", [320, 640])
def test_no_horizontal_scrolling_at_320_px_and_at_200_percent_zoom(
    lab: LabPage, width: int
) -> None:
    root = _open(lab, f"a11y-{width}.ipynb", "w = KlondikeWidget(deal=3, analyse=False)")
    # The notebook alone (no side panels), as on a phone.
    lab.page.evaluate(
        "() => { window.jupyterapp.shell.collapseLeft(); window.jupyterapp.shell.collapseRight(); }"
    )
    lab.page.set_viewport_size({"width": width, "height": 900})
    lab.page.wait_for_timeout(800)
    root.scroll_into_view_if_needed()
    _pick_with_targets(lab, root)
    lab.screenshot(f"a11y-width-{width}")
    found = root.evaluate(_OVERFLOW)
    assert not found["out"], found
    assert found["rootScroll"] <= 0 and found["areaScroll"] <= 0 and found["table"] <= 0, found
    # Every pile is still big enough to see and hit (WCAG 2.5.8's 24 px).
    sizes = root.locator(".kw-pile").evaluate_all(
        "els => els.map((e) => [e.getBoundingClientRect().width, e.dataset.pile])"
    )
    assert all(w >= 24 for w, _ in sizes), sizes
