"""What the live region says while Finish plays a deal out: the progress, not every move (at
most one message per 2.5 s), then the last move and the win in full; and a hint is said.

Every text the live region shows is recorded in the page by a MutationObserver.
"""

from __future__ import annotations

import itertools
import time
from typing import TYPE_CHECKING

import pytest

from tests.ui.widget_page import SOLVE_TIMEOUT, TIMEOUT
from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import py as _py

if TYPE_CHECKING:
    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui

FINISH_SAY_S = 2.5  # FINISH_SAY_MS in js/widget.js
# The observer sees a change at the end of the task that made it (a render of the board): the
# gaps it measures may be shorter than the widget's by about the length of such a task.
SLACK_MS = 300

_RECORD = """(live) => {
  window.__kwSaid = [];
  new MutationObserver(() => window.__kwSaid.push([performance.now(), live.textContent]))
    .observe(live, {childList: true, characterData: true, subtree: true});
}"""


def test_finish_progress_is_said_throttled_then_the_win(lab: LabPage) -> None:
    root = _open(lab, "a11y-say.ipynb", "w = KlondikeWidget(deal=3, pace=40, locale='pl')")
    root.locator(".kw-status[data-analysis='winnable']").wait_for(timeout=SOLVE_TIMEOUT)
    root.locator(".kw-live").evaluate(_RECORD)
    root.locator(".kw-btn-hint").click()
    hint = _py(lab, "w.strings['strings']['hint.show']").split("{")[0]
    root.page.wait_for_function(
        "(t) => window.__kwSaid.some(([, s]) => s.startsWith(t))", arg=hint, timeout=TIMEOUT
    )
    started = time.monotonic()
    root.locator(".kw-btn-finish").click()
    root.locator(".kw-win").wait_for(state="visible", timeout=SOLVE_TIMEOUT)
    seconds = time.monotonic() - started
    root.page.wait_for_timeout(300)
    said: list[list[object]] = root.page.evaluate("() => window.__kwSaid")
    moves = _py(lab, "w.game.moves_count")
    progress = [(t, s) for t, s in said if str(s).startswith("Dokańczam: ")]
    assert progress, said
    # Throttled: far fewer messages than moves, and never two within FINISH_SAY_S.
    assert len(progress) <= seconds / FINISH_SAY_S + 1 < moves, (len(progress), seconds, moves)
    times = [float(t) for t, _ in progress]  # type: ignore[arg-type]
    assert all(b - a >= FINISH_SAY_S * 1000 - SLACK_MS for a, b in itertools.pairwise(times)), times
    # The last message: the last move and the win, in the active language.
    win = _py(lab, "w.strings['strings']['announce.win']")
    assert str(said[-1][1]).strip().endswith(win), said[-3:]
