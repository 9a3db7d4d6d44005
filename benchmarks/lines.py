"""Benchmark of line lengths: our first and shortened lines beside Klondike-Solver's.

Usage::

    python benchmarks/lines.py                 # the default budget (about the search's time)
    python benchmarks/lines.py --seconds 1.0   # a fixed shortening budget per deal
    python benchmarks/lines.py --wall-factor 1000  # count processor time only (a busy machine)
    python benchmarks/lines.py --fresh 50      # also: Finish from fresh deals 1-50
    python benchmarks/lines.py --held-out      # the deals of seeds 31-50 instead (no KS lines)
    python benchmarks/lines.py --no-cap        # lengths from the work counted alone (any load)

Over the won reference deals of seeds 1-30 (``tests/data/klondike-solver-lines-1-30.jsonl``, a
copy of ``shared/reference/klondike-solver-lines-1-30.jsonl``: Klondike-Solver's minimal
solutions replayed through our engine), prints per draw mode the mean
length in engine moves (every tap and recycle counts), taps and recycles of our line as the
search found it, of the shortened line and of Klondike-Solver's, the ratio of the shortened mean
to Klondike-Solver's, the seconds spent shortening (wall: mean, p95, max; the thread's processor
time: mean, p95, max; the budget counts work and caps it at 0.95 of its seconds of processor
time, so a max below that means the clock cut no deal's schedule short: their lines are a
function of the deal and the budget alone) and how long a Finish of the shortened line plays
at the default pace (mean, max), and the shortened lines' total (Klondike-Solver's beside it).
Every line is replayed through the engine.

``--held-out`` measures the reference deals of seeds 31-50 instead (:data:`HELD_OUT`: every one
our search wins; Klondike-Solver has no lines of them), on which the shortening schedule was not
tuned: a change that shortens the lines of seeds 1-30 must not lengthen these.

``--no-cap`` lifts the clock's hard cap (``shorten.SAFETY``): the schedule counts work, so the
lines are then the same at any load (the processor time may pass the budget on a busy machine).
Comparisons of schedules use it; the default measures what a user gets.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from statistics import mean
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver_helpers import reference_deals, reference_state

from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import Line
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import Limit, Status, budget_clock, hint, solve, warm_up
from klondike_widget.solver import shorten as shorten_module
from klondike_widget.solver.shorten import LineLength, line_length, shortened
from klondike_widget.widget.pace import finish_seconds

ROOT = Path(__file__).resolve().parents[1]
KS_LINES = ROOT / "tests" / "data" / "klondike-solver-lines-1-30.jsonl"
#: The held-out reference deals' seeds (no Klondike-Solver lines; the schedule was tuned on 1-30).
HELD_OUT = range(31, 51)


def chosen(record: dict[str, Any], draw: int, ks: dict[Any, Any], held_out: bool) -> bool:
    """True if the reference ``record`` is measured in draw mode ``draw``: by default those of
    seeds 1-30 with a Klondike-Solver line in ``ks``, with ``held_out`` every one of
    :data:`HELD_OUT` (those the search does not win are left out later).

    >>> ks = {(2, 1): {}}
    >>> [chosen({"seed": s, "draw": 1}, 1, ks, h) for s, h in ((2, False), (3, False), (33, True))]
    [True, False, True]
    >>> chosen({"seed": 2, "draw": 1}, 1, ks, True), chosen({"seed": 33, "draw": 3}, 1, ks, True)
    (False, False)
    """
    if record["draw"] != draw:
        return False
    if held_out:
        return record["seed"] in HELD_OUT
    return (record["seed"], draw) in ks


def set_clock(wall_factor: float, no_cap: bool) -> None:
    """Set the shortening clock's :data:`~budget_clock.WALL_FACTOR` and, with ``no_cap``, lift
    its hard cap (:data:`~shorten.SAFETY` infinite: the beams stop on work alone)."""
    budget_clock.WALL_FACTOR = wall_factor
    if no_cap:
        shorten_module.SAFETY = float("inf")


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
    parser.add_argument(
        "--wall-factor",
        type=float,
        default=budget_clock.WALL_FACTOR,
        help="a budget ends at this many times its wall time at the latest (a shared machine)",
    )
    parser.add_argument(
        "--held-out", action="store_true", help="the deals of seeds 31-50 (no KS lines) instead"
    )
    parser.add_argument(
        "--fresh", type=int, default=0, help="also time Finish (hint) from this many fresh deals"
    )
    parser.add_argument(
        "--no-cap", action="store_true", help="no hard cap on the clock: lines from work alone"
    )
    args = parser.parse_args()
    set_clock(args.wall_factor, args.no_cap)
    ks = {(r["seed"], r["draw"]): r for r in map(json.loads, args.ks.read_text().splitlines())}
    warm_up()
    setting: bool | float = True if args.seconds is None else args.seconds
    budget = "default (search positions, 0.3-1 s)" if args.seconds is None else args.seconds
    print(f"shortening budget: {budget}")
    print(
        "| draw | deals | first line: moves / taps / rec | shortened: moves / taps / rec | "
        "Klondike-Solver: moves / taps / rec | short/KS | shorten s mean | p95 | max | "
        "CPU s mean | p95 | max | Finish s mean | max | total (KS) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for draw in (1, 3):
        first: list[LineLength] = []
        short: list[LineLength] = []
        theirs: list[LineLength] = []
        spent: list[float] = []
        cpu: list[float] = []
        finish: list[float] = []
        for record in reference_deals():
            if not chosen(record, draw, ks, args.held_out):
                continue
            ref = ks.get((record["seed"], draw))
            state = reference_state(record)
            result = solve(state, Limit(seconds=60))
            if result.status is not Status.WON:
                print(f"seed {record['seed']} draw {draw}: {result.status.value}", file=sys.stderr)
                continue
            # shortened as solve(..., shorten=setting) does it, timed here on both clocks
            cpu0, wall0 = time.thread_time(), time.perf_counter()
            moves, _ = shortened(state, result.moves, setting, result.nodes)
            cpu.append(time.thread_time() - cpu0)
            spent.append(time.perf_counter() - wall0)
            if not Line(state, moves).is_winning or len(moves) > len(result.moves):
                raise AssertionError(f"seed {record['seed']}: the shortened line does not win")
            if ref is not None:
                if not Line.parse(ref["line"], state).is_winning:
                    raise AssertionError(f"seed {record['seed']}: KS's line does not win")
                theirs.append(line_length(ref["line"].split()))
            first.append(result.length)
            short.append(line_length(moves))
            finish.append(finish_seconds(state, moves))
            if args.verbose:
                print(
                    f"  seed {record['seed']:>2}: {first[-1].moves:>4} -> {short[-1].moves:>4}"
                    f" (KS {theirs[-1].moves if ref else '-':>4}) in {spent[-1]:.2f} s"
                    f" ({cpu[-1]:.2f} s CPU), Finish {finish[-1]:.1f} s",
                    file=sys.stderr,
                )
        total = sum(x.moves for x in short)
        if theirs:
            ratio = f"{mean(x.moves for x in short) / mean(x.moves for x in theirs):.3f}"
            ks_total = f"{total} ({sum(x.moves for x in theirs)})"
        else:
            ratio, ks_total = "-", f"{total} (-)"
        print(
            f"| {draw} | {len(short)} | {means(first)} | {means(short)} | "
            f"{means(theirs) if theirs else '-'} | {ratio} | {mean(spent):.3f} | "
            f"{pct(spent, 0.95):.3f} | {max(spent):.3f} | {mean(cpu):.3f} | {pct(cpu, 0.95):.3f} | "
            f"{max(cpu):.3f} | {mean(finish):.1f} | {max(finish):.1f} | {ks_total} |"
        )
    if args.fresh:
        fresh_finish(args.fresh)


def fresh_finish(count: int) -> None:
    """Print how long a Finish (the widget's hint line, shortened by default) plays at the
    default pace from fresh numbered deals 1..``count`` in each draw mode."""
    print(f"\nFinish from fresh deals 1-{count} at the default pace (300 ms):")
    print("| draw | won | line moves mean | max | Finish s mean | max | hint s mean | max |")
    print("|---|---|---|---|---|---|---|---|")
    for draw in (1, 3):
        plays: list[float] = []
        lengths: list[int] = []
        waits: list[float] = []
        for number in range(1, count + 1):
            state = deal(number, Rules(draw=draw))
            t0 = time.perf_counter()
            result = hint(state, Limit(seconds=10))
            if result.status is not Status.WON:
                continue
            waits.append(time.perf_counter() - t0)
            if not Line(state, result.moves).is_winning:
                raise AssertionError(f"deal {number}: the hint line does not win")
            plays.append(finish_seconds(state, result.moves))
            lengths.append(len(result.moves))
        print(
            f"| {draw} | {len(plays)} | {mean(lengths):.1f} | {max(lengths)} | "
            f"{mean(plays):.1f} | {max(plays):.1f} | {mean(waits):.2f} | {max(waits):.2f} |"
        )


if __name__ == "__main__":
    main()
