"""Which game is on the table and what to record about it: the widget's link to the statistics.

:class:`Tracker` is plain Python (no traitlets): the widget tells it when the game changed,
when a game is about to be replaced and when the solver helped; it keeps the game's
:class:`~klondike_widget.play.stats.GameRecord` up to date in a
:class:`~klondike_widget.play.stats.Statistics` file.

- A game is recorded (``open``) at its first action on this table, so a game left unfinished
  by a restarted kernel still counts as played and lost.
- Won: ``won``, or ``won_with_help`` when Finish or "Play from here" played any of its moves;
  with its time, Moves counter and scores. A Hint only shows a move and auto-complete only
  plays cards that are all in view: neither counts as help.
- Replaced (new deal, restart, another game) before it was won: ``lost``.

A statistics file that cannot be written (a read-only disk) never stops the game: the error is
logged and kept in :attr:`Tracker.error` (the panel shows it).

The summary is read from the file when asked with ``refresh`` (the panel opens: another kernel
may have written meanwhile) and after every write; otherwise the last one is reused, so the
cumulative Vegas score costs no file read per move.

Examples
--------
>>> import tempfile
>>> from pathlib import Path
>>> from klondike_widget.engine.game import Game
>>> t = Tracker(Statistics(Path(tempfile.mkdtemp()) / "s.jsonl"))
>>> g = Game.new(deal=2)
>>> t.changed(g, seconds=0.0)  # no action yet: nothing recorded
False
>>> g.play("s") and t.changed(g, seconds=1.0)
True
>>> t.replacing(g, seconds=2.0); t.summary()["rows"][0]["lost"]
True
1
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from klondike_widget.engine.game import Game
from klondike_widget.play.scoring import score
from klondike_widget.play.stats import GameRecord, Statistics, finished

__all__ = ["Tracker"]

_log = logging.getLogger(__name__)


class Tracker:
    """Records the games played on one table into ``store`` (None: records nothing)."""

    def __init__(self, store: Statistics | None) -> None:
        self.store = store
        self._game: Game | None = None
        self._start_count = 0
        self._record: GameRecord | None = None
        self._closed = False  # the game on the table was recorded as finished
        self._helped = False
        #: The last error writing the statistics file, if any.
        self.error: str | None = None
        self._summary: dict[str, Any] | None = None

    @property
    def current(self) -> str | None:
        """The id of the game on the table while it is recorded and unfinished."""
        return None if self._record is None or self._closed else self._record.id

    def is_recorded(self, game: Game) -> bool:
        """True when ``game`` is finished and in the records (its score too)."""
        return game is self._game and self._record is not None and self._closed

    def helped(self) -> None:
        """The solver played moves of the game on the table (a win then counts with help)."""
        self._helped = True

    def changed(self, game: Game, seconds: float) -> bool:
        """The game on the table changed; return True if the statistics file was written."""
        if game is not self._game:
            self._arrive(game)
        if self._closed or self.store is None:
            return False
        if self._record is None:
            if game.moves_count <= self._start_count:
                return False
            deal = None if game.deal_number is None else str(game.deal_number)
            self._record = GameRecord(uuid.uuid4().hex, draw=game.rules.draw, deal=deal)
            if not game.is_won:
                return self._save(self._record)
        if game.is_won:
            outcome = "won_with_help" if self._helped else "won"
            return self._finish(game, seconds, outcome)
        return False

    def replacing(self, game: Game, seconds: float) -> bool:
        """``game`` is about to leave the table: record it as lost unless it was won."""
        if game is not self._game or self._record is None or self._closed:
            return False
        return self._finish(game, seconds, "lost")

    def summary(self, refresh: bool = False) -> dict[str, Any]:
        """The statistics panel's data: ``{"rows": [...], "skipped": n, "error": text|None,
        "off": bool}`` (``off``: no statistics file)."""
        if self.store is None:
            return {"rows": [], "skipped": 0, "error": None, "off": True}
        if refresh or self._summary is None:
            try:
                rows = self.store.summary(current=self.current)
            except OSError as exc:
                self._failed(exc)
                rows = []
            self._summary = {
                "rows": rows,
                "skipped": self.store.skipped,
                "error": self.error,
                "off": False,
            }
        return self._summary

    def vegas_total(self, draw: int) -> int:
        """The cumulative Vegas score of the recorded games of ``draw`` (this one left out)."""
        rows = self.summary()["rows"]
        return sum(int(row["vegas_total"]) for row in rows if row["draw"] == draw)

    def reset(self, draw: int | None = None) -> int:
        """Forget the recorded games (of one draw mode); the game on the table stays recorded."""
        if self.store is None:
            return 0
        self._summary = None
        try:
            removed = self.store.reset(draw)
            if self._record is not None and not self._closed:
                self._save(self._record)  # the game in progress is still being played
            return removed
        except OSError as exc:
            self._failed(exc)
            return 0

    def _arrive(self, game: Game) -> None:
        self._game = game
        self._start_count = game.moves_count
        self._record = None
        self._closed = game.is_won
        self._helped = False

    def _finish(self, game: Game, seconds: float, outcome: str) -> bool:
        assert self._record is not None
        now = score(game, seconds)
        self._record = finished(
            self._record,
            outcome,
            moves=game.moves_count,
            seconds=round(float(seconds), 3),
            standard=now.standard,
            vegas=now.vegas,
        )
        self._closed = True
        return self._save(self._record)

    def _save(self, record: GameRecord) -> bool:
        if self.store is None:
            return False
        self._summary = None
        try:
            self.store.save(record)
            return True
        except OSError as exc:
            self._failed(exc)
            return False

    def _failed(self, exc: OSError) -> None:
        _log.warning("klondike-widget: statistics not saved: %s", exc)
        self.error = f"{type(exc).__name__}: {exc}"
