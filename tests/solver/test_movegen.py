"""Move generation's shortcuts and what they rest on (``core.movegen``, ``core.talon_moves``,
``core.targets``), on positions sampled from real searches and on hand-built ones."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import core
from klondike_widget.solver.bridge import decode_state, face_up_runs
from klondike_widget.solver.drive import Search


def searched_positions(draw: int, deals: range, every: int = 37) -> list[np.ndarray]:
    """Copies of ``S`` every ``every`` positions of twin-class searches of ``deals``."""
    shots = []
    for number in deals:
        search = Search(deal(number, Rules(draw=draw, foundation_to_tableau=True)))
        assert search.S[core.O_DOM] & core.DOM_TWINS
        for _ in range(40):
            if search.step(every) != core.R_BUDGET:
                break
            shots.append(search.S.copy())
    return shots


@pytest.mark.parametrize("draw", [1, 3])
def test_twin_searches_keep_every_face_up_part_a_run(draw: int) -> None:
    """The swap-up finds a covered card by its rank alone (``_abstract_to_foundations``): that
    needs every column's face-up cards to be a run at every position of a twin-class search."""
    shots = searched_positions(draw, range(1, 25), every=23)
    assert len(shots) > 100
    for S in shots:
        assert face_up_runs(decode_state(S, Rules(draw=draw, foundation_to_tableau=True))), S


NINE_S, EIGHT_H, EIGHT_D, SEVEN_C, SIX_D, FIVE_S = 47, 33, 20, 6, 18, 43


def _swap_position(run: list[int]) -> np.ndarray:
    """Column 0: face down 3♦ 5♣ under ``run``; column 1: 8♦ alone (the twin of 8♥); the
    foundations A-3♣, A-2♦, A-7♥ (8♥ next), A-3♠."""
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    column = [15, 4, *run]
    S[core.O_COLS : core.O_COLS + len(column)] = column
    S[core.O_LEN] = len(column)
    S[core.O_FD] = 2
    S[core.O_COLS + core.CAP] = EIGHT_D
    S[core.O_LEN + 1] = 1
    S[core.O_FND : core.O_FND + 4] = [3, 2, 7, 3]
    S[core.O_DRAW] = 1
    S[core.O_F2T] = 1
    S[core.O_DOM] = core.DOM_ALL
    S[core.O_ALW] = core.ALW_ALL
    return S


@pytest.mark.parametrize(
    ("run", "count"),
    [
        ([NINE_S, EIGHT_H, SEVEN_C, SIX_D, FIVE_S], 3),
        ([NINE_S, EIGHT_H, SEVEN_C], 1),
        ([EIGHT_H, SEVEN_C, SIX_D], 2),  # 8♥ the run's bottom, on face-down cards
        ([NINE_S, EIGHT_H], 0),  # 8♥ a column top: it goes up itself
    ],
)
def test_swap_up_finds_the_covered_card_in_its_run(run: list[int], count: int) -> None:
    """8♥, next on its foundation, lies in column 0 under ``count`` cards and its twin 8♦ tops
    column 1: the run on 8♥ moves onto 8♦ and 8♥ goes up (one move), wherever in the run it
    lies; uncovered, it goes up from the top."""
    S = _swap_position(run)
    out = np.zeros(core.MAXM, dtype=np.int32)
    n = core.gen_moves(S, out, np.zeros(core.SCR_SIZE, dtype=np.int32), True)
    ups = [
        (int(core.move_kind(m)), int(core.move_src(m)), int(core.move_count(m)))
        for m in out[:n]
        if core.move_card(m) == EIGHT_H and core.move_kind(m) in (core.K_SWAP_FND, core.K_COL_FND)
    ]
    assert ups == [(core.K_SWAP_FND, 0, count) if count else (core.K_COL_FND, 0, 1)]


@pytest.mark.parametrize("draw", [1, 3])
def test_landing_and_reach_masks_match_their_definitions(draw: int) -> None:
    """``mark_landings``'s mask holds exactly the cards ``landing_column`` finds a column for
    (the first empty column as ``mark_tops`` gives it), and ``reach_mask`` exactly the talon
    indices a tap-by-tap walk of the talon brings to the top (each in reach of the pointer, or
    of a recycle too)."""
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    landed = 0
    for S in searched_positions(draw, range(1, 6)):
        first_empty, mask = (int(x) for x in core.mark_landings(S, mark))
        assert first_empty == core.mark_tops(S, mark)
        for card in range(52):
            has = core.landing_column(S, mark, card, first_empty) >= 0
            assert bool((mask >> card) & 1) == has, card
            landed += has
        core.unmark_tops(S, mark)
        tn, tp, k = int(S[core.O_TN]), int(S[core.O_TP]), int(S[core.O_DRAW])
        for recycles in (False, True):
            seen, p = ({tp - 1} if tp > 0 else set()), tp
            for _ in range(2 * tn + 2):  # more taps than a round of the talon and back needs
                if p == tn and not recycles:
                    break
                p = 0 if p == tn else min(p + k, tn)  # a recycle, or a tap
                if p > 0:
                    seen.add(p - 1)
            got = int(core.reach_mask(S, recycles))
            assert {i for i in range(tn) if (got >> i) & 1} == seen, (tn, tp, recycles)
    assert landed > 100


def _talon_moves_by_scan(S: np.ndarray, mark: np.ndarray, first_empty: int) -> list[int]:
    """What ``abstract_talon_moves`` must write, by its definition: every reachable talon index
    in turn from the waste top round to the one before it, its card up if next, then onto the
    first column ``landing_column`` gives; in the second order onto a column ranked by the card's
    place in lonelybot's masks (rank, then hearts, diamonds, clubs, spades), and up below that;
    in the talon-first order up and onto a column above every other move (onto a column first),
    in the talon-last order below every move but a foundation card's (up first)."""
    tn, tp = int(S[core.O_TN]), int(S[core.O_TP])
    if S[core.O_DRAW] == 1:
        reach = (1 << tn) - 1
    else:
        reach = int(core.reach_mask(S, not core.last_talon_card_first(S)))
    order = int(S[core.O_ORDER])
    reveals = order == core.ORDER_REVEALS
    up = {
        core.ORDER_DEFAULT: 55,
        core.ORDER_REVEALS: 20,
        core.ORDER_TALON: 85,
        core.ORDER_TALON_LAST: 15,
    }[order]
    start = max(tp - 1, 0)
    moves = []
    for i in [*range(start, tn), *range(start)]:
        card = int(S[core.O_TAL + i])
        if not (reach >> i) & 1:
            continue
        if S[core.O_FND + card // 13] == card % 13:
            moves.append(core.encode(core.K_TAL_FND, card, i, 0, 1, up))
        t = int(core.landing_column(S, mark, card, first_empty))
        if t >= 0:
            prio = 74 - (4 * (card % 13) + (2, 1, 0, 3)[card // 13]) if reveals else 40
            prio = {core.ORDER_TALON: 90, core.ORDER_TALON_LAST: 12}.get(order, prio)
            moves.append(core.encode(core.K_TAL_COL, card, i, t, 1, prio))
    return moves


@pytest.mark.parametrize("draw", [1, 3])
def test_talon_moves_visit_the_reachable_useful_indices_in_order(draw: int) -> None:
    """``abstract_talon_moves`` visits only the set bits of its index masks (``talon_indices``
    of the cards that can move, with ``reach_mask``), lowest bit first (``low_bit``): its moves,
    in their order, are those of a scan of the whole talon from the waste top, at every pointer
    of the talon, in every move order and with the deck rule (``DOM_LAST_TALON_UP``) on and
    off (in draw 3 it drops cards at some of these positions)."""
    mark = np.zeros(core.SCR_SIZE, dtype=np.int32)
    out = np.zeros(core.MAXM, dtype=np.int32)
    kinds = {core.K_TAL_FND: 0, core.K_TAL_COL: 0}
    deck_rule = 0
    for shot in searched_positions(draw, range(1, 9), every=19):
        orders = (core.ORDER_DEFAULT, core.ORDER_REVEALS, core.ORDER_TALON, core.ORDER_TALON_LAST)
        for tp, order in itertools.product(range(shot[core.O_TN] + 1), orders):
            for dom in (shot[core.O_DOM], shot[core.O_DOM] & ~core.DOM_LAST_TALON_UP):
                S = shot.copy()
                S[core.O_TP], S[core.O_ORDER], S[core.O_DOM] = tp, order, dom
                first_empty, landing = core.mark_landings(S, mark)
                n = core.abstract_talon_moves(S, out, 0, mark, first_empty, landing)
                want = _talon_moves_by_scan(S, mark, first_empty)
                core.unmark_tops(S, mark)
                assert [int(m) for m in out[:n]] == want, S
                deck_rule += bool(core.last_talon_card_first(S))
                for m in want:
                    kinds[int(core.move_kind(m))] += 1
    assert min(kinds.values()) > 10, kinds
    assert deck_rule > 0 or draw == 1
