"""The public solver API: :func:`solve`, :func:`hint`, :func:`solve_async`, :func:`warm_up`.

Thoughtful Klondike: the solver sees the face-down cards. A search ends in one of three ways:

* :attr:`Status.WON`: :attr:`SolveResult.moves` is a full line of engine moves, every stock tap
  and recycle included, that replays to a win from the given position (checked through the engine
  before it is returned);
* :attr:`Status.LOST`: every position reachable from the given one was searched and none wins;
  in draw 3 it is also proved by the *draw-1 relaxation*, which takes turns with the search and,
  on long searches, with three more in other move orders
  (:func:`klondike_widget.solver.turns.take_turns`);
* :attr:`Status.UNKNOWN`: the budget (:class:`Limit`) ran out or the search was cancelled. This is
  never a loss.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> res = solve(deal(2), limit=Limit(seconds=30))
>>> res.status
<Verdict.WON: 'won'>
>>> from klondike_widget.engine.game import Game
>>> g = Game(deal(2)); g.play_line(res.moves); g.is_won
True
>>> hint(deal(2)).move in deal(2).legal_moves
True
>>> solve(deal(1), limit=Limit(nodes=10)).status  # budget spent: never called a loss
<Verdict.UNKNOWN: 'unknown'>
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from klondike_widget.engine.errors import as_whole, positive_seconds
from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move
from klondike_widget.engine.outcome import StopReason, Verdict
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import coldstart
from klondike_widget.solver.beam_run import prepare_shortening
from klondike_widget.solver.coldstart import CORE as core  # compiled, or uncompiled until then
from klondike_widget.solver.drive import (
    RELAX_TABLE_BYTES,
    TT_MAX,
    TT_START,
    TURN_NODES,
    Search,
    later_makers,
    with_override,
)
from klondike_widget.solver.finder import WinFinder
from klondike_widget.solver.relaxation import Relaxation
from klondike_widget.solver.searcher import Searcher
from klondike_widget.solver.shorten import LineLength, check_setting, line_length, shortened
from klondike_widget.solver.turns import take_turns

__all__ = [
    "Limit",
    "Status",
    "SolveResult",
    "solve",
    "hint",
    "solve_async",
    "warm_up",
    "Search",
    "with_override",
    "TT_START",
    "TT_MAX",
    "TURN_NODES",
    "RELAX_TABLE_BYTES",
]


class _Cancel(Protocol):
    def is_set(self) -> bool: ...


Cancel = _Cancel | Callable[[], object]
Progress = Callable[[int, float], None]


@dataclass(frozen=True)
class Limit:
    """A search budget: seconds of wall time and/or positions searched. ``None`` = no limit.

    >>> Limit(seconds=10)
    Limit(seconds=10, nodes=None)
    >>> Limit(nodes=-1)
    Traceback (most recent call last):
    ...
    ValueError: Limit.nodes must be a positive int or None, not -1
    """

    seconds: float | None = 10.0
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None:
            positive_seconds(self.seconds, "Limit.seconds")
        n = self.nodes
        if n is not None:
            whole = as_whole(n)  # np.int64(1000) counts and is kept as 1000
            if whole is None or whole <= 0:
                raise ValueError(f"Limit.nodes must be a positive int or None, not {n!r}")
            object.__setattr__(self, "nodes", whole)


#: How a search ended: the package's one verdict enum (``Status`` is its old name here).
Status = Verdict


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` and :func:`hint` return.

    Attributes
    ----------
    status : Status
    moves : tuple of Move
        The full winning line (empty unless ``status`` is WON; empty too when the position is
        already won).
    nodes : int
        Positions searched.
    seconds : float
        Wall time of the search.
    peak_memory : int
        Bytes of the solver's tables at their largest (transposition table and search stacks).
    reason : StopReason
        Why an UNKNOWN ended (``SECONDS``, ``NODES``, ``CANCELLED``, ``MEMORY``, ``DEPTH``; a
        ``str`` enum, equal to ``"seconds"`` ...); ``FINISHED`` (equal to ``""``) otherwise:
        a WON or LOST with another reason is refused (``ValueError``), a stop proves nothing.
    rules : Rules or None
        The rules the search used and :attr:`moves` is legal under: the position's own, or
        those with ``foundation_to_tableau`` overridden (see :func:`solve`).
    extra : dict
        Diagnostics: ``max_depth`` (deepest search path), ``cpu_seconds`` (CPU time of the
        solving thread for the whole call, the line's replay and shortening included; differs
        from ``seconds`` on a busy machine), ``search_cpu_seconds`` (the same for the search
        alone, the CPU counterpart of ``seconds``), ``visits`` (the children the searches
        visited: every move taken, its position new to the table or not, as lonelybot counts
        its ``visits``; ``nodes`` counts only the new ones), ``relaxation_nodes`` and
        ``second_order_nodes`` (positions of the draw-1 relaxation, draw 3, and of the
        later move orders), ``shared_nodes`` (positions one move order entered after another
        had: the other's first move, see :meth:`.drive.Search.share_table`; ``nodes`` counts
        them too), ``finder_beams`` and ``finder_work`` (the beams that looked for a win
        beside the search, and their work: :mod:`.finder`), ``decided_by``
        (``"search"``, ``"second order"``, ``"draw-1 relaxation"``, ``"beam"``; ``""`` if
        undecided); with ``shorten``:
        ``first_length`` (the :class:`LineLength` of the line the search found) and
        ``shorten_seconds`` (time spent shortening it, not part of ``seconds``).
    """

    status: Status
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    peak_memory: int = 0
    reason: StopReason = StopReason.FINISHED
    rules: Rules | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "reason", StopReason(self.reason))  # also from a plain str
        if self.status is not Status.UNKNOWN and self.reason is not StopReason.FINISHED:
            # (a search stopped by its budget proves nothing: see _result)
            raise ValueError(f"a {self.status.value} result has no stop reason: {self.reason!r}")

    @property
    def move(self) -> Move | None:
        """The first move of the winning line (what a hint shows), or ``None``."""
        return self.moves[0] if self.moves else None

    @property
    def won(self) -> bool:
        """True when a win was found."""
        return self.status is Status.WON

    @property
    def length(self) -> LineLength:
        """The line's length in engine moves, with its stock taps and recycles."""
        return line_length(self.moves)


def _as_state(position: object) -> GameState:
    if isinstance(position, Game):
        return position.state
    if isinstance(position, GameState):
        position.validate()
        return position
    raise TypeError(f"solve() needs a GameState or a Game, not {type(position).__name__}")


def _is_cancelled(cancel: Cancel | None) -> bool:
    if cancel is None:
        return False
    is_set = getattr(cancel, "is_set", None)
    if callable(is_set):
        return bool(is_set())
    if callable(cancel):
        return bool(cancel())
    raise TypeError("cancel must be a threading.Event (anything with is_set()) or a callable")


def solve(
    position: GameState | Game,
    limit: Limit | None = None,
    *,
    foundation_to_tableau: bool | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    shorten: bool | float = False,
) -> SolveResult:
    """Decide whether ``position`` can be won and, if so, find a winning line.

    Parameters
    ----------
    position : GameState or Game
        Any legal position (a Game's current position is used), draw 1 or draw 3.
    limit : Limit, optional
        The budget; ``Limit(seconds=10)`` by default.
    foundation_to_tableau : bool, optional
        Overrides the position's rules: ``False`` solves as if foundation cards could never move
        back down (the winnability studies), ``True`` as if they could. The search and the
        replay of its line use the overriding rules, so the line is legal under them (with
        ``True`` on a position whose rules forbid those moves it may bring foundation cards
        down); :attr:`SolveResult.rules` names them.
    progress : callable, optional
        Called as ``progress(nodes, seconds)`` between chunks of search (a few times a second).
    cancel : threading.Event or callable, optional
        When set (or when the callable returns true) the search stops with UNKNOWN.
    shorten : bool or float
        After a win, make the line shorter (:func:`.shorten.shorten`): ``True`` for the default
        budget (about the search's own time, from its positions: 0.3 to 1 s), a number for that
        many seconds, ``False`` for the line as found (the default here; :func:`hint` and the
        widget shorten).

    Returns
    -------
    SolveResult
        ``extra["proof"]`` says how a LOST was proved: ``"search"`` or ``"draw-1 relaxation"``;
        ``rules`` the rules searched (the position's own unless overridden).

    Raises
    ------
    TypeError
        If ``position`` is not a GameState or Game, or ``limit`` is not a Limit.
    InvalidStateError
        If the position is not valid.

    Examples
    --------
    >>> from klondike_widget.engine.deals import deal
    >>> r = solve(deal(2, ), limit=Limit(nodes=100_000))
    >>> r.status, len(r.moves) > 0, r.nodes > 0
    (<Verdict.WON: 'won'>, True, True)
    >>> solve("deal 2")
    Traceback (most recent call last):
    ...
    TypeError: solve() needs a GameState or a Game, not str
    """
    state = _as_state(position)
    if limit is None:
        limit = Limit()
    if not isinstance(limit, Limit):
        raise TypeError(f"limit must be a Limit, not {type(limit).__name__}")
    if foundation_to_tableau is not None and not isinstance(foundation_to_tableau, bool):
        raise TypeError("foundation_to_tableau must be None, True or False")
    check_setting(shorten)
    state = with_override(state, foundation_to_tableau)
    _ensure_compiled()
    t0 = time.perf_counter()
    cpu0 = time.thread_time()
    stop = lambda: _is_cancelled(cancel)  # noqa: E731
    searches: list[Searcher] = [Search(state)]
    later, finder = _beside(state, searches, limit, t0, stop)
    reason, proof, decider = take_turns(
        searches, limit.seconds, limit.nodes, stop, progress, t0, later, finder
    )
    clocks = (time.perf_counter() - t0, cpu0, time.thread_time() - cpu0)
    return _result(searches, decider, state, (reason, proof), clocks, (shorten, cancel), finder)


def _beside(
    state: GameState, searches: list[Searcher], limit: Limit, t0: float, stop: Callable[[], bool]
) -> tuple[tuple[Callable[[], Search], ...], WinFinder]:
    """What searches beside the first order: the makers of the other orders (joining later,
    see :func:`~.turns.take_turns`, :data:`~.drive.LATER_ORDERS`), the finder beams
    (:mod:`.finder`, stopped by ``stop`` or the limit's seconds from ``t0``) and, in draw 3,
    the draw-1 relaxation (appended to ``searches``: :class:`~.relaxation.Relaxation`, four
    move orders of its own)."""
    later = later_makers(state)
    deadline = float("inf") if limit.seconds is None else t0 + limit.seconds
    if state.rules.draw == 3:
        searches.append(Relaxation(state))
    return later, WinFinder(state, stop, deadline)


def _result(
    searches: list[Searcher],
    search: Search,
    state: GameState,
    why: tuple[str, str],
    clocks: tuple[float, float, float],
    after: tuple[bool | float, Cancel | None],
    finder: WinFinder | None = None,
) -> SolveResult:
    """The :class:`SolveResult` of finished searches (``search`` the one whose result stands;
    ``why`` the reason and proof of :func:`take_turns`; ``clocks`` the search's wall seconds,
    the thread's CPU clock at the start and the search's CPU seconds; ``after`` the shortening
    setting and the cancel flag; ``finder`` the finder beams, whose line, if any, is
    engine-checked): the line replayed and maybe shortened."""
    reason, proof = why
    seconds, cpu0, search_cpu = clocks
    shorten, cancel = after
    nodes = sum(s.nodes for s in searches)
    found = finder.line if finder is not None else None
    lengths: dict[str, Any] = {}
    # exhausted as a proof only once decided: stopped by the budget, the first order may be
    # exhausted while a later one, on its table, still searches what it skipped (take_turns)
    exhausted = reason == "" and search.result == core.R_EXHAUSTED
    if search.result == core.R_WON or found is not None:
        moves = found if found is not None else search.line()
        status = Status.WON
        if shorten is not False:
            first = moves
            moves, spent = shortened(state, moves, shorten, nodes, lambda: _is_cancelled(cancel))
            lengths = {"first_length": line_length(first), "shorten_seconds": spent}
    elif proof == "draw-1 relaxation" or (exhausted and not search.overflowed):
        moves, status = (), Status.LOST
    else:
        moves, status = (), Status.UNKNOWN
        if exhausted:
            reason = "depth"  # (cut off by the stack sizes)
    return SolveResult(
        status=status,
        moves=moves,
        nodes=nodes,
        seconds=seconds,
        peak_memory=sum(s.peak_memory for s in searches),
        reason=StopReason(reason),
        rules=state.rules,
        extra={
            "max_depth": int(search.ctl[core.C_MAXDEPTH]),
            "cpu_seconds": time.thread_time() - cpu0,
            "search_cpu_seconds": search_cpu,
            "visits": sum(s.visits for s in searches),
            "proof": proof if status is Status.LOST else "",
            "relaxation_nodes": sum(s.nodes for s in _joined(searches, same_draw=False)),
            "second_order_nodes": sum(s.nodes for s in _joined(searches, same_draw=True)),
            "shared_nodes": sum(s.shared for s in searches),
            "finder_beams": finder.beams if finder is not None else 0,
            "finder_work": finder.work.spent if finder is not None else 0,
            "decided_by": _decided_by(searches, search, proof, status),
            **lengths,
        },
    )


def _decided_by(searches: list[Searcher], search: Search, proof: str, status: Status) -> str:
    """Which search decided: ``"search"`` (the first order), ``"second order"`` (any of
    the later ones, :data:`~.drive.LATER_ORDERS`), ``"draw-1 relaxation"``, ``"beam"`` (a
    finder beam, :mod:`.finder`), or ``""`` (undecided)."""
    if status is Status.UNKNOWN:
        return ""
    if proof in ("draw-1 relaxation", "beam"):
        return proof
    return "second order" if search in _joined(searches, same_draw=True) else "search"


def _joined(searches: list[Searcher], same_draw: bool) -> list[Searcher]:
    """The searches beside the first: of its draw mode (``same_draw``: the later move orders,
    once they have joined) or of the other one (the draw-1 relaxation of a draw-3 solve)."""
    draw = searches[0].state.rules.draw
    return [s for s in searches[1:] if (s.state.rules.draw == draw) == same_draw]


def hint(
    position: GameState | Game,
    limit: Limit | None = None,
    *,
    foundation_to_tableau: bool | None = None,
    cancel: Cancel | None = None,
    shorten: bool | float = True,
) -> SolveResult:
    """Solve and return the result; its :attr:`~SolveResult.move` is the next move to play.

    ``move`` is ``None`` when no win was found (``status`` says LOST or UNKNOWN) or the position
    is already won. The line is shortened by default (``shorten``, as in :func:`solve`).

    >>> from klondike_widget.engine.deals import deal
    >>> h = hint(deal(2))
    >>> h.status, str(h.move) in {str(m) for m in deal(2).legal_moves}
    (<Verdict.WON: 'won'>, True)
    """
    return solve(
        position,
        limit,
        foundation_to_tableau=foundation_to_tableau,
        cancel=cancel,
        shorten=shorten,
    )


_EXECUTOR: concurrent.futures.ThreadPoolExecutor | None = None
_EXECUTOR_LOCK = threading.Lock()


def solve_async(
    position: GameState | Game,
    limit: Limit | None = None,
    *,
    foundation_to_tableau: bool | None = None,
    progress: Progress | None = None,
    cancel: Cancel | None = None,
    shorten: bool | float = False,
) -> concurrent.futures.Future[SolveResult]:
    """:func:`solve` in a background thread; returns a ``concurrent.futures.Future``.

    The compiled search releases the GIL, so a notebook kernel stays responsive. To stop a running
    search pass ``cancel=threading.Event()`` and set it (``Future.cancel()`` only stops a search
    that has not started yet). The position is validated at once, in the caller's thread.
    ``progress`` is called from the worker thread; ``shorten`` as in :func:`solve`.

    >>> import threading
    >>> from klondike_widget.engine.deals import deal
    >>> fut = solve_async(deal(2), Limit(seconds=30))
    >>> fut.result().status
    <Verdict.WON: 'won'>
    """
    global _EXECUTOR
    state = _as_state(position)
    check_setting(shorten)
    with _EXECUTOR_LOCK:
        if _EXECUTOR is None:
            _EXECUTOR = concurrent.futures.ThreadPoolExecutor(
                max_workers=2, thread_name_prefix="klondike-solver"
            )
        executor = _EXECUTOR
    return executor.submit(
        solve,
        state,
        limit,
        foundation_to_tableau=foundation_to_tableau,
        progress=progress,
        cancel=cancel,
        shorten=shorten,
    )


def _load_compiled() -> None:
    """Call every compiled entry point once: numba loads it from its cache or compiles it."""
    from klondike_widget.engine.deals import deal

    search = Search(deal(2))
    search.step(100)
    small = np.zeros((4, 2), dtype=np.uint64)
    core.tt_rehash(small, np.zeros((8, 2), dtype=np.uint64))
    core.tt_spread(small, 0)
    prepare_shortening()


def _ensure_compiled() -> None:
    """Before any clock starts: load the compiled core if that is quick, else start compiling.

    With numba's cache cold, a second process compiles while searches run the uncompiled core
    (same verdicts, slower), and they switch to the compiled one when it is ready
    (:mod:`klondike_widget.solver.coldstart`).
    """
    coldstart.start(_load_compiled)


def warm_up(wait: bool = True) -> float:
    """Load (or, the first time, compile) the compiled core; return the seconds it took.

    ``wait=False`` only starts that in the background, as :func:`solve` does (a widget calls it
    when it opens, so that compiling starts before the first hint).

    :func:`solve` needs no warm-up: with a cold cache it starts the compiler in a second process
    and searches on the uncompiled core until that is done. Call this for full speed from the
    first search on (the studies and benchmarks do). With numba's on-disk cache warm this takes
    a fraction of a second; a cold compile takes tens of seconds.

    >>> warm_up() >= 0.0
    True
    """
    t0 = time.perf_counter()
    coldstart.start(_load_compiled, background=not wait)
    return time.perf_counter() - t0
