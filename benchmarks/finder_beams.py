"""What the finder's beams save (``klondike_widget.solver.finder``): schedules ranked by CPU.

Usage::

    python benchmarks/finder_beams.py --numbered 1-5000 --draws 3 --out d3.jsonl
    python benchmarks/finder_beams.py --load d3.jsonl --draws 3
    python benchmarks/finder_beams.py --fresh 100 --fresh-seed 8

1. Each deal (foundation-to-column moves allowed) is solved without finder beams, 10 s each:
   its positions and the solving thread's CPU seconds.
2. From the start of each deal that passes ``--min-positions``, one beam of each width and set
   of weights runs alone: whether it wins, and its CPU seconds.
3. For each schedule (today's :data:`~klondike_widget.solver.finder.FINDER_BEAMS`, each beam
   alone at each threshold, and each added to today's), the CPU the deals would take. A deal
   that a beam of the schedule wins after ``P`` positions costs its search's CPU scaled to
   ``P`` (a search's time is near proportional to its positions) plus the beams run until
   then; any other deal costs its CPU plus every beam due before it was decided.

The schedules are printed best first. A beam's result depends only on the deal, so step 2 is
the same on every machine; its times are not.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

WEIGHTS = ((1, 1, 0), (1, 2, 1), (2, 1, 2), (1, 1, 0, 1), (2, 1, 0))
WIDTHS = (256, 1024)
#: Positions after which a beam may be due (not below ``--min-positions``: shorter deals have
#: no beams measured, and the schedules would not charge them).
THRESHOLDS = (50_000, 100_000, 200_000, 300_000, 500_000, 1_000_000, 1_500_000)
Beam = tuple[int, int, tuple[int, ...]]


def _key(width: int, weights: tuple[int, ...]) -> str:
    return f"{width}:{','.join(map(str, weights))}"


def measure(numbers: list[int], draw: int, min_positions: int) -> list[dict]:
    """Steps 1 and 2 for the deals ``numbers`` in ``draw`` (one record a deal)."""
    from klondike_widget.engine.deals import deal
    from klondike_widget.engine.rules import Rules
    from klondike_widget.solver import Limit, finder, solve, warm_up
    from klondike_widget.solver.beam_run import run_beam
    from klondike_widget.solver.finder import FINDER_BOUND

    warm_up()
    finder.FINDER_BEAMS = {1: (), 3: ()}
    records = []
    for number in numbers:
        state = deal(number, Rules(draw=draw, foundation_to_tableau=True))
        c0 = time.thread_time()
        result = solve(state, Limit(seconds=10), shorten=False)
        record = {"deal": number, "draw": draw, "status": result.status.value}
        record.update(nodes=result.nodes, cpu=time.thread_time() - c0, beams={})
        if result.nodes >= min_positions:
            for weights in WEIGHTS:
                for width in WIDTHS:
                    c0 = time.thread_time()
                    won = run_beam(state, FINDER_BOUND, width, float("inf"), None, weights=weights)
                    seconds = time.thread_time() - c0
                    record["beams"][_key(width, weights)] = [won is not None, seconds]
        records.append(record)
    return records


def cost(records: list[dict], schedule: tuple[Beam, ...]) -> tuple[float, int]:
    """Step 3: the deals' CPU seconds under ``schedule``, and the deals its beams win."""
    total, wins = 0.0, 0
    for r in records:
        spent, won_at = 0.0, None
        for positions, width, weights in schedule:
            if r["nodes"] <= positions or _key(width, weights) not in r["beams"]:
                break
            won, seconds = r["beams"][_key(width, weights)]
            spent += seconds
            if won:
                won_at = positions
                break
        search = r["cpu"] if won_at is None else r["cpu"] * won_at / r["nodes"]
        total += search + spent
        wins += won_at is not None
    return total, wins


def table(records: list[dict], current: tuple[Beam, ...]) -> str:
    """Today's schedule, none, every single beam, and every beam added to today's, best first."""
    rows: list[tuple[float, int, tuple[Beam, ...]]] = []
    beams = [(p, w, ws) for p in THRESHOLDS for w in WIDTHS for ws in WEIGHTS]
    candidates = [(), current, *((b,) for b in beams)]
    candidates += [tuple(sorted((*current, b))) for b in beams]
    for schedule in dict.fromkeys(candidates):
        rows.append((*cost(records, schedule), schedule))
    rows.sort(key=lambda row: row[0])
    lines = ["| schedule | CPU s | beam wins |", "|---|---|---|"]
    for seconds, wins, schedule in rows[:12] + [r for r in rows[12:] if r[2] in ((), current)]:
        mark = " (today)" if schedule == current else ""
        lines.append(f"| {list(schedule)}{mark} | {seconds:.2f} | {wins} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--numbered", default="1-100", help="numbered deals, e.g. 1-5000")
    parser.add_argument("--fresh", type=int, default=0, help="N fresh deals")
    parser.add_argument("--fresh-seed", type=int, default=1)
    parser.add_argument("--draws", default="1,3")
    parser.add_argument("--min-positions", type=int, default=50_000)
    parser.add_argument("--out", type=Path, help="write the records (JSON lines)")
    parser.add_argument("--load", type=Path, help="read records written by --out instead")
    args = parser.parse_args()
    from klondike_widget.engine.deals import parse_deal_numbers
    from klondike_widget.solver.finder import FINDER_BEAMS

    if args.load:
        records = [json.loads(line) for line in args.load.read_text().splitlines()]
    else:
        import side_by_side

        if args.fresh:
            numbers = side_by_side.fresh_deal_numbers(args.fresh, args.fresh_seed)
        else:
            numbers = parse_deal_numbers(args.numbered)
        draws = [int(d) for d in args.draws.split(",")]
        records = [r for d in draws for r in measure(numbers, d, args.min_positions)]
        if args.out:
            args.out.write_text("".join(json.dumps(r) + "\n" for r in records))
    for draw in sorted({r["draw"] for r in records}):
        mine = [r for r in records if r["draw"] == draw]
        print(f"\ndraw {draw}: {len(mine)} deals, {sum(1 for r in mine if r['beams'])} beamed")
        print(table(mine, FINDER_BEAMS[draw]))


if __name__ == "__main__":
    main()
