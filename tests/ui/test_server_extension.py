"""The installed server extension is loaded by a real JupyterLab and sets TCP_NODELAY."""

from __future__ import annotations

import subprocess
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.ui.conftest import JupyterLabServer, LabPage


def test_jupyterlab_loads_the_extension(jupyter_lab: JupyterLabServer, lab: LabPage) -> None:
    # A notebook with a live kernel opens a kernel websocket through the patched handler.
    lab.run_notebook("nodelay.ipynb", ["print('kernel ok')"])
    log = ""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        log = jupyter_lab.log_path.read_text(encoding="utf-8", errors="replace")
        if "klondike_widget: TCP_NODELAY set on kernel websockets" in log:
            break
        time.sleep(0.5)
    assert "klondike_widget: TCP_NODELAY set on kernel websockets" in log
    assert "klondike_widget.server_extension | extension was successfully loaded" in log


def test_the_extension_is_enabled_by_the_install() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "jupyter", "server", "extension", "list"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    text = out.stdout + out.stderr
    assert "klondike_widget.server_extension" in text
    assert "enabled" in text
