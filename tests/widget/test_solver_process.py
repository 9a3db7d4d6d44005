"""The widget's solver process: verdicts from another process, cancelling, a dead worker."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

from klondike_widget.engine.game import Game
from klondike_widget.engine.line import Line
from klondike_widget.widget import solver_process
from klondike_widget.widget.analysis import default_solve

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the solver process is POSIX only")

ROOT = Path(__file__).resolve().parents[2]


def test_the_worker_solves_in_another_process_and_its_line_wins() -> None:
    worker = solver_process.shared()
    assert worker is not None and worker.alive
    assert worker._process.pid != os.getpid()
    start = Game.new(deal=2).state
    status, line = worker.solve(start, 10.0, threading.Event())
    assert status == "winnable"
    assert Line(start, line).is_winning  # replayed through the engine here


class _Running:
    """Stands for the worker's Popen: always running."""

    def poll(self) -> None:
        return None


def _client_and_server(
    monkeypatch: pytest.MonkeyPatch, solve: Any
) -> tuple[solver_process.SolverProcess, threading.Thread]:
    """The real protocol over a socket pair, the worker's loop in a thread of this process."""
    monkeypatch.setattr(solver_process, "solve_here", solve)
    ours, theirs = socket.socketpair()
    server = threading.Thread(
        target=solver_process.serve, args=(Connection(theirs.detach()), 0), daemon=True
    )
    server.start()
    client = object.__new__(solver_process.SolverProcess)
    client._conn = Connection(ours.detach())
    client._process = _Running()  # type: ignore[assignment]
    client._lock = threading.Lock()
    return client, server


def test_a_cancel_stops_the_search_in_the_worker_and_only_that_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def solve(state: Any, seconds: float, cancel: threading.Event) -> tuple[str, tuple[()]]:
        if seconds > 1:  # the long search: runs until cancelled
            return ("unknown", ()) if cancel.wait(10) else ("winnable", ())
        return ("unwinnable" if cancel.is_set() else "winnable"), ()

    client, server = _client_and_server(monkeypatch, solve)
    state = Game.new(deal=2).state
    cancel = threading.Event()
    threading.Timer(0.1, cancel.set).start()
    t0 = time.monotonic()
    assert client.solve(state, 30.0, cancel) == ("unknown", ())
    assert time.monotonic() - t0 < 5
    # The next search starts uncancelled, whatever the last one was told.
    assert client.solve(state, 0.5, threading.Event()) == ("winnable", ())
    client._conn.close()
    server.join(5)
    assert not server.is_alive()  # the worker ends when the kernel's end closes


def test_a_failing_search_is_reported_and_the_worker_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = []

    def solve(state: Any, seconds: float, cancel: threading.Event) -> tuple[str, tuple[()]]:
        calls.append(seconds)
        if len(calls) == 1:
            raise ValueError("a solver bug")
        return "winnable", ()

    client, _ = _client_and_server(monkeypatch, solve)
    state = Game.new(deal=2).state
    with pytest.raises(RuntimeError, match="ValueError: a solver bug"):
        client.solve(state, 1.0, threading.Event())
    assert client.solve(state, 1.0, threading.Event()) == ("winnable", ())
    client._conn.close()


def test_a_dead_worker_costs_no_verdict_and_the_next_search_starts_a_new_one() -> None:
    worker = solver_process.shared()
    assert worker is not None
    worker._process.kill()
    worker._process.wait()
    start = Game.new(deal=2).state
    with pytest.raises(solver_process.SolverProcessError):
        worker.solve(start, 10.0, threading.Event())
    status, line = default_solve(start, 10.0, threading.Event())  # falls back, or a new worker
    assert status == "winnable" and Line(start, line).is_winning
    again = solver_process.shared()
    assert again is not None and again is not worker and again.alive


def test_a_script_with_a_widget_runs_once_and_never_loads_numba(tmp_path: Path) -> None:
    script = tmp_path / "player.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys
            from klondike_widget import KlondikeWidget
            print("script ran")
            w = KlondikeWidget(deal=2, stats=False)
            print(w.wait(120), "numba" in sys.modules)
            w.close()
            """
        ),
        encoding="utf-8",
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=180
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == ["script ran", "winnable False"], out.stdout
