"""The schedule comparison's settings (``benchmarks/lines_variants.py``): only existing
settings of ``shorten`` are accepted, and each variant's are restored after it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
_SPEC = importlib.util.spec_from_file_location(
    "lines_variants", ROOT / "benchmarks" / "lines_variants.py"
)
assert _SPEC is not None and _SPEC.loader is not None
lines_variants = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(lines_variants)
shorten = lines_variants.shorten_module


def test_a_variant_names_existing_settings_only() -> None:
    assert lines_variants.parse_variant(" TAIL_WIDTH = 1024 ;; TAIL_SPREADS=(0, 2)") == {
        "TAIL_WIDTH": 1024,
        "TAIL_SPREADS": (0, 2),
    }
    for text in ("TAIL_WIDHT=1024", "shorten=1", "LineLength=1"):
        with pytest.raises(ValueError, match="no shorten setting"):
            lines_variants.parse_variant(text)
    with pytest.raises(ValueError, match="malformed"):
        lines_variants.parse_variant("TAIL_WIDTH=__import__('os')")  # literals only


def test_a_variant_s_settings_are_restored_even_after_an_error() -> None:
    width, shares = shorten.TAIL_WIDTH, shorten.TAIL_SHARES

    def fail() -> None:
        assert shorten.TAIL_WIDTH == 7 and shorten.TAIL_SHARES == (0.5,)
        raise RuntimeError("beam")

    with pytest.raises(RuntimeError, match="beam"):
        lines_variants.shorten_with({"TAIL_WIDTH": 7, "TAIL_SHARES": (0.5,)}, fail)
    restored = (shorten.TAIL_WIDTH, shorten.TAIL_SHARES)
    assert restored == (width, shares)
    assert lines_variants.shorten_with({}, lambda: shorten.TAIL_WIDTH) == width
