"""The profiles of the compiled search (``benchmarks/callgrind_profile.py`` and
``benchmarks/perf_profile.py``): which deals they search, and where a sample is charged."""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


grind = _load("callgrind_profile")
perf = _load("perf_profile")


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    grind.deal_arguments(parser)
    args = parser.parse_args(list(argv))
    grind.parse_deals(args)
    return args


def test_the_deals_chosen_reach_the_run_in_the_debug_copy() -> None:
    args = _args("--seeds", "", "--numbered", "1862, 7", "--nodes", "5000")
    assert args.seeds == [] and args.numbered == [1862, 7]
    command = grind.inner_command(3, args, Path("core.o"), Path("meta.json"))
    assert command[command.index("--numbered") + 1] == "1862,7"
    assert command[command.index("--seeds") + 1] == ""
    assert command[command.index("--draw") + 1] == "3"
    assert _args().seeds == [22, 48] and _args().numbered == []


def test_numbered_deals_are_searched_up_to_the_positions_asked() -> None:
    from klondike_widget.solver import coldstart, drive

    before = coldstart.compiled_now()
    positions, cpu = grind._searches(3, [], 3_000, [1862])
    assert 3_000 <= positions < 3_000 + 20_000 and cpu >= 0.0  # (a step may pass the limit)
    both, _ = grind._searches(3, [], 3_000, [1862, 1862])
    assert both == 2 * positions  # the same search twice
    assert grind._searches(3, [], 3_000, [])[0] == 0
    # the compiled core for the profile's searches only: the solver's own choice is left as it was
    assert drive.core is coldstart.CORE and coldstart.compiled_now() == before


def test_a_sample_is_charged_by_the_function_run_chunk_calls_or_by_its_line() -> None:
    parts = grind.line_parts()
    probe = "pointer probe (held, enter, pointer_probe)"
    line = next(n for n, part in parts.items() if part == probe)
    here = ["run_chunk", f"/x/search.py:{line}:5"]
    assert perf.charge(here, parts) == probe  # no frame of its own: by the line
    assert perf.charge(["run_chunk", "/x/search.py:0:0"], parts) == "rest: line 0"
    assert perf.charge(["pointer_probe", "/x/pointers.py:113:1"], parts) == probe  # out of line
    assert perf.charge(["pointer_probe_at", "/x/pointers.py:121:1"], parts) == probe
    assert perf.charge(["gen_moves", "/x/movegen.py:5:1"], parts) == "move generation (gen_moves)"
    assert perf.charge(["tt_rehash", "/x/table.py:5:1"], parts) == "other: tt_rehash"
    # with --frames: by the function inlined into run_chunk, whatever the line, however deep
    keys = ["mix64", "/x/keys.py:145:1", "table_key", "/x/keys.py:9:1", "child_keys", "/x/s.py:2:1"]
    assert perf.charge([*keys, *here], parts) == "children's keys read ahead (child_keys)"
    assert perf.charge(["is_next", "/x/keys.py:452:1", *here], parts) == probe  # not a part


def test_the_functions_run_chunk_calls_belong_to_a_part_of_the_table() -> None:
    parts = set(grind.line_parts().values())
    for called in ("play", "take_back", "child_keys", "row_quiet_key", "row_key", "gen_moves"):
        assert grind.PARTS[called] in parts and grind.PARTS[called] in grind.ORDER


def test_with_frames_the_debug_copy_lets_llvm_inline_what_numba_would(tmp_path: Path) -> None:
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import callgrind_profile as g\n"
        "g._patch_numba(); import numba\n"
        "@numba.njit(inline='always')\ndef small(x): return x + 1\n"
        "@numba.njit\ndef big(x): return small(x) * 2\n"
        "print(big(3), small.targetoptions.get('inline', 'never'))\n"
    )
    for frames, inline in ((True, "never"), (False, "always")):
        env = grind.debug_env(tmp_path, frames)
        out = subprocess.run(
            [sys.executable, "-c", code, str(ROOT / "benchmarks")],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        assert out == ["8", inline]


def test_no_samples_without_a_perf_file(tmp_path: Path) -> None:
    assert perf.samples(tmp_path / "perf.data") == {}
