"""The beam's compiled parts: the blockers a child inherits equal a fresh count; a spread
keeps few children of each position, and its beams still find winning lines."""

from __future__ import annotations

import time

import numpy as np
import pytest
from solver_helpers import mixed_positions

from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import Line
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, beam, core, solve
from klondike_widget.solver.beam_run import (
    Work,
    _layer_arrays,
    _scratch,
    checked_line,
    run_beam,
)
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


def _layers_parents(start: GameState, spread: int, width: int, depth: int) -> list[np.ndarray]:
    """The parent indexes of each of the first ``depth`` layers of a beam from ``start``."""
    S = encode_state(start, dominances=1)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    beam.root_autos(S, H)
    layer = (S[None, :].copy(), H[None, : beam.HW].copy(), np.zeros(1, dtype=np.int32))
    seen = (np.zeros(1 << 18, dtype=np.uint64), np.zeros(1 << 18, dtype=np.int32))
    cand = _scratch(width * core.MAXM)
    ranking = np.array([0, 1, 2, 0, 0, spread], dtype=np.int64)
    best = np.array([10_000, -1, -1, 0, 0], dtype=np.int64)
    nb, parents = 1, []
    for _ in range(depth):
        nxt = _layer_arrays(width)
        nb = beam.expand_layer(layer, nxt, seen, cand, nb, ranking, best)
        parents.append(nxt[3][:nb].copy())
        layer = nxt[:3]
    return parents


@pytest.mark.parametrize("draw", [1, 3])
def test_a_spread_keeps_at_most_that_many_children_of_a_position(draw: int) -> None:
    start = deal(4, Rules(draw=draw))
    crowded = _layers_parents(start, 0, 64, 12)
    spread = _layers_parents(start, 2, 64, 12)
    assert max(np.bincount(p).max() for p in crowded) > 2  # without a spread, more
    assert all(np.bincount(p).max() <= 2 for p in spread)
    assert len(spread[-1]) == 64  # the layers still fill


@pytest.mark.parametrize("draw", [1, 3])
def test_beams_with_a_spread_find_shorter_winning_lines_from_deals_and_mid_game(
    draw: int,
) -> None:
    shorter = 0
    for number in (2, 7, 11):
        start = deal(number, Rules(draw=draw))
        moves = solve(start, Limit(seconds=30)).moves
        states = Line(start, moves).states()
        for cut in (0, len(moves) // 3, len(moves) // 2):
            bound = len(moves) - cut
            codes = run_beam(states[cut], bound, 48, float("inf"), None, spread=2)
            line = None if codes is None else checked_line(states[cut], codes)
            assert codes is None or line is not None  # the engine agrees with every line
            if line is not None:
                assert Line(states[cut], line).is_winning and len(line) < bound
                shorter += 1
    assert shorter >= 5  # not a no-op


@pytest.mark.parametrize("draw", [1, 3])
def test_a_work_budget_stops_a_beam_at_the_same_layer_whatever_the_clock(draw: int) -> None:
    start = deal(7, Rules(draw=draw))
    moves = solve(start, Limit(seconds=30)).moves
    whole = Work(float("inf"))
    run_beam(start, len(moves), 64, float("inf"), None, work=whole)
    assert whole.spent > 10_000  # children and kept positions were counted
    stopped = []
    for clock in (lambda: 0.0, time.thread_time):  # an instant machine and this one
        work = Work(whole.spent // 2)
        codes = run_beam(start, len(moves), 64, float("inf"), None, clock=clock, work=work)
        stopped.append((codes, work.spent))
    assert stopped[0] == stopped[1]  # the same layers searched, the same line (or none)
    assert whole.spent // 4 < stopped[0][1] < whole.spent  # stopped about the limit, not at the end
