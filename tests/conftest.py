"""Shared pytest configuration for klondike-widget.

Fixtures
--------
repo_root : Path (session)
    The repository root (pytest's rootdir).
artifacts_dir : Path (session)
    ``<repo>/test-artifacts`` (git-ignored): logs, screenshots and other files a test run keeps.

Hypothesis profiles: ``default`` has no per-example deadline (a 2-core CI machine and numba's
first compilation make wall-clock deadlines flaky); ``ci`` (loaded when ``CI`` is set) also
prints the reproduction blob of a failure.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture(scope="session")
def repo_root(pytestconfig: pytest.Config) -> Path:
    return Path(pytestconfig.rootpath)


@pytest.fixture(scope="session")
def artifacts_dir(repo_root: Path) -> Path:
    path = repo_root / "test-artifacts"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session", autouse=True)
def compiled_solver() -> None:
    """Load (on a fresh clone: compile) the solver's core before any test runs.

    ``solve`` alone would answer on the uncompiled core until the compiled one is ready (the
    cold start, ``klondike_widget/solver/coldstart.py``): the same verdicts, but tests with a
    time budget would then depend on how far the compiler has got. ``tests/solver/
    test_coldstart.py`` tests the uncompiled core and the cold start explicitly.
    """
    from klondike_widget.solver import warm_up

    warm_up()
