"""The searches' visits (``Search.visits``, ``SolveResult.extra["visits"]``): every child taken,
new to the table or not, as lonelybot counts its ``visits`` (the benchmark compares the two)."""

from __future__ import annotations

import pytest

from klondike_widget.engine.deals import deal
from klondike_widget.engine.rules import Rules
from klondike_widget.solver import Limit, core, solve
from klondike_widget.solver.drive import Search


def _run(number: int, draw: int, chunk: int, cap: int) -> Search:
    search = Search(deal(number, Rules(draw=draw, foundation_to_tableau=True)))
    while search.result == core.R_BUDGET and search.nodes < cap:
        search.step(min(chunk, cap - search.nodes))
    return search


@pytest.mark.parametrize(("number", "draw"), [(3, 1), (18, 3), (22, 1)])
def test_visits_count_the_children_taken_whatever_the_chunks(number: int, draw: int) -> None:
    whole = _run(number, draw, 20_000, 20_000)
    pieces = _run(number, draw, 997, 20_000)
    assert (pieces.result, pieces.nodes) == (whole.result, whole.nodes)
    assert pieces.visits == whole.visits  # carried from chunk to chunk
    # the fresh positions are children taken too; the others found the table holding them
    assert whole.visits > whole.nodes > 1


def test_solve_reports_its_searchs_visits() -> None:
    state = deal(6, Rules(draw=1))  # draw 1: one search (no relaxation), won in some thousands
    result = solve(state, Limit(nodes=30_000), shorten=False)
    search = Search(state)
    while search.result == core.R_BUDGET:
        search.step(1_000)
    assert result.status.value == "won" and search.result == core.R_WON
    assert (result.nodes, result.extra["visits"]) == (search.nodes, search.visits)
    assert result.extra["visits"] > result.nodes > 1000
