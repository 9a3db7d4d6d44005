"""Where a key's probe starts (``core.tt_home``): the tag and the pointer class left out.

A restricted child is looked up untagged (``held``) and inserted tagged; both probes must read
one run of rows, so the tagged keys of a position share the home row of its untagged key
(catches a home that hashes the tag bits, ``keys.TAG_BITS``, as it did before December 2026).
The home must still spread positions over the table: the positions a real search enters
(keys without their tags) land on nearly as many rows as a random function would give
(catches a home that leaves out more than the tag, say a whole word), and every key sits
where ``tt_slot`` finds it.
"""

from __future__ import annotations

import numpy as np
import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import core, drive
from klondike_widget.solver.bridge import encode_state


def _key(S: np.ndarray, H: np.ndarray, tag: int) -> tuple[np.uint64, np.uint64]:
    """``table_key`` as the core holds it (numba returns Python ints, which a call from
    Python would pass as signed integers)."""
    a, b = core.table_key(S, H, tag)
    return np.uint64(a), np.uint64(b)


def test_tagged_keys_share_the_home_of_the_untagged_key() -> None:
    S = encode_state(deal(12, Rules(draw=1)))
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    TT = np.zeros((1 << 16, 2), dtype=np.uint64)
    a, b = _key(S, H, 0)
    tags = [core.TAG_KING] + [t | c for t in (core.TAG_FND, core.TAG_TALON) for c in (0, 25, 51)]
    keys = [_key(S, H, t) for t in tags]
    assert len({(int(x), int(y)) for x, y in keys} | {(int(a), int(b))}) == len(tags) + 1
    assert {int(core.tt_home(TT, x, y)) for x, y in keys} == {int(core.tt_home(TT, a, b))}


def test_tagged_one_word_keys_share_the_home_in_draw_1() -> None:
    """One-word keys (``core.one_word``): a draw-1 tag lies where the pointer would, which the
    home leaves out; a draw-3 tag lies in bits the home hashes (only draw 1 restricts
    positions in a real search)."""
    for draw, shared in ((1, True), (3, False)):
        S = encode_state(deal(12, Rules(draw=draw)))
        H = np.zeros(core.H_SIZE, dtype=np.uint64)
        core.compute_hashes(S, H)
        core.fill_one_word(S, H)
        TT = np.zeros((1 << 16, 1), dtype=np.uint64)
        k = np.uint64(core.row_key(S, H, 0)[0])
        talon = [int(c) for c in S[core.O_TAL : core.O_TAL + 3]] if draw == 1 else []
        tags = [core.TAG_KING, core.TAG_FND | 0] + [core.TAG_TALON | c for c in talon]
        homes = {
            int(core.tt_home(TT, t, t)) for t in (np.uint64(core.row_key(S, H, g)[0]) for g in tags)
        }
        assert (homes == {int(core.tt_home(TT, k, k))}) is shared, draw


@pytest.mark.parametrize("words", [1, 2])
def test_the_homes_of_a_search_spread_over_the_table(words: int) -> None:
    """Rows of two words, or of one (``core.one_word``: a draw-1 tag in the pointer's bits)."""
    always = core.ALW_ALL if words == 1 else core.ALW_ALL & ~core.ALW_ONE_WORD
    s = drive.Search(deal(12, Rules(draw=1)), always=always)
    while s.result == core.R_BUDGET and s.nodes < 20_000:
        s.step(5_000)
    TT = s.TT
    assert TT.shape[1] == words
    tag = int(core.TAG_BITS if words == 2 else core.ONE_POINTER_BITS)
    full = np.flatnonzero(TT[:, -1] != 0)
    assert full.size > 15_000  # tagged entries among them (talon plays in draw 1)
    assert any(int(TT[i, 0]) & tag for i in full)
    homes = {int(core.tt_home(TT, TT[i, 0], TT[i, -1])) for i in full}
    untagged = {(int(TT[i, 0]) & ~tag, int(TT[i, -1]) & ~tag) for i in full}
    rows = TT.shape[0]
    expected = rows * (1 - (1 - 1 / rows) ** len(untagged))  # distinct homes of random ones
    assert len(homes) > 0.9 * expected
    assert all(int(core.tt_slot(TT, TT[i, 0], TT[i, -1])) == i for i in full[::50])
