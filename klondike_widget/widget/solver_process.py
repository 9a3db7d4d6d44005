"""The widget's background solver in a process of its own, at a lower CPU priority.

A search in a thread of the kernel shares the kernel's GIL and its CPU with the handling of
the player's clicks: every thread hand-off on the way of a click (the shell channel, the comm's
subshell, the IOPub thread) waits for the solver thread to let go, and on a machine with few
cores the search takes the core the kernel, the server and the browser need for the round trip.
Measured (``benchmarks/tap_profile.py``): with the search in a thread, a waking thread of the
kernel waited 2 ms at the median and 8 to 14 ms at the 95th percentile.

So the widgets of a kernel share one worker process (a fresh Python: it inherits neither the
kernel's threads nor its main script), which lowers its own priority by :data:`NICENESS` and
loads the compiled solver there; the kernel never imports numba for the widget.
:meth:`SolverProcess.solve` has the signature of a widget solve function
(``klondike_widget.widget.analysis.SolveFn``): the calling thread waits on a socket (the GIL
released), and a set ``cancel`` event is passed on to the worker, whose search stops at its
next chunk. When no process can be started (Windows, a sandbox without subprocesses),
:func:`shared` returns None and the widget searches in a thread as before.

Examples
--------
>>> import threading
>>> from klondike_widget.engine.deals import deal
>>> status, line = solve_here(deal(2), 10.0, threading.Event())
>>> status, len(line) > 0
('winnable', True)
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState

__all__ = ["NICENESS", "SolverProcess", "SolverProcessError", "shared", "solve_here"]

_log = logging.getLogger(__name__)

#: How much lower than the kernel's the worker's CPU priority is (``os.nice``; POSIX only).
NICENESS = 10
#: How often the waiting thread looks at its ``cancel`` event (seconds).
POLL_SECONDS = 0.02
#: What the worker runs: ``python -c WORKER_CODE <socket fd> <niceness>``.
WORKER_CODE = (
    "import sys; from multiprocessing.connection import Connection; "
    "from klondike_widget.widget.solver_process import serve; "
    "serve(Connection(int(sys.argv[1])), int(sys.argv[2]))"
)


class SolverProcessError(RuntimeError):
    """The worker process ended (or could not be reached); the search has no verdict."""


def solve_here(state: GameState, seconds: float, cancel: Any) -> tuple[str, Sequence[Move]]:
    """Run :func:`klondike_widget.solver.solve` in this process, in the widget's words.

    ``cancel`` is anything with ``is_set()`` (a thread's or a process's event). The line is
    shortened (``shorten=True``): Hint, Finish and the line panel follow it.
    """
    from klondike_widget.solver import Limit, solve

    result = solve(state, limit=Limit(seconds=seconds), cancel=cancel, shorten=True)
    return result.status.widget_word, tuple(result.moves)


def serve(conn: Connection, niceness: int) -> None:
    """The worker: ``("solve", state, seconds)`` in, ``("ok", status, line)`` or ``("error",
    text)`` out; ``("cancel",)`` stops the search in progress. Ends when the pipe closes."""
    if niceness and hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(niceness)
    from klondike_widget.solver import warm_up

    warm_up(wait=False)  # until the compiled core is loaded, the uncompiled one searches
    cancel = threading.Event()
    jobs: queue.SimpleQueue[tuple[GameState, float] | None] = queue.SimpleQueue()

    def read() -> None:  # in order: a cancel sent before a job never stops that job
        while True:
            try:
                message = conn.recv()
            except (EOFError, OSError):
                jobs.put(None)
                return
            if message[0] == "cancel":
                cancel.set()
            else:
                cancel.clear()
                jobs.put((message[1], message[2]))

    threading.Thread(target=read, name="klondike-widget-solver-pipe", daemon=True).start()
    while (job := jobs.get()) is not None:
        try:
            status, line = solve_here(job[0], job[1], cancel)
            answer: tuple[Any, ...] = ("ok", status, tuple(line))
        except Exception as exc:  # a solver bug: reported to the widget, the worker goes on
            answer = ("error", f"{type(exc).__name__}: {exc}")
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return


class SolverProcess:
    """One worker process solving one position at a time for the calling threads.

    The worker is a new Python running :func:`serve` (not ``multiprocessing``, whose ``spawn``
    would run the user's main script again in the worker), talking over a socket pair. POSIX
    only (``os.nice``, passing the socket); elsewhere :func:`shared` gives None.

    Parameters
    ----------
    niceness : int
        Added to the worker's nice value (0: the kernel's priority).
    """

    def __init__(self, niceness: int = NICENESS) -> None:
        if os.name != "posix":
            raise OSError("the solver process needs POSIX")
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])
        env["PYTHONPATH"] = os.pathsep.join([package_root, *filter(None, [env.get("PYTHONPATH")])])
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", WORKER_CODE, str(theirs.fileno()), str(niceness)],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                env=env,
                close_fds=True,
            )
        finally:
            theirs.close()
        self._conn = Connection(ours.detach())
        self._lock = threading.Lock()

    @property
    def alive(self) -> bool:
        """True while the worker runs."""
        return self._process.poll() is None

    def solve(
        self, state: GameState, seconds: float, cancel: threading.Event
    ) -> tuple[str, Sequence[Move]]:
        """Solve ``state`` in the worker (waiting here); ``cancel`` stops it early.

        Raises :class:`SolverProcessError` when the worker has ended, ``RuntimeError`` with the
        worker's message when its search failed.
        """
        with self._lock:
            try:
                self._conn.send(("solve", state, seconds))
                cancelled = False
                while not self._conn.poll(POLL_SECONDS):
                    if cancel.is_set() and not cancelled:
                        self._conn.send(("cancel",))
                        cancelled = True
                    if not self.alive:
                        raise SolverProcessError("the solver process ended")
                answer = self._conn.recv()
            except (EOFError, OSError) as exc:
                raise SolverProcessError(f"the solver process is gone: {exc}") from None
        if answer[0] == "error":
            raise RuntimeError(f"the solver process failed: {answer[1]}")
        return answer[1], answer[2]

    def close(self) -> None:
        """End the worker (it exits when its pipe closes; a running search is cut short)."""
        with contextlib.suppress(OSError):
            self._conn.send(("cancel",))
        self._conn.close()
        try:
            self._process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


_SHARED: SolverProcess | None = None
_SHARED_LOCK = threading.Lock()
_UNAVAILABLE = False


def shared() -> SolverProcess | None:
    """The kernel's worker, started on first use (again if it ended); None if it cannot run.

    Call it early (the widget does when it opens): the worker loads the solver meanwhile.
    """
    global _SHARED, _UNAVAILABLE
    with _SHARED_LOCK:
        if _UNAVAILABLE:
            return None
        if _SHARED is not None and _SHARED.alive:
            return _SHARED
        try:
            _SHARED = SolverProcess()
        except (OSError, ValueError) as exc:
            _log.warning("klondike-widget: no solver process (%s); searching in a thread", exc)
            _UNAVAILABLE = True
            _SHARED = None
        return _SHARED
