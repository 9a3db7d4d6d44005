"""When the table's state may change: under one lock, on the kernel's IOLoop, later on a timer.

The table is changed from three places: the kernel's main thread (intents, calls from Python),
the solver's worker thread (a verdict arrives) and timers (Finish plays its next move, autoplay
shows the next step). :class:`Scheduler` funnels the last two onto the kernel's IOLoop when there
is one (ipykernel's ``io_loop.add_callback`` is thread-safe), else runs them under the table's
lock; either way they never raise into the loop.

Examples
--------
>>> import threading
>>> done = threading.Event()
>>> scheduler = Scheduler(threading.RLock(), loop=None)
>>> scheduler.later(0.01, done.set)
>>> done.wait(5)
True
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["kernel_loop", "Scheduler"]

_log = logging.getLogger("klondike_widget.widget")


def kernel_loop() -> Any:
    """The running kernel's IOLoop (thread-safe ``add_callback``), or None outside a kernel."""
    try:
        from IPython.core.getipython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    return getattr(kernel, "io_loop", None)


class Scheduler:
    """Runs callbacks under ``lock``: on the kernel's IOLoop ``loop``, or directly without one."""

    def __init__(self, lock: threading.RLock, loop: Any) -> None:
        self.lock = lock
        self.loop = loop

    def deliver(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` where table state may change: on the IOLoop, else now under the lock."""
        if self.loop is not None:
            self.loop.add_callback(self.locked(fn))
        else:
            self.locked(fn)()

    def locked(self, fn: Callable[[], None]) -> Callable[[], None]:
        """``fn`` run under the lock, its exceptions logged (a background hand-off never raises)."""

        def call() -> None:
            with self.lock:
                try:
                    fn()
                except Exception:  # a background hand-off must never raise into the loop
                    _log.exception("klondike-widget: background update failed")

        return call

    def later(self, delay: float, fn: Callable[[], None]) -> None:
        """Run ``fn`` under the lock after ``delay`` seconds: on the IOLoop, else on a timer."""
        if self.loop is not None:
            loop = self.loop
            loop.add_callback(lambda: loop.call_later(delay, self.locked(fn)))
        else:
            timer = threading.Timer(delay, self.locked(fn))
            timer.daemon = True
            timer.start()
