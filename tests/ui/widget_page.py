"""Helpers shared by the widget's browser tests: open a notebook with a widget, ask the kernel."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Locator

    from tests.ui.conftest import LabPage

TIMEOUT = 30_000
# The first search in a fresh kernel loads numba and the compiled solver (slow on a busy machine).
SOLVE_TIMEOUT = 120_000


def open_widget(lab: LabPage, name: str, setup: str, views: int = 1) -> Locator:
    """Run a notebook that builds ``w`` with ``setup`` and shows it ``views`` times."""
    cells = ["from klondike_widget import KlondikeWidget, Game\n" + setup]
    cells += ["w"] * views
    lab.run_notebook(name, cells)
    root = lab.cell_output(1).locator(".kw-root")
    root.wait_for(state="visible", timeout=TIMEOUT)
    return root


def seq(root: Locator) -> int:
    """The ``seq`` of the view the widget shows."""
    return int(root.get_attribute("data-seq") or "-1")


def center(loc: Locator, dy: float = 0.5) -> tuple[float, float]:
    """The page coordinates of a point of ``loc``: its middle, ``dy`` of the way down."""
    box = loc.bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] * dy


def py(lab: LabPage, expr: str) -> Any:
    """Evaluate ``expr`` in the notebook's kernel and return it (through JSON)."""
    out = lab.kernel_exec(f"import json as _j; print(_j.dumps({expr}))")
    return json.loads(out.strip().splitlines()[-1])


def reload_widget(lab: LabPage) -> Locator:
    """Save the notebook, reload the page (the kernel keeps running) and return the widget."""
    lab.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    lab.page.wait_for_timeout(1000)
    lab.page.reload()
    lab.wait_for_kernel_idle()
    again = lab.cell_output(1).locator(".kw-root")
    again.wait_for(state="visible", timeout=60_000)
    return again


def open_runs(root: Locator) -> None:
    """Open every folded run of stock taps in a line's list (each is one step until clicked)."""
    heads = root.locator(".kw-line-run")
    for i in range(heads.count()):
        heads.nth(i).click()
    assert root.locator(".kw-line-item[hidden]").count() == 0


def set_theme(lab: LabPage, name: str, light: bool) -> None:
    """Switch JupyterLab's theme (``"JupyterLab Dark"``, ``"JupyterLab Light"``) and wait."""
    lab.page.evaluate(
        f"() => window.jupyterapp.commands.execute('apputils:change-theme', {{theme: '{name}'}})"
    )
    lab.page.wait_for_function(
        f"() => document.body.dataset.jpThemeLight === '{str(light).lower()}'", timeout=TIMEOUT
    )
    lab.page.wait_for_timeout(500)
