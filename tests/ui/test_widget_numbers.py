"""Numbers as a reader of each language sees them: a negative Vegas score and total in Arabic
(right to left) show a true minus sign (U+2212) left of the digits, on the info line and in
the statistics panel, never "52-".

Screenshot: ``test-artifacts/screenshots/numbers-ar-vegas.png``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.ui.widget_page import TIMEOUT
from tests.ui.widget_page import open_widget as _open

if TYPE_CHECKING:
    from pathlib import Path

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui

# Where the minus sign and the first digit of a number are drawn (left edges, px).
VISUAL_ORDER = r"""
(el) => {
  const node = el.firstChild;
  const text = node.textContent;
  const at = (i) => {
    const r = document.createRange();
    r.setStart(node, i);
    r.setEnd(node, i + 1);
    return r.getBoundingClientRect().left;
  };
  const minus = text.search(/[-\u2212]/);
  const digit = text.search(/[0-9\u0660-\u0669]/);
  return {text, minus: minus < 0 ? null : at(minus), digit: at(digit)};
}
"""


# The characters of an element in the order they are drawn, left to right.
VISUAL_LINE = r"""
(el) => {
  const out = [];
  const walk = (n) => {
    if (n.nodeType === 3) {
      for (let i = 0; i < n.textContent.length; i++) {
        const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
        const b = r.getBoundingClientRect();
        if (b.width > 0) out.push([b.left, n.textContent[i]]);
      }
    } else n.childNodes.forEach(walk);
  };
  walk(el);
  out.sort((a, b) => a[0] - b[0]);
  return out.map((x) => x[1]).join("");
}
"""


def _minus_first(cell: Any) -> dict[str, Any]:
    seen: dict[str, Any] = cell.evaluate(VISUAL_ORDER)
    assert seen["minus"] is not None and "\u2212" in seen["text"], seen
    assert seen["minus"] < seen["digit"], seen  # "-99", never "99-"
    return seen


def test_negative_vegas_score_and_total_read_minus_first_in_arabic(
    lab: LabPage, tmp_path: Path, artifacts_dir: Path
) -> None:
    setup = (
        "import os\n"
        f"os.environ['KLONDIKE_WIDGET_DATA_DIR'] = {str(tmp_path)!r}\n"
        "w = KlondikeWidget(deal=3, analyse=False, locale='ar')\n"
        "w.scoring = 'vegas'; w.vegas_cumulative = True\n"
        "w.play('s'); w.new_deal(4); w.play('s')"  # one lost game recorded, one in play
    )
    root = _open(lab, "numbers.ipynb", setup)
    values = root.locator(".kw-score .kw-score-value")
    values.nth(1).wait_for(timeout=TIMEOUT)
    drawn = root.locator(".kw-score").evaluate(VISUAL_LINE)
    assert "\u221252 " in drawn and drawn.startswith("\u2212104 "), drawn  # true minus, first
    _minus_first(values.nth(0))
    _minus_first(values.nth(1))
    root.screenshot(path=str(artifacts_dir / "screenshots" / "numbers-ar-vegas.png"))
    root.locator(".kw-btn-stats").click()
    cell = root.locator(".kw-stats-table td[data-field='vegas_total'][data-draw='1'] bdi")
    cell.wait_for(timeout=TIMEOUT)
    _minus_first(cell)
    root.screenshot(path=str(artifacts_dir / "screenshots" / "numbers-ar-vegas-stats.png"))
