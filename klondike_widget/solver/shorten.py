"""Shorter winning lines: :func:`shorten` and the length of a line in engine moves.

A line found by the depth-first search is the first win it stumbles on, often with many more
stock taps than needed. :func:`shorten` spends a bounded extra budget on a cost-ordered beam
search (:mod:`klondike_widget.solver.beam`) that counts engine moves (every tap and recycle), with
the found line's length as its bound, widening the beam while time is left. Whatever it finds is
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
#: The first beam's width; each next one is up to 4 times wider, as wide as should finish in
#: the time left (the time grows about linearly with the width); a beam that runs out of time
#: keeps the best win it found so far.
FIRST_WIDTH = 64
#: The widest beam.
MAX_WIDTH = 32768
#: The endings of the line that wider beams then try to shorten (shares of its length).
TAIL_SHARES = (0.5, 0.75, 0.25)
#: The share of the time left that the next beam's width is sized for.
GROWTH_SHARE = 0.7
#: Weight of each face-down card in the beam's ranking (steers towards progress).
FD_WEIGHT = 2
#: Weight of the waste's cards (:func:`beam.waste_debt`) in the beam's ranking.
WASTE_WEIGHT = 1
#: Weight of the cards lying above a lower card of their suit (:func:`beam.blockers`).
BLOCK_WEIGHT = 1
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
        The budget (wall time); the beam widens while time is left.
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
    deadline = time.perf_counter() + SAFETY * seconds
    width = FIRST_WIDTH
    done, spent = 0, 0.0  # the widest beam that ran to its end, and its time
    while True:
        now = time.perf_counter()
        if now >= deadline or (cancel is not None and cancel()):
            break
        codes = _beam(start, len(best), width, deadline, cancel)
        spent = time.perf_counter() - now
        done = width
        if codes is not None:
            line = _checked_line(start, codes)
            if line is not None and len(line) < len(best):
                best = line
        # the next beam as wide as the time left allows (the time grows with the width)
        left = deadline - time.perf_counter()
        fit = int(width * GROWTH_SHARE * left / max(spent, 1e-3))
        if width >= MAX_WIDTH or fit < 3 * width // 2:
            break  # no wider beam would finish in time
        width = min(MAX_WIDTH, 4 * width, fit)
    if done == 0:
        return best
    return _refine_tails(start, best, done, spent, deadline, cancel)


def _refine_tails(
    start: GameState,
    best: tuple[Move, ...],
    width: int,
    spent: float,
    deadline: float,
    cancel: Callable[[], bool] | None,
) -> tuple[Move, ...]:
    """Spend the time left on wider beams from positions along ``best`` (its second half, then
    its last three quarters, ...), splicing in any shorter ending they find."""
    for share in TAIL_SHARES:
        left = deadline - time.perf_counter()
        if left <= 0 or (cancel is not None and cancel()):
            break
        cut = len(best) - int(len(best) * share)
        # the beam's time grows with its width and its number of layers
        tail_width = int(width * GROWTH_SHARE * left / max(spent, 1e-3) / max(share, 0.1))
        if tail_width < width:
            continue
        states = Line(start, best).states()
        codes = _beam(states[cut], len(best) - cut, min(tail_width, MAX_WIDTH), deadline, cancel)
        if codes is not None:
            tail = _checked_line(states[cut], codes)
            if tail is not None and cut + len(tail) < len(best):
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
) -> list[int] | None:
    """The search moves of a win cheaper than ``bound`` engine moves found by one beam, or None."""
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
    cand = width * core.MAXM
    CF = np.empty(cand, dtype=np.int32)
    CG = np.empty(cand, dtype=np.int32)
    CK = np.empty(cand, dtype=np.uint64)
    CP = np.empty(cand, dtype=np.int32)
    CM = np.empty(cand, dtype=np.int32)
    ORD = np.empty(cand, dtype=np.int64)
    best = np.array([bound, -1, -1, 0], dtype=np.int64)
    parents: list[np.ndarray] = []
    codes: list[np.ndarray] = []
    win_layer = -1
    nb = 1
    step = 0.0  # the time of the last layer: no layer starts that would end past the deadline
    for layer in range(layers):
        now = time.perf_counter()
        if nb == 0 or now + step >= deadline or (cancel is not None and cancel()):
            break
        NS = np.empty((width, size), dtype=np.int32)
        NH = np.empty((width, beam.HW), dtype=np.uint64)
        NG = np.empty(width, dtype=np.int32)
        PAR = np.empty(width, dtype=np.int32)
        COD = np.empty(width, dtype=np.int32)
        found = int(best[0])
        nb = beam.expand_layer(
            BS,
            BH,
            BG,
            nb,
            NS,
            NH,
            NG,
            PAR,
            COD,
            SK,
            SG,
            CF,
            CG,
            CK,
            CP,
            CM,
            ORD,
            FD_WEIGHT,
            WASTE_WEIGHT,
            BLOCK_WEIGHT,
            best,
        )
        if best[0] < found:
            win_layer = layer
            win_parent, win_code = int(best[1]), int(best[2])
        parents.append(PAR[:nb].copy())
        codes.append(COD[:nb].copy())
        BS, BH, BG = NS, NH, NG
        step = time.perf_counter() - now
    if win_layer < 0:
        return None
    line = [win_code]
    index = win_parent
    for layer in range(win_layer - 1, -1, -1):
        line.append(int(codes[layer][index]))
        index = int(parents[layer][index])
    line.reverse()
    return line
