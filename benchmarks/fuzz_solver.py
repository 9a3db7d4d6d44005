"""Differential fuzzer: the solver's verdicts against an independent brute force.

Usage::

    python benchmarks/fuzz_solver.py --cases 24000              # seed 0, results in a file
    python benchmarks/fuzz_solver.py --cases 24000 --resume     # carry on where it stopped
    python benchmarks/fuzz_solver.py --seed 7 --cases 2000 --out /tmp/fuzz7.jsonl

Case ``i`` of seed ``s`` is always the same position (``tests/solver/fuzz_cases.py`` builds it from
``(s, i)``): constructed endgames (cards dealt into columns in any order, Kings and high cards
face down in one column, empty columns, foundations at any heights, stock and waste with the
pointer anywhere) and endgames from real deals along winning lines with random detours, in
both draw modes, with foundation-to-column moves on and off, and for a quarter of them with the
solver's ``foundation_to_tableau`` override flipped. Each is solved and decided by a plain
visited-set depth-first search over the engine's legal moves (no solver code); every WON line
is replayed through the engine under the searched rules. One JSON line per case goes to the
results file, so a run can stop and resume; at the end a table per category, draw mode and
rule: positions, verdicts, decided comparisons and disagreements (any disagreement is also
printed with its position, and the exit status is 1).

Two options reach what large budgets on small positions never do. ``--interleaved`` runs the
solver on the interleaved schedule of ``tests/solver/test_shared_table.py``
(``solver_helpers.INTERLEAVED``): turns of three positions, the later move orders joining the
first on its table after two, so every case is searched by several orders taking turns.
``--stops K`` solves each case again, stopped by every budget of positions below the full
solve's count, or by ``K`` of them drawn at random (the same for the same seed and case) if
there are more: a solve stopped by its budget must say UNKNOWN, and one that reaches a verdict
all the same must reach the full solve's (the brute force's) after as many positions (turns
are counted in positions, so it has followed the same search). Together they look for the bug
fixed in December 2026, a LOST read from the first order's exhaustion at a budget stop while a
later order still searched (``api._result``); with that fix undone, seed 66's first 3000 cases
show it (case 2777, four of its stops)::

    python benchmarks/fuzz_solver.py --seed 65 --cases 5000 --interleaved --stops 20
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz_cases import CATEGORIES, make_case
from solver_helpers import INTERLEAVED, compare_case, winning_lines

from klondike_widget.solver import drive, warm_up


def table(records: list[dict[str, object]]) -> str:
    """The summary table of ``records`` (one row per category, draw mode and rule)."""
    rows: dict[tuple[object, ...], Counter[str]] = {}
    for r in records:
        k = (r["category"], r["draw"], "on" if r["f2t"] else "off")
        c = rows.setdefault(k, Counter())
        c["n"] += 1
        c["override"] += bool(r["override"])
        c[f"brute_{r['brute']}"] += 1
        c[f"solver_{r['solver']}"] += 1
        c["decided"] += r["agree"] is not None
        c["disagree"] += r["agree"] is False
        for field in ("stops", "stops_decided", "stops_wrong"):
            c[field] += int(r.get(field, 0))  # type: ignore[call-overload]
    head = (
        "| category | draw | f2t | cases | overr. | brute won | brute lost | brute unk | "
        "solver won | solver lost | solver unk | decided | disagree | stops | stops dec. | "
        "stops wrong |\n"
        "|----------|------|-----|-------|--------|-----------|------------|-----------|"
        "------------|-------------|------------|---------|----------|-------|------------|"
        "-------------|"
    )
    lines = [head]
    total: Counter[str] = Counter()
    order = {c: i for i, c in enumerate(CATEGORIES)}
    for k in sorted(rows, key=lambda k: (order[str(k[0])], k[1], k[2])):
        c = rows[k]
        total.update(c)
        lines.append(_row(str(k[0]), str(k[1]), str(k[2]), c))
    lines.append(_row("all", "", "", total))
    return "\n".join(lines)


def _row(cat: str, draw: str, f2t: str, c: Counter[str]) -> str:
    return (
        f"| {cat:<8} | {draw:>4} | {f2t:>3} | {c['n']:>5} | {c['override']:>6} | "
        f"{c['brute_won']:>9} | {c['brute_lost']:>10} | {c['brute_unknown']:>9} | "
        f"{c['solver_won']:>10} | {c['solver_lost']:>11} | {c['solver_unknown']:>10} | "
        f"{c['decided']:>7} | {c['disagree']:>8} | {c['stops']:>5} | {c['stops_decided']:>10} | "
        f"{c['stops_wrong']:>11} |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", type=int, default=24_000, help="cases 0..N-1 of the seed")
    parser.add_argument("--out", type=Path, default=None, help="results file (JSON lines)")
    parser.add_argument("--resume", action="store_true", help="skip the cases already in --out")
    parser.add_argument("--max-states", type=int, default=100_000, help="brute-force budget")
    parser.add_argument("--lines", type=int, default=12, help="real deals per draw mode")
    parser.add_argument(
        "--interleaved", action="store_true", help="orders take turns from the start"
    )
    parser.add_argument("--stops", type=int, default=0, help="budget-stopped solves per case")
    args = parser.parse_args()
    if args.interleaved:
        for name, value in INTERLEAVED.items():
            setattr(drive, name, value)
    out: Path = args.out or Path(f"fuzz_solver_seed{args.seed}.jsonl")
    done: dict[int, dict[str, object]] = {}
    if args.resume and out.exists():
        for text in out.read_text().splitlines():
            try:
                rec = json.loads(text)
            except json.JSONDecodeError:
                continue  # a line torn by an interrupted run: that case runs again
            done[int(rec["index"])] = rec
    elif out.exists():
        out.unlink()
    warm_up()
    lines = {d: winning_lines(d, args.lines) for d in (1, 3)}
    t0 = time.perf_counter()
    todo = [i for i in range(args.cases) if i not in done]
    with out.open("a") as fh:
        for n, i in enumerate(todo, 1):
            case = make_case(args.seed, i, lines)
            rng = random.Random(f"{args.seed}/{i}")
            rec = compare_case(case, max_states=args.max_states, stops=args.stops, rng=rng)
            rec["index"] = i
            if rec["agree"] is False or rec.get("stops_wrong"):
                rec["position"] = case.state.to_dict()
                print(f"DISAGREEMENT at case {i}: {json.dumps(rec)}", flush=True)
            fh.write(json.dumps(rec) + "\n")
            done[i] = rec
            if n % 500 == 0:
                fh.flush()
                rate = n / (time.perf_counter() - t0)
                print(f"  {n}/{len(todo)} cases, {rate:.1f} a second", flush=True)
    records = [done[i] for i in sorted(done) if i < args.cases]
    print(f"\nseed {args.seed}, cases 0..{args.cases - 1}, results in {out}\n")
    print(table(records))
    return 1 if any(r["agree"] is False or r.get("stops_wrong") for r in records) else 0


if __name__ == "__main__":
    raise SystemExit(main())
