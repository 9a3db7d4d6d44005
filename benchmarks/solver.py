"""Benchmark of the solver: reference deals, mid-game positions, speed and start-up time.

Usage::

    python benchmarks/solver.py                      # 60 s a deal, all 50 reference deals
    python benchmarks/solver.py --seconds 5 --deals 20 --midgame 100
    python benchmarks/solver.py --fresh 100 --fresh-seed 1 --seconds 10 --lonelybot PATH
    python benchmarks/solver.py --fresh 300 --fresh-seed 31-33 --seconds 10 --lonelybot PATH
    python benchmarks/solver.py --numbered 1-5000 --draws 3 --seconds 10 --per-deal

Prints, per draw mode, a table over the reference deals (``shared/reference``): won / lost /
unknown, agreement with Solvitaire, decided %, mean / median / p90 / p99 / max seconds, nodes per
second and peak memory (wall seconds, and the solving thread's CPU seconds: on a shared
machine the two differ; CPU means of the whole call, the won lines' replay included, nodes per
CPU second of the search alone, ``extra["search_cpu_seconds"]``); then the same for positions
sampled along random play ("Finish from here"); then the compiled speed, the first call with a
warm numba cache and the cold compile time (each in a fresh interpreter).

Side by side (``--fresh N`` or ``--numbered RANGE``, ``benchmarks/side_by_side.py``): instead of the
above, solve a set of fresh deals (``--fresh N``: N deal numbers drawn with ``--fresh-seed`` from
2**40 up, which the project has never seen, N of each seed when ``--fresh-seed`` names several,
such as ``31-33``; the same deals in each draw mode) or numbered deals
(``--numbered 1-5000``), with foundation-to-column moves allowed, at ``--seconds`` each. With
``--lonelybot PATH`` (a ``lonely_anchor`` binary built from github vuonghy2442/lonelybot by
``../shared/anchors/build-lonelybot.sh``; never required, never downloaded) lonelybot solves each
deal right after ours with the same budget. Prints per draw mode: verdicts, total wall and CPU
seconds, median, our nodes against lonelybot's expanded and visited states, their rates per CPU
second, peak memory and the ratio ours/lonelybot; then the issue's summary table (total per draw
mode, decided, median; in wall and in CPU seconds), the deals where our node count is furthest above
lonelybot's expanded states, and our slowest deals. ``--per-deal`` prints a line per deal with both
figures, ``--out FILE`` appends a JSON record per deal. ``--clock cpu`` gives each solver
``--seconds`` of its own CPU time instead of wall time (on a busy machine a wall budget measures the
load). Any deal where the two verdicts differ is printed and makes the exit status 1.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import mean, median

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import side_by_side
from solver_helpers import midgame_positions, reference_deals, reference_state

from klondike_widget.engine.deals import parse_deal_numbers
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, SolveResult, Status, solve, warm_up


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def row(label: str, results: list[SolveResult], agree: str = "") -> str:
    """One table row."""
    n = len(results)
    won = sum(r.status is Status.WON for r in results)
    lost = sum(r.status is Status.LOST for r in results)
    unk = n - won - lost
    secs = [r.seconds for r in results]
    cpu = [r.extra["cpu_seconds"] for r in results]
    nodes = sum(r.nodes for r in results)
    search_cpu = max(sum(r.extra["search_cpu_seconds"] for r in results), 1e-9)
    rate = nodes / search_cpu
    visit_rate = sum(r.extra["visits"] for r in results) / search_cpu
    peak = max(r.peak_memory for r in results) / 2**20
    return (
        f"| {label:<16} | {n:>4} | {won:>4} | {lost:>4} | {unk:>4} | {agree:>9} | "
        f"{100 * (won + lost) / n:>6.1f} | {mean(secs):>7.3f} | {median(secs):>7.3f} | "
        f"{pct(secs, 0.90):>7.3f} | {pct(secs, 0.95):>7.3f} | {pct(secs, 0.99):>7.3f} | "
        f"{max(secs):>7.2f} | {mean(cpu):>7.3f} | {pct(cpu, 0.99):>7.3f} | "
        f"{rate / 1e3:>8.0f}k | {visit_rate / 1e3:>8.0f}k | {peak:>7.0f} |"
    )


HEADER = (
    "| set              |    n |  won | lost |  unk | agree/SV  | decid% |    mean |  median |"
    "     p90 |     p95 |     p99 |     max | cpumean |  cpup99 | nod/srchs | vis/srchs |"
    " peakMiB |\n"
    "|------------------|------|------|------|------|-----------|--------|---------|---------|"
    "---------|---------|---------|---------|---------|---------|-----------|-----------|"
    "---------|"
)

#: Printed under the table: which CPU seconds are which.
NOTE = (
    "cpumean / cpup99: CPU seconds of the whole solve call (a won line's replay included); "
    "nod/srchs: positions per CPU second of the search alone (new to the table); vis/srchs: "
    "children visited per CPU second of the search alone (every move taken, new to the table or "
    "not, as lonelybot counts its visits)."
)


def run_reference(
    draw: int,
    seconds: float,
    seeds: set[int],
    verbose: bool,
    nodes: int | None = None,
    clock: str = "wall",
) -> str:
    """Solve the reference deals of one draw mode whose seed is in ``seeds``; return the row."""
    results: list[SolveResult] = []
    agree = disagree = 0
    for record in reference_deals():
        if record["draw"] != draw or record["seed"] not in seeds:
            continue
        state = reference_state(record)
        if clock == "wall":
            result = solve(state, Limit(seconds=seconds, nodes=nodes))
        else:  # the reference deals allow foundation-to-column moves, as solve_ours does
            result = side_by_side.solve_ours(state, seconds, clock, nodes)
        results.append(result)
        verdict = record["verdict"]
        if verdict != "unknown" and result.status is not Status.UNKNOWN:
            if result.status.value == verdict:
                agree += 1
            else:
                disagree += 1
        if verbose:
            print(
                f"  draw {draw} seed {record['seed']:>2}: {result.status.value:<7} "
                f"(Solvitaire {verdict:<7}) {result.seconds:7.2f} s "
                f"{result.extra['cpu_seconds']:7.2f} cpu-s {result.nodes:>11,} nodes"
                + (
                    "  (by the draw-1 relaxation)"
                    if result.extra.get("proof") == "draw-1 relaxation"
                    else ""
                )
                + (
                    "   <-- DISAGREES"
                    if result.status.value not in (verdict, "unknown") and verdict != "unknown"
                    else ""
                ),
                flush=True,
            )
    return row(f"reference draw {draw}", results, f"{agree}/{agree + disagree}")


def run_midgame(draw: int, count: int, seconds: float) -> str:
    """Solve positions sampled along random play; return the table row."""
    states: list[GameState] = midgame_positions(count, seed=100 + draw, draw=draw)
    results = [solve(s, Limit(seconds=seconds)) for s in states]
    return row(f"midgame draw {draw}", results)


def fresh_interpreter_seconds(code: str, env: dict[str, str]) -> float:
    """Run ``code`` in a new Python; it prints one float, which is returned."""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    return float(out.stdout.strip().splitlines()[-1])


def run_side_by_side(args: argparse.Namespace, draws: list[int]) -> int:
    """The side-by-side mode (see the module docstring); returns the exit status."""
    if args.lonelybot and not os.access(args.lonelybot, os.X_OK):
        raise SystemExit(f"--lonelybot {args.lonelybot}: not an executable file")
    if args.fresh:
        seeds = parse_deal_numbers(args.fresh_seed)
        if not seeds:
            raise SystemExit(f"--fresh-seed {args.fresh_seed!r}: no seed")
        numbers = side_by_side.pooled_fresh_numbers(args.fresh, seeds)
        each = " each" if len(seeds) > 1 else ""
        what = f"{args.fresh} fresh deals{each} (seed {args.fresh_seed}: {len(numbers)} deals)"
    else:
        numbers = parse_deal_numbers(args.numbered)
        what = f"numbered deals {args.numbered}"
    warm_up()
    by_draw = {
        draw: side_by_side.run_deals(
            numbers,
            draw,
            args.seconds,
            args.lonelybot or None,
            args.per_deal,
            args.out,
            args.clock,
        )
        for draw in draws
    }
    against = " against lonelybot" if args.lonelybot else ""
    print(
        f"\n{what}{against}, budget {args.seconds:g} {args.clock} s each, "
        f"foundation-to-column moves allowed; seconds are wall time, cpu the solving "
        f"thread's (ours) or process's (lonelybot); expanded: our nodes, lonelybot's unique "
        f"states; visited: every child visited, new to the table or not (our visits, "
        f"lonelybot's visits).\n"
    )
    print(side_by_side.solver_table(by_draw))
    print()
    print(side_by_side.issue_table(by_draw, "wall"))
    print()
    print(side_by_side.issue_table(by_draw, "cpu"))
    print(f"\nour peak resident memory (whole process): {side_by_side.process_peak_mib():.0f} MiB")
    for draw, runs in by_draw.items():
        if args.lonelybot:
            print(f"\ndraw {draw}: our nodes furthest above lonelybot's states")
            print(side_by_side.worst_work(runs))
            print(f"\ndraw {draw}: where lonelybot gains the most time on us (both decided)")
            print(side_by_side.largest_gaps(runs, clock=args.clock))
        print(f"\ndraw {draw}: ours, slowest deals")
        print(side_by_side.slowest(runs))
    disagreements = [r for runs in by_draw.values() for r in runs if r.disagrees()]
    for r in disagreements:
        print(r.line())
    return 1 if disagreements else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="budget per reference deal")
    parser.add_argument(
        "--deals", default="50", help="reference seeds 1..N, or a comma-separated list of seeds"
    )
    parser.add_argument(
        "--nodes",
        type=int,
        default=None,
        help="also a budget in positions per reference deal (verdicts and node counts then "
        "do not depend on the machine's speed, if --seconds is generous)",
    )
    parser.add_argument("--midgame", type=int, default=200, help="mid-game positions per mode")
    parser.add_argument("--midgame-seconds", type=float, default=10.0)
    parser.add_argument("--draws", default="1,3")
    parser.add_argument("--quiet", action="store_true", help="no per-deal lines")
    parser.add_argument(
        "--no-extras", action="store_true", help="only the tables (no speed and start-up runs)"
    )
    parser.add_argument("--fresh", type=int, default=0, help="side by side on N fresh deals")
    parser.add_argument(
        "--fresh-seed", default="1", help="seed of the fresh deals, or seeds: 31-33 pools N each"
    )
    parser.add_argument("--numbered", default="", help="side by side on numbered deals: 1-5000")
    parser.add_argument("--lonelybot", default="", help="path of a lonely_anchor binary")
    parser.add_argument("--per-deal", action="store_true", help="a line per deal (side by side)")
    parser.add_argument("--out", type=Path, help="append a JSON record per deal (side by side)")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="--seconds of wall time (default) or of each solver's own CPU time (reference "
        "deals and side by side)",
    )
    args = parser.parse_args()
    draws = [int(d) for d in args.draws.split(",")]
    if args.fresh or args.numbered:
        sys.exit(run_side_by_side(args, draws))
    if "," in args.deals:
        seeds = {int(x) for x in args.deals.split(",")}
    else:
        seeds = set(range(1, int(args.deals) + 1))

    warm_up()
    rows = []
    for draw in draws:
        rows.append(
            run_reference(draw, args.seconds, seeds, not args.quiet, args.nodes, args.clock)
        )
    for draw in draws:
        if args.midgame > 0:
            rows.append(run_midgame(draw, args.midgame, args.midgame_seconds))
    print(
        f"\nReference deals (budget {args.seconds:g} {args.clock} s"
        + (f" and {args.nodes:,} positions" if args.nodes else "")
        + f" each), mid-game ({args.midgame} "
        f"positions, budget {args.midgame_seconds:g} s each); seconds are wall time.\n"
    )
    print(HEADER)
    for r in rows:
        print(r)
    print(NOTE)
    if args.no_extras:
        return

    # compiled speed on a long search (a hard deal, fixed node budget)
    hard = next(r for r in reference_deals() if r["seed"] == 22 and r["draw"] == 1)
    res = solve(reference_state(hard), Limit(nodes=20_000_000, seconds=300))
    cpu = res.extra["search_cpu_seconds"]
    print(
        f"\ncompiled speed: {res.nodes / cpu / 1e6:.2f} M nodes per CPU second "
        f"({res.extra['visits'] / cpu / 1e6:.2f} M visits), "
        f"{res.nodes / res.seconds / 1e6:.2f} M nodes per wall second "
        f"({res.nodes:,} nodes, {cpu:.2f} CPU s, {res.seconds:.2f} wall s, draw 1 seed 22)"
    )

    code = (
        "import time; t = time.perf_counter()\n"
        "from klondike_widget.solver import warm_up; warm_up()\n"
        "print(time.perf_counter() - t)"
    )
    env = dict(os.environ)
    warm = fresh_interpreter_seconds(code, env)
    print(f"first call, warm cache (import + first solve, fresh interpreter): {warm:.2f} s")
    code2 = "import time\nfrom klondike_widget.solver import warm_up\nprint(warm_up())"
    print(f"first solve alone, warm cache: {fresh_interpreter_seconds(code2, env):.2f} s")
    with tempfile.TemporaryDirectory() as cache:
        env_cold = dict(env, NUMBA_CACHE_DIR=cache)
        t0 = time.perf_counter()
        cold = fresh_interpreter_seconds(code, env_cold)
        print(
            f"cold compile (empty numba cache, import + first solve): {cold:.1f} s "
            f"(wall {time.perf_counter() - t0:.1f} s)"
        )


if __name__ == "__main__":
    main()
