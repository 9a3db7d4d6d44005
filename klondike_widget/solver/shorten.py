"""Shorter winning lines: :func:`shorten` and the length of a line in engine moves.

A line found by the depth-first search is the first win it stumbles on, often with many more
stock taps than needed. :func:`shorten` spends a bounded extra budget on cost-ordered beam
searches (:mod:`klondike_widget.solver.beam`) that count engine moves (every tap and recycle),
each bounded by the shortest line known: a narrow one first, then rounds of beams that rank
positions with different weights (:data:`WEIGHTS`), each round twice as wide, while time is left,
then beams from positions along the line for a shorter ending. Whatever a beam finds is
replayed through the engine and kept only when it wins and is shorter, so the result is always a
winning line no longer than the one given (sound by construction).

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.solver import Limit, solve
>>> start = deal(2)
>>> found = solve(start, Limit(seconds=30)).moves
>>> short = shorten(start, found, seconds=0.5)
>>> from klondike_widget.engine.line import Line
>>> Line(start, short).is_winning, len(short) <= len(found)
(True, True)
>>> line_length(["s", "s", "r", "t3-t2"])
LineLength(moves=4, taps=2, recycles=1)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from klondike_widget.engine.errors import IllegalMoveError
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move, MoveKind, apply_move
from klondike_widget.engine.state import GameState
from klondike_widget.solver import coldstart
from klondike_widget.solver.bridge import encode_state, engine_moves

__all__ = [
    "DEFAULT_SECONDS",
    "MAX_SECONDS",
    "BudgetClock",
    "LineLength",
    "NotAWinError",
    "check_setting",
    "line_length",
    "shorten",
    "shorten_budget",
    "shortened",
]

#: The most :func:`shorten` spends by default (seconds).
MAX_SECONDS = 1.0
#: The least the default budget gives (seconds): a search that took no time still gets this.
DEFAULT_SECONDS = 0.3
#: The first beam's width: a quick shorter line before the rounds below.
FIRST_WIDTH = 64
#: The ranking weights of the beams, ``(face_down, waste, blockers)``
#: (:func:`beam.face_down_count`, :func:`beam.waste_debt`, :func:`beam.blockers`): one beam a
#: set. No one set finds the shortest line on most deals; the best of several beams does (on
#: the reference deals of seeds 1-30, at width 256, the best of these 8 lines is 1.029 (draw 1)
#: and 1.025 (draw 3) times Klondike-Solver's mean length, the best set alone 1.062 and 1.076).
WEIGHTS = ((2, 1, 2), (1, 1, 1), (2, 1, 1), (1, 0, 2), (3, 2, 2), (1, 2, 1), (2, 0, 0), (4, 1, 2))
#: The width of the beams of the first round over :data:`WEIGHTS`; each next round is twice
#: as wide (while the time left allows a beam of that width).
ROUND_WIDTH = 256
#: The widest beam.
MAX_WIDTH = 32768
#: A hashed tie-break of 0..NOISE added to a position's rank, salted per beam, so that beams
#: of the same weights in later rounds keep different positions.
NOISE = 4
#: The endings of the line that beams then try to shorten (shares of its length).
TAIL_SHARES = (0.5, 0.75, 0.25)
#: A budget counts processor time, but at most this many times its wall time
#: (:class:`BudgetClock`).
WALL_FACTOR = 3.0
#: The share of the budget the beam may start layers in (the rest covers the last layer and
#: the engine's replay of the line).
SAFETY = 0.9
#: The most search moves a beam line may have.
MAX_LAYERS = 600


class NotAWinError(IllegalMoveError):
    """The moves given to :func:`shorten` do not end in a win."""


@dataclass(frozen=True)
class LineLength:
    """The length of a line as the Moves counter shows it.

    Attributes
    ----------
    moves : int
        Engine moves: every tap and every recycle counts.
    taps : int
        Stock taps among them.
    recycles : int
        Recycles of the waste among them.
    """

    moves: int = 0
    taps: int = 0
    recycles: int = 0


def line_length(moves: Iterable[Move | str]) -> LineLength:
    """Count the engine moves, taps and recycles of ``moves`` (Moves or their text).

    >>> line_length([])
    LineLength(moves=0, taps=0, recycles=0)
    """
    total = taps = recycles = 0
    for move in moves:
        kind = Move.parse(move).kind if isinstance(move, str) else move.kind
        total += 1
        taps += kind is MoveKind.DRAW
        recycles += kind is MoveKind.RECYCLE
    return LineLength(total, taps, recycles)


def shorten_budget(search_seconds: float) -> float:
    """The default budget: about the time of the search itself, at least
    :data:`DEFAULT_SECONDS`, at most :data:`MAX_SECONDS`.

    >>> shorten_budget(0.01), shorten_budget(0.6), shorten_budget(30.0)
    (0.3, 0.6, 1.0)
    """
    return min(MAX_SECONDS, max(DEFAULT_SECONDS, search_seconds))


def check_setting(setting: object) -> None:
    """Raise ``ValueError`` unless ``setting`` is a valid ``shorten=`` value of ``solve``.

    ``True`` (the default budget), ``False`` (off) or a positive number of seconds.

    >>> check_setting(0.5); check_setting(True)
    >>> check_setting("fast")
    Traceback (most recent call last):
    ...
    ValueError: shorten must be True, False or a positive number of seconds, not 'fast'
    """
    if isinstance(setting, bool):
        return
    if not isinstance(setting, (int, float)) or not setting > 0 or setting != setting:
        raise ValueError(
            f"shorten must be True, False or a positive number of seconds, not {setting!r}"
        )


def shortened(
    start: GameState,
    moves: Sequence[Move],
    setting: bool | float,
    search_seconds: float,
    cancel: Callable[[], bool] | None = None,
) -> tuple[tuple[Move, ...], float]:
    """``(line, seconds spent)``: :func:`shorten` as ``solve(..., shorten=setting)`` asks.

    ``True`` gives :func:`shorten_budget` of the search's time, a number that many seconds,
    ``False`` the line unchanged.
    """
    check_setting(setting)
    if setting is False or not moves or not coldstart.compiled_now():
        # while the compiled core is still loading (a cold numba cache), the first line is
        # returned as found: shortening would wait for the beam's compile
        return tuple(moves), 0.0
    budget = shorten_budget(search_seconds) if setting is True else float(setting)
    prepare_shortening()
    t0 = time.perf_counter()
    line = shorten(start, moves, budget, cancel=cancel)
    return line, time.perf_counter() - t0


def shorten(
    start: GameState,
    moves: Sequence[Move],
    seconds: float = MAX_SECONDS,
    *,
    cancel: Callable[[], bool] | None = None,
) -> tuple[Move, ...]:
    """A winning line from ``start`` no longer (in engine moves) than ``moves``.

    Parameters
    ----------
    start : GameState
    moves : sequence of Move
        A winning line from ``start`` (checked through the engine).
    seconds : float
        The budget, as :class:`BudgetClock` counts it (the thread's processor time, at most
        :data:`WALL_FACTOR` times the wall time): beams start while they should end within it.
    cancel : callable, optional
        Returns true to stop early (the best line so far is returned).

    Returns
    -------
    tuple of Move
        The shortest winning line found, ``tuple(moves)`` itself when nothing shorter was.

    Raises
    ------
    NotAWinError
        If ``moves`` does not replay to a win from ``start`` (a BrokenLineError, also an
        IllegalMoveError, when one of them is not legal).
    ValueError
        If ``seconds`` is not a positive number.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0:
        raise ValueError(f"the shortening budget must be a positive number of seconds: {seconds!r}")
    best = tuple(moves)
    if not Line(start, best).is_winning:
        raise NotAWinError("the moves do not end in a win")
    prepare_shortening()
    run = _Runs(SAFETY * seconds, cancel)
    best = run.improve(start, best, FIRST_WIDTH, WEIGHTS[0], 0)
    width, salt = ROUND_WIDTH, 1
    while width <= MAX_WIDTH and run.fits(width, len(best)):
        for weights in WEIGHTS:
            if not run.fits(width, len(best)):
                break
            best = run.improve(start, best, width, weights, salt)
            salt += 1
        width *= 2
    return _refine_tails(start, best, run)


class BudgetClock:
    """Seconds spent since it was made, as a shortening budget counts them.

    The processor time of the calling thread (the beams run in it, compiled code included),
    so that a busy machine sharing its cores does not cut the search short; but never less
    than the wall time over :data:`WALL_FACTOR`, so that a budget ends on any machine.

    >>> clock = BudgetClock()
    >>> 0.0 <= clock() < 1.0
    True
    """

    def __init__(self) -> None:
        self.cpu0 = time.thread_time()
        self.wall0 = time.perf_counter()

    def __call__(self) -> float:
        cpu = time.thread_time() - self.cpu0
        return max(cpu, (time.perf_counter() - self.wall0) / WALL_FACTOR)


class _Runs:
    """The beams of one :func:`shorten`: its clock and deadline, its cancel test and the
    measured time a beam takes per unit of width and of bound (to start only beams that should
    end in time)."""

    def __init__(self, deadline: float, cancel: Callable[[], bool] | None) -> None:
        self.clock = BudgetClock()
        self.deadline = deadline
        self.cancel = cancel
        self.rate = 0.0  # seconds per width and per engine move of the bound, the last beam's

    def fits(self, width: int, bound: int) -> bool:
        """True if a beam of ``width`` under ``bound`` should end before the deadline."""
        if self.cancel is not None and self.cancel():
            return False
        return self.clock() + self.rate * width * bound < self.deadline

    def improve(
        self,
        start: GameState,
        best: tuple[Move, ...],
        width: int,
        weights: tuple[int, int, int],
        salt: int,
    ) -> tuple[Move, ...]:
        """``best``, or the shorter winning line one beam from ``start`` finds."""
        t0 = self.clock()
        codes = _beam(
            start,
            len(best),
            width,
            self.deadline,
            self.cancel,
            weights=weights,
            salt=salt,
            clock=self.clock,
        )
        spent = self.clock() - t0
        self.rate = spent / (width * max(len(best), 1))
        if codes is not None:
            line = _checked_line(start, codes)
            if line is not None and len(line) < len(best):
                return line
        return best


def _refine_tails(start: GameState, best: tuple[Move, ...], run: _Runs) -> tuple[Move, ...]:
    """Spend the time left on beams from positions along ``best`` (its second half, then its
    last three quarters, ...; the weight sets by turns), each as wide as fits, splicing in any
    shorter ending found."""
    for turn, share in enumerate(TAIL_SHARES):
        cut = len(best) - int(len(best) * share)
        width = ROUND_WIDTH
        while width < MAX_WIDTH and run.fits(2 * width, len(best) - cut):
            width *= 2
        if not run.fits(width, len(best) - cut):
            break
        state = Line(start, best).states()[cut]
        tail = run.improve(state, best[cut:], width, WEIGHTS[turn % len(WEIGHTS)], 0)
        best = best[:cut] + tail
    return best


_COMPILE_LOCK = threading.Lock()
_COMPILED = threading.Event()


def prepare_shortening() -> None:
    """Load (or compile) the beam's compiled functions once per process, before a clock starts."""
    if _COMPILED.is_set():
        return
    with _COMPILE_LOCK:
        if not _COMPILED.is_set():
            from klondike_widget.engine.deals import deal

            _beam(deal(2), 200, 4, time.perf_counter() + 1e9, None, layers=3)
            _checked_line(deal(2), [])
            _COMPILED.set()


def _checked_line(start: GameState, codes: list[int]) -> tuple[Move, ...] | None:
    """The engine moves of the beam's search moves, or None if the engine does not agree."""
    from klondike_widget.solver import beam, core  # numba: loaded only once shortening runs

    S = encode_state(start, dominances=1)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    out = np.zeros(len(codes) * (beam.MAX_AUTOS + 1) + beam.MAX_AUTOS, dtype=np.int32)
    n = beam.replay_codes(S, H, np.array(codes, dtype=np.int32), out)
    state = start
    played: list[Move] = []
    try:
        for code in out[:n]:
            for move in engine_moves(state, int(code)):
                state = apply_move(state, move)
                played.append(move)
    except (IllegalMoveError, AssertionError, ValueError):
        return None
    return tuple(played) if state.is_won else None


def _beam(
    start: GameState,
    bound: int,
    width: int,
    deadline: float,
    cancel: Callable[[], bool] | None,
    layers: int = MAX_LAYERS,
    *,
    weights: tuple[int, int, int] = WEIGHTS[0],
    salt: int = 0,
    clock: Callable[[], float] = time.perf_counter,
) -> list[int] | None:
    """The search moves of a win cheaper than ``bound`` engine moves found by one beam, or None.

    ``weights`` rank its positions (:data:`WEIGHTS`); ``salt`` (not 0) adds the hashed
    tie-break of :data:`NOISE`; no layer starts that would end past ``deadline`` by ``clock``.
    """
    from klondike_widget.solver import beam, core  # numba: loaded only once shortening runs

    S = encode_state(start, dominances=1)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    g0 = beam.root_autos(S, H)
    if core.is_won(S):
        return [] if g0 < bound else None
    size = core.S_SIZE
    BS = np.zeros((1, size), dtype=np.int32)
    BH = np.zeros((1, beam.HW), dtype=np.uint64)
    BS[0] = S
    BH[0] = H[: beam.HW]
    BG = np.array([g0], dtype=np.int32)
    layers = min(layers, bound)
    slots = 1 << max(16, int(2 * width * layers).bit_length())
    SK = np.zeros(slots, dtype=np.uint64)
    SG = np.zeros(slots, dtype=np.int32)
    scratch = _scratch(width * core.MAXM)
    best = np.array([bound, -1, -1, 0], dtype=np.int64)
    parents: list[np.ndarray] = []
    codes: list[np.ndarray] = []
    win = (-1, -1, -1)  # the layer, parent index and move code of the cheapest win
    nb = 1
    step = 0.0  # the time of the last layer: no layer starts that would end past the deadline
    for layer in range(layers):
        now = clock()
        if nb == 0 or now + step >= deadline or (cancel is not None and cancel()):
            break
        NS = np.empty((width, size), dtype=np.int32)
        NH = np.empty((width, beam.HW), dtype=np.uint64)
        NG = np.empty(width, dtype=np.int32)
        PAR = np.empty(width, dtype=np.int32)
        COD = np.empty(width, dtype=np.int32)
        found = int(best[0])
        nb = beam.expand_layer(
            BS, BH, BG, nb, NS, NH, NG, PAR, COD, SK, SG, *scratch,
            weights[0], weights[1], weights[2], best, NOISE if salt else 0, np.uint64(salt),
        )  # fmt: skip
        if best[0] < found:
            win = (layer, int(best[1]), int(best[2]))
        parents.append(PAR[:nb].copy())
        codes.append(COD[:nb].copy())
        BS, BH, BG = NS, NH, NG
        step = clock() - now
    return None if win[0] < 0 else _trace(win, parents, codes)


_Scratch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _scratch(size: int) -> _Scratch:
    """The scratch arrays of :func:`beam.expand_layer` (``CF`` .. ``ORD``) for ``size`` moves."""
    return (
        np.empty(size, dtype=np.int32),
        np.empty(size, dtype=np.int32),
        np.empty(size, dtype=np.uint64),
        np.empty(size, dtype=np.int32),
        np.empty(size, dtype=np.int32),
        np.empty(size, dtype=np.int64),
    )


def _trace(
    win: tuple[int, int, int], parents: list[np.ndarray], codes: list[np.ndarray]
) -> list[int]:
    """The search moves to the win ``(layer, parent index, move code)`` through the layers'
    parent indexes and move codes."""
    win_layer, index, code = win
    line = [code]
    for layer in range(win_layer - 1, -1, -1):
        line.append(int(codes[layer][index]))
        index = int(parents[layer][index])
    line.reverse()
    return line
