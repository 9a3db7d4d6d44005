"""Benchmark: how far the draw-3 solve's turns with its draw-1 relaxation are from the best.

Usage::

    python benchmarks/solver.py --numbered 1-5000 --draws 3 --seconds 10 --quiet --out n3.json
    python benchmarks/relaxation_schedule.py --from-out n3.json          # its lost deals
    python benchmarks/relaxation_schedule.py --numbered 1-300 --leads "20000:4,200000:16"
    python benchmarks/relaxation_schedule.py --fresh 200 --fresh-seed 46-48

On a lost draw-3 deal two searches race to the proof (:func:`~klondike_widget.solver.drive.
take_turns`): the draw-3 search in its first move order and the draw-1 relaxation
(:class:`~klondike_widget.solver.relaxation.Relaxation`), whose exhaustion proves the loss too.
Which of the two is cheaper is not known in advance; the driver shares the turns by positions,
1:1 at first, then with the relaxation in the lead (``drive.RELAXATION_LEADS``). Each search's
cost to its end does not depend on the turns (both count positions, not seconds), so it is
measured once per deal, alone (``A`` the draw-3 search, ``R`` the relaxation), and any schedule
of stages is then replayed on those figures turn by turn, as ``take_turns`` plays them, in no
time. The table compares each schedule with the offline best, ``min(A, R)`` over the proofs
(the cost of a driver that knew in advance which search is cheaper).

Replayed exactly (:func:`replay`): the turns of ``drive.TURN_NODES`` positions, each taken by
the search with the fewest rounds done since the last change of shares (the draw-3 search on a
tie), the shares changed as the relaxation passes each stage. A relaxation that wins (a deal
lost in draw 3 and won in draw 1) stops; the draw-3 search then takes every turn. The only
approximation is there: in the solve the draw-3 searches in the later move orders
(``drive.LATER_ORDERS``) then join the first on one table, and the replay counts them all as
the first alone (on one table, a lost deal costs them about what one costs). Where the
relaxation proves the loss, the replay is the solve's own count
(``tests/benchmarks/test_relaxation_schedule.py`` checks one deal).

>>> replay(Costs(1, draw3=(True, 1_000_000), relaxation=(True, 50_000)), ((20_000, 4),))
80000
>>> replay(Costs(1, draw3=(True, 30_000), relaxation=(False, 10_000)), ())
40000
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from klondike_widget.engine.deals import deal, parse_deal_numbers
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import drive, warm_up

#: Turns of the driver, in positions (``drive.TURN_NODES``).
TURN = drive.TURN_NODES
#: A schedule: the relaxation's stages, ``(from, lead)`` as in ``drive.RELAXATION_LEADS``.
Stages = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Costs:
    """One deal's two searches run alone to their ends: ``(exhausted, positions)`` each, the
    positions at which it was exhausted, won, filled its table or reached the cap."""

    number: int
    draw3: tuple[bool, int]
    relaxation: tuple[bool, int]

    @property
    def lost(self) -> bool:
        """True if either search proved the deal lost."""
        return self.draw3[0] or self.relaxation[0]

    @property
    def best(self) -> int:
        """The cheaper proof: what a driver that knew which search ends first would pay."""
        proofs = [n for done, n in (self.draw3, self.relaxation) if done]
        return min(proofs)

    @property
    def kind(self) -> str:
        """``"both"`` when both searches prove the loss, else which one alone does."""
        if self.draw3[0] and self.relaxation[0]:
            return "both"
        return "draw-3 search" if self.draw3[0] else "relaxation"


def replay(costs: Costs, stages: Stages) -> int:
    """The positions the driver's turns with ``stages`` spend on lost deal ``costs`` until a
    proof (see the module docstring). A search that ends without a proof (won, its table full,
    the cap reached) takes no more turns; ``ValueError`` if neither proves the loss."""
    ends = (costs.draw3[1], costs.relaxation[1])
    proves = (costs.draw3[0], costs.relaxation[0])
    nodes = [0, 0]  # the draw-3 search's, the relaxation's
    live = [True, True]
    weights, bases = [2, 2], [0, 0]  # (drive.SECOND_ORDER_SHARE for both at first)
    stage = 0
    while True:
        for i in (0, 1):
            if live[i] and nodes[i] >= ends[i]:
                if proves[i]:
                    return nodes[0] + nodes[1]
                live[i] = False
        if not any(live):
            raise ValueError(f"deal {costs.number}: not proved lost by either search")
        while live[1] and stage < len(stages) and nodes[1] >= stages[stage][0]:
            weights, stage = [1, stages[stage][1]], stage + 1
            bases = [n // TURN for n in nodes]
        rounds = [
            (nodes[i] // TURN - bases[i]) / weights[i] if live[i] else 2.0**63 for i in (0, 1)
        ]
        run = 0 if rounds[0] <= rounds[1] else 1
        nodes[run] = min(ends[run], nodes[run] + TURN - nodes[run] % TURN)


def measure(number: int, cap: int) -> Costs:
    """Run deal ``number``'s draw-3 search (first move order) and its relaxation, each alone,
    until it decides, fills its table or has searched ``cap`` positions."""
    from klondike_widget.solver.coldstart import CORE as core
    from klondike_widget.solver.relaxation import Relaxation

    state = deal(number, Rules(draw=3))
    ends = []
    for search in (drive.Search(state), Relaxation(state)):
        while search.result == core.R_BUDGET and search.nodes < cap:
            search.step(TURN - search.nodes % TURN)
        ends.append((search.result == core.R_EXHAUSTED and not search.overflowed, search.nodes))
    return Costs(number, ends[0], ends[1])


def _measure_star(job: tuple[int, int]) -> Costs:
    return measure(*job)


def parse_stages(text: str) -> Stages:
    """``"20000:4,200000:64"`` as stages; ``""`` is 1:1 throughout.

    >>> parse_stages("20000:4,200000:64"), parse_stages("")
    (((20000, 4), (200000, 64)), ())
    """
    pairs = [part.split(":") for part in text.split(",") if part.strip()]
    if any(len(p) != 2 for p in pairs):
        raise ValueError(f"--leads {text!r}: want FROM:LEAD,FROM:LEAD")
    return tuple((int(a), int(b)) for a, b in pairs)


def table(deals: Sequence[Costs], schedules: dict[str, Stages]) -> list[str]:
    """The markdown table of the schedules' positions on the lost ``deals``, per kind and in all
    (millions), against the offline best."""
    kinds = sorted({c.kind for c in deals})
    head = "| schedule | " + " | ".join(f"{k} ({sum(c.kind == k for c in deals)})" for k in kinds)
    rows = [head + " | all | over the best |", "|---" * (len(kinds) + 3) + "|"]

    def line(name: str, cost: Iterable[tuple[Costs, int]]) -> str:
        pairs = list(cost)
        by_kind = [sum(n for c, n in pairs if c.kind == k) / 1e6 for k in kinds]
        total = sum(n for _, n in pairs)
        over = total / sum(c.best for c in deals) - 1
        cells = " | ".join(f"{v:.2f}" for v in by_kind)
        return f"| {name} | {cells} | {total / 1e6:.2f} | {over:+.1%} |"

    rows.append(line("offline best", ((c, c.best) for c in deals)))
    for name, stages in schedules.items():
        rows.append(line(name, ((c, replay(c, stages)) for c in deals)))
    return rows


def _numbers(args: argparse.Namespace) -> list[int]:
    if args.from_out:
        rows = [json.loads(text) for text in Path(args.from_out).read_text().splitlines()]
        return [r["deal"] for r in rows if r.get("draw") == 3 and r.get("ours") == "lost"]
    if args.fresh:
        import side_by_side

        return side_by_side.pooled_fresh_numbers(args.fresh, parse_deal_numbers(args.fresh_seed))
    return parse_deal_numbers(args.numbered)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--numbered", default="1-200", help="numbered deals, e.g. 1-5000")
    parser.add_argument("--fresh", type=int, default=0, help="N fresh deals of each seed")
    parser.add_argument("--fresh-seed", default="1", help="seeds of the fresh deals, e.g. 46-48")
    parser.add_argument("--from-out", help="the lost draw-3 deals of a solver.py --out file")
    parser.add_argument("--cap", type=int, default=40_000_000, help="positions per search")
    parser.add_argument("--leads", action="append", default=[], help="more schedules: F:L,F:L")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    args = parser.parse_args()
    schedules = {f"now {drive.RELAXATION_LEADS}": drive.RELAXATION_LEADS}
    schedules.update({text or "1:1": parse_stages(text) for text in args.leads})
    numbers = _numbers(args)
    warm_up()  # (else the searches run the uncompiled core: coldstart.py)
    with Pool(args.jobs) as pool:
        costs = pool.map(_measure_star, [(n, args.cap) for n in numbers], chunksize=1)
    lost = [c for c in costs if c.lost]
    print(f"{len(numbers)} draw-3 deals, {len(lost)} lost (proved by a search alone within")
    print(f"{args.cap:,} positions); positions in millions, turns of {TURN:,}:\n")
    print("\n".join(table(lost, schedules)))


if __name__ == "__main__":
    main()
