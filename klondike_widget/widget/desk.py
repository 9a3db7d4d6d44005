"""The analysis panel at the table: opening a line, stepping through it, autoplay, leaving it.

:class:`Desk` is the part of the :class:`~klondike_widget.widget.table.Table` that looks at a
line instead of the game: a solver line, the line Finish played, or a reviewed game. It keeps
the open :class:`~klondike_widget.widget.line_panel.LinePanel` and numbers the lines opened
(intents name the line they are about), publishes ``line_view`` and ``line_index`` to the host,
and schedules autoplay like Finish, on the IOLoop. Stepping never changes the game.

Solver lines
------------
After Hint or Finish (or any time a winning line is known), the "Solver line" button, or
:meth:`KlondikeWidget.show_line` from code, opens the analysis panel. Stepping through the line
never changes the game: the Moves counter, the history and the clock stay as they are, and the
board is read-only (moves, undo, redo, Hint and Finish are refused with ``in_analysis``).

"Back to the game" (:meth:`~KlondikeWidget.back_to_game`) closes the panel; the game is as it
was. "Play from here" (:meth:`~KlondikeWidget.play_from_here`) at step ``k`` plays the line's
first ``k`` moves into the game as real moves: each counts on the Moves counter like any action,
and undo can take them back; the game's earlier history is kept. This is only possible when
the line starts at the position on the table: for any other line (one opened from an older
position, or the line Finish played once the game is won) it is refused with
``line_not_current`` and the front end disables the button. Any change to the game (a move from
Python, undo, a new deal, ...) closes the panel.

Examples
--------
>>> from klondike_widget.widget.host import PlainHost
>>> from klondike_widget.widget.table import Table
>>> host = PlainHost()
>>> table = Table(host, deal=2, analyse=False, stats=False); table.open()
>>> table.desk.show_line("s t3-t2", index=1).text(), host.line_index, host.view["stock"]
('s t3-t2', 1, 23)
>>> table.desk.back_to_game(); host.view["status"], host.line_view
('playing', {})
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from klondike_widget import i18n
from klondike_widget.engine.line import Line
from klondike_widget.engine.state import GameState
from klondike_widget.widget.line_panel import LinePanel, line_from
from klondike_widget.widget.review_run import Reviewer

if TYPE_CHECKING:
    from klondike_widget.review import Review
    from klondike_widget.solver import Limit
    from klondike_widget.widget.table import Table

__all__ = ["Desk"]


class Desk:
    """The open line of ``table`` (``panel``, None when the game is shown) and its stepping."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.panel: LinePanel | None = None
        self.count = 0  # numbers the lines opened (intents name the line they are about)
        self.autoplay_gen = 0
        self.reviewer = Reviewer(table)  # the Review button's background reviews

    def require_panel(self) -> LinePanel:
        """The open panel; ``ValueError`` when none is open."""
        if self.panel is None:
            raise ValueError("no line is open (use show_line)")
        return self.panel

    def show_line(self, line: object, index: int = 0) -> Line:
        """Open the panel on ``line`` (see :meth:`KlondikeWidget.show_line`)."""
        with self.table.lock:
            opened = line_from(line, self.table.game.state)
            self.open(LinePanel(opened, self.count + 1), index)
            return opened

    def review(self, limit: Limit | None) -> Review:
        """Review the game and open it in the panel (see :meth:`KlondikeWidget.review`)."""
        from klondike_widget.review import review

        table = self.table
        game = table.game
        result = review(game, limit, known=table.verdicts)
        with table.lock:
            if table.game is game and game.history:  # else it changed meanwhile, or is empty
                self.reviewer.open(game, result)
        return result

    def open(self, panel: LinePanel, index: int) -> None:
        """Show ``panel`` at step ``index`` (``IndexError`` before anything changes)."""
        table = self.table
        with table.lock:
            panel.index = index  # IndexError before anything changes
            table.finisher.stop()
            self.stop_autoplay()
            self.count += 1
            self.panel = panel
            table.seq += 1
            table.host.line_view = panel.published(table.host.locale)
            table.host.line_index = panel.index
            table.publish()

    def step(self, index: int) -> GameState:
        """Show step ``index`` (negative: from the end); autoplay pauses."""
        with self.table.lock:
            panel = self.require_panel()
            if isinstance(index, bool) or not isinstance(index, int):
                raise TypeError(f"a step is a whole number, not {type(index).__name__}")
            if index < 0:
                index += panel.total + 1
            if not 0 <= index <= panel.total:
                raise IndexError(f"step {index} is not on this line (0..{panel.total})")
            self.stop_autoplay()
            self.show_step(index)
            return panel.state

    def autoplay(self, on: bool = True) -> None:
        """Start (or pause) stepping forward by itself, one step per ``step_pace`` ms."""
        table = self.table
        with table.lock:
            panel = self.require_panel()
            if not on:
                if panel.autoplay:
                    self.stop_autoplay()
                    table.publish()
                return
            if panel.index == panel.total:
                self.show_step(0, publish=False)
            panel.autoplay = True
            self.autoplay_gen += 1
            table.publish()
            self.schedule_autoplay(self.autoplay_gen)

    def back_to_game(self) -> None:
        """Close the panel; the game is as it was. Nothing happens if none is open."""
        table = self.table
        with table.lock:
            if self.panel is not None:
                self.close()
                table.seq += 1
                table.publish()

    def play_from_here(self) -> int:
        """Play the line's moves up to the step shown into the game (see the widget's method)."""
        table = self.table
        with table.lock:
            panel = self.require_panel()
            if panel.review:
                return self.try_from_here(panel)
            if panel.line.start != table.game.state:
                raise ValueError(
                    "this line does not start at the position on the table; "
                    "only back_to_game() leaves it"
                )
            k = panel.index
            table.finisher.stop()
            if k == 0:
                self.back_to_game()
                return 0
            moves = panel.line.moves[:k]
            before = panel.line[k - 1]
            table.tracker.helped()
            table.game.play_line(moves)
            words = [i18n.announce_move(before, moves[-1], table.host.locale)]
            if table.game.is_won:
                words.append(table.text("announce.win"))
            table.after_change(" ".join(words))
            return k

    def try_from_here(self, panel: LinePanel) -> int:
        """A reviewed game's "Try from here": a new game, the moves up to the step played."""
        k = panel.index
        self.table.replace_game(self.reviewer.try_game(k))
        return k

    def show_step(self, index: int, *, publish: bool = True) -> None:
        """Show step ``index`` of the open line: the board, the step, the words' window."""
        table = self.table
        panel = self.require_panel()
        first = panel.first
        panel.index = index
        table.seq += 1
        if panel.first != first:
            table.host.line_view = panel.published(table.host.locale)
        table.host.line_index = index
        if publish:
            table.publish()

    def index_changed(self, index: int) -> None:
        """The host's ``line_index`` was set (from the front end or Python): show that step."""
        with self.table.lock:
            if self.panel is not None and self.panel.index != index:
                self.stop_autoplay()
                self.show_step(index)

    def republish(self) -> None:
        """The language changed: the line's words again."""
        if self.panel is not None:
            self.table.host.line_view = self.panel.published(self.table.host.locale)

    def game_changed(self) -> None:
        """The game changed: the panel closes, a review running of the old game stops."""
        self.close()
        self.reviewer.game_changed()

    def close(self) -> None:
        """Close the panel (nothing is published)."""
        if self.panel is not None:
            self.stop_autoplay()
            self.panel = None
            self.table.host.line_view = {}
            self.table.host.line_index = 0

    def stop_autoplay(self) -> None:
        """Pause autoplay (its scheduled ticks lapse)."""
        self.autoplay_gen += 1
        if self.panel is not None:
            self.panel.autoplay = False

    def schedule_autoplay(self, gen: int) -> None:
        """Show the next step of autoplay run ``gen`` after ``step_pace`` ms."""
        table = self.table
        delay = max(50, int(table.host.step_pace)) / 1000.0

        def tick() -> None:
            panel = self.panel
            if gen != self.autoplay_gen or panel is None or not panel.autoplay:
                return
            if panel.index < panel.total:
                self.show_step(panel.index + 1, publish=False)
            if panel.index >= panel.total:
                panel.autoplay = False
            table.publish()
            if panel.autoplay:
                self.schedule_autoplay(gen)

        table.scheduler.later(delay, tick)
