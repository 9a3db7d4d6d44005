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
    it gives one for every foundation-to-column move and every talon play after which the
    search asks for no automatic move (``needs_autos``), and for no other move."""
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    out = np.zeros(256, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    AUM = np.zeros(64, dtype=np.int32)
    AUU = np.zeros(64, dtype=np.int64)
    quiet = {core.K_FND_COL: 0, core.K_TAL_COL: 0}
    for state in midgame_positions(400, seed=31, draw=draw, steps=100):
        S = encode_state(state, foundation_to_tableau=True)
        assert S[core.O_DOM] & core.DOM_TWINS
        core.compute_hashes(S, H)
        core.apply_autos(S, H, AUM, AUU, 0)
        n = core.gen_moves(S, out, mark, True)
        for m in (int(code) for code in out[:n]):
            a, b = core.quiet_key(S, H, m)
            kind = core.move_kind(m)
            u = core.do_move(S, H, m)
            expected = kind == core.K_FND_COL or (
                kind == core.K_TAL_COL and not core.needs_autos(S, m)
            )
            assert (b != 0) == expected, (state, m)
            if b != 0:
                quiet[kind] += 1
                assert (a, b) == core.table_key(S, H, 0), (state, m)
                assert not core.is_won(S)
                assert core.apply_autos(S, H, AUM, AUU, 0) == 0  # no automatic move follows
            core.undo_move(S, H, m, u)
    assert quiet[core.K_FND_COL] > 0 and quiet[core.K_TAL_COL] > 20, quiet


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
