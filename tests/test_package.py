"""Packaging contracts: the engine imports no widget machinery; data ships with the package."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

GUI_MODULES = ("ipywidgets", "anywidget", "traitlets")
# Importing the package loads no compiler either: the solver (numba) is imported on first use.
HEAVY_MODULES = (*GUI_MODULES, "numba")
# Design section 1: the engine imports nothing from these layers.
UPPER_LAYERS = (
    "klondike_widget.solver",
    "klondike_widget.widget",
    "klondike_widget.i18n",
    "klondike_widget.study",
)
ENGINE_MODULES = (
    "engine.cards",
    "engine.state",
    "engine.moves",
    "engine.game",
    "engine.deals",
    "engine.notation",
    "render",
)

PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(sys.modules)))
"""


def _modules_after_import(module: str, cwd: Path) -> list[str]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, module],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, f"import {module} failed:\n{proc.stderr}"
    loaded: list[str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return loaded


def _offenders(loaded: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in loaded if any(m == p or m.startswith(p + ".") for p in prefixes)]


def test_import_package_loads_no_widget_libraries(repo_root: Path) -> None:
    loaded = _modules_after_import("klondike_widget", repo_root)
    assert "klondike_widget" in loaded
    assert _offenders(loaded, HEAVY_MODULES) == []


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_engine_module_stays_in_its_layer(repo_root: Path, name: str) -> None:
    loaded = _modules_after_import(f"klondike_widget.{name}", repo_root)
    assert _offenders(loaded, HEAVY_MODULES) == []
    assert _offenders(loaded, UPPER_LAYERS) == []


@pytest.mark.parametrize("name", ["play.scoring", "play.stats", "play.assist", "play.tracker"])
def test_play_modules_need_no_widget_library_and_no_numba(repo_root: Path, name: str) -> None:
    loaded = _modules_after_import(f"klondike_widget.{name}", repo_root)
    assert _offenders(loaded, (*GUI_MODULES, "numba")) == []
    assert _offenders(loaded, ("klondike_widget.widget", "klondike_widget.solver")) == []
