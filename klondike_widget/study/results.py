"""Result files of a winnability study: one CSV row per deal, streamed to disk as deals finish.

The first line records the settings that every row depends on; a run that resumes a file must use
the same settings. Each row is flushed and fsync'ed as soon as its deal finishes, so an interrupted
or crashed run loses nothing finished, and a file is only ever appended to.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "r.csv"
>>> settings = StudySettings(draw=1, seconds=5.0)
>>> with ResultWriter(path, settings) as w:
...     w.write(DealResult(7, 1, "lost", 0.25, 1000, 0, None, None, None))
>>> print(path.read_text().splitlines()[1])
deal,draw,verdict,seconds,nodes,line_length,verdict_no_f2t,seconds_no_f2t,nodes_no_f2t
>>> read_results(path).results[0].verdict
'lost'
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from klondike_widget.engine.errors import as_whole, is_whole, quote
from klondike_widget.study.plot import plot_results
from klondike_widget.study.record import COLUMNS, VERDICTS, DealResult
from klondike_widget.study.stats import StudySummary, format_summary, summarize

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure
__all__ = [
    "COLUMNS",
    "VERDICTS",
    "DealResult",
    "is_whole",
    "ResultWriter",
    "StudyFileError",
    "StudyResults",
    "StudySettings",
    "load_dataframe",
    "read_results",
]

_MAGIC = "# klondike-widget study "
_FORMAT_VERSION = 1


class StudyFileError(ValueError):
    """A result file that cannot be read, or that does not match the settings of this run."""


@dataclass(frozen=True)
class StudySettings:
    """What every row of a study depends on (a resumed run must use the same).

    Parameters
    ----------
    draw : int
        1 or 3 cards per stock tap.
    seconds : float
        Time budget of each solve (the check without foundation-to-column moves gets its own).
    nodes : int or None
        Optional node budget of each solve.
    check_without_f2t : bool
        Whether each won deal is solved again with foundation-to-column moves forbidden.
    source : str
        Where deals come from: ``"numbers"`` (seeded deal numbers) or ``"solvitaire"`` (deals
        imported from Solvitaire JSON; the deal column is then the file's seed or line label).

    >>> StudySettings(draw=2, seconds=1.0)
    Traceback (most recent call last):
    ...
    ValueError: draw must be 1 or 3, not 2
    """

    draw: int
    seconds: float
    nodes: int | None = None
    check_without_f2t: bool = True
    source: str = "numbers"

    def __post_init__(self) -> None:
        draw = as_whole(self.draw)  # np.int64(3) counts and is kept as 3
        if draw not in (1, 3):
            raise ValueError(f"draw must be 1 or 3, not {quote(self.draw)}")
        object.__setattr__(self, "draw", draw)
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)):
            raise ValueError(f"seconds must be a number, not {quote(self.seconds)}")
        if not 0 < self.seconds < float("inf"):
            raise ValueError(f"seconds must be positive and finite, not {quote(self.seconds)}")
        object.__setattr__(self, "seconds", float(self.seconds))
        if self.nodes is not None:
            nodes = as_whole(self.nodes)
            if nodes is None or nodes <= 0:
                raise ValueError(
                    f"nodes must be a positive whole number or None, not {quote(self.nodes)}"
                )
            object.__setattr__(self, "nodes", nodes)
        if not isinstance(self.check_without_f2t, bool):
            raise ValueError(
                f"check_without_f2t must be True or False, not {quote(self.check_without_f2t)}"
            )
        if not (isinstance(self.source, str) and self.source in ("numbers", "solvitaire")):
            raise ValueError(f"source must be 'numbers' or 'solvitaire', not {quote(self.source)}")

    def header(self) -> str:
        """The settings line that opens a result file."""
        return _MAGIC + json.dumps({"version": _FORMAT_VERSION, **asdict(self)})

    @classmethod
    def from_header(cls, line: str, where: str) -> StudySettings:
        """Parse :meth:`header` output; ``where`` names the file in error messages."""
        if not line.startswith(_MAGIC):
            raise StudyFileError(
                f"{where}: not a klondike-widget study file (its first line should start with "
                f"{_MAGIC.strip()!r})"
            )
        try:
            data = json.loads(line[len(_MAGIC) :])
            version = data.pop("version")
            if not (is_whole(version) and version == _FORMAT_VERSION):  # not 1.0, not true
                raise ValueError(f"unsupported format version {quote(version)}")
            return cls(**data)
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            raise StudyFileError(f"{where}: unreadable settings line: {quote(str(exc))}") from None

    def differences(self, file: StudySettings) -> list[str]:
        """How this run's settings differ from those of a ``file``, one text per setting.

        >>> StudySettings(1, 60.0).differences(StudySettings(3, 60.0))
        ['draw: file 3, this run 1']
        """
        mine, theirs = asdict(self), asdict(file)
        return [
            f"{k}: file {theirs[k]!r}, this run {mine[k]!r}" for k in mine if mine[k] != theirs[k]
        ]


@dataclass(frozen=True)
class StudyResults:
    """The settings and rows of a study (a file read back, or a run's outcome)."""

    settings: StudySettings
    results: tuple[DealResult, ...]
    path: Path | None = None

    @property
    def done(self) -> frozenset[int]:
        """The deals already finished."""
        return frozenset(r.deal for r in self.results)

    def summary(self) -> StudySummary:
        """Counts, rates with bounds and intervals, time percentiles."""
        return summarize(self.results, self.settings.check_without_f2t)

    def report(self) -> str:
        """:meth:`summary` as text, next to the published figures for this draw mode."""
        return format_summary(self.summary(), self.settings.draw)

    def to_dataframe(self) -> pd.DataFrame:
        """The rows as a pandas DataFrame sorted by deal (settings in ``df.attrs``)."""
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - depends on the environment
            raise ImportError(
                "loading study results as a DataFrame needs pandas: pip install pandas"
            ) from None
        df = pd.DataFrame(
            [[getattr(r, c) for c in COLUMNS] for r in self.results], columns=list(COLUMNS)
        )
        df = df.astype(
            {
                "deal": "int64",
                "draw": "int64",
                "verdict": "category",
                "seconds": "float64",
                "nodes": "int64",
                "line_length": "int64",
                "verdict_no_f2t": "object",
                "seconds_no_f2t": "float64",
                "nodes_no_f2t": "Int64",
            }
        )
        ordered: pd.DataFrame = df.sort_values("deal", kind="stable").reset_index(drop=True)
        ordered.attrs["settings"] = asdict(self.settings)
        return ordered

    def plot(self, path: str | os.PathLike[str] | None = None) -> Figure:
        """Time distribution and running win rate; see :func:`klondike_widget.study.plot.plot`."""
        return plot_results(self, path)


def _parse(text: str, where: str) -> tuple[StudySettings, list[DealResult], int]:
    """Settings, rows and the length of the finished part (a torn last write is left out)."""
    lines = text.split("\n")
    # Every row is written and fsync'ed with its newline, so the text after the last newline is
    # a write cut short, however well it parses: "...,won,0.000000," would read as 9 fields with
    # an empty last one, and "...,0.000000,1" of a row that ended ",12" as the wrong number.
    finished = len(text) - len(lines[-1])
    lines = lines[:-1]
    if not lines:
        raise StudyFileError(f"{where}: empty or truncated before its header")
    settings = StudySettings.from_header(lines[0], where)
    if len(lines) < 2 or lines[1].split(",") != list(COLUMNS):
        raise StudyFileError(f"{where}: line 2 should be the column header {','.join(COLUMNS)}")
    rows: list[DealResult] = []
    seen: set[int] = set()

    def parse_row(line: str, number: int) -> DealResult:
        try:
            row = DealResult.from_fields(next(csv.reader([line])))
        except (ValueError, StopIteration) as exc:
            raise StudyFileError(
                f"{where}, line {number}: unreadable row {quote(line)}: {exc}"
            ) from None
        if row.draw != settings.draw:
            raise StudyFileError(
                f"{where}, line {number}: draw {row.draw} in a draw-{settings.draw} study"
            )
        if row.deal in seen:
            raise StudyFileError(f"{where}, line {number}: deal {row.deal} appears twice")
        seen.add(row.deal)
        return row

    for number, line in enumerate(lines[2:], start=3):
        rows.append(parse_row(line, number))
    return settings, rows, finished


def read_results(path: str | os.PathLike[str]) -> StudyResults:
    """Read a result file; raise :class:`StudyFileError` with the reason if it is unreadable.

    A last line cut short by a crash (anything after the last newline, even if it looks like a
    whole row) is not a finished deal and is left out; a resumed run solves that deal again.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StudyFileError(f"{p}: no such result file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise StudyFileError(f"{p}: cannot read: {exc}") from None
    settings, rows, _ = _parse(text, str(p))
    return StudyResults(settings, tuple(rows), p)


def load_dataframe(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Read a result file as a pandas DataFrame (needs pandas)."""
    return read_results(path).to_dataframe()


class ResultWriter:
    """Appends rows to a result file, each flushed and fsync'ed before :meth:`write` returns.

    A new file gets the settings line and the column header. An existing file is resumed: it must
    have been written with the same settings (else :class:`StudyFileError` names the
    differences); its rows are kept (:attr:`existing`) and new ones appended after them. A last
    line cut short by a crash is the only thing ever removed, and a file holding no rows yet
    (only its header) may be started afresh with other settings.
    """

    def __init__(self, path: str | os.PathLike[str], settings: StudySettings) -> None:
        self.path = Path(path)
        self.settings = settings
        self.existing: tuple[DealResult, ...] = ()
        self.torn_bytes = 0
        if self.path.is_dir():
            raise StudyFileError(f"{self.path}: is a directory, not a result file")
        resume = self.path.exists() and self.path.stat().st_size > 0
        old = self._open_existing() if resume else None
        try:
            self._file: io.TextIOWrapper = open(  # noqa: SIM115 - closed in close()
                self.path, "a", encoding="utf-8", newline=""
            )
        except OSError as exc:
            raise StudyFileError(f"{self.path}: cannot write: {exc}") from None
        if old is None:
            self._file.write(settings.header() + "\n" + ",".join(COLUMNS) + "\n")
            self._sync()

    def _open_existing(self) -> StudyResults | None:
        results = read_results(self.path)
        diffs = self.settings.differences(results.settings)
        if diffs and not results.results:
            # Only a header (a run that stopped before its first deal): nothing to keep.
            self.path.unlink()
            return None
        if diffs:
            raise StudyFileError(
                f"{self.path} holds a study with other settings ({'; '.join(diffs)}). Resume "
                "it with the file's settings or write to another file."
            )
        text = self.path.read_text(encoding="utf-8")
        _, _, finished = _parse(text, str(self.path))
        if finished < len(text):
            self.torn_bytes = len(text.encode("utf-8")) - len(text[:finished].encode("utf-8"))
            with open(self.path, "r+b") as f:
                f.truncate(len(text[:finished].encode("utf-8")))
        self.existing = results.results
        return results

    def _sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def write(self, result: DealResult) -> None:
        """Append one row and make it durable."""
        if result.draw != self.settings.draw:
            raise ValueError(f"row of draw {result.draw} in a draw-{self.settings.draw} study")
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerow(result.csv_fields())
        self._file.write(buf.getvalue())
        self._sync()

    def close(self) -> None:
        """Close the file (rows are already durable)."""
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
