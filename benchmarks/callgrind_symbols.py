"""Addresses to source lines, for the core's profiles (:mod:`callgrind_profile`,
:mod:`perf_profile`): callgrind's output read per address, the compiled core's object code
symbolized with ``llvm-symbolizer --inlining``, and the hottest source lines printed.

numba's code has no symbols valgrind or perf can read, so the profiles write the object code
of the core's libraries and the addresses they were loaded at (``meta``), and map addresses
to inlining frames here.
"""

from __future__ import annotations

import subprocess
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any


def read_callgrind(path: Path) -> tuple[list[str], dict[int, list[int]], dict[int, list[int]]]:
    """Event names, self cost per instruction address and inclusive cost per call site."""
    events: list[str] = []
    own: dict[int, list[int]] = defaultdict(list)
    calls: dict[int, list[int]] = defaultdict(list)
    after_call = False
    for line in path.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("calls="):
            after_call = True
        elif line.startswith("0x"):
            fields = line.split()
            addr = int(fields[0], 16)
            cost = [int(x) for x in fields[1:]] + [0] * (len(events) - len(fields) + 1)
            target = calls if after_call else own
            row = target[addr]
            if not row:
                row.extend([0] * len(events))
            for i, c in enumerate(cost):
                row[i] += c
            after_call = False
    return events, own, calls


def symbol_range(obj: Path, symbol: str) -> tuple[int, int, int]:
    """Offset and size of ``symbol`` in the object's code section, and that section's size."""
    out = subprocess.run(["nm", "-S", "--defined-only", str(obj)], capture_output=True, text=True)
    for row in out.stdout.splitlines():
        fields = row.split()
        if len(fields) == 4 and fields[3] == symbol:
            offset, size = int(fields[0], 16), int(fields[1], 16)
            break
    else:
        raise SystemExit(f"{symbol} not in {obj}")
    sections = subprocess.run(["readelf", "-SW", str(obj)], capture_output=True, text=True)
    for row in sections.stdout.splitlines():
        if " .ltext " in row or " .text " in row:
            fields = row.split("]")[1].split()
            if int(fields[4], 16) > 0:
                return offset, size, int(fields[4], 16)
    raise SystemExit(f"no code section in {obj}")


def symbolize(obj: Path, offsets: list[int]) -> list[list[str]]:
    """Per code offset of ``obj``, its inlining frames: function, file:line:column, ...,
    innermost first (``llvm-symbolizer --inlining``)."""
    text = "".join(f"0x{o:x}\n" for o in offsets)
    out = subprocess.run(
        ["llvm-symbolizer", f"--obj={obj}", "--inlining", "--functions=short"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    )
    return [block.splitlines() for block in out.stdout.strip("\n").split("\n\n")]


def outer_frame(rows: list[str]) -> tuple[str, int]:
    """The outermost inlining frame of one offset's ``rows`` (:func:`symbolize`): its function
    and its line (0 for code with no line).

    >>> outer_frame(["gen_moves", "/x/movegen.py:40:3", "run_chunk", "/x/search.py:126:9"])
    ('run_chunk', 126)
    >>> outer_frame(["??", "??:0"])
    ('??', 0)
    """
    where = rows[-1].rsplit(":", 2)  # file:line:column
    return rows[-2], int(where[1]) if len(where) == 3 else 0


def outer_lines(obj: Path, offsets: list[int]) -> dict[int, int]:
    """The line of ``run_chunk`` (outermost inlining frame) of each code offset."""
    lines: dict[int, int] = {}
    for offset, rows in zip(offsets, symbolize(obj, offsets), strict=True):
        function, line = outer_frame(rows)
        lines[offset] = line if function == "run_chunk" else 0
    return lines


def symbolized(meta: dict[str, Any], addresses: Iterable[int]) -> dict[int, list[str]]:
    """The inlining frames (:func:`symbolize`) of each of ``addresses`` that lies in the code of
    one of the core's compiled functions (``meta``'s libraries: where each was loaded and its
    object code)."""
    wanted = sorted(addresses)
    frames: dict[int, list[str]] = {}
    for library in meta["libraries"]:
        obj = Path(library["obj"])
        offset, _, size = symbol_range(obj, library["symbol"])  # its whole code section
        base = library["address"] - offset
        inside = [a for a in wanted if 0 <= a - base < size]
        if inside:
            frames.update(zip(inside, symbolize(obj, [a - base for a in inside]), strict=True))
    return frames


def hot_lines(
    meta: dict[str, Any],
    own: dict[int, list[int]],
    top: int,
    unit: str = "instr/pos",
    scale: float | None = None,
    frames: dict[int, list[str]] | None = None,
) -> None:
    """Print the ``top`` source lines (innermost inlining frame) of the core by ``own``'s counts
    at each address (instructions; :mod:`perf_profile`: samples), each worth ``scale`` of
    ``unit`` (by default one instruction per position: ``1 / meta["positions"]``); ``frames``:
    the addresses already symbolized (:func:`symbolized`), if they are."""
    if frames is None:
        frames = symbolized(meta, own)
    by_line: dict[tuple[str, str, str], int] = defaultdict(int)
    for a, rows in frames.items():
        where = rows[1].rsplit("/", 1)[-1].rsplit(":", 1)[0]
        by_line[(rows[-2], rows[0], where)] += own[a][0]
    worth = scale if scale is not None else 1 / meta["positions"]
    total = sum(by_line.values())
    print(f"\nthe {top} source lines with the most {unit.split('/')[0]} (innermost frame)")
    print(f"| {'function run':<20} | {'inlined function':<24} | {'line':<18} | {unit:>9} | share |")
    print(f"|{'-' * 22}|{'-' * 26}|{'-' * 20}|-----------|-------|")
    for (outer, fn, where), c in sorted(by_line.items(), key=lambda kv: -kv[1])[:top]:
        print(
            f"| {outer[:20]:<20} | {fn[:24]:<24} | {where:<18} | {c * worth:>9.1f} | "
            f"{100 * c / total:>4.1f}% |"
        )
