"""One beam from an engine position (:func:`run_beam`) and the check of its line
(:func:`checked_line`): the Python side of :mod:`klondike_widget.solver.beam`.

:mod:`.shorten` decides which beams to run; this module runs one, layer by layer, within a
deadline, and turns its search moves back into engine moves, replayed through the engine.

Examples
--------
>>> from klondike_widget.engine.deals import deal
>>> from klondike_widget.engine.line import Line
>>> start = deal(2)
>>> codes = run_beam(start, 400, 64, float("inf"), None)
>>> line = checked_line(start, codes)
>>> Line(start, line).is_winning
True
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from klondike_widget.engine.errors import IllegalMoveError
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.solver.bridge import encode_state, engine_line
from klondike_widget.solver.reorder import EMPTY, FOUNDATION, plays_of

if TYPE_CHECKING:
    from klondike_widget.solver.beam import Candidates, Layer, Next

__all__ = [
    "KEPT_WORK",
    "MAX_LAYERS",
    "NOISE",
    "Guide",
    "Ranking",
    "Work",
    "beam_layer",
    "checked_line",
    "line_guide",
    "prepare_shortening",
    "run_beam",
]

#: A hashed tie-break of 0..NOISE added to a position's rank, salted per beam, so that beams
#: of the same weights keep different positions.
NOISE = 4
#: The most search moves a beam line may have.
MAX_LAYERS = 600
#: Ranking weights ``(face_down, waste, blockers)`` and optionally ``talon`` and ``bound``
#: (0 if left out; see :func:`beam.expand_layer`: a bound weight ranks by the full
#: :func:`beam_terms.lower_bound`, at a work of ``beam.BOUND_WORK`` a child).
Ranking = tuple[int, int, int] | tuple[int, int, int, int] | tuple[int, int, int, int, int]
#: The work of a position kept in the next layer, in children generated (:class:`Work`): a
#: least-squares fit of the processor time of 78 beams (widths 64-1024, five weight sets,
#: from the start and the middle of 12 reference deals' lines) to their children and kept
#: positions gave 0.21 and 0.83 microseconds (median error 8%; children alone 10%).
KEPT_WORK = 4
#: A beam's guide: ``(plays, weight)``, the plays ``(card, onto)`` of a line as a
#: ``beam.GUIDE_SHAPE`` array of 0 and 1 (:func:`line_guide`), and the rank a position's path
#: pays for each play not in it (``beam.foreign_play``): the beam follows lines made mostly of
#: that line's plays, in any order.
Guide = tuple[np.ndarray, int]


def line_guide(start: GameState, moves: Sequence[Move]) -> np.ndarray:
    """The plays of the line ``moves`` from ``start`` as a guide's array (:data:`Guide`).

    >>> from klondike_widget.engine.deals import deal
    >>> guide = line_guide(deal(2), [Move.parse("t3-t2")])
    >>> int(guide.sum()), guide.shape
    (1, (52, 54))
    """
    from klondike_widget.solver import beam  # numba: loaded only once shortening runs

    guide = np.zeros(beam.GUIDE_SHAPE, dtype=np.uint8)
    columns = {FOUNDATION: beam.GUIDE_FOUNDATION, EMPTY: beam.GUIDE_EMPTY}
    for card, onto in plays_of(start, moves):
        guide[card, columns.get(onto, onto)] = 1
    return guide


@dataclass
class Work:
    """A budget of beam work and what of it was spent: children generated plus
    :data:`KEPT_WORK` per position kept. Unlike time, the same on every machine and under any
    load: beams bounded by it search the same positions wherever they run.

    >>> work = Work(1000)
    >>> work.left, work.spent
    (1000, 0)
    """

    limit: float
    spent: int = 0

    @property
    def left(self) -> float:
        """The work still allowed."""
        return self.limit - self.spent


def run_beam(
    start: GameState,
    bound: int,
    width: int,
    deadline: float,
    cancel: Callable[[], bool] | None,
    layers: int = MAX_LAYERS,
    *,
    weights: Ranking = (2, 1, 2),
    salt: int = 0,
    spread: int = 0,
    clock: Callable[[], float] = time.perf_counter,
    work: Work | None = None,
    guide: Guide | None = None,
) -> list[int] | None:
    """The search moves of a win cheaper than ``bound`` engine moves found by one beam, or None.

    ``weights`` rank its positions (:func:`beam.expand_layer`); ``salt`` (not 0) adds the hashed
    tie-break of :data:`NOISE`; ``spread`` (not 0) keeps at most that many children of one
    position in the next layer; no layer starts that would end past ``deadline`` by ``clock``
    (none at all if :func:`beam_terms.lower_bound` leaves no win cheaper than ``bound``),
    nor one that would take more than the ``work`` left (the last layer's work is the
    estimate), and the layers' work is added to ``work.spent``.
    """
    from klondike_widget.solver import beam, beam_terms, core  # numba: loaded once shortening runs

    S = encode_state(start, dominances=1)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    g0 = beam.root_autos(S, H)
    if core.is_won(S):
        return [] if g0 < bound else None
    if g0 + beam_terms.lower_bound(S) >= bound:
        return None  # no win from here is cheaper than the bound
    layer = beam_layer(S[None, :], H[None, :], np.array([g0], dtype=np.int32))
    layers = min(layers, bound)
    slots = 1 << max(16, int(2 * width * layers).bit_length())
    seen = np.zeros((slots, 2), dtype=np.uint64)
    cand = _scratch(width * core.MAXM)
    talon, bound_weight = (*weights[3:], 0, 0)[:2]
    plays, guide_weight = guide if guide is not None else (beam.UNGUIDED, 0)
    ranking = np.array(
        [*weights[:3], NOISE if salt else 0, salt, spread, talon, bound_weight, guide_weight],
        dtype=np.int64,
    )
    best = np.array([bound, -1, -1, 0, 0], dtype=np.int64)
    parents: list[np.ndarray] = []
    codes: list[np.ndarray] = []
    win = (-1, -1, -1)  # the layer, parent index and move code of the cheapest win
    nb = 1
    step = 0.0  # the time of the last layer: no layer starts that would end past the deadline
    effort = 0  # the last layer's work: no layer starts that would take more than is left
    # two layers' arrays, used by turns (fresh arrays each layer would cost page faults)
    spare = _layer_arrays(width)
    for depth in range(layers):
        now = clock()
        if nb == 0 or now + step >= deadline or (cancel is not None and cancel()):
            break
        if work is not None and effort >= work.left:
            break
        nxt = spare
        found, children = int(best[0]), int(best[4])
        nb = beam.expand_layer(layer, nxt, seen, cand, nb, ranking, best, plays)
        effort = int(best[4]) - children + KEPT_WORK * nb
        if work is not None:
            work.spent += effort
        if best[0] < found:
            win = (depth, int(best[1]), int(best[2]))
        parents.append(nxt[3][:nb].copy())
        codes.append(nxt[4][:nb].copy())
        # the root layer (one position) is too small to take turns
        spare = _layer_arrays(width) if depth == 0 else (*layer, nxt[3], nxt[4])
        layer = nxt[:3]
        step = clock() - now
    return None if win[0] < 0 else _trace(win, parents, codes)


def checked_line(start: GameState, codes: list[int]) -> tuple[Move, ...] | None:
    """The engine moves of a beam's search moves ``codes`` from ``start``, or None if the
    engine does not agree that they are legal and win."""
    from klondike_widget.solver import beam, core  # numba: loaded only once shortening runs

    S = encode_state(start, dominances=1)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    out = np.zeros(len(codes) * (beam.MAX_AUTOS + 1) + beam.MAX_AUTOS, dtype=np.int32)
    n = beam.replay_codes(S, H, np.array(codes, dtype=np.int32), out)
    try:
        state, played = engine_line(start, out[:n].tolist())
    except (IllegalMoveError, AssertionError, ValueError):
        return None
    return played if state.is_won else None


def beam_layer(S: np.ndarray, H: np.ndarray, g: np.ndarray) -> Layer:
    """A beam layer (:func:`beam.expand_layer`) of the core's positions ``S`` (one a row),
    their hash words ``H`` (the first ``beam.HW`` are kept) and engine moves spent ``g``; each
    position gets the beam's own word (``beam.O_FOREIGN``), at 0."""
    from klondike_widget.solver import beam  # numba: loaded only once shortening runs

    positions = np.zeros((S.shape[0], beam.BEAM_S_SIZE), dtype=np.int32)
    positions[:, : S.shape[1]] = S
    return positions, H[:, : beam.HW].copy(), g


def _layer_arrays(width: int) -> Next:
    """Empty arrays for a beam layer of ``width``: ``(NS, NH, NG, PAR, COD)``
    (:func:`beam.expand_layer`)."""
    from klondike_widget.solver import beam  # numba: loaded only once shortening runs

    return (
        np.empty((width, beam.BEAM_S_SIZE), dtype=np.int32),
        np.empty((width, beam.HW), dtype=np.uint64),
        np.empty(width, dtype=np.int32),
        np.empty(width, dtype=np.int32),
        np.empty(width, dtype=np.int32),
    )


def _scratch(size: int) -> Candidates:
    """The candidates' scratch arrays of :func:`beam.expand_layer` for ``size`` moves."""
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


_COMPILE_LOCK = threading.Lock()
_COMPILED = threading.Event()


def prepare_shortening() -> None:
    """Load (or compile) the beam's compiled functions once per process, before a clock starts."""
    if _COMPILED.is_set():
        return
    with _COMPILE_LOCK:
        if not _COMPILED.is_set():
            from klondike_widget.engine.deals import deal

            run_beam(deal(2), 200, 4, time.perf_counter() + 1e9, None, layers=3)
            checked_line(deal(2), [])
            _COMPILED.set()
