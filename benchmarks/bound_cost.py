"""Benchmark of the beam's bound terms: processor nanoseconds a call over many positions.

Usage::

    python benchmarks/bound_cost.py              # 40 deals, 120 mid-game positions, 120 endgames
    python benchmarks/bound_cost.py --repeat 50

Times, in compiled loops over the positions of ``tests/solver``'s ``mixed_positions`` (both
draw modes), :func:`~klondike_widget.solver.beam_terms.card_bound`,
:func:`~klondike_widget.solver.beam_terms.blocker_moves` without and with the crossed columns,
:func:`~klondike_widget.solver.beam_terms.crossed_columns` alone and
:func:`~klondike_widget.solver.beam_terms.lower_bound`, and prints a table of the best of three
runs (the thread's processor time, so that other processes' load counts little). Run it with
``PYTHONPATH`` on another checkout to compare implementations on the same positions.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))

from solver_helpers import mixed_positions

from klondike_widget.solver import beam_terms
from klondike_widget.solver.bridge import encode_state


@njit
def _cheap(S: np.ndarray) -> int:
    return beam_terms.blocker_moves(S, False)


@njit
def _crossed(S: np.ndarray) -> int:
    _, used = beam_terms.talon_detours(S)
    return beam_terms.crossed_columns(S, used, S[beam_terms.O_DRAW] == 1)


def _timed(term: Callable[[np.ndarray], int]) -> Callable[[np.ndarray, int], int]:
    """A compiled loop calling ``term`` on each row of an array ``repeat`` times."""

    @njit
    def loop(positions: np.ndarray, repeat: int) -> int:
        total = 0
        for _ in range(repeat):
            for i in range(positions.shape[0]):
                total += term(positions[i])
        return total

    return loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    states = [
        state
        for draw in (1, 3)
        for state in mixed_positions(draw, 5, range(1, 41), middle=120, ends=120, steps=60)
    ]
    positions = np.array([encode_state(state, dominances=1) for state in states])
    terms = {
        "card_bound": beam_terms.card_bound,
        "blocker_moves(S, False)": _cheap,
        "crossed_columns (and talon_detours)": _crossed,
        "blocker_moves(S)": beam_terms.blocker_moves,
        "lower_bound": beam_terms.lower_bound,
    }
    print(f"{len(positions)} positions, best of 3 runs of {args.repeat} passes")
    print("| term | ns a call (processor) | sum over the positions |")
    print("|---|---|---|")
    for name, term in terms.items():
        loop = _timed(term)
        total = loop(positions, 1)  # compile
        best = float("inf")
        for _ in range(3):
            t0 = time.thread_time()
            loop(positions, args.repeat)
            best = min(best, time.thread_time() - t0)
        ns = best / args.repeat / len(positions) * 1e9
        print(f"| {name} | {ns:.0f} | {total} |")


if __name__ == "__main__":
    main()
