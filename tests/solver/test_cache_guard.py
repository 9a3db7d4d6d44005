"""numba's cache and ``core/cache_guard``: a change to one module recompiles its callers too."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import klondike_widget.solver.core.cache_guard as cache_guard

CALLEE = "from numba import njit\n\n\n@njit(cache=True)\ndef f():\n    return {value}\n"
CALLER = (
    "from numba import njit\n\nfrom pkg.callee import f\n\n\n"
    "@njit(cache=True)\ndef g():\n    return f() + 10\n"
)
RUN = """
import importlib.util, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
spec = importlib.util.spec_from_file_location("guard_under_test", sys.argv[2])
guard = importlib.util.module_from_spec(spec)
spec.loader.exec_module(guard)
deleted = guard.invalidate_stale_caches(Path(sys.argv[1]) / "pkg") if sys.argv[3] == "1" else []
from pkg.caller import g
print(g(), len(deleted))
"""


def run(tmp: Path, guarded: bool, cache_dir: Path | None) -> tuple[int, int]:
    """``g()`` and how many cache files the guard deleted, in a fresh interpreter."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    out = subprocess.run(
        [sys.executable, "-c", RUN, str(tmp), cache_guard.__file__, "1" if guarded else "0"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout.split()
    return int(out[0]), int(out[1])


@pytest.mark.parametrize("own_cache_dir", [False, True], ids=["__pycache__", "NUMBA_CACHE_DIR"])
def test_a_change_to_a_callee_alone_reaches_its_cached_caller(
    tmp_path: Path, own_cache_dir: bool
) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "callee.py").write_text(CALLEE.format(value=1))
    (pkg / "caller.py").write_text(CALLER)
    cache_dir = tmp_path / "numba-cache" if own_cache_dir else None
    assert run(tmp_path, guarded=True, cache_dir=cache_dir)[0] == 11
    (pkg / "callee.py").write_text(CALLEE.format(value=2))  # same size: only the content differs
    # The control: numba alone keeps the caller's old machine code, with the old callee in it.
    assert run(tmp_path, guarded=False, cache_dir=cache_dir) == (11, 0)
    value, deleted = run(tmp_path, guarded=True, cache_dir=cache_dir)
    assert value == 12 and deleted > 0
    assert run(tmp_path, guarded=True, cache_dir=cache_dir) == (12, 0)  # nothing stale: kept


def test_the_guard_covers_every_solver_module_that_uses_numba() -> None:
    solver = Path(cache_guard.__file__).resolve().parent.parent
    names = {p.relative_to(solver).as_posix() for p in cache_guard.numba_sources(solver)}
    assert {"beam.py", "core/movegen.py", "core/search.py", "core/keys.py"} <= names
    assert "api.py" not in names and "core/cache_guard.py" not in names


def test_the_guard_runs_on_import_and_leaves_a_stamp_beside_the_cache() -> None:
    import klondike_widget.solver.core.search as search

    folder = cache_guard.cache_folder(Path(search.__file__))
    assert folder is not None
    solver = Path(cache_guard.__file__).resolve().parent.parent
    stamp = folder / cache_guard.STAMP_NAME
    assert stamp.read_text(encoding="ascii") == cache_guard.sources_digest(
        cache_guard.numba_sources(solver)
    )
