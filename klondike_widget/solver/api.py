"""The public solver API: :func:`solve`, :func:`hint`, :func:`solve_async`, :func:`warm_up`.

Thoughtful Klondike: the solver sees the face-down cards. A search ends in one of three ways:

* :attr:`Status.WON`: :attr:`SolveResult.moves` is a full line of engine moves, every stock tap
  and recycle included, that replays to a win from the given position (checked through the engine
  before it is returned);
* :attr:`Status.LOST`: every position reachable from the given one was searched and none wins;
  in draw 3 it is also proved by the *draw-1 relaxation* (see :func:`solve`);
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

from klondike_widget.engine.game import Game
from klondike_widget.engine.moves import Move, apply_move
from klondike_widget.engine.outcome import StopReason, Verdict
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import coldstart
from klondike_widget.solver.bridge import encode_state, engine_moves
from klondike_widget.solver.coldstart import CORE as core  # compiled, or uncompiled until then
from klondike_widget.solver.shorten import (
    LineLength,
    check_setting,
    line_length,
    prepare_shortening,
    shortened,
)

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
]

#: Start size of the transposition table (entries of two 8-byte words, see
#: ``core.table_key``); it doubles when half full.
TT_START = 1 << 19
#: Largest transposition table (entries): 2**26 * 16 bytes = 1 GiB.
TT_MAX = 1 << 26
#: Positions a draw-3 search and its draw-1 relaxation search in turn (see :func:`solve`).
TURN_NODES = 50_000

#: Largest table of the draw-1 relaxation that runs beside a draw-3 search (256 MiB).
RELAX_TT_MAX = 1 << 24


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
        s = self.seconds
        if s is not None and (isinstance(s, bool) or not isinstance(s, (int, float)) or not s > 0):
            raise ValueError(f"Limit.seconds must be a positive number or None, not {s!r}")
        n = self.nodes
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n <= 0):
            raise ValueError(f"Limit.nodes must be a positive int or None, not {n!r}")


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
        ``str`` enum, equal to ``"seconds"`` ...); ``FINISHED`` (equal to ``""``) otherwise.
    rules : Rules or None
        The rules the search used and :attr:`moves` is legal under: the position's own, or
        those with ``foundation_to_tableau`` overridden (see :func:`solve`).
    extra : dict
        Diagnostics: ``max_depth`` (deepest search path), ``cpu_seconds`` (CPU time of the
        solving thread; differs from ``seconds`` on a busy machine); with ``shorten``:
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


class Search:
    """One resumable search (the arrays of the core and the calls between chunks).

    Most callers want :func:`solve`; this class is the layer under it, exposed for tests and
    tools that drive the search step by step. ``tt_max`` caps its transposition table (entries);
    :meth:`step` returns ``core.R_GROW`` once the table is full; ``always`` switches off
    always-on rules (``core.ALW_*``, tests only). ``foundation_to_tableau``
    replaces the position's rule (:func:`with_override`): ``state`` is then the position under
    the rules searched, which its line is legal under.
    """

    def __init__(
        self,
        state: GameState,
        foundation_to_tableau: bool | None = None,
        dominances: bool | int = True,
        tt_max: int = TT_MAX,
        always: int = core.ALW_ALL,
    ) -> None:
        state = with_override(state, foundation_to_tableau)
        self.state = state
        self.tt_max = tt_max
        self.S = encode_state(state, foundation_to_tableau, dominances, always)
        self.H = np.zeros(core.H_SIZE, dtype=np.uint64)
        self.TT = np.zeros((TT_START, 2), dtype=np.uint64)
        self.MV = np.zeros((core.MAXD, core.MAXM), dtype=np.int32)
        self.NM = np.zeros(core.MAXD, dtype=np.int32)
        self.IX = np.zeros(core.MAXD, dtype=np.int32)
        self.UD = np.zeros(core.MAXD, dtype=np.int32)
        self.AUM = np.zeros(core.MAXA, dtype=np.int32)
        self.AUU = np.zeros(core.MAXA, dtype=np.int32)
        self.AUS = np.zeros(core.MAXD, dtype=np.int32)
        self.mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
        self.ctl = np.zeros(core.C_SIZE, dtype=np.int64)
        self.peak_memory = self._table_bytes()
        self.result = core.start_search(
            self.S,
            self.H,
            self.TT,
            self.MV,
            self.NM,
            self.IX,
            self.AUM,
            self.AUU,
            self.mark,
            self.ctl,
        )
        if self.result == core.R_BUDGET and self.NM[0] == 0:
            self.result = core.R_EXHAUSTED

    def _table_bytes(self) -> int:
        arrays = (self.S, self.H, self.TT, self.MV, self.NM, self.IX, self.UD, self.AUM, self.AUU)
        return int(sum(a.nbytes for a in arrays) + self.AUS.nbytes + self.ctl.nbytes)

    @property
    def nodes(self) -> int:
        """Positions searched so far."""
        return int(self.ctl[core.C_NODES])

    @property
    def overflowed(self) -> bool:
        """True if some part of the space was cut off by the stack sizes (no LOST then)."""
        return bool(self.ctl[core.C_OVERFLOW])

    def step(self, max_nodes: int) -> int:
        """Search up to ``max_nodes`` more positions; return the core's result code."""
        if self.result in (core.R_WON, core.R_EXHAUSTED):
            return self.result
        r = core.run_chunk(
            self.S,
            self.H,
            self.TT,
            self.MV,
            self.NM,
            self.IX,
            self.UD,
            self.AUM,
            self.AUU,
            self.AUS,
            self.mark,
            self.ctl,
            max_nodes,
        )
        if r == core.R_GROW:
            if self.TT.shape[0] >= self.tt_max:
                r = core.R_GROW  # full: the caller reports UNKNOWN (memory)
            else:
                old = self.TT
                new = np.zeros((old.shape[0] * 2, 2), dtype=np.uint64)
                core.tt_rehash(old, new)
                self.peak_memory = max(self.peak_memory, self._table_bytes() + new.nbytes)
                self.TT = new
                del old
                self.peak_memory = max(self.peak_memory, self._table_bytes())
                r = core.R_BUDGET
        self.result = r
        return r

    def line_codes(self) -> list[int]:
        """The move codes (automatic moves included) of the winning path, in order."""
        ctl = self.ctl
        depth = int(ctl[core.C_DEPTH])
        aun = int(ctl[core.C_AUN])
        codes = [int(c) for c in self.AUM[: int(ctl[core.C_ROOTAUN])]]
        for d in range(depth):
            codes.append(int(self.MV[d, self.IX[d] - 1]) & 0xFFFFFF)
            end = int(self.AUS[d + 1]) if d + 1 < depth else aun
            codes.extend(int(c) for c in self.AUM[int(self.AUS[d]) : end])
        return codes

    def line(self) -> tuple[Move, ...]:
        """The winning line as engine moves, replayed through the engine to check it."""
        state = self.state
        moves: list[Move] = []
        for code in self.line_codes():
            for move in engine_moves(state, code):
                state = apply_move(state, move)  # raises if the core and the engine disagree
                moves.append(move)
        if not state.is_won:
            raise AssertionError("internal error: the solver's line does not win")
        return tuple(moves)


def with_override(state: GameState, foundation_to_tableau: bool | None) -> GameState:
    """``state`` under its own rules but with ``foundation_to_tableau`` (``None``: unchanged).

    The solver searches, and replays its line, under these rules, so a line found with the
    override is legal under it (and may not be under the position's own rules).

    >>> from klondike_widget.deals import deal
    >>> with_override(deal(1), False).rules
    Rules(draw=1, foundation_to_tableau=False)
    >>> with_override(deal(1), None) is deal(1) or with_override(deal(1), None) == deal(1)
    True
    """
    if foundation_to_tableau is None or foundation_to_tableau == state.rules.foundation_to_tableau:
        return state
    return state.replace(rules=Rules(state.rules.draw, foundation_to_tableau))


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
        After a win, spend an extra budget making the line shorter in engine moves
        (:func:`klondike_widget.solver.shorten.shorten`): ``True`` for the default budget
        (about the search's own time, 0.3 to 1 s), a number for that many seconds, ``False``
        (the default here; :func:`hint` and the widget shorten) for the line as found.

    Returns
    -------
    SolveResult
        ``extra["proof"]`` says how a LOST was proved: ``"search"`` or ``"draw-1 relaxation"``;
        ``rules`` the rules searched (the position's own unless overridden).

    Notes
    -----
    In draw 3 a second search of the same position in draw 1 shares the budget, in turns of
    :data:`TURN_NODES` positions each (by positions, not time, so that verdicts and node counts
    do not depend on the machine). Any draw-3 line is also a draw-1 line (in draw 1 taps
    and recycles reach every talon card, and the talon loses the same cards), so a draw-3
    position whose draw-1 version is lost is lost. Hard draw-3 deals are mostly lost, and their
    draw-1 versions are often far quicker to exhaust. The relaxation stops once it finds a win
    (which proves nothing) or fills its table (:data:`RELAX_TT_MAX`).

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
    search = Search(state)
    runs = [_Run(search)]
    if state.rules.draw != 1:
        relaxed = state.replace(rules=Rules(1, state.rules.foundation_to_tableau))
        runs.append(_Run(Search(relaxed, tt_max=RELAX_TT_MAX)))
    reason = ""
    proof = "search"
    while search.result not in (core.R_WON, core.R_EXHAUSTED):
        nodes = sum(r.search.nodes for r in runs)
        if _is_cancelled(cancel):
            reason = "cancelled"
            break
        if limit.seconds is not None and time.perf_counter() - t0 >= limit.seconds:
            reason = "seconds"
            break
        if limit.nodes is not None and nodes >= limit.nodes:
            reason = "nodes"
            break
        live = [r for r in runs if r.live]
        if not live:  # the search filled its table (and the relaxation can prove nothing)
            reason = "memory"
            break
        # Turns of TURN_NODES positions, the draw-3 search first, then its relaxation (which
        # stops once it has won or filled its table: then it can prove nothing). Turns count
        # positions, not seconds, so verdicts and node counts are the same on every machine and
        # core (compiled or not); a turn is searched in pieces of about 0.1 s, so the clock and
        # the cancel flag are still read often.
        run = min(live, key=lambda r: (r.search.nodes // TURN_NODES, runs.index(r)))
        left = TURN_NODES - run.search.nodes % TURN_NODES
        run.step(left if limit.nodes is None else min(left, limit.nodes - nodes))
        relaxation_lost = run.search.result == core.R_EXHAUSTED and not run.search.overflowed
        if run is not runs[0] and relaxation_lost:
            proof = "draw-1 relaxation"
            break
        if progress is not None:
            progress(sum(r.search.nodes for r in runs), time.perf_counter() - t0)
    seconds = time.perf_counter() - t0
    lengths: dict[str, Any] = {}
    if search.result == core.R_WON:
        moves = search.line()
        status = Status.WON
        if shorten is not False:
            first = moves
            moves, spent = shortened(state, moves, shorten, seconds, lambda: _is_cancelled(cancel))
            lengths = {"first_length": line_length(first), "shorten_seconds": spent}
    elif proof != "search" or (search.result == core.R_EXHAUSTED and not search.overflowed):
        moves, status = (), Status.LOST
    else:
        moves, status = (), Status.UNKNOWN
        if search.result == core.R_EXHAUSTED:
            reason = "depth"
    return SolveResult(
        status=status,
        moves=moves,
        nodes=sum(r.search.nodes for r in runs),
        seconds=seconds,
        peak_memory=sum(r.search.peak_memory for r in runs),
        reason=StopReason(reason),
        rules=state.rules,
        extra={
            "max_depth": int(search.ctl[core.C_MAXDEPTH]),
            "cpu_seconds": time.thread_time() - cpu0,
            "proof": proof if status is Status.LOST else "",
            "relaxation_nodes": sum(r.search.nodes for r in runs[1:]),
            **lengths,
        },
    )


class _Run:
    """A search driven in pieces of about 0.1 s (``chunk`` positions, adapted to the clock)."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.chunk = 20_000

    @property
    def live(self) -> bool:
        """Still worth a chunk: undecided and room left in its table."""
        return self.search.result not in (core.R_WON, core.R_EXHAUSTED, core.R_GROW)

    def step(self, nodes_left: int | None) -> None:
        """Search one piece: ``chunk`` positions, or ``nodes_left`` if fewer."""
        step = self.chunk if nodes_left is None else max(1, min(self.chunk, nodes_left))
        c0 = time.perf_counter()
        self.search.step(step)
        dt = time.perf_counter() - c0
        if dt < 0.05:
            self.chunk = min(self.chunk * 2, 5_000_000)
        elif dt > 0.2:
            self.chunk = max(self.chunk // 2, 1_000)


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
