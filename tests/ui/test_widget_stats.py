"""Scoring, statistics and one-click moves in a real JupyterLab and chromium.

Statistics of a won and a lost game survive a kernel restart (the kernel's statistics file is
in a temporary folder named by ``KLONDIKE_WIDGET_DATA_DIR``, never the user's); a click sends a
card to the target Python published; auto-complete is offered and plays; the statistics panel
is photographed in the four languages (``test-artifacts/screenshots/stats-panel-<code>.png``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.ui.conftest import _FIND_PANEL
from tests.ui.widget_page import TIMEOUT
from tests.ui.widget_page import open_widget as _open
from tests.ui.widget_page import py as _py

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui

NEAR_WIN = "Game(position([['Ks']], foundations=(13, 13, 13, 12)))"
ALL_FACE_UP = (
    "Game(position([['Kc', 'Qd'], ['Kd', 'Qc'], ['Kh'], ['Ks']], "
    "foundations=(11, 11, 12, 12), rest='waste'))"
)


def _setup(data_dir: Path, make: str) -> str:
    return (
        "import os\n"
        f"os.environ['KLONDIKE_WIDGET_DATA_DIR'] = {str(data_dir)!r}\n"
        "from tests.play_positions import position\n"
        f"{make}"
    )


def _card(root: Locator, pile: str, index: int) -> Locator:
    return root.locator(f".kw-pile[data-pile='{pile}'] .kw-card[data-index='{index}']")


def _wait_moves(lab: LabPage, count: int) -> None:
    lab.wait_for_kernel_output("print(w.game.moves_count)", str(count))


def _cell(root: Locator, field: str, draw: int = 1) -> str:
    cell = f".kw-stats-table td[data-field='{field}'][data-draw='{draw}']"
    return root.locator(cell).inner_text()


def test_statistics_of_a_won_and_a_lost_game_survive_a_kernel_restart(
    lab: LabPage, tmp_path: Path, artifacts_dir: Path
) -> None:
    setup = _setup(tmp_path, f"w = KlondikeWidget(game={NEAR_WIN}, analyse=False)")
    root = _open(lab, "stats.ipynb", setup)
    # Won by one click on the King of spades (one-click: to its foundation).
    _card(root, "t1", 0).click()
    lab.wait_for_kernel_output("print(w.game.is_won)", "True")
    # Lost: one move in a new deal, then another deal.
    lab.kernel_exec("w.new_deal(5)")
    root.locator(".kw-deal").filter(has_text="5").wait_for(timeout=TIMEOUT)
    root.locator(".kw-pile-s").click()
    _wait_moves(lab, 1)
    lab.kernel_exec("w.new_deal(6)")
    first = _py(lab, "[os.getpid(), w.statistics[0]['played'], w.statistics[0]['won']]")
    assert first[1:] == [2, 1]

    # Restart the kernel (no dialog) and run the notebook again: a new process, a new widget.
    lab.page.evaluate(
        "(path) => {" + _FIND_PANEL + " return findPanel(path).sessionContext.session.kernel"
        ".restart().then(() => true); }",
        "stats.ipynb",
    )
    lab.wait_for_kernel_idle()
    lab.run_all()
    assert _py(lab, "os.getpid()") != first[0]
    assert _py(lab, "w.game.moves_count") == 0
    root = lab.cell_output(1).locator(".kw-root")
    root.wait_for(state="visible", timeout=TIMEOUT)

    root.locator(".kw-btn-stats").click()
    panel = root.locator(".kw-panel[data-panel='stats']")
    panel.wait_for(state="visible", timeout=TIMEOUT)
    assert _cell(root, "played") == "2"
    assert _cell(root, "won") == "1"
    assert _cell(root, "lost") == "1"
    assert _cell(root, "won_with_help") == "0"
    assert _cell(root, "played", 3) == "0"
    assert _cell(root, "fewest_moves") == "1"
    assert "50" in _cell(root, "win_rate")

    shots = artifacts_dir / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    titles = {"en": "Statistics", "pl": "Statystyki", "tr": "İstatistikler", "ar": "الإحصاءات"}
    for code, title in titles.items():
        lab.kernel_exec(f"w.locale = {code!r}")
        root.locator(".kw-stats-title").filter(has_text=title).wait_for(timeout=TIMEOUT)
        assert root.get_attribute("lang") == code
        lab.page.wait_for_timeout(200)
        root.screenshot(path=str(shots / f"stats-panel-{code}.png"))


def test_one_click_moves_settings_and_auto_complete(
    lab: LabPage, tmp_path: Path, artifacts_dir: Path
) -> None:
    setup = _setup(tmp_path, "w = KlondikeWidget(deal=2, analyse=False)")
    root = _open(lab, "oneclick.ipynb", setup)
    assert _py(lab, "w.one_click") is True
    # 8 of diamonds (top of column 3) has one target: 9 of clubs on column 2.
    _card(root, "t3", 2).click()
    _wait_moves(lab, 1)
    assert _py(lab, "str(w.game.history[-1])") == "t3-t2"
    # The ace of spades (column 4) goes to its foundation, not onto a column.
    _card(root, "t4", 3).click()
    _wait_moves(lab, 2)
    assert _py(lab, "str(w.game.history[-1])") == "t4-f"
    root.locator(".kw-pile[data-pile='fs'] .kw-card[data-card]").wait_for(timeout=TIMEOUT)
    # Off: a click picks the card (the legal targets light up) and moves nothing.
    lab.kernel_exec("w.one_click = False")
    lab.page.wait_for_timeout(300)
    _card(root, "t6", 5).click()  # the ace of diamonds stays: it is picked
    root.locator(".kw-pile[data-pile='t6'] .kw-picked").wait_for(timeout=TIMEOUT)
    assert root.locator(".kw-pile[data-pile='fd'].kw-target").count() == 1
    assert _py(lab, "w.game.moves_count") == 2

    # The settings show the options as the kernel has them, and change them through intents.
    root.locator(".kw-btn-settings").click()
    one_click = root.locator(".kw-opt-one_click input")
    auto_safe = root.locator(".kw-opt-auto_safe input")
    assert not one_click.is_checked() and not auto_safe.is_checked()
    auto_safe.check()
    lab.wait_for_kernel_output("print(w.auto_safe)", "True")
    root.locator(".kw-sel-scoring select").select_option("vegas")
    lab.wait_for_kernel_output("print(w.scoring)", "vegas")
    root.locator(".kw-score[data-mode='vegas']").wait_for(timeout=TIMEOUT)
    lab.page.wait_for_timeout(200)
    root.screenshot(path=str(artifacts_dir / "screenshots" / "settings-play-en.png"))
    root.locator(".kw-btn-settings").click()

    # Auto-complete is offered once every card is face up and the stock is empty.
    auto = root.locator(".kw-btn-auto")
    assert auto.is_hidden()
    lab.kernel_exec(f"w.game = {ALL_FACE_UP}")
    auto.wait_for(state="visible", timeout=TIMEOUT)
    auto.click()
    lab.wait_for_kernel_output("print(w.game.is_won)", "True", timeout=60)
    root.locator(".kw-win").wait_for(state="visible", timeout=TIMEOUT)
    assert _py(lab, "w.statistics[0]['won']") == 1
