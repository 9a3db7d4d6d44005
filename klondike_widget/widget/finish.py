"""Finish at the table: the known winning line (or auto-complete) played move by move.

:class:`Finisher` is the part of the :class:`~klondike_widget.widget.table.Table` that plays a
line into the game by itself: one move per wait (:func:`klondike_widget.widget.pace.move_delays`:
the ``pace`` setting, longer where a card turns up, quick through runs of taps), scheduled on the
kernel's IOLoop (or on timers outside a kernel) under the table's lock. Every move counts on the
Moves counter like one of the player's. A scheduled step belongs to the run whose ``gen`` it was
given: after :meth:`Finisher.stop` (or a new run) the steps still scheduled of the old run find
another ``gen`` and do nothing.

Examples
--------
>>> from klondike_widget.widget.host import PlainHost
>>> from klondike_widget.widget.table import Table
>>> def no_idea(state, seconds, cancel):  # a stand-in solver that never finds a line
...     return "unknown", ()
>>> table = Table(PlainHost(), deal=2, analyse=False, stats=False, solve=no_idea); table.open()
>>> table.finisher.finish()
Traceback (most recent call last):
...
klondike_widget.engine.errors.IllegalMoveError: no winning line is known from here (unknown)
>>> table.finisher.running, table.game.moves_count
(False, 0)
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from klondike_widget.engine.errors import IllegalMoveError, InvalidMoveError
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.play import assist
from klondike_widget.widget.pace import move_delays

if TYPE_CHECKING:
    from klondike_widget.widget.table import Table

__all__ = ["Finisher"]

_log = logging.getLogger("klondike_widget.widget")


class Finisher:
    """Finish of ``table``: ``running``, the ``moves`` still to play, the ``waits`` before them."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.running = False
        self.gen = 0
        self.moves: list[Move] = []
        self.waits: list[float] = []

    def finish(self, *, animate: bool = True) -> int:
        """Play the known winning line (solving first if need be); return its length."""
        table = self.table
        with table.lock:
            if table.game.is_won:
                raise IllegalMoveError("the game is already won")
            table.desk.close()
            state = table.game.state
            if table.verdicts.get(state) is None:
                table.analyst.cancel()
                try:
                    status, line = table.solve(state, table.analyst.seconds, threading.Event())
                except Exception:
                    _log.exception("klondike-widget: solver failed")
                    status, line = "error", ()
                table.record(state, status, line)
                table.analysis = table.verdict_status(state)
            line = table.verdicts.line(state)
            if not line:
                raise IllegalMoveError(f"no winning line is known from here ({table.analysis})")
            table.tracker.helped()
            if not animate:
                self.stop()
                table.last_line = Line(state, line)
                for move in line:
                    table.play_move(move)
                return len(line)
            self.start(line)
            return len(line)

    def auto_complete(self) -> int:
        """Play every card up to the foundations, when that is offered; return how many moves."""
        table = self.table
        with table.lock:
            line = assist.auto_complete_line(table.game.state)
            if line is None:
                raise IllegalMoveError("auto-complete needs every card face up and no stock")
            table.desk.close()
            self.start(line)
            return len(line)

    def start(self, line: tuple[Move, ...]) -> None:
        """Begin playing ``line`` at the pace setting (a run in progress lapses)."""
        table = self.table
        state = table.game.state
        table.last_line = Line(state, line)
        self.running = True
        self.gen += 1
        self.moves = list(line)
        self.waits = move_delays(state, line, int(table.host.pace))
        table.hint = None
        table.publish()
        self._schedule(self.gen)

    def stop(self) -> None:
        """End the run, if one is running (nothing is published)."""
        if self.running:
            self.running = False
            self.gen += 1
            self.moves = []
            self.waits = []

    def stop_and_say(self) -> None:
        """The player's Stop: end the run, say so, publish."""
        with self.table.lock:
            if self.running:
                self.stop()
                self.table.notice("status.stopped")
                self.table.publish()

    def _schedule(self, gen: int) -> None:
        # adaptive (klondike_widget.widget.pace): pauses where a card turns up, quick runs of taps
        delay = self.waits.pop(0) if self.waits else max(0, int(self.table.host.pace)) / 1000.0
        self.table.scheduler.later(delay, lambda: self._step(gen))

    def _step(self, gen: int) -> None:
        """Play the next move of run ``gen`` (nothing if that run is over)."""
        if gen != self.gen or not self.running:
            return
        table = self.table
        if not self.moves:
            self.stop()
            table.publish()
            return
        move = self.moves.pop(0)
        if not self.moves:  # the last move: the board it shows is no longer finishing
            self.stop()
        try:
            table.play_move(move)
        except (IllegalMoveError, InvalidMoveError):
            self.stop()
            table.publish()
            return
        if table.game.is_won or not self.moves:
            self.stop()
            table.publish()
            return
        self._schedule(gen)
