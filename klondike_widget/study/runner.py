"""Solving the deals of a study: the per-deal worker and the executors that run it.

The same top-level, picklable :func:`solve_deal` runs in this process, in a local process pool or
on a Dask cluster; each executor yields ``(task, result or exception)`` pairs as deals finish, in
whatever order they finish.
"""

from __future__ import annotations

import importlib
import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, TypeAlias

from klondike_widget.engine.deals import deal, state_from_solvitaire
from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move, MoveKind
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.study.record import DealResult

__all__ = [
    "DealTask",
    "Outcome",
    "SolverLineError",
    "Worker",
    "run_dask",
    "run_processes",
    "run_serial",
    "solve_deal",
]


class SolverLineError(RuntimeError):
    """The solver said WON but its line does not replay to a win through the engine."""


@dataclass(frozen=True)
class DealTask:
    """One deal to solve, with the study's budget (picklable, sent to workers).

    ``solvitaire`` holds the deal's Solvitaire JSON when it was imported; ``deal`` is then only a
    label. Otherwise ``deal`` is a seeded deal number (:func:`klondike_widget.engine.deals.deal`).

    >>> DealTask(5, draw=3, seconds=1.0).state().rules.draw
    3
    """

    deal: int
    draw: int
    seconds: float
    nodes: int | None = None
    check_without_f2t: bool = True
    solvitaire: Mapping[str, Any] | None = None

    def state(self, foundation_to_tableau: bool = True) -> GameState:
        """The starting position under this study's draw mode."""
        rules = Rules(draw=self.draw, foundation_to_tableau=foundation_to_tableau)
        if self.solvitaire is not None:
            return state_from_solvitaire(self.solvitaire, rules)
        return deal(self.deal, rules)


Outcome: TypeAlias = "DealResult | BaseException"
Worker: TypeAlias = Callable[[DealTask], DealResult]


def _check_line(task: DealTask, moves: Iterable[Move], foundation_to_tableau: bool) -> None:
    game = Game(task.state(foundation_to_tableau))
    try:
        game.play_line(moves)
    except ValueError as exc:
        raise SolverLineError(
            f"deal {task.deal}: the solver's winning line is illegal: {exc}"
        ) from None
    if not game.is_won:
        raise SolverLineError(f"deal {task.deal}: the solver's winning line does not win")


_warm = False


def solve_deal(task: DealTask) -> DealResult:
    """Solve one deal (and, if won and asked, again with foundation-to-column moves forbidden).

    Every winning line is replayed through the engine before it is counted; a line that does not
    win raises :class:`SolverLineError`. When the first winning line uses no foundation-to-column
    move, it settles the second question by itself (recorded as 0 seconds, 0 nodes).

    >>> r = solve_deal(DealTask(2, draw=1, seconds=30.0))
    >>> r.deal, r.verdict, r.verdict_no_f2t, r.line_length > 0
    (2, 'won', 'won', True)
    """
    from klondike_widget.solver import Limit, solve, warm_up

    global _warm
    if not _warm:
        # Load the compiled core once per process, so that no deal's time includes it.
        warm_up()
        _warm = True
    limit = Limit(seconds=task.seconds, nodes=task.nodes)
    res = solve(task.state(), limit=limit)
    verdict = str(res.status.value)
    second: tuple[str, float, int] | None = None
    if verdict == "won":
        _check_line(task, res.moves, True)
        if task.check_without_f2t:
            if not any(m.kind == MoveKind.FOUNDATION_TO_COLUMN for m in res.moves):
                second = ("won", 0.0, 0)
            else:
                res2 = solve(task.state(), limit=limit, foundation_to_tableau=False)
                verdict2 = str(res2.status.value)
                if verdict2 == "won":
                    _check_line(task, res2.moves, False)
                second = (verdict2, float(res2.seconds), int(res2.nodes))
    return DealResult(
        deal=task.deal,
        draw=task.draw,
        verdict=verdict,
        seconds=float(res.seconds),
        nodes=int(res.nodes),
        line_length=len(res.moves) if verdict == "won" else 0,
        verdict_no_f2t=second[0] if second else None,
        seconds_no_f2t=second[1] if second else None,
        nodes_no_f2t=second[2] if second else None,
    )


def run_serial(tasks: Iterable[DealTask], worker: Worker) -> Iterator[tuple[DealTask, Outcome]]:
    """Solve the deals one after another in this process."""
    for task in tasks:
        try:
            yield task, worker(task)
        except Exception as exc:
            yield task, exc


def run_processes(
    tasks: Iterable[DealTask], worker: Worker, workers: int
) -> Iterator[tuple[DealTask, Outcome]]:
    """Solve the deals on a local pool of ``workers`` processes (a few deals queued ahead).

    Stopping the iteration early (an interruption, an error) cancels the deals not yet started.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    pending = iter(tasks)
    running: dict[Future[DealResult], DealTask] = {}
    # spawn, not fork: the parent may hold threads (progress bar, Dask, numba) that forking breaks
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    try:

        def fill() -> None:
            while len(running) < 2 * workers:
                task = next(pending, None)
                if task is None:
                    return
                running[pool.submit(worker, task)] = task

        fill()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                task = running.pop(fut)
                exc = fut.exception()
                yield task, (exc if exc is not None else fut.result())
            fill()
    finally:
        if running:
            # Stopped early (interrupted, or the caller failed): deals in progress are abandoned,
            # so stop their processes now rather than let them run out their budgets.
            processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
            for process in list(processes.values()):
                process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)


def run_dask(
    tasks: Iterable[DealTask], worker: Worker, dask: object, workers: int
) -> Iterator[tuple[DealTask, Outcome]]:
    """Solve the deals on Dask.

    ``dask`` is ``"local"`` (a LocalCluster of ``workers`` single-threaded processes on
    127.0.0.1), a scheduler address such as ``"tcp://host:8786"``, or a ``distributed.Client``
    (left open afterwards). The cluster's workers must be able to import ``klondike_widget``.
    """
    try:
        # distributed is untyped: use it through Any rather than silencing each call
        dist: Any = importlib.import_module("distributed")
    except ImportError:  # pragma: no cover - depends on the environment
        raise ImportError(
            "running on Dask needs dask.distributed: pip install 'dask[distributed]'"
        ) from None
    Client, LocalCluster, as_completed = dist.Client, dist.LocalCluster, dist.as_completed
    own: list[Any] = []
    if isinstance(dask, Client):
        client = dask
    elif dask == "local":
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        )
        own.append(cluster)
        client = Client(cluster)
        own.insert(0, client)
    elif isinstance(dask, str):
        try:
            client = Client(dask, timeout="20s")
        except (OSError, TimeoutError) as exc:
            raise ConnectionError(f"cannot reach the Dask scheduler at {dask}: {exc}") from None
        own.append(client)
    else:
        raise TypeError(f"dask must be 'local', a scheduler address or a Client, not {dask!r}")
    futures: dict[Any, DealTask] = {}
    try:
        for task in tasks:
            futures[client.submit(worker, task, pure=False)] = task
        for fut in as_completed(list(futures)):
            task = futures.pop(fut)
            if fut.status == "error":
                yield task, fut.exception()
            else:
                yield task, fut.result()
    finally:
        if futures:
            client.cancel(list(futures))
        for thing in own:
            thing.close()
