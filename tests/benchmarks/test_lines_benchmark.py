"""The line-length benchmark's choice of deals (``benchmarks/lines.py``): Klondike-Solver's
deals of seeds 1-30 by default, the held-out deals of seeds 31-50 with ``--held-out``."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "solver"))

from solver_helpers import KS_LINES, reference_deals

ROOT = Path(__file__).resolve().parents[2]
_SPEC = importlib.util.spec_from_file_location("lines_benchmark", ROOT / "benchmarks" / "lines.py")
assert _SPEC is not None and _SPEC.loader is not None
lines_benchmark = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(lines_benchmark)


def _chosen(held_out: bool) -> set[tuple[int, int]]:
    ks = {(r["seed"], r["draw"]): r for r in map(json.loads, KS_LINES.read_text().splitlines())}
    return {
        (record["seed"], draw)
        for draw in (1, 3)
        for record in reference_deals()
        if lines_benchmark.chosen(record, draw, ks, held_out)
    }


def test_the_default_deals_are_those_with_klondike_solver_lines() -> None:
    chosen = _chosen(False)
    assert len([1 for _, draw in chosen if draw == 1]) == 27
    assert len([1 for _, draw in chosen if draw == 3]) == 23
    assert all(seed <= 30 for seed, _ in chosen)


def test_the_held_out_deals_are_every_deal_of_seeds_31_to_50() -> None:
    held_out = _chosen(True)
    assert held_out == {(seed, draw) for seed in range(31, 51) for draw in (1, 3)}
    assert not held_out & _chosen(False)


def test_no_cap_lifts_the_clock_cap_and_nothing_else(monkeypatch: pytest.MonkeyPatch) -> None:
    shorten, clock = lines_benchmark.shorten_module, lines_benchmark.budget_clock
    monkeypatch.setattr(shorten, "SAFETY", shorten.SAFETY)
    monkeypatch.setattr(clock, "WALL_FACTOR", clock.WALL_FACTOR)
    safety = shorten.SAFETY
    lines_benchmark.set_clock(1000.0, False)
    factor, cap = clock.WALL_FACTOR, shorten.SAFETY
    assert factor == 1000.0 and cap == safety
    lines_benchmark.set_clock(3.0, True)
    factor, cap = clock.WALL_FACTOR, shorten.SAFETY
    assert factor == 3.0 and cap == float("inf")
