"""Shortening schedules side by side: each deal solved once, its line shortened by each variant.

Usage::

    python benchmarks/lines_variants.py --draw 1 "" "TAIL_WIDTH=1024"
    python benchmarks/lines_variants.py --draw 1 "" "ROUND_SPREADS=(0,); ROUNDS_SHARE=0.5"
    python benchmarks/lines_variants.py --draw 3 --held-out "" "FIRST_WIDTH=128"

A variant sets module settings of :mod:`klondike_widget.solver.shorten` (``NAME=literal``
pairs, ``;`` between them; ``""`` keeps the defaults), restored after it. Every deal of the
chosen reference deals of one draw mode (``benchmarks/lines.py``'s choice: seeds 1-30 with a
Klondike-Solver line, or ``--held-out`` seeds 31-50) is solved once, and its line is shortened
by each variant at ``--seconds`` with the clock's cap lifted and processor time only
(``lines.py --no-cap --wall-factor 1000``): the lengths then come from the counted work alone,
the same at any load, so one run compares schedules on the same first lines. Prints a row per
deal (Klondike-Solver's length and each variant's, in engine moves) and the totals and mean
processor seconds per variant. Every shortened line is replayed through the engine.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solver"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lines import KS_LINES, chosen, set_clock
from solver_helpers import reference_deals, reference_state

from klondike_widget.engine.line import Line
from klondike_widget.solver import Limit, Status, solve, warm_up
from klondike_widget.solver import shorten as shorten_module
from klondike_widget.solver.beam_run import prepare_shortening

T = TypeVar("T")


def parse_variant(text: str) -> dict[str, object]:
    """The settings of a variant: ``NAME=literal`` pairs separated by ``;``.

    Only existing upper-case settings of :mod:`~klondike_widget.solver.shorten` are accepted
    (a misspelt name would silently measure the defaults).

    >>> parse_variant("TAIL_WIDTH=1024; ROUND_SPREADS=(0,)")
    {'TAIL_WIDTH': 1024, 'ROUND_SPREADS': (0,)}
    >>> parse_variant("")
    {}
    >>> parse_variant("TAIL_WIDHT=1024")
    Traceback (most recent call last):
    ...
    ValueError: no shorten setting TAIL_WIDHT
    """
    settings: dict[str, object] = {}
    for pair in filter(None, (part.strip() for part in text.split(";"))):
        name, _, value = pair.partition("=")
        name = name.strip()
        if not name.isupper() or not hasattr(shorten_module, name):
            raise ValueError(f"no shorten setting {name}")
        settings[name] = ast.literal_eval(value.strip())
    return settings


def shorten_with(settings: dict[str, object], run: Callable[[], T]) -> T:
    """``run()`` with ``settings`` applied to :mod:`~klondike_widget.solver.shorten`, which are
    restored afterwards (also on an error).

    >>> width = shorten_module.TAIL_WIDTH
    >>> shorten_with({"TAIL_WIDTH": 7}, lambda: shorten_module.TAIL_WIDTH), width == 512
    (7, True)
    >>> shorten_module.TAIL_WIDTH == width
    True
    """
    saved = {name: getattr(shorten_module, name) for name in settings}
    try:
        for name, value in settings.items():
            setattr(shorten_module, name, value)
        return run()
    finally:
        for name, value in saved.items():
            setattr(shorten_module, name, value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", help='settings, e.g. "" "TAIL_WIDTH=1024"')
    parser.add_argument("--draw", type=int, choices=(1, 3), default=1)
    parser.add_argument("--seconds", type=float, default=1.0, help="shortening budget")
    parser.add_argument("--held-out", action="store_true", help="seeds 31-50 instead")
    args = parser.parse_args()
    variants = [parse_variant(text) for text in args.variants]
    set_clock(1000.0, True)
    ks = {(r["seed"], r["draw"]): r for r in map(json.loads, KS_LINES.read_text().splitlines())}
    warm_up()
    prepare_shortening()
    totals, cpu = [0] * len(variants), [0.0] * len(variants)
    deals = 0
    print("| seed | KS | " + " | ".join(args.variants) + " |")
    print("|---" * (len(variants) + 2) + "|")
    for record in reference_deals():
        if not chosen(record, args.draw, ks, args.held_out):
            continue
        state = reference_state(record)
        result = solve(state, Limit(seconds=60))
        if result.status is not Status.WON:
            continue
        deals += 1
        ref = ks.get((record["seed"], args.draw))
        row = [str(record["seed"]), str(len(ref["line"].split())) if ref else "-"]
        for i, settings in enumerate(variants):
            t0 = time.thread_time()
            shorten = partial(shorten_module.shorten, state, result.moves, args.seconds)
            line = shorten_with(settings, shorten)
            cpu[i] += time.thread_time() - t0
            if not Line(state, line).is_winning:
                raise AssertionError(f"seed {record['seed']}: the shortened line does not win")
            totals[i] += len(line)
            row.append(str(len(line)))
        print("| " + " | ".join(row) + " |", flush=True)
    print("| total | | " + " | ".join(map(str, totals)) + " |")
    print("| CPU s mean | | " + " | ".join(f"{c / max(deals, 1):.3f}" for c in cpu) + " |")


if __name__ == "__main__":
    main()
