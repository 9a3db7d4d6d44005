"""``benchmarks/budget_stops.py``: its budgets, and its check on the deal it was built for."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import budget_stops

SCRIPT = Path(budget_stops.__file__)


def test_the_budgets_lie_below_the_count_most_in_its_last_fifth() -> None:
    rng = random.Random(7)
    for total in (2, 3, 10, 1000, 120_658):
        drawn = budget_stops.budgets(total, 5, rng)
        assert len(drawn) == 5 and all(1 <= b < total for b in drawn)
        assert all(b >= min(total - 1, total - total // 5) for b in drawn[1:])
    assert budget_stops.budgets(1, 5, rng) == [] and budget_stops.budgets(9, 0, rng) == []


def test_the_run_checks_stops_on_won_and_lost_deals() -> None:
    # numbered draw-3 deals 290-293: 293 is lost (108,974 positions), its first order exhausted
    # from about 94,000 on while a later one still searches: the window of the December 2026 bug
    command = [sys.executable, str(SCRIPT), "--numbered", "290-293", "--draws", "3", "--stops", "4"]
    out = subprocess.run(
        command,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    row = out.strip().splitlines()[-1].strip("|").split("|")
    deals, won, lost, undecided, stops, decided, wrong = (int(x) for x in row[1:])
    assert (deals, undecided, wrong) == (4, 0, 0) and won + lost == 4 and lost >= 1, out
    assert stops == 16 and decided < stops, out
