"""Benchmark of line lengths: our first and shortened lines beside Klondike-Solver's.

Usage::

    python benchmarks/lines.py                 # the default budget (about the search's time)
    python benchmarks/lines.py --seconds 1.0   # a fixed shortening budget per deal

Over the won reference deals of seeds 1-30 (``shared/reference/klondike-solver-lines-1-30.jsonl``,
Klondike-Solver's minimal solutions replayed through our engine), prints per draw mode the mean
length in engine moves (every tap and recycle counts), taps and recycles of our line as the
search found it, of the shortened line and of Klondike-Solver's, the ratio of the shortened mean
to Klondike-Solver's, the seconds spent shortening (mean, p95, max) and how long a Finish of the
shortened line plays at the default pace (mean, max). Every line is replayed through the engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver_helpers import reference_deals, reference_state

from klondike_widget.engine.line import Line
from klondike_widget.solver import Limit, Status, solve, warm_up
from klondike_widget.solver.shorten import LineLength, line_length
from klondike_widget.widget.pace import finish_seconds

ROOT = Path(__file__).resolve().parents[1]
KS_LINES = ROOT.parent.parent / "shared" / "reference" / "klondike-solver-lines-1-30.jsonl"


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def means(lengths: list[LineLength]) -> str:
    """``moves / taps / recycles`` means."""
    return (
        f"{mean(x.moves for x in lengths):6.1f} / {mean(x.taps for x in lengths):5.1f} / "
        f"{mean(x.recycles for x in lengths):4.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=None, help="shortening budget")
    parser.add_argument("--ks", type=Path, default=KS_LINES, help="Klondike-Solver's lines")
    parser.add_argument("-v", "--verbose", action="store_true", help="one row per deal")
    args = parser.parse_args()
    ks = {(r["seed"], r["draw"]): r for r in map(json.loads, args.ks.read_text().splitlines())}
    warm_up()
    setting: bool | float = True if args.seconds is None else args.seconds
    budget = "default (about the search time, 0.3-1 s)" if args.seconds is None else args.seconds
    print(f"shortening budget: {budget}")
    print(
        "| draw | deals | first line: moves / taps / rec | shortened: moves / taps / rec | "
        "Klondike-Solver: moves / taps / rec | short/KS | shorten s mean | p95 | max | "
        "Finish s mean | max |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for draw in (1, 3):
        first: list[LineLength] = []
        short: list[LineLength] = []
        theirs: list[LineLength] = []
        spent: list[float] = []
        finish: list[float] = []
        for record in reference_deals():
            ref = ks.get((record["seed"], draw))
            if record["draw"] != draw or ref is None:
                continue
            state = reference_state(record)
            result = solve(state, Limit(seconds=60), shorten=setting)
            if result.status is not Status.WON:
                print(f"seed {record['seed']} draw {draw}: {result.status.value}", file=sys.stderr)
                continue
            if not Line(state, result.moves).is_winning:
                raise AssertionError(f"seed {record['seed']}: the shortened line does not win")
            if not Line.parse(ref["line"], state).is_winning:
                raise AssertionError(f"seed {record['seed']}: Klondike-Solver's line does not win")
            first.append(result.extra["first_length"])
            short.append(result.length)
            theirs.append(line_length(ref["line"].split()))
            spent.append(result.extra["shorten_seconds"])
            finish.append(finish_seconds(state, result.moves))
            if args.verbose:
                print(
                    f"  seed {record['seed']:>2}: {first[-1].moves:>4} -> {short[-1].moves:>4}"
                    f" (KS {theirs[-1].moves:>4}) in {spent[-1]:.2f} s, Finish {finish[-1]:.1f} s",
                    file=sys.stderr,
                )
        ratio = mean(x.moves for x in short) / mean(x.moves for x in theirs)
        print(
            f"| {draw} | {len(short)} | {means(first)} | {means(short)} | {means(theirs)} | "
            f"{ratio:.3f} | {mean(spent):.3f} | {pct(spent, 0.95):.3f} | {max(spent):.3f} | "
            f"{mean(finish):.1f} | {max(finish):.1f} |"
        )


if __name__ == "__main__":
    main()
