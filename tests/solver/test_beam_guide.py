"""A beam guided by a line's plays: a move's play is foreign exactly when the engine's play of
it is not among the line's, a position's count of foreign plays is its parent's plus its move's,
and a guide of weight 0 changes nothing (``test_beam.py``: guided beams find only shorter
winning lines)."""

from __future__ import annotations

import numpy as np
import pytest
from solver_helpers import mixed_positions

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, beam, core, solve
from klondike_widget.solver.beam_run import (
    _layer_arrays,
    _scratch,
    beam_layer,
    line_guide,
    run_beam,
)
from klondike_widget.solver.bridge import encode_state, engine_moves
from klondike_widget.solver.reorder import plays_of


def _moves(S: np.ndarray) -> list[int]:
    """The core's move codes of ``S`` (priorities left out), twin swaps too."""
    out = np.zeros(core.MAXM, dtype=np.int32)
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    return [int(m) & 0xFFFFFF for m in out[: core.gen_moves(S, out, mark, True)]]


@pytest.mark.parametrize("draw", [1, 3])
def test_a_moves_play_is_foreign_exactly_when_the_engines_play_is_not_in_the_guide(
    draw: int,
) -> None:
    checked = 0
    for state in mixed_positions(draw, 7, range(1, 21), middle=60, ends=60, steps=50):
        S = encode_state(state, dominances=1)
        for m in _moves(S):
            if m & 7 == core.K_SWAP_FND:
                continue  # two plays, counted as held
            played = engine_moves(state, m)
            own = line_guide(state, played)  # the move's one play (taps are no plays)
            assert int(own.sum()) == 1 and len(plays_of(state, played)) == 1
            assert int(beam.foreign_play(S, m, own)) == 0
            assert int(beam.foreign_play(S, m, (1 - own).astype(np.uint8))) == 1
            checked += 1
    assert checked > 500


def _guided_layers(
    start: GameState, guide: np.ndarray, width: int, depth: int
) -> list[tuple[np.ndarray, ...]]:
    """The first ``depth`` layers of a beam from ``start`` guided by ``guide`` at weight 3, each
    as ``(the layer before it, its positions, their parent indexes, their move codes)``."""
    S = encode_state(start, dominances=1)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    layer = beam_layer(S[None, :], H[None, :], np.zeros(1, dtype=np.int32))
    seen = np.zeros((1 << 18, 2), dtype=np.uint64)
    cand = _scratch(width * core.MAXM)
    ranking = np.array([0, 1, 2, 0, 0, 0, 0, 0, 3], dtype=np.int64)
    best = np.array([10_000, -1, -1, 0, 0], dtype=np.int64)
    layers: list[tuple[np.ndarray, ...]] = []
    nb = 1
    for _ in range(depth):
        nxt = _layer_arrays(width)
        before = layer[0][:nb].copy()
        nb = beam.expand_layer(layer, nxt, seen, cand, nb, ranking, best, guide)
        layers.append((before, nxt[0][:nb].copy(), nxt[3][:nb].copy(), nxt[4][:nb].copy()))
        layer = nxt[:3]
    return layers


@pytest.mark.parametrize("draw", [1, 3])
def test_a_positions_foreign_count_is_its_parents_plus_its_moves(draw: int) -> None:
    start = deal(5, Rules(draw=draw))
    moves = solve(start, Limit(seconds=30)).moves
    guide = line_guide(start, moves[: len(moves) // 2])  # the first half's plays only
    counted = foreign = 0
    for parents, children, parent_of, codes in _guided_layers(start, guide, 64, 12):
        for child, parent, code in zip(children, parent_of, codes, strict=True):
            step = beam.foreign_play(parents[parent], int(code), guide)
            assert child[beam.O_FOREIGN] == parents[parent][beam.O_FOREIGN] + step
            counted += 1
            foreign += int(step)
    assert counted > 300 and 0 < foreign < counted


def test_a_guide_of_weight_0_leaves_a_beam_as_it_was() -> None:
    start = deal(7)
    moves = solve(start, Limit(seconds=30)).moves
    plain = run_beam(start, len(moves), 64, float("inf"), None, salt=3)
    zero = (np.zeros(beam.GUIDE_SHAPE, dtype=np.uint8), 0)
    assert run_beam(start, len(moves), 64, float("inf"), None, salt=3, guide=zero) == plain
    assert plain is not None
