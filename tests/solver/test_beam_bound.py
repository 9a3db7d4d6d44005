"""The full bound in the beam: the crossed columns' bit-mask matching equals the greedy
matching by hand, and a beam with a bound weight ranks its children by the full bound, drops
those it leaves no cheaper win, and charges the work of each evaluation."""

from __future__ import annotations

import random

import numpy as np
import pytest
from solver_helpers import mixed_positions

from klondike_widget.solver import beam, beam_terms, core
from klondike_widget.solver.beam_run import _scratch, beam_layer
from klondike_widget.solver.bridge import encode_state


def _in_sequence(below: int, card: int) -> bool:
    """``card`` lies in sequence on ``below`` (one rank lower, the other colour)."""
    red = (below // 13 in (1, 2)) != (card // 13 in (1, 2))
    return below % 13 == card % 13 + 1 and red


def _crossed_by_hand(S: np.ndarray, used: int, waste: bool) -> int:
    """:func:`beam_terms.crossed_columns` in plain Python: the cards in order with their
    column, segment and the lowest rank of each suit under them; then the greedy matching."""
    places = []  # (card, column, segment, {suit: lowest rank under it})
    free: dict[int, bool] = {}
    segment = -1
    piles = [
        [int(S[core.O_COLS + c * core.CAP + k]) for k in range(S[core.O_LEN + c])]
        for c in range(core.NCOL)
    ]
    piles.append([int(S[core.O_TAL + i]) for i in range(S[core.O_TP])] if waste else [])
    for c, pile in enumerate(piles):
        low: dict[int, int] = {}
        for k, card in enumerate(pile):
            if c == core.NCOL or k == 0 or not _in_sequence(pile[k - 1], card):
                segment += 1
                free[segment] = True
            suit, rank = divmod(card, 13)
            if rank > low.get(suit, 13) or (used >> card) & 1:
                free[segment] = False
            places.append((card, c, segment, dict(low)))
            low[suit] = min(low.get(suit, 13), rank)
    pairs = 0
    for a, (p, col_a, seg_a, low_a) in enumerate(places):
        for r, col_b, seg_b, low_b in places[a + 1 :]:
            if not free[seg_a]:
                break
            if col_b == col_a or not free[seg_b]:
                continue
            if low_b.get(p // 13, 13) < p % 13 and low_a.get(r // 13, 13) < r % 13:
                free[seg_a] = free[seg_b] = False
                pairs += 1
    return pairs


@pytest.mark.parametrize("draw", [1, 3])
def test_crossed_columns_equal_the_greedy_matching_by_hand(draw: int) -> None:
    rng = random.Random(draw)
    counts = []
    for state in mixed_positions(draw, 11, range(1, 41), middle=120, ends=120, steps=60):
        S = encode_state(state, dominances=1)
        _, used = beam_terms.talon_detours(S)
        for mask in (int(used), 0, rng.getrandbits(52) & rng.getrandbits(52)):
            for waste in (True, False):
                got = int(beam_terms.crossed_columns(S, mask, waste))
                assert got == _crossed_by_hand(S, mask, waste)
                counts.append(got)
    assert sum(c > 0 for c in counts) > 300 and max(counts) >= 3  # not a matching of nothing


def _child(parent: np.ndarray, code: int) -> np.ndarray:
    """The child of ``parent`` by search move ``code`` and its automatic moves."""
    S = parent.copy()
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    core.do_move(S, H, code)
    aum, auu = np.zeros(beam.MAX_AUTOS, dtype=np.int32), np.zeros(beam.MAX_AUTOS, dtype=np.int32)
    core.column_autos(S, H, aum, auu, 0)
    return S


@pytest.mark.parametrize("draw", [1, 3])
def test_a_bound_weight_ranks_and_prunes_by_the_full_bound_and_charges_its_work(draw: int) -> None:
    states = mixed_positions(draw, 3, range(2, 6), middle=12, ends=0, steps=30)
    S0 = np.array([encode_state(s, dominances=1) for s in states])
    H0 = np.zeros((len(states), core.H_SIZE), dtype=np.uint64)
    for i in range(len(states)):
        core.compute_hashes(S0[i], H0[i])
        beam.root_autos(S0[i], H0[i])
    layer = beam_layer(S0, H0, np.zeros(len(states), dtype=np.int32))
    dropped = weighed = 0
    for bound in (60, 75, 90, 200):
        found = {}
        for weight in (0, 1, 2):
            ranking = np.array([0, 1, 2, 0, 0, 0, 0, weight, 0], dtype=np.int64)
            best = np.array([bound, -1, -1, 0, 0], dtype=np.int64)
            cand = _scratch(len(states) * core.MAXM)
            nc = int(beam._candidates(layer, cand, len(states), ranking, best, beam.UNGUIDED))
            CF, CG, _, CP, CM, _ = cand
            found[weight] = {(int(CP[j]), int(CM[j])): (int(CF[j]), int(CG[j])) for j in range(nc)}
            if weight == 0:
                plain_count = nc
            assert int(best[4]) == (beam.BOUND_WORK * plain_count if weight else 0)
        for (parent, code), (rank, g) in found[0].items():
            child = _child(S0[parent], code)
            more = int(beam_terms.blocker_moves(child))
            assert int(beam_terms.lower_bound(child)) == int(beam_terms.card_bound(child)) + more
            if g + int(beam_terms.card_bound(child)) + more >= bound:
                assert (parent, code) not in found[1] and (parent, code) not in found[2]
                dropped += 1
                continue
            assert rank + 2 * more < beam.F_MAX  # no rank cut at the top
            for weight in (1, 2):
                assert found[weight][parent, code] == (rank + weight * more, g)
            weighed += more > 0
        assert len(found[1]) == len(found[2]) <= len(found[0])
    assert dropped > 20 and weighed > 100  # both paths taken
