# mypy: disable-error-code="no-any-return"
"""Pointer dominance (draw 3): a position is covered by the same one under a stronger pointer.

The talon pointer decides which talon cards taps and recycles bring to the top
(:func:`~klondike_widget.solver.core.talon_moves.reachable_talon`), and nothing else. A pointer
is *stronger* than another when it reaches every card the other reaches, and more
(:func:`is_stronger`). Then a position under the stronger pointer has every move of the same
position under the weaker one, each with the same outcome, so it is won if that one is, and the
search skips the weaker one once the stronger one is in the table (:func:`pointer_probe`).
Numbered draw-3 deal 1260 (exhausted by one order): of the 5.62 M positions entered without the
rule, 2.33 M have a stronger twin in the table by the end; with it, 0.95 M come after their twin
and are skipped (4.67 M positions). A stronger twin that comes after the weaker one is searched:
it reaches cards the weaker one does not; it takes the weaker one's row in the table, which then
covers nothing more (:func:`pointer_probe`). Playing the talon cards highest index first (of two
that commute, the one that leaves the lower pointer last) brings more twins in stronger first
(first order alone: 1260 4.67 -> 4.34 M, 4658 6.51 -> 6.31-6.33 M, with or without the waste
top first), but the fresh 100 draw-3 deals cost 2.60 -> 3.40 M positions (their won lines come
later): the talon order stays fewest taps first. In the second order alone it changed 1260 and
4658 by under 0.2% and cost the fresh 100 2.75 M.

>>> bool(is_stronger(1, 0, 3)), bool(is_stronger(4, 1, 3))  # 1 reaches all that 0 and 4 do
(True, False)
"""

from __future__ import annotations

import numpy as np

from .keys import POINTER_BITS, POINTER_SHIFT, U0, U1
from .layout import (
    ALW_POINTER,
    DOM_POINTERS,
    DOM_TWINS,
    O_ALW,
    O_DOM,
    O_DRAW,
    core_jit,
    core_jit_inline,
)
from .one_word import ONE_POINTER_BITS, ONE_POINTER_SHIFT
from .table import tt_hash

__all__ = [
    "held",
    "is_stronger",
    "pointer_draw",
    "pointer_probe",
    "pointer_probe_at",
    "probe_with",
]


@core_jit
def is_stronger(p: int, q: int, k: int) -> bool:
    """True if pointer class ``p`` reaches every talon card class ``q`` reaches, and more
    (both classes of :func:`~klondike_widget.solver.core.keys.key_pointer`, draw ``k``).

    From pointer ``p`` (``n`` talon cards) the taps and recycles reach the cards at ``p - 1``,
    at ``p + jk - 1`` and at ``jk - 1`` (``j >= 1``, each capped at ``n - 1``): see
    :func:`~klondike_widget.solver.core.talon_moves.reachable_talon`. Class 0 (``p`` a
    multiple of ``k``, or ``p == n``) reaches the last kind alone, which every pointer reaches,
    so every other class is stronger than 0. For ``0 < p < q`` with ``p = q (mod k)``,
    ``q - 1 = p + jk - 1`` and every ``q + jk - 1`` is among ``p``'s, so ``p`` reaches all
    that ``q`` does: within a residue the smaller pointer is the stronger. Two pointers of
    different non-zero residues each reach a card the other does not (below ``n - 1``), and
    class 0 is stronger than none.

    >>> [p for p in range(1, 8) if p % 3 and is_stronger(p, 0, 3)], is_stronger(0, 4, 3)
    ([1, 2, 4, 5, 7], False)
    >>> [p for p in range(1, 8) if is_stronger(p, 7, 3)], is_stronger(2, 4, 3)
    ([1, 4], False)
    """
    return p != 0 and (q == 0 or (p < q and p % k == q % k))


@core_jit
def pointer_draw(S: np.ndarray) -> int:
    """The draw count ``k`` if pointer dominance applies to the position (draw 3, switch
    ``DOM_POINTERS``, twin classes and pointer classes on), else 0."""
    if (
        S[O_DRAW] == 1
        or (S[O_DOM] & DOM_POINTERS) == 0
        or (S[O_DOM] & DOM_TWINS) == 0
        or (S[O_ALW] & ALW_POINTER) == 0
    ):
        return 0
    return int(S[O_DRAW])


@core_jit
def pointer_probe(S: np.ndarray, TT: np.ndarray, a: np.uint64, b: np.uint64) -> int:
    """-1 if the table ``TT`` holds the position whose untagged twin-class key is ``(a, b)``,
    as it is or under a stronger pointer (:func:`is_stronger`; only with :func:`pointer_draw`);
    else the row where the key goes (:func:`~.table.tt_store`): the first row holding the
    position under a weaker pointer, which the key replaces, or else the empty row that ends
    the run (the one :func:`~.table.tt_slot` finds).

    *Argument.* Let ``Q`` be the position and ``P`` the same one under a stronger pointer. The
    moves that read the pointer are the talon plays; ``P`` has every talon play of ``Q`` (its
    pointer reaches every card ``Q``'s does) and a talon play of ``T[i]`` leaves the pointer at
    ``i`` from any pointer, so it leads to the same position from both. Every other move neither
    reads nor moves the pointer, so from ``P`` it leads to its position from ``Q`` under ``P``'s
    pointer, which again covers it. So by induction along any winning line of ``Q`` (the
    automatic moves are moves too), the same line wins from ``P``, in as many moves; with twin
    classes the same holds class by class (a class move is legal and leads to the same class
    under either pointer). ``P`` is in the table: it was entered and is searched to the end
    before the search stops (by the other search, if two share the table: LOST needs both
    exhausted), or covered in turn by a stronger pointer still (which ends, the pointers
    falling). It is not on the search path above ``Q``: only talon plays move the pointer, and
    they shrink the talon, while ``P`` and ``Q`` hold the same talon. If ``Q``
    were won, ``P`` would be won by a line no longer than ``Q``'s, so the search reaching ``P``
    would have found a win: skipping ``Q`` loses no win, and an exhausted search still proves
    the root lost (``Q`` is not lost by fiat: it is lost because ``P`` is, which the exhausted
    search proves).

    ``Q`` is not entered (the search stores a key only at a row this returns, with
    :func:`~.table.tt_store`): it would take a row and search nothing. Each time
    the search reaches it again the same pass finds ``P`` again, or the key that replaced it
    and covers it in turn (the table never deletes a key that nothing covers). The
    keys of a position under its pointers share their first row (:func:`~.table.tt_home`
    leaves the pointer out), so each of them lies in the run of full rows from there, and
    ``(a, b)`` goes to the empty row that ends it: one pass finds both.

    *Replacing a weaker twin.* Once ``Q`` is entered, a key of the same position under a
    weaker pointer answers no probe that ``Q``'s does not (:func:`is_stronger` is transitive:
    what that key covers, ``Q`` covers), so ``Q`` takes its row. The row keeps its home (the
    pointer is not hashed) and stays full, so every other key is found as before, and
    :func:`~.table.tt_spread`'s argument holds. The twin's position was entered and is
    searched as before; it is now covered by ``Q``, which is entered too, so the argument
    above holds of it. A probe still reads the whole run and skips exactly the positions it
    skipped before, so no node count changes: the table holds fewer rows. A position then
    keeps at most one row per residue of its pointer classes (class 0 only while it has no
    other): at the end of numbered draw-3 deal 1862 (12.16 M positions, 2**24 one-word rows)
    8.45 M rows instead of 11.63 M, a load of 0.50 instead of 0.69, and a probe for a key not
    there reads 6.9 rows over 1.7 cache lines from its first row instead of 19.6 over 3.3
    (``benchmarks/table_probes.py``); numbered draw-3 deal 3063's table stays at 2**23 rows,
    its process peaking at 290 MiB instead of 348 (``benchmarks/big_table.py``).
    """
    return pointer_probe_at(S, TT, a, b, tt_hash(a, b))


@core_jit
def pointer_probe_at(
    S: np.ndarray, TT: np.ndarray, a: np.uint64, b: np.uint64, h: np.uint64
) -> int:
    """:func:`pointer_probe` for a key whose :func:`~.table.tt_hash` ``h`` is known (read
    ahead with the key, ``search.child_keys``): the same pass, without hashing the key again.

    One loop for each row format, each reading a row's words once: against one loop for both
    (the pointer's bits chosen by format, each word read for the exact and the pointer test),
    numbered draw-3 deal 1862 to 300,000 positions (``benchmarks/callgrind_profile.py
    --frames``) took 3,503 -> 3,355 instructions a position, 608 -> 460 of them in the probe;
    the whole of 1862 (12.2 M positions, four runs each, alternating) 8.29 -> 8.24 CPU s, and
    draw-1 17068234064540742805 (4.4 M) 1.98 -> 1.96: a probe waits mostly on its rows.
    """
    return probe_with(TT, a, b, h, pointer_draw(S))


@core_jit_inline
def probe_with(TT: np.ndarray, a: np.uint64, b: np.uint64, h: np.uint64, k: int) -> int:
    """:func:`pointer_probe_at` given its :func:`pointer_draw` ``k``, which is the same for
    the whole search: ``search.run_chunk`` reads it once a chunk and probes with this, inlined
    into its loop by numba. (``pointer_probe_at`` is compiled apart, and LLVM left ``run_chunk``
    calling it: the position's and the table's array records passed, the draw read again at
    each probe. Reference deals 22 and 48 to 100,000 positions each, with numba's inlining,
    ``benchmarks/callgrind_profile.py``: 3,401 -> 3,173 instructions a position in draw 3 and
    2,303 -> 2,238 in draw 1, the same positions, December 2026.)"""
    if TT.shape[1] == 1:
        return _one_word_probe(TT, a, h, k)
    # a two-word key holds key_pointer(S) in its second word
    q = np.int64((b & POINTER_BITS) >> POINTER_SHIFT)
    b_rest = b & ~POINTER_BITS
    mask = np.uint64(TT.shape[0] - 1)
    i = h & mask
    weaker = np.int64(-1)
    while TT[i, 1] != U0:
        x, y = TT[i, 0], TT[i, 1]
        if x == a and y == b:
            return -1
        if k != 0 and x == a and (y & ~POINTER_BITS) == b_rest:  # a twin
            p = np.int64((y & POINTER_BITS) >> POINTER_SHIFT)
            if is_stronger(p, q, k):
                return -1
            if weaker < 0 and is_stronger(q, p, k):
                weaker = np.int64(i)
        i = (i + U1) & mask
    return np.int64(i) if weaker < 0 else weaker


@core_jit_inline
def _one_word_probe(TT: np.ndarray, a: np.uint64, h: np.uint64, k: int) -> int:
    """:func:`pointer_probe_at` in a table of one-word rows (key ``(a, a)``): each row read
    once, one comparison for a key that differs in more than its pointer class."""
    bits = ONE_POINTER_BITS
    q = np.int64((a & bits) >> ONE_POINTER_SHIFT)
    mask = np.uint64(TT.shape[0] - 1)
    i = h & mask
    weaker = np.int64(-1)
    while True:
        x = TT[i, 0]
        if x == U0:
            return np.int64(i) if weaker < 0 else weaker
        if x == a:
            return -1
        if k != 0 and ((x ^ a) & ~bits) == U0:  # a twin (the same key up to its pointer class)
            p = np.int64((x & bits) >> ONE_POINTER_SHIFT)
            if is_stronger(p, q, k):
                return -1
            if weaker < 0 and is_stronger(q, p, k):
                weaker = np.int64(i)
        i = (i + U1) & mask


@core_jit
def held(S: np.ndarray, TT: np.ndarray, a: np.uint64, b: np.uint64) -> bool:
    """True if the table holds the untagged key ``(a, b)`` of position ``S``, as it is or under
    a stronger pointer (:func:`pointer_probe`); nothing is inserted."""
    return pointer_probe(S, TT, a, b) < 0
