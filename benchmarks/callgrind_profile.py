"""Per-position instruction profile of the whole compiled search (issue 14), under callgrind.

Usage::

    python benchmarks/callgrind_profile.py                      # seeds 22, 48; 200,000 each
    python benchmarks/callgrind_profile.py --nodes 100000 --seeds 22 --draws 3 --keep /tmp/cg

For each draw mode it searches the reference deals given (one :class:`~.drive.Search` each, up
to ``--nodes`` positions, as :mod:`core_profile` samples them) three times:

1. natively, timing the search's CPU seconds (the ns per position the shares are scaled to);
2. natively in a fresh interpreter, to compile a copy of the core with line tables and
   inlining records (DWARF) into a private numba cache;
3. under ``valgrind --tool=callgrind`` (instruction counts and its cache simulation, with
   ``--dump-instr=yes``), loading that copy.

numba's code has no symbols valgrind can read, so the profile maps addresses itself: the
callgrind run writes the object code of ``run_chunk``'s library (every core function it calls
is linked into it) and the address it was loaded at. An instruction of ``run_chunk`` itself
(inlined callees included) is charged to the line of ``run_chunk`` it comes from, found with
``llvm-symbolizer --inlining`` (the outermost frame); a call from ``run_chunk`` to a function
left out of line is charged, with everything under it (callgrind's inclusive cost at the call
site), to the line of the call. Each line of ``run_chunk`` belongs to one part, by the core
function it calls (:data:`PARTS`, read from its source): move generation, do/undo, the
automatic moves and their undo, the key, the table, the pointer probe, the dead-end test, the
prunings, the rest.

*Caveat* (found December 2026): a function numba inlines itself (``core_jit_inline``:
``do_move``, ``apply_autos``, ``table_key``, ``child_keys``, ...) leaves no inlining frame, and
its instructions carry its own line numbers under ``run_chunk``'s file name (``search.py``), so
they are charged to whatever line of ``run_chunk`` has that number, or to the rest. Only the
functions LLVM inlines or calls (``core_jit``: ``gen_moves``, ``held``, ``enter``, ``is_dead``,
``tt_insert``, ...) are placed right; the whole position's count is exact either way.
``--frames`` (:data:`FRAMES_ENV`) has LLVM inline those functions instead (``alwaysinline``), so
each keeps its own frame and file, and the hot lines and :mod:`perf_profile`'s parts name them
right; the code is then LLVM's inlining rather than numba's, so its timings are those of a
close copy, not of the real core (whose time a position the profiles take natively).

The debug copy of the core is compiled as the real one except for the debug records: numba's
``debug`` would also forbid inlining, keep variables alive and check bounds, which this turns
off (``NUMBA_BOUNDSCHECK=0`` and two patched numba hooks), so its code is the real code up to
instruction scheduling (function sizes within 2%). Table misses are real here: each probe is
made once, as in the search, and the cache simulation counts the last-level misses per part.

Needs ``valgrind`` and ``llvm-symbolizer`` (Debian: ``valgrind``, ``llvm``); without them it
says so and exits 0. It takes a few minutes (callgrind runs some 50 times slower).
"""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from callgrind_symbols import hot_lines, outer_lines, read_callgrind, symbol_range

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "solver"))
sys.path.insert(0, str(ROOT))

#: The parts of a position's cost, by the core function a line of ``run_chunk`` calls.
PARTS = {
    "gen_moves": "move generation (gen_moves)",
    "gen_abstract": "move generation (gen_moves)",
    "play": "do/undo of the move tried (play, take_back)",
    "take_back": "do/undo of the move tried (play, take_back)",
    "do_move": "do/undo of the move tried (play, take_back)",
    "undo_move": "do/undo of the move tried (play, take_back)",
    "apply_autos": "automatic moves: the pass",
    "autos_may_follow": "automatic moves: the pass",
    "child_keys": "children's keys read ahead (child_keys)",
    "table_key": "key (table_key, quiet_key, tagged_key)",
    "quiet_key": "key (table_key, quiet_key, tagged_key)",
    "tagged_key": "key (table_key, quiet_key, tagged_key)",
    "row_key": "key (table_key, quiet_key, tagged_key)",  # (one_word: either width's key)
    "row_quiet_key": "key (table_key, quiet_key, tagged_key)",
    "row_tagged_key": "key (table_key, quiet_key, tagged_key)",
    "tt_insert": "table probe/insert",
    "tt_store": "table probe/insert",
    "tt_contains": "table probe/insert",
    "held": "pointer probe (held, enter, pointer_probe)",
    "enter": "pointer probe (held, enter, pointer_probe)",
    "pointer_probe": "pointer probe (held, enter, pointer_probe)",
    "pointer_probe_at": "pointer probe (held, enter, pointer_probe)",
    "probe_with": "pointer probe (held, enter, pointer_probe)",
    "is_dead": "dead-end test (is_dead)",
    "follow_ups": "prunings (follow-ups, reverse, King fills)",
    "talon_follow_ups": "prunings (follow-ups, reverse, King fills)",
    "abstract_follow_ups": "prunings (follow-ups, reverse, King fills)",
    "king_fills": "prunings (follow-ups, reverse, King fills)",
    "drop_reverse": "prunings (follow-ups, reverse, King fills)",
}
AUTO_UNDO = "automatic moves: their undo"
REST = "the rest of run_chunk (loop, tests, stack)"
ORDER = [
    "move generation (gen_moves)",
    "do/undo of the move tried (play, take_back)",
    "automatic moves: the pass",
    AUTO_UNDO,
    "children's keys read ahead (child_keys)",
    "key (table_key, quiet_key, tagged_key)",
    "table probe/insert",
    "pointer probe (held, enter, pointer_probe)",
    "dead-end test (is_dead)",
    "prunings (follow-ups, reverse, King fills)",
    REST,
]


#: Set in the debug copy's environment (``--frames``): the functions numba would inline itself
#: (``inline="always"``) are inlined by LLVM instead, so each keeps its own inlining frame.
FRAMES_ENV = "KW_PROFILE_FRAMES"


def _patch_numba() -> None:
    """Make numba's ``debug`` code the optimised code plus debug records (see the docstring)."""
    import numba
    import numba.core.cpu as cpu
    import numba.core.lowering as lowering
    from numba.core.codegen import CPUCodeLibrary

    finalize = cpu.CPUTargetOptions.finalize

    def no_debug_lifetimes(self: Any, flags: Any, options: Any) -> None:
        flags.dbg_extend_lifetimes = False
        finalize(self, flags, options)

    cpu.CPUTargetOptions.finalize = no_debug_lifetimes  # type: ignore[method-assign]
    pre_lower = lowering.BaseLower.pre_lower

    inline_always: set[str] = set()
    if os.environ.get(FRAMES_ENV):
        njit = numba.njit

        def llvm_inlined(*args: Any, **options: Any) -> Any:
            if options.get("inline") != "always":
                return njit(*args, **options)
            options.pop("inline")
            compile_it = njit(**options)

            def mark(fn: Any) -> Any:
                inline_always.add(fn.__qualname__)
                return compile_it(fn)

            return mark

        numba.njit = llvm_inlined

    def inlinable(self: Any) -> None:
        pre_lower(self)  # adds "noinline" to every function when debug info is on
        self.builder.function.attributes.discard("noinline")
        if self.fndesc.qualname in inline_always:
            self.builder.function.attributes.add("alwaysinline")

    lowering.BaseLower.pre_lower = inlinable  # type: ignore[method-assign]
    unserialize = CPUCodeLibrary._unserialize.__func__  # type: ignore[attr-defined]

    def keep_object(cls: Any, codegen: Any, state: Any) -> Any:
        library = unserialize(cls, codegen, state)
        if state[1] == "object":
            library.profile_object = state[2][0]  # numba drops its copy once loaded
        return library

    CPUCodeLibrary._unserialize = classmethod(keep_object)  # type: ignore[assignment]


def _searches(draw: int, seeds: list[int], nodes: int, numbered: list[int]) -> tuple[int, float]:
    """Search each reference deal of ``draw`` in ``seeds`` and each numbered deal in
    ``numbered`` up to ``nodes`` positions with the compiled core; return the positions searched
    and the CPU seconds of the searching."""
    from solver_helpers import reference_deals, reference_state

    from klondike_widget.engine.deals import deal
    from klondike_widget.engine.rules import Rules
    from klondike_widget.solver import core, drive
    from klondike_widget.solver.coldstart import compiled

    starts = [
        reference_state(record)
        for record in reference_deals()
        if record["draw"] == draw and record["seed"] in seeds
    ]
    starts += [deal(number, Rules(draw=draw)) for number in numbered]
    total, cpu = 0, 0.0
    with compiled():  # the compiled core, never the uncompiled one
        for state in starts:
            search = drive.Search(state)
            t = time.process_time()
            while search.result == core.R_BUDGET and search.nodes < nodes:
                search.step(min(20_000, nodes - search.nodes))
            cpu += time.process_time() - t
            total += search.nodes
    return total, cpu


def inner(args: argparse.Namespace) -> None:
    """The run in the debug copy (natively to compile it, then under callgrind).

    Under callgrind it loads the core first, then writes ``--ready`` and waits for ``--go``
    (the outer process turns the instrumentation on in between: Python's and numba's start-up
    would take most of the run otherwise)."""
    _patch_numba()
    import numpy as np

    from klondike_widget.engine.deals import deal
    from klondike_widget.solver import core, drive
    from klondike_widget.solver.coldstart import compiled
    from klondike_widget.solver.core import search

    with compiled():
        drive.Search(deal(1)).step(100)  # loads (or compiles) what the searches call
    core.tt_rehash(np.zeros((2, 2), dtype=np.uint64), np.zeros((4, 2), dtype=np.uint64))
    if args.ready:
        Path(args.ready).touch()
        while not Path(args.go).exists():
            time.sleep(0.05)
    positions, _ = _searches(args.draw, args.seeds, args.nodes, args.numbered)
    (result,) = search.run_chunk.overloads.values()
    library = result.library
    obj = _object_code(library)
    if obj is None:
        raise SystemExit("no object code for run_chunk")
    Path(args.obj).write_bytes(obj)
    name = result.fndesc.llvm_func_name
    meta: dict[str, Any] = {"symbol": name, "address": library.get_pointer_to_function(name)}
    meta["positions"] = positions
    meta["libraries"] = _dump_libraries(Path(args.obj))
    Path(args.meta).write_text(json.dumps(meta))


def _object_code(library: Any) -> bytes | None:
    """The object code of a numba library: loaded from the cache, or compiled here."""
    data = getattr(library, "profile_object", None)
    if data is None:
        try:
            data = library.serialize_using_object_code()[2][0]
        except RuntimeError:  # numba keeps no object code of this one
            return None
    return bytes(data)


def _dump_libraries(obj: Path) -> list[dict[str, Any]]:
    """Write the object code of every compiled core function's library beside ``obj``; return
    where each was loaded (a callee of ``run_chunk`` may run from another function's library:
    numba's libraries share their weak symbols, and the first one loaded provides them)."""
    from numba.core.registry import CPUDispatcher

    from klondike_widget.solver import core

    out = []
    for module in core.MODULES:
        for fn_name, fn in sorted(vars(module).items()):
            if not isinstance(fn, CPUDispatcher) or fn.__module__ != module.__name__:
                continue
            for k, result in enumerate(fn.overloads.values()):
                data = _object_code(result.library)
                if data is None:
                    continue
                path = obj.with_name(
                    f"{obj.stem}.{module.__name__.rsplit('.', 1)[1]}.{fn_name}.{k}.o"
                )
                path.write_bytes(data)
                symbol = result.fndesc.llvm_func_name
                address = result.library.get_pointer_to_function(symbol)
                out.append({"obj": str(path), "symbol": symbol, "address": address})
    return out


def line_parts() -> dict[int, str]:
    """The part (:data:`PARTS`) of each line of ``run_chunk`` that calls a core function."""
    from klondike_widget.solver.core import search

    lines, first = inspect.getsourcelines(search.run_chunk.py_func)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    out: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            part = PARTS.get(node.func.id)
            if part is None:
                continue
            if node.func.id == "undo_move" and "AUM" in ast.unparse(node.args[2]):
                part = AUTO_UNDO
            for ln in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                out[first + ln - 1] = part
    return out


def inner_command(draw: int, args: argparse.Namespace, obj: Path, meta: Path) -> list[str]:
    """The command of the run in the debug copy (:func:`inner`) for ``draw`` and ``args``'s deals,
    writing the object code to ``obj`` and what it found to ``meta``."""
    command = [sys.executable, __file__, "--inner", "--draw", str(draw)]
    command += ["--seeds", ",".join(map(str, args.seeds)), "--nodes", str(args.nodes)]
    command += ["--numbered", ",".join(map(str, args.numbered))]
    return [*command, "--obj", str(obj), "--meta", str(meta)]


def debug_env(work: Path, frames: bool) -> dict[str, str]:
    """The environment of the run in the debug copy: its own numba cache in ``work`` (one for
    each way of inlining), debug records, no bounds checks; with ``frames`` (``--frames``),
    :data:`FRAMES_ENV`.

    >>> env = debug_env(Path("/w"), True)
    >>> env["NUMBA_CACHE_DIR"], env["NUMBA_DEBUGINFO"], env[FRAMES_ENV]
    ('/w/cache-frames', '1', '1')
    >>> FRAMES_ENV in debug_env(Path("/w"), False)
    False
    """
    cache = work / ("cache-frames" if frames else "cache")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), NUMBA_DEBUGINFO="1")
    env["NUMBA_BOUNDSCHECK"] = "0"
    env.pop(FRAMES_ENV, None)
    if frames:
        env[FRAMES_ENV] = "1"
    return env


CPU_PROBE = (
    "import llvmlite.binding as ll; ll.initialize_native_target(); "
    "print(ll.get_host_cpu_name(), ll.get_host_cpu_features().flatten())"
)


def valgrind_cpu() -> dict[str, str]:
    """numba's settings for the CPU valgrind emulates, read under ``valgrind --tool=none``.

    valgrind shows programs a CPU of its own (on this machine's AMD EPYC, Zen 4 with
    AVX-512: ``haswell``, no AVX-512). numba keys its cache by CPU, so a copy compiled
    natively for the host is not found under valgrind: the core was compiled again under
    callgrind, some 50 times slower, which looked like a hang (December 2026). Both runs of
    the debug copy are therefore compiled for valgrind's CPU; its code is that CPU's, close to
    the real core's but not the same (the real core's time a position is taken natively).
    """
    command = ["valgrind", "--tool=none", "-q", sys.executable, "-c", CPU_PROBE]
    name, features = subprocess.run(
        command, capture_output=True, text=True, check=True
    ).stdout.split()
    return {"NUMBA_CPU_NAME": name, "NUMBA_CPU_FEATURES": features}


def deal_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options that choose the deals searched and how far (both profiles share them)."""
    parser.add_argument("--seeds", default="22,48", help="reference deals (seeds), or none")
    parser.add_argument("--numbered", default="", help="numbered deals too, e.g. 1862")
    parser.add_argument("--nodes", type=int, default=200_000, help="positions per deal")
    parser.add_argument("--draws", default="1,3")
    parser.add_argument("--lines", type=int, default=0, help="also the N hottest source lines")
    parser.add_argument(
        "--frames",
        action="store_true",
        help="LLVM inlines what numba would: each core function keeps its frame (see the doc)",
    )


def parse_deals(args: argparse.Namespace) -> None:
    """Turn ``args``'s comma-separated ``seeds`` and ``numbered`` into lists of ints."""
    args.seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    args.numbered = [int(s) for s in args.numbered.split(",") if s.strip()]


def profile(draw: int, args: argparse.Namespace, work: Path) -> None:
    """Print one draw mode's table."""
    positions, cpu = _searches(draw, args.seeds, args.nodes, args.numbered)
    env = debug_env(work, args.frames) | valgrind_cpu()
    obj, meta_path, out = work / f"core{draw}.o", work / f"meta{draw}.json", work / f"cg{draw}"
    command = inner_command(draw, args, obj, meta_path)
    subprocess.run(command, env=env, check=True)  # compiles the debug copy
    grind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=yes"]
    grind += ["--dump-line=no", "--compress-strings=no", "--compress-pos=no", "--cache-sim=yes"]
    grind += ["--instr-atstart=no"]
    ready, go = work / f"ready{draw}", work / f"go{draw}"
    ready.unlink(missing_ok=True)  # (left by an earlier run in a kept folder, ``--keep``)
    go.unlink(missing_ok=True)
    command += ["--ready", str(ready), "--go", str(go)]
    t = time.perf_counter()
    run = subprocess.Popen(grind + command, env=env, stderr=subprocess.DEVNULL)
    while not ready.exists() and run.poll() is None:
        time.sleep(0.2)
    subprocess.run(["callgrind_control", "-i", "on", str(run.pid)], check=True, capture_output=True)
    go.touch()
    if run.wait() != 0:
        raise SystemExit(f"the run under callgrind failed ({run.returncode})")
    grind_s = time.perf_counter() - t
    meta = json.loads(meta_path.read_text())
    if meta["positions"] != positions:
        raise SystemExit(f"the debug copy searched {meta['positions']} positions, not {positions}")
    rc_offset, rc_size, _ = symbol_range(obj, meta["symbol"])
    base = meta["address"] - rc_offset
    events, own, calls = read_callgrind(out)
    in_rc = [a for a in own if 0 <= a - base - rc_offset < rc_size]
    sites = [a for a in calls if 0 <= a - base - rc_offset < rc_size]
    lines = outer_lines(obj, sorted({a - base for a in in_rc + sites}))
    parts = line_parts()
    cost: dict[str, list[int]] = {p: [0] * len(events) for p in ORDER}
    for addr_list, table in ((in_rc, own), (sites, calls)):
        for a in addr_list:
            part = parts.get(lines[a - base], REST)
            cost[part] = [x + y for x, y in zip(cost[part], table[a], strict=True)]
    ir = events.index("Ir")
    miss = [events.index(e) for e in ("DLmr", "DLmw") if e in events]
    d1 = [events.index(e) for e in ("D1mr", "D1mw") if e in events]
    total_ir = sum(c[ir] for c in cost.values())
    outside = sum(c[ir] for c in own.values()) - total_ir  # Python, setting up, start_search
    ns = cpu / positions * 1e9
    print(
        f"\ndraw {draw}: seeds {args.seeds}, {positions:,} positions; natively "
        f"{cpu:.2f} CPU s = {ns:.0f} ns/position ({positions / cpu / 1e6:.2f} M/CPU s); "
        f"under callgrind {grind_s:.0f} s wall, {total_ir / positions:.0f} instructions/position "
        f"in run_chunk (the rest of the run: {outside / positions:.0f}/position)"
    )
    print(f"| {'part':<44} | instr/pos | share | est. ns/pos | D1 miss/pos | LL miss/pos |")
    print(f"|{'-' * 46}|-----------|-------|-------------|-------------|-------------|")
    for part in ORDER:
        c = cost[part]
        share = c[ir] / total_ir
        print(
            f"| {part:<44} | {c[ir] / positions:>9.0f} | {100 * share:>4.1f}% | "
            f"{share * ns:>11.0f} | {sum(c[i] for i in d1) / positions:>11.2f} | "
            f"{sum(c[i] for i in miss) / positions:>11.3f} |"
        )
    print(
        f"| {'whole position':<44} | {total_ir / positions:>9.0f} | 100.0% | {ns:>11.0f} | "
        f"{sum(sum(c[i] for i in d1) for c in cost.values()) / positions:>11.2f} | "
        f"{sum(sum(c[i] for i in miss) for c in cost.values()) / positions:>11.3f} |"
    )
    if args.lines:
        hot_lines(meta, own, args.lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    deal_arguments(parser)
    parser.add_argument("--keep", type=Path, help="keep the object and callgrind files here")
    parser.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--draw", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--obj", help=argparse.SUPPRESS)
    parser.add_argument("--meta", help=argparse.SUPPRESS)
    parser.add_argument("--ready", help=argparse.SUPPRESS)
    parser.add_argument("--go", help=argparse.SUPPRESS)
    args = parser.parse_args()
    parse_deals(args)
    if args.inner:
        inner(args)
        return
    run_draws(args, "valgrind", profile)


def run_draws(
    args: argparse.Namespace,
    tool: str,
    profile_draw: Callable[[int, argparse.Namespace, Path], None],
) -> None:
    """Run ``profile_draw`` for each draw mode of ``args`` in a work folder (``args.keep`` or a
    temporary one), or say which of ``tool`` and the symbol tools are missing."""
    missing = [t for t in (tool, "llvm-symbolizer", "nm", "readelf") if not shutil.which(t)]
    if missing:
        print(f"skipped: {', '.join(missing)} not found (Debian: {tool}, llvm, binutils)")
        return
    from klondike_widget.solver import warm_up

    warm_up()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        for draw in [int(d) for d in args.draws.split(",")]:
            profile_draw(draw, args, work)


if __name__ == "__main__":
    main()
