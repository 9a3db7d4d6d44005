"""``core.quiet_key``: the key of a child read off its parent, against playing the move."""

from __future__ import annotations

import numpy as np
import pytest
from solver_helpers import midgame_positions

from klondike_widget.solver import core
from klondike_widget.solver.bridge import encode_state


@pytest.mark.parametrize("draw", [1, 3])
def test_quiet_key_is_the_childs_key(draw: int) -> None:
    """For every move the search generates in mid-game positions (foundation-to-column moves
    allowed, twin classes on, the automatic moves played first, as in the search): where
    ``quiet_key`` gives a key, the played child has that key, no automatic move and no win;
    it gives one for every foundation-to-column move, every talon play or run between
    columns (a root's, in twin classes) after which the search asks for no automatic move
    (``autos_may_follow``, read off the parent as the search does), and every column top or
    talon card going up after which the pass plays nothing and the game is not won
    (``up_change`` is exact), and for no other move."""
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    out = np.zeros(256, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    AUM = np.zeros(64, dtype=np.int32)
    AUU = np.zeros(64, dtype=np.int64)
    kinds = (core.K_FND_COL, core.K_TAL_COL, core.K_COL_COL, core.K_COL_FND, core.K_TAL_FND)
    quiet = dict.fromkeys(kinds, 0)
    played_up = 0  # foundation moves the search must play: an automatic move follows
    for state in midgame_positions(400, seed=31, draw=draw, steps=100):
        S = encode_state(state, foundation_to_tableau=True)
        assert S[core.O_DOM] & core.DOM_TWINS
        core.compute_hashes(S, H)
        core.apply_autos(S, H, AUM, AUU, 0)
        n = core.gen_moves(S, out, mark, True)
        for m in (int(code) for code in out[:n]):
            a, b = core.quiet_key(S, H, m)
            kind = core.move_kind(m)
            expected = kind == core.K_FND_COL or (
                kind in (core.K_TAL_COL, core.K_COL_COL) and not core.autos_may_follow(S, m)
            )
            u = core.do_move(S, H, m)
            if kind in (core.K_COL_FND, core.K_TAL_FND):
                follow = core.apply_autos(S, H, AUM, AUU, 0)
                for i in range(follow - 1, -1, -1):
                    core.undo_move(S, H, int(AUM[i]), int(AUU[i]))
                expected = follow == 0 and not core.is_won(S)
                played_up += not expected
            assert (b != 0) == expected, (state, m)
            if b != 0:
                quiet[kind] += 1
                assert (a, b) == core.table_key(S, H, 0), (state, m)
                assert not core.is_won(S)
                assert core.apply_autos(S, H, AUM, AUU, 0) == 0  # no automatic move follows
            core.undo_move(S, H, m, u)
    assert quiet[core.K_FND_COL] > 0, quiet
    assert min(quiet[core.K_TAL_COL], quiet[core.K_COL_COL]) > 20, quiet
    assert min(quiet[core.K_COL_FND], quiet[core.K_TAL_FND]) > 20, quiet
    assert played_up > 0


def test_quiet_key_without_twin_classes() -> None:
    """Without twin classes (exact keys) it gives no key."""
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    out = np.zeros(256, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    for state in midgame_positions(20, seed=32, draw=1):
        S = encode_state(state, foundation_to_tableau=True, dominances=False)
        core.compute_hashes(S, H)
        n = core.gen_moves(S, out, mark, False)
        assert all(core.quiet_key(S, H, int(m)) == (0, 0) for m in out[:n])


def test_quiet_key_of_a_run_that_uncovers_a_king() -> None:
    """A root's run leaving a single face-down King: the King turns up at the bottom of its
    column, where it is no root, so the column's structure count falls by two (from the King
    and the root to nothing), which ``quiet_key`` reads off the parent; and a run that is not
    headed by a King onto an empty column gets no key, or the right one."""
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    S[core.O_DOM] = core.DOM_ALL
    S[core.O_ALW] = core.ALW_ALL
    S[core.O_DRAW] = 1
    S[core.O_LEN] = 2
    S[core.O_FD] = 1
    S[core.O_COLS : core.O_COLS + 2] = [12, 24]  # K♣ face down, Q♦ on it
    S[core.O_LEN + 1] = 1
    S[core.O_COLS + core.CAP] = 51  # K♠ alone in column 1
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    m = core.encode(core.K_COL_COL, 24, 0, 1, 1, 0)  # Q♦ onto K♠
    a, b = core.quiet_key(S, H, m)
    assert not core.autos_may_follow(S, m)
    u = core.do_move(S, H, m)
    assert b != 0 and (a, b) == core.table_key(S, H, 0)
    core.undo_move(S, H, m, u)
    # a run headed by another card onto an empty column (no twin-class move, but quiet_key
    # takes any move): the target gains a root, so no key, or the played child's
    S[core.O_LEN + 1] = 0
    core.compute_hashes(S, H)
    m = core.encode(core.K_COL_COL, 24, 0, 1, 1, 0)
    a, b = core.quiet_key(S, H, m)
    core.do_move(S, H, m)
    assert b == 0 or (a, b) == core.table_key(S, H, 0)
