"""Real-browser harness: a private JupyterLab driven by Debian's chromium through Playwright.

Every test in ``tests/ui`` is marked ``ui`` automatically (deselect with ``-m "not ui"``).
JupyterLab is started lazily, once per session, only when a test asks for it.

Fixtures
--------
jupyter_lab : JupyterLabServer (session)
    A running JupyterLab on ``127.0.0.1`` with a free port, no token/password, xsrf off,
    ``window.jupyterapp`` exposed, its own ``JUPYTER_CONFIG_DIR``, ``JUPYTER_RUNTIME_DIR``,
    ``JUPYTER_DATA_DIR`` and ``IPYTHONDIR`` (temporary folders; the lab extensions of anywidget
    and ipywidgets are still found because they live under ``sys.prefix/share/jupyter``) and a
    temporary ``root_dir``. The repository root is prepended to the kernels' ``PYTHONPATH``, so
    they import the working tree under test. Attributes: ``url`` (``http://127.0.0.1:P``),
    ``port``, ``root_dir`` (Path where notebooks are written), ``log_path``
    (``test-artifacts/jupyterlab.log``, kept after the run), ``startup_seconds``. Stopped
    (``/api/shutdown``, then SIGTERM/SIGKILL of its process group) at the end of the session.
base_url : str (session)
    Overrides pytest-playwright's: ``jupyter_lab.url``, so ``page.goto("/lab")`` works.
browser_type_launch_args : dict (session)
    Overrides pytest-playwright's: ``executable_path="/usr/bin/chromium"`` plus
    ``--no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking
    --disable-component-update --disable-sync --no-first-run``.
browser_context_args : dict (session)
    pytest-playwright's plus a 1280x900 viewport and ``locale="en-US"``.
artifacts_dir : Path (session, from ``tests/conftest.py``)
    ``<repo>/test-artifacts``; screenshots go to ``artifacts_dir / "screenshots"``.
lab : LabPage (function)
    pytest-playwright's fresh ``page`` bound to ``jupyter_lab``; every wait has a timeout.
    Kernels of the test are shut down afterwards.

LabPage API (all ``timeout`` arguments are seconds)
----------------------------------------------------
``lab.page``
    The Playwright ``Page``.
``lab.write_notebook(name, cells) -> Path``
    Write ``root_dir/name`` with nbformat; ``cells`` are ``str`` (code cells) or nbformat cells.
``lab.open_notebook(name, timeout=120) -> Page``
    Open it in JupyterLab and wait until the notebook is loaded AND its kernel is idle.
``lab.wait_for_kernel_idle(timeout=90)``
    Wait until the notebook's kernel is connected and idle.
``lab.run_all(timeout=180, allow_errors=False)``
    Run all cells (only after the kernel is idle), wait until every code cell has finished;
    raise ``AssertionError`` with the traceback when a cell produced an error output.
``lab.run_notebook(name, cells, timeout=180) -> Page``
    ``write_notebook`` + ``open_notebook`` + ``run_all``.
``lab.kernel_exec(code, timeout=60) -> str``
    Execute ``code`` in the same kernel (not as a cell) and return its stdout (plus the
    ``text/plain`` of an expression result); raise ``AssertionError`` on a Python error.
``lab.wait_for_kernel_output(code, expected, timeout=30) -> str``
    Poll ``kernel_exec(code)`` until its stripped stdout equals ``expected``.
``lab.cell_output(index) -> Locator``
    The output area of the code/markdown cell at ``index`` (0-based).
``lab.screenshot(name) -> Path``
    Full-page PNG at ``test-artifacts/screenshots/<name>.png``.

Example (a test module in tests/ui)::

    def test_board(lab):
        lab.run_notebook("t.ipynb", ["from klondike_widget import KlondikeWidget", "w = ...; w"])
        lab.cell_output(1).locator(".kw-root").wait_for(timeout=30_000)
        assert lab.kernel_exec("print(w.view['status'])").strip() == "playing"
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

CHROMIUM = Path("/usr/bin/chromium")
LAB_START_TIMEOUT = 120.0
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

# Filled by the session fixture, printed in the terminal summary.
_TIMINGS: dict[str, Any] = {}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test under ``tests/ui`` with ``ui``."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.ui)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if "startup" in _TIMINGS:
        terminalreporter.write_line(
            f"ui harness: JupyterLab started in {_TIMINGS['startup']:.1f} s "
            f"(log: {_TIMINGS.get('log', '')})"
        )


# ------------------------------------------------------------------------------------------
# JupyterLab server
# ------------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _http(url: str, method: str = "GET", timeout: float = 5.0) -> tuple[int, bytes]:
    req = urllib.request.Request(url, method=method, data=b"" if method != "GET" else None)
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return int(resp.status), resp.read()


def _write_lab_settings(config_dir: Path) -> None:
    """User settings in the private config dir: no news toasts, every cell rendered."""
    settings = config_dir / "lab" / "user-settings" / "@jupyterlab"
    files = {
        "apputils-extension/notification.jupyterlab-settings": {
            "fetchNews": "false",
            "checkForUpdates": False,
        },
        # Without windowing every cell (and its widget output) is in the DOM.
        "notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    }
    for rel, value in files.items():
        path = settings / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value), encoding="utf-8")


def _tail(path: Path, lines: int = 40) -> str:
    try:
        return "\n".join(path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
    except OSError:
        return "<no log>"


@dataclass
class JupyterLabServer:
    """A JupyterLab process started by the ``jupyter_lab`` fixture."""

    port: int
    root_dir: Path
    log_path: Path
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    startup_seconds: float = 0.0
    _log: Any = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        cmd = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ip=127.0.0.1",
            f"--port={self.port}",
            "--port-retries=0",
            "--allow-root",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            "--ServerApp.disable_check_xsrf=True",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            f"--ServerApp.root_dir={self.root_dir}",
        ]
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("wb")
        self._log.write(("$ " + " ".join(cmd) + "\n").encode())
        self._log.flush()
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=self.env,
            cwd=self.root_dir,
            start_new_session=True,  # own process group: kernels die with it
        )
        deadline = t0 + LAB_START_TIMEOUT
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"JupyterLab exited with {self.proc.returncode} during startup; "
                    f"log {self.log_path}:\n{_tail(self.log_path)}"
                )
            try:
                status, _ = _http(f"{self.url}/api/status", timeout=2.0)
                if status == 200:
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    f"JupyterLab did not answer /api/status within {LAB_START_TIMEOUT:.0f} s; "
                    f"log {self.log_path}:\n{_tail(self.log_path)}"
                )
            time.sleep(0.25)
        self.startup_seconds = time.monotonic() - t0

    def shutdown_kernels(self) -> None:
        """Delete every session (and so shut its kernel) through the REST API."""
        try:
            _, body = _http(f"{self.url}/api/sessions")
            for session in json.loads(body):
                _http(f"{self.url}/api/sessions/{session['id']}", method="DELETE")
        except (urllib.error.URLError, OSError, ValueError):
            pass

    def stop(self) -> None:
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(urllib.error.URLError, OSError):
                _http(f"{self.url}/api/shutdown", method="POST", timeout=5.0)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                for sig in (signal.SIGTERM, signal.SIGKILL):
                    try:
                        os.killpg(proc.pid, sig)
                    except ProcessLookupError:
                        break
                    try:
                        proc.wait(timeout=10)
                        break
                    except subprocess.TimeoutExpired:
                        continue
        if self._log is not None:
            self._log.close()
            self._log = None
        self.proc = None


def private_lab_server(
    base: Path, log_path: Path, repo_root: Path | None = None, server_config: str = ""
) -> JupyterLabServer:
    """A (not yet started) JupyterLab with private config, runtime, data and IPython dirs under
    ``base``. ``repo_root`` goes first on the kernels' ``PYTHONPATH`` (they import the working
    tree under test); ``server_config`` is written as ``jupyter_server_config.py``."""
    dirs = {name: base / name for name in ("config", "runtime", "data", "ipython", "root")}
    for path in dirs.values():
        path.mkdir()
    _write_lab_settings(dirs["config"])
    if server_config:
        (dirs["config"] / "jupyter_server_config.py").write_text(server_config, encoding="utf-8")
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(dirs["config"]),
        JUPYTER_RUNTIME_DIR=str(dirs["runtime"]),
        JUPYTER_DATA_DIR=str(dirs["data"]),
        IPYTHONDIR=str(dirs["ipython"]),
        PYTHONUNBUFFERED="1",
    )
    if repo_root is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(repo_root), os.environ.get("PYTHONPATH")])
        )
    env.pop("JUPYTER_TOKEN", None)
    return JupyterLabServer(port=_free_port(), root_dir=dirs["root"], log_path=log_path, env=env)


@pytest.fixture(scope="session")
def jupyter_lab(
    tmp_path_factory: pytest.TempPathFactory, artifacts_dir: Path, repo_root: Path
) -> Iterator[JupyterLabServer]:
    server = private_lab_server(
        tmp_path_factory.mktemp("jupyter"), artifacts_dir / "jupyterlab.log", repo_root
    )
    server.start()
    _TIMINGS["startup"] = server.startup_seconds
    _TIMINGS["log"] = str(server.log_path)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def base_url(jupyter_lab: JupyterLabServer) -> str:
    return jupyter_lab.url


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: apt-get install -y chromium (see .ci/run)")
    args = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-default-apps",
        "--mute-audio",
    ]
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [*browser_type_launch_args.get("args", []), *args],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_context_args,
        "viewport": {"width": 1280, "height": 900},
        "locale": "en-US",
    }


# ------------------------------------------------------------------------------------------
# Page helpers
# ------------------------------------------------------------------------------------------

# Shared JS prelude: find the notebook panel showing `path`.
_FIND_PANEL = """
const findPanel = (path) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return null;
  for (const w of app.shell.widgets('main')) {
    if (w.context && w.context.path === path && w.content && w.sessionContext) return w;
  }
  return null;
};
"""

_JS_KERNEL_IDLE = (
    "(path) => {"
    + _FIND_PANEL
    + """
  const p = findPanel(path);
  if (!p || !p.context.isReady) return false;
  const sc = p.sessionContext;
  const k = sc.session && sc.session.kernel;
  return Boolean(sc.isReady && k && k.connectionStatus === 'connected' && k.status === 'idle');
}"""
)

_JS_START_RUN_ALL = (
    "(path) => {"
    + _FIND_PANEL
    + """
  const app = window.jupyterapp;
  const p = findPanel(path);
  if (!p) throw new Error('notebook panel not found: ' + path);
  app.shell.activateById(p.id);
  window.__kwRunAll = {done: false};
  app.commands.execute('notebook:run-all-cells').then(
    (ok) => { window.__kwRunAll = {done: true, ok: ok}; },
    (err) => { window.__kwRunAll = {done: true, error: String(err)}; });
  return true;
}"""
)

_JS_CELLS = (
    "(path) => {"
    + _FIND_PANEL
    + """
  const p = findPanel(path);
  return p.content.widgets.map((c) => ({
    type: c.model.type,
    count: c.model.type === 'code' ? c.model.executionCount : null,
    outputs: c.model.type === 'code' ? c.model.outputs.toJSON() : [],
  }));
}"""
)

_JS_KERNEL_EXEC = (
    "([path, code, timeoutMs]) => {"
    + _FIND_PANEL
    + """
  const p = findPanel(path);
  const kernel = p.sessionContext.session.kernel;
  const out = [];
  let error = null;
  const future = kernel.requestExecute(
    {code: code, silent: false, store_history: false, allow_stdin: false, stop_on_error: true});
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === 'stream') out.push(msg.content.text);
    else if (t === 'execute_result') out.push(msg.content.data['text/plain'] + '\\n');
    else if (t === 'error') error = msg.content.traceback.join('\\n');
  };
  const timer = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs));
  return Promise.race([future.done.then(() => 'done'), timer]).then(
    (how) => ({how: how, out: out.join(''), error: error}));
}"""
)


class LabPage:
    """A Playwright page bound to the session's JupyterLab (see the module docstring)."""

    def __init__(self, page: Page, server: JupyterLabServer, artifacts_dir: Path) -> None:
        self.page = page
        self.server = server
        self.artifacts_dir = artifacts_dir
        self.path: str | None = None
        page.set_default_timeout(30_000)

    # -- files ---------------------------------------------------------------------------
    def write_notebook(self, name: str, cells: Sequence[str | Any]) -> Path:
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3 (ipykernel)",
            "language": "python",
        }
        nb.cells = [nbformat.v4.new_code_cell(c) if isinstance(c, str) else c for c in cells]
        path = self.server.root_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, str(path))
        return path

    # -- waiting -------------------------------------------------------------------------
    def _wait(self, what: str, js: str, arg: Any, timeout: float) -> None:
        try:
            self.page.wait_for_function(js, arg=arg, timeout=timeout * 1000, polling=200)
        except PlaywrightError as exc:
            shot = self.screenshot(f"timeout-{re.sub(r'[^A-Za-z0-9_-]+', '_', what)}")
            raise AssertionError(
                f"timed out after {timeout:.0f} s waiting for {what} "
                f"(screenshot {shot}; JupyterLab log {self.server.log_path}):\n{exc}"
            ) from exc

    def _need_path(self) -> str:
        if self.path is None:
            raise AssertionError("open a notebook first (lab.open_notebook)")
        return self.path

    def open_notebook(self, name: str, timeout: float = 120.0) -> Page:
        self.path = name
        self.page.goto(f"/lab/tree/{name}?reset", timeout=timeout * 1000)
        self._wait(
            f"notebook {name} to load",
            "(path) => {"
            + _FIND_PANEL
            + " const p = findPanel(path); return !!(p && p.context.isReady); }",
            name,
            timeout,
        )
        self.wait_for_kernel_idle(timeout=timeout)
        return self.page

    def wait_for_kernel_idle(self, timeout: float = 90.0) -> None:
        self._wait("the kernel to be idle", _JS_KERNEL_IDLE, self._need_path(), timeout)

    # -- running -------------------------------------------------------------------------
    def run_all(self, timeout: float = 180.0, allow_errors: bool = False) -> None:
        path = self._need_path()
        self.wait_for_kernel_idle()
        self.page.evaluate(_JS_START_RUN_ALL, path)
        self._wait(
            "run-all to finish",
            "() => !!(window.__kwRunAll && window.__kwRunAll.done)",
            None,
            timeout,
        )
        result = self.page.evaluate("() => window.__kwRunAll")
        if result.get("error"):
            raise AssertionError(f"run-all failed in JupyterLab: {result['error']}")
        self.wait_for_kernel_idle()
        cells = self.page.evaluate(_JS_CELLS, path)
        pending = [i for i, c in enumerate(cells) if c["type"] == "code" and c["count"] is None]
        if pending:
            raise AssertionError(f"cells {pending} were not executed")
        if not allow_errors:
            for i, cell in enumerate(cells):
                for out in cell["outputs"]:
                    if out.get("output_type") == "error":
                        tb = _ANSI.sub("", "\n".join(out.get("traceback", [])))
                        raise AssertionError(f"cell {i} raised:\n{tb}")

    def run_notebook(self, name: str, cells: Sequence[str | Any], timeout: float = 180.0) -> Page:
        self.write_notebook(name, cells)
        self.open_notebook(name, timeout=timeout)
        self.run_all(timeout=timeout)
        return self.page

    def kernel_exec(self, code: str, timeout: float = 60.0) -> str:
        path = self._need_path()
        res = self.page.evaluate(_JS_KERNEL_EXEC, [path, code, int(timeout * 1000)])
        if res["how"] == "timeout":
            raise AssertionError(f"kernel_exec timed out after {timeout:.0f} s: {code!r}")
        if res["error"]:
            raise AssertionError(f"kernel_exec {code!r} raised:\n{_ANSI.sub('', res['error'])}")
        out: str = res["out"]
        return out

    def wait_for_kernel_output(self, code: str, expected: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            got = self.kernel_exec(code).strip()
            if got == expected:
                return got
            if time.monotonic() > deadline:
                shot = self.screenshot("timeout-kernel-output")
                raise AssertionError(
                    f"{code!r} printed {got!r}, expected {expected!r} within {timeout:.0f} s "
                    f"(screenshot {shot})"
                )
            time.sleep(0.2)

    # -- looking -------------------------------------------------------------------------
    def cell_output(self, index: int) -> Locator:
        return (
            self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell")
            .nth(index)
            .locator(".jp-OutputArea")
        )

    def screenshot(self, name: str) -> Path:
        path = self.artifacts_dir / "screenshots" / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path), full_page=True, timeout=15_000)
        return path


@pytest.fixture
def lab(page: Page, jupyter_lab: JupyterLabServer, artifacts_dir: Path) -> Iterator[LabPage]:
    helper = LabPage(page, jupyter_lab, artifacts_dir)
    try:
        yield helper
    finally:
        jupyter_lab.shutdown_kernels()
