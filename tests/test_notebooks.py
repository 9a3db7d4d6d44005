"""The notebooks: committed as nbval needs them, and 02-rules working in every language.

``pytest --nbval-lax notebooks/`` runs each notebook once, as committed (02-rules in English).
Here 02-rules runs again with ``LANG`` set to each shipped language, the way papermill injects a
parameter: the cell tagged ``parameters`` is replaced.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import nbformat
import pytest

from klondike_widget.i18n import available_locales, load_locale, text
from klondike_widget.teach.lessons import LESSONS

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
LOCK = REPO / "requirements" / "test.lock"
SVG_IMG = re.compile(r'<img src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"')


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


#: Appended to the rules notebook after Run All: on each lesson's board, play that lesson's
#: stored answer through the widget and print the board's verdicts (a board bound to another
#: lesson would call a right answer wrong).
_PLAY_EVERY_ANSWER = """
import json as _json
from klondike_widget.teach.lessons import LESSONS as _LESSONS
_verdicts = {}
for _les in _LESSONS:
    _board = globals()["board_" + _les.key]
    if _board.view["lesson"]["kind"] == "answer":
        continue
    for _move in str(_les.exercise_.solution).split():
        _board.play(_move)
    _verdicts[_les.key] = _board.view["lesson"]["verdict"]["ok"]
print("VERDICTS", _json.dumps(_verdicts))
"""


def _run_rules(lang: str) -> nbformat.NotebookNode:
    from nbclient import NotebookClient

    nb = nbformat.read(REPO / "notebooks" / "02-rules.ipynb", as_version=4)
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1 and params[0].source.startswith('LANG = "en"')
    params[0].source = f"LANG = {lang!r}"
    nb.cells.append(nbformat.v4.new_code_cell(_PLAY_EVERY_ANSWER))
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
    # A live board for every lesson; after Run All each judges its own lesson's answer right.
    views = [o for o in outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert len(views) == len(LESSONS)
    printed = "".join(o.text for o in streams if o.name == "stdout")
    verdicts = json.loads(printed.split("VERDICTS ", 1)[1])
    played = [les.key for les in LESSONS if les.exercise_.kind.value in ("move", "line")]
    assert verdicts == dict.fromkeys(played, True)


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


# -- boards that render anywhere ------------------------------------------------------------------


def _committed_outputs() -> list[tuple[str, int, nbformat.NotebookNode]]:
    found = []
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                found.extend((path.name, i, o) for o in cell.outputs if "data" in o)
    return found


def test_committed_boards_are_svg_pictures_not_inline_html() -> None:
    """Positions carry image/svg+xml; HTML outputs embed boards only as <img> of SVG.

    A freshly cloned notebook is untrusted: JupyterLab then renders image/svg+xml not at all
    and strips inline <svg> from HTML (the cards' text is what is left), while an <img> whose
    source is a data: URI passes. GitHub and nbviewer draw image/svg+xml.
    """
    outputs = _committed_outputs()
    svg_bundles = [(name, i, o) for name, i, o in outputs if "image/svg+xml" in o.data]
    assert {name for name, _, _ in svg_bundles} >= {"02-rules.ipynb", "03-solver-lines.ipynb"}
    for _, _, output in svg_bundles:
        picture = output.data["image/svg+xml"]
        assert picture.startswith("<svg") and 'data-kw="card"' in picture
        (embedded,) = SVG_IMG.findall(output.data["text/html"])
        same = re.compile(r"kw[0-9a-f]{10}")  # each picture has its own id prefix
        assert same.sub("", base64.b64decode(embedded).decode()) == same.sub("", picture)
    images = 0
    for name, i, output in outputs:
        html = output.data.get("text/html", "")
        assert "<svg" not in html, f"{name} cell {i}: inline SVG is stripped when untrusted"
        for data in SVG_IMG.findall(html):
            assert base64.b64decode(data).decode().startswith("<svg")
            images += 1
    assert images >= 40  # every lesson's pictures in 02-rules, the boards of 03


# -- the play command gives a working notebook set ----------------------------------------------

RUN_ALL = r"""
import json, sys, time
from pathlib import Path
import nbformat
from nbclient import NotebookClient
times = {}
for name in sys.argv[1:]:
    path = Path(name)
    nb = nbformat.read(path, as_version=4)
    t0 = time.perf_counter()
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.output_type == "error"]
    assert not errors, (name, errors)
    times[path.name] = round(time.perf_counter() - t0, 1)
print(json.dumps(times))
"""


@pytest.mark.slow
def test_play_extra_runs_every_notebook_in_a_fresh_venv(tmp_path: Path) -> None:
    """The README's play command (``pip install -e ".[lab]"``) into a new venv, then all four
    notebooks top to bottom with that venv's Jupyter (nbclient, its own python3 kernel).

    The venv is made by the lock's uv and installed with the lock as constraints (the same
    versions each time); nothing of the test environment leaks in: its own interpreter, its
    own kernel spec, no PYTHONPATH, a private Jupyter config and data dir.
    """
    uv = Path(sys.executable).with_name("uv")
    if not uv.exists():
        uv = Path(shutil.which("uv") or "uv")
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(JUPYTER_CONFIG_DIR=str(tmp_path / "cfg"), JUPYTER_DATA_DIR=str(tmp_path / "data"))
    env.update(MPLBACKEND="Agg", IPYTHONDIR=str(tmp_path / "ipython"))
    t0 = time.perf_counter()
    subprocess.run(
        [str(uv), "venv", "--quiet", "--python", sys.executable, str(venv)],
        check=True,
        env=env,
        timeout=300,
    )
    python = venv / "bin" / "python"
    subprocess.run(
        [
            str(uv),
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            "-c",
            str(LOCK),
            "--build-constraint",
            str(LOCK),
            "-e",
            f"{REPO}[lab]",
        ],
        check=True,
        env=env,
        timeout=900,
        cwd=REPO,
    )
    installed = time.perf_counter() - t0
    # the play extra alone: none of the test tools came along
    probe = (
        "import importlib.util as u; "
        "print([m for m in ('pytest', 'nbval', 'playwright') if u.find_spec(m)])"
    )
    assert (
        subprocess.run(
            [str(python), "-c", probe], check=True, capture_output=True, text=True, env=env
        ).stdout.strip()
        == "[]"
    )
    work = tmp_path / "notebooks"
    shutil.copytree(REPO / "notebooks", work)
    proc = subprocess.run(
        [str(python), "-c", RUN_ALL, *(str(work / p.name) for p in NOTEBOOKS)],
        capture_output=True,
        text=True,
        env=env,
        timeout=2400,
        cwd=work,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    times = json.loads(proc.stdout.strip().splitlines()[-1])
    assert sorted(times) == [p.name for p in NOTEBOOKS]
    print(f"fresh venv: install {installed:.1f} s, notebooks {times}")
