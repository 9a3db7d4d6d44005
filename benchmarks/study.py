"""Study throughput: deals per hour per core, and the speed-up from 1 to 2 local workers.

A fixed set of deals whose solves are not trivially short (draw 3, each capped by a node budget so
the work per deal is the same on every run and every executor) is solved with the local process
pool at each worker count. Wall time includes starting the pool and loading the compiled solver
in each worker, as a real study would. Rounds are interleaved and the fastest run of each
configuration is reported. The machine's load average is printed before and after:
other processes on a 2-core machine lower the 2-worker speed-up. ``busy`` is the share of the
workers' wall time spent inside the solver (sum of solve times / (wall time x workers)): what is
not busy is pool start-up, loading the compiled core, messaging and the uneven tail.
``worker cpu s`` is the CPU time the worker processes used (start-up included): equal CPU time at
1 and 2 workers with no wall-time gain means the cores were taken by other processes.

Usage::

    python benchmarks/study.py                      # default set, workers 1 and 2
    python benchmarks/study.py --workers 1,2 --nodes 1500000 --deals 2,6,8,12
    python benchmarks/study.py --dask               # also the same on a Dask LocalCluster
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import time

from klondike_widget.engine.deals import parse_deal_numbers
from klondike_widget.study import run_study

# Draw-3 deals the 10-second study of 2026-11-30 left unknown: each runs into the node cap or
# takes seconds to decide, so process start-up and messaging do not dominate the timing.
DEFAULT_DEALS = "12,22,25,68,98,130,141,144,156,161,199,221,254,290,294,306"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--draw", type=int, choices=(1, 3), default=3)
    parser.add_argument("--deals", default=DEFAULT_DEALS)
    parser.add_argument("--nodes", type=int, default=1_500_000, help="node budget per solve")
    parser.add_argument("--seconds", type=float, default=120.0, help="time budget per solve")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare")
    parser.add_argument("--dask", action="store_true", help="also run on a Dask LocalCluster")
    parser.add_argument(
        "--repeat", type=int, default=2, help="rounds (interleaved); the fastest of each counts"
    )
    args = parser.parse_args()
    deals = parse_deal_numbers(args.deals)
    counts = [int(w) for w in args.workers.split(",")]

    print(
        f"{len(deals)} deals, draw {args.draw}, budget {args.nodes:,} nodes / {args.seconds:g} s "
        f"per solve, second check (no foundation-to-column) on; cpus {os.cpu_count()}, "
        f"load average before {os.getloadavg()[0]:.2f}"
    )
    best: dict[tuple[str, int], tuple[float, float, float, dict[int, str]]] = {}
    configs = [
        (e, w) for e in (["processes", "dask"] if args.dask else ["processes"]) for w in counts
    ]
    for _ in range(args.repeat):
        for executor, w in configs:
            cpu0 = _children_cpu()
            t0 = time.perf_counter()
            res = run_study(
                deals,
                draw=args.draw,
                seconds=args.seconds,
                nodes=args.nodes,
                workers=w,
                dask="local" if executor == "dask" else None,
                progress=False,
            )
            wall = time.perf_counter() - t0
            while multiprocessing.active_children():  # reap the workers to count their CPU
                time.sleep(0.05)
            cpu = _children_cpu() - cpu0
            solve_s = sum(r.seconds + (r.seconds_no_f2t or 0.0) for r in res.results)
            verdicts = {r.deal: r.verdict for r in res.results}
            if (executor, w) not in best or wall < best[executor, w][0]:
                best[executor, w] = (wall, solve_s, cpu, verdicts)
    runs = [(e, w, *best[e, w]) for e, w in configs]

    base = runs[0][2]
    header = (
        f"{'executor':<10} {'workers':>7} {'wall s':>8} {'solve s':>8} {'deals/h':>9} "
        f"{'deals/h/core':>13} {'speed-up':>9} {'busy':>6} {'worker cpu s':>13}"
    )
    print(header)
    print("-" * len(header))
    for executor, w, wall, solve_s, cpu, _ in runs:
        per_hour = len(deals) * 3600 / wall
        print(
            f"{executor:<10} {w:>7} {wall:>8.1f} {solve_s:>8.1f} {per_hour:>9.0f} "
            f"{per_hour / w:>13.0f} {base / wall:>8.2f}x {solve_s / (wall * w):>6.0%} {cpu:>13.1f}"
        )
    same = all(r[5] == runs[0][5] for r in runs)
    verdicts = sorted(runs[0][5].values())
    print(
        f"verdicts identical across runs: {same}; "
        + ", ".join(f"{v} {verdicts.count(v)}" for v in ("won", "lost", "unknown"))
    )
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
