"""Deal sets solved by our solver and, when a binary is given, by lonelybot beside it.

Used by ``benchmarks/solver.py`` (``--fresh N`` / ``--numbered RANGE``, ``--lonelybot PATH``).
Both solvers get the same fresh deals, the same rules (foundation cards may go back to a column:
lonelybot cannot forbid it) and the same wall-clock budget; deal by deal, ours runs first and
lonelybot right after, so both see the same load on a shared machine. Times are given as wall and
as CPU seconds (ours: the solving thread's; lonelybot: the child process's, from ``os.wait4``).

Ours are two CPU figures: ``cpu`` the whole :func:`solve` call (the search, then on a won deal the
line's replay through the engine) and ``search_cpu`` the search alone (``extra
["search_cpu_seconds"]``). Our positions per CPU second are over ``search_cpu``: the replay is a
per-deal cost, not search, and would dilute the rate of a set with many quick wins. Against
lonelybot, totals and the ratio ours/lonelybot use our ``cpu``: lonelybot's figure is its whole
process (start-up, the deal read, the search, its answer printed), which cannot be split from
outside, and the like of that is our whole call (a deal in, a checked verdict out); our search
alone against its whole process would flatter us by the replay's share. The issue table adds our
search alone against lonelybot's own clock around its search (:func:`search_ratio`), which
leaves out its start-up: that start-up varies between runs on one machine.

Fresh deals are numbered deals drawn at random (seeded) from 2**40 .. 2**64 - 1: reproducible,
and far above any range the project's studies and tests use (random deals in the widget are
below 2**31).

>>> fresh_deal_numbers(3, seed=1) == fresh_deal_numbers(3, seed=1)
True
>>> all(n >= FRESH_LOW for n in fresh_deal_numbers(100, seed=2))
True
>>> pooled_fresh_numbers(2, [5, 6]) == fresh_deal_numbers(2, 5) + fresh_deal_numbers(2, 6)
True
"""

from __future__ import annotations

import json
import random
import resource
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import mean, median
from typing import Any

import lonelybot

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, SolveResult, Status, solve

#: Fresh deals are drawn from here up (see the module docstring).
FRESH_LOW = 2**40
_TOP = 2**64


def fresh_deal_numbers(count: int, seed: int) -> list[int]:
    """``count`` distinct deal numbers from ``FRESH_LOW`` up, the same for the same ``seed``."""
    rng = random.Random(seed)
    numbers: list[int] = []
    while len(numbers) < count:
        n = rng.randrange(FRESH_LOW, _TOP)
        if n not in numbers:
            numbers.append(n)
    return numbers


def pooled_fresh_numbers(count: int, seeds: list[int]) -> list[int]:
    """``count`` fresh deal numbers of each seed in ``seeds``, in that order, each number once.

    One seed measured session after session becomes a set the code is tuned on; several seeds
    pooled in one run give a figure over deals no tuning has seen.
    """
    pooled = (n for seed in seeds for n in fresh_deal_numbers(count, seed))
    return list(dict.fromkeys(pooled))  # (in order, each once)


@dataclass(frozen=True)
class DealRun:
    """One deal of one draw mode: our result and lonelybot's (``None`` without a binary)."""

    number: int
    draw: int
    ours: SolveResult
    anchor: lonelybot.AnchorResult | None

    @property
    def cpu(self) -> float:
        """Our solving thread's CPU seconds for the whole call (the line's replay included)."""
        return float(self.ours.extra["cpu_seconds"])

    @property
    def search_cpu(self) -> float:
        """Our solving thread's CPU seconds in the search alone."""
        return float(self.ours.extra["search_cpu_seconds"])

    @property
    def work_ratio(self) -> float | None:
        """Our nodes over lonelybot's expanded states, when both decided the deal.

        Both count positions new to the transposition table (lonelybot's ``unique``; its
        ``visits`` also count the table's hits).
        """
        a = self.anchor
        if a is None or not a.unique or not self.both_decided:
            return None
        return self.ours.nodes / a.unique

    @property
    def both_decided(self) -> bool:
        """We and lonelybot both decided the deal (won or lost)."""
        a = self.anchor
        return (
            a is not None and a.status in ("won", "lost") and self.ours.status is not Status.UNKNOWN
        )

    def disagrees(self) -> bool:
        """Both decided and the verdicts differ (a bug in one of them)."""
        a = self.anchor
        return a is not None and self.both_decided and a.status != self.ours.status.value

    def line(self) -> str:
        """The per-deal line."""
        o = self.ours
        text = (
            f"  draw {self.draw} deal {self.number:>20}: ours {o.status.value:<7} "
            f"{o.seconds:8.3f} s {self.cpu:8.3f} cpu ({self.search_cpu:8.3f} search) "
            f"{o.nodes:>11,} nodes"
        )
        if self.anchor is not None:
            a = self.anchor
            unique = f"{a.unique:>11,}" if a.unique is not None else f"{'-':>11}"
            states = f"{a.states:>11,}" if a.states is not None else f"{'-':>11}"
            ratio = self.work_ratio
            text += (
                f" | lonelybot {a.status:<7} {a.seconds:8.3f} s {a.cpu_seconds:8.3f} cpu "
                f"{unique} expanded {states} visits"
                + (f" | nodes/expanded {ratio:8.2f}" if ratio else "")
            )
        if self.disagrees():
            text += "   <-- VERDICTS DISAGREE"
        return text

    def record(self) -> dict[str, Any]:
        """A JSON record of the run."""
        o = self.ours
        out: dict[str, Any] = {
            "deal": self.number,
            "draw": self.draw,
            "ours": o.status.value,
            "seconds": round(o.seconds, 4),
            "cpu": round(self.cpu, 4),
            "search_cpu": round(self.search_cpu, 4),
            "nodes": o.nodes,
            "relaxation_nodes": o.extra.get("relaxation_nodes", 0),
            "second_order_nodes": o.extra.get("second_order_nodes", 0),
            "decided_by": o.extra.get("decided_by", ""),
            "proof": o.extra.get("proof", ""),
        }
        if self.anchor is not None:
            a = self.anchor
            out.update(
                lonelybot=a.status,
                lb_seconds=round(a.seconds, 4),
                lb_cpu=round(a.cpu_seconds, 4),
                lb_states=a.states,
                lb_unique=a.unique,
                lb_own_seconds=a.own_seconds,
            )
            if a.status == "error":
                out["lb_raw"] = a.raw
        return out


def solve_ours(
    state: GameState, seconds: float, clock: str, nodes: int | None = None
) -> SolveResult:
    """Our solver with foundation-to-column moves, stopped after ``seconds`` of ``clock``.

    ``clock`` ``"wall"`` is the solver's own time limit; ``"cpu"`` stops it (as cancelled) once
    the solving thread has used ``seconds`` of CPU time, checked between chunks of search.
    ``nodes`` caps the positions searched as well (``None``: no cap).
    """
    if clock == "wall":
        return solve(state, Limit(seconds=seconds, nodes=nodes), foundation_to_tableau=True)
    start = time.thread_time()
    return solve(
        state,
        Limit(seconds=None, nodes=nodes),
        foundation_to_tableau=True,
        cancel=lambda: time.thread_time() - start >= seconds,
    )


def run_deals(
    numbers: list[int],
    draw: int,
    seconds: float,
    binary: str | None,
    per_deal: bool,
    out: Path | None = None,
    clock: str = "wall",
) -> list[DealRun]:
    """Solve deal ``numbers`` in ``draw`` with ours (and lonelybot if ``binary``).

    Each gets ``seconds`` of ``clock`` (``"wall"`` or ``"cpu"``) a deal.
    """
    runs: list[DealRun] = []
    for number in numbers:
        state = deal(number, Rules(draw=draw, foundation_to_tableau=True))
        ours = solve_ours(state, seconds, clock)
        anchor = lonelybot.solve(binary, state, seconds, clock) if binary else None
        run = DealRun(number, draw, ours, anchor)
        runs.append(run)
        if per_deal or run.disagrees() or (anchor is not None and anchor.status == "error"):
            print(run.line(), flush=True)
        if out is not None:
            with out.open("a") as f:
                f.write(json.dumps(run.record()) + "\n")
    return runs


def _counts(statuses: list[str]) -> tuple[int, int, int]:
    won = statuses.count("won")
    lost = statuses.count("lost")
    return won, lost, len(statuses) - won - lost


def _solver_row(label: str, draw: int, stats: dict[str, float]) -> str:
    visits = stats["visits"]
    rate_cpu = max(stats["search_cpu"], 1e-9)
    return (
        f"| {label:<15} | {draw:>4} | {stats['n']:>5.0f} | {stats['won']:>4.0f} | "
        f"{stats['lost']:>4.0f} | {stats['unk']:>4.0f} | {stats['wall']:>9.2f} | "
        f"{stats['cpu']:>9.2f} | {stats['search_cpu']:>10.2f} | {stats['median_ms']:>9.1f} | "
        f"{stats['work']:>13,.0f} | {stats['work'] / rate_cpu / 1e6:>8.2f} | "
        + (f"{visits:>13,.0f} | " if visits >= 0 else f"{'-':>13} | ")
        + (f"{visits / rate_cpu / 1e6:>8.2f} | " if visits >= 0 else f"{'-':>8} | ")
        + (f"{stats['peak'] / 2**20:>7.0f} |" if stats["peak"] >= 0 else f"{'-':>7} |")
    )


def _our_stats(runs: list[DealRun]) -> dict[str, float]:
    won, lost, unk = _counts([r.ours.status.value for r in runs])
    cpu = sum(r.cpu for r in runs)
    nodes = sum(r.ours.nodes for r in runs)
    return {
        "n": len(runs),
        "won": won,
        "lost": lost,
        "unk": unk,
        "wall": sum(r.ours.seconds for r in runs),
        "cpu": cpu,
        "search_cpu": sum(r.search_cpu for r in runs),
        "median_ms": 1e3 * median(r.ours.seconds for r in runs),
        "work": nodes,
        "visits": sum(r.ours.extra.get("visits", 0) for r in runs),
        "peak": max(r.ours.peak_memory for r in runs),
    }


def _anchor_stats(runs: list[DealRun]) -> dict[str, float]:
    anchors = [r.anchor for r in runs if r.anchor is not None]
    won, lost, unk = _counts([a.status for a in anchors])
    cpu = sum(a.cpu_seconds for a in anchors)
    unique = sum(a.unique or 0 for a in anchors)
    return {
        "n": len(anchors),
        "won": won,
        "lost": lost,
        "unk": unk,
        "wall": sum(a.seconds for a in anchors),
        "cpu": cpu,
        "search_cpu": cpu,  # its whole process: the only CPU figure lonelybot has
        "median_ms": 1e3 * median(a.seconds for a in anchors),
        "work": unique,
        "visits": sum(a.states or 0 for a in anchors),
        "peak": -1,
    }


SOLVER_HEADER = (
    "| solver          | draw | deals |  won | lost |  unk | total s   | total cpu | search cpu |"
    " median ms | expanded      | M/srch s | visited       | M/srch s | peakMiB |\n"
    "|-----------------|------|-------|------|------|------|-----------|-----------|------------|"
    "-----------|---------------|----------|---------------|----------|---------|"
)

#: Printed under :func:`solver_table`: which CPU seconds each column is over.
SOLVER_NOTE = (
    "total cpu: the whole call (ours: search and the won line's replay; lonelybot: its whole "
    "process); search cpu and M/srch s (positions per CPU second): ours the search alone, "
    "lonelybot's its whole process (it has no other); ours/lonelybot: total cpu against total cpu."
)


def solver_table(by_draw: dict[int, list[DealRun]]) -> str:
    """Per draw mode: ours (and lonelybot) verdicts, totals, median, work and its rate.

    Our rates are over the search's CPU seconds, the ratio ours/lonelybot over our whole call's
    (see the module docstring and :data:`SOLVER_NOTE`, printed under the table). Expanded is our
    nodes (positions new to the table, the draw-1 relaxation's included)
    against lonelybot's ``unique`` states; visited our visits (every child a search took,
    its position new to the table or not: ``extra["visits"]``) against lonelybot's
    ``visits`` (table hits included; the count the issue quotes); peak memory is our tables
    at their largest
    (lonelybot's is not measured, see :class:`lonelybot.AnchorResult`).
    """
    lines = [SOLVER_HEADER]
    for draw, runs in by_draw.items():
        ours = _our_stats(runs)
        lines.append(_solver_row("klondike-widget", draw, ours))
        if any(r.anchor is not None for r in runs):
            lb = _anchor_stats(runs)
            lines.append(_solver_row("lonelybot", draw, lb))
            lines.append(
                f"| ours/lonelybot  | {draw:>4} |       |      |      |      | "
                f"{ours['wall'] / lb['wall']:>8.2f}x | {ours['cpu'] / lb['cpu']:>8.2f}x | "
                f"{'':>10} | {ours['median_ms'] / lb['median_ms']:>8.2f}x | "
                f"{ours['work'] / max(lb['work'], 1):>12.2f}x | "
                f"{ours['work'] / ours['cpu'] / (lb['work'] / max(lb['cpu'], 1e-9)):>7.2f}x | "
                f"{'':>13} | {'':>8} |         |"
            )
    lines.append(SOLVER_NOTE)
    return "\n".join(lines)


def _our_seconds(run: DealRun, clock: str) -> float:
    return run.cpu if clock == "cpu" else run.ours.seconds


def _anchor_seconds(run: DealRun, clock: str) -> float:
    assert run.anchor is not None
    return run.anchor.cpu_seconds if clock == "cpu" else run.anchor.seconds


def issue_table(by_draw: dict[int, list[DealRun]], clock: str = "wall") -> str:
    """The issue's table: total seconds per draw mode, decided and median over all deals.

    ``clock`` is ``"wall"`` or ``"cpu"``; our CPU seconds are the whole call's, as
    lonelybot's are its whole process's (the module docstring says why).
    """
    draws = list(by_draw)
    label = "wall" if clock == "wall" else "cpu (whole call)"
    head = f"| {label} | " + " | ".join(f"draw {d} total" for d in draws) + " | decided | median |"
    lines = [head, "|---" * (len(draws) + 3) + "|"]
    all_runs = [r for d in draws for r in by_draw[d]]

    def row(label: str, totals: list[float], decided: int, med: float) -> str:
        cells = " | ".join(f"{t:.2f} s" for t in totals)
        return f"| {label} | {cells} | {decided}/{len(all_runs)} | {1e3 * med:.1f} ms |"

    ours_totals = [sum(_our_seconds(r, clock) for r in by_draw[d]) for d in draws]
    lines.append(
        row(
            "klondike-widget",
            ours_totals,
            sum(r.ours.status is not Status.UNKNOWN for r in all_runs),
            median(_our_seconds(r, clock) for r in all_runs),
        )
    )
    if all(r.anchor is not None for r in all_runs):
        lb_totals = [sum(_anchor_seconds(r, clock) for r in by_draw[d]) for d in draws]
        lines.append(
            row(
                "lonelybot",
                lb_totals,
                sum(r.anchor is not None and r.anchor.status in ("won", "lost") for r in all_runs),
                median(_anchor_seconds(r, clock) for r in all_runs),
            )
        )
        pairs = zip(ours_totals, lb_totals, strict=True)
        ratios = " | ".join(f"{o / max(t, 1e-9):.2f}x" for o, t in pairs)
        lines.append(f"| ours/lonelybot | {ratios} | | |")
        searches = " | ".join(f"{search_ratio(by_draw[d]):.2f}x" for d in draws)
        lines.append(f"| search alone, ours/lonelybot | {searches} | | |")
        both = " | ".join(both_decided_ratio(by_draw[d], clock) for d in draws)
        lines.append(f"| both decided, ours/lonelybot | {both} | | |")
    return "\n".join(lines)


def both_decided_ratio(runs: list[DealRun], clock: str = "wall") -> str:
    """Our total seconds over lonelybot's on the deals of ``runs`` that both decided, and how
    many those are: a deal one of the two leaves undecided adds the whole budget to its total
    (fresh draw-3 seed 43-45: lonelybot left one deal undecided at 10 s, which we prove lost in
    two positions, and the ratio over all 600 deals was 0.45x, over the 599 others 0.60x).

    >>> ours = SolveResult(Status.LOST, seconds=1.0, extra={"cpu_seconds": 1.0})
    >>> done = lonelybot.AnchorResult("lost", 4.0, 4.0, 3.9, 10, 10, "")
    >>> killed = lonelybot.AnchorResult("unknown", 10.0, 10.0, None, None, None, "")
    >>> both_decided_ratio([DealRun(7, 3, ours, done), DealRun(8, 3, ours, killed)])
    '0.25x (1 of 2)'
    """
    kept = [r for r in runs if r.both_decided]
    ours = sum(_our_seconds(r, clock) for r in kept)
    theirs = sum(_anchor_seconds(r, clock) for r in kept)
    return f"{ours / max(theirs, 1e-9):.2f}x ({len(kept)} of {len(runs)})"


def search_ratio(runs: list[DealRun]) -> float:
    """Our searches' CPU seconds over lonelybot's searches' own seconds, over ``runs``.

    lonelybot's whole process also pays its start-up, which varied here from 4 to 17 ms a deal
    between two runs of the same 300 deals (its total from 4.9 to 9.2 CPU s, of which its own
    clock counted 3.9 to 4.3 s): on sets of quick deals that alone can halve the whole-process
    ratio. Its own clock (the ``ms:`` line: wall time around its search, one thread) leaves it
    out; a run killed at the budget has none and counts its CPU seconds.

    >>> ours = SolveResult(Status.WON, extra={"cpu_seconds": 0.5, "search_cpu_seconds": 0.3})
    >>> anchor = lonelybot.AnchorResult("won", 0.5, 0.4, 0.2, 10, 10, "")
    >>> round(search_ratio([DealRun(7, 1, ours, anchor)]), 6)
    1.5
    """
    lb = 0.0
    for run in runs:
        assert run.anchor is not None
        own = run.anchor.own_seconds
        lb += run.anchor.cpu_seconds if own is None else own
    return sum(run.search_cpu for run in runs) / max(lb, 1e-9)


def worst_work(runs: list[DealRun], count: int = 10) -> str:
    """The ``count`` deals where our nodes exceed lonelybot's expanded states the most."""
    rated = sorted(
        (r for r in runs if r.work_ratio is not None), key=lambda r: -(r.work_ratio or 0)
    )
    lines = [
        "| deal | verdict | our nodes | (relaxation) | lb expanded | lb visits | ratio | ours s "
        "| lb s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rated[:count]:
        a = r.anchor
        assert a is not None and a.unique is not None
        lines.append(
            f"| {r.number} | {r.ours.status.value} | {r.ours.nodes:,} | "
            f"{r.ours.extra.get('relaxation_nodes', 0):,} | {a.unique:,} | {a.states or 0:,} | "
            f"{r.work_ratio:.1f} | {r.ours.seconds:.3f} | {a.seconds:.3f} |"
        )
    return "\n".join(lines)


def largest_gaps(runs: list[DealRun], count: int = 10, clock: str = "wall") -> str:
    """Where a ratio of totals is lost: the (at most ``count``) deals both decided on which our
    seconds exceed lonelybot's most, and the gaps' sums either way (:func:`worst_work` ranks
    quick won deals first, while one lost deal can cost seconds at an equal count of positions).

    >>> def run(number, s, lb_s):  # 2 M positions in ``s`` seconds, lonelybot's 1 M in ``lb_s``
    ...     extra = {"cpu_seconds": s, "search_cpu_seconds": s, "proof": "search"}
    ...     ours = SolveResult(Status.LOST, nodes=2 * 10**6, seconds=s, extra=extra)
    ...     lb = lonelybot.AnchorResult("lost", lb_s, lb_s, 0, 0, 10**6, "")
    ...     return DealRun(number, 3, ours, lb)
    >>> text = largest_gaps([run(7, 1.0, 4.0), run(8, 5.0, 0.5), run(9, 2.0, 1.5)], count=2)
    >>> print(text.splitlines()[0])
    behind on 2 deals by 5.00 s in all, ahead on 1 by 3.00 s (wall)
    >>> [line[:4] for line in text.splitlines()[3:]], text.splitlines()[3].split(" | ", 4)[4]
    (['| 8 ', '| 9 '], '4.50 | 2,000,000 | 0 | search | 1,000,000 | 0.40 | 2.00 |')
    """
    pairs = [
        (_our_seconds(r, clock) - _anchor_seconds(r, clock), r) for r in runs if r.both_decided
    ]
    gaps = sorted(pairs, key=lambda pair: -pair[0])
    behind, ahead = [g for g, _ in gaps if g > 0], [-g for g, _ in gaps if g < 0]
    lines = [
        f"behind on {len(behind)} deals by {sum(behind):.2f} s in all, ahead on {len(ahead)} "
        f"by {sum(ahead):.2f} s ({clock})",
        "| deal | verdict | ours s | lb s | gap s | our nodes | (relaxation) | proof "
        "| lb expanded | ours M/srch s | lb M/s |\n" + "|---" * 11 + "|",
    ]
    for gap, r in gaps[: min(count, len(behind))]:
        o, a = r.ours, r.anchor
        assert a is not None
        lines.append(
            f"| {r.number} | {o.status.value} | {_our_seconds(r, clock):.2f} | "
            f"{_anchor_seconds(r, clock):.2f} | {gap:.2f} | {o.nodes:,} | "
            f"{o.extra.get('relaxation_nodes', 0):,} | {o.extra.get('proof', '')} | "
            f"{a.unique or 0:,} | {o.nodes / max(r.search_cpu, 1e-9) / 1e6:.2f} | "
            f"{(a.unique or 0) / max(a.cpu_seconds, 1e-9) / 1e6:.2f} |"
        )
    return "\n".join(lines)


def slowest(runs: list[DealRun], count: int = 10) -> str:
    """Our mean time, undecided count and the ``count`` slowest deals."""
    secs = [r.ours.seconds for r in runs]
    undecided = [r.number for r in runs if r.ours.status is Status.UNKNOWN]
    lines = [
        f"{len(runs)} deals: mean {mean(secs):.3f} s, median {median(secs):.3f} s, "
        f"mean cpu {mean(r.cpu for r in runs):.3f} s (search "
        f"{mean(r.search_cpu for r in runs):.3f} s), undecided {len(undecided)}"
        + (f" ({', '.join(map(str, undecided[:20]))})" if undecided else ""),
        "| deal | verdict | seconds | cpu s (whole call) | search cpu s | nodes | proof |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in sorted(runs, key=lambda r: -r.ours.seconds)[:count]:
        lines.append(
            f"| {r.number} | {r.ours.status.value} | {r.ours.seconds:.2f} | {r.cpu:.2f} | "
            f"{r.search_cpu:.2f} | {r.ours.nodes:,} | {r.ours.extra.get('proof', '')} |"
        )
    return "\n".join(lines)


def process_peak_mib() -> float:
    """This process's peak resident memory (MiB; ``ru_maxrss`` is in KiB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
