"""Move generation, part by part: ``core_profile.py --part movegen``.

On positions sampled from real searches (:func:`core_profile.sample`), each part of
``gen_abstract`` (what a search's ``gen_moves`` runs: twin classes are on by default) is
called on every position, ``--repeat`` times over the sample, in compiled loops built as the
core is (``_nrt=False``: with numba's runtime on, each call passing an array would pay a
reference count the search does not). A part that needs the column tops marked runs between
``mark_landings`` and ``unmark_tops``, whose own cost is subtracted; the part of each position
that is used is first copied into one working array, as hot in the cache as the search's (the
sample itself is megabytes: run in place, every part would pay cache misses the search does
not), and that copy, timed alone, is subtracted from every row. Each row is the least of
``TRIALS`` timings, taken in turn with the other rows', so a busy moment of the machine hits
one trial, not one row. The harness is not cached on disk: a cached caller keeps a copy of the
core functions it was compiled with.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from klondike_widget.solver import core
from klondike_widget.solver.core.movegen import (
    _abstract_reveals,
    _abstract_to_foundations,
    _from_foundations,
)
from klondike_widget.solver.core.talon_moves import (
    abstract_talon_moves,
    last_talon_card_first,
    reach_mask,
)
from klondike_widget.solver.core.targets import mark_landings, unmark_tops

#: The rows: (name, part code of :func:`_run_part`, whether the tops' cost is subtracted).
PARTS = (
    ("gen_moves (whole call)", 1, False),
    ("column tops: mark_landings + unmark_tops", 2, False),
    ("column/swap to foundation", 3, True),
    ("talon, all of it (abstract_talon_moves)", 4, True),
    ("  of which reach_mask", 5, False),
    ("  of which last_talon_card_first", 6, False),
    ("reveals (root runs onto columns)", 7, True),
    ("foundation to column", 8, True),
    ("all parts, no sort (tops included)", 9, False),
)

_JIT = {"nogil": True, "_nrt": False}


@njit(**_JIT)
def _load(SS: np.ndarray, i: int, S: np.ndarray) -> None:
    """Copy what position ``i`` uses into ``S``: the cards of each column, then everything after
    the columns (a few hundred bytes of the 1.7 kB a whole copy would take, so its cost, which
    every row subtracts, stays small beside the parts)."""
    for c in range(core.NCOL):
        base = core.O_COLS + c * core.CAP
        for k in range(SS[i, core.O_LEN + c]):
            S[base + k] = SS[i, base + k]
    for k in range(core.O_LEN, S.shape[0]):
        S[k] = SS[i, k]


@njit(**_JIT)
def _run_part(
    SS: np.ndarray, S: np.ndarray, out: np.ndarray, mark: np.ndarray, part: int, repeat: int
) -> int:
    """Copy each sampled position into ``S`` and run ``part`` on it (0: the copy alone)."""
    total = 0
    for _ in range(repeat):
        for i in range(SS.shape[0]):
            _load(SS, i, S)
            if part == 1:
                total += core.gen_moves(S, out, mark, True)
            elif part == 5:
                total += reach_mask(S, True) & 1
            elif part == 6:
                total += last_talon_card_first(S)
            elif part >= 2:
                first_empty, landing = mark_landings(S, mark)
                n = 0
                if part == 3 or part == 9:
                    n = _abstract_to_foundations(S, out, n, mark)
                if part == 4 or part == 9:
                    n = abstract_talon_moves(S, out, n, mark, first_empty, landing)
                if part == 7 or part == 9:
                    n = _abstract_reveals(S, out, n, mark, first_empty, landing)
                if part == 8 or part == 9:
                    n = _from_foundations(S, out, n, mark, first_empty, True, True, landing)
                unmark_tops(S, mark)
                total += n
    return total


@njit(**_JIT)
def _count_moves(SS: np.ndarray, out: np.ndarray, mark: np.ndarray, counts: np.ndarray) -> None:
    """Per position sampled: how many moves ``gen_moves`` writes (capped at ``MAXM``)."""
    for i in range(SS.shape[0]):
        counts[i] = min(core.gen_moves(SS[i], out, mark, True), core.MAXM)


#: Timings of each part; the least is kept (short trials, many of them: on a shared machine
#: some run without another process in between; use a small ``--repeat``, 2 to 5).
TRIALS = 25


def _cpu_per_call(SS: np.ndarray, part: int, repeat: int) -> float:
    """CPU seconds per position of part ``part`` (the copy included)."""
    S = np.zeros(SS.shape[1], dtype=np.int32)
    out = np.zeros(core.MAXM, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    t = time.process_time()
    _run_part(SS, S, out, mark, part, repeat)
    return (time.process_time() - t) / (SS.shape[0] * repeat)


def movegen_table(SS: np.ndarray, repeat: int) -> list[tuple[str, float]]:
    """Rows (name, ns per position) of the breakdown, on the sampled positions ``SS``."""
    codes = [0, *(part for _, part, _ in PARTS)]
    _cpu_per_call(SS[:1], 0, 1)  # compiled before timing
    best = dict.fromkeys(codes, float("inf"))
    for _ in range(TRIALS):
        for part in codes:
            best[part] = min(best[part], _cpu_per_call(SS, part, repeat))
    loop = best[0]  # the copy
    tops = best[2] - loop
    rows = []
    for name, part, minus_tops in PARTS:
        t = best[part] - loop - (tops if minus_tops else 0.0)
        rows.append((name, t * 1e9))
    whole = rows[0][1]
    no_sort = rows[-1][1]
    rows.append(("sort + call (whole - all parts)", whole - no_sort))
    return rows


def print_movegen(draw: int, SS: np.ndarray, repeat: int) -> None:
    """Print the breakdown of one draw mode's sample."""
    counts = np.zeros(SS.shape[0], dtype=np.int64)
    out = np.zeros(core.MAXM, dtype=np.int32)
    _count_moves(SS, out, np.zeros(core.SCR_SIZE, dtype=np.int32), counts)
    talon = SS[:, core.O_TN]
    print(
        f"\ndraw {draw}: gen_moves on {SS.shape[0]:,} sampled positions x {repeat}; "
        f"{counts.mean():.2f} moves each (<= 1: {np.mean(counts <= 1):.0%}); "
        f"talon {talon.mean():.1f} cards"
    )
    rows = movegen_table(SS, repeat)
    whole = rows[0][1]
    print(f"| {'part':<44} | ns/call | share |")
    print(f"|{'-' * 46}|---------|-------|")
    for name, ns in rows:
        print(f"| {name:<44} | {ns:>7.1f} | {100 * ns / whole:>4.0f}% |")
