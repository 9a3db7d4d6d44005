"""Keep the notebooks' committed outputs to exactly the reference outputs nbval checks.

The notebooks are committed without outputs, except in the cells marked ``# NBVAL_CHECK_OUTPUT``:
``pytest --nbval-lax`` compares what those cells print with the output stored in the file, so
the file must hold that reference (an empty reference fails as "unexpected output", and a cell
without an execution count is not compared at all). Everything else (widgets, timings, plots,
solver statistics) is cleared, execution counts included.

Boards in the stored outputs must show in an *untrusted* notebook (a fresh clone), on GitHub and
in nbviewer: an ``image/svg+xml`` picture, and in HTML only as ``<img>`` (JupyterLab's sanitiser
removes inline ``<svg>`` from untrusted HTML and leaves the cards' text); ``--check`` reports
inline SVG in HTML.

Usage::

    python scripts/notebook_outputs.py                 # run every notebook, store the references
    python scripts/notebook_outputs.py notebooks/02-rules.ipynb
    python scripts/notebook_outputs.py --check         # exit 1 if a notebook carries other outputs

Each notebook runs top to bottom on a fresh kernel from its own folder; the seconds it took are
printed in a table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
MARKER = "# NBVAL_CHECK_OUTPUT"
#: Notebook-level metadata that records a session rather than the notebook (widget state).
VOLATILE_METADATA = ("widgets",)


def checked(cell: nbformat.NotebookNode) -> bool:
    """True for a code cell whose output nbval compares."""
    return cell.cell_type == "code" and MARKER in cell.source.splitlines()[:3]


def problems(nb: nbformat.NotebookNode) -> list[str]:
    """What in ``nb`` is not as committed notebooks must be (empty list: all good)."""
    found = [f"notebook metadata {key!r}" for key in VOLATILE_METADATA if key in nb.metadata]
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        if cell.get("execution_count") is not None and not checked(cell):
            found.append(f"cell {i}: execution count in a cell nbval does not check")
        if checked(cell) and cell.get("execution_count") is None:
            found.append(f"cell {i}: no execution count (nbval skips the comparison then)")
        if cell.outputs and not checked(cell):
            found.append(f"cell {i}: outputs in a cell nbval does not check")
        if checked(cell) and not cell.outputs:
            found.append(f"cell {i}: {MARKER} without a reference output")
        for output in cell.outputs:
            if output.get("output_type") == "error":
                found.append(f"cell {i}: an error output")
            if "<svg" in output.get("data", {}).get("text/html", ""):
                found.append(f"cell {i}: inline <svg> in text/html (untrusted notebooks strip it)")
    return found


def strip(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Keep only the outputs of checked cells; drop the other execution counts and widget state.

    A checked cell keeps its execution count: nbval compares only cells that were run.
    """
    for key in VOLATILE_METADATA:
        nb.metadata.pop(key, None)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)
        if not checked(cell):
            cell.outputs = []
            cell.execution_count = None
    return nb


def run(path: Path, timeout: int = 600) -> float:
    """Execute ``path`` on a fresh kernel, store the checked outputs; return the seconds taken."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    start = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - start
    nbformat.write(strip(nb), path)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--check", action="store_true", help="only check, change nothing")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("*.ipynb"))
    if args.check:
        bad = 0
        for path in paths:
            for problem in problems(nbformat.read(path, as_version=4)):
                print(f"{path.name}: {problem}")
                bad += 1
        return 1 if bad else 0
    print(f"{'notebook':<32} {'seconds':>8}")
    for path in paths:
        print(f"{path.name:<32} {run(path):>8.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
