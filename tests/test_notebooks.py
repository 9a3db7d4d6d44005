"""The notebooks: committed as nbval needs them, and 02-rules working in every language.

``pytest --nbval-lax notebooks/`` runs each notebook once, as committed (02-rules in English).
Here 02-rules runs again with ``LANG`` set to each shipped language, the way papermill injects a
parameter: the cell tagged ``parameters`` is replaced.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

from klondike_widget.i18n import available_locales, load_locale, text
from klondike_widget.teach.lessons import LESSONS

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


def _outputs_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "notebook_outputs", REPO / "scripts" / "notebook_outputs.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("notebook_outputs", module)
    spec.loader.exec_module(module)
    return module


def test_the_four_notebooks_exist() -> None:
    assert [p.name for p in NOTEBOOKS] == [
        "01-play.ipynb",
        "02-rules.ipynb",
        "03-solver-lines.ipynb",
        "04-winnability-study.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_with_reference_outputs_only(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    assert _outputs_script().problems(nb) == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_first_code_cell_installs_on_colab_only(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "code")
    assert 'if "google.colab" in sys.modules:' in first.source
    assert "%pip install" in first.source


def _run_rules(lang: str) -> nbformat.NotebookNode:
    from nbclient import NotebookClient

    nb = nbformat.read(REPO / "notebooks" / "02-rules.ipynb", as_version=4)
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1 and params[0].source.startswith('LANG = "en"')
    params[0].source = f"LANG = {lang!r}"
    NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(REPO)}}
    ).execute()
    return nb


@pytest.mark.slow
@pytest.mark.parametrize("lang", available_locales())
def test_rules_notebook_runs_in_every_language(lang: str) -> None:
    nb = _run_rules(lang)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    streams = [o for o in outputs if o.output_type == "stream"]
    # No MissingStringWarning (or any other warning) on stderr, no error anywhere.
    assert not [o.text for o in streams if o.name == "stderr"]
    assert not [o for o in outputs if o.output_type == "error"]
    html = "".join(o.data.get("text/html", "") for o in outputs if "data" in o)
    plain = "".join(o.data.get("text/plain", "") for o in outputs if "data" in o)
    meta = load_locale(lang).meta
    assert html.count(f'<div lang="{lang}" dir="{meta.dir}">') >= 4 * len(LESSONS)
    other = {code for code in available_locales() if code != lang}
    assert not any(f'<div lang="{code}"' in html for code in other)
    # Every lesson's title and question in this language, from the locale file.
    for les in LESSONS:
        assert les.title(lang) in plain
        assert str(les.exercise(lang)) in plain
    # The answers section: each stored solution accepted by the checker.
    correct = text("notebook.check.correct", lang)
    assert len(re.findall(re.escape(f"✓ {correct}"), plain)) >= len(LESSONS)
    # The exercises are unanswered in the committed notebook: each says so.
    assert plain.count(text("notebook.check.no_answer", lang)) == len(LESSONS)


def test_the_committed_state_check_finds_what_it_should() -> None:
    from nbformat.v4 import new_code_cell, new_notebook, new_output

    script = _outputs_script()
    checked = new_code_cell("# NBVAL_CHECK_OUTPUT\n1 + 1", execution_count=1)
    checked.outputs = [new_output("execute_result", {"text/plain": "2"}, execution_count=1)]
    loose = new_code_cell("print('hi')", execution_count=2)
    loose.outputs = [new_output("stream", name="stdout", text="hi\n")]
    nb = new_notebook(cells=[checked, loose])
    nb.metadata["widgets"] = {}
    assert script.problems(nb) == [
        "notebook metadata 'widgets'",
        "cell 1: execution count in a cell nbval does not check",
        "cell 1: outputs in a cell nbval does not check",
    ]
    assert script.problems(script.strip(nb)) == []
    assert nb.cells[0].outputs and nb.cells[0].execution_count == 1
    unrun = new_code_cell("# NBVAL_CHECK_OUTPUT\n1 + 1")
    assert script.problems(new_notebook(cells=[unrun])) == [
        "cell 0: no execution count (nbval skips the comparison then)",
        "cell 0: # NBVAL_CHECK_OUTPUT without a reference output",
    ]
