"""The finder beams of a solve (:mod:`klondike_widget.solver.finder`).

A finder beam's win is taken as the solve's win, so every such line must win through the engine,
and a beam that finds nothing must change nothing. Here the beams run from the first positions
on the fuzzer's cases of each draw mode (every category, foundation-to-column on and off, with
and without the solver's override), each verdict compared with the fuzzer's brute force
(:func:`fuzz_cases.brute_force`) and each WON line replayed through the engine
(:func:`solver_helpers.compare_case`).
"""

from __future__ import annotations

from collections import Counter

import pytest
from fuzz_cases import Case
from solver_helpers import compare_case, draw_cases

from klondike_widget.engine.deals import deal
from klondike_widget.engine.game import Game
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import Limit, drive, finder, solve

SEED = 20261203
#: Fuzzer cases tried (about half are of the draw mode tested, the others are skipped).
CASES = 240
#: Random endgames added (many of them lost).
ENDGAMES = 60
#: The brute force's budget (positions); beyond it a case is undecided and skipped.
MAX_STATES = 10_000
#: Numbered draw-3 deal 93 (foundation-to-column moves allowed): the search wins it in
#: 223,990 positions, a beam of width 64 with the weights (1, 1, 0) at once.
DEAL = 93
DEAL_NODES = 205_564


@pytest.fixture(scope="module", params=[1, 3], ids=["draw1", "draw3"])
def cases(request: pytest.FixtureRequest) -> tuple[int, list[Case]]:
    """A draw mode's fuzzer cases, and random endgames with and without an override."""
    return request.param, draw_cases(SEED, CASES, ENDGAMES, request.param)


def test_finder_beams_from_the_start_agree_with_the_brute_force(
    cases: tuple[int, list[Case]], monkeypatch: pytest.MonkeyPatch
) -> None:
    draw, found = cases
    monkeypatch.setitem(finder.FINDER_BEAMS, draw, ((0, 8, (1, 1, 0)), (1, 64, (2, 1, 2))))
    by: Counter[tuple[str, str]] = Counter()
    for case in found:
        rec = compare_case(case, nodes=200_000, max_states=MAX_STATES)  # replays a WON line
        assert rec["agree"] is not False, (rec, case.state.to_dict())
        if rec["agree"]:
            by[rec["solver"], rec["decided_by"]] += 1
    # the beams decided many wins (draw 1: 88 of 156, draw 3: 108 of 157); lost: 22 and 19
    assert by["won", "beam"] >= 60, by
    assert by["lost", "search"] + by["lost", "draw-1 relaxation"] >= 10, by


def _solve_deal() -> tuple[str, str, int, Game]:
    state = deal(DEAL, Rules(draw=3, foundation_to_tableau=True))
    res = solve(state, Limit(seconds=None, nodes=2 * DEAL_NODES))
    game = Game(state)
    game.play_line(res.moves)
    return res.status.value, res.extra["decided_by"], res.nodes, game


def test_a_finder_beam_wins_a_deal_the_search_needs_more_positions_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (the counts below are those of turns of 50,000 positions, the second order after 100,000)
    monkeypatch.setattr(drive, "TURN_NODES", 50_000)
    monkeypatch.setattr(drive, "SECOND_ORDER_AFTER", 100_000)
    monkeypatch.setitem(finder.FINDER_BEAMS, 3, ((50_000, 64, (1, 1, 0)),))
    status, by, nodes, game = _solve_deal()
    assert (status, by) == ("won", "beam") and game.is_won
    assert nodes == 50_001  # the beam ran after the first turn (and the relaxation's root)
    # a threshold within a turn: the beam runs once that turn is over (by a clock-free count;
    # between the pieces of a turn, which follow the clock, it ran at 65,664 positions)
    monkeypatch.setitem(finder.FINDER_BEAMS, 3, ((60_000, 64, (1, 1, 0)),))
    assert _solve_deal()[:3] == ("won", "beam", 100_128)
    monkeypatch.setitem(finder.FINDER_BEAMS, 3, ())
    assert _solve_deal()[:3] == ("won", "second order", DEAL_NODES)


def test_a_draw_1_solve_runs_its_own_schedule(monkeypatch: pytest.MonkeyPatch) -> None:
    """Numbered draw-1 deal 432: the talon-first order wins it in 30,518 positions in all (the
    first order alone needs 257,319), long before the draw-1 schedule's beam
    is due; a beam due after 20,000 positions wins it then (20,000 and the three later orders'
    roots)."""
    state = deal(432, Rules(draw=1, foundation_to_tableau=True))
    res = solve(state, Limit(seconds=None, nodes=600_000))
    assert (res.status.value, res.extra["decided_by"], res.nodes) == ("won", "second order", 30_518)
    monkeypatch.setitem(finder.FINDER_BEAMS, 1, ((20_000, 64, (2, 1, 0)),))
    monkeypatch.setitem(finder.FINDER_BEAMS, 3, ())  # (the draw-3 schedule is not read)
    res = solve(state, Limit(seconds=None, nodes=600_000))
    assert (res.status.value, res.extra["decided_by"], res.nodes) == ("won", "beam", 20_003)
    assert res.extra["finder_beams"] == 1
    game = Game(state)
    game.play_line(res.moves)
    assert game.is_won


def test_a_beam_line_that_does_not_win_is_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The finder takes a beam's line only once the engine has replayed it to a win."""
    state = deal(DEAL, Rules(draw=3, foundation_to_tableau=True))
    real = finder.run_beam

    def short(*args: object, **kwargs: object) -> list[int] | None:
        codes = real(*args, **kwargs)  # type: ignore[arg-type]
        return None if codes is None else codes[: len(codes) // 2]

    monkeypatch.setattr(finder, "run_beam", short)
    found = finder.WinFinder(state, schedule=((0, 64, (1, 1, 0)),))
    assert not found.found(0) and found.line is None and found.beams == 1
    monkeypatch.setattr(finder, "run_beam", real)
    found = finder.WinFinder(state, schedule=((10, 64, (1, 1, 0)),))
    assert not found.found(9) and found.beams == 0  # not due yet
    assert found.found(10) and found.line is not None and found.work.spent > 0
