"""Background analysis for the widget: one worker thread solving the latest position asked about.

The kernel's main thread never waits for the solver. :class:`Analyst` keeps one daemon thread;
:meth:`Analyst.request` cancels the search in progress (through the solver's ``cancel`` event)
and queues the new position; only the latest request is kept. The result is handed to
``deliver`` (for the widget: a thread-safe hand-off to the kernel's IOLoop), never applied from
the worker thread directly.

:class:`Verdicts` remembers what is known about positions: a won line also tells the verdict of
every position along it, so following the solver or pressing Finish needs no new search.

Examples
--------
>>> from klondike_widget.engine.game import Game
>>> g = Game.new(deal=2)
>>> known = Verdicts()
>>> known.add_line(g.state, ["t3-t2", "s"])  # not a win: not remembered
>>> known.get(g.state) is None
True
>>> known.put(g.state, Verdict("unwinnable"))
>>> known.get(g.state).status
'unwinnable'
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from klondike_widget.engine.errors import IllegalMoveError, InvalidMoveError, positive_seconds
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.widget import solver_process

__all__ = ["Verdict", "Verdicts", "Analyst", "SolveFn", "default_solve"]

#: ``solve(state, seconds, cancel) -> (status, line)`` with status "winnable", "unwinnable"
#: or "unknown" and the winning line (empty unless winnable).
_log = logging.getLogger(__name__)

SolveFn = Callable[[GameState, float, threading.Event], tuple[str, Sequence[Move]]]


def default_solve(
    state: GameState, seconds: float, cancel: threading.Event
) -> tuple[str, Sequence[Move]]:
    """Solve in the kernel's solver process (:mod:`klondike_widget.widget.solver_process`).

    :func:`klondike_widget.solver.solve` with a shortened line (Hint, Finish and the line panel
    follow it), run at a lower CPU priority and away from the kernel's GIL; in this thread when
    no worker process can run (or it just ended: the next search starts a new one).
    """
    worker = solver_process.shared()
    if worker is not None:
        try:
            return worker.solve(state, seconds, cancel)
        except solver_process.SolverProcessError as exc:
            _log.warning("klondike-widget: %s; this search runs in the kernel", exc)
    return solver_process.solve_here(state, seconds, cancel)


@dataclass(frozen=True)
class Verdict:
    """What is known about a position: ``status`` and, when winnable, a winning ``line``."""

    status: str
    line: tuple[Move, ...] = ()


class Verdicts:
    """A bounded memory of verdicts by position (least recently used ones are forgotten)."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._known: OrderedDict[GameState, Verdict] = OrderedDict()

    def get(self, state: GameState) -> Verdict | None:
        """The verdict on ``state``, if known."""
        verdict = self._known.get(state)
        if verdict is not None:
            self._known.move_to_end(state)
        return verdict

    def line(self, state: GameState) -> tuple[Move, ...]:
        """The known winning line from ``state`` (empty if none is known)."""
        verdict = self.get(state)
        return verdict.line if verdict is not None else ()

    def put(self, state: GameState, verdict: Verdict) -> None:
        """Remember ``verdict`` for ``state``."""
        self._known[state] = verdict
        self._known.move_to_end(state)
        while len(self._known) > self._size:
            self._known.popitem(last=False)

    def add_lost(self, state: GameState) -> None:
        """Remember that ``state`` cannot be won (a proof: the solver's, or a game review's)."""
        self.put(state, Verdict("unwinnable"))

    def add_line(self, state: GameState, line: Iterable[Move | str]) -> None:
        """Remember a winning line from ``state``, and the rest of it for each position on it.

        A line that does not replay (which would be a solver bug) is not remembered at all.
        """
        moves: list[Move] = []
        states = [state]
        try:
            for item in line:
                move = states[-1].parse_move(item) if isinstance(item, str) else item
                states.append(states[-1].apply(move))
                moves.append(move)
        except (IllegalMoveError, InvalidMoveError):
            return
        if not states[-1].is_won:
            return
        for i, pos in enumerate(states[:-1]):
            self.put(pos, Verdict("winnable", tuple(moves[i:])))


Done = Callable[[int, str, Sequence[Move], BaseException | None], None]


class Analyst:
    """One daemon thread that solves the latest requested position.

    Parameters
    ----------
    deliver : callable
        Called from the worker thread with a no-argument function that must run where the
        widget's state may be changed (the kernel's IOLoop); it must be thread-safe.
    seconds : float
        The solver's time budget per position.
    solve : SolveFn
        The search (tests pass a stand-in; the widget uses :func:`default_solve`).
    delay : float
        Seconds to wait before starting a search (newer requests in that time replace it).
    """

    def __init__(
        self,
        deliver: Callable[[Callable[[], None]], None],
        seconds: float = 10.0,
        solve: SolveFn = default_solve,
        delay: float = 0.03,
    ) -> None:
        self._deliver = deliver
        self.seconds = positive_seconds(seconds, "solve_seconds")
        self.delay = delay
        self._solve = solve
        self._cond = threading.Condition()
        self._pending: tuple[int, GameState, Done] | None = None
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.busy = False

    def request(self, token: int, state: GameState, done: Done) -> None:
        """Solve ``state`` next (cancelling any search in progress); ``done`` gets the verdict.

        ``done(token, status, line, error)`` runs through ``deliver``; ``status`` is
        ``"winnable"``, ``"unwinnable"``, ``"unknown"`` or ``"error"``.
        """
        with self._cond:
            if self._closed:
                return
            self._cancel.set()
            self._pending = (token, state, done)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="klondike-widget-analyst", daemon=True
                )
                self._thread.start()
            self._cond.notify()

    def cancel(self) -> None:
        """Stop the search in progress and drop any queued request."""
        with self._cond:
            self._pending = None
            self._cancel.set()

    def close(self) -> None:
        """Cancel everything and let the worker thread end."""
        with self._cond:
            self._closed = True
            self._pending = None
            self._cancel.set()
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._cond.wait()
                # A short pause: the kernel sends the new board first, and a burst of moves
                # (fast clicking) costs one search, of the last position, not one each.
                deadline = time.monotonic() + self.delay
                while not self._closed and (left := deadline - time.monotonic()) > 0:
                    self._cond.wait(left)
                if self._closed:
                    return
                if self._pending is None:  # cancelled during the pause
                    continue
                token, state, done = self._pending
                self._pending = None
                cancel = self._cancel = threading.Event()
                self.busy = True
            status: str
            line: Sequence[Move] = ()
            error: BaseException | None = None
            try:
                status, line = self._solve(state, self.seconds, cancel)
            except Exception as exc:  # a solver bug must not kill the thread
                status, error = "error", exc
            finally:
                self.busy = False
            if not cancel.is_set():
                self._deliver(_bind(done, token, status, tuple(line), error))


def _bind(
    done: Done, token: int, status: str, line: tuple[Move, ...], error: BaseException | None
) -> Callable[[], None]:
    def call() -> None:
        done(token, status, line, error)

    return call
