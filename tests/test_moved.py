"""Every module path of the flat package (before the move into subpackages) still imports.

The old paths are answered by :mod:`klondike_widget._moved` with the module at the new path,
the same object, so names, identities and monkeypatching carry over.
"""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from klondike_widget._moved import MOVED, MovedModuleFinder

# The package's modules as they were in the flat layout (git 68f8079), besides __main__.
FLAT_MODULES = [
    "analysis",
    "cards",
    "deals",
    "encoding",
    "errors",
    "game",
    "i18n",
    "intents",
    "lessons",
    "line",
    "line_panel",
    "moves",
    "notation",
    "perft",
    "render",
    "rules",
    "server_extension",
    "state",
    "study",
    "study_plot",
    "study_progress",
    "study_results",
    "study_runner",
    "study_stats",
    "view",
    "widget",
    "solver",
    "solver.api",
    "solver.core",
    "solver.encoding",
]
OLD_PATHS = [f"klondike_widget.{name}" for name in FLAT_MODULES]


@pytest.mark.parametrize("old", OLD_PATHS)
def test_old_path_imports_the_module_now_at_its_new_path(old: str) -> None:
    module = importlib.import_module(old)
    new = MOVED.get(old, old)
    assert module is importlib.import_module(new)
    assert module.__name__ == new
    assert module.__spec__ is not None and module.__spec__.name == new
    public = getattr(module, "__all__", [n for n in vars(module) if not n.startswith("_")])
    assert public, old
    for name in public:
        assert hasattr(module, name), f"{old}.{name}"


def test_every_moved_path_is_an_old_module_and_every_target_exists() -> None:
    assert set(MOVED) <= set(OLD_PATHS)
    for new in MOVED.values():
        assert importlib.util.find_spec(new) is not None, new
    for old in OLD_PATHS:
        if old not in MOVED:  # kept its path: a real module or package there
            assert importlib.util.find_spec(old) is not None, old


def test_from_import_and_attribute_forms_of_old_paths() -> None:
    from klondike_widget import lessons
    from klondike_widget.engine.moves import Move as NewMove
    from klondike_widget.moves import Move
    from klondike_widget.study_results import StudyResults

    assert Move is NewMove
    assert lessons.__name__ == "klondike_widget.teach.lessons"
    assert StudyResults.__module__ == "klondike_widget.study.results"
    import klondike_widget

    assert klondike_widget.state is importlib.import_module("klondike_widget.engine.state")


def test_finder_answers_only_moved_paths() -> None:
    finder = MovedModuleFinder()
    assert finder.find_spec("klondike_widget.engine.state", None) is None
    assert finder.find_spec("klondike_widget.no_such_module", None) is None
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("klondike_widget.no_such_module")
    assert sum(isinstance(f, MovedModuleFinder) for f in sys.meta_path) == 1


def test_an_old_path_imports_first_in_a_fresh_interpreter(repo_root: Path) -> None:
    code = (
        "import sys; from klondike_widget.study_runner import solve_deal; "
        "import klondike_widget.solver.encoding as e; "
        "print(solve_deal.__module__, e.__name__, 'klondike_widget.study_runner' in sys.modules)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=repo_root,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert proc.stdout.split() == [
        "klondike_widget.study.runner",
        "klondike_widget.solver.bridge",
        "True",
    ]
