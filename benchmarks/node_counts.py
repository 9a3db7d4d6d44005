"""Node counts and results of the exact search at a position budget, one JSON line per search,
to diff two trees (a change to the core that must not change what the search does).

Usage::

    python benchmarks/node_counts.py --numbered 1-300 --nodes 300000 > a.jsonl
    python benchmarks/node_counts.py --reference 1-50 --nodes 500000 > b.jsonl
    diff a.jsonl <(cd ../other && PYTHONPATH=$PWD python benchmarks/node_counts.py ...)

Numbered deals are searched in both draw modes, even deals with foundation-to-column moves and
odd ones without (so both settings are covered); reference deals (``tests/solver``) with their
own settings. Each line is ``[kind, draw, deal, positions, result, table entries, deepest, path]``
(``result``: ``core.R_*``; ``path``: a CRC of the moves on the
stack where the search stopped). No clock is read: the lines are the same on any machine.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "solver"))
sys.path.insert(0, str(ROOT))


def _run(search: object, nodes: int) -> list[int]:
    """Step ``search`` up to ``nodes`` positions; return its counts."""
    from klondike_widget.solver import core

    while search.result == core.R_BUDGET and search.nodes < nodes:  # type: ignore[attr-defined]
        search.step(min(100_000, nodes - search.nodes))  # type: ignore[attr-defined]
    arrays = search.arrays  # type: ignore[attr-defined]
    ctl = arrays.ctl
    depth = int(ctl[core.C_DEPTH])
    path = [int(arrays.MV[d, arrays.IX[d] - 1]) for d in range(depth)]
    return [
        int(search.nodes),  # type: ignore[attr-defined]
        int(search.result),  # type: ignore[attr-defined]
        int(ctl[core.C_TTCOUNT]),
        int(ctl[core.C_MAXDEPTH]),
        zlib.crc32(json.dumps(path).encode()),
    ]


def _range(text: str) -> range:
    """``"1-300"`` as ``range(1, 301)``."""
    lo, hi = text.split("-")
    return range(int(lo), int(hi) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--numbered", type=_range, help="numbered deals, e.g. 1-300")
    parser.add_argument("--reference", type=_range, help="reference deals (seeds), e.g. 1-50")
    parser.add_argument("--nodes", type=int, default=300_000, help="positions per search")
    parser.add_argument("--draws", default="1,3")
    args = parser.parse_args()
    from solver_helpers import reference_deals, reference_state

    from klondike_widget.engine.deals import deal
    from klondike_widget.engine.rules import Rules
    from klondike_widget.solver import drive, warm_up

    warm_up()
    draws = [int(d) for d in args.draws.split(",")]
    for draw in draws:
        for n in args.numbered or ():
            search = drive.Search(deal(n, Rules(draw=draw)), foundation_to_tableau=n % 2 == 0)
            print(json.dumps(["numbered", draw, n, *_run(search, args.nodes)]), flush=True)
        for record in reference_deals() if args.reference else ():
            if record["draw"] == draw and record["seed"] in args.reference:
                search = drive.Search(reference_state(record))
                row = ["reference", draw, record["seed"], *_run(search, args.nodes)]
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
