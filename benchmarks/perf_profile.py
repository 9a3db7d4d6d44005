"""Time-sampled profile of the compiled search (issue 14): where the processor's time goes.

Usage::

    python benchmarks/perf_profile.py                        # seeds 22, 48; 1,000,000 each
    python benchmarks/perf_profile.py --draws 3 --seeds "" --numbered 1862 --nodes 3000000
    python benchmarks/perf_profile.py --draws 1 --lines 30  # and the 30 hottest source lines

:mod:`callgrind_profile` counts instructions (and simulates the caches); it cannot show the
time an instruction waits for memory, which is where a search with a table of hundreds of
megabytes spends much of its time (December 2026: in draw 1, 44% of the samples fell on the
two table probe loops, which callgrind put at a few per cent). This samples the time instead:
the same debug copy of the core (:func:`callgrind_profile.inner`: the real code with line
tables) runs natively under ``perf record -e cpu-clock`` (a software clock, so it needs no
hardware counters and works in a virtual machine), and each sample that falls in
``run_chunk``'s code is charged to the line of ``run_chunk`` it comes from and so to a part
(:data:`callgrind_profile.PARTS`), as there. The samples of Python, of numba's loading and of
the set-up are outside the core's code and are only counted.

The shares are of the samples in ``run_chunk``'s library; the nanoseconds a position of each
part are the share times the native run's CPU time a position (timed without perf, in this
process). A sample falls on the instruction that waits, so a load that misses the caches is
charged to the line that uses the loaded value. The caveat of :mod:`callgrind_profile` holds
here too: the functions numba inlines itself carry their own line numbers under
``search.py``'s name.

Needs ``perf`` and ``llvm-symbolizer`` (Debian: ``linux-perf``, ``llvm``) and a kernel that
lets this user sample (``perf_event_paranoid`` at most 2); without them it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import callgrind_profile as grind
import callgrind_symbols as symbols

#: Samples a second (``perf record -F``): some 20,000 in a one-second search.
FREQUENCY = 20_000


def samples(data: Path) -> Counter[int]:
    """The number of samples at each instruction address in ``perf record``'s file ``data``.

    >>> samples(Path("/nonexistent/perf.data"))
    Counter()
    """
    if not data.exists():
        return Counter()
    out = subprocess.run(
        ["perf", "script", "-i", str(data), "-F", "ip"], capture_output=True, text=True, check=True
    ).stdout
    return Counter(int(word, 16) for word in out.split())


def charge(rows: list[str], parts: dict[int, str]) -> str:
    """The part a sample at code with the inlining frames ``rows`` (:func:`~callgrind_profile.
    symbolize`) is charged to. In a core function ``run_chunk`` calls out of line: that
    function's part (:data:`~callgrind_profile.PARTS`). In ``run_chunk``: the part of the
    function inlined into it that the code belongs to (its frame, with ``--frames``: then every
    core function keeps one), else of the line of ``run_chunk`` it comes from (``parts``,
    :func:`callgrind_profile.line_parts`; ``"rest: line N"`` for the others).

    >>> here = ["run_chunk", "s.py:7:1"]
    >>> charge(here, {7: "key (table_key)"}), charge(here, {})
    ('key (table_key)', 'rest: line 7')
    >>> charge(["do_move", "b.py:70:3", "play", "b.py:20:5", "run_chunk", "s.py:9:1"], {})
    'do/undo of the move tried (play, take_back)'
    >>> charge(["pointer_probe", "p.py:113:1"], {}), charge(["tt_rehash", "t.py:3:1"], {})
    ('pointer probe (held, enter, pointer_probe)', 'other: tt_rehash')
    """
    function, line = symbols.outer_frame(rows)
    if function != "run_chunk":
        return grind.PARTS.get(function, f"other: {function}")
    called = rows[-4] if len(rows) >= 4 else ""  # the function inlined into run_chunk
    return grind.PARTS.get(called) or parts.get(line, f"rest: line {line}")


def part_shares(counts: Counter[int], frames: dict[int, list[str]]) -> Counter[str]:
    """The samples of ``counts`` at the addresses of ``frames`` (the core's code, symbolized:
    :func:`callgrind_symbols.symbolized`), by part (:func:`charge`).

    >>> part_shares(Counter({16: 5, 99: 4}), {16: ["tt_rehash", "/x/table.py:7:3"]})
    Counter({'other: tt_rehash': 5})
    """
    parts = grind.line_parts()
    shares: Counter[str] = Counter()
    for a, rows in frames.items():
        shares[charge(rows, parts)] += counts[a]
    return shares


def profile(draw: int, args: argparse.Namespace, work: Path) -> None:
    """Print one draw mode's tables."""
    positions, cpu = grind._searches(draw, args.seeds, args.nodes, args.numbered)
    env = grind.debug_env(work, args.frames)
    obj, meta_path, data = work / f"core{draw}.o", work / f"meta{draw}.json", work / f"perf{draw}"
    command = grind.inner_command(draw, args, obj, meta_path)
    subprocess.run(command, env=env, check=True)  # compiles the debug copy
    record = ["perf", "record", "-q", "-e", "cpu-clock", "-F", str(FREQUENCY), "-o", str(data)]
    if subprocess.run([*record, "--", *command], env=env).returncode != 0:
        print(f"skipped draw {draw}: perf record failed (perf_event_paranoid above 2?)")
        return
    meta = json.loads(meta_path.read_text())
    if meta["positions"] != positions:
        raise SystemExit(f"the debug copy searched {meta['positions']} positions, not {positions}")
    counts = samples(data)
    frames = symbols.symbolized(meta, counts)  # the samples in the core's own code
    shares = part_shares(counts, frames)
    core = sum(shares.values())
    ns = cpu / positions * 1e9
    print(
        f"\ndraw {draw}: seeds {args.seeds}, numbered {args.numbered}, {positions:,} positions; "
        f"natively {cpu:.2f} CPU s = {ns:.0f} ns/position; {sum(counts.values()):,} samples, "
        f"{core:,} in the core's code (the rest: Python, loading, setting up)"
    )
    grouped = [(part, shares[part]) for part in grind.ORDER if part != grind.REST]
    grouped.append((grind.REST, sum(c for p, c in shares.items() if p.startswith("rest: "))))
    grouped.append(("other core functions", sum(c for p, c in shares.items() if p[:6] == "other:")))
    _table(grouped, core, ns)
    print("\nthe rest of run_chunk by line (line 0: code with no line) and the other functions")
    _table(
        sorted(
            ((p, c) for p, c in shares.items() if p[:6] in ("rest: ", "other:")),
            key=lambda pc: -pc[1],
        )[:12],
        core,
        ns,
    )
    if args.lines:
        own = {a: [c] for a, c in counts.items()}
        symbols.hot_lines(meta, own, args.lines, unit="ns/pos", scale=ns / core, frames=frames)


def _table(rows: list[tuple[str, int]], core: int, ns: float) -> None:
    """Print ``rows`` of (part, samples) with their share of ``core`` samples and the
    nanoseconds a position it makes of ``ns``."""
    print(f"| {'part':<44} | samples | share | est. ns/pos |")
    print(f"|{'-' * 46}|---------|-------|-------------|")
    for part, c in rows:
        print(f"| {part:<44} | {c:>7} | {100 * c / core:>4.1f}% | {ns * c / core:>11.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    grind.deal_arguments(parser)
    parser.set_defaults(nodes=1_000_000)
    parser.add_argument("--keep", type=Path, help="keep the object and perf files here")
    args = parser.parse_args()
    grind.parse_deals(args)
    grind.run_draws(args, "perf", profile)


if __name__ == "__main__":
    main()
