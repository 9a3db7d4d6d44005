"""When and how the transposition table grows (``drive.grow_at``, ``core.C_GROWAT``,
``memory.Table.grow``).

A small-table analogue of :data:`drive.LATE_GROWTH_ROWS`: with it lowered to the start size,
the table of 2**14 rows grows at 12,288 entries (three quarters), not 8,192; with the default
it grows at one half. The counts and the verdict are those of the default threshold (the
table is exact), and a table at its ``tt_max`` stops at three quarters (``R_GROW``: the
caller's memory stop). Catches a core that grows at one half again (``TT.shape[0] // 2``
instead of ``ctl[C_GROWAT]``) and a ``grow_at`` that ignores ``LATE_GROWTH_ROWS``.

A grown table of :data:`memory.MAPPED_ROWS` rows or more is its own private anonymous
mapping, not advised as huge pages (no ``hg`` in its ``VmFlags`` in ``/proc/self/smaps``: on
this machine the advice made a table's first touch of its memory 38 times dearer, see
``memory.new_table``), with the same counts: catches a growth that still allocates with
``np.zeros``, a ``new_table`` that ignores its threshold, one that maps shared memory
(``mmap``'s default, shmem) and one that asks for huge pages again. The table is then the
first rows of one such mapping of ``tt_max`` rows, doubled in place (``core.tt_spread``), with
the keys and counts of a copied one.
"""

from __future__ import annotations

import mmap
import re
from pathlib import Path

import numpy as np
import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import core, drive, memory

#: Numbered draw-3 deal won in 25,024 positions (first order alone): the table grows twice.
DEAL = 18


def _run(tt_max: int = drive.TT_MAX) -> tuple[drive.Search, list[tuple[int, int]]]:
    """Search :data:`DEAL` to the end; the (rows, entries) at each growth of the table."""
    s = drive.Search(deal(DEAL, Rules(draw=3, foundation_to_tableau=True)), tt_max=tt_max)
    growths = []
    r = s.result
    while r == core.R_BUDGET:
        rows = s.TT.shape[0]
        r = s.step(500)
        if s.TT.shape[0] != rows:
            growths.append((rows, s.table.count))
    return s, growths


def test_grow_at() -> None:
    late = drive.LATE_GROWTH_ROWS
    assert drive.grow_at(late // 2) == late // 4
    assert drive.grow_at(late) == late - late // 4
    assert drive.grow_at(2 * late) == 2 * late - late // 2


def test_late_growth_in_a_small_table(monkeypatch: pytest.MonkeyPatch) -> None:
    half, half_growths = _run()
    assert half_growths[0] == (drive.TT_START, drive.TT_START // 2)
    monkeypatch.setattr(drive, "LATE_GROWTH_ROWS", drive.TT_START)
    late, growths = _run()
    assert growths == [(rows, rows * 3 // 4) for rows, _ in growths]
    assert growths[0] == (drive.TT_START, 12_288)
    assert (late.result, late.nodes) == (half.result, half.nodes) == (core.R_WON, 25_024)
    assert late.table.count == half.table.count


def test_full_table_stops_at_three_quarters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(drive, "LATE_GROWTH_ROWS", drive.TT_START)
    s, growths = _run(tt_max=drive.TT_START)
    assert growths == []
    assert s.result == core.R_GROW  # the memory stop: UNKNOWN for the caller
    assert (s.TT.shape[0], s.table.count) == (drive.TT_START, 12_288)


def _mapping(address: int) -> dict[str, str]:
    """The fields of the ``/proc/self/smaps`` entry of the mapping holding ``address``."""
    fields: dict[str, str] = {}
    inside = False
    for line in Path("/proc/self/smaps").read_text().splitlines():
        head = re.match(r"([0-9a-f]+)-([0-9a-f]+) (\S+)", line)
        if head:
            inside = int(head[1], 16) <= address < int(head[2], 16)
            if inside:
                fields["perms"] = head[3]
        elif inside and ":" in line:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    return fields


def test_large_tables_are_their_own_mapping(monkeypatch: pytest.MonkeyPatch) -> None:
    if not Path("/proc/self/smaps").exists():
        pytest.skip("no /proc/self/smaps here")
    rows = 2 * memory.MAPPED_ROWS
    small, _ = _run()
    assert small.TT.flags.owndata  # below MAPPED_ROWS: a plain array
    monkeypatch.setattr(memory, "MAPPED_ROWS", 2 * drive.TT_START)
    s, growths = _run()
    assert [rows for rows, _ in growths] == [drive.TT_START, 2 * drive.TT_START]
    assert (s.result, s.nodes, s.table.count) == (core.R_WON, 25_024, small.table.count)
    assert not s.TT.flags.owndata  # grown past MAPPED_ROWS: new_table's own mapping
    big = memory.new_table(rows)
    assert big.shape == (rows, 2) and not big.any()
    fields = _mapping(big.ctypes.data)
    assert fields["perms"] == "rw-p" and "hg" not in fields["VmFlags"].split(), fields


def _doubled(keys: np.ndarray, rows: int) -> memory.Table:
    """A table of ``rows`` rows holding ``keys``, at the start of its reserve, doubled once."""
    table = memory.Table(np.zeros((rows, 2), dtype=np.uint64), len(keys))
    table.reserve = np.zeros((2 * rows, 2), dtype=np.uint64)
    table.TT = table.reserve[:rows]
    for a, b in keys:
        assert core.tt_insert(table.TT, a, b)
    table.grow(2 * rows)
    return table


def test_a_table_doubled_in_place_holds_its_keys_where_a_probe_finds_them() -> None:
    """Small tables three quarters full, so that runs of full rows often cross the end of the
    half table (rows 8 to 64, 300 each): every key once, each found by ``tt_contains``, in the
    first rows of the reserve. Catches a doubling that leaves the run crossing the end in place,
    one that does not empty a row before inserting its key again (duplicates), one that goes
    through the rows backwards, one that drops the run taken out, and a growth that copies."""
    rng = np.random.default_rng(20261202)
    for rows in (8, 16, 64):
        for _ in range(300):
            n = int(rng.integers(1, rows * 3 // 4 + 1))
            keys = rng.integers(1, 2**63, size=(n, 2), dtype=np.uint64)
            table = _doubled(keys, rows)
            TT = table.TT
            assert TT.shape == (2 * rows, 2) and np.shares_memory(TT, table.reserve)
            held = sorted(map(tuple, TT[TT[:, 1] != 0].tolist()))
            assert held == sorted(map(tuple, keys.tolist()))
            assert all(core.tt_contains(TT, a, b) for a, b in keys)


@pytest.mark.parametrize("anonymous", [True, False], ids=["mapped", "no-mmap"])
def test_a_large_table_doubles_in_place_with_the_same_counts(
    monkeypatch: pytest.MonkeyPatch, anonymous: bool
) -> None:
    """From 2**8 rows, the table in its reserve from 2**9: seven doublings in place, the
    positions, verdict and entries as with the default sizes; the peak is the last table's
    (and the run of rows taken out), not two tables. Catches a growth that copies, one that
    leaves the run crossing the end in place or drops it, one through the rows backwards.
    Without ``mmap.MAP_ANONYMOUS`` (Windows) the reserve is a plain array of zeros, grown in
    place the same way."""
    default, _ = _run()
    monkeypatch.setattr(drive, "TT_START", 1 << 8)
    monkeypatch.setattr(memory, "MAPPED_ROWS", 1 << 9)
    if not anonymous:
        monkeypatch.delattr(mmap, "MAP_ANONYMOUS", raising=False)
    mapped = hasattr(mmap, "MAP_ANONYMOUS")  # the system's own answer in the "mapped" case
    s, growths = _run()
    assert s.table.reserve is not None and s.table.reserve.flags.owndata != mapped
    assert [rows for rows, _ in growths] == [1 << k for k in range(8, 16)]
    assert (s.result, s.nodes, s.table.count) == (core.R_WON, 25_024, default.table.count)
    assert np.shares_memory(s.TT, s.table.reserve)
    assert s.table.peak < s.TT.nbytes + 4096
