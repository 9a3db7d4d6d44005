"""KlondikeWidget: play Klondike inline in a notebook (anywidget).

Python owns the game. The front end (``js/widget.js``) draws what Python publishes in traits and
sends back intents (``model.send({kind, seq, ...})``), which one dispatch table
(:data:`klondike_widget.widget.protocol.INTENTS`) routes to the handlers below. Everything that must
survive a reload or show the same in two views lives in traits written by Python:

``view``
    The board, the legal moves grouped by source pile, counters, the solver's status
    (see :func:`klondike_widget.widget.view.board_view`).
``strings``
    The active language's texts (from :mod:`klondike_widget.i18n`).
``deck``
    The face of every card: rank, suit symbol, red (the spoken names are in ``strings``).
``locale``, ``draw``, ``mirror``, ``pace``, ``step_pace``, ``back``, ``show_analysis``
    Settings: the language, draw 1/3 (a change applies at once before the first move of a
    numbered deal, else from the next deal, and says so), mirroring of the board in
    right-to-left languages, the pace of Finish in milliseconds per move, the pace of autoplay
    in the analysis panel, the design of the card backs, whether the status line says if the
    game can still be won.
``scoring``, ``vegas_cumulative``, ``one_click``, ``auto_safe``, ``stats_view``
    Scoring and statistics (:mod:`klondike_widget.play`): the score shown (``"standard"``,
    ``"vegas"`` or ``"none"``), whether Vegas adds up the recorded games, one-click moves (on by
    default), automatic play of safe foundation cards (off by default), and the statistics
    panel's rows (per draw mode, from the ``stats`` file).
``line_view``, ``line_index``
    The analysis panel (a solver line being stepped through, see :meth:`KlondikeWidget.show_line`):
    the line's moves in notation with localized descriptions of the moves around the step shown,
    and the step shown. While a line is open, ``view`` draws the position at that step.

Fast clicks
-----------
The front end sends every click at once, stamped with the ``seq`` of the view it was made on;
it never waits for an answer. A ``move`` made on an older view is applied when it still means
the same move on the table (the same cards from the same pile onto the same card; a stock tap is
a stock tap), see :func:`klondike_widget.widget.protocol.same_move`; otherwise it is refused as
``stale``. So every click on a legal target counts, in order, whatever the latency.

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

The solver runs in a background thread after every move; its verdict is handed back to the
kernel's IOLoop (or, outside a kernel, applied under the widget's lock).

Examples
--------
>>> from klondike_widget import KlondikeWidget
>>> w = KlondikeWidget(deal=2, analyse=False)
>>> w.play("t3-t2")
Move.parse('t3-t2')
>>> w.game.moves_count, w.view["moves"], w.view["cols"][2][0]
(1, 1, 1)
>>> w.undo(); w.game.moves_count
Move.parse('t3-t2')
2
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from klondike_widget import i18n
from klondike_widget.engine.errors import IllegalMoveError, InvalidMoveError, is_whole
from klondike_widget.engine.game import Game
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.engine.ratings import LEVELS
from klondike_widget.engine.state import GameState
from klondike_widget.play import assist
from klondike_widget.play.scoring import SCORINGS, score
from klondike_widget.play.stats import Statistics
from klondike_widget.play.tracker import Tracker
from klondike_widget.widget import solver_process
from klondike_widget.widget.analysis import Analyst, SolveFn, Verdict, Verdicts, default_solve
from klondike_widget.widget.line_panel import LinePanel, line_from
from klondike_widget.widget.pace import move_delays
from klondike_widget.widget.protocol import (
    Announce,
    Hint,
    Notice,
    Rejected,
    SeenStates,
    parse_intent,
    same_move,
)
from klondike_widget.widget.view import board_view, deck_table, move_target

if TYPE_CHECKING:
    from klondike_widget.review import Review
    from klondike_widget.solver import Limit

__all__ = ["KlondikeWidget", "asset_path"]

_log = logging.getLogger(__name__)


#: Traits that only Python writes (see :meth:`KlondikeWidget.set_state`).
_PYTHON_OWNED = frozenset({"view", "deck", "strings", "stats_view"})


def asset_path(name: str) -> Path:
    """Where a front-end file is: next to the package (a wheel), else the repository's ``js/``.

    >>> asset_path("widget.js").name
    'widget.js'
    """
    here = Path(__file__).resolve().parent.parent
    for folder in (here / "js", here.parent / "js"):
        if (folder / name).is_file():
            return folder / name
    raise FileNotFoundError(f"front-end file {name!r} not found next to {here}")


def _kernel_loop() -> Any:
    """The running kernel's IOLoop (thread-safe ``add_callback``), or None outside a kernel."""
    try:
        from IPython.core.getipython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    kernel = getattr(shell, "kernel", None)
    return getattr(kernel, "io_loop", None)


class KlondikeWidget(anywidget.AnyWidget):
    """A game of Klondike to play in the notebook; also driven from Python.

    Parameters
    ----------
    game : Game, optional
        The game to show; a new deal when omitted.
    deal : int, optional
        The deal number of the new game (random when omitted and ``game`` is None).
    draw : {1, 3}
        Cards turned per stock tap (for ``deal``; for later deals, the ``draw`` setting).
    locale : str
        The language: ``"en"``, ``"pl"``, ``"tr"`` or ``"ar"``.
    mirror : {"auto", "on", "off"}
        Whether the board mirrors in right-to-left languages (``auto``: it does).
    pace : int
        Milliseconds before an ordinary move when Finish plays the winning line; the pace
        adapts (longer after a card turns up, quick through runs of taps) and a whole Finish
        plays within ``widget.pace.FINISH_SECONDS`` (10 s).
    analyse : bool
        Run the solver in the background after every move (status line, hint, Finish).
    solve_seconds : float
        The solver's time budget per position.
    solve : callable, optional
        A replacement search ``solve(state, seconds, cancel) -> (status, line)``.
    stats : Statistics, bool or None
        Where games are recorded: None (the default) for the user's statistics file
        (:func:`klondike_widget.play.stats.data_dir`), a :class:`Statistics`, or False for none.

    Examples
    --------
    >>> w = KlondikeWidget(deal=2, analyse=False)
    >>> w.play("s")
    Move.parse('s')
    >>> w.game.moves_count, w.view["stock"], w.view["moves"]
    (1, 23, 1)
    >>> w.play("t1-t2")
    Traceback (most recent call last):
    ...
    klondike_widget.engine.errors.IllegalMoveError: ...
    >>> w.game.moves_count
    1
    """

    _esm = asset_path("widget.js")
    _css = asset_path("widget.css")

    view = traitlets.Dict().tag(sync=True)
    strings = traitlets.Dict().tag(sync=True)
    deck: traitlets.List[list[Any]] = traitlets.List().tag(sync=True)
    locale = traitlets.Unicode("en").tag(sync=True)
    draw = traitlets.Enum((1, 3), default_value=1).tag(sync=True)
    #: How New deal chooses a random deal: any, winnable, easy, medium or hard.
    deal_level = traitlets.Enum(LEVELS, default_value="any").tag(sync=True)
    mirror = traitlets.Enum(("auto", "on", "off"), default_value="auto").tag(sync=True)
    pace = traitlets.Int(300, min=0, max=5000).tag(sync=True)
    step_pace = traitlets.Int(700, min=50, max=5000).tag(sync=True)
    line_view = traitlets.Dict().tag(sync=True)
    line_index = traitlets.Int(0).tag(sync=True)
    #: The design on the backs of the cards (front-end look only).
    back = traitlets.Enum(("lattice", "waves", "stars"), default_value="lattice").tag(sync=True)
    #: Whether the status line says if the game can still be won (off for players who want
    #: to find out themselves; Hint and Finish still work).
    show_analysis = traitlets.Bool(True).tag(sync=True)
    scoring = traitlets.Enum(SCORINGS, default_value="standard").tag(sync=True)
    vegas_cumulative = traitlets.Bool(False).tag(sync=True)
    one_click = traitlets.Bool(True).tag(sync=True)
    auto_safe = traitlets.Bool(False).tag(sync=True)
    stats_view = traitlets.Dict().tag(sync=True)

    def __init__(
        self,
        game: Game | None = None,
        *,
        deal: int | None = None,
        draw: int = 1,
        locale: str = "en",
        mirror: str = "auto",
        pace: int = 300,
        analyse: bool = True,
        solve_seconds: float = 10.0,
        solve: SolveFn | None = None,
        stats: Statistics | bool | None = None,
        **kwargs: Any,
    ) -> None:
        if game is not None and not isinstance(game, Game):
            raise TypeError(f"game must be a Game, not {type(game).__name__}")
        if game is not None and deal is not None:
            raise ValueError("give either game or deal, not both")
        if stats is not None and not isinstance(stats, (Statistics, bool)):
            raise TypeError(f"stats must be a Statistics, True/False or None, not {stats!r}")
        self._lock = threading.RLock()
        store = (
            stats if isinstance(stats, Statistics) else (None if stats is False else Statistics())
        )
        self._tracker = Tracker(store)
        self._game = game if game is not None else Game.new(deal=deal, draw=draw)
        self._seq = 0
        self._seen = SeenStates()  # positions the views showed, for clicks made on older views
        self._hint_wanted = False  # Hint pressed while solving: show it when the line arrives
        self._analysis: str | None = None
        self._hint: Hint | None = None
        self._finish_line: list[Move] = []
        self._finish_waits: list[float] = []
        self._finishing = False
        self._finish_gen = 0
        self._panel: LinePanel | None = None
        self._line_count = 0  # numbers the lines opened (intents name the line they are about)
        self._auto_gen = 0
        self._last_line: Line | None = None  # the line Finish played last
        self._announce: Announce | None = None
        self._count = 0  # numbers announcements and notices
        self._clock_ms = 0.0
        self._clock_since: float | None = None
        self._verdicts = Verdicts()
        self._analyse = analyse
        self._loop = _kernel_loop()
        self._solve: SolveFn = solve or default_solve
        if solve is None:  # start the solver process now: it loads the solver meanwhile
            solver_process.shared()
        self._analyst = Analyst(self._deliver, solve_seconds, self._solve)
        #: The last rejection or notice: ``(strings key, detail)``; for tests and logs.
        self.last_notice: tuple[str, str] | None = None
        codes = i18n.available_locales()
        if locale not in codes:
            raise ValueError(f"unknown locale {locale!r}; available: {', '.join(codes)}")
        super().__init__(
            locale=locale,
            draw=self._game.rules.draw,
            mirror=mirror,
            pace=pace,
            deck=deck_table(),
            **kwargs,
        )
        self._load_locale()
        self.on_msg(self._on_msg)
        self._after_change(None)
        self.stats_view = self._tracker.summary()

    # -- public API --------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game on the table (read it freely; change it through the methods below)."""
        return self._game

    @game.setter
    def game(self, game: Game) -> None:
        if not isinstance(game, Game):
            raise TypeError(f"game must be a Game, not {type(game).__name__}")
        with self._lock:
            self._stop_finish()
            self._leave_game()
            self._game = game
            self._last_line = None
            self._reset_clock()
            self._after_change(None)

    @property
    def analysis(self) -> str | None:
        """The solver's verdict on the position on the table.

        ``"solving"``, ``"winnable"``, ``"unwinnable"``, ``"unknown"``, or None when the game
        is won or analysis is off.
        """
        return self._analysis

    @property
    def finishing(self) -> bool:
        """True while Finish is playing the winning line."""
        return self._finishing

    def play(self, move: Move | str) -> Move:
        """Play a move (a :class:`Move` or its text, e.g. ``"t3-t6"``) and show it.

        Raises ``InvalidMoveError`` or ``IllegalMoveError`` (the game is unchanged then).
        A running Finish stops first.
        """
        with self._lock:
            self._stop_finish()
            return self._play_by_player(move)

    def undo(self) -> Move:
        """Take back the last move (raises ``IllegalMoveError`` if there is none)."""
        with self._lock:
            self._stop_finish()
            move = self._game.undo()
            self._after_change(self._text("announce.undo", move=self._describe(move)))
            return move

    def redo(self) -> Move:
        """Replay the last undone move (raises ``IllegalMoveError`` if there is none)."""
        with self._lock:
            self._stop_finish()
            before = self._game.state
            move = self._game.redo()
            self._after_change(
                self._text("announce.redo", move=i18n.describe_move(before, move, self.locale))
            )
            return move

    def new_deal(
        self, deal: int | None = None, draw: int | None = None, level: str | None = None
    ) -> Game:
        """Deal a new game: deal number ``deal`` (random if None), ``draw`` 1 or 3.

        ``draw`` defaults to the ``draw`` setting, which it also updates; ``level`` (any,
        winnable, easy, medium, hard: how the random deal is chosen, from the shipped table of
        rated deals, see :mod:`klondike_widget.engine.ratings`) likewise defaults to and updates
        the ``deal_level`` setting. A deal number given is dealt whatever its level.

        >>> from klondike_widget.engine.ratings import rating
        >>> w = KlondikeWidget(deal=2, analyse=False)
        >>> rating(w.new_deal(draw=3, level="easy").deal_number, draw=3), w.deal_level
        ('easy', 'easy')
        """
        if draw is not None:
            self.draw = draw  # validated by the trait
        if level is not None:
            self.deal_level = level  # validated by the trait
        with self._lock:
            self._stop_finish()
            self._leave_game()
            if deal is None:
                self._game = Game.new(draw=self.draw, level=self.deal_level)
            else:
                self._game = Game.new(deal=deal, draw=self.draw)
            self._last_line = None
            self._reset_clock()
            self._after_change(self._text("announce.new_deal", number=self._deal_text()))
            return self._game

    def restart(self) -> Game:
        """Start the same deal again from the beginning (a fresh Moves counter)."""
        with self._lock:
            self._stop_finish()
            self._leave_game()
            self._game = self._game.restart()
            self._last_line = None
            self._reset_clock()
            self._after_change(self._text("announce.restart", number=self._deal_text()))
            return self._game

    def hint(self) -> Move | None:
        """The solver's next move from here, highlighted on the board; None if none is known."""
        with self._lock:
            line = self._verdicts.line(self._game.state)
            if not line:
                return None
            self._show_hint(line[0])
            return line[0]

    def finish(self, *, animate: bool = True) -> int:
        """Play the solver's winning line to the end; return how many moves it has.

        Solves the position first (in this thread) if its verdict is not known yet. With
        ``animate`` the moves are played one by one at the ``pace`` setting after this call
        returns (stop with :meth:`stop`); without, they are all played now. Every move counts
        on the Moves counter. Raises ``IllegalMoveError`` if no win is known from here.
        """
        with self._lock:
            if self._game.is_won:
                raise IllegalMoveError("the game is already won")
            self._close_line()
            state = self._game.state
            if self._verdicts.get(state) is None:
                self._analyst.cancel()
                try:
                    status, line = self._solve(state, self._analyst.seconds, threading.Event())
                except Exception:
                    _log.exception("klondike-widget: solver failed")
                    status, line = "error", ()
                self._record(state, status, line)
                self._analysis = self._verdict_status(state)
            line = self._verdicts.line(state)
            if not line:
                raise IllegalMoveError(f"no winning line is known from here ({self._analysis})")
            self._tracker.helped()
            if not animate:
                self._stop_finish()
                self._last_line = Line(state, line)
                for move in line:
                    self._play(move)
                return len(line)
            self._start_finish(line)
            return len(line)

    def stop(self) -> None:
        """Stop a running Finish (the game stays where it is)."""
        with self._lock:
            if self._finishing:
                self._stop_finish()
                self._notice("status.stopped")
                self._publish()

    def wait(self, timeout: float = 30.0) -> str | None:
        """Wait until the solver's verdict on the current position is in; return it.

        For scripts and tests outside a kernel: inside a kernel the verdict arrives through the
        IOLoop, which a waiting cell would block, so there this raises ``RuntimeError``.
        """
        if self._loop is not None:
            raise RuntimeError("wait() cannot be used inside a kernel; read .analysis later")
        deadline = time.monotonic() + timeout
        while self._analysis == "solving" and time.monotonic() < deadline:
            time.sleep(0.01)
        with self._lock:  # the verdict's publication is complete
            return self._analysis

    # -- scoring and statistics ---------------------------------------------------------------

    @property
    def statistics(self) -> list[dict[str, Any]]:
        """The statistics per draw mode, one dict per row (``pandas.DataFrame(w.statistics)``).

        See :meth:`klondike_widget.play.stats.Statistics.summary` for the columns; the game on
        the table is in progress and not counted yet.
        """
        with self._lock:
            self.stats_view = self._tracker.summary(refresh=True)
            return [dict(row) for row in self.stats_view["rows"]]

    def reset_stats(self, draw: int | None = None) -> int:
        """Forget the recorded games (of draw mode ``draw``, or all); return how many."""
        if draw is not None and (isinstance(draw, bool) or draw not in (1, 3)):
            raise ValueError(f"draw must be 1, 3 or None, not {draw!r}")
        with self._lock:
            removed = self._tracker.reset(draw)
            self.stats_view = self._tracker.summary()
            self._publish()
            return removed

    def auto_complete(self) -> int:
        """Play every card up to the foundations (offered once nothing is hidden and the stock
        is empty, see :func:`klondike_widget.play.assist.auto_complete_line`); return how many
        moves. Raises ``IllegalMoveError`` when it is not offered. It is no help: a win by
        auto-complete is the player's own."""
        with self._lock:
            line = assist.auto_complete_line(self._game.state)
            if line is None:
                raise IllegalMoveError("auto-complete needs every card face up and no stock")
            self._close_line()
            self._start_finish(line)
            return len(line)

    # -- solver lines: the analysis panel ---------------------------------------------------

    @property
    def line(self) -> Line | None:
        """The line open in the analysis panel, or None. Assign a line to open it, None to close.

        >>> w = KlondikeWidget(deal=2, analyse=False)
        >>> w.line = ["s", "s", "t3-t2"]
        >>> w.line.text(), w.line_index, w.view["status"], w.view["line"]["total"]
        ('s s t3-t2', 0, 'analysis', 3)
        >>> w.line = None; w.view["status"]
        'playing'
        """
        return None if self._panel is None else self._panel.line

    @line.setter
    def line(self, line: object) -> None:
        if line is None:
            self.back_to_game()
        else:
            self.show_line(line)

    def show_line(self, line: object, index: int = 0) -> Line:
        """Open the analysis panel on ``line`` at step ``index``; return the :class:`Line`.

        ``line`` is a :class:`Line` (from any position), a solver result (its ``.moves``) or
        moves (or their text) played from the position on the table. The game does not change.
        Raises ``TypeError``, ``ValueError`` (no moves) or
        :class:`~klondike_widget.engine.line.BrokenLineError` naming the first move that does not
        play; nothing changes then. A running Finish stops first.

        >>> w = KlondikeWidget(deal=2, analyse=False)
        >>> w.show_line("s t3-t2", index=2).text(), w.line_index, w.game.moves_count
        ('s t3-t2', 2, 0)
        >>> w.view["stock"], w.view["cols"][1][1]
        (23, [8, 20])
        """
        with self._lock:
            opened = line_from(line, self._game.state)
            self._open_panel(LinePanel(opened, self._line_count + 1), index)
            return opened

    def review(self, limit: Limit | None = None) -> Review:
        """Review the game (:func:`klondike_widget.review.review`) and open it in the panel.

        The game's history opens as a line from its start, at the position before the losing
        move (marked in the list) if there is one. Step through it as through a solver line;
        "Try from here" (:meth:`play_from_here`) starts a new game from the step shown, with the
        moves up to it played. Verdicts the widget already knows are used. Returns the review.

        >>> from klondike_widget.solver import Limit
        >>> w = KlondikeWidget(deal=2, analyse=False)
        >>> w.play("s") and w.play("s") and None
        >>> r = w.review(Limit(seconds=5))
        >>> r.losing_move is None, w.view["status"], w.line_view["title"]
        (True, 'analysis', 'review.title')
        >>> w.step(1) and None
        >>> w.play_from_here(), [str(m) for m in w.game.history], w.game.moves_count
        (1, ['s'], 1)
        """
        from klondike_widget.review import review

        game = self._game
        result = review(game, limit, known=self._verdicts)
        with self._lock:
            if self._game is not game or not game.history:
                return result  # the game changed meanwhile, or nothing to step through
            losing = result.losing_move
            marks = {losing.index: "review.losing"} if losing is not None else {}
            line = Line(game.start, list(game.history))
            panel = LinePanel(line, self._line_count + 1, marks=marks, review=True)
            self._open_panel(panel, losing.index if losing is not None else 0)
        return result

    def _open_panel(self, panel: LinePanel, index: int) -> None:
        with self._lock:
            panel.index = index  # IndexError before anything changes
            self._stop_finish()
            self._stop_autoplay()
            self._line_count += 1
            self._panel = panel
            self._seq += 1
            self.line_view = panel.published(self.locale)
            self.line_index = panel.index
            self._publish()

    def step(self, index: int) -> GameState:
        """Show step ``index`` (0 = the start, ``len(w.line.moves)`` = the end); return it.

        Negative numbers count from the end (``-1`` is the end). Raises ``ValueError`` when no
        line is open and ``IndexError`` for a step not on the line. Autoplay pauses.

        >>> w = KlondikeWidget(deal=2, analyse=False)
        >>> w.show_line(["s", "s", "t3-t2"]) and None
        >>> w.step(-1) == w.line[3], w.line_index, w.view["moves"]
        (True, 3, 0)
        """
        with self._lock:
            panel = self._require_panel()
            if isinstance(index, bool) or not isinstance(index, int):
                raise TypeError(f"a step is a whole number, not {type(index).__name__}")
            if index < 0:
                index += panel.total + 1
            if not 0 <= index <= panel.total:
                raise IndexError(f"step {index} is not on this line (0..{panel.total})")
            self._stop_autoplay()
            self._show_step(index)
            return panel.state

    def autoplay(self, on: bool = True) -> None:
        """Start (or with ``on=False`` pause) stepping forward by itself, one step per
        ``step_pace`` ms; it stops at the end. Started at the end, it begins from the start."""
        with self._lock:
            panel = self._require_panel()
            if not on:
                if panel.autoplay:
                    self._stop_autoplay()
                    self._publish()
                return
            if panel.index == panel.total:
                self._show_step(0, publish=False)
            panel.autoplay = True
            self._auto_gen += 1
            self._publish()
            self._schedule_autoplay(self._auto_gen)

    def back_to_game(self) -> None:
        """Close the analysis panel; the game is as it was. Nothing happens if none is open."""
        with self._lock:
            if self._panel is not None:
                self._close_line()
                self._seq += 1
                self._publish()

    def play_from_here(self) -> int:
        """Leave the analysis panel, playing the moves of the line up to the step shown.

        The first ``line_index`` moves of the line are played into the game as real moves (they
        count on the Moves counter, undo takes them back); the game's history is kept. Returns
        how many moves were played. Raises ``ValueError`` when no line is open or when the
        line does not start at the position on the table (nothing changes then).

        >>> w = KlondikeWidget(deal=2, analyse=False)
        >>> w.play("t3-t2") and None
        >>> w.show_line(["s", "s"], index=2) and None
        >>> w.play_from_here(), w.game.moves_count, w.line is None
        (2, 3, True)
        >>> [str(m) for m in w.game.history]
        ['t3-t2', 's', 's']
        """
        with self._lock:
            panel = self._require_panel()
            if panel.review:
                return self._try_from_here(panel)
            if panel.line.start != self._game.state:
                raise ValueError(
                    "this line does not start at the position on the table; "
                    "only back_to_game() leaves it"
                )
            k = panel.index
            self._stop_finish()
            if k == 0:
                self.back_to_game()
                return 0
            moves = panel.line.moves[:k]
            before = panel.line[k - 1]
            self._tracker.helped()
            self._game.play_line(moves)
            words = [i18n.announce_move(before, moves[-1], self.locale)]
            if self._game.is_won:
                words.append(self._text("announce.win"))
            self._after_change(" ".join(words))
            return k

    def _try_from_here(self, panel: LinePanel) -> int:
        """A reviewed game's "Try from here": a new game, the moves up to the step played."""
        k = panel.index
        game = Game(self._game.start, self._game.deal_number)
        game.play_line(panel.line.moves[:k])
        self.game = game
        return k

    def close(self) -> None:
        """Stop the solver thread and close the widget."""
        analyst = getattr(self, "_analyst", None)
        if analyst is not None:  # None when __init__ failed before creating it
            analyst.close()
            with self._lock:
                self._stop_finish()
        super().close()

    # -- intents -----------------------------------------------------------------------------

    def _on_msg(self, _widget: object, content: object, buffers: object) -> None:
        """The one entry point of intents from the front end (registered with ``on_msg``)."""
        cid = content.get("cid") if isinstance(content, dict) else None
        cid = cid if isinstance(cid, str) and len(cid) <= 40 else None
        with self._lock:
            try:
                intent = parse_intent(content, buffers)
                if intent.spec.fresh and intent.seq != self._seq:
                    intent = self._rebased(intent)
                _HANDLERS[intent.kind](self, **intent.args)
            except Rejected as exc:
                self._notice("reject." + exc.reason, exc.detail, cid=cid)
            except Exception as exc:  # never let a traceback reach the user
                _log.exception("klondike-widget: intent failed")
                self._notice("error.generic", repr(exc), cid=cid, detail=type(exc).__name__)

    def _rebased(self, intent: Any) -> Any:
        """A move made on an older view, as a move on the table now; else ``stale``.

        Clicks are sent at once, each stamped with the view it was made on, so a fast player
        on a slow kernel makes several on the same view. Such a move still counts when it means
        the same move now (:func:`~klondike_widget.widget.protocol.same_move`).
        """
        seen = self._seen.get(intent.seq) if intent.kind == "move" else None
        if seen is not None and self._panel is None and not self._finishing:
            move = same_move(seen, self._game.state, intent.args["move"])
            if move is not None:
                return type(intent)(intent.kind, self._seq, {"move": str(move)}, intent.cid)
        raise Rejected("stale", f"sent against {intent.seq}, now {self._seq}")

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Apply trait writes from the front end, except to ``view``, ``deck``, ``strings`` and
        ``stats_view``.

        Those are Python's alone (what the board and the statistics panel show); a front end
        that writes them is ignored and every view is sent Python's values again, so no view
        keeps a forged board. A write that a trait refuses (``draw`` 3.0) is dropped the same
        way.
        """
        refused = [name for name in sync_data if name in _PYTHON_OWNED]
        for name, value in sync_data.items():
            if name in _PYTHON_OWNED:
                continue
            if not self._whole_where_whole(name, value):
                refused.append(name)
                continue
            try:
                super().set_state({name: value})
            except traitlets.TraitError:  # Python's value stays and is sent back
                refused.append(name)
        if refused:
            self.send_state(refused)

    def _whole_where_whole(self, name: str, value: Any) -> bool:
        """False for a bool or float written to an int trait (``draw`` 3.0, ``pace`` true).

        traitlets lets them through (``True == 1``, ``3.0 in (1, 3)``), and an equal value
        raises no change, so the validators never see it.
        """
        trait = self.traits().get(name)
        numeric = isinstance(trait, traitlets.Int) or (
            isinstance(trait, traitlets.Enum) and all(is_whole(v) for v in trait.values or ())
        )
        return not numeric or is_whole(value)

    def _guard(self, *, board: bool = True) -> None:
        if self._finishing:
            raise Rejected("busy", "Finish is playing")
        if self._panel is not None:
            raise Rejected("in_analysis", "a solver line is open")
        if board and self._game.is_won:
            raise Rejected("game_over")

    def _do_move(self, move: str) -> None:
        self._guard()
        try:
            self._play_by_player(move)
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise Rejected("illegal_move", str(exc)) from None

    def _do_undo(self) -> None:
        self._guard(board=False)
        if not self._game.can_undo:
            raise Rejected("nothing_to_undo")
        self.undo()

    def _do_redo(self) -> None:
        self._guard(board=False)
        if not self._game.can_redo:
            raise Rejected("nothing_to_redo")
        self.redo()

    def _do_hint(self) -> None:
        self._guard()
        if self.hint() is None:
            reason = {"unwinnable": "no_win", "unknown": "unknown"}.get(
                self._analysis or "", "not_solved"
            )
            if self._analysis == "solving":  # shown as soon as the solver's line is in
                self._hint_wanted = True
                reason = "pending"
            self._notice("hint.unavailable." + reason)

    def _do_finish(self) -> None:
        self._guard()
        line = self._verdicts.line(self._game.state)
        if not line:
            self._notice(self._finish_block() or "finish.unavailable.not_solved")
            return
        self._tracker.helped()
        self._start_finish(line)

    def _do_stop(self) -> None:
        self.stop()

    def _do_open_line(self) -> None:
        if self._finishing:
            raise Rejected("busy", "Finish is playing")
        known = () if self._game.is_won else self._verdicts.line(self._game.state)
        if known:
            self.show_line(Line(self._game.state, known))
        elif self._last_line is not None:
            self.show_line(self._last_line)
        elif self._game.is_won:
            self._notice("hint.unavailable.game_over")
        else:
            reason = {"unwinnable": "no_win", "unknown": "unknown"}.get(
                self._analysis or "", "not_solved"
            )
            self._notice("hint.unavailable." + reason)

    def _panel_for(self, line: int) -> LinePanel:
        """The open panel, if ``line`` names it; otherwise the intent is refused."""
        if self._panel is None:
            raise Rejected("no_line")
        if line != self._panel.ident:
            raise Rejected("stale", f"line {line}, open is {self._panel.ident}")
        return self._panel

    def _do_step(self, line: int, index: int) -> None:
        panel = self._panel_for(line)
        if index > panel.total:
            raise Rejected("step_out_of_range", f"{index} > {panel.total}")
        self.step(index)

    def _do_autoplay(self, line: int, on: bool) -> None:
        self._panel_for(line)
        self.autoplay(on)

    def _do_play_from_here(self, line: int, index: int) -> None:
        if self._finishing:
            raise Rejected("busy", "Finish is playing")
        panel = self._panel_for(line)
        if index != panel.index:
            raise Rejected("stale", f"step {index}, shown is {panel.index}")
        if not panel.review and panel.line.start != self._game.state:
            raise Rejected("line_not_current")
        self.play_from_here()

    def _do_back_to_game(self) -> None:
        if self._panel is None:
            raise Rejected("no_line")
        self.back_to_game()

    def _do_set_step_pace(self, pace: int) -> None:
        self.step_pace = pace

    def _do_restart(self) -> None:
        self.restart()

    def _do_new_deal(self, deal: int | None = None) -> None:
        self.new_deal(deal)

    def _do_set_draw(self, draw: int) -> None:
        self.draw = draw
        game = self._game
        if game.rules.draw == draw:
            return
        untouched = game.moves_count == 0 and not self._finishing and self._panel is None
        if untouched and game.deal_number is not None:  # nothing to lose: deal it again now
            self.new_deal(game.deal_number)
        else:
            mode = self._text("option.draw.three" if draw == 3 else "option.draw.one")
            self._notice("notice.draw_next_deal", mode=mode)

    def _do_set_back(self, back: str) -> None:
        self.back = back

    def _do_set_show_analysis(self, on: bool) -> None:
        self.show_analysis = on

    def _do_set_locale(self, locale: str) -> None:
        if locale not in i18n.available_locales():
            raise Rejected("unknown_locale", locale[:16])
        self.locale = locale

    def _do_set_mirror(self, mirror: str) -> None:
        self.mirror = mirror

    def _do_set_pace(self, pace: int) -> None:
        self.pace = pace

    # scoring, statistics, one-click moves (klondike_widget.play)

    def _do_auto_complete(self) -> None:
        self._guard()
        if assist.auto_complete_line(self._game.state) is None:
            raise Rejected("auto_complete_unavailable")
        self.auto_complete()

    def _do_set_scoring(self, scoring: str) -> None:
        self.scoring = scoring

    def _do_set_option(self, name: str, on: bool) -> None:
        setattr(self, name, on)

    def _do_open_stats(self) -> None:
        self.stats_view = self._tracker.summary(refresh=True)

    def _do_reset_stats(self, draw: int | None = None) -> None:
        self.reset_stats(draw)

    # -- internals ---------------------------------------------------------------------------

    @traitlets.validate("locale")
    def _check_locale(self, proposal: Any) -> str:
        value = proposal["value"]
        if value not in i18n.available_locales():
            raise traitlets.TraitError(f"unknown locale {value!r}")
        return str(value)

    @traitlets.observe("locale")
    def _locale_changed(self, _change: Any) -> None:
        with self._lock:
            self._load_locale()
            if self._hint is not None:  # the hint's words are in the old language
                line = self._verdicts.line(self._game.state)
                if line:
                    self._show_hint(line[0], publish=False)
            if self._panel is not None:
                self.line_view = self._panel.published(self.locale)
            self._publish()

    @traitlets.observe("scoring", "vegas_cumulative", "one_click", "auto_safe")
    def _play_option_changed(self, _change: Any) -> None:
        with self._lock:
            if self.view:  # not during __init__
                self._publish()

    @traitlets.validate("draw")
    def _check_draw(self, proposal: Any) -> int:
        # traitlets' Enum takes 3.0 and True (they compare equal to 3 and 1): only ints here
        value = proposal["value"]
        if type(value) is not int or value not in (1, 3):
            raise traitlets.TraitError(f"draw must be 1 or 3, not {value!r}")
        return value

    @traitlets.validate("line_index")
    def _check_line_index(self, proposal: Any) -> int:
        value = proposal["value"]
        total = 0 if self._panel is None else self._panel.total
        if not 0 <= value <= total:
            raise traitlets.TraitError(f"step {value} is not on the line (0..{total})")
        return int(value)

    @traitlets.observe("line_index")
    def _line_index_changed(self, change: Any) -> None:
        with self._lock:
            if self._panel is not None and self._panel.index != change["new"]:
                self._stop_autoplay()
                self._show_step(change["new"])

    def _load_locale(self) -> None:
        self.strings = i18n.strings_for(self.locale)

    def _text(self, key: str, **args: Any) -> str:
        return i18n.text(key, self.locale, **args)

    def _deal_text(self) -> str:
        number = self._game.deal_number
        return "?" if number is None else str(number)

    def _describe(self, move: Move) -> str:
        """``move`` in words, as played from the position on the table."""
        return i18n.describe_move(self._game.state, move, self.locale)

    def _play_by_player(self, move: Move | str) -> Move:
        """A move of the player's; then safe cards go up when ``auto_safe`` is on."""
        played = self._play(move)
        if not self.auto_safe:
            return played
        words = []
        while not self._game.is_won:
            safe = assist.safe_foundation_move(self._game.state)
            if safe is None:
                break
            before = self._game.state
            self._game.play(safe)
            words.append(i18n.announce_move(before, safe, self.locale))
        if words:
            if self._game.is_won:
                words.append(self._text("announce.win"))
            self._after_change(" ".join(words))
        return played

    def _leave_game(self) -> None:
        """The game on the table is about to be replaced: record it (lost unless won)."""
        if self._tracker.replacing(self._game, self._seconds()):
            self.stats_view = self._tracker.summary()

    def _seconds(self) -> float:
        """Seconds on the game's clock now (it runs from the first action until the win)."""
        ms = self._clock_ms
        if self._clock_since is not None:
            ms += (time.monotonic() - self._clock_since) * 1000.0
        return ms / 1000.0

    def _score_view(self) -> dict[str, Any] | None:
        mode = self.scoring
        if mode == "none":
            return None
        now = score(self._game, self._seconds())
        if mode == "standard":
            return {"mode": mode, "value": now.standard, "total": None}
        total = None
        if self.vegas_cumulative:
            total = self._tracker.vegas_total(self._game.rules.draw)
            total += 0 if self._tracker.is_recorded(self._game) else now.vegas  # once only
        return {"mode": mode, "value": now.vegas, "total": total}

    def _play(self, move: Move | str) -> Move:
        before = self._game.state
        played = self._game.play(move)
        words = [i18n.announce_move(before, played, self.locale)]
        if self._game.is_won:
            words.append(self._text("announce.win"))
        self._after_change(" ".join(words))
        return played

    def _after_change(self, announce: str | None) -> None:
        """The game changed: the line closes; new seq, clock, announcement, analysis, publish."""
        self._close_line()
        self._seq += 1
        self._hint = None
        self._hint_wanted = False
        self._tick_clock()
        if announce:
            self._count += 1
            self._announce = {"n": self._count, "text": announce}
        start = self._start_analysis()
        self._publish()  # the board first: the search must not delay the update
        if self._tracker.changed(self._game, self._seconds()):  # then the statistics file
            self.stats_view = self._tracker.summary()
        if start is not None:
            start()

    def _publish(self) -> None:
        panel = self._panel
        playable = panel is not None and (panel.review or panel.line.start == self._game.state)
        clock_ms = self._seconds() * 1000.0
        view = board_view(
            self._game,
            seq=self._seq,
            analysis=self._analysis,
            finish_block=self._finish_block(),
            hint=self._hint,
            finishing=self._finishing,
            clock={
                "ms": round(clock_ms),
                "at": round(time.time() * 1000),
                "run": self._clock_since is not None,
            },
            announce=self._announce,
            shown=None if panel is None else panel.state,
            line=None if panel is None else panel.view_part(playable=playable),
            lines=self._analysis == "winnable" or self._last_line is not None,
        )
        # A deal number can exceed JavaScript's exact integers: publish it as text.
        view["deal"] = None if view["deal"] is None else str(view["deal"])
        self._seen.remember(self._seq, self._game.state)
        # Scoring and one-click targets (klondike_widget.play): looked up, never decided, in JS.
        state = self._game.state
        view["score"] = self._score_view()
        view["quick"] = assist.one_click_moves(state) if view["legal"] and self.one_click else {}
        view["auto_complete"] = bool(view["legal"]) and assist.auto_complete_line(state) is not None
        self.view = dict(view)

    def _finish_block(self) -> str | None:
        if self._finishing or self._game.is_won:
            return None
        status = self._analysis
        if status == "winnable":
            return None
        if status == "unwinnable":
            return "finish.unavailable.no_win"
        if status == "unknown":
            return "finish.unavailable.unknown"
        return "finish.unavailable.not_solved"

    def _notice(self, key: str, why: str = "", *, cid: str | None = None, **args: Any) -> None:
        """Tell the front end ``key`` (a strings key); ``why`` is for logs and tests only."""
        self.last_notice = (key, why)
        self._count += 1
        notice: Notice = {"kind": "notice", "n": self._count, "key": key, "args": args, "cid": cid}
        self.send(notice)

    def _show_hint(self, move: Move, publish: bool = True) -> None:
        src, count, dst = move_target(move, self._game.state)
        self._hint = {"src": src, "n": count, "dst": dst, "text": self._describe(move)}
        if publish:
            self._publish()

    # clock: starts with the first action of a game, stops when it is won

    def _reset_clock(self) -> None:
        self._clock_ms, self._clock_since = 0.0, None

    def _tick_clock(self) -> None:
        running = self._clock_since is not None
        if self._game.is_won and running:
            assert self._clock_since is not None
            self._clock_ms += (time.monotonic() - self._clock_since) * 1000.0
            self._clock_since = None
        elif not self._game.is_won and not running and self._game.moves_count > 0:
            self._clock_since = time.monotonic()

    # analysis

    def _deliver(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` where widget state may change: on the kernel's IOLoop, else under the lock."""
        if self._loop is not None:
            self._loop.add_callback(self._locked(fn))
        else:
            self._locked(fn)()

    def _locked(self, fn: Callable[[], None]) -> Callable[[], None]:
        def call() -> None:
            with self._lock:
                try:
                    fn()
                except Exception:  # a background hand-off must never raise into the loop
                    _log.exception("klondike-widget: background update failed")

        return call

    def _verdict_status(self, state: Any) -> str:
        verdict = self._verdicts.get(state)
        return "solving" if verdict is None else verdict.status

    def _start_analysis(self) -> Callable[[], None] | None:
        """Set the verdict of the new position; return what starts its search, if one is due.

        The search in progress is cancelled at once (it is about an older position).
        """
        state = self._game.state
        self._analyst.cancel()
        if state.is_won or not self._analyse:
            self._analysis = None if state.is_won else self._verdict_or_none(state)
            return None
        verdict = self._verdicts.get(state)
        if verdict is not None:
            self._analysis = verdict.status
            return None
        self._analysis = "solving"

        def done(token: int, status: str, line: Any, error: BaseException | None) -> None:
            self._record(state, status, line)
            if error is not None:
                self._notice("error.solver", repr(error))
            if self._game.state == state:
                self._analysis = self._verdict_status(state)
                line = self._verdicts.line(state) if self._hint_wanted else ()
                self._hint_wanted = False
                if line:
                    self._show_hint(line[0], publish=False)
                self._publish()

        seq = self._seq
        return lambda: self._analyst.request(seq, state, done)

    def _verdict_or_none(self, state: Any) -> str | None:
        verdict = self._verdicts.get(state)
        return None if verdict is None else verdict.status

    def _record(self, state: Any, status: str, line: Any) -> None:
        if status == "winnable":
            self._verdicts.add_line(state, line)
            if self._verdicts.get(state) is None:  # the line did not replay: do not trust it
                self._verdicts.put(state, Verdict("unknown"))
        elif status in ("unwinnable", "unknown"):
            self._verdicts.put(state, Verdict(status))
        else:
            self._verdicts.put(state, Verdict("unknown"))

    # finish: plays the known winning line, one move per `pace` ms, on the IOLoop

    def _start_finish(self, line: tuple[Move, ...]) -> None:
        self._last_line = Line(self._game.state, line)
        self._finishing = True
        self._finish_gen += 1
        self._finish_line = list(line)
        self._finish_waits = move_delays(self._game.state, line, int(self.pace))
        self._hint = None
        self._publish()
        self._schedule_step(self._finish_gen)

    def _stop_finish(self) -> None:
        if self._finishing:
            self._finishing = False
            self._finish_gen += 1
            self._finish_line = []
            self._finish_waits = []

    def _schedule_step(self, gen: int) -> None:
        # adaptive (klondike_widget.widget.pace): pauses where a card turns up, quick runs of taps
        waits = self._finish_waits
        delay = waits.pop(0) if waits else max(0, int(self.pace)) / 1000.0

        def step() -> None:
            if gen != self._finish_gen or not self._finishing:
                return
            if not self._finish_line:
                self._stop_finish()
                self._publish()
                return
            move = self._finish_line.pop(0)
            if not self._finish_line:  # the last move: the board it shows is no longer finishing
                self._stop_finish()
            try:
                self._play(move)
            except (IllegalMoveError, InvalidMoveError):
                self._stop_finish()
                self._publish()
                return
            if self._game.is_won or not self._finish_line:
                self._stop_finish()
                self._publish()
                return
            self._schedule_step(gen)

        self._later(delay, step)

    # the analysis panel: stepping, autoplay (on the IOLoop like Finish), closing

    def _require_panel(self) -> LinePanel:
        if self._panel is None:
            raise ValueError("no line is open (use show_line)")
        return self._panel

    def _show_step(self, index: int, *, publish: bool = True) -> None:
        """Show step ``index`` of the open line: the board, the step, the words' window."""
        panel = self._require_panel()
        first = panel.first
        panel.index = index
        self._seq += 1
        if panel.first != first:
            self.line_view = panel.published(self.locale)
        self.line_index = index
        if publish:
            self._publish()

    def _close_line(self) -> None:
        if self._panel is not None:
            self._stop_autoplay()
            self._panel = None
            self.line_view = {}
            self.line_index = 0

    def _stop_autoplay(self) -> None:
        self._auto_gen += 1
        if self._panel is not None:
            self._panel.autoplay = False

    def _schedule_autoplay(self, gen: int) -> None:
        delay = max(50, int(self.step_pace)) / 1000.0

        def tick() -> None:
            panel = self._panel
            if gen != self._auto_gen or panel is None or not panel.autoplay:
                return
            if panel.index < panel.total:
                self._show_step(panel.index + 1, publish=False)
            if panel.index >= panel.total:
                panel.autoplay = False
            self._publish()
            if panel.autoplay:
                self._schedule_autoplay(gen)

        self._later(delay, tick)

    def _later(self, delay: float, fn: Callable[[], None]) -> None:
        """Run ``fn`` under the lock after ``delay`` seconds: on the IOLoop, else on a timer."""
        if self._loop is not None:
            loop = self._loop
            loop.add_callback(lambda: loop.call_later(delay, self._locked(fn)))
        else:
            timer = threading.Timer(delay, self._locked(fn))
            timer.daemon = True
            timer.start()


#: Intent kind -> the method that runs it with the checked arguments (one per kind of INTENTS).
_HANDLERS: Mapping[str, Callable[..., None]] = {
    "move": KlondikeWidget._do_move,
    "undo": KlondikeWidget._do_undo,
    "redo": KlondikeWidget._do_redo,
    "hint": KlondikeWidget._do_hint,
    "finish": KlondikeWidget._do_finish,
    "stop": KlondikeWidget._do_stop,
    "restart": KlondikeWidget._do_restart,
    "new_deal": KlondikeWidget._do_new_deal,
    "set_draw": KlondikeWidget._do_set_draw,
    "set_locale": KlondikeWidget._do_set_locale,
    "set_mirror": KlondikeWidget._do_set_mirror,
    "set_pace": KlondikeWidget._do_set_pace,
    "open_line": KlondikeWidget._do_open_line,
    "step": KlondikeWidget._do_step,
    "autoplay": KlondikeWidget._do_autoplay,
    "play_from_here": KlondikeWidget._do_play_from_here,
    "back_to_game": KlondikeWidget._do_back_to_game,
    "set_step_pace": KlondikeWidget._do_set_step_pace,
    "set_back": KlondikeWidget._do_set_back,
    "set_show_analysis": KlondikeWidget._do_set_show_analysis,
    "auto_complete": KlondikeWidget._do_auto_complete,
    "set_scoring": KlondikeWidget._do_set_scoring,
    "set_option": KlondikeWidget._do_set_option,
    "open_stats": KlondikeWidget._do_open_stats,
    "reset_stats": KlondikeWidget._do_reset_stats,
}
