"""Tests of pointer dominance (draw 3): a position skipped, and not entered, once it is in the
table under a stronger pointer (``core.pointer_probe``, switch ``core.DOM_POINTERS``).

* :func:`core.is_stronger` against :func:`core.reachable_talon`, for every talon size and
  pair of pointers: a stronger pointer reaches every card the weaker one does, and more;
* the table scan finds a stronger key wherever linear probing put it (a crowded table), and
  no other; a covered key is not inserted, a fresh one where ``core.tt_contains`` finds it,
  over its twin under a weaker pointer if there is one;
* numbered draw-3 deals searched with and without it: the same verdicts, every won line
  replayed, and fewer positions on some.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import core
from klondike_widget.solver.api import Search


def _reach(n: int, tp: int) -> frozenset[int]:
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    S[core.O_DRAW], S[core.O_TN], S[core.O_TP] = 3, n, tp
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    core.reachable_talon(S, mark)
    return frozenset(i for i in range(n) if mark[i])


def _pointer_class(n: int, tp: int) -> int:
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    S[core.O_DRAW], S[core.O_TN], S[core.O_TP] = 3, n, tp
    return int(core.key_pointer(S))


def test_a_stronger_pointer_reaches_more() -> None:
    """Every pair of pointers of every talon size up to 24: ``is_stronger`` only where the
    reachable cards are a strict superset (and, for class 0, wherever they are one)."""
    pairs = 0
    for n in range(1, 25):
        for tp in range(n + 1):
            q = _pointer_class(n, tp)
            for tp2 in range(n + 1):
                p = _pointer_class(n, tp2)
                if core.is_stronger(p, q, 3):
                    assert _reach(n, tp2) > _reach(n, tp), (n, tp2, tp)
                    pairs += 1
                elif q == 0:
                    assert not _reach(n, tp2) > _reach(n, tp), (n, tp2, tp)
    assert pairs > 1500, pairs


def _position(tp: int) -> np.ndarray:
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    S[core.O_DRAW], S[core.O_TN], S[core.O_TP] = 3, 12, tp
    S[core.O_DOM], S[core.O_ALW] = core.DOM_ALL, core.ALW_ALL
    return S


def _key(a: int, talon: int, ptr: int, words: int = 2) -> tuple[np.uint64, np.uint64]:
    """A key with tableau word ``a``, talon ``talon`` and pointer class ``ptr``: two words,
    or one (``core.one_word``: 31 bits of ``a``, 24 of ``talon``), passed as ``(k, k)``."""
    if words == 1:
        k = (talon & 0xFFFFFF) | ((a & 0x7FFFFFFF) << 24) | (ptr << 58) | (1 << 63)
        return np.uint64(k), np.uint64(k)
    b = talon | (ptr << 52) | (1 << 63)
    return np.uint64(a), np.uint64(b)


def _enter(S: np.ndarray, TT: np.ndarray, a: np.uint64, b: np.uint64) -> bool:
    """Enter key ``(a, b)`` as the search does: store it at the row ``core.pointer_probe``
    returns, unless the probe finds it covered (False)."""
    row = int(core.pointer_probe(S, TT, a, b))
    if row >= 0:
        core.tt_store(TT, row, a, b)
    return row >= 0


def _crowded_table(rng: random.Random, words: int) -> tuple[np.ndarray, int, int]:
    """A table of 1024 rows of ``words`` words, 460 of them full of random keys, and a
    position's tableau and talon words (``a``, ``talon``) for :func:`_key`."""
    TT = np.zeros((1 << 10, words), dtype=np.uint64)
    a, talon = rng.getrandbits(30), rng.getrandbits(23)
    while int((TT[:, -1] != 0).sum()) < 460:
        ptr = rng.choice((0, 1, 2, 4, 5))
        core.tt_insert(TT, *_key(rng.getrandbits(30), rng.getrandbits(23), ptr, words))
    return TT, a, talon


@pytest.mark.parametrize("words", [1, 2])
def test_the_table_scan_finds_the_stronger_key_in_a_crowded_table(words: int) -> None:
    """A table 45% full of other keys, and the position's key under pointer 5, then also under
    4: the scan from the shared first row finds them wherever they lie (5 covers 8 and class
    0, 4 covers 7 and 10), never one of another talon, tableau or residue. Catches a first
    row that still hashes the pointer (the keys of one position then lie anywhere) and a
    residue left out of ``is_stronger``. Rows of two words and of one (``core.one_word``,
    whose pointer lies elsewhere)."""
    rng = random.Random(3)
    for trial in range(30):
        TT, a, talon = _crowded_table(rng, words)
        core.tt_insert(TT, *_key(a ^ 1, talon, 1, words))  # another tableau, a stronger pointer
        core.tt_insert(TT, *_key(a, talon ^ 2, 1, words))  # another talon
        core.tt_insert(TT, *_key(a, talon, 5, words))  # the other residue
        before = {7: False, 10: False, 4: False, 1: False, 8: True, 2: False, 0: True}
        after = {**before, 7: True, 10: True, 4: True}  # (4: the key itself)
        for expected in (before, after):
            for tp, covered in expected.items():
                ptr = tp if tp % 3 else 0
                got = core.held(_position(tp), TT, *_key(a, talon, ptr, words))
                assert bool(got) is covered, (trial, tp, expected is after)
            core.tt_insert(TT, *_key(a, talon, 4, words))
        S = _position(7)
        S[core.O_DOM] &= ~core.DOM_POINTERS  # the switch
        assert not core.held(S, TT, *_key(a, talon, 7, words))


@pytest.mark.parametrize("words", [1, 2])
def test_a_covered_key_is_not_entered_and_a_fresh_one_goes_where_it_is_found(words: int) -> None:
    """Entering a key in a crowded table: a key covered under a stronger pointer is not inserted
    (the table keeps its rows for positions searched: numbered draw-3 deal 3063 at 10 CPU s
    then needs 6.75 M rows, not 8.39 M, and its table stays at 256 MiB, not 512); a fresh key
    is inserted once, in the row ``tt_contains`` and ``tt_insert`` find. Catches the covered
    key inserted before the scan, and a fresh key written at a row other than the end of its
    run (then the table holds it twice)."""
    rng = random.Random(5)
    for trial in range(30):
        TT, a, talon = _crowded_table(rng, words)
        core.tt_insert(TT, *_key(a, talon, 4, words))
        full = int((TT[:, -1] != 0).sum())
        assert not _enter(_position(7), TT, *_key(a, talon, 7, words))  # 4 covers 7
        assert int((TT[:, -1] != 0).sum()) == full and not core.tt_contains(
            TT, *_key(a, talon, 7, words)
        )
        assert _enter(_position(5), TT, *_key(a, talon, 5, words))  # another residue: fresh
        assert core.tt_contains(TT, *_key(a, talon, 5, words)) and not core.tt_insert(
            TT, *_key(a, talon, 5, words)
        )
        assert not _enter(_position(5), TT, *_key(a, talon, 5, words))  # now held as it is
        assert int((TT[:, -1] != 0).sum()) == full + 1, trial


@pytest.mark.parametrize("words", [1, 2])
def test_a_stronger_key_takes_the_row_of_a_weaker_twin(words: int) -> None:
    """Entering a key in a crowded table: a key under a stronger pointer takes the row of its twin
    under a weaker one (class 0 by any other; 10 by 7 by 4, the same residue), so the table holds no
    row more, and a probe then covers what it covered before and the stronger key's own. A
    twin of the other residue covers nothing of the first and takes a row of its own. Catches
    a weaker twin kept beside the stronger key (a row more), a row replaced across residues or
    positions (a key lost: a position it covered searched again), and a replacement not found
    again by ``tt_contains`` or ``tt_insert``."""
    rng = random.Random(7)
    for trial in range(30):
        TT, a, talon = _crowded_table(rng, words)
        core.tt_insert(TT, *_key(a ^ 1, talon, 0, words))  # another tableau: not a twin
        core.tt_insert(TT, *_key(a, talon ^ 2, 0, words))  # another talon: not a twin
        full = int((TT[:, -1] != 0).sum())
        assert _enter(_position(0), TT, *_key(a, talon, 0, words))  # a row more
        for tp, ptr, rows in ((10, 10, 1), (7, 7, 1), (4, 4, 1), (5, 5, 2), (2, 2, 2)):
            assert _enter(_position(tp), TT, *_key(a, talon, ptr, words)), (trial, tp)
            assert int((TT[:, -1] != 0).sum()) == full + rows, (trial, tp)
            assert core.tt_contains(TT, *_key(a, talon, ptr, words))
            assert not core.tt_insert(TT, *_key(a, talon, ptr, words))
        for tp in (0, 3, 4, 7, 10, 2, 5, 8):  # covered: 4 and 2 remain, 0, 10, 7, 5 replaced
            assert core.held(_position(tp), TT, *_key(a, talon, tp if tp % 3 else 0, words))
        assert not core.held(_position(1), TT, *_key(a, talon, 1, words))
        for replaced in (0, 10, 7, 5):
            assert not core.tt_contains(TT, *_key(a, talon, replaced, words)), (trial, replaced)
        for other in (_key(a ^ 1, talon, 0, words), _key(a, talon ^ 2, 0, words)):
            assert core.tt_contains(TT, *other), trial


def _search(number: int, dominances: int, nodes: int) -> tuple[int, int]:
    search = Search(deal(number, Rules(3, True)), dominances=dominances)
    while search.result not in (core.R_WON, core.R_EXHAUSTED) and search.nodes < nodes:
        search.step(nodes)
    if search.result == core.R_WON:
        search.line()  # replayed through the engine
    rows = int((search.TT[:, -1] != 0).sum())
    assert rows == search.table.count, (number, rows, search.table.count)
    if dominances & core.DOM_POINTERS:
        assert rows <= search.nodes, (number, rows, search.nodes)  # (weaker twins replaced)
    else:
        assert rows == search.nodes, (number, rows, search.nodes)
    return search.result, search.nodes


def test_numbered_deals_keep_their_verdicts_with_fewer_positions() -> None:
    """Draw-3 deals 1-40 (foundation cards may come down) at up to 60,000 positions each way:
    where both decide they agree (won lines replayed), and the dominance saves positions; the
    table holds one row per position searched (none for a position skipped as covered: catches
    the search entering it before it asks), and with it no more (a weaker twin's row taken by
    the stronger one)."""
    decided = fewer = saved = 0
    for number in range(1, 41):
        on = _search(number, core.DOM_ALL, 60_000)
        off = _search(number, core.DOM_ALL & ~core.DOM_POINTERS, 60_000)
        if core.R_BUDGET not in (on[0], off[0]) and core.R_GROW not in (on[0], off[0]):
            assert on[0] == off[0], number
            decided += 1
            fewer += on[1] < off[1]
            saved += off[1] - on[1]
    assert decided >= 30 and fewer >= 10 and saved > 0, (decided, fewer, saved)
