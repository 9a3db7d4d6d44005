"""Rows and cache lines a transposition-table probe reads, on the table a search ends with.

Runs ``api.solve`` on numbered deals (draw 3 by default), keeps the largest table a search
grew, and measures on it, for every stored key, the rows (16 bytes) and cache lines (64
bytes, four rows) a probe for that key reads from its first row (:func:`core.tt_home`) to
the key, and a probe for a key not there from that first row and from a random row, to the
empty row that ends the run (linear probing: the set of full rows does not depend on the
order of the inserts, so neither do these figures). It also prints how the keys fall into
positions (the same key but for the pointer class, which shares a first row). The table is
exact, so the node counts are those of the solver; the CPU seconds include the measurement's
compile.

Run: ``PYTHONPATH=. python benchmarks/table_probes.py --deals 1862:3`` (the tree on
``PYTHONPATH`` is measured).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numba
import numpy as np
from big_table import parse_deals

from klondike_widget.engine.rules import Rules
from klondike_widget.engine.shuffle import deal
from klondike_widget.solver import api, core, drive

POINTER_BITS = 63 << 52


@numba.njit(cache=False)
def _runs(TT: np.ndarray, homes: np.ndarray) -> tuple[float, float, float, float, int]:
    """Mean rows and lines read finding each stored key, and reading the run from each of
    ``homes`` to its end (an absent key); the count of stored keys."""
    mask = TT.shape[0] - 1
    full, f_rows, f_lines = 0, 0.0, 0.0
    for i in range(TT.shape[0]):
        if TT[i, 1] != 0:
            full += 1
            h = np.int64(core.tt_home(TT, TT[i, 0], TT[i, 1]))
            d = (i - h) & mask
            f_rows += d + 1
            f_lines += ((h & 3) + d) // 4 + 1
    a_rows, a_lines = 0.0, 0.0
    for h in homes:
        j, e = h, 0
        while TT[j, 1] != 0:
            j, e = (j + 1) & mask, e + 1
        a_rows += e + 1
        a_lines += ((h & 3) + e) // 4 + 1
    return f_rows / full, f_lines / full, a_rows / len(homes), a_lines / len(homes), full


def measure(number: int, draw: int) -> None:
    """Solve numbered deal ``number`` and print the probe figures of its largest table."""
    kept: dict[str, Any] = {"rows": 0}
    step = drive.Search.step

    def keeping(self: drive.Search, max_nodes: int) -> int:
        r = step(self, max_nodes)
        if self.TT.shape[0] >= kept["rows"]:
            kept.update(rows=self.TT.shape[0], TT=self.TT, count=self.table.count)
        return r

    drive.Search.step = keeping  # type: ignore[method-assign]
    try:
        t0 = time.process_time()
        r = api.solve(deal(number, Rules(draw=draw)), api.Limit(seconds=None))
        cpu = time.process_time() - t0
    finally:
        drive.Search.step = step  # type: ignore[method-assign]
    TT = kept["TT"]
    keys = TT[TT[:, 1] != 0]
    homes_keys = np.array([core.tt_home(TT, a, b) for a, b in keys[:200_000]], dtype=np.int64)
    homes_random = np.random.default_rng(1).integers(0, TT.shape[0], 1_000_000)
    fr, fl, kr, kl, full = _runs(TT, homes_keys)
    ur, ul = _runs(TT, homes_random)[2:4]
    groups = np.unique(
        np.stack([keys[:, 0], keys[:, 1] & np.uint64(~POINTER_BITS & (2**64 - 1))], axis=1),
        axis=0,
        return_counts=True,
    )[1]
    print(
        f"{number}:{draw} {r.status.name} positions {r.nodes:,} CPU {cpu:.2f} s; table "
        f"2**{TT.shape[0].bit_length() - 1} rows, {full:,} full ({full / TT.shape[0]:.3f}), "
        f"{kept['count']:,} entered"
    )
    print(f"  found:                 {fr:5.2f} rows {fl:4.2f} lines")
    print(f"  absent, a key's row:   {kr:5.2f} rows {kl:4.2f} lines")
    print(f"  absent, a random row:  {ur:5.2f} rows {ul:4.2f} lines")
    sizes = np.bincount(groups).tolist()[1:8]
    print(f"  positions {len(groups):,}, keys each {groups.mean():.2f} (1, 2, ...: {sizes})")


def main() -> None:
    """Measure each deal of ``--deals`` in turn."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", default="1862:3", help="numbered deals, number[:draw],...")
    args = ap.parse_args()
    api.warm_up()
    for number, draw in parse_deals(args.deals):
        measure(number, draw)


if __name__ == "__main__":
    main()
