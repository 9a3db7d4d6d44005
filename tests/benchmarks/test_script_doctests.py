"""The examples in the benchmark scripts' docstrings: the suite collects the doctests of the
package and of ``tests`` (``testpaths``), not of ``benchmarks``, so they are run here."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

#: The scripts with examples (every one of them, found by their prompt).
SCRIPTS = sorted(p for p in BENCHMARKS.glob("*.py") if ">>> " in p.read_text())


def test_the_scripts_with_examples_are_found() -> None:
    names = {p.stem for p in SCRIPTS}
    assert {"budget_stops", "callgrind_symbols", "side_by_side", "lonelybot"} <= names, names


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_the_examples_of_a_benchmark_script_hold(script: Path) -> None:
    module = importlib.import_module(script.stem)  # (dataclasses need it in sys.modules)
    flags = doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS
    failed, tried = doctest.testmod(module, optionflags=flags, report=True)
    assert tried > 0 and failed == 0, (script.name, failed, tried)
