"""Shorter winning lines: :func:`shorten` (lines measured in engine moves, :mod:`.length`).

A line found by the depth-first search is the first win it stumbles on, often with many more
stock taps than needed. :func:`shorten` spends a bounded extra budget on cost-ordered beam
searches (:mod:`klondike_widget.solver.beam`) that count engine moves (every tap and recycle),
each bounded by the shortest line known: a narrow one first, then rounds of beams from the
start that rank positions with different weights (:data:`WEIGHTS`), each round twice as wide,
for a share of the budget (:data:`ROUNDS_SHARE`), then beams from positions along the best line
for a shorter ending (:data:`TAIL_SHARES`), some of them guided by the plays of the best line
(:data:`TAIL_GUIDED_SHARES`); some of the beams keep at most two children of a position per layer
(:data:`ROUND_SPREADS`, :data:`TAIL_SPREADS`), to follow more lines. Every
line a beam finds is replayed through the engine and pooled with the others
(:class:`~klondike_widget.solver.splice.LinePool`): where two lines meet, the shorter way to
the meeting point and the shorter way on are joined. The result is the shortest way through
the pool; last, its moves are tried in other orders (:mod:`.reorder`). The result is always a
winning line no longer than the one given (every move of it was played by the engine).

The budget is a number of seconds, but the schedule counts beam work
(:class:`~klondike_widget.solver.beam_run.Work`: children generated and positions kept),
:data:`WORK_PER_SECOND` a second, so that a deal and a budget give the same line on any
machine and under any load; the clock (:class:`BudgetClock`) is only a hard cap, reached on a
machine much slower or busier than the one the rate was measured on.

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
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from klondike_widget.engine.errors import IllegalMoveError, positive_seconds
from klondike_widget.engine.line import Line
from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.solver import coldstart
from klondike_widget.solver.beam_run import (
    Ranking,
    Work,
    checked_line,
    line_guide,
    prepare_shortening,
    run_beam,
)
from klondike_widget.solver.budget_clock import BudgetClock
from klondike_widget.solver.length import LineLength, line_length
from klondike_widget.solver.reorder import reorder_work, reordered
from klondike_widget.solver.splice import LinePool

__all__ = [
    "DEFAULT_SECONDS",
    "MAX_SECONDS",
    "SEARCH_NODES_PER_SECOND",
    "BudgetClock",
    "LineLength",
    "NotAWinError",
    "check_setting",
    "budget_width",
    "budget_work",
    "line_length",
    "round_spreads",
    "shorten",
    "shorten_budget",
    "shortened",
]

#: The most :func:`shorten` spends by default (seconds).
MAX_SECONDS = 1.0
#: The least the default budget gives (seconds): a search that took no time still gets this.
DEFAULT_SECONDS = 0.3
#: The positions the search (``SolveResult.nodes``: all its orders and its relaxation) visits
#: in a second, to give the default budget (:func:`shorten_budget`) about the search's time.
#: On the reference deals of seeds 1-50 (load 3.5, processor time): 1.05-1.66 M a second
#: over the 12 searches of more than 10,000 positions, median 1.28 M (draw 3 1.05-1.52 M,
#: draw 1 1.66-2.0 M); smaller searches are slower per position but get the least budget.
SEARCH_NODES_PER_SECOND = 1_250_000
#: The first beam's width: a quick shorter line before the rounds below.
FIRST_WIDTH = 64
#: The ranking weights of the beams, ``(face_down, waste, blockers)``
#: (:func:`beam_terms.face_down_count`, :func:`beam_terms.waste_debt`,
#: :func:`beam_terms.blockers`): one beam a set, the first one also the first beam's. No one
#: set finds the shortest line on most deals;
#: the best of several beams does, and sets that leave out the face-down cards (weight 0) find
#: the lines that play a long run of waste cards before turning a card. The order is greedy:
#: on the reference deals of seeds 1-30, one beam of width 512 a set from the start, each
#: bounded by the first line, each next set is the one that shortens the best line of the
#: sets before it most for its time, over both draw modes (best of the first five: 1.012 and
#: 1.004 times Klondike-Solver's mean length in draw 1 and 3; of all twelve at widths 512 and
#: 2048: 1.006 and 0.999).
# fmt: off
WEIGHTS = (
    (0, 1, 2), (0, 2, 0), (3, 2, 2), (1, 1, 0), (0, 0, 1), (0, 0, 0),
    (0, 1, 0), (1, 2, 2), (0, 1, 1), (2, 1, 2), (1, 1, 1), (2, 1, 1),
)
# fmt: on
#: The width of the beams of the first round over :data:`WEIGHTS` at a budget of
#: :data:`MAX_SECONDS` (:func:`budget_width`); each next round is twice as wide (while the
#: work left allows a beam of that width).
ROUND_WIDTH = 512
#: The spreads of each weight set's beams in the rounds, by turns (:func:`run_beam`: 0 keeps any
#: number of a position's children in the next layer, 2 at most two). With (0, 2) here and
#: (2, 0) for :data:`TAIL_SPREADS`: 1.007 and 1.000 times Klondike-Solver's mean length at
#: ``benchmarks/lines.py --seconds 1.0`` (processor time only, load 6-8), without spreads
#: 1.006 and 1.003; spreads only in the tails 1.006 and 1.003, every round beam at spread 2
#: 1.015 and 1.003. One run each: the figures move by a few moves a deal between runs.
ROUND_SPREADS = (0, 2)
#: The spreads of the rounds in draw 3 at :data:`MIN_WIDTH` (budgets below 0.5 s, the default
#: budget of most deals): every beam at spread 2. At the 0.3 s budget on the reference deals
#: of seeds 1-30 (``benchmarks/lines.py --wall-factor 1000``, load 2.5-2.9): draw 3 2327 ->
#: 2318 engine moves (seed 3 119 -> 114, 30 86 -> 83, 27 103 -> 101; 20 stays at 105); in
#: draw 1 3074 -> 3080, hence draw 3 only. On the held-out deals of seeds 31-50 (no
#: Klondike-Solver lines): draw 3 1432 -> 1429, draw 1 1889 -> 1897. Draw-3 rounds at
#: spread 0 alone: 2324 (and 3076 in draw 1).
NARROW_DRAW3_SPREADS = (2,)
#: Unsalted beams from the start before the rounds, ``(weights, spread)``, when the rounds'
#: first width is at least :data:`START_BEAM_WIDTH`: waste-only weights with a spread find the
#: lines that play a long run of waste cards first, which the salted round beams miss (draw 1
#: seed 21 of the reference deals: 131 -> 123 engine moves, Klondike-Solver 122). At
#: ``benchmarks/lines.py --seconds 1.0 --wall-factor 1000`` (load 3-4): draw 1 totals 3081 ->
#: 3076 (seed 9 +2, seed 28 +1), draw 3 2294 unchanged; four such beams ((0, 2, 0) and
#: (0, 1, 0) at spreads 2 and 3) 3075 and 2299; one at the default budget (width 128) 3081 ->
#: 3090, hence the least width.
START_BEAMS: tuple[tuple[Ranking, int], ...] = (((0, 2, 0), 2),)
#: The least width of the rounds at which :data:`START_BEAMS` run (at that width).
START_BEAM_WIDTH = 512
#: Unsalted beams from the start after the rounds, ``(weights, spread, width)`` by draw mode
#: (at budgets of :data:`MAX_SECONDS` and more only: :data:`TALON_BEAM_WIDTH`).
#: Draw 3: a weight on the cards still in the stock and the waste (the fourth,
#: :func:`beam_terms.talon_count`) ranks the openings that play talon cards first above those
#: that turn column cards over. In draw 1 (``benchmarks/lines.py --seconds 1.0``, seeds 1-30,
#: work-counted) it gave 3048 -> 3046 engine moves (seed 8 -2), held-out 1843 -> 1844.
#: Draw 1: (2, 1, -1), the least-squares fit, rounded, of the engine moves a position of
#: Klondike-Solver's draw-1 lines (3065 positions, seeds 1-30) still needs beyond
#: :func:`beam_terms.card_bound`: 1.80 a face-down card, 0.56 a tap of waste debt, -1.11 a
#: blocker (RMSE 9.0 moves, 22.5 without them): the beam ranks by an estimate of the whole
#: line. Alone at width 2048 (``--wall-factor 1000``, ``SAFETY`` 1000): draw 1 3046 -> 3044;
#: in draw 3 2292 -> 2291 but held-out 1408 -> 1410. With one ranked by blockers alone,
#: (0, 0, 1), both at 1024 (the same work; ``--no-cap``): 3044 -> 3041 (seeds 8 -2, 13 -1, 28
#: -1, 18 +1), held-out 1844 unchanged; (0, 0, 1) alone at 2048 3045; 2048 each 3045 (the
#: tails lose work); 2048 and 1024 3044 (held-out 1882); a third at 1024 3042-3045 (1882).
TALON_BEAMS: dict[int, tuple[tuple[Ranking, int, int], ...]] = {
    1: (((2, 1, -1), 0, 1024), ((0, 0, 1), 0, 1024)),
    3: (((0, 1, 2, 1), 0, 2048),),
}
#: :data:`TALON_BEAMS` run if :func:`budget_width` gives this (at :data:`MAX_SECONDS` and more).
TALON_BEAM_WIDTH = 2048
#: The narrowest beams of the rounds and of the tails, whatever the budget.
MIN_WIDTH = 128
#: The widest beam.
MAX_WIDTH = 32768
#: The endings of the line that beams then try to shorten (shares of its length; 1.0 the whole
#: line, from the start), by turns. An odd number of them, so that each ending gets both
#: :data:`TAIL_SPREADS` in turn (with eight, every ending up to 0.4 got spread 0 and every
#: other one spread 2, each time). A ninth (0.95 then) at ``benchmarks/lines.py --seconds
#: 1.0``: draw 1 3048 unchanged, draw 3 2294 -> 2293, held-out 1881 -> 1843 (seed 37 177 ->
#: 138: the rounds found no short line there), 1511 -> 1512. 1.0: :data:`TAIL_GUIDED_SHARES`.
TAIL_SHARES = (0.5, 0.75, 0.25, 0.6, 0.4, 0.9, 0.33, 0.66, 1.0)
#: The spreads of the beams along the line, by turns (:data:`ROUND_SPREADS`).
TAIL_SPREADS = (2, 0)
#: The beams along the line from these shares of it (from its end: the beams from the start
#: and from a tenth into the line) are guided by the plays of the best line's rest
#: (``beam_run.Guide``) at a weight of :data:`TAIL_GUIDE_WEIGHT`: a position ranks up by that
#: much for each play of its path that the rest does not make, so the beam follows lines of
#: mostly the same plays in other orders, with a few others (:mod:`.reorder` moves one play at
#: a time; unguided, a beam from near the start is much like the rounds' beams, which found
#: nothing shorter). At ``benchmarks/lines_variants.py`` (work alone), unguided -> guided:
#: - 1 s: draw 1 3040 -> 3038 engine moves (seeds 5 and 28 at Klondike-Solver's 114 and 109),
#:   draw 3 2292; held-out 1799 -> 1767 (seed 48 144 -> 123, 37 137 -> 126), 1399 -> 1380;
#: - 0.3 s: 3072 -> 3068, 2311 -> 2299; held-out 1862 -> 1778, 1418 -> 1417.
#: Guided from 0.9 and 0.95 (and 0.95 a share, not 1.0): the same but held-out 1779 at 1 s,
#: 2303 and 1782 at 0.3 s; with 0.25 as well: the same; from 0.25 alone: 3040, 2292, 1799,
#: 1399 at 1 s; every other beam, at every share: 3042, 2293, 1826, 1380.
TAIL_GUIDED_SHARES = (0.9, 1.0)
#: The guide weight of the beams of :data:`TAIL_GUIDED_SHARES` (tried from 0.9 and 0.95). At
#: 2: at 1 s 3038, 2292 and held-out 1780; at 0.3 s 3069, 2300 and held-out 1826. At 1 and
#: at 4: 3040 at 1 s.
TAIL_GUIDE_WEIGHT = 3
#: The share of the budget the rounds of beams from the start may take; the rest goes to
#: beams from positions along the line (:func:`_refine_tails`), which also rescue the deals
#: where no narrow beam from the start finds a win (draw 3 seed 28 of the reference deals).
ROUNDS_SHARE = 0.6
#: The share of the budget the beams along the line may take first when the first beam
#: finds no win (then the rounds and the tails go on).
RESCUE_SHARE = 0.25
#: The width of the beams from positions along the line at a budget of :data:`MAX_SECONDS`
#: (:func:`budget_width`; 128 before: 1.008 and 1.003 times Klondike-Solver's mean length at
#: ``benchmarks/lines.py --seconds 1.0``, with 512 1.006 and 1.003).
TAIL_WIDTH = 512
#: The share of the budget the beam may start layers in (the rest covers the last layer and
#: the engine's replay of the line): the hard cap on the clock (:class:`BudgetClock`).
SAFETY = 0.95
#: The beam work (:class:`~klondike_widget.solver.beam_run.Work`) a second of budget buys.
#: The schedule of :func:`shorten` counts work, not time: when it followed the clock, draw 1
#: seed 29 of the reference deals ended at 187 engine moves instead of 164 on a machine 2.2
#: times as slow (or as busy) as an idle one, one beam of the rounds short. The clock only caps
#: the work (at :data:`SAFETY` of the budget). Calibrated on the reference deals (load 2-3):
#: 4.3-6.1 M a processor second; 3.5 M (before :data:`BEAM_WORK`) gave the lines of 4 M in
#: 0.68 s instead of 0.79 s. At 3.7 M: 0.79 s on average at ``--seconds 1.0`` (p95 0.89 s),
#: 0.22 s (p95 0.24 s) at 0.3 s; with the clock running 1.2 times as fast (a slower machine)
#: the 50 lines at 1 s are the same, at 1.5 times two are 1 and 2 moves longer (the cap).
WORK_PER_SECOND = 3_700_000
#: The work a beam costs besides its layers (:class:`Work`), charged as it starts: its arrays,
#: the replay of the best line to its origin, the check of its line and the pool. A fit of
#: the processor time of 91 shortenings of the reference deals (budgets 0.3 and 1 s; 60 beams
#: each) to their work and beams gave 0.20 microseconds a unit of work and 0.80 ms a beam
#: (median error 4%, 5% without the beams; the beams' share is larger at small budgets).
BEAM_WORK = 4_000


class NotAWinError(IllegalMoveError):
    """The moves given to :func:`shorten` do not end in a win."""


def shorten_budget(search_nodes: int) -> float:
    """The default budget for a search of ``search_nodes`` positions: about the time of the
    search itself (:data:`SEARCH_NODES_PER_SECOND`), at least :data:`DEFAULT_SECONDS`, at most
    :data:`MAX_SECONDS`. Counted in positions, not seconds, so that a deal gets the same budget
    (and line) on any machine and under any load.

    >>> shorten_budget(50), shorten_budget(750_000), shorten_budget(30_000_000)
    (0.3, 0.6, 1.0)
    """
    return min(MAX_SECONDS, max(DEFAULT_SECONDS, search_nodes / SEARCH_NODES_PER_SECOND))


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
    search_nodes: int,
    cancel: Callable[[], bool] | None = None,
) -> tuple[tuple[Move, ...], float]:
    """``(line, seconds spent)``: :func:`shorten` as ``solve(..., shorten=setting)`` asks.

    ``True`` gives :func:`shorten_budget` of the positions the search visited
    (``search_nodes``), a number that many seconds, ``False`` the line unchanged.
    """
    check_setting(setting)
    if setting is False or not moves or not coldstart.compiled_now():
        # while the compiled core is still loading (a cold numba cache), the first line is
        # returned as found: shortening would wait for the beam's compile
        return tuple(moves), 0.0
    budget = shorten_budget(search_nodes) if setting is True else float(setting)
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
        The budget: :func:`budget_work` of beam work, then :func:`.reorder.reorder_work` of
        reordering, all within :data:`SAFETY` of it by :class:`BudgetClock` (the thread's
        processor time, at most ``budget_clock.WALL_FACTOR`` times the wall time); beams start while
        they should end within both.
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
    positive_seconds(seconds, "the shortening budget")
    best = tuple(moves)
    if not Line(start, best).is_winning:
        raise NotAWinError("the moves do not end in a win")
    prepare_shortening()
    run = _Runs(start, best, seconds, cancel)
    run.phase(ROUNDS_SHARE)
    run.improve(start, FIRST_WIDTH, WEIGHTS[0], 0)
    if run.best == best:
        # the first beam found no win: the deals where no narrow beam from the start does
        # (draw 3 seed 28 of the reference deals) get a shorter line, and so a tighter bound
        # for the rounds, from beams along the line first
        run.phase(RESCUE_SHARE)
        _refine_tails(run, budget_width(TAIL_WIDTH, seconds))
        run.phase(ROUNDS_SHARE)
    width, salt = budget_width(ROUND_WIDTH, seconds), 1
    for weights, spread in START_BEAMS if width >= START_BEAM_WIDTH else ():
        if not run.fits(width, len(run.best)):
            break
        run.improve(start, width, weights, 0, spread)
    while width <= MAX_WIDTH and run.fits(width, len(run.best)):
        for weights in WEIGHTS:
            for spread in round_spreads(width, start.rules.draw):
                if not run.fits(width, len(run.best)):
                    break
                run.improve(start, width, weights, salt, spread)
                salt += 1
        width *= 2
    run.phase(1.0)
    _talon_beams(run, budget_width(TALON_BEAM_WIDTH, seconds))
    _refine_tails(run, budget_width(TAIL_WIDTH, seconds))
    return reordered(start, run.best, reorder_work(seconds), run.stopped)


def budget_work(seconds: float) -> float:
    """The work (:class:`Work`) :func:`shorten` may spend for a budget of ``seconds``:
    :data:`WORK_PER_SECOND` a second.

    >>> budget_work(1.0) == WORK_PER_SECOND
    True
    """
    return WORK_PER_SECOND * seconds


def round_spreads(width: int, draw: int) -> tuple[int, ...]:
    """The spreads of a round's beams of ``width`` in draw mode ``draw``, by turns:
    :data:`ROUND_SPREADS`, or :data:`NARROW_DRAW3_SPREADS` for draw 3 at :data:`MIN_WIDTH`.

    >>> round_spreads(128, 1), round_spreads(128, 3), round_spreads(512, 3)
    ((0, 2), (2,), (0, 2))
    """
    return NARROW_DRAW3_SPREADS if draw == 3 and width <= MIN_WIDTH else ROUND_SPREADS


def budget_width(width: int, seconds: float) -> int:
    """The beam width for a budget of ``seconds``: ``width`` at :data:`MAX_SECONDS`, a power
    of two in proportion below, at least :data:`MIN_WIDTH`.

    >>> budget_width(512, 1.0), budget_width(512, 0.5), budget_width(512, 0.3)
    (512, 256, 128)
    >>> budget_width(512, 5.0), budget_width(128, 0.01)
    (512, 128)
    """
    share = min(seconds, MAX_SECONDS) / MAX_SECONDS
    return max(MIN_WIDTH, 1 << int(width * share).bit_length() - 1)


class _Runs:
    """The beams of one :func:`shorten`: the shortest line so far, the pool of the lines found
    (:class:`LinePool`, joined where they meet), the work budget (:class:`Work`: the
    schedule's measure, the same on any machine), the clock and its hard cap, the cancel test,
    and the work and time a beam took per unit of width and of bound (to start only beams that
    should end within the work left and the cap)."""

    def __init__(
        self,
        start: GameState,
        best: tuple[Move, ...],
        seconds: float,
        cancel: Callable[[], bool] | None,
    ) -> None:
        self.start = start
        self.best = best
        self.pool = LinePool(start)
        self.pool.add(start, best)
        self.clock = BudgetClock()
        self.cap = SAFETY * seconds
        self.total = budget_work(seconds)
        self.work = Work(self.total)
        self.cancel = cancel
        self.tails: set[tuple[GameState, int, int, int]] = set()  # (origin, bound, width, turn)
        self.rate = 0.0  # work per width and per engine move of the bound, the last beam's
        self.pace = 0.0  # seconds per the same, the last beam's

    def phase(self, share: float) -> None:
        """Let the beams from now on spend up to ``share`` of the work budget (counted from
        the start of :func:`shorten`)."""
        self.work.limit = share * self.total

    def stopped(self) -> bool:
        """True if cancelled or the clock has reached the hard cap (the reordering's test)."""
        return (self.cancel is not None and self.cancel()) or self.clock() >= self.cap

    def fits(self, width: int, bound: int) -> bool:
        """True if a beam of ``width`` under ``bound`` should end within the work left and
        before the cap."""
        if self.cancel is not None and self.cancel():
            return False
        size = width * bound
        work = BEAM_WORK + self.rate * size
        return work < self.work.left and self.clock() + self.pace * size < self.cap

    def improve(
        self,
        origin: GameState,
        width: int,
        weights: Ranking,
        salt: int,
        spread: int = 0,
        guided: int = 0,
    ) -> None:
        """Run one beam from ``origin`` (the start or a position along the best line), bounded
        by the best line's rest from there (and guided by its plays at a weight of ``guided``,
        if not 0); pool what it finds and keep the shortest line."""
        self.work.spent += BEAM_WORK
        rest = self.rest(origin)
        t0, spent = self.clock(), self.work.spent
        codes = run_beam(
            origin,
            len(rest),
            width,
            self.cap,
            self.cancel,
            weights=weights,
            salt=salt,
            spread=spread,
            clock=self.clock,
            work=self.work,
            guide=(line_guide(origin, rest), guided) if guided else None,
        )
        size = width * max(len(rest), 1)
        self.rate = (self.work.spent - spent) / size
        self.pace = (self.clock() - t0) / size
        line = None if codes is None else checked_line(origin, codes)
        if line is None:
            return
        self.pool.add(origin, line)
        spliced = self.pool.shortest()
        if spliced is not None and len(spliced) < len(self.best):
            self.best = spliced

    def rest(self, origin: GameState) -> tuple[Move, ...]:
        """The moves of the best line from its position ``origin`` on."""
        if origin is self.start:
            return self.best
        return self.best[Line(self.start, self.best).states().index(origin) :]


def _talon_beams(run: _Runs, width: int) -> None:
    """Run :data:`TALON_BEAMS` of the deal's draw mode from the start, each at its width, if
    ``width`` is :data:`TALON_BEAM_WIDTH` (a budget of :data:`MAX_SECONDS` or more) and each
    fits in the work left."""
    beams = TALON_BEAMS.get(run.start.rules.draw, ()) if width >= TALON_BEAM_WIDTH else ()
    for weights, spread, beam_width in beams:
        if run.fits(beam_width, len(run.best)):
            run.improve(run.start, beam_width, weights, 0, spread)


def _refine_tails(run: _Runs, width: int = MIN_WIDTH) -> None:
    """Spend the work left on beams of ``width`` from positions along the best line (at the
    shares :data:`TAIL_SHARES` of it from its end, the weight sets, salts and spreads by
    turns, guided from :data:`TAIL_GUIDED_SHARES`), each bounded by the rest of the line from
    there."""
    turn = 0
    while True:
        share = TAIL_SHARES[turn % len(TAIL_SHARES)]
        cut = len(run.best) - int(len(run.best) * share)
        if cut >= len(run.best) or not run.fits(width, len(run.best) - cut):
            return
        origin = Line(run.start, run.best).states()[cut]
        beam = (origin, len(run.best) - cut, width, turn)
        if beam not in run.tails:  # the same beam again would find the same
            run.tails.add(beam)
            spread = TAIL_SPREADS[turn % len(TAIL_SPREADS)]
            guided = TAIL_GUIDE_WEIGHT if share in TAIL_GUIDED_SHARES else 0
            run.improve(origin, width, WEIGHTS[turn % len(WEIGHTS)], turn, spread, guided)
        turn += 1
