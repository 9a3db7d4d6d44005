"""The table: the game in play and everything around it, in plain Python (no traitlets).

:class:`Table` is the widget's controller. It holds the game, the solver's verdicts (asked for in
the background after every move), Finish (:class:`~klondike_widget.widget.finish.Finisher`), the
game's clock, the statistics tracker and the analysis panel
(:class:`~klondike_widget.widget.desk.Desk`), and publishes what the front end draws to a
:class:`~klondike_widget.widget.host.Host`: the :class:`~klondike_widget.widget.KlondikeWidget`'s
traits, or a :class:`~klondike_widget.widget.host.PlainHost` in scripts and tests, so all of this
runs without a kernel. Intents from the front end arrive through :meth:`Table.on_intent`, checked by
:func:`~klondike_widget.widget.protocol.parse_intent` and run by the handler table
:data:`klondike_widget.widget.intents.HANDLERS`.

Every public method takes the table's lock: the solver's thread and the timers change the table
only through :class:`~klondike_widget.widget.scheduling.Scheduler`, under the same lock.

Fast clicks
-----------
The front end sends every click at once, stamped with the ``seq`` of the view it was made on;
it never waits for an answer. A ``move`` made on an older view is applied when it still means
the same move on the table (the same cards from the same pile onto the same card; a stock tap is
a stock tap), see :func:`klondike_widget.widget.rebase.same_move`; otherwise it is refused as
``stale``. So every click on a legal target counts, in order, whatever the latency.

The solver runs in a background thread after every move; its verdict is handed back to the
kernel's IOLoop (or, outside a kernel, applied under the table's lock).

Examples
--------
>>> from klondike_widget.widget.host import PlainHost
>>> host = PlainHost()
>>> table = Table(host, deal=2, analyse=False, stats=False); table.open()
>>> table.play("t3-t2")
Move.parse('t3-t2')
>>> host.view["moves"], host.view["announce"]["text"]
(1, 'Eight of diamonds from column 3 to column 2. Turned face up in column 3: six of diamonds.')
>>> table.on_intent({"kind": "undo", "seq": 0}); table.game.moves_count, host.view["moves"]
(2, 2)
>>> table.on_intent({"kind": "fly", "seq": 0}); host.sent[-1]["key"]
'reject.unknown_intent'
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from klondike_widget import i18n
from klondike_widget.engine.game import Game
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.play import assist
from klondike_widget.play.scoring import score
from klondike_widget.play.stats import Statistics
from klondike_widget.play.tracker import Tracker
from klondike_widget.widget import solver_process
from klondike_widget.widget.analysis import Analyst, SolveFn, Verdict, Verdicts, default_solve
from klondike_widget.widget.clock import GameClock
from klondike_widget.widget.desk import Desk
from klondike_widget.widget.finish import Finisher
from klondike_widget.widget.host import Host, PlainHost
from klondike_widget.widget.intents import run_intent
from klondike_widget.widget.lesson_coach import LessonCoach, lesson_part
from klondike_widget.widget.protocol import Announce, Hint, Notice, StatsView
from klondike_widget.widget.rebase import SeenStates
from klondike_widget.widget.scheduling import Scheduler
from klondike_widget.widget.texts import stats_warnings, view_texts
from klondike_widget.widget.view import board_view, move_target

__all__ = ["Table"]

_log = logging.getLogger("klondike_widget.widget")


class Table:
    """The game at the table, its verdicts, Finish, clock, line panel and statistics.

    Parameters
    ----------
    host : Host
        Where settings are read and what the front end shows is written.
    game, deal, draw, analyse, solve_seconds, solve, stats, coach
        As for :class:`~klondike_widget.widget.KlondikeWidget`.
    loop : IOLoop or None
        The kernel's IOLoop (background results and timers are run on it), None outside a kernel.

    Call :meth:`open` once the host is ready: it publishes the first view.
    """

    def __init__(
        self,
        host: Host,
        game: Game | None = None,
        *,
        deal: int | None = None,
        draw: int = 1,
        analyse: bool = True,
        solve_seconds: float = 10.0,
        solve: SolveFn | None = None,
        stats: Statistics | bool | None = None,
        coach: LessonCoach | None = None,
        loop: Any = None,
    ) -> None:
        if game is not None and not isinstance(game, Game):
            raise TypeError(f"game must be a Game, not {type(game).__name__}")
        if game is not None and deal is not None:
            raise ValueError("give either game or deal, not both")
        if stats is not None and not isinstance(stats, (Statistics, bool)):
            raise TypeError(f"stats must be a Statistics, True/False or None, not {stats!r}")
        self.host = host
        self.lock = threading.RLock()
        self.scheduler = Scheduler(self.lock, loop)
        store = (
            stats if isinstance(stats, Statistics) else (None if stats is False else Statistics())
        )
        self.tracker = Tracker(store)
        self.game = game if game is not None else Game.new(deal=deal, draw=draw)
        self.seq = 0
        self.seen = SeenStates()  # positions the views showed, for clicks made on older views
        self.hint_wanted = False  # Hint pressed while solving: show it when the line arrives
        self.analysis: str | None = None
        self.hint: Hint | None = None
        self.finisher = Finisher(self)
        self.desk = Desk(self)
        self.last_line: Line | None = None  # the line Finish played last
        self.announce: Announce | None = None
        self.count = 0  # numbers announcements and notices
        self.clock = GameClock()
        self.verdicts = Verdicts()
        self.analyse = analyse
        self.solve: SolveFn = solve or default_solve
        if solve is None:  # start the solver process now: it loads the solver meanwhile
            solver_process.shared()
        self.analyst = Analyst(self.scheduler.deliver, solve_seconds, self.solve)
        self.coach = coach  # a lesson board's judge (widget.lesson_coach), None otherwise
        #: The last rejection or notice: ``(strings key, detail)``; for tests and logs.
        self.last_notice: tuple[str, str] | None = None
        if isinstance(host, PlainHost):  # the widget's trait observers call setting_changed
            host.observer = self.setting_changed

    def open(self) -> None:
        """Load the texts and publish the first view (the host's settings are in place)."""
        self.load_locale()
        self.after_change(None)
        self.publish_stats()

    @property
    def finishing(self) -> bool:
        """True while Finish is playing the winning line."""
        return self.finisher.running

    # -- the game ----------------------------------------------------------------------------

    def replace_game(self, game: Game, announce_key: str | None = None) -> Game:
        """Put ``game`` on the table (the old one is recorded); say ``announce_key`` if given."""
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, not {type(game).__name__}")
        with self.lock:
            self.finisher.stop()
            self.leave_game()
            self.game = game
            self.last_line = None
            self.clock.reset()
            words = None
            if announce_key is not None:
                words = self.text(announce_key, number=self.deal_text())
            self.after_change(words)
            return game

    def play(self, move: Move | str) -> Move:
        """Play a move of the player's (a running Finish stops first)."""
        with self.lock:
            self.finisher.stop()
            return self.play_by_player(move)

    def undo(self) -> Move:
        """Take back the last move."""
        with self.lock:
            self.finisher.stop()
            move = self.game.undo()
            self.after_change(self.text("announce.undo", move=self.describe(move)))
            return move

    def redo(self) -> Move:
        """Replay the last undone move."""
        with self.lock:
            self.finisher.stop()
            before = self.game.state
            move = self.game.redo()
            self.after_change(
                self.text("announce.redo", move=i18n.describe_move(before, move, self.host.locale))
            )
            return move

    def new_deal(
        self, deal: int | None = None, draw: int | None = None, level: str | None = None
    ) -> Game:
        """Deal a new game (see :meth:`KlondikeWidget.new_deal`)."""
        if draw is not None:
            self.host.draw = draw  # validated by the host
        if level is not None:
            self.host.deal_level = level  # validated by the host
        with self.lock:
            if deal is None:
                game = Game.new(draw=self.host.draw, level=self.host.deal_level)
            else:
                game = Game.new(deal=deal, draw=self.host.draw)
            return self.replace_game(game, "announce.new_deal")

    def restart(self) -> Game:
        """The same deal again from the beginning."""
        with self.lock:
            return self.replace_game(self.game.restart(), "announce.restart")

    def show_hint(self) -> Move | None:
        """Highlight the solver's next move from here; None if none is known."""
        with self.lock:
            line = self.verdicts.line(self.game.state)
            if not line:
                return None
            self.set_hint(line[0])
            return line[0]

    def wait(self, timeout: float = 30.0) -> str | None:
        """Wait until the verdict on the position is in (outside a kernel only); return it."""
        if self.scheduler.loop is not None:
            raise RuntimeError("wait() cannot be used inside a kernel; read .analysis later")
        deadline = time.monotonic() + timeout
        while self.analysis == "solving" and time.monotonic() < deadline:
            time.sleep(0.01)
        with self.lock:  # the verdict's publication is complete
            return self.analysis

    # -- statistics ---------------------------------------------------------------------------

    def statistics(self) -> list[dict[str, Any]]:
        """The statistics per draw mode, one dict per row (the file is read again)."""
        with self.lock:
            self.publish_stats(refresh=True)
            return [dict(row) for row in self.host.stats_view["rows"]]

    def reset_stats(self, draw: int | None = None) -> int:
        """Forget the recorded games (of draw mode ``draw``, or all); return how many."""
        if draw is not None and (isinstance(draw, bool) or draw not in (1, 3)):
            raise ValueError(f"draw must be 1, 3 or None, not {draw!r}")
        with self.lock:
            removed = self.tracker.reset(draw)
            self.publish_stats()
            self.publish()
            return removed

    def publish_stats(self, refresh: bool = False) -> None:
        """Write ``stats_view`` (``refresh``: read the file), its ``warnings`` in words."""
        s = self.tracker.summary(refresh=refresh)
        words = stats_warnings(s, self.host.locale)
        view = StatsView(
            rows=s["rows"], skipped=s["skipped"], error=s["error"], off=s["off"], warnings=words
        )
        self.host.stats_view = dict(view)

    def leave_game(self) -> None:
        """The game on the table is about to be replaced: record it (lost unless won)."""
        if self.tracker.replacing(self.game, self.clock.seconds()):
            self.publish_stats()

    # -- intents -----------------------------------------------------------------------------

    def on_intent(self, content: object, buffers: object = None) -> None:
        """Check and run one intent from the front end (:func:`intents.run_intent`)."""
        run_intent(self, content, buffers)

    # -- words -------------------------------------------------------------------------------

    def load_locale(self) -> None:
        """Publish the active language's texts."""
        self.host.strings = i18n.strings_for(self.host.locale)

    def locale_changed(self) -> None:
        """The language changed: the texts, the hint's and the line's words, the view."""
        with self.lock:
            self.load_locale()
            if self.hint is not None:  # the hint's words are in the old language
                line = self.verdicts.line(self.game.state)
                if line:
                    self.set_hint(line[0], publish=False)
            self.desk.republish()
            self.publish_stats()
            self.publish()

    def setting_changed(self, name: str, value: Any = None) -> None:
        """The host's ``name`` changed to ``value``: the texts, the view or the step shown."""
        if name == "locale":
            self.locale_changed()
        elif name == "line_index":
            self.desk.index_changed(value)
        else:  # a play option (scoring, one-click, ...): the view shows it
            with self.lock:
                if self.host.view:  # not before the first view
                    self.publish()

    def text(self, key: str, **args: Any) -> str:
        """The text ``key`` in the active language."""
        return i18n.text(key, self.host.locale, **args)

    def deal_text(self) -> str:
        """The deal number as text (``?`` for a game that is not a numbered deal)."""
        number = self.game.deal_number
        return "?" if number is None else str(number)

    def describe(self, move: Move) -> str:
        """``move`` in words, as played from the position on the table."""
        return i18n.describe_move(self.game.state, move, self.host.locale)

    def notice(self, key: str, why: str = "", *, cid: str | None = None, **args: Any) -> None:
        """Tell the front end ``key`` (a strings key); ``why`` is for logs and tests only."""
        self.last_notice = (key, why)
        self.count += 1
        text = self.text(key, **args)  # finished here: the front end fills no template
        message = Notice(kind="notice", n=self.count, key=key, args=args, text=text, cid=cid)
        self.host.send(dict(message))

    # -- moves and publication ------------------------------------------------------------------

    def play_by_player(self, move: Move | str) -> Move:
        """A move of the player's; then safe cards go up when ``auto_safe`` is on."""
        played = self.play_move(move)
        if not self.host.auto_safe:
            return played
        words = []
        while not self.game.is_won:
            safe = assist.safe_foundation_move(self.game.state)
            if safe is None:
                break
            before = self.game.state
            self.game.play(safe)
            words.append(i18n.announce_move(before, safe, self.host.locale))
        if words:
            if self.game.is_won:
                words.append(self.text("announce.win"))
            self.after_change(" ".join(words))
        return played

    def play_move(self, move: Move | str) -> Move:
        """Play ``move`` and announce it (and the win)."""
        before = self.game.state
        played = self.game.play(move)
        words = [i18n.announce_move(before, played, self.host.locale)]
        if self.game.is_won:
            words.append(self.text("announce.win"))
        self.after_change(" ".join(words))
        return played

    def after_change(self, announce: str | None) -> None:
        """The game changed: the line closes; new seq, clock, announcement, analysis, publish."""
        self.desk.game_changed()
        self.seq += 1
        self.hint = None
        self.hint_wanted = False
        self.clock.tick(self.game)
        if announce:
            self.count += 1
            self.announce = {"n": self.count, "text": announce}
        start = self.start_analysis()
        self.publish()  # the board first: the search must not delay the update
        if self.tracker.changed(self.game, self.clock.seconds()):  # then the statistics file
            self.publish_stats()
        if start is not None:
            start()

    def publish(self) -> None:
        """Write the ``view`` the front end draws."""
        panel = self.desk.panel
        playable = panel is not None and (panel.review or panel.line.start == self.game.state)
        view = board_view(
            self.game,
            seq=self.seq,
            analysis=self.analysis,
            finish_block=self.finish_block(),
            hint=self.hint,
            finishing=self.finishing,
            clock=self.clock.view(),
            announce=self.announce,
            shown=None if panel is None else panel.state,
            line=None if panel is None else panel.view_part(playable, self.host.locale),
            lines=self.analysis == "winnable" or self.last_line is not None,
        )
        # A deal number can exceed JavaScript's exact integers: publish it as text.
        view["deal"] = None if view["deal"] is None else str(view["deal"])
        self.seen.remember(self.seq, self.game.state)
        # Scoring and one-click targets (klondike_widget.play): looked up, never decided, in JS.
        state = self.game.state
        view["score"] = self.score_view()
        quick = view["legal"] and self.host.one_click
        view["quick"] = assist.one_click_moves(state) if quick else {}
        view["auto_complete"] = bool(view["legal"]) and assist.auto_complete_line(state) is not None
        view["lesson"] = lesson_part(self.coach, self.game, self.host.locale)
        self.desk.reviewer.fill_view(view)
        view["texts"] = view_texts(view, self.host.locale)
        self.host.view = dict(view)

    def score_view(self) -> dict[str, Any] | None:
        """``view["score"]``: the score in the chosen scoring, or None."""
        mode = self.host.scoring
        if mode == "none":
            return None
        now = score(self.game, self.clock.seconds())
        if mode == "standard":
            return {"mode": mode, "value": now.standard, "total": None}
        total = None
        if self.host.vegas_cumulative:
            total = self.tracker.vegas_total(self.game.rules.draw)
            total += 0 if self.tracker.is_recorded(self.game) else now.vegas  # once only
        return {"mode": mode, "value": now.vegas, "total": total}

    def finish_block(self) -> str | None:
        """None when Finish is possible, else the strings key saying why not."""
        if self.finishing or self.game.is_won:
            return None
        status = self.analysis
        if status == "winnable":
            return None
        if status == "unwinnable":
            return "finish.unavailable.no_win"
        if status == "unknown":
            return "finish.unavailable.unknown"
        return "finish.unavailable.not_solved"

    def set_hint(self, move: Move, publish: bool = True) -> None:
        """Highlight ``move`` as the hint."""
        src, count, dst = move_target(move, self.game.state)
        self.hint = {"src": src, "n": count, "dst": dst, "text": self.describe(move)}
        if publish:
            self.publish()

    # -- analysis ----------------------------------------------------------------------------

    def verdict_status(self, state: GameState) -> str:
        """The verdict's word on ``state``: ``solving`` until one is known."""
        verdict = self.verdicts.get(state)
        return "solving" if verdict is None else verdict.status

    def start_analysis(self) -> Callable[[], None] | None:
        """Set the verdict of the new position; return what starts its search, if one is due.

        The search in progress is cancelled at once (it is about an older position).
        """
        state = self.game.state
        self.analyst.cancel()
        if state.is_won or not self.analyse:
            known = self.verdicts.get(state)
            self.analysis = None if state.is_won or known is None else known.status
            return None
        verdict = self.verdicts.get(state)
        if verdict is not None:
            self.analysis = verdict.status
            return None
        self.analysis = "solving"

        def done(token: int, status: str, line: Any, error: BaseException | None) -> None:
            self.record(state, status, line)
            if error is not None:
                self.notice("error.solver", repr(error))
            if self.game.state == state:
                self.analysis = self.verdict_status(state)
                line = self.verdicts.line(state) if self.hint_wanted else ()
                self.hint_wanted = False
                if line:
                    self.set_hint(line[0], publish=False)
                self.publish()

        seq = self.seq
        return lambda: self.analyst.request(seq, state, done)

    def record(self, state: GameState, status: str, line: Any) -> None:
        """Remember the solver's answer on ``state`` (a line that does not replay is ignored)."""
        if status == "winnable":
            self.verdicts.add_line(state, line)
            if self.verdicts.get(state) is None:  # the line did not replay: do not trust it
                self.verdicts.put(state, Verdict("unknown"))
        elif status in ("unwinnable", "unknown"):
            self.verdicts.put(state, Verdict(status))
        else:
            self.verdicts.put(state, Verdict("unknown"))

    def close(self) -> None:
        """Stop the solver thread, a running review and Finish."""
        self.analyst.close()
        self.desk.reviewer.run.cancel()
        with self.lock:
            self.finisher.stop()
