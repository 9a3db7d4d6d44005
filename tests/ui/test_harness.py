"""The harness itself, end to end: JupyterLab + chromium + a kernel + an anywidget round trip.

A tiny counter widget is defined inline (its ES module is a Python string), so this test
depends on nothing in klondike_widget: when it fails, the harness or the environment is broken.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:  # the fixture's type; conftest modules are not imported by tests
    from tests.ui.conftest import LabPage

pytestmark = pytest.mark.ui

COUNTER_CELL = '''
import anywidget
import traitlets


class Counter(anywidget.AnyWidget):
    _esm = """
    function render({ model, el }) {
      const btn = document.createElement("button");
      btn.className = "kwtest-counter";
      const show = () => { btn.textContent = `count: ${model.get("count")}`; };
      btn.addEventListener("click", () => {
        model.set("count", model.get("count") + 1);
        model.save_changes();
      });
      model.on("change:count", show);
      show();
      el.appendChild(btn);
    }
    export default { render };
    """
    count = traitlets.Int(0).tag(sync=True)


seen = []
w = Counter()
w.observe(lambda change: seen.append(change["new"]), "count")
w
'''


def test_anywidget_round_trip_in_real_jupyterlab(lab: LabPage) -> None:
    lab.run_notebook("harness.ipynb", ["print('kernel says hi')", COUNTER_CELL])

    # The first cell's stdout reached the page: the kernel really ran it.
    assert "kernel says hi" in lab.cell_output(0).inner_text(timeout=10_000)

    # The widget rendered from its ES module (not the text fallback).
    button = lab.cell_output(1).locator("button.kwtest-counter")
    button.wait_for(state="visible", timeout=30_000)
    assert button.inner_text() == "count: 0"

    # Browser -> Python: three real clicks arrive as trait changes in the kernel.
    for _ in range(3):
        button.click()
    lab.wait_for_kernel_output("print(w.count)", "3", timeout=30)
    assert lab.kernel_exec("print(seen)").strip() == "[1, 2, 3]"

    # Python -> browser: a trait set in the kernel updates the DOM.
    lab.kernel_exec("w.count = 41")
    button.filter(has_text="count: 41").wait_for(timeout=30_000)
    button.click()
    lab.wait_for_kernel_output("print(w.count)", "42", timeout=30)

    lab.screenshot("harness-counter")


def test_kernel_errors_are_reported(lab: LabPage) -> None:
    """A failing cell must fail ``run_all`` with its traceback (the harness cannot hide errors)."""
    lab.write_notebook("broken.ipynb", ["x = 1", "raise ValueError('boom from the kernel')"])
    lab.open_notebook("broken.ipynb")
    with pytest.raises(AssertionError, match="boom from the kernel"):
        lab.run_all()
    with pytest.raises(AssertionError, match="ZeroDivisionError"):
        lab.kernel_exec("1 / 0")
    assert lab.kernel_exec("print(x + 1)").strip() == "2"
