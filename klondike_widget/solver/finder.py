"""Beams that look for a win beside the depth-first search of a long solve.

Depth-first search has a heavy tail on won deals: a wrong choice near the root is searched to
its end before the next one is tried. Numbered draw-3 deal 2464 (foundation-to-column moves
allowed) is won, but the first order searches 17.09 M positions before it finds the win, 17.08
M of them under the first of the root's four moves; the second order alone needs 19.34 M, the
two together (:func:`~.turns.take_turns`) 18.04 M. A cost-ordered beam (:mod:`.beam`), which
ranks the positions of each layer by progress, is not caught there: one of width 1024 with
the ranking weights ``(1, 1, 0)`` finds a win of 2464 in 0.07 s.

So a solve that is still undecided after a schedule's positions runs a beam
(:class:`WinFinder`, :data:`FINDER_BEAMS`, one schedule per draw mode). A beam's win is a win:
its line is replayed through the engine (:func:`~.beam_run.checked_line`) before it is
returned. A beam that finds none proves nothing, and the searches go on; what it cost is its
time. The schedule counts the searches' positions in whole turns (:data:`~.drive.TURN_NODES`;
the pieces of a turn follow the clock), and a beam's work depends only on the position, so
verdicts and node counts stay the same on every machine.

>>> [(positions, width) for positions, width, _ in FINDER_BEAMS[3]]  # short solves run none
[(100000, 256), (1500000, 1024)]
"""

from __future__ import annotations

from collections.abc import Callable

from klondike_widget.engine.moves import Move
from klondike_widget.engine.state import GameState
from klondike_widget.solver import coldstart
from klondike_widget.solver.beam_run import Ranking, Work, checked_line, run_beam

__all__ = ["FINDER_BEAMS", "FINDER_BOUND", "Schedule", "WinFinder"]

#: A finder's schedule: ``(positions, width, weights)`` for each beam, in order.
Schedule = tuple[tuple[int, int, Ranking], ...]

#: By draw mode, the finder's schedule: a beam of ``width`` with the ranking ``weights``
#: (:func:`~.beam_run.run_beam`) runs once the searches of the solve have searched
#: ``positions`` in all without a decision. Numbered deals 1-5000, 10 s each, with the CPU
#: seconds each schedule would take (``benchmarks/finder_beams.py``, which counts the beams'
#: own cost on every deal that runs them):
#:
#: - **Draw 3:** a beam of width 256 (about 0.01 s) after 100,000 positions, and one of
#:   width 1024 (about 0.04 s) after 1.5 M.
#:   - No beam: 161.1 s. The second beam alone (the schedule until December 2026): 146.7 s,
#:     8 deals won by it (586, 978, 2464, 3039, 3054, 3141, 3230, 4409).
#:   - Both: 138.3 s, 56 deals won by a beam.
#:   - The first beam with the weights ``(2, 1, 0)``, ``(2, 1, 2)`` or ``(1, 1, 0)`` instead:
#:     139.0, 139.9 and 140.0 s. After 50,000 positions: 138.0 s. A third beam (width 1024,
#:     ``(1, 2, 1)``, after 500,000 positions): 137.9 s.
#:   - A beam of width 4096 after 4 M positions decided none, and cost each of the 14 deals
#:     that pass 4 M about 0.4 CPU s.
#: - **Draw 1:** a beam of width 256 with the weights ``(2, 1, 0)`` after 500,000 positions.
#:   - No beam: 46.8 s; this one: 45.4 s, 3 deals won by it.
#:   - Nearly all of the gain is one deal: 3964, which the search wins after 3.82 M
#:     positions (2.04 s).
#:   - After 300,000 positions: 45.3 s. Later is preferred, because a deal that passes
#:     500,000 positions takes at least 0.18 s, so the beam's 0.008 s costs it at most 4%.
FINDER_BEAMS: dict[int, Schedule] = {
    1: ((500_000, 256, (2, 1, 0)),),
    3: ((100_000, 256, (1, 2, 1)), (1_500_000, 1024, (1, 1, 0))),
}
#: The most engine moves a finder's line may take (taps and recycles counted). Lines of the
#: depth-first search are longer than the shortest, but a beam's line ranks progress first.
FINDER_BOUND = 500


class WinFinder:
    """The finder beams of one solve (:data:`FINDER_BEAMS`), from position ``state``.

    ``cancel`` and ``deadline`` (a ``time.perf_counter()`` reading) stop a beam between its
    layers; ``schedule`` replaces the draw mode's :data:`FINDER_BEAMS`. :attr:`line` is the
    engine-checked winning line once a beam has found one; :attr:`work` the beams' work
    (:class:`~.beam_run.Work`).
    """

    def __init__(
        self,
        state: GameState,
        cancel: Callable[[], bool] | None = None,
        deadline: float = float("inf"),
        schedule: Schedule | None = None,
    ) -> None:
        self.state = state
        self.cancel = cancel
        self.deadline = deadline
        self.schedule = FINDER_BEAMS[state.rules.draw] if schedule is None else schedule
        self.beams = 0
        self.work = Work(float("inf"))
        self.line: tuple[Move, ...] | None = None

    def found(self, positions: int) -> bool:
        """Run the next beam if it is due after ``positions`` searched (never while the compiled
        core is still loading: the beam would wait for its compile); True if it found a win
        (then :attr:`line` holds it)."""
        if self.beams >= len(self.schedule) or positions < self.schedule[self.beams][0]:
            return False
        if not coldstart.compiled_now():
            return False
        _, width, weights = self.schedule[self.beams]
        self.beams += 1
        codes = run_beam(
            self.state,
            FINDER_BOUND,
            width,
            self.deadline,
            self.cancel,
            weights=weights,
            work=self.work,
        )
        if codes is not None:
            self.line = checked_line(self.state, codes)
        return self.line is not None
