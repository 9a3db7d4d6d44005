"""``benchmarks/memory_latency.py``: the chain of reads visits every line, and the table it
prints has a row per size with a measured latency."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import memory_latency

from klondike_widget.solver.drive import grow_at


@pytest.mark.parametrize(("lines", "seed"), [(1, 0), (2, 3), (97, 5), (4096, 7)])
def test_the_chain_visits_every_line_once_then_returns(lines: int, seed: int) -> None:
    nxt = memory_latency.one_cycle(lines, seed)
    seen = np.zeros(lines, dtype=bool)
    i = 0
    for _ in range(lines):
        assert not seen[i]
        seen[i] = True
        i = int(nxt[i])
    assert i == 0 and seen.all()


def test_the_table_has_a_row_per_size_with_a_latency() -> None:
    text = memory_latency.table([1, 2], reads=20_000)
    rows = text.splitlines()[2:]
    assert [r.split("|")[1].strip() for r in rows] == ["1", "2"]
    assert rows[1].split("|")[2].strip() == f"{(2 << 20) // 8:,}"
    assert rows[1].split("|")[3].strip() == f"{grow_at((2 << 20) // 8):,}"
    assert all(float(r.split("|")[4]) > 0 for r in rows)
