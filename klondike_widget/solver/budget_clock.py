"""The clock a shortening budget is counted on (:class:`BudgetClock`)."""

from __future__ import annotations

import time

__all__ = ["WALL_FACTOR", "BudgetClock"]

#: A budget counts processor time, but at most this many times its wall time
#: (:class:`BudgetClock`).
WALL_FACTOR = 3.0


class BudgetClock:
    """Seconds spent since it was made, as a shortening budget counts them.

    The processor time of the calling thread (the beams run in it, compiled code included),
    so that a busy machine sharing its cores does not cut the search short; but never less
    than the wall time over :data:`WALL_FACTOR`, so that a budget ends on any machine.

    >>> clock = BudgetClock()
    >>> 0.0 <= clock() < 1.0
    True
    """

    def __init__(self) -> None:
        self.cpu0 = time.thread_time()
        self.wall0 = time.perf_counter()

    def __call__(self) -> float:
        cpu = time.thread_time() - self.cpu0
        return max(cpu, (time.perf_counter() - self.wall0) / WALL_FACTOR)
