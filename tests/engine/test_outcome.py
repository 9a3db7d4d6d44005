"""One verdict enum and one stop-reason enum, shared by solver, study, analysis and package."""

from __future__ import annotations

import pytest

import klondike_widget
from klondike_widget.engine.outcome import StopReason, Verdict
from klondike_widget.study.record import VERDICTS


def test_the_solver_status_and_the_package_names_are_the_one_enum() -> None:
    from klondike_widget import solver
    from klondike_widget.solver import api

    assert solver.Status is api.Status is klondike_widget.Status is Verdict
    assert solver.Verdict is Verdict and solver.StopReason is StopReason


def test_study_files_use_the_verdict_values() -> None:
    assert VERDICTS == ("won", "lost", "unknown")


@pytest.mark.parametrize(
    ("word", "verdict"),
    [
        ("won", Verdict.WON),
        ("winnable", Verdict.WON),
        ("lost", Verdict.LOST),
        ("unwinnable", Verdict.LOST),
        ("unknown", Verdict.UNKNOWN),
        (Verdict.LOST, Verdict.LOST),
    ],
)
def test_parse_accepts_values_and_widget_words(word: object, verdict: Verdict) -> None:
    assert Verdict.parse(word) is verdict
    assert Verdict.parse(verdict.widget_word) is verdict


@pytest.mark.parametrize("bad", ["", "Won", "solving", None, 1])
def test_parse_rejects_anything_else(bad: object) -> None:
    with pytest.raises(ValueError, match="not a verdict"):
        Verdict.parse(bad)


def test_a_solve_result_reason_is_a_stop_reason_and_equals_its_word() -> None:
    from klondike_widget.engine.deals import deal
    from klondike_widget.solver import Limit, SolveResult, solve

    result = solve(deal(2), Limit(nodes=1))
    assert isinstance(result.reason, StopReason)
    assert result.reason in (StopReason.NODES, StopReason.FINISHED)
    assert SolveResult(Verdict.UNKNOWN, reason="seconds").reason is StopReason.SECONDS
    assert f"{StopReason.CANCELLED}" == "cancelled" == StopReason.CANCELLED
    with pytest.raises(ValueError, match="bored"):
        SolveResult(Verdict.UNKNOWN, reason="bored")


def test_a_verdict_is_never_a_stop_by_the_budget() -> None:
    """WON and LOST are reached, never cut short: a result that says it was stopped (by seconds,
    positions, memory, cancel or depth) and still claims a verdict is refused, so an unproven
    LOST (the bug of ``api._result`` until December 2026) cannot be reported."""
    from klondike_widget.solver import SolveResult

    for verdict in (Verdict.WON, Verdict.LOST):
        assert SolveResult(verdict).reason is StopReason.FINISHED
        for reason in StopReason:
            if reason is not StopReason.FINISHED:
                with pytest.raises(ValueError, match="no stop reason"):
                    SolveResult(verdict, reason=reason)
    for reason in StopReason:
        assert SolveResult(Verdict.UNKNOWN, reason=reason).reason is reason
