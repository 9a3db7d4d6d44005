"""How long one read of a random table row takes, by table size: the floor under a position's time.

Every new position the search enters is looked up in the transposition table, at a row its key
hashes to; in a table larger than the caches that read waits for the memory. The search asks
for the rows ahead (``core.search.child_keys``), but the first child of a new position is
probed right after its row is asked for, so most positions wait for one such read. This
measures that wait on this machine: a chain of dependent reads (each read's value is the next
read's index), one read per 64-byte cache line, in a random order that visits every line once
(:func:`one_cycle`), over arrays allocated as the solver allocates its tables
(``memory.new_table``). It prints nanoseconds per read by array size, with the rows of the
solver's table of that size (one-word keys, 8-byte rows: ``core.one_word``) and the positions
such a table holds before it grows (``drive.grow_at``: at one half, or three quarters when
large).

Run: ``python benchmarks/memory_latency.py`` (``--mib 4,16,64,256``, ``--reads N``).
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from klondike_widget.solver.drive import grow_at
from klondike_widget.solver.memory import new_table

#: 64-bit words in a cache line.
LINE_WORDS = 8
#: Bytes of a table row (one-word keys: ``core.row_words``).
ROW_BYTES = 8


def one_cycle(lines: int, seed: int = 0) -> np.ndarray:
    """``nxt[i]``: the line read after line ``i``, in a random order that visits all ``lines``
    lines in one cycle (so a chain of reads never falls into a short, cached loop).

    >>> nxt = one_cycle(6, seed=1)
    >>> seen, i = [], 0
    >>> for _ in range(6):
    ...     seen.append(i); i = int(nxt[i])
    >>> sorted(seen) == list(range(6)), i
    (True, 0)
    """
    order = np.random.default_rng(seed).permutation(lines)
    nxt = np.empty(lines, dtype=np.int64)
    nxt[order[:-1]] = order[1:]
    nxt[order[-1]] = order[0]
    return nxt


@numba.njit(cache=True)
def chase(words: np.ndarray, reads: int) -> int:  # pragma: no cover - compiled
    """Follow the chain ``reads`` times from word 0; return where it ends (so it is not
    optimised away)."""
    i = 0
    for _ in range(reads):
        i = words[i]
    return i


def latency(mib: int, reads: int, seed: int = 0) -> float:
    """Nanoseconds per dependent read in an array of ``mib`` MiB (best of three runs)."""
    rows = (mib << 20) // ROW_BYTES
    words = new_table(rows, 1).reshape(-1).view(np.int64)  # (the solver's own allocation)
    lines = words.shape[0] // LINE_WORDS
    words[np.arange(lines) * LINE_WORDS] = one_cycle(lines, seed) * LINE_WORDS
    chase(words, min(reads, 1000))  # (compiled, and the first pages touched)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        chase(words, reads)
        best = min(best, (time.perf_counter() - t0) / reads * 1e9)
    return best


def table(mibs: list[int], reads: int) -> str:
    """The printed table: one row per size."""
    out = [
        "| table MiB | rows (8 bytes) | positions before it grows | ns per dependent read |",
        "|---|---|---|---|",
    ]
    for mib in mibs:
        rows = (mib << 20) // ROW_BYTES
        out.append(f"| {mib} | {rows:,} | {grow_at(rows):,} | {latency(mib, reads):.1f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mib", default="1,4,8,12,16,24,32,64,128,256")
    parser.add_argument("--reads", type=int, default=2_000_000)
    args = parser.parse_args(argv)
    mibs = [int(x) for x in args.mib.split(",") if x.strip()]
    print(table(mibs, args.reads))


if __name__ == "__main__":
    main()
