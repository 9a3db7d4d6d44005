"""The children's keys the search reads ahead (``search.child_keys``, ``arrays.KY``).

After every position the search enters, ``KY[depth, j, :2]`` must be the untagged table key
of move ``j``'s child, its automatic moves played (second word 0 for a won child),
``KY[depth, j, 2]`` the number of those automatic moves and ``KY[depth, j, 3]`` the key's hash
(``core.tt_hash``, where its probes start; read only where there is a key): the search skips
a child whose key the table holds without playing it, enters a child under its stored key
(or that key tagged, for a restricted child) and plays a child's automatic moves only if it
has some, so a wrong key would skip a position that is not held or enter one under another's
key, a wrong count would search another position, and a wrong hash would probe rows where
the key is not. (Only once the driver gives the search a ``KY``: a search whose table has
``AHEAD_ROWS`` rows; the tests lower the threshold or give it a large table.)

* The keys, counts and hashes equal their recomputation after every position (both draw
  modes: the core reads ahead in either). Catches ``child_keys`` without the automatic moves,
  a count of 0 for every child, and a hash of another key or of the key with its pointer.
* A search that reads ahead from its first position searches the same positions, in the
  same order, as one that does not (node count, result, line, depth, the keys in its table),
  compiled and uncompiled. Catches a search that skips a child on its stored key without
  asking the table (``held``), one that skips on or enters another child's key, one that
  enters a restricted child under its untagged stored key, one that does not ask whether the
  untagged key of a restricted child is held, and one that plays no automatic moves for a
  child whose key is known (checked on the uncompiled core, 20,000 positions each).
* Which searches read ahead: a large table in either draw mode, not a small one. Catches a
  driver that reads ahead in one draw mode only (both gain, see ``drive.AHEAD_DRAWS``), or
  in small tables (which sit in the cache anyway).
"""

from __future__ import annotations

import numpy as np
import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import coldstart, core, drive, warm_up


def _expected(s: drive.Search) -> np.ndarray:
    """The keys of the children of the position at the top of ``s``'s stack, recomputed."""
    a = s.arrays
    depth, aun = int(a.ctl[core.C_DEPTH]), int(a.ctl[core.C_AUN])
    S, H, AUM, AUU = a.S.copy(), a.H.copy(), a.AUM.copy(), a.AUU.copy()
    keys = np.zeros((int(a.NM[depth]), 4), dtype=np.uint64)
    for j in range(keys.shape[0]):
        m = int(a.MV[depth, j])
        follow = core.autos_may_follow(S, m)
        u = core.do_move(S, H, m)
        top = core.apply_autos(S, H, AUM, AUU, aun) if follow else aun
        if not core.is_won(S):
            keys[j, :2] = core.row_key(S, H, 0)
            keys[j, 2] = top - aun
            keys[j, 3] = core.tt_hash(*keys[j, :2])
        while top > aun:
            top -= 1
            core.undo_move(S, H, int(AUM[top]), int(AUU[top]))
        core.undo_move(S, H, m, u)
    assert np.array_equal(H, a.H)  # (S may differ past the talon's end)
    return keys


@pytest.mark.parametrize(("draw", "number", "nodes"), [(1, 5, 300), (3, 18, 300)])
def test_child_keys_match_their_recomputation(
    draw: int, number: int, nodes: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(drive, "AHEAD_DRAWS", (1, 3))
    s = drive.Search(deal(number, Rules(draw=draw, foundation_to_tableau=True)))
    assert s.arrays.KY.shape[0] == 1  # a small table: no keys read ahead
    large = np.zeros((drive.AHEAD_ROWS, s.TT.shape[1]), dtype=np.uint64)  # one that has them
    core.tt_rehash(s.TT, large)
    s.table.TT = large
    s.arrays = s.arrays._replace(TT=large)
    checked = 0
    while s.result == core.R_BUDGET and s.nodes < nodes:
        s.step(1)
        depth = int(s.ctl[core.C_DEPTH])
        if depth == 0:
            continue  # entered before the search had its keys
        n = int(s.arrays.NM[depth])
        got, expected = s.arrays.KY[depth, :n], _expected(s)
        assert np.array_equal(got[:, :3], expected[:, :3])
        keyed = expected[:, 1] != 0  # (the hash of a child with no key is never read)
        assert np.array_equal(got[keyed, 3], expected[keyed, 3])
        checked += n
    assert checked > 200  # children were checked, not only dead ends


def _searched(
    number: int, ahead: bool, cap: int, draw: int = 3, dominances: bool | int = True
) -> tuple[object, ...]:
    rules = Rules(draw=draw, foundation_to_tableau=True)
    s = drive.Search(deal(number, rules), dominances=dominances)
    while s.result == core.R_BUDGET and s.nodes < cap:
        s.step(min(5_000, cap - s.nodes))
    assert (s.arrays.KY.shape[0] == core.MAXD) == ahead
    codes = s.line_codes() if s.result == core.R_WON else []
    # the keys of the positions entered, tagged ones too (rows of one word or two)
    keys = s.TT[s.TT[:, -1] != 0]
    entered = np.sort(keys.view([("w", np.uint64)] * keys.shape[1]).ravel()).tobytes()
    return s.result, s.nodes, codes, int(s.ctl[core.C_MAXDEPTH]), s.overflowed, entered


@pytest.mark.parametrize(("number", "cap"), [(93, 300_000), (1260, 60_000)])
def test_reading_ahead_searches_the_same_positions(
    number: int, cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Numbered draw-3 deal 93 is won after 223,990 positions; 1260 is cut off."""
    warm_up()
    monkeypatch.setattr(drive, "AHEAD_ROWS", drive.TT_START)  # from the first step on
    ahead = _searched(number, True, cap)
    monkeypatch.setattr(drive, "AHEAD_DRAWS", ())
    assert _searched(number, False, cap) == ahead
    assert ahead[0] == (core.R_WON if number == 93 else core.R_BUDGET)


@pytest.mark.parametrize(
    ("draw", "number", "extra"),
    [(3, 93, core.DOM_FND_FOLLOW_UPS), (3, 93, core.DOM_KING_FILLS), (1, 12, 0)],
)
def test_restricted_children_are_entered_alike(
    draw: int, number: int, extra: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restricted child (after a card comes down, a column is emptied, or in draw 1 a
    talon card goes onto a column: the first two prunings are off by default) is entered
    under its tagged key, and only if its untagged key is not held, whether its key was
    read ahead or not. Numbered draw-1 deal 12 is not won in 20,000 positions."""
    warm_up()
    monkeypatch.setattr(drive, "AHEAD_ROWS", drive.TT_START)
    monkeypatch.setattr(drive, "AHEAD_DRAWS", (1, 3))
    dominances = core.DOM_ALL | extra
    ahead = _searched(number, True, 20_000, draw, dominances)
    monkeypatch.setattr(drive, "AHEAD_DRAWS", ())
    assert _searched(number, False, 20_000, draw, dominances) == ahead
    assert ahead[0] == core.R_BUDGET


def test_the_uncompiled_core_reads_ahead_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """The uncompiled core (cold start) runs ``child_keys`` too; its prefetch does nothing."""
    warm_up()
    monkeypatch.setattr(drive, "AHEAD_ROWS", drive.TT_START)
    fast = _searched(6, True, 1_500)
    with coldstart.uncompiled():
        assert _searched(6, True, 1_500) == fast


def test_only_large_tables_read_ahead() -> None:
    rows = drive.AHEAD_ROWS
    cases = ((3, rows, True), (3, rows // 2, False), (1, rows, True), (1, rows // 2, False))
    for draw, table_rows, reads in cases:
        s = drive.Search(deal(18, Rules(draw=draw, foundation_to_tableau=True)))
        large = np.zeros((table_rows, s.TT.shape[1]), dtype=np.uint64)
        core.tt_rehash(s.TT, large)
        s.table.TT = large
        s.arrays = s.arrays._replace(TT=large)
        s.step(10)
        assert (s.arrays.KY.shape[0] == core.MAXD) == reads, (draw, table_rows)
