"""Winnability studies: solve thousands of deals on this machine or a Dask cluster.

A study solves each deal within a budget and, for each won deal, optionally solves it again with
foundation-to-column moves forbidden. Rows stream to a CSV file as deals finish (flushed and
fsync'ed), so an interrupted run loses nothing finished and running it again skips what is done.

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "study.csv"
>>> res = run_study("2-3", draw=1, seconds=20.0, out=out, workers=0, progress=False)
>>> sorted(r.deal for r in res.results)
[2, 3]
>>> read_results(out).settings.draw
1

The same from the command line::

    python -m klondike_widget study --draw 1 --deals 1-2000 --seconds 60 --out results.csv
    python -m klondike_widget study --draw 3 --deals 1-500 --seconds 20 --out r3.csv --dask local
    python -m klondike_widget summary results.csv --plot results.png
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from klondike_widget.engine.deals import parse_deal_numbers
from klondike_widget.engine.errors import as_whole, quote
from klondike_widget.study.plot import plot_results
from klondike_widget.study.progress import Progress
from klondike_widget.study.results import (
    DealResult,
    ResultWriter,
    StudyFileError,
    StudyResults,
    StudySettings,
    is_whole,
    load_dataframe,
    read_results,
)
from klondike_widget.study.runner import (
    DealTask,
    Outcome,
    Worker,
    run_dask,
    run_processes,
    run_serial,
    solve_deal,
)
from klondike_widget.study.stats import (
    PUBLISHED,
    StudySummary,
    format_summary,
    summarize,
    wilson_interval,
)

__all__ = [
    "PUBLISHED",
    "DealResult",
    "DealTask",
    "ImportedDeal",
    "StudyError",
    "StudyFileError",
    "StudyResults",
    "StudySettings",
    "StudySummary",
    "format_summary",
    "load_dataframe",
    "plot_results",
    "read_results",
    "read_solvitaire_deals",
    "run_study",
    "solve_deal",
    "summarize",
    "wilson_interval",
]


class StudyError(RuntimeError):
    """Some deals failed in their worker (the others are saved; a rerun retries the failed)."""

    def __init__(self, failures: Sequence[tuple[int, BaseException]], results: StudyResults):
        self.failures = list(failures)
        self.results = results
        shown = "; ".join(f"deal {d}: {type(e).__name__}: {e}" for d, e in self.failures[:5])
        more = f" (and {len(self.failures) - 5} more)" if len(self.failures) > 5 else ""
        super().__init__(f"{len(self.failures)} deal(s) failed: {shown}{more}")


@dataclass(frozen=True)
class ImportedDeal:
    """A deal imported from Solvitaire's JSON: its label (seed or line number) and position."""

    label: int
    data: Mapping[str, Any]


def read_solvitaire_deals(path: str | os.PathLike[str], draw: int) -> list[ImportedDeal]:
    """Deals from a Solvitaire JSON or JSONL file, for draw mode ``draw``.

    A ``.jsonl`` file holds one JSON object per line: either a bare Solvitaire deal, or a record
    with the deal under ``"deal"`` and optionally ``"seed"`` (the label) and ``"draw"`` (records
    of the other draw mode are skipped), like ``shared/reference/solvitaire-1-50.jsonl``. A
    ``.json`` file holds one deal or record, or a list of them. Without a seed, the label is the
    deal's 1-based position in the file. Each deal is checked by the engine here, so a bad deal
    is reported before anything runs.

    >>> import tempfile, pathlib, json
    >>> from klondike_widget.engine.deals import deal, to_solvitaire
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "d.jsonl"
    >>> lines = [json.dumps({"seed": s, "draw": d, "deal": to_solvitaire(deal(s))})
    ...          for s in (4, 9) for d in (1, 3)]
    >>> _ = p.write_text("\\n".join(lines))
    >>> [d.label for d in read_solvitaire_deals(p, draw=3)]
    [4, 9]
    """
    from klondike_widget.engine.deals import state_from_solvitaire
    from klondike_widget.engine.rules import Rules

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{p}: cannot read: {exc}") from None
    items: list[tuple[str, object]] = []
    try:
        if p.suffix.lower() == ".jsonl":
            for number, line in enumerate(text.splitlines(), start=1):
                if line.strip():
                    items.append((f"{p}, line {number}", json.loads(line)))
        else:
            data = json.loads(text)
            entries = data if isinstance(data, list) else [data]
            items.extend((f"{p}, item {i + 1}", e) for i, e in enumerate(entries))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{p}: not valid JSON: {exc}") from None
    except RecursionError:
        raise ValueError(f"{p}: not valid JSON: nested too deeply") from None
    deals: list[ImportedDeal] = []
    labels: set[int] = set()
    for position, (where, item) in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise ValueError(f"{where}: expected a JSON object")
        record = item if "deal" in item else {"deal": item}
        if "draw" in record:
            if not (is_whole(record["draw"]) and record["draw"] in (1, 3)):  # not 3.0, not true
                raise ValueError(f"{where}: draw must be 1 or 3, not {quote(record['draw'])}")
            if record["draw"] != draw:
                continue
        label = record.get("seed", position)
        if not is_whole(label) or label < 0:
            raise ValueError(f"{where}: seed must be a whole number >= 0, not {quote(label)}")
        if label in labels:
            raise ValueError(f"{where}: seed {label} appears twice for draw {draw}")
        try:
            state_from_solvitaire(record["deal"], Rules(draw=draw))
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        labels.add(label)
        deals.append(ImportedDeal(label, record["deal"]))
    if not deals:
        raise ValueError(f"{p}: no deals for draw {draw}")
    return deals


def _tasks(
    deals: str | Iterable[int] | Iterable[ImportedDeal], settings: StudySettings
) -> list[DealTask]:
    if isinstance(deals, str):
        deals = parse_deal_numbers(deals)
    items = list(deals)
    if not items:
        raise ValueError("no deals to study")

    def task(label: int, data: Mapping[str, Any] | None) -> DealTask:
        return DealTask(
            label,
            draw=settings.draw,
            seconds=settings.seconds,
            nodes=settings.nodes,
            check_without_f2t=settings.check_without_f2t,
            solvitaire=data,
        )

    imported = [d for d in items if isinstance(d, ImportedDeal)]
    if imported and len(imported) == len(items):
        return [task(d.label, d.data) for d in imported]
    numbers: list[int] = []
    for d in items:
        number = as_whole(d)  # np.arange's and pandas' integers count, as plain ints
        if number is None:
            raise ValueError(
                f"deals must be all deal numbers or all imported deals, not {quote(d)}"
            )
        numbers.append(number)
    if len(set(numbers)) != len(numbers):
        raise ValueError("a deal number appears twice")
    return [task(n, None) for n in numbers]


def _checked(task: DealTask, outcome: Outcome) -> Outcome:
    """The outcome, or an error if a worker answered for another deal or draw mode."""
    if isinstance(outcome, BaseException) or (outcome.deal, outcome.draw) == (task.deal, task.draw):
        return outcome
    return ValueError(f"the worker answered deal {outcome.deal}, draw {outcome.draw}")


def run_study(
    deals: str | Iterable[int] | Iterable[ImportedDeal],
    *,
    draw: int = 1,
    seconds: float = 60.0,
    nodes: int | None = None,
    check_without_f2t: bool = True,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    dask: object = None,
    progress: bool = True,
    on_result: Callable[[DealResult], None] | None = None,
    worker: Worker = solve_deal,
) -> StudyResults:
    """Solve many deals and stream one row per deal to ``out``.

    Parameters
    ----------
    deals : str or iterable
        Deal numbers (``"1-2000,5000"`` or ints), or :class:`ImportedDeal` values from
        :func:`read_solvitaire_deals`.
    draw : int
        1 or 3 cards per stock tap.
    seconds : float
        Time budget of each solve; a deal not decided within it is ``unknown``.
    nodes : int, optional
        Node budget of each solve as well.
    check_without_f2t : bool
        Also solve each won deal with foundation-to-column moves forbidden.
    out : path-like, optional
        The result file. If it exists, the run resumes it: deals already there are skipped, and
        the file's settings must equal this run's (else :class:`StudyFileError`). Without ``out``
        the rows are kept in memory only.
    workers : int, optional
        Local processes (default: the number of CPUs); ``0`` solves in this process (debugging).
        With ``dask="local"``, the number of Dask workers.
    dask : str or distributed.Client, optional
        ``"local"`` for a Dask LocalCluster, a scheduler address (``"tcp://host:8786"``) or a
        ``distributed.Client``; the default runs on a local process pool.
    progress : bool
        Show a progress bar with the running win rate and the time left on stderr.
    on_result : callable, optional
        Called with each new row once it is on disk.
    worker : callable
        The per-deal function (top-level, picklable). Only tests of the machinery replace it.

    Returns
    -------
    StudyResults
        Every row of the study, the resumed ones included.

    Raises
    ------
    StudyError
        If some deals failed in their worker; every other row is saved.
    """
    settings, tasks_all = _settings_and_tasks(deals, draw, seconds, nodes, check_without_f2t)
    workers = _worker_count(workers, dask)
    writer = ResultWriter(out, settings) if out is not None else None
    rows: list[DealResult] = list(writer.existing) if writer else []
    done = {r.deal for r in rows}
    tasks = [t for t in tasks_all if t.deal not in done]
    bar = Progress(
        total=len(tasks), enabled=progress and bool(tasks), earlier=(r.verdict for r in rows)
    )
    outcomes = _outcomes(tasks, worker, dask, workers)
    try:
        failures = _collect(outcomes, writer, rows, bar, on_result)
    finally:
        close = getattr(outcomes, "close", None)
        if close is not None:
            close()
        bar.close()
        if writer is not None:
            writer.close()
    results = StudyResults(settings, tuple(rows), Path(out) if out is not None else None)
    if failures:
        raise StudyError(failures, results)
    return results


def _settings_and_tasks(
    deals: str | Iterable[int] | Iterable[ImportedDeal],
    draw: int,
    seconds: float,
    nodes: int | None,
    check_without_f2t: bool,
) -> tuple[StudySettings, list[DealTask]]:
    """The study's settings and one task per deal (the source says numbers or Solvitaire)."""
    settings = StudySettings(
        draw=draw,
        seconds=seconds,
        nodes=nodes,
        check_without_f2t=check_without_f2t,
        source="numbers",
    )
    tasks = _tasks(deals, settings)
    if any(t.solvitaire is not None for t in tasks):
        settings = StudySettings(draw, seconds, nodes, check_without_f2t, "solvitaire")
    return settings, tasks


def _worker_count(workers: int | None, dask: object) -> int:
    """``workers`` checked (None: the number of CPUs)."""
    count = (os.cpu_count() or 1) if workers is None else as_whole(workers)
    if count is None or count < 0:
        raise ValueError(f"workers must be a whole number >= 0, not {quote(workers)}")
    if dask is not None and count == 0:
        raise ValueError("workers=0 (in this process) cannot be combined with dask")
    return count


def _outcomes(
    tasks: list[DealTask], worker: Worker, dask: object, workers: int
) -> Iterator[tuple[DealTask, Outcome]]:
    """The tasks' outcomes as they finish: on Dask, in this process, or on a process pool."""
    if not tasks:
        return iter(())
    if dask is not None:
        return run_dask(tasks, worker, dask, max(workers, 1))
    if workers == 0:
        return run_serial(tasks, worker)
    return run_processes(tasks, worker, min(workers, len(tasks)))


def _collect(
    outcomes: Iterator[tuple[DealTask, Outcome]],
    writer: ResultWriter | None,
    rows: list[DealResult],
    bar: Progress,
    on_result: Callable[[DealResult], None] | None,
) -> list[tuple[int, BaseException]]:
    """Write and keep each row as it comes; return the deals whose worker failed."""
    failures: list[tuple[int, BaseException]] = []
    for task, outcome in outcomes:
        checked = _checked(task, outcome)
        if isinstance(checked, BaseException):
            failures.append((task.deal, checked))
            continue
        if writer is not None:
            writer.write(checked)
        rows.append(checked)
        bar.update(checked.verdict)
        if on_result is not None:
            on_result(checked)
    return failures
