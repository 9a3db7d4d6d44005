"""Where a shortening beam's time goes: nanoseconds per child, phase by phase.

Usage::

    python benchmarks/beam_profile.py                  # draw 1 seed 21, width 1024
    python benchmarks/beam_profile.py --seed 3 --draw 3 --width 2048

Runs one beam of :mod:`klondike_widget.solver.beam` from a reference deal (bounded by our first
line), keeps every layer's positions, then replays the expansion of all of them in compiled
loops that each do one more phase than the last (copy the parent, generate its moves, do and
undo each, its automatic moves, the bound and the win test, the key, the rank). The differences
are each phase's cost; the whole ``expand_layer`` (with the keep step) is timed beside them.
Prints a table of nanoseconds per child (processor time of this thread, best of ``--repeat``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver_helpers import reference_deals, reference_state

from klondike_widget.solver import Limit, core, solve
from klondike_widget.solver import beam as bm
from klondike_widget.solver import beam_terms as terms
from klondike_widget.solver.beam_run import NOISE, _layer_arrays, _scratch, beam_layer
from klondike_widget.solver.bridge import encode_state

#: The phases, each doing everything the one before it does and one thing more.
PHASES = ("copy parent (its cards)", "gen_moves", "do/undo", "autos", "bound + won", "key", "rank")


@njit(cache=False, nogil=True)
def _phases(BS: np.ndarray, BH: np.ndarray, upto: int, ranking: np.ndarray) -> int:
    """Expand every position of ``BS`` doing phases ``0..upto``; return the children (and a
    checksum folded in, so that nothing is optimised away)."""
    S, H, AUM, AUU = bm.work_arrays(BS.shape[1])
    out = np.empty(core.MAXM, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    per_column = np.zeros(core.NCOL, dtype=np.int64)
    children = 0
    check = 0
    for i in range(BS.shape[0]):
        bm.copy_position(S, BS[i])
        H[:] = BH[i]
        total = 0
        if upto >= 6:
            for col in range(core.NCOL):
                per_column[col] = terms.column_blockers(S, col)
                total += per_column[col]
        if upto < 1:
            check += S[0]
            continue
        n = min(core.gen_moves(S, out, mark, True), core.MAXM)
        children += n
        if upto < 2:
            continue
        for j in range(n):
            m = out[j] & 0xFFFFFF
            c = bm.move_cost(S, m)
            u = core.do_move(S, H, m)
            aun = 0
            if upto >= 3:
                aun = bm.column_autos(S, H, AUM, AUU, 0)
            if upto >= 4:
                check += core.is_won(S) + terms.card_bound(S) + c
            if upto >= 5:
                key = bm.pos_key(S, H)
                check += np.int64(key & np.uint64(1))
                if upto >= 6:
                    blocking = terms.child_blockers(S, m, total, per_column)
                    check += bm._rank(S, c, key, ranking, blocking)
            while aun > 0:
                aun -= 1
                core.undo_move(S, H, AUM[aun], AUU[aun])
            core.undo_move(S, H, m, u)
    return children + (check & 0)


def collect_layers(
    start: object, bound: int, width: int, ranking: np.ndarray
) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray]], list[float], int]:
    """Run one beam like ``beam_run.run_beam`` (no clock); return its layers, the processor
    seconds of its ``expand_layer`` calls and the children they generated."""
    S = encode_state(start, dominances=1)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    g0 = bm.root_autos(S, H)
    layer = beam_layer(S[None, :], H[None, :], np.array([g0], dtype=np.int32))
    slots = 1 << max(16, int(2 * width * bound).bit_length())
    seen = np.zeros((slots, 2), dtype=np.uint64)
    cand = _scratch(width * core.MAXM)
    best = np.array([bound, -1, -1, 0, 0], dtype=np.int64)
    layers = [layer]
    nb = 1
    spent = [0.0, 0.0]
    spare = (_layer_arrays(width), _layer_arrays(width))  # reused, as run_beam does
    for depth in range(bound):
        nxt = spare[depth % 2]
        t0 = time.thread_time()
        nc = bm._candidates(layer, cand, nb, ranking, best, bm.UNGUIDED)
        t1 = time.thread_time()
        nb = bm._keep_cheapest(layer, nxt, seen, cand, nc, best, ranking, bm.UNGUIDED)
        spent[0] += t1 - t0
        spent[1] += time.thread_time() - t1
        if nb == 0:
            break
        layer = (nxt[0][:nb].copy(), nxt[1][:nb].copy(), nxt[2][:nb].copy())
        layers.append(layer)
    return layers, spent, int(best[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--draw", type=int, default=1)
    parser.add_argument("--width", type=int, default=1024)
    parser.add_argument("--weights", type=int, nargs=3, default=(0, 1, 2))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    record = next(r for r in reference_deals() if r["seed"] == args.seed and r["draw"] == args.draw)
    start = reference_state(record)
    first = solve(start, Limit(seconds=60))
    ranking = np.array([*args.weights, NOISE, 1, 0, 0, 0, 0], dtype=np.int64)
    collect_layers(start, 5, 8, ranking)  # compile
    layers, spent, cost = collect_layers(start, len(first.moves), args.width, ranking)
    BS = np.concatenate([x[0] for x in layers])
    BH = np.concatenate([x[1] for x in layers])
    children = _phases(BS[:2], BH[:2], 6, ranking)
    for upto in range(len(PHASES)):
        _phases(BS[:2], BH[:2], upto, ranking)  # compile each path once
    times = []
    for upto in range(len(PHASES)):
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.thread_time()
            children = _phases(BS, BH, upto, ranking)
            best = min(best, time.thread_time() - t0)
        times.append(best)
    print(
        f"seed {args.seed} draw {args.draw}, width {args.width}, weights {tuple(args.weights)}: "
        f"{len(layers)} layers, {BS.shape[0]} positions, {children} children, "
        f"first line {len(first.moves)}, beam's win {cost}"
    )
    print("| phase | ns per child | cumulative ns per child | share of expand_layer |")
    print("|---|---|---|---|")
    whole = sum(spent) / children * 1e9
    previous = 0.0
    for name, t in zip(PHASES, times, strict=True):
        per = t / children * 1e9
        print(f"| {name} | {per - previous:.0f} | {per:.0f} | {(per - previous) / whole:.0%} |")
        previous = per
    keep = spent[1] / children * 1e9
    print(
        f"| candidates: the rest | {whole - keep - previous:.0f} | {whole - keep:.0f} | "
        f"{(whole - keep - previous) / whole:.0%} |"
    )
    print(f"| keep step | {keep:.0f} | {whole:.0f} | {keep / whole:.0%} |")
    print(f"expand_layer: {sum(spent):.3f} s CPU for {children} children")


if __name__ == "__main__":
    main()
