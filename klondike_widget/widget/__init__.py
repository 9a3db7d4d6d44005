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

The widget is traits and glue: the work is done by its controller, a plain-Python
:class:`~klondike_widget.widget.table.Table` (the game, verdicts, the clock, statistics) with
its :class:`~klondike_widget.widget.finish.Finisher` (Finish) and
:class:`~klondike_widget.widget.desk.Desk` (the analysis panel), which reads the settings from
these traits and writes the displays back. How fast clicks made on older views still count is
told in :mod:`klondike_widget.widget.table`, how solver lines are stepped through in
:mod:`klondike_widget.widget.desk`.
Intents are run by :data:`klondike_widget.widget.intents.HANDLERS`.

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

import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anywidget
import traitlets

from klondike_widget import i18n
from klondike_widget.engine.errors import is_whole
from klondike_widget.engine.game import Game
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.engine.ratings import LEVELS
from klondike_widget.engine.state import GameState
from klondike_widget.play.scoring import SCORINGS
from klondike_widget.play.stats import Statistics
from klondike_widget.widget.analysis import SolveFn, Verdicts
from klondike_widget.widget.intents import HANDLERS, Handler
from klondike_widget.widget.scheduling import kernel_loop
from klondike_widget.widget.table import Table
from klondike_widget.widget.view import deck_table

if TYPE_CHECKING:
    from klondike_widget.review import Review
    from klondike_widget.solver import Limit
    from klondike_widget.widget.lesson_coach import LessonCoach

__all__ = ["KlondikeWidget", "SettingError", "asset_path"]


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


class SettingError(traitlets.TraitError, ValueError):
    """A setting of the widget refused (``w.locale = "xx"``, ``w.pace = 1.5``, ``w.draw = 2``).

    A ``ValueError``, as all bad input is in this package, and traitlets' ``TraitError`` too,
    as code written for traitlets expects; the setting keeps its value.
    """


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
        The solver's time budget per position (a positive number of seconds).
    solve : callable, optional
        A replacement search ``solve(state, seconds, cancel) -> (status, line)``.
    stats : Statistics, bool or None
        Where games are recorded: None (the default) for the user's statistics file
        (:func:`klondike_widget.play.stats.data_dir`), a :class:`Statistics`, or False for none.
    coach : LessonCoach, optional
        Makes the board a lesson's live exercise (see
        :func:`klondike_widget.widget.lesson_coach.lesson_board`, which sets it).

    Raises
    ------
    ValueError
        For a bad deal number, draw mode, locale or ``solve_seconds``; a setting refused, when
        the widget is made or later (``w.pace = 1.5``), is a :class:`SettingError`, a
        ``ValueError`` too.

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
        coach: LessonCoach | None = None,
        **kwargs: Any,
    ) -> None:
        self._table = Table(
            self,
            game,
            deal=deal,
            draw=draw,
            analyse=analyse,
            solve_seconds=solve_seconds,
            solve=solve,
            stats=stats,
            coach=coach,
            loop=kernel_loop(),
        )
        codes = i18n.available_locales()
        if locale not in codes:
            raise ValueError(f"unknown locale {locale!r}; available: {', '.join(codes)}")
        super().__init__(
            locale=locale,
            draw=self._table.game.rules.draw,
            mirror=mirror,
            pace=pace,
            deck=deck_table(),
            **kwargs,
        )
        self.on_msg(self._on_msg)
        self._table.open()

    def __setattr__(self, name: str, value: Any) -> None:
        """Set an attribute; a trait's refusal (traitlets' ``TraitError``, raised by its type:
        a float for ``pace``, an unknown ``scoring``) comes out as a :class:`SettingError`.

        >>> w = KlondikeWidget(deal=2, analyse=False)
        >>> w.pace = 1.5
        Traceback (most recent call last):
        ...
        klondike_widget.widget.SettingError: The 'pace' trait of a KlondikeWidget instance ...
        >>> w.pace
        300
        """
        try:
            super().__setattr__(name, value)
        except traitlets.TraitError as exc:
            if isinstance(exc, SettingError):
                raise
            raise SettingError(*exc.args) from None

    # -- public API (the work is done by the table, widget.table.Table) -----------------------

    @property
    def table(self) -> Table:
        """The controller behind the widget (:class:`~klondike_widget.widget.table.Table`)."""
        return self._table

    @property
    def game(self) -> Game:
        """The game on the table (read it freely; change it through the methods below)."""
        return self._table.game

    @game.setter
    def game(self, game: Game) -> None:
        self._table.replace_game(game)

    @property
    def analysis(self) -> str | None:
        """The solver's verdict on the position on the table.

        ``"solving"``, ``"winnable"``, ``"unwinnable"``, ``"unknown"``, or None when the game
        is won or analysis is off.
        """
        return self._table.analysis

    @property
    def finishing(self) -> bool:
        """True while Finish is playing the winning line."""
        return self._table.finishing

    @property
    def last_notice(self) -> tuple[str, str] | None:
        """The last rejection or notice: ``(strings key, detail)``; for tests and logs."""
        return self._table.last_notice

    def play(self, move: Move | str) -> Move:
        """Play a move (a :class:`Move` or its text, e.g. ``"t3-t6"``) and show it.

        Raises ``InvalidMoveError`` or ``IllegalMoveError`` (the game is unchanged then).
        A running Finish stops first.
        """
        return self._table.play(move)

    def undo(self) -> Move:
        """Take back the last move (raises ``IllegalMoveError`` if there is none)."""
        return self._table.undo()

    def redo(self) -> Move:
        """Replay the last undone move (raises ``IllegalMoveError`` if there is none)."""
        return self._table.redo()

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
        return self._table.new_deal(deal, draw, level)

    def restart(self) -> Game:
        """Start the same deal again from the beginning (a fresh Moves counter)."""
        return self._table.restart()

    def hint(self) -> Move | None:
        """The solver's next move from here, highlighted on the board; None if none is known."""
        return self._table.show_hint()

    def finish(self, *, animate: bool = True) -> int:
        """Play the solver's winning line to the end; return how many moves it has.

        Solves the position first (in this thread) if its verdict is not known yet. With
        ``animate`` the moves are played one by one at the ``pace`` setting after this call
        returns (stop with :meth:`stop`); without, they are all played now. Every move counts
        on the Moves counter. Raises ``IllegalMoveError`` if no win is known from here.
        """
        return self._table.finisher.finish(animate=animate)

    def stop(self) -> None:
        """Stop a running Finish (the game stays where it is)."""
        self._table.finisher.stop_and_say()

    def wait(self, timeout: float = 30.0) -> str | None:
        """Wait until the solver's verdict on the current position is in; return it.

        For scripts and tests outside a kernel: inside a kernel the verdict arrives through the
        IOLoop, which a waiting cell would block, so there this raises ``RuntimeError``.
        """
        return self._table.wait(timeout)

    # -- scoring and statistics ---------------------------------------------------------------

    @property
    def statistics(self) -> list[dict[str, Any]]:
        """The statistics per draw mode, one dict per row (``pandas.DataFrame(w.statistics)``).

        See :meth:`klondike_widget.play.stats.Statistics.summary` for the columns; the game on
        the table is in progress and not counted yet.
        """
        return self._table.statistics()

    def reset_stats(self, draw: int | None = None) -> int:
        """Forget the recorded games (of draw mode ``draw``, or all); return how many."""
        return self._table.reset_stats(draw)

    def auto_complete(self) -> int:
        """Play every card up to the foundations (offered once nothing is hidden and the stock
        is empty, see :func:`klondike_widget.play.assist.auto_complete_line`); return how many
        moves. Raises ``IllegalMoveError`` when it is not offered. It is no help: a win by
        auto-complete is the player's own."""
        return self._table.finisher.auto_complete()

    # -- solver lines: the analysis panel (widget.desk.Desk) ----------------------------------

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
        panel = self._table.desk.panel
        return None if panel is None else panel.line

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
        return self._table.desk.show_line(line, index)

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
        return self._table.desk.review(limit)

    def step(self, index: int) -> GameState:
        """Show step ``index`` (0 = the start, ``len(w.line.moves)`` = the end); return it.

        Negative numbers count from the end (``-1`` is the end). Raises ``ValueError`` when no
        line is open and ``IndexError`` for a step not on the line. Autoplay pauses.

        >>> w = KlondikeWidget(deal=2, analyse=False)
        >>> w.show_line(["s", "s", "t3-t2"]) and None
        >>> w.step(-1) == w.line[3], w.line_index, w.view["moves"]
        (True, 3, 0)
        """
        return self._table.desk.step(index)

    def autoplay(self, on: bool = True) -> None:
        """Start (or with ``on=False`` pause) stepping forward by itself, one step per
        ``step_pace`` ms; it stops at the end. Started at the end, it begins from the start."""
        self._table.desk.autoplay(on)

    def back_to_game(self) -> None:
        """Close the analysis panel; the game is as it was. Nothing happens if none is open."""
        self._table.desk.back_to_game()

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
        return self._table.desk.play_from_here()

    def close(self) -> None:
        """Stop the solver thread and close the widget."""
        table = getattr(self, "_table", None)
        if table is not None:  # None when __init__ failed before creating it
            table.close()
        super().close()

    # -- from the front end --------------------------------------------------------------------

    def _on_msg(self, _widget: object, content: object, buffers: object) -> None:
        """The one entry point of intents from the front end (registered with ``on_msg``)."""
        self._table.on_intent(content, buffers)

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

    # -- trait validators and observers ---------------------------------------------------------

    @traitlets.validate("locale")
    def _check_locale(self, proposal: Any) -> str:
        value = proposal["value"]
        if value not in i18n.available_locales():
            raise SettingError(f"unknown locale {value!r}")
        return str(value)

    @traitlets.observe("locale", "scoring", "vegas_cumulative", "one_click", "auto_safe")
    def _setting_changed(self, change: Any) -> None:
        self._table.setting_changed(change["name"], change["new"])

    @traitlets.validate("draw")
    def _check_draw(self, proposal: Any) -> int:
        # traitlets' Enum takes 3.0 and True (they compare equal to 3 and 1): only ints here
        value = proposal["value"]
        if type(value) is not int or value not in (1, 3):
            raise SettingError(f"draw must be 1 or 3, not {value!r}")
        return value

    @traitlets.validate("line_index")
    def _check_line_index(self, proposal: Any) -> int:
        value = proposal["value"]
        panel = self._table.desk.panel
        total = 0 if panel is None else panel.total
        if not 0 <= value <= total:
            raise SettingError(f"step {value} is not on the line (0..{total})")
        return int(value)

    @traitlets.observe("line_index")
    def _line_index_changed(self, change: Any) -> None:
        self._table.setting_changed("line_index", change["new"])

    # -- the table's internals under their old names (tests and benchmarks reach for them) ----

    @property
    def _lock(self) -> threading.RLock:
        return self._table.lock

    @property
    def _loop(self) -> Any:
        return self._table.scheduler.loop

    @property
    def _verdicts(self) -> Verdicts:
        return self._table.verdicts

    @property
    def _analysis(self) -> str | None:
        return self._table.analysis

    @_analysis.setter
    def _analysis(self, status: str | None) -> None:
        self._table.analysis = status

    @property
    def _finish_waits(self) -> list[float]:
        return self._table.finisher.waits

    def _publish(self) -> None:
        self._table.publish()

    def _later(self, delay: float, fn: Callable[[], None]) -> None:
        self._table.scheduler.later(delay, fn)


#: Intent kind -> its handler (:data:`klondike_widget.widget.intents.HANDLERS`, the same table).
_HANDLERS: Mapping[str, Handler] = HANDLERS
