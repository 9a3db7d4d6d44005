"""The beam's compiled parts: the blockers a child inherits equal a fresh count; the bound
with the blockers' moves never exceeds the moves left on near-minimal lines; a spread keeps few
children of each position, and its beams still find winning lines."""

from __future__ import annotations

import time

import numpy as np
import pytest
from solver_helpers import (
    klondike_solver_lines,
    mixed_positions,
    reference_deals,
    reference_state,
)

from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import Line
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, beam, beam_terms, core, solve
from klondike_widget.solver.beam_run import (
    NOISE,
    Work,
    _layer_arrays,
    _scratch,
    beam_layer,
    checked_line,
    line_guide,
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
        per_column = np.array([beam_terms.column_blockers(S, c) for c in range(core.NCOL)])
        total = int(beam_terms.blockers(S))
        assert total == int(per_column.sum()) == _blockers_by_hand(S)
        for m in out[: core.gen_moves(S, out, mark, True)]:
            code = int(m) & core.MOVE_MASK
            child = S.copy()
            core.do_move(child, H.copy(), code)
            core.column_autos(child, H.copy(), aum, auu, 0)
            fresh = int(beam_terms.blockers(child))
            assert int(beam_terms.child_blockers(child, code, total, per_column)) == fresh
            assert fresh == _blockers_by_hand(child)
            children += 1
            changed += fresh != total
    assert children > 600 and changed > 60  # the moves that change the count were tried


def _groups_by_hand(cards: list[int]) -> int:
    """The blocker groups of a column (bottom to top), counted in plain Python."""
    groups, previous = 0, None
    for k, card in enumerate(cards):
        if not any(b // 13 == card // 13 and b % 13 < card % 13 for b in cards[:k]):
            continue
        linked = previous is not None and all(
            cards[i] % 13 == cards[i + 1] % 13 + 1
            and (cards[i] // 13 in (1, 2)) != (cards[i + 1] // 13 in (1, 2))
            for i in range(previous, k)
        )
        groups += not linked
        previous = k
    return groups


@pytest.mark.parametrize("draw", [1, 3])
def test_blocker_groups_equal_a_count_by_hand_from_deals_and_mid_game(draw: int) -> None:
    split = 0
    for state in mixed_positions(draw, 6, range(1, 31), middle=80, ends=80, steps=60):
        S = encode_state(state, dominances=1)
        for c in range(core.NCOL):
            cards = [int(S[core.O_COLS + c * core.CAP + k]) for k in range(S[core.O_LEN + c])]
            groups = int(beam_terms.column_groups(S, c))
            assert groups == _groups_by_hand(cards)
            split += 0 < groups < int(beam_terms.column_blockers(S, c))
        waste = [int(S[core.O_TAL + i]) for i in range(S[core.O_TP])]
        assert int(beam_terms.waste_blockers(S)[0]) == sum(
            any(b // 13 == w // 13 and b % 13 < w % 13 for b in waste[:k])
            for k, w in enumerate(waste)
        )
    assert split > 20  # columns whose blockers share moves were met


def _parts(S: np.ndarray) -> dict[str, int]:
    """The parts of :func:`beam_terms.blocker_moves` of ``S`` beyond the column groups."""
    detours, used = beam_terms.talon_detours(S)
    columns = int(beam_terms.crossed_columns(S, used, False))
    return {
        "detours": int(detours),
        "crossings": int(beam_terms.stock_crossings(S, 0)[0]),
        "columns": columns,
        "waste": int(beam_terms.crossed_columns(S, used, True)) - columns,
    }


def test_the_bound_never_exceeds_the_moves_left_on_minimal_lines() -> None:
    """Klondike-Solver's minimal lines: the bound is at most the moves left at every position,
    and equal to them at many, with each part counting (so a bound one higher, or any part
    one higher wherever it counts, exceeds the moves left somewhere)."""
    records = {(r["seed"], r["draw"]): r for r in reference_deals()}
    lines = klondike_solver_lines()
    positions = tight = 0
    tight_parts = dict.fromkeys(("detours", "crossings", "columns", "waste", "two"), 0)
    for key, text in lines.items():
        line = Line.parse(text, reference_state(records[key]))
        for i, state in enumerate(line):
            S = encode_state(state, dominances=1)
            bound = int(beam_terms.lower_bound(S))
            assert bound <= len(line.moves) - i
            assert bound == int(beam_terms.card_bound(S)) + int(beam_terms.blocker_moves(S))
            assert int(beam_terms.blocker_moves(S, False)) <= int(beam_terms.blocker_moves(S))
            positions += 1
            if bound == len(line.moves) - i:
                tight += 1
                for name, value in _parts(S).items():
                    tight_parts[name] += value > 0
                tight_parts["two"] += _parts(S)["detours"] > 1
    assert len(lines) == 50 and positions > 5000 and tight > 1000
    assert min(tight_parts.values()) >= 3, tight_parts


def _layers_parents(start: GameState, spread: int, width: int, depth: int) -> list[np.ndarray]:
    """The parent indexes of each of the first ``depth`` layers of a beam from ``start``."""
    S = encode_state(start, dominances=1)
    H = np.zeros(core.H_SIZE, dtype=np.uint64)
    core.compute_hashes(S, H)
    beam.root_autos(S, H)
    layer = beam_layer(S[None, :], H[None, :], np.zeros(1, dtype=np.int32))
    seen = np.zeros((1 << 18, 2), dtype=np.uint64)
    cand = _scratch(width * core.MAXM)
    ranking = np.array([0, 1, 2, 0, 0, spread, 0, 0, 0], dtype=np.int64)
    best = np.array([10_000, -1, -1, 0, 0], dtype=np.int64)
    nb, parents = 1, []
    for _ in range(depth):
        nxt = _layer_arrays(width)
        nb = beam.expand_layer(layer, nxt, seen, cand, nb, ranking, best, beam.UNGUIDED)
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


@pytest.mark.parametrize("guided", [False, True])
@pytest.mark.parametrize("draw", [1, 3])
def test_beams_with_a_spread_or_a_guide_find_shorter_winning_lines_from_deals_and_mid_game(
    draw: int, guided: bool
) -> None:
    shorter = 0
    for number in (2, 7, 11):
        start = deal(number, Rules(draw=draw))
        moves = solve(start, Limit(seconds=30)).moves
        states = Line(start, moves).states()
        for cut in (0, len(moves) // 3, len(moves) // 2):
            bound = len(moves) - cut
            if guided:  # by the plays of the line's rest
                guide = (line_guide(states[cut], moves[cut:]), 3)
                codes = run_beam(states[cut], bound, 48, float("inf"), None, guide=guide)
            else:
                codes = run_beam(states[cut], bound, 48, float("inf"), None, spread=2)
            line = None if codes is None else checked_line(states[cut], codes)
            assert codes is None or line is not None  # the engine agrees with every line
            if line is not None:
                assert Line(states[cut], line).is_winning and len(line) < bound
                shorter += 1
                for i, state in enumerate(Line(states[cut], line)):  # admissible here too
                    left = len(line) - i
                    assert int(beam_terms.lower_bound(encode_state(state, dominances=1))) <= left
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


@pytest.mark.parametrize("draw", [1, 3])
def test_the_talon_term_counts_the_stock_and_the_waste_and_weighs_in_the_rank(draw: int) -> None:
    plain = np.array([0, 1, 2, 0, 0, 0, 0, 0], dtype=np.int64)
    weighed = plain.copy()
    weighed[6] = 3  # the talon weight
    talons = set()
    for state in mixed_positions(draw, 9, range(1, 11), middle=30, ends=30, steps=40):
        S = encode_state(state, dominances=1)
        talon = len(state.stock) + len(state.waste)
        assert int(beam_terms.talon_count(S)) == talon
        ranks = [int(beam._rank(S, 10, np.uint64(0), r, 1)) for r in (plain, weighed)]
        assert ranks[1] - ranks[0] == 3 * talon
        talons.add(talon)
    assert len(talons) > 10  # full, played-down and empty talons


def test_a_talon_weight_finds_the_opening_that_plays_talon_cards_first() -> None:
    # draw 1 seed 8 of the reference deals: Klondike-Solver's line plays three waste cards
    # (11 taps) before its first column-to-column move, the lines of 1 s without the talon
    # beam two column moves first; the same beam without the talon weight is 2 moves longer
    record = next(r for r in reference_deals() if (r["seed"], r["draw"]) == (8, 1))
    start = reference_state(record)
    shortest = len(klondike_solver_lines()[8, 1].split())
    found = []
    for weights in ((0, 1, 2), (0, 1, 2, 1)):
        codes = run_beam(start, shortest + 3, 2048, float("inf"), None, weights=weights)
        line = None if codes is None else checked_line(start, codes)
        assert line is not None and Line(start, line).is_winning
        found.append(len(line))
    assert found == [shortest + 2, shortest]


def _talon_steps_by_taps(tn: int, p: int, draw: int, i: int) -> int:
    """Taps and recycles, one by one, until ``T[i]`` is the waste top (-1: never)."""
    steps = 0
    while p != i + 1:
        p = min(p + draw, tn) if p < tn else 0
        steps += 1
        if steps > 2 * (tn // draw + 2):
            return -1
    return steps


@pytest.mark.parametrize("draw", [1, 2, 3])
def test_talon_steps_equal_the_taps_and_recycles_played_one_by_one(draw: int) -> None:
    S = np.zeros(core.S_SIZE, dtype=np.int32)
    S[core.O_DRAW] = draw
    for tn in range(25):
        for p in range(tn + 1):
            S[core.O_TN], S[core.O_TP] = tn, p
            got = [int(beam.talon_steps(S, i)) for i in range(-1, tn + 2)]
            assert got == [_talon_steps_by_taps(tn, p, draw, i) for i in range(-1, tn + 2)]


def test_a_rank_is_the_bound_plus_the_weighted_terms_plus_the_salted_tie_break() -> None:
    assert beam.NOISE_BUCKETS == NOISE + 1  # the beams' tie-break takes the constant path
    rng = np.random.default_rng(5)
    ranks = set()
    for state in mixed_positions(1, 9, range(1, 5), middle=20, ends=20, steps=40):
        S = encode_state(state, dominances=1)
        for _ in range(4):
            w = rng.integers(-2, 4, size=4)
            noise, salt = int(rng.choice([0, 2, NOISE])), int(rng.integers(1, 1000))
            key = np.uint64(rng.integers(1, 2**62))
            ranking = np.array([w[0], w[1], w[2], noise, salt, 0, w[3], 0, 0], dtype=np.int64)
            rank = 100 + w[0] * int(beam_terms.face_down_count(S)) + 7 * w[2]
            rank += w[1] * int(beam_terms.waste_debt(S)) + w[3] * int(beam_terms.talon_count(S))
            if noise:
                rank += int(core.mix64(key ^ np.uint64(salt))) % (noise + 1)
            expected = max(0, min(int(rank), beam.F_MAX))
            assert int(beam._rank(S, 100, key, ranking, 7)) == expected
            ranks.add(expected)
    assert len(ranks) > 20  # the terms and the tie-break vary
