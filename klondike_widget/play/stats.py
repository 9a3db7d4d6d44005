"""Statistics of the games played, per draw mode, kept across sessions.

Every game a player starts is a :class:`GameRecord` in one file in the user's data directory
(``platformdirs.user_data_dir("klondike-widget")``, or the folder named by the environment
variable ``KLONDIKE_WIDGET_DATA_DIR``, which tests use). The numbers shown (games played, won,
win rate, current and best streak, best time, fewest moves, best score, the cumulative Vegas
total) are computed from the records, so they can never disagree with them.

The file is JSON Lines: a header line, then one game per line. It is never edited in place:
every change reads the file, changes the list and writes a new file next to it, which then
replaces the old one (``os.replace``, atomic), all under an exclusive lock on a ``.lock`` file,
so two kernels writing at once lose nothing and a reader sees the old file or the new one,
never half of one. A line that does not read (a corrupt file, a hand edit) is skipped, and kept:
it is appended to ``<file>.corrupt`` the next time the file is written, so no recorded game is
thrown away unseen.

Outcomes
--------
``open``
    Started (the first move was made) and not finished yet. An open game that is not the one
    on the table (:meth:`Statistics.summary`'s ``current``) counts as lost: a game left by a
    closed notebook or a restarted kernel was not won.
``won``
    Won by the player. Only these count as wins, extend streaks and set best time, fewest
    moves and best score.
``won_with_help``
    Won, but Finish (the solver) played at least part of it; counted and shown apart. It is a
    played game, not a win, and it ends the current streak.
``lost``
    Given up: a new deal or a restart while the game was not won.

Examples
--------
>>> import tempfile
>>> stats = Statistics(Path(tempfile.mkdtemp()) / "statistics.jsonl")
>>> stats.save(GameRecord("a", draw=1, outcome="won", moves=120, seconds=300.0))
>>> stats.save(GameRecord("b", draw=1, outcome="lost", moves=40, seconds=90.0))
>>> row = stats.summary()[0]
>>> row["draw"], row["played"], row["won"], row["win_rate"], row["best_time"], row["streak"]
(1, 2, 1, 0.5, 300.0, 0)
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

__all__ = [
    "DATA_DIR_ENV",
    "OUTCOMES",
    "FILE_NAME",
    "GameRecord",
    "Statistics",
    "StatisticsError",
    "data_dir",
    "finished",
]

#: The environment variable that overrides the data directory (tests point it at a temp dir).
DATA_DIR_ENV = "KLONDIKE_WIDGET_DATA_DIR"
FILE_NAME = "statistics.jsonl"
OUTCOMES = ("open", "won", "won_with_help", "lost")
_FORMAT = "klondike-widget/statistics"
_VERSION = 1
_MAX_ID = 64


class StatisticsError(ValueError):
    """A bad record or argument; nothing was written."""


def data_dir() -> Path:
    """Where statistics live: ``$KLONDIKE_WIDGET_DATA_DIR``, else the user's data directory.

    >>> import os
    >>> os.environ.get(DATA_DIR_ENV) is None or data_dir() == Path(os.environ[DATA_DIR_ENV])
    True
    """
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("klondike-widget", appauthor=False))


@dataclass(frozen=True)
class GameRecord:
    """One game: who it is (``id``), its draw mode, how it ended and its figures.

    ``seconds`` is the time played, ``moves`` the Moves counter, ``standard``/``vegas`` the
    scores (:mod:`klondike_widget.play.scoring`), ``started``/``ended`` Unix times.
    """

    id: str
    draw: int
    outcome: str = "open"
    moves: int = 0
    seconds: float = 0.0
    standard: int = 0
    vegas: int = 0
    deal: str | None = None
    started: float = field(default_factory=time.time)
    ended: float | None = None

    def __post_init__(self) -> None:
        problem = _record_problem(self)
        if problem:
            raise StatisticsError(f"bad game record: {problem}")

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (one line of the file)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> GameRecord:
        """Read a record; raise :class:`StatisticsError` if it is not one.

        >>> GameRecord.from_dict({"id": "x", "draw": 3}).outcome
        'open'
        >>> GameRecord.from_dict({"id": "x", "draw": 2})
        Traceback (most recent call last):
        ...
        klondike_widget.play.stats.StatisticsError: bad game record: draw must be 1 or 3
        """
        if not isinstance(data, dict):
            raise StatisticsError("bad game record: not an object")
        names = set(cls.__dataclass_fields__)
        unknown = set(data) - names
        if unknown:
            raise StatisticsError(f"bad game record: unknown fields {sorted(unknown)}")
        try:
            return cls(**data)
        except TypeError as exc:
            raise StatisticsError(f"bad game record: {exc}") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return (_is_int(value) or isinstance(value, float)) and value == value  # no NaN


def _record_problem(r: GameRecord) -> str | None:
    if not isinstance(r.id, str) or not 0 < len(r.id) <= _MAX_ID:
        return f"id must be text of 1..{_MAX_ID} characters"
    if not _is_int(r.draw) or r.draw not in (1, 3):
        return "draw must be 1 or 3"
    if r.outcome not in OUTCOMES:
        return f"outcome must be one of {', '.join(OUTCOMES)}"
    if not _is_int(r.moves) or r.moves < 0:
        return "moves must be a whole number >= 0"
    if not _is_number(r.seconds) or r.seconds < 0:
        return "seconds must be a number >= 0"
    if not (_is_int(r.standard) and _is_int(r.vegas)):
        return "scores must be whole numbers"
    if r.deal is not None and (not isinstance(r.deal, str) or len(r.deal) > 24):
        return "deal must be text (decimal digits) or null"
    if not _is_number(r.started) or (r.ended is not None and not _is_number(r.ended)):
        return "started/ended must be Unix times"
    return None


class Statistics:
    """The statistics file: read records, save one, reset, summarise.

    Parameters
    ----------
    path : Path or str, optional
        The file; ``data_dir() / "statistics.jsonl"`` when omitted (read at each call, so the
        environment variable may change meanwhile).
    """

    def __init__(self, path: Path | str | None = None) -> None:
        self._path = None if path is None else Path(path)
        self._thread_lock = threading.Lock()
        #: Lines skipped by the last read (corrupt or not records).
        self.skipped = 0

    @property
    def path(self) -> Path:
        """The statistics file."""
        return self._path if self._path is not None else data_dir() / FILE_NAME

    # -- reading --------------------------------------------------------------------------

    def records(self) -> list[GameRecord]:
        """Every recorded game, oldest first (lines that do not read are skipped)."""
        records, bad = self._read()
        self.skipped = len(bad)
        return records

    def _read(self) -> tuple[list[GameRecord], list[str]]:
        try:
            text = self.path.read_text("utf-8", errors="replace")
        except FileNotFoundError:
            return [], []
        records: dict[str, GameRecord] = {}
        bad: list[str] = []
        for line in text.splitlines():
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                if isinstance(data, dict) and data.get("format") == _FORMAT:
                    continue  # the header
                record = GameRecord.from_dict(data)
            except (ValueError, RecursionError):
                bad.append(line)
                continue
            records[record.id] = record  # a later line for the same game wins
        return list(records.values()), bad

    # -- writing --------------------------------------------------------------------------

    def save(self, record: GameRecord) -> None:
        """Add ``record`` or replace the record with its id (atomically, under the lock)."""
        if not isinstance(record, GameRecord):
            raise StatisticsError(f"expected a GameRecord, not {type(record).__name__}")
        with self._locked():
            records, bad = self._read()
            out = [r for r in records if r.id != record.id]
            index = next((i for i, r in enumerate(records) if r.id == record.id), len(out))
            out.insert(index, record)
            self._write(out, bad)

    def reset(self, draw: int | None = None) -> int:
        """Forget the games of draw mode ``draw`` (all games when None); return how many.

        >>> import tempfile
        >>> s = Statistics(Path(tempfile.mkdtemp()) / "s.jsonl")
        >>> s.save(GameRecord("a", draw=1)); s.save(GameRecord("b", draw=3))
        >>> s.reset(3), [r.id for r in s.records()]
        (1, ['a'])
        """
        if draw is not None and (not _is_int(draw) or draw not in (1, 3)):
            raise StatisticsError(f"draw must be 1, 3 or None, not {draw!r}")
        with self._locked():
            records, bad = self._read()
            kept = [r for r in records if draw is not None and r.draw != draw]
            self._write(kept, bad)
            return len(records) - len(kept)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        path = self.path
        path.parent.mkdir(parents=True, exist_ok=True)
        with self._thread_lock, open(path.with_name(path.name + ".lock"), "a+b") as lock:
            _lock_file(lock)
            try:
                yield
            finally:
                _unlock_file(lock)

    def _write(self, records: Sequence[GameRecord], bad: Sequence[str]) -> None:
        path = self.path
        if bad:  # keep what did not read, beside the file, before it disappears from it
            with open(path.with_name(path.name + ".corrupt"), "a", encoding="utf-8") as keep:
                keep.write("".join(line + "\n" for line in bad))
        lines = [json.dumps({"format": _FORMAT, "version": _VERSION})]
        lines += [json.dumps(r.to_dict(), ensure_ascii=False) for r in records]
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write("\n".join(lines) + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    # -- summaries ------------------------------------------------------------------------

    def summary(self, current: str | None = None) -> list[dict[str, Any]]:
        """One row per draw mode (1, then 3), ready for ``pandas.DataFrame(rows)``.

        ``current`` is the id of the game on the table: it is in progress, so it is left out
        (any other open game counts as lost). Columns: ``draw``, ``played``, ``won``,
        ``won_with_help``, ``lost``, ``win_rate`` (own wins / played, None before any game),
        ``streak`` (current run of own wins), ``best_streak``, ``best_time`` (seconds),
        ``fewest_moves``, ``best_score`` (Standard) and ``vegas_total`` (the cumulative Vegas
        score of every game counted).
        """
        records = [r for r in self.records() if r.id != current]
        return [_summarise(draw, [r for r in records if r.draw == draw]) for draw in (1, 3)]

    def rows(self) -> list[dict[str, Any]]:
        """Every recorded game as a dict (one row per game), oldest first."""
        return [r.to_dict() for r in self.records()]

    def vegas_total(self, draw: int, current: str | None = None) -> int:
        """The cumulative Vegas score of the games of draw mode ``draw`` (``current`` left out)."""
        row = self.summary(current)[0 if draw == 1 else 1]
        return int(row["vegas_total"])


def _summarise(draw: int, games: list[GameRecord]) -> dict[str, Any]:
    games = sorted(games, key=lambda r: r.ended if r.ended is not None else r.started)
    own = [r for r in games if r.outcome == "won"]
    helped = sum(1 for r in games if r.outcome == "won_with_help")
    streak = best = 0
    for r in games:
        streak = streak + 1 if r.outcome == "won" else 0
        best = max(best, streak)
    played = len(games)
    return {
        "draw": draw,
        "played": played,
        "won": len(own),
        "won_with_help": helped,
        "lost": played - len(own) - helped,
        "win_rate": (len(own) / played) if played else None,
        "streak": streak,
        "best_streak": best,
        "best_time": min((r.seconds for r in own), default=None),
        "fewest_moves": min((r.moves for r in own), default=None),
        "best_score": max((r.standard for r in own), default=None),
        "vegas_total": sum(r.vegas for r in games),
    }


def finished(record: GameRecord, outcome: str, **figures: Any) -> GameRecord:
    """``record`` with its outcome and final figures, ended now.

    >>> finished(GameRecord("a", draw=1), "won", moves=90).outcome
    'won'
    """
    return replace(record, outcome=outcome, ended=time.time(), **figures)


if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock_file(f: Any) -> None:
        f.seek(0)
        while True:
            try:
                msvcrt.locking(f.fileno(), msvcrt.LK_LOCK, 1)
                return
            except OSError:
                continue

    def _unlock_file(f: Any) -> None:
        f.seek(0)
        msvcrt.locking(f.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _lock_file(f: Any) -> None:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)

    def _unlock_file(f: Any) -> None:
        fcntl.flock(f.fileno(), fcntl.LOCK_UN)
