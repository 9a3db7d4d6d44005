"""Rows and cache lines a transposition-table probe reads, on the table a search ends with.

Runs ``api.solve`` on numbered deals (draw 3 by default), keeps the largest table a search
grew, and measures on it, for every stored key, the rows and cache lines (64 bytes: four
two-word rows, or eight one-word rows, ``core.one_word``) a probe for that key reads from its
first row (:func:`core.tt_home`) to the key, and a probe for a key not there from that first
row and from a random row, to the empty row that ends the run (linear probing: the set of full
rows does not depend on the order of the inserts, so neither do these figures). It also prints
how the keys fall into positions (the same key but for the pointer class, or in draw 1 the
tag, both of which share a first row). The table is exact, so the node counts are those of the
solver; the CPU seconds include the measurement's compile. (Until December 7, 2026 it read
every table as two-word rows, where a search from a dealt position stores one-word rows.)

Numbered draw-3 deal 1862 (LOST, 12,161,568 positions; 2**24 one-word rows): a found key 2.28
rows over 1.16 lines, an absent one from a key's row 6.90 rows over 1.74 lines, 0.504 full, 1.62
keys a position, at most two (one per residue of the pointer classes: a key replaces its twin
under a weaker pointer, ``core.pointer_probe``). Before that (until December 7, 2026): 4.73
rows over 1.47 lines, 19.58 over 3.32, 0.693 full, 2.23 keys a position. Numbered draw-1 deal
2311 (2**23 rows, 0.518 full): 2.34 rows over 1.17 lines, and 7.15 over 1.77.

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

#: The pointer class's bits in a key's last word: two-word keys, one-word keys.
POINTER_BITS = {2: int(core.POINTER_BITS), 1: int(core.ONE_POINTER_BITS)}


@numba.njit(cache=False)
def _runs(TT: np.ndarray, homes: np.ndarray) -> tuple[float, float, float, float, int]:
    """Mean rows and lines read finding each stored key, and reading the run from each of
    ``homes`` to its end (an absent key); the count of stored keys. A row is empty when its
    last word is 0 (``core.table``); a cache line holds ``8 // words`` rows."""
    mask = TT.shape[0] - 1
    last = TT.shape[1] - 1
    per_line = 8 // TT.shape[1]
    full, f_rows, f_lines = 0, 0.0, 0.0
    for i in range(TT.shape[0]):
        if TT[i, last] != 0:
            full += 1
            h = np.int64(core.tt_home(TT, TT[i, 0], TT[i, last]))
            d = (i - h) & mask
            f_rows += d + 1
            f_lines += ((h % per_line) + d) // per_line + 1
    a_rows, a_lines = 0.0, 0.0
    for h in homes:
        j, e = h, 0
        while TT[j, last] != 0:
            j, e = (j + 1) & mask, e + 1
        a_rows += e + 1
        a_lines += ((h % per_line) + e) // per_line + 1
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
    words = TT.shape[1]
    keys = TT[TT[:, -1] != 0][:, [0, -1]]  # (a, b); a == b in a one-word row
    homes_keys = np.array([core.tt_home(TT, a, b) for a, b in keys[:200_000]], dtype=np.int64)
    homes_random = np.random.default_rng(1).integers(0, TT.shape[0], 1_000_000)
    fr, fl, kr, kl, full = _runs(TT, homes_keys)
    ur, ul = _runs(TT, homes_random)[2:4]
    rest = keys[:, 1] & np.uint64(~POINTER_BITS[words] & (2**64 - 1))  # the pointer left out
    first = keys[:, 0] if words == 2 else rest  # (a one-word key's a holds its pointer too)
    groups = np.unique(np.stack([first, rest], axis=1), axis=0, return_counts=True)[1]
    print(
        f"{number}:{draw} {r.status.name} positions {r.nodes:,} CPU {cpu:.2f} s; table "
        f"2**{TT.shape[0].bit_length() - 1} rows of {words} word(s), {full:,} full "
        f"({full / TT.shape[0]:.3f}), "
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
