"""Shortened solver lines: always a win, never longer; the shorten= option; bad input."""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np
import pytest
from solver_helpers import (
    klondike_solver_lines,
    mixed_positions,
    random_endgame,
    reference_deals,
    reference_state,
)

from klondike_widget.engine.deals import deal
from klondike_widget.engine.line import BrokenLineError, Line
from klondike_widget.engine.moves import Move
from klondike_widget.engine.rules import Rules
from klondike_widget.engine.state import GameState
from klondike_widget.solver import Limit, Status, api, hint, solve
from klondike_widget.solver import shorten as shorten_module
from klondike_widget.solver.beam_run import Ranking, checked_line, run_beam
from klondike_widget.solver.beam_terms import blockers, card_bound, face_down_count, waste_debt
from klondike_widget.solver.bridge import encode_state
from klondike_widget.solver.budget_clock import WALL_FACTOR
from klondike_widget.solver.reorder import reorder_work
from klondike_widget.solver.shorten import (
    WEIGHTS,
    BudgetClock,
    LineLength,
    NotAWinError,
    _refine_tails,
    _Runs,
    check_setting,
    line_length,
    shorten,
    shorten_budget,
    shortened,
)


def _positions(draw: int) -> list[GameState]:
    """Fresh deals, positions along random play and random endgames (about 150)."""
    return mixed_positions(draw, 17, range(1, 41), middle=50, ends=60, steps=50)


@pytest.mark.slow
@pytest.mark.parametrize("draw", [1, 3])
def test_shortened_lines_win_and_are_never_longer(draw: int) -> None:
    won = shorter = 0
    for state in _positions(draw):
        result = solve(state, Limit(seconds=2))
        if result.status is not Status.WON:
            continue
        won += 1
        short = shorten(state, result.moves, seconds=0.03)
        assert Line(state, short).is_winning  # replayed through the engine
        assert len(short) <= len(result.moves)
        # the first beam, one of each round's (its weights and salt by turns) and one from
        # the middle of the line, without a clock (deterministic): each line a beam returns
        # wins and is shorter than the moves it was bounded by
        first = run_beam(state, len(result.moves), 64, float("inf"), None)
        weights = WEIGHTS[won % len(WEIGHTS)]
        salted = run_beam(
            state, len(result.moves), 32, float("inf"), None, weights=weights, salt=won
        )
        cut = len(short) // 2
        middle = Line(state, short).states()[cut]
        tail = run_beam(middle, len(short) - cut, 32, float("inf"), None, weights=weights)
        for origin, codes, bound in (
            (state, first, len(result.moves)),
            (state, salted, len(result.moves)),
            (middle, tail, len(short) - cut),
        ):
            beam_line = None if codes is None else checked_line(origin, codes)
            if beam_line is not None:
                assert Line(origin, beam_line).is_winning and len(beam_line) < bound
                shorter += origin is state
    assert won >= 100  # over 100 positions in each draw mode (246 in all)
    assert shorter >= 2 * won // 3  # not a no-op


def test_a_line_gets_shorter_and_solve_reports_lengths() -> None:
    state = deal(2, Rules(draw=3))
    first = solve(state, Limit(seconds=30))
    res = solve(state, Limit(seconds=30), shorten=0.5)
    assert res.status is Status.WON
    assert Line(state, res.moves).is_winning
    assert res.extra["first_length"] == first.length
    assert res.length.moves == len(res.moves) < len(first.moves)
    assert res.extra["shorten_seconds"] > 0
    assert res.length.taps == sum(m == Move.draw() for m in res.moves)
    assert "first_length" not in first.extra  # off by default in solve
    # the search's own CPU seconds leave out the shortening (0.5 s of it), the call's do not
    assert 0 < first.extra["search_cpu_seconds"] <= first.extra["cpu_seconds"]
    assert res.extra["cpu_seconds"] - res.extra["search_cpu_seconds"] > 0.1


def test_hint_shortens_by_default() -> None:
    state = deal(2)
    h = hint(state, Limit(seconds=30))
    assert h.status is Status.WON and "first_length" in h.extra
    assert len(h.moves) <= h.extra["first_length"].moves
    assert Line(state, h.moves).is_winning


def test_line_length_counts_taps_and_recycles() -> None:
    assert line_length(["s", "s", "r", "w-f", Move.draw()]) == LineLength(5, 3, 1)
    assert line_length([]) == LineLength()


def test_already_won_and_one_move_from_won() -> None:
    state = random_endgame(random.Random(3), 1, 1, True)
    res = solve(state, shorten=True)
    assert res.status is Status.WON and Line(state, res.moves).is_winning


@pytest.mark.parametrize("bad", ["fast", -1, 0, float("nan"), None, [1]])
def test_bad_settings_raise_before_any_search(bad: object) -> None:
    with pytest.raises(ValueError, match="shorten must be"):
        check_setting(bad)
    with pytest.raises(ValueError, match="shorten must be"):
        solve(deal(2), Limit(nodes=10), shorten=bad)  # type: ignore[arg-type]


def test_bad_lines_and_budgets() -> None:
    start = deal(2)
    with pytest.raises(NotAWinError):
        shorten(start, [Move.draw()])
    with pytest.raises(BrokenLineError):
        shorten(start, [Move.parse("w-f")])
    moves = solve(start, Limit(seconds=30)).moves
    for bad in (0, -1.0, "1", True):
        with pytest.raises(ValueError, match="budget"):
            shorten(start, moves, seconds=bad)  # type: ignore[arg-type]
    assert shortened(start, moves, False, 10) == (moves, 0.0)


def test_cancel_returns_the_line_given() -> None:
    start = deal(5)
    moves = solve(start, Limit(seconds=30)).moves
    assert shorten(start, moves, seconds=1.0, cancel=lambda: True) == moves


@pytest.mark.parametrize("draw", [1, 3])
def test_stopping_between_beams_keeps_a_winning_line_no_longer(draw: int) -> None:
    start = deal(7, Rules(draw=draw))
    moves = solve(start, Limit(seconds=30)).moves
    for beams in (1, 2, 3):
        # each beam asks at every layer: stop after about ``beams`` beams of 30 layers
        short = shorten(start, moves, seconds=5.0, cancel=_stop_after(30 * beams))
        assert Line(start, short).is_winning and len(short) <= len(moves)


@pytest.mark.parametrize("draw", [1, 3])
def test_stopping_among_the_tail_beams_keeps_a_winning_line_no_longer(draw: int) -> None:
    start = deal(11, Rules(draw=draw))
    moves = solve(start, Limit(seconds=30)).moves
    for calls in (1, 5, 40, 200):
        run = _Runs(start, moves, 5.0, _stop_after(calls))
        _refine_tails(run)  # beams from positions along the line only, stopped at any layer
        assert Line(start, run.best).is_winning and len(run.best) <= len(moves)
    run = _Runs(start, moves, 0.3, None)
    _refine_tails(run)
    assert len(run.best) < len(moves)  # the tail beams alone shorten the first line


def test_every_tail_share_gets_every_spread_in_turn_and_the_first_tenth_is_guided(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = deal(11)
    moves = solve(start, Limit(seconds=30)).moves
    tried: set[tuple[int, int]] = set()
    guides: dict[int, set[int]] = {}

    def improve(run: _Runs, origin: GameState, width: int, weights: object, *turn: int) -> None:
        cut = Line(start, run.best).states().index(origin)
        _, spread, guided = turn  # the salt, the spread and the guide weight
        tried.add((cut, spread))
        guides.setdefault(cut, set()).add(guided)

    monkeypatch.setattr(_Runs, "improve", improve)
    run = _Runs(start, moves, 1.0, _stop_after(4 * len(shorten_module.TAIL_SHARES)))
    _refine_tails(run)
    cuts = {cut for cut, _ in tried}
    assert len(cuts) == len(shorten_module.TAIL_SHARES)
    assert tried == {(cut, spread) for cut in cuts for spread in shorten_module.TAIL_SPREADS}
    n = len(moves)
    guided = {n - int(n * share) for share in shorten_module.TAIL_GUIDED_SHARES}
    assert guided and all(cut <= n / 10 + 1 for cut in guided)
    assert guides == {
        cut: {shorten_module.TAIL_GUIDE_WEIGHT if cut in guided else 0} for cut in cuts
    }


def _stop_after(calls: int) -> Callable[[], bool]:
    """A cancel test that is true from its ``calls``-th call on."""
    asked = iter(range(10**9))
    return lambda: next(asked) >= calls


def test_the_budget_counts_processor_time_but_ends_on_wall_time_too() -> None:
    clock = BudgetClock()
    time.sleep(0.3)  # no processor time: the wall time over WALL_FACTOR counts
    assert 0.3 / WALL_FACTOR <= clock() < 0.3 / WALL_FACTOR + 0.2
    busy = BudgetClock()
    t0 = time.thread_time()
    while time.thread_time() - t0 < 0.2:
        pass
    assert busy() >= 0.2


@pytest.mark.parametrize("draw", [1, 3])
def test_a_beam_finds_the_same_win_each_time_from_deals_and_mid_game(draw: int) -> None:
    # a beam reuses two layers' arrays by turns: nothing of one beam may leak into the next
    start = deal(7, Rules(draw=draw))
    states = Line(start, solve(start, Limit(seconds=30)).moves).states()
    found = 0
    for start in (states[0], states[40], states[80]):  # a deal and two positions along a win
        runs = [run_beam(start, 250, width, float("inf"), None) for width in (32, 32, 64, 32)]
        assert runs[0] == runs[1] == runs[3]
        for codes in runs:
            line = None if codes is None else checked_line(start, codes)
            assert codes is None or (line is not None and Line(start, line).is_winning)
            found += line is not None
    assert found >= 10  # not a test of None == None


def test_beams_along_the_line_go_first_when_the_first_beam_finds_no_win(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # draw 3 seed 28 of the reference deals: no narrow beam from the start finds a win
    record = next(r for r in reference_deals() if (r["seed"], r["draw"]) == (28, 3))
    start = reference_state(record)
    moves = solve(start, Limit(seconds=30)).moves
    width = shorten_module.FIRST_WIDTH
    first = run_beam(start, len(moves), width, float("inf"), None, weights=WEIGHTS[0])
    assert first is None
    bounds: list[int] = []
    tails = shorten_module._refine_tails

    def refine_tails(run: _Runs, width: int = 128) -> None:
        bounds.append(len(run.best))
        tails(run, width)

    monkeypatch.setattr(shorten_module, "_refine_tails", refine_tails)
    short = shorten(start, moves, seconds=0.3)
    assert bounds[0] == len(moves) and len(bounds) == 2  # first from the line given, at the end
    assert bounds[1] < len(moves)  # the rescue had shortened it before the rounds
    assert Line(start, short).is_winning and len(short) < len(moves)


@pytest.mark.parametrize("draw", [1, 3])
def test_unsalted_start_beams_run_before_the_rounds_and_their_lines_win(
    draw: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    beams = _recorded_beams(monkeypatch)
    start = deal(5, Rules(draw=draw))
    moves = solve(start, Limit(seconds=30)).moves
    short = shorten(start, moves, seconds=1.0)
    assert Line(start, short).is_winning and len(short) <= len(moves)
    calls = [(cut == 0, weights, salt, spread) for cut, _, weights, salt, spread, *_ in beams]
    starts = [(True, weights, 0, spread) for weights, spread in shorten_module.START_BEAMS]
    rounds = next(i for i, (at_start, _, salt, _) in enumerate(calls) if at_start and salt == 1)
    assert calls[rounds - len(starts) : rounds] == starts  # just before the salted rounds
    beams.clear()
    shorten(start, moves, seconds=0.3)  # rounds of width 128: no start beams
    assert all(salt > 0 for cut, _, _, salt, *_ in beams[1:] if cut == 0)
    # each start beam alone, without a clock: a line it returns wins and beats its bound
    for weights, spread in shorten_module.START_BEAMS:
        width = shorten_module.START_BEAM_WIDTH
        codes = run_beam(
            start, len(moves), width, float("inf"), None, weights=weights, spread=spread
        )
        line = None if codes is None else checked_line(start, codes)
        assert codes is None or (line is not None and Line(start, line).is_winning)
        assert line is None or len(line) < len(moves)


def test_an_unsalted_spread_beam_finds_the_line_salted_ones_miss() -> None:
    # draw 1 seed 21 of the reference deals: Klondike-Solver's line has 122 engine moves
    record = next(r for r in reference_deals() if (r["seed"], r["draw"]) == (21, 1))
    start = reference_state(record)
    moves = solve(start, Limit(seconds=30)).moves
    weights, spread = shorten_module.START_BEAMS[0]
    codes = run_beam(start, len(moves), 512, float("inf"), None, weights=weights, spread=spread)
    line = None if codes is None else checked_line(start, codes)
    assert line is not None and Line(start, line).is_winning
    assert len(line) <= 123


#: A beam :func:`shorten` ran: where it started along the best line (0: the start), its
#: width, weights, salt and spread and its bound (the rest of the best line from there).
#: A beam run: ``(cut, width, weights, salt, spread, bound, guide weight)``.
_Beam = tuple[int, int, Ranking, int, int, int, int]


def _recorded_beams(monkeypatch: pytest.MonkeyPatch) -> list[_Beam]:
    """The beams the :func:`shorten` calls from now on run, in order (a list they fill)."""
    beams: list[_Beam] = []
    improve = _Runs.improve

    def recorded(run: _Runs, origin: GameState, width: int, weights: Ranking, *turn: int) -> None:
        salt, spread, guided = (*turn, 0, 0)[:3]
        rest = len(run.rest(origin))
        beams.append((len(run.best) - rest, width, weights, salt, spread, rest, guided))
        improve(run, origin, width, weights, *turn)

    monkeypatch.setattr(_Runs, "improve", recorded)
    return beams


def calls_of(beams: list[_Beam]) -> list[tuple[int, int, Ranking, int, int]]:
    """The recorded ``beams`` without their bounds."""
    return [(cut, w, weights, salt, spread) for cut, w, weights, salt, spread, *_ in beams]


def _scaled_clock(factor: float, pause: float) -> type[BudgetClock]:
    """A budget clock of a machine ``1 / factor`` times as fast as this one, which also
    loses ``pause`` seconds at its second reading (a collector's pause, another process)."""

    class Scaled(BudgetClock):
        readings = 0

        def __call__(self) -> float:
            self.readings += 1
            lost = pause if self.readings > 1 else 0.0
            return factor * (time.thread_time() - self.cpu0) + lost

    return Scaled


def test_the_schedule_is_a_function_of_the_budget_and_the_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # draw 1 seed 29 of the reference deals: when the schedule followed the clock, a machine
    # about twice as slow (or busy) ran one beam of the rounds too few and ended at 187
    # engine moves instead of 164. Counted in work, the beams and the line are the same on a
    # machine ten times as fast as this one, on one four times as fast that loses 0.05 s at
    # the start, and after another deal was shortened first (none of them reaches the cap)
    records = {(r["seed"], r["draw"]): r for r in reference_deals()}
    start = reference_state(records[(29, 1)])
    other = reference_state(records[(10, 1)])
    moves = solve(start, Limit(seconds=30)).moves
    beams = _recorded_beams(monkeypatch)
    lines, schedules = [], []
    for factor, pause, before in ((0.1, 0.0, None), (0.25, 0.05, other)):
        monkeypatch.setattr(shorten_module, "BudgetClock", _scaled_clock(factor, pause))
        if before is not None:
            shorten(before, solve(before, Limit(seconds=30)).moves, seconds=0.3)
        beams.clear()
        lines.append(shorten(start, moves, seconds=0.3))
        schedules.append(list(beams))
    assert schedules[0] == schedules[1] and len(schedules[0]) > 10
    assert lines[0] == lines[1] and Line(start, lines[0]).is_winning
    assert len(lines[0]) < len(moves)


class _LosingClock:
    """A ``time`` module for :mod:`klondike_widget.solver.api` whose wall clock loses
    ``lost`` seconds at each reading after the first (a paused or very busy machine)."""

    def __init__(self, lost: float) -> None:
        self.lost = lost
        self.readings = 0

    def perf_counter(self) -> float:
        self.readings += 1
        return time.perf_counter() + self.lost * (self.readings - 1)

    def thread_time(self) -> float:
        return time.thread_time()


def test_the_default_budget_and_line_do_not_depend_on_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the default budget counts the search's positions: a search whose clock lost seconds
    # gets the same budget and the same line (when the budget was the search's seconds, this
    # one got 1 s instead of 0.3 s); a clock ten times as fast as this machine's keeps the
    # shortening's cap out of reach, so that only the search's clock differs
    record = next(r for r in reference_deals() if (r["seed"], r["draw"]) == (3, 3))
    start = reference_state(record)
    budgets: list[float] = []
    real_shorten = shorten_module.shorten

    def recorded(state: GameState, moves: tuple[Move, ...], seconds: float, **kw: object) -> object:
        budgets.append(seconds)
        return real_shorten(state, moves, seconds, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(shorten_module, "shorten", recorded)
    monkeypatch.setattr(shorten_module, "BudgetClock", _scaled_clock(0.1, 0.0))
    steady = solve(start, Limit(seconds=30), shorten=True)
    monkeypatch.setattr(api, "time", _LosingClock(5.0))
    losing = solve(start, Limit(seconds=30), shorten=True)
    assert losing.seconds >= 5.0 > steady.seconds  # the search's clock did lose the time
    assert budgets == [shorten_budget(steady.nodes)] * 2 and losing.nodes == steady.nodes
    assert losing.moves == steady.moves and Line(start, steady.moves).is_winning
    assert len(steady.moves) < steady.extra["first_length"].moves


def test_narrow_draw_3_rounds_spread_every_beam(monkeypatch: pytest.MonkeyPatch) -> None:
    # at the least width (the default budget of most deals) the draw-3 rounds keep at most two
    # children of a position (draw 3 seed 3 of the reference deals: 119 engine moves with the
    # spreads by turns, 114 so); draw 1 and wider rounds keep both spreads by turns. Counted
    # in work on a clock ten times as fast as this machine's: the cap is out of reach
    records = {(r["seed"], r["draw"]): r for r in reference_deals()}
    monkeypatch.setattr(shorten_module, "BudgetClock", _scaled_clock(0.1, 0.0))
    beams = _recorded_beams(monkeypatch)
    spreads = {}
    for draw in (1, 3):
        start = reference_state(records[(3, draw)])
        moves = solve(start, Limit(seconds=30)).moves
        beams.clear()
        short = shorten(start, moves, seconds=0.3)
        assert Line(start, short).is_winning and len(short) < len(moves)
        rounds = [  # the beams from the start that are neither start beams nor guided tails
            (width, spread)
            for cut, width, _, salt, spread, _, guided in beams
            if not cut and salt and not guided
        ]
        assert rounds and all(width == shorten_module.MIN_WIDTH for width, _ in rounds)
        spreads[draw] = {spread for _, spread in rounds}
        if draw == 3:
            assert len(short) <= 114
    assert spreads == {1: {0, 2}, 3: {2}}
    assert shorten_module.round_spreads(512, 3) == shorten_module.ROUND_SPREADS


@pytest.mark.parametrize(("seed", "draw"), [(10, 1), (10, 3), (8, 1)])
def test_the_talon_beams_run_after_the_rounds_at_a_full_budget_only(
    seed: int, draw: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # draw 1 seed 10 of the reference deals: 3 engine moves over Klondike-Solver's line at 1 s
    # with the draw-3 talon beam (0, 1, 2, 1) (115), its length with the draw-1 ones; draw 1
    # seed 8: 113 with the fitted beam (2, 1, -1) alone, Klondike-Solver's 111 with the
    # blockers' beam (0, 0, 1) beside it. On a clock ten times as fast as this machine's (the
    # cap out of reach, the schedule counted in work)
    records = {(r["seed"], r["draw"]): r for r in reference_deals()}
    start = reference_state(records[(seed, draw)])
    moves = solve(start, Limit(seconds=30)).moves
    monkeypatch.setattr(shorten_module, "BudgetClock", _scaled_clock(0.1, 0.0))
    beams = _recorded_beams(monkeypatch)
    short = shorten(start, moves, seconds=1.0)
    assert Line(start, short).is_winning
    if draw == 1:
        assert len(short) <= len(klondike_solver_lines()[seed, draw].split())
    calls = calls_of(beams)
    beams_of_draw = shorten_module.TALON_BEAMS[draw]
    talon = [(0, width, weights, 0, spread) for weights, spread, width in beams_of_draw]
    at = calls.index(talon[0])
    assert calls[at : at + len(talon)] == talon
    assert any(cut == 0 and salt > 0 for cut, _, _, salt, _ in calls[:at])  # after the rounds
    # then the tails: from along the line, or from the start guided by the line
    assert all(cut > 0 or guided for cut, *_, guided in beams[at + len(talon) :])
    beams.clear()
    shorten(start, moves, seconds=0.5)
    assert beams and not any(call in talon for call in calls_of(beams))


def test_the_draw_1_talon_weights_are_the_rounded_fit_of_minimal_lines() -> None:
    # what a position of Klondike-Solver's draw-1 lines still needs beyond card_bound, fitted
    # to its face-down cards, waste debt and blockers (TALON_BEAMS): the weights rounded
    records = {(r["seed"], r["draw"]): r for r in reference_deals()}
    terms: list[list[int]] = []
    excess: list[int] = []
    for (seed, draw), text in klondike_solver_lines().items():
        if draw != 1:
            continue
        line = Line.parse(text, reference_state(records[(seed, draw)]))
        for i, state in enumerate(line):
            S = encode_state(state, dominances=1)
            terms.append([int(f(S)) for f in (face_down_count, waste_debt, blockers)])
            excess.append(len(line.moves) - i - int(card_bound(S)))
            assert int(blockers(S)) <= int(card_bound(S))  # so a rank of weight -1 stays >= g
    fit = np.linalg.lstsq(np.array(terms, float), np.array(excess, float), rcond=None)[0]
    assert len(excess) > 3000
    assert shorten_module.TALON_BEAMS[1][0][:2] == (tuple(int(w) for w in np.round(fit)), 0)


def test_the_tails_never_run_the_same_beam_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    # the rescue's tails and the last ones, along the same line: the last ones go on where
    # the rescue stopped (the same beam again would find the same line)
    start = deal(11)
    moves = solve(start, Limit(seconds=30)).moves
    tried: list[tuple[int, int, int]] = []

    def improve(run: _Runs, origin: GameState, width: int, weights: object, *turn: int) -> None:
        tried.append((Line(start, run.best).states().index(origin), width, turn[0]))

    monkeypatch.setattr(_Runs, "improve", improve)
    run = _Runs(start, moves, 1.0, None)
    for beams in (5, 12):
        monkeypatch.setattr(run, "fits", lambda width, bound, n=beams: len(tried) < n)
        _refine_tails(run, 128)
    assert len(tried) == 12 and len(set(tried)) == 12
    assert [salt for _, _, salt in tried] == list(range(12))


def test_the_reordering_runs_last_with_its_work_and_within_the_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = deal(5)
    moves = solve(start, Limit(seconds=30)).moves
    beams = _recorded_beams(monkeypatch)
    calls: list[tuple[int, int, bool]] = []

    def reordered(
        begin: GameState, line: tuple[Move, ...], work: int, stop: Callable[[], bool]
    ) -> tuple[Move, ...]:
        calls.append((len(beams), work, stop()))
        return line

    monkeypatch.setattr(shorten_module, "reordered", reordered)
    shorten(start, moves, seconds=0.5)
    assert calls[0][:2] == (len(beams), reorder_work(0.5)) and len(beams) > 1
    # on a clock that has already passed the cap, the reordering is told to stop at once

    class Expired(BudgetClock):
        def __call__(self) -> float:
            return 1e9

    monkeypatch.setattr(shorten_module, "BudgetClock", Expired)
    assert shorten(start, moves, seconds=0.5) == moves
    assert calls[1][2] is True


def test_the_reordering_finds_the_minimal_line_the_beams_miss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # draw 1 seed 17 of the reference deals: the beams' line plays 7h onto 8s after the
    # recycle, one tap longer than Klondike-Solver's minimal line, which plays it in the first
    # pass; reordered, it is as short (on a clock ten times as fast: the schedule in work)
    records = {(r["seed"], r["draw"]): r for r in reference_deals()}
    start = reference_state(records[(17, 1)])
    moves = solve(start, Limit(seconds=30)).moves
    monkeypatch.setattr(shorten_module, "BudgetClock", _scaled_clock(0.1, 0.0))
    short = shorten(start, moves, seconds=1.0)
    assert Line(start, short).is_winning
    assert len(short) == len(klondike_solver_lines()[17, 1].split())
