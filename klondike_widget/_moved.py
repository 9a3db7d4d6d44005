"""Old module paths of the flat package, kept working after the move into subpackages.

Until version 0.1 every module lay directly in ``klondike_widget/`` (``klondike_widget.state``,
``klondike_widget.study_results``, ...). They now live in subpackages (``engine/``, ``widget/``,
``study/``, ``teach/``, ...). :data:`MOVED` maps each old path to its new one, and
:class:`MovedModuleFinder`, installed on :data:`sys.meta_path` when the package is imported,
answers an import of an old path with the module at its new path: the *same* module object, so
``klondike_widget.state.GameState is klondike_widget.engine.state.GameState``, patching one
patches the other, and pickles that name an old path still load.

Files are not left at the old paths on purpose: a file there would stop git's rename detection
from carrying changes made to the old files into the moved ones.

>>> import klondike_widget.state as old
>>> import klondike_widget.engine.state as new
>>> old is new
True
>>> from klondike_widget.study_results import read_results
>>> read_results.__module__
'klondike_widget.study.results'
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

__all__ = ["MOVED", "MovedModuleFinder", "install"]

#: Old module path -> new module path.
MOVED: dict[str, str] = {
    "klondike_widget.cards": "klondike_widget.engine.cards",
    "klondike_widget.rules": "klondike_widget.engine.rules",
    "klondike_widget.errors": "klondike_widget.engine.errors",
    "klondike_widget.state": "klondike_widget.engine.state",
    "klondike_widget.moves": "klondike_widget.engine.moves",
    "klondike_widget.game": "klondike_widget.engine.game",
    "klondike_widget.deals": "klondike_widget.engine.deals",
    "klondike_widget.notation": "klondike_widget.engine.notation",
    "klondike_widget.line": "klondike_widget.engine.line",
    "klondike_widget.perft": "klondike_widget.engine.perft",
    "klondike_widget.encoding": "klondike_widget.engine.packed",
    "klondike_widget.solver.encoding": "klondike_widget.solver.bridge",
    "klondike_widget.intents": "klondike_widget.widget.protocol",
    "klondike_widget.analysis": "klondike_widget.widget.analysis",
    "klondike_widget.line_panel": "klondike_widget.widget.line_panel",
    "klondike_widget.view": "klondike_widget.widget.view",
    "klondike_widget.study_plot": "klondike_widget.study.plot",
    "klondike_widget.study_progress": "klondike_widget.study.progress",
    "klondike_widget.study_results": "klondike_widget.study.results",
    "klondike_widget.study_runner": "klondike_widget.study.runner",
    "klondike_widget.study_stats": "klondike_widget.study.stats",
    "klondike_widget.lessons": "klondike_widget.teach.lessons",
}


class _AliasLoader(importlib.abc.Loader):
    """Loads an old path by importing the new one and putting that module in its place."""

    def __init__(self, new_name: str) -> None:
        self.new_name = new_name

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return None  # a throwaway module; exec_module swaps the real one in

    def exec_module(self, module: ModuleType) -> None:
        # The import system returns whatever sys.modules holds under the old name after this
        # call, so the real module (with its own __spec__ and __name__ untouched) is what the
        # importer gets, and the throwaway module is dropped.
        sys.modules[module.__name__] = importlib.import_module(self.new_name)


class MovedModuleFinder(importlib.abc.MetaPathFinder):
    """Finds the old module paths listed in :data:`MOVED` (and nothing else).

    >>> spec = MovedModuleFinder().find_spec("klondike_widget.moves", None)
    >>> spec.name
    'klondike_widget.moves'
    >>> MovedModuleFinder().find_spec("klondike_widget.nothing", None) is None
    True
    """

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        new_name = MOVED.get(fullname)
        if new_name is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(new_name))


def install() -> None:
    """Put one :class:`MovedModuleFinder` at the end of :data:`sys.meta_path` (idempotent)."""
    if not any(isinstance(finder, MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.append(MovedModuleFinder())
