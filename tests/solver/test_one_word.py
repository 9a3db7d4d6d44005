"""One-word keys (``core.one_word``): a twin-class key packed into one word, rows of one word.

* Do and undo keep the packed class number and talon set exact, against their values from
  scratch, on every move of mid-game positions of both draw modes. Catches a weight of the
  wrong column or suit, a sign error, a talon bit of the card's current index (not its root
  index), and a talon set not taken back on undo.
* The one-word key is a bijection of the two-word key (with tags) over every position and
  child met: two positions share one if and only if they share the other. Catches a field
  that overlaps another, a tag that leaves out its card, and a pointer class left out.
* ``row_quiet_key`` is the played child's one-word key wherever ``quiet_key`` gives a key.
* A search with one-word rows searches the same positions as one with two-word rows (node
  and visit counts, verdict, line), in both draw modes, with every pruning that tags a key.
* Which positions fit: every deal; not one whose first column holds a face-down card, nor
  one with more than 24 talon cards, nor one with twin classes off.
"""

from __future__ import annotations

import numpy as np
import pytest
from solver_helpers import midgame_positions

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import core, drive, memory, warm_up
from klondike_widget.solver.bridge import encode_state


def _one_word_hashes(state: object) -> tuple[np.ndarray, np.ndarray]:
    S = encode_state(state, foundation_to_tableau=True)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    assert core.fits_one_word(S)
    core.fill_one_word(S, H)
    return S, H


def _scratch(S: np.ndarray, H: np.ndarray) -> tuple[int, int]:
    """``H[H_PACK]`` and ``H[H_TMASK]`` from scratch (the root's talon indices from ``H``)."""
    H2 = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H2)
    talon = 0
    for i in range(int(S[core.O_TN])):
        talon |= 1 << int(H[core.O_TIDX + int(S[core.O_TAL + i])])
    return int(H2[core.H_PACK]), talon


@pytest.mark.parametrize("draw", [1, 3])
def test_do_and_undo_keep_the_packed_words(draw: int) -> None:
    out = np.zeros(256, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    checked = 0
    for state in midgame_positions(300, seed=61, draw=draw, steps=60):
        S, H = _one_word_hashes(state)
        before = H.copy()
        n = core.gen_moves(S, out, mark, False)
        for m in (int(code) for code in out[:n]):
            u = core.do_move(S, H, m)
            assert (int(H[core.H_PACK]), int(H[core.H_TMASK])) == _scratch(S, H), (state, m)
            core.undo_move(S, H, m, u)
            assert np.array_equal(H, before)
            checked += 1
    assert checked > 1000, checked


def _tags(S: np.ndarray, root_talon: set[int]) -> list[int]:
    """The tags a key of position ``S`` may carry: none, King fills, the card of each suit
    that may have come down (the next on its foundation), and in draw 1 talon cards played."""
    tags = [0, core.TAG_KING]
    tags += [
        core.TAG_FND | 13 * s + int(S[core.O_FND + s]) for s in range(4) if S[core.O_FND + s] < 13
    ]
    if S[core.O_DRAW] == 1:
        talon = {int(c) for c in S[core.O_TAL : core.O_TAL + S[core.O_TN]]}
        tags += [core.TAG_TALON | c for c in sorted(root_talon - talon)[:4]]
    return tags


@pytest.mark.parametrize("draw", [1, 3])
def test_one_word_key_is_a_bijection_of_the_two_word_key(draw: int) -> None:
    """Over the children of random walks (the search's own moves) from a few deals, whose
    roots' talon indices the one-word keys use, with every tag a position may carry."""
    out = np.zeros(256, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    pairs = 0
    for number in range(8):  # (the keys of one root's search: its talon indices)
        one_of: dict[tuple[int, ...], int] = {}
        two_of: dict[int, tuple[int, ...]] = {}
        S, H = _one_word_hashes(deal(700 + number, Rules(draw=draw, foundation_to_tableau=True)))
        root_talon = {int(c) for c in S[core.O_TAL : core.O_TAL + S[core.O_TN]]}
        rng = np.random.default_rng(number)
        for _ in range(150):
            n = core.gen_moves(S, out, mark, False)
            if n == 0:
                break
            for m in (int(code) for code in out[:n]):
                u = core.do_move(S, H, m)
                for tag in _tags(S, root_talon):
                    two = tuple(int(w) for w in core.table_key(S, H, tag))
                    one = int(core.row_key(S, H, tag)[0])
                    assert one_of.setdefault(two, one) == one
                    assert two_of.setdefault(one, two) == two
                core.undo_move(S, H, m, u)
            core.do_move(S, H, int(out[rng.integers(n)]))
        pairs += len(one_of)
    assert pairs > 3000, pairs


@pytest.mark.parametrize("draw", [1, 3])
def test_row_quiet_key_is_the_childs_one_word_key(draw: int) -> None:
    out = np.zeros(256, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    AUM = np.zeros(64, dtype=np.int32)
    AUU = np.zeros(64, dtype=np.int64)
    quiet = 0
    for state in midgame_positions(200, seed=62, draw=draw, steps=100):
        S, H = _one_word_hashes(state)
        core.apply_autos(S, H, AUM, AUU, 0)
        n = core.gen_moves(S, out, mark, True)
        for m in (int(code) for code in out[:n]):
            a, b = core.row_quiet_key(S, H, m)
            assert (b != 0) == (core.quiet_key(S, H, m)[1] != 0)
            u = core.do_move(S, H, m)
            if b != 0:
                quiet += 1
                assert a == b and (a, b) == core.row_key(S, H, 0), (state, m)
            core.undo_move(S, H, m, u)
    assert quiet > 100


def _searched(number: int, draw: int, words: int, dominances: int, cap: int) -> tuple[object, ...]:
    always = core.ALW_ALL if words == 1 else core.ALW_ALL & ~core.ALW_ONE_WORD
    s = drive.Search(deal(number, Rules(draw=draw)), dominances=dominances, always=always)
    assert s.TT.shape[1] == words
    while s.result == core.R_BUDGET and s.nodes < cap:
        s.step(min(20_000, cap - s.nodes))
    codes = s.line_codes() if s.result == core.R_WON else []
    return s.result, s.nodes, s.visits, codes


@pytest.mark.parametrize(
    ("draw", "number", "extra"),
    [
        (1, 12, 0),
        (1, 2311, core.DOM_FND_FOLLOW_UPS | core.DOM_KING_FILLS),
        (3, 93, 0),
        (3, 1260, core.DOM_FND_FOLLOW_UPS | core.DOM_KING_FILLS),
    ],
)
def test_one_word_rows_search_the_same_positions(draw: int, number: int, extra: int) -> None:
    warm_up()
    dominances = core.DOM_ALL | extra
    one = _searched(number, draw, 1, dominances, 300_000)
    assert one == _searched(number, draw, 2, dominances, 300_000)
    assert one[1] > 10_000  # (a search, not a won deal at once)


def test_which_positions_fit() -> None:
    S = encode_state(deal(5))
    assert core.fits_one_word(S) and core.row_words(S) == 1
    assert core.row_words(encode_state(deal(5), always=core.ALW_ALL & ~core.ALW_ONE_WORD)) == 2
    assert not core.fits_one_word(encode_state(deal(5), dominances=False))
    odd = S.copy()
    odd[core.O_FD] = 1  # column 0: one face-down card under its top: structure count 2
    odd[core.O_LEN] = 2
    assert not core.fits_one_word(odd)
    long = S.copy()
    long[core.O_TN] = core.ONE_WORD_TALON + 1
    assert not core.fits_one_word(long)


def test_searches_of_other_row_widths_cannot_share_a_table() -> None:
    one = drive.Search(deal(5))
    two = drive.Search(deal(5), always=core.ALW_ALL & ~core.ALW_ONE_WORD)
    before = (one.table, two.table, one.TT.shape, two.TT.shape)
    for search, other in ((one, two), (two, one)):
        with pytest.raises(memory.TableWidthError, match="cannot hold keys"):
            search.share_table(other)
    assert (one.table, two.table, one.TT.shape, two.TT.shape) == before  # nothing changed
    assert one.TT.shape[1] == 1 and two.TT.shape[1] == 2
    twin = drive.Search(deal(5))
    twin.share_table(one)
    assert twin.table is one.table
