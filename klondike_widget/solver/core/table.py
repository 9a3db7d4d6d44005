# mypy: disable-error-code="no-any-return"
"""The transposition table: open addressing over rows of two words, or of one
(:mod:`~klondike_widget.solver.core.one_word`: a key ``(k, k)``), grown by the caller.

A key is a pair ``(a, b)``: a row holds ``a`` in its first word and ``b`` in its last, the
same word when the row has one (``TT.shape[1] == 1``, and then ``a == b``). A row is empty
when its last word is 0, which no key's ``b`` is.

>>> TT = np.zeros((8, 2), dtype=np.uint64)
>>> a, b = np.uint64(5), np.uint64(7)
>>> bool(tt_insert(TT, a, b)), bool(tt_insert(TT, a, b)), bool(tt_contains(TT, a, b))
(True, False, True)
>>> TT1 = np.zeros((8, 1), dtype=np.uint64)  # rows of one word
>>> bool(tt_insert(TT1, b, b)), bool(tt_contains(TT1, b, b)), bool(tt_contains(TT1, a, a))
(True, True, False)
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from .keys import M1, POINTER_BITS, TAG_BITS, U0, U1, mix64
from .layout import core_jit, core_jit_inline

__all__ = [
    "PREFETCH_LINES",
    "PREFETCH_LINES_DRAW1",
    "prefetch_row",
    "tt_contains",
    "tt_hash",
    "tt_home",
    "tt_insert",
    "tt_prefetch",
    "tt_rehash",
    "tt_slot",
    "tt_spread",
    "tt_store",
]


#: Cache lines' worth of rows (64 bytes, four two-word rows; the same rows of one word take two
#: lines) that :func:`tt_prefetch` asks for in draw 3, from a key's first row on. A
#: probe reads the run of full rows from there to the key or the first empty row: at the end of
#: numbered draw-3 deal 1862 (2**24 rows, 0.70 full, keys of one position under its pointers sharing
#: a first row) the read-ahead probes, five a position, read 4.9-5.6 rows over 2.0-2.1 lines on
#: average, and a probe for a key not there 12.4 rows over 3.9 lines. One line left the second to a
#: wait for the memory; three cut 1862's CPU time by about 5%. On the 175 draw-3 searches of
#: numbered deals 1-5000 above 300,000 positions (10 s each, two settings side by side), three lines
#: against one, two and four: 2.3%, 2.9% and 1.9% less CPU time in all (112.8 against 115.4 s, ...;
#: 1.2-5.0% by size class). Since a key replaces its twin under a weaker pointer
#: (``pointers.pointer_probe``, December 7, 2026) the runs are shorter (1862: 0.50 full at the
#: end), yet one line against three still took 1.03-1.10 of the CPU time on numbered draw-3
#: deals 1862, 3063, 4658 and 2011 (``benchmarks/big_table.py``, median of three; 1260 1.00).
PREFETCH_LINES = 3
#: The same in draw 1, where a position has one key (no pointer classes) and the runs are
#: short: on the 77 draw-1 searches of numbered deals 1-5000 above 300,000 positions, one line
#: took 3.2% less CPU time than three (31.50 against 32.55 s), 3.5% less than two and 12.3%
#: less than none (the keys still read ahead, only the rows' prefetch left out).
PREFETCH_LINES_DRAW1 = 1


def prefetch_row(TT: np.ndarray, i: Any) -> None:
    """Ask the processor to bring row ``i`` of ``TT`` into its caches, and go on at once.

    Compiled, it is one ``prefetcht0`` instruction (LLVM's ``llvm.prefetch``, registered
    below): unlike a read, it never waits for the memory, so the search goes on working
    while the row comes in. As plain Python (the uncompiled core of
    :mod:`~klondike_widget.solver.coldstart`) it does nothing: a hint changes no result.
    """


if hasattr(numba, "extending"):  # the uncompiled core's numba is a stand-in with njit alone
    from llvmlite import ir  # type: ignore[import-untyped]
    from numba.core import cgutils as _cgutils
    from numba.core import types

    cg: Any = _cgutils  # (untyped)
    extending: Any = numba.extending

    @extending.intrinsic  # type: ignore[untyped-decorator]
    def _prefetch_intrinsic(typingctx: Any, TT: Any, i: Any) -> Any:
        """``llvm.prefetch`` (read, keep in all cache levels) of row ``i`` of ``TT``."""

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            aty = signature.args[0]
            arr = context.make_array(aty)(context, builder, args[0])
            row = cg.get_item_pointer2(
                context,
                builder,
                data=arr.data,
                shape=cg.unpack_tuple(builder, arr.shape),
                strides=cg.unpack_tuple(builder, arr.strides),
                layout=aty.layout,
                inds=[args[1], context.get_constant(types.intp, 0)],
                wraparound=False,
            )
            i8p = ir.IntType(8).as_pointer()
            i32 = ir.IntType(32)
            fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
            fn = cg.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
            rw, locality, data = ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)
            builder.call(fn, [builder.bitcast(row, i8p), rw, locality, data])
            return context.get_dummy_value()

        return types.void(TT, i), codegen

    _intrinsic: Any = _prefetch_intrinsic

    @extending.overload(prefetch_row, inline="always", jit_options={"_nrt": False})  # type: ignore[untyped-decorator]
    def _prefetch_row_compiled(TT: Any, i: Any) -> Any:
        def compiled(TT: Any, i: Any) -> Any:  # (numba compares the two signatures)
            _intrinsic(TT, i)

        return compiled


@core_jit
def tt_hash(a: np.uint64, b: np.uint64) -> np.uint64:
    """The hash word of key ``(a, b)``, whose low bits are its home row in any table
    (:func:`tt_home`): kept with a key read ahead (``search.child_keys``), it serves the
    key's prefetch and its probe, before and after the table grows. One SplitMix finaliser of
    ``a * M1 + b`` (the multiply is a bijection of ``a``, the finaliser one of the sum). A
    draw-3 search tries four to five children a position, and hashed twice each with two
    nested finalisers (prefetch, then probe) the hashing took about 50 of numbered deal
    1862's 629 ns a position (``benchmarks/perf_profile.py --frames``), and once each with one
    about 13 (576 ns a position). Whole solves of 3 M positions (``benchmarks/big_table.py``,
    median of three): 1862 0.85, 3063 0.95, 2130 0.99 and draw-1 2311 0.99 of the CPU time;
    numbered deals 1-5000, 10 s each: draw 3 131.8 -> 122.0 CPU s, draw 1 44.4 -> 38.6. The
    table is exact, so its hash changes no node count.

    It leaves out the key's pointer
    class (``keys.POINTER_BITS``), so the keys of one position under different pointers lie in
    one run of rows from there (linear probing), which
    :func:`~klondike_widget.solver.core.pointers.pointer_probe` reads in one pass. (In draw
    1 those bits are 0; in an exact-column key they are 6 of its 63 hash bits.)

    It leaves out the tag too (``keys.TAG_BITS``): a restricted child is looked up untagged
    (``pointers.held``) and then inserted tagged, and both probes then read the same rows, the
    second from the cache. With its own home the tagged insert missed the caches once more: in
    draw 1, where every talon play with no automatic move is restricted, sharing the home cut
    the CPU time of the 22 largest draw-1 searches of the side-by-side sets by 8.5% (6.49-6.56
    against 7.05-7.23 s, three runs each; the same positions). (An exact-column key mixes its
    tag into its hash words: there the bits left out are hash bits.)

    >>> a, b = np.uint64(0x123), np.uint64(0x456)
    >>> tagged = (a | np.uint64(1 << 58), b | POINTER_BITS)  # a tag, a pointer class
    >>> int(tt_hash(*tagged)) == int(tt_hash(a, b)) != int(tt_hash(b, a))
    True
    >>> int(tt_home(np.zeros((8, 2), np.uint64), a, b)) == int(tt_hash(a, b)) % 8
    True
    """
    a_home = a & ~TAG_BITS
    b_home = b & ~(POINTER_BITS | TAG_BITS)
    return mix64(a_home * M1 + b_home)


@core_jit
def tt_home(TT: np.ndarray, a: np.uint64, b: np.uint64) -> np.uint64:
    """The row where the search for key ``(a, b)`` starts (its :func:`tt_hash`'s low bits)."""
    return tt_hash(a, b) & np.uint64(TT.shape[0] - 1)


@core_jit_inline
def tt_prefetch(TT: np.ndarray, h: np.uint64, lines: int) -> None:
    """Start bringing in the rows where the search for the key of hash ``h`` starts
    (:func:`tt_hash`, :func:`prefetch_row`): ``lines`` cache lines' worth of two-word rows
    from there, ``4 * lines`` rows (:data:`PREFETCH_LINES`, :data:`PREFETCH_LINES_DRAW1`), so
    that a probe made later finds its run of rows in the cache. One prefetch a line the rows
    fall on: rows of one word are eight to a line, so three lines' worth of them take two
    prefetches (rows ``i`` and ``i + 8``: the lines that rows ``i``, ``i + 4`` and ``i + 8``
    fall on, the third of which was asked for twice before December 2026). A hint asks for no
    other line and changes no node count; numbered draw-3 deal 1862 to 300,000 positions
    (``benchmarks/callgrind_profile.py --frames``): 3,629 -> 3,503 instructions a position in
    ``run_chunk``, 931 -> 873 of them reading the children's keys ahead."""
    mask = np.uint64(TT.shape[0] - 1)
    i = h & mask
    if TT.shape[1] == 1:  # eight rows a line
        for k in range((lines + 1) // 2):
            prefetch_row(TT, (i + np.uint64(8 * k)) & mask)
    else:  # four
        for k in range(lines):
            prefetch_row(TT, (i + np.uint64(4 * k)) & mask)


@core_jit
def tt_slot(TT: np.ndarray, a: np.uint64, b: np.uint64) -> np.uint64:
    """The row holding key ``(a, b)`` in the open-addressing table ``TT`` (see the module),
    or the empty row it would take."""
    mask = np.uint64(TT.shape[0] - 1)
    last = TT.shape[1] - 1
    i = tt_home(TT, a, b)
    while TT[i, last] != U0 and (TT[i, 0] != a or TT[i, last] != b):
        i = (i + U1) & mask
    return i


@core_jit
def tt_store(TT: np.ndarray, i: Any, a: np.uint64, b: np.uint64) -> bool:
    """Write key ``(a, b)`` into row ``i`` of the table, a row that a probe for the key found
    with nothing inserted since: the empty row that ends its run (:func:`tt_slot`), or the row
    of a key with the same home that it replaces (:func:`~.pointers.pointer_probe`). True if
    the row was empty (the table holds one key more).

    >>> TT, k, j = np.zeros((8, 1), dtype=np.uint64), np.uint64(9), np.uint64(5)
    >>> bool(tt_store(TT, 3, k, k)), bool(tt_store(TT, 3, j, j)), int(TT[3, 0])
    (True, False, 5)
    """
    last = TT.shape[1] - 1
    added = TT[i, last] == U0
    TT[i, 0] = a
    TT[i, last] = b
    return added


@core_jit
def tt_insert(TT: np.ndarray, a: np.uint64, b: np.uint64) -> bool:
    """Insert key ``(a, b)`` into the table; False if it was already there."""
    i = tt_slot(TT, a, b)
    return tt_store(TT, i, a, b) if TT[i, TT.shape[1] - 1] == U0 else False


@core_jit
def tt_contains(TT: np.ndarray, a: np.uint64, b: np.uint64) -> bool:
    """True if key ``(a, b)`` is in the table."""
    return bool(TT[tt_slot(TT, a, b), TT.shape[1] - 1] != U0)


@core_jit
def tt_rehash(old: np.ndarray, new: np.ndarray) -> None:
    """Move every key of ``old`` into the (larger, empty) table ``new``."""
    last = old.shape[1] - 1
    for i in range(old.shape[0]):
        if old[i, last] != U0:
            tt_insert(new, old[i, 0], old[i, last])


@core_jit
def tt_spread(TT: np.ndarray, stop: Any) -> None:
    """Double a table in place: ``TT``'s first half holds a table of half its rows, its second
    half is empty; afterwards ``TT`` holds the same keys, each where :func:`tt_slot` finds it.

    Rows ``stop`` to the middle must be empty, and so row ``stop - 1``: the caller takes the
    run of full rows that ends the first half out before, and inserts its keys after. Each key
    of rows ``0`` to ``stop`` is taken out and inserted again, in order. *Argument.* A key's
    home in ``TT`` is ``h`` or ``h`` plus half the rows, ``h`` its home in the half table, and
    rows ``h`` to its row ``i`` were full there (linear probing); with no run of the half table
    crossing its end but the one taken out, ``h`` is at most ``i`` or in the run taken out. So
    the probe that inserts it passes only rows it will never empty: rows up to ``i`` (each
    already taken out, ``i`` itself empty), the run taken out, or the second half (holding only
    keys inserted again), from which it may come round to row 0. Every key then stays where
    :func:`tt_slot` finds it. The grown table is exact, as one rehashed (:func:`tt_rehash`).
    """
    last = TT.shape[1] - 1
    for i in range(stop):
        b = TT[i, last]
        if b != U0:
            a = TT[i, 0]
            TT[i, 0] = U0
            TT[i, last] = U0
            tt_insert(TT, a, b)
