"""The beam's compiled ranking terms: the blockers a child inherits equal a fresh count."""

from __future__ import annotations

import numpy as np
import pytest
from solver_helpers import mixed_positions

from klondike_widget.solver import beam, core
from klondike_widget.solver.bridge import encode_state


def _blockers_by_hand(S: np.ndarray) -> int:
    """Column cards above a lower card of their own suit, counted in plain Python."""
    total = 0
    for c in range(core.NCOL):
        cards = [int(S[core.O_COLS + c * core.CAP + k]) for k in range(S[core.O_LEN + c])]
        for k, card in enumerate(cards):
            total += any(b // 13 == card // 13 and b % 13 < card % 13 for b in cards[:k])
    return total


@pytest.mark.parametrize("draw", [1, 3])
def test_a_childs_blockers_equal_a_fresh_count_from_deals_and_mid_game(draw: int) -> None:
    out = np.zeros(core.MAXM, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    aum = np.zeros(beam.MAX_AUTOS, dtype=np.int32)
    auu = np.zeros(beam.MAX_AUTOS, dtype=np.int32)
    children = changed = 0
    for state in mixed_positions(draw, 5, range(1, 31), middle=80, ends=80, steps=60):
        S = encode_state(state, dominances=1)
        H = np.zeros(core.H_SIZE, dtype=np.uint64)
        core.compute_hashes(S, H)
        per_column = np.array([beam.column_blockers(S, c) for c in range(core.NCOL)])
        total = int(beam.blockers(S))
        assert total == int(per_column.sum()) == _blockers_by_hand(S)
        for m in out[: core.gen_moves(S, out, mark, True)]:
            code = int(m) & core.MOVE_MASK
            child = S.copy()
            core.do_move(child, H.copy(), code)
            core.column_autos(child, H.copy(), aum, auu, 0)
            fresh = int(beam.blockers(child))
            assert int(beam.child_blockers(child, code, total, per_column)) == fresh
            assert fresh == _blockers_by_hand(child)
            children += 1
            changed += fresh != total
    assert children > 600 and changed > 60  # the moves that change the count were tried
