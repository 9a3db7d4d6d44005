"""Root pytest configuration: applies to the tests and to the package's doctests alike.

Statistics (:mod:`klondike_widget.play.stats`) are written to the user's data directory by
every widget that records a game. No test may touch the real one: before anything is collected,
``KLONDIKE_WIDGET_DATA_DIR`` points at a fresh temporary folder (removed at the end). JupyterLab
and its kernels started by ``tests/ui`` inherit it.
"""

from __future__ import annotations

import os
import shutil
import tempfile

_DATA_DIR = tempfile.mkdtemp(prefix="kw-test-data-")
os.environ["KLONDIKE_WIDGET_DATA_DIR"] = _DATA_DIR


def pytest_unconfigure() -> None:
    shutil.rmtree(_DATA_DIR, ignore_errors=True)
