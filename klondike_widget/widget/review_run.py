"""The widget's game review, run in a background thread so the kernel's message loop never waits.

The "Review" button sends the ``review`` intent; the widget hands the game to a
:class:`ReviewRun`, which reviews a copy of it (:func:`klondike_widget.review.review`) in its own
daemon thread. After every search the progress (positions decided out of all) is handed to the
widget through ``deliver`` (the kernel's IOLoop) and shows in ``view["review"]``; the finished
review is handed over the same way, and the widget opens it in the analysis panel. Any change to
the game cancels the run (the search in progress stops at once through the solver's ``cancel``).

The widget's verdicts are read and extended under the widget's lock (:class:`LockedVerdicts`),
so the review reuses what the background analysis knows and the other way round.

Examples
--------
>>> import threading
>>> from klondike_widget.engine.game import Game
>>> from klondike_widget.widget.analysis import Verdicts
>>> done = threading.Event()
>>> run = ReviewRun(lambda fn: fn())
>>> g = Game.new(deal=2)
>>> g.play_line(["s", "s"])
>>> run.start(g, Verdicts(), threading.RLock(), lambda game, r: done.set(), lambda: None)
>>> done.wait(60), run.running
(True, False)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.widget.protocol import ReviewProgress, View

if TYPE_CHECKING:
    from klondike_widget.review import Review
    from klondike_widget.widget.analysis import Verdict, Verdicts
    from klondike_widget.widget.table import Table

__all__ = [
    "LockedVerdicts",
    "ReviewRun",
    "Reviewer",
    "copy_game",
    "review_summary",
]

_log = logging.getLogger(__name__)

#: ``deliver(fn)``: run ``fn`` where widget state may change (the kernel's IOLoop).
Deliver = Callable[[Callable[[], None]], None]


class LockedVerdicts:
    """The widget's :class:`Verdicts`, each call under the widget's lock (for the review thread)."""

    def __init__(self, verdicts: Verdicts, lock: threading.RLock) -> None:
        self._verdicts = verdicts
        self._lock = lock

    def get(self, state: GameState) -> Verdict | None:
        with self._lock:
            return self._verdicts.get(state)

    def add_line(self, state: GameState, line: Iterable[Move | str]) -> None:
        with self._lock:
            self._verdicts.add_line(state, line)

    def add_lost(self, state: GameState) -> None:
        with self._lock:
            self._verdicts.add_lost(state)


def copy_game(game: Game) -> Game:
    """The game's history from its start, as a separate :class:`Game` (the player may go on)."""
    copy = Game(game.start, game.deal_number)
    copy.play_line(game.history)
    return copy


class ReviewRun:
    """At most one game review at a time, in a daemon thread.

    Parameters
    ----------
    deliver : callable
        ``deliver(fn)`` runs ``fn`` where the widget's state may change (never in the thread).
    """

    def __init__(self, deliver: Deliver) -> None:
        self._deliver = deliver
        self._cancel = threading.Event()
        self._gen = 0
        self.running = False
        self.decided = 0
        self.total = 0

    def part(self) -> ReviewProgress | None:
        """``view["review"]`` while a review runs, else None."""
        if not self.running:
            return None
        return {"running": True, "decided": self.decided, "total": self.total}

    def cancel(self) -> bool:
        """Stop the review in progress (its result is dropped); True if one was running."""
        was = self.running
        self._gen += 1
        self._cancel.set()
        self.running = False
        return was

    def start(
        self,
        game: Game,
        verdicts: Verdicts,
        lock: threading.RLock,
        done: Callable[[Game, Review | None], None],
        changed: Callable[[], None],
    ) -> None:
        """Review ``game`` (a copy is taken now); then ``done(game, review)`` is delivered
        (``review`` None if the review failed: the error is logged).

        ``changed()`` is delivered after every search (the progress moved). A review already
        running is cancelled first.
        """
        self.cancel()
        self._cancel = cancel = threading.Event()
        gen = self._gen
        copy = copy_game(game)
        self.running, self.decided, self.total = True, 0, len(copy.states)
        known = LockedVerdicts(verdicts, lock)

        def progress(decided: int, total: int) -> None:
            if gen == self._gen:
                self.decided, self.total = decided, total
                self._deliver(changed)

        def work() -> None:
            from klondike_widget.review import review

            result: Review | None = None
            try:
                result = review(copy, known=known, cancel=cancel, progress=progress)
            except Exception:  # a background thread must never die silently
                _log.exception("klondike-widget: game review failed")

            def finish() -> None:
                if gen == self._gen and not cancel.is_set():
                    self.running = False
                    done(game, result)

            self._deliver(finish)

        threading.Thread(target=work, name="klondike-review", daemon=True).start()


def review_summary(game: Game, result: Review) -> Callable[[str], str]:
    """What a review found, as a sentence in a locale (over the list of the review panel)."""
    from klondike_widget import i18n
    from klondike_widget.solver import Status

    losing = result.losing_move

    def summary(locale: str) -> str:
        if losing is not None:
            before = game.states[losing.index]
            better = i18n.describe_move(before, losing.alternative[0], locale)
            return i18n.text("review.summary.losing", locale, index=losing.index + 1, move=better)
        if result.undecided:
            return i18n.text("review.summary.undecided", locale)
        if result.start is Status.LOST:
            return i18n.text("review.summary.lost_start", locale)
        return i18n.text("review.summary.none", locale)

    return summary


class Reviewer:
    """The table's game reviews: which game the Review button reviews, the run, the panel.

    The Review button reviews the game on the table once a move was played, else the game it
    replaced (abandoned, lost or won) if that had moves. The review runs in a :class:`ReviewRun`;
    its result opens in the table's analysis panel (:class:`~klondike_widget.widget.desk.Desk`)
    at the step before the losing move, marked, with a summary; "Try from here" starts a new game
    of the reviewed deal there.
    """

    def __init__(self, table: Table) -> None:
        self.table = table
        self.run = ReviewRun(table.scheduler.deliver)
        self.current: Game | None = None  # the game on the table when last told
        self.last_game: Game | None = None  # the game replaced last, if it had moves
        self.reviewed: Game | None = None  # the game whose review is open in the panel

    def target(self) -> Game | None:
        """The game the Review button reviews now, or None (nothing to review)."""
        game = self.table.game
        if game.history:
            return game
        last = self.last_game
        return last if last is not None and last.history else None

    def game_changed(self) -> None:
        """The game changed: a running review stops; a game replaced can still be reviewed."""
        self.run.cancel()
        game, old = self.table.game, self.current
        if game is not old and old is not None and old.history:
            self.last_game = old
        self.current = game

    def fill_view(self, view: View) -> None:
        """Set ``view["review"]`` (the progress, None unless running) and ``view["reviewable"]``."""
        view["review"] = self.run.part()
        view["reviewable"] = self.target() is not None

    def start(self) -> bool:
        """Review the target game in the background; False when there is none."""
        game = self.target()
        if game is None:
            return False
        table = self.table
        self.run.start(game, table.verdicts, table.lock, self.done, table.publish)
        table.publish()
        return True

    def done(self, game: Game, result: Review | None) -> None:
        """The background review is in (delivered under the lock): open it unless outdated."""
        table = self.table
        if result is None:
            table.notice("error.review", "the review failed")
        elif game in (table.game, self.last_game) and not table.finishing:
            self.open(game, result)
            return
        table.publish()

    def open(self, game: Game, result: Review) -> None:
        """Open ``game``'s history in the panel, at the step before the losing move (marked)."""
        from klondike_widget.engine.line import Line
        from klondike_widget.widget.line_panel import LinePanel

        desk = self.table.desk  # the panel the review opens in
        losing = result.losing_move
        marks = {losing.index: "review.losing"} if losing is not None else {}
        line = Line(game.start, list(game.history))
        summary = review_summary(game, result)
        panel = LinePanel(line, desk.count + 1, marks=marks, review=True, summary=summary)
        self.reviewed = game
        desk.open(panel, losing.index if losing is not None else 0)

    def try_game(self, k: int) -> Game:
        """A new game of the reviewed deal, with its first ``k`` moves played."""
        reviewed = self.reviewed or self.table.game
        game = Game(reviewed.start, reviewed.deal_number)
        game.play_line(reviewed.history[:k])
        return game
