"""Positions per CPU second of searches whose transposition table is large, tree against tree.

A search of millions of positions probes a table of hundreds of MiB, where nearly every probe
misses the caches; the fresh deals of ``benchmarks/solver.py`` mostly stay in small tables.
This runs numbered deals (draw 3 by default: 1862 is lost at 12,098,856 positions, its table
2**24 rows at 0.70 load at the end) with ``api.solve`` in a fresh process per run, each source
tree in turn (``--trees``, e.g. a worktree of main and a branch), ``--rounds`` times, and prints
each run's positions, CPU seconds (the process's, after ``warm_up``) and peak RSS, then the median
per tree and deal with its ratio to the first tree. Node counts and verdicts must agree between
the trees; a difference is printed as an error.

Run: ``python benchmarks/big_table.py --trees /work/main /work/wt-x --deals 1862:3 --rounds 3``
(each tree's numba cache is compiled first, outside the timed part). ``--nodes N`` stops each
search after ``N`` positions.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

#: Runs in the child process (argv: number, draw, nodes or 0): one search, one JSON line.
CHILD = """
import json, resource, sys, time
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.shuffle import deal
from klondike_widget.solver import api
number, draw, nodes = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
api.warm_up()
state = deal(number, Rules(draw=draw))
t0 = time.process_time()
r = api.solve(state, api.Limit(seconds=None, nodes=nodes or None))
cpu = time.process_time() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(json.dumps({"verdict": r.status.name, "nodes": r.nodes, "cpu": cpu, "rss": rss}))
"""


def run_one(tree: str, number: int, draw: int, nodes: int) -> dict[str, object]:
    """One search in a fresh process on the sources of ``tree``; its JSON record."""
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(number), str(draw), str(nodes)],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    record: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return record


def parse_deals(text: str) -> list[tuple[int, int]]:
    """``"1862:3,4658"`` -> ``[(1862, 3), (4658, 3)]`` (draw 3 unless given).

    >>> parse_deals("1862:3,17:1,4658")
    [(1862, 3), (17, 1), (4658, 3)]
    """
    deals = []
    for item in text.split(","):
        number, _, draw = item.partition(":")
        deals.append((int(number), int(draw or 3)))
    return deals


def main() -> None:
    """Run the searches alternating the trees and print the runs and the medians."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", nargs="+", required=True, help="source trees (PYTHONPATH)")
    ap.add_argument("--deals", default="1862:3", help="numbered deals, number[:draw],...")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--nodes", type=int, default=0, help="positions per search (0: no limit)")
    args = ap.parse_args()
    deals = parse_deals(args.deals)
    for tree in args.trees:  # compile outside the timed runs
        subprocess.run(
            [sys.executable, "-c", "from klondike_widget.solver import warm_up; warm_up()"],
            cwd=tree,
            env=dict(os.environ, PYTHONPATH=tree),
            check=True,
        )
    cpu: dict[tuple[str, int, int], list[float]] = {}
    seen: dict[tuple[int, int], tuple[object, object]] = {}
    print(
        f"{'round':>5} {'tree':<24} {'deal':>9} {'verdict':<8} {'positions':>12} "
        f"{'CPU s':>7} {'M/s':>6} {'RSS MiB':>8}"
    )
    for rnd in range(args.rounds):
        for number, draw in deals:
            for tree in args.trees:
                r = run_one(tree, number, draw, args.nodes)
                t = float(r["cpu"])  # type: ignore[arg-type]
                n = int(r["nodes"])  # type: ignore[call-overload]
                cpu.setdefault((tree, number, draw), []).append(t)
                outcome = (r["verdict"], n)
                if seen.setdefault((number, draw), outcome) != outcome:
                    print(
                        f"ERROR: {tree} {number}:{draw} gave {outcome}, not {seen[(number, draw)]}"
                    )
                print(
                    f"{rnd:>5} {os.path.basename(tree):<24} {number:>7}:{draw} {r['verdict']:<8} "
                    f"{n:>12,} {t:>7.2f} {n / t / 1e6:>6.3f} {r['rss']:>8}",
                    flush=True,
                )
    print("\nmedian CPU s (ratio to the first tree)")
    for number, draw in deals:
        first = statistics.median(cpu[(args.trees[0], number, draw)])
        cells = []
        for tree in args.trees:
            m = statistics.median(cpu[(tree, number, draw)])
            cells.append(f"{os.path.basename(tree)} {m:.2f} ({m / first:.3f})")
        print(f"{number}:{draw}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
