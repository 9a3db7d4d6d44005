"""The page the browser benchmarks start from: a private JupyterLab, chromium, a shown widget.

Used by ``benchmarks/widget_latency.py`` and ``benchmarks/tap_profile.py``: the harness of the
browser tests (``tests/ui/conftest.py``) starts a JupyterLab of its own in a temporary folder,
Playwright drives Debian's chromium, a notebook shows ``KlondikeWidget(deal=..., stats=False)``
(a benchmark never writes the user's statistics file), and :func:`widget_in_lab` yields the
:class:`LabPage` and the widget's root once it is drawn. Everything is closed afterwards.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the browser tests' harness lives in tests/ui

from playwright.sync_api import sync_playwright  # noqa: E402

from tests.ui.conftest import CHROMIUM, LabPage, private_lab_server  # noqa: E402

__all__ = ["LabPage", "percentile", "widget_cell", "widget_in_lab"]


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank; NaN for no values.

    >>> percentile([3.0, 1.0, 2.0], 0.5), percentile([], 0.95)
    (2.0, nan)
    """
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))]


def widget_cell(deal: int, solver: bool, thread: bool) -> str:
    """The notebook cell that makes ``w``: the background solver on or off, or in a thread."""
    return (
        "from klondike_widget import KlondikeWidget\n"
        "from klondike_widget.widget.solver_process import solve_here\n"
        f"w = KlondikeWidget(deal={deal}, analyse={solver}, stats=False"
        f"{', solve=solve_here' if thread else ''})"
    )


@contextmanager
def widget_in_lab(
    log_name: str,
    notebook: str,
    cell: str,
    *,
    server_config: str = "",
    on_page: Callable[[Any], None] | None = None,
) -> Iterator[tuple[LabPage, Any]]:
    """Yield ``(lab, root)``: ``cell`` run in ``notebook`` of a private JupyterLab, ``w`` shown.

    ``log_name`` is the server's log under ``test-artifacts/``; ``on_page(page)`` runs before
    the notebook opens (to watch the websocket, say).
    """
    with tempfile.TemporaryDirectory() as tmp:
        server = private_lab_server(
            Path(tmp), ROOT / "test-artifacts" / log_name, server_config=server_config
        )
        server.start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=str(CHROMIUM),
                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
                )
                try:
                    page = browser.new_page(
                        base_url=server.url, viewport={"width": 1280, "height": 900}
                    )
                    if on_page is not None:
                        on_page(page)
                    lab = LabPage(page, server, ROOT / "test-artifacts")
                    lab.run_notebook(notebook, [cell, "w"])
                    root = lab.cell_output(1).locator(".kw-root")
                    root.wait_for(state="visible", timeout=30_000)
                    yield lab, root
                finally:
                    browser.close()
        finally:
            server.stop()
