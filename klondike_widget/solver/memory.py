"""The memory of a transposition table: its mapping (:func:`new_table`) and its growth
(:class:`Table`).

>>> t = Table(new_table(8), 0)
>>> t.grow(1 << 20)
>>> t.TT.shape, t.reserve is None
((16, 2), True)
>>> t = Table(new_table(8, 1), 0); t.grow(1 << 20); t.TT.shape  # rows of one word
(16, 1)
"""

from __future__ import annotations

import mmap

import numpy as np

from klondike_widget.solver.coldstart import CORE as core  # compiled, or uncompiled until then

__all__ = ["MAPPED_ROWS", "new_table", "Table", "TableWidthError"]

#: Tables of this many rows and more (2 MiB of two-word rows) are mapped on their own
#: (:func:`new_table`).
MAPPED_ROWS = 1 << 17


def new_table(rows: int, words: int = 2) -> np.ndarray:
    """An empty transposition table of ``rows`` rows of ``words`` words (two, or one for
    one-word keys: ``core.row_words``); from :data:`MAPPED_ROWS` rows on, its memory is a
    private anonymous mapping of its own, which the kernel fills with zero pages as the table
    first touches them (a table's reserve: :class:`Table`) and takes back when the array goes.

    It is not advised as huge pages (``madvise(MADV_HUGEPAGE)``, from December 2 to 6, 2026):
    fewer TLB misses did not pay for the pages. On the Firecracker machine of December 6, 2026
    (transparent huge pages in ``madvise`` mode) a fresh process touched 256 MiB advised as huge
    pages in 3.15 s (12.3 ms a MiB), and without the advice in 0.08 s (0.32 ms a MiB); a
    table's growths touch all its memory once. ``benchmarks/big_table.py``, a fresh process per
    run, medians of three (process CPU s, advised -> not): fresh draw-1 deal
    14025439185704401209 (9,871,813 positions) 5.38 -> 4.35, numbered draw-3 1862 (12,202,738)
    8.40 -> 7.03, fresh draw-3 7400131697704231946 (5,087,781) 3.37 -> 2.84, fresh draw-1
    13540208507017480269 (3,836,873) 1.63 -> 1.40. A system in ``always`` mode may still back
    the table with huge pages of its own accord.

    >>> t = new_table(MAPPED_ROWS)
    >>> t.shape == (MAPPED_ROWS, 2), t.dtype == np.uint64, int(t.sum()), t.flags.writeable
    (True, True, 0, True)
    """
    if rows < MAPPED_ROWS or not hasattr(mmap, "MAP_ANONYMOUS"):
        return np.zeros((rows, words), dtype=np.uint64)
    # anonymous and private (a shared mapping would be shmem), zeros; unmapped when the array goes
    buf = mmap.mmap(-1, rows * 8 * words, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return np.frombuffer(buf, dtype=np.uint64).reshape(rows, words)


class TableWidthError(ValueError):
    """Two searches whose table rows differ in width cannot share a table."""


class Table:
    """A transposition table and its entry count, held for the searches that share it
    (:meth:`~.drive.Search.share_table`); ``peak`` its largest size in bytes (with the one it
    grew from, when it copied)."""

    def __init__(self, TT: np.ndarray, count: int) -> None:
        self.TT = TT
        self.count = count
        self.peak = int(TT.nbytes)
        #: ``new_table(tt_max)`` once the table has :data:`MAPPED_ROWS` rows: the table is
        #: its first rows, and doubles in place (:meth:`grow`).
        self.reserve: np.ndarray | None = None

    def require_width(self, words: int) -> None:
        """Raise :class:`TableWidthError` unless this table's rows are ``words`` words wide: a
        search writes its keys in its own width, and keys of another width would not be exact.

        >>> Table(new_table(8, 1), 0).require_width(2)
        Traceback (most recent call last):
        ...
        klondike_widget.solver.memory.TableWidthError: 1-word rows cannot hold keys of 2 words
        """
        if self.TT.shape[1] != words:
            raise TableWidthError(f"{self.TT.shape[1]}-word rows cannot hold keys of {words} words")

    def grow(self, tt_max: int) -> None:
        """Double the table (of at most ``tt_max`` rows): rehashed into a new one while small;
        from :data:`MAPPED_ROWS` rows on, the first rows of :attr:`reserve`, doubled in place
        (``core.tt_spread``). A new table is memory touched for the first time, which the
        kernel must clear. Numbered draw-3 deal 1862 (2**24 rows at the end), measured while
        tables were advised as huge pages (see :func:`new_table`): copied, its growths took
        1.3-1.7 CPU s, 1.1-1.5 of them system time, into 496 MiB of new tables, and the process
        peaked at 590 MiB; in place, 0.8-1.1 s, touching its last table's 256 MiB alone, peak
        449 MiB. Without the advice, the growths of fresh draw-1 deal 14025439185704401209's
        first order (9,681,716 positions, 2**24 rows at the end) took 0.24 CPU s in all, with
        it 1.54. The table is exact, so the layout its keys end in changes no node count.
        """
        old, (rows, words) = self.TT, self.TT.shape
        if self.reserve is not None:
            self.TT = self.reserve[: 2 * rows]
            run = 0  # the run of full rows that ends the old table (see core.tt_spread)
            while run < rows and old[rows - 1 - run, -1] != 0:
                run += 1
            tail = old[rows - run :].copy()
            old[rows - run :] = 0
            core.tt_spread(self.TT, rows - run)
            core.tt_rehash(tail, self.TT)
            self.peak = max(self.peak, self.TT.nbytes + tail.nbytes)
            return
        if 2 * rows >= MAPPED_ROWS:
            self.reserve = new_table(tt_max, words)
        new = new_table(2 * rows, words) if self.reserve is None else self.reserve[: 2 * rows]
        core.tt_rehash(old, new)
        self.TT = new
        self.peak = max(self.peak, old.nbytes + new.nbytes)
