"""Budget stops on numbered deals: a solve stopped by its budget must prove nothing.

Usage::

    python benchmarks/budget_stops.py --numbered 1-1000 --draws 1,3 --stops 3

Each deal is solved to the end (positions only, no clock), then again, stopped by ``--stops``
budgets of positions below the full solve's count (the same for the same deal and seed): one
drawn from the whole range, the others from its last fifth, where a lost deal's first move
order is exhausted while the orders that joined it on its table still search (the windows in
which ``api._result`` reported LOST until December 2026: numbered draw-1 deal 3598, which is
won, at 115,000 of its 120,658 positions). Each stopped solve must be UNKNOWN, or, if it
reaches a verdict within its budget, the full solve's after as many positions
(``solver_helpers.stopped_solves``: the turns are counted in positions, so it has followed the
same search). Prints a table per draw mode; any wrong stop is printed, and the exit status is 1.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz_cases import Case
from solver_helpers import stopped_solves

from klondike_widget.engine.deals import deal, parse_deal_numbers
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import Limit, Status, solve, warm_up


def budgets(total: int, stops: int, rng: random.Random) -> list[int]:
    """``stops`` budgets below ``total`` positions: one from the whole range, the others from
    its last fifth (none if ``total`` is 1).

    >>> budgets(100, 3, random.Random(1))
    [18, 98, 82]
    >>> budgets(2, 2, random.Random(1)), budgets(1, 3, random.Random(1))
    ([1, 1], [])
    """
    if total <= 1 or stops <= 0:
        return []
    tail = min(total - 1, total - total // 5)  # (at least 1, as total > 1)
    return [rng.randrange(1, total)] + [rng.randrange(tail, total) for _ in range(stops - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--numbered", default="1-300", help="numbered deals, e.g. 1-1000,4000")
    parser.add_argument("--draws", default="1,3")
    parser.add_argument("--stops", type=int, default=3, help="stopped solves per deal")
    parser.add_argument("--nodes", type=int, default=50_000_000, help="the full solve's cap")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    numbers = parse_deal_numbers(args.numbered)
    warm_up()
    wrong = 0
    print("| draw | deals | won | lost | undecided | stops | stops decided | stops wrong |")
    print("|------|-------|-----|------|-----------|-------|---------------|-------------|")
    for draw in (int(d) for d in args.draws.split(",")):
        c = Counter[str]()
        for n in numbers:
            case = Case(deal(n, Rules(draw=draw)), "numbered", None)
            full = solve(case.state, Limit(nodes=args.nodes, seconds=None))
            c[full.status.value] += 1
            if full.status is Status.UNKNOWN:
                continue
            rng = random.Random(f"{args.seed}/{draw}/{n}")
            got = stopped_solves(
                case, (full.status.value, full.nodes), budgets(full.nodes, args.stops, rng)
            )
            c.update(got)
            if got["stops_wrong"]:
                print(f"WRONG: draw {draw} deal {n} ({full.status.value}, {full.nodes}): {got}")
        wrong += c["stops_wrong"]
        print(
            f"| {draw:>4} | {len(numbers):>5} | {c['won']:>3} | {c['lost']:>4} | "
            f"{c['unknown']:>9} | {c['stops']:>5} | {c['stops_decided']:>13} | "
            f"{c['stops_wrong']:>11} |",
            flush=True,
        )
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
