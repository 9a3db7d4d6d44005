"""Winnability studies: statistics, result files, resuming, executors and the command line.

Every test that says something about verdicts runs the real solver. A node budget (rather than
only a time budget) makes its verdicts independent of machine speed and load, so runs on
different executors can be compared deal by deal. One deterministic test double exists, clearly
named, only to exercise the error path of the machinery (a worker that raises).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from klondike_widget.engine.deals import parse_deal_numbers
from klondike_widget.study import (
    PUBLISHED,
    DealResult,
    DealTask,
    ImportedDeal,
    StudyError,
    StudyFileError,
    StudyResults,
    StudySettings,
    format_summary,
    load_dataframe,
    read_results,
    read_solvitaire_deals,
    run_study,
    solve_deal,
    summarize,
    wilson_interval,
)
from klondike_widget.study.results import COLUMNS, ResultWriter
from klondike_widget.study.stats import percentile, rate_bounds, summarize_counts

#: Copies of ``shared/reference`` kept with the tests (a fresh clone has no ``../shared``).
REFERENCE = Path(__file__).resolve().parents[1] / "data"
REFERENCE_JSONL = REFERENCE / "solvitaire-1-50.jsonl"

# Draw 3 with 250k nodes per solve: a mix of won, lost (29, 44) and unknown (12, 22) verdicts
# with the solver of 2026-11-30, each solve under a second on this machine.
DRAW = 3
DEALS = [2, 3, 4, 5, 7, 12, 22, 29, 44]
NODES = 250_000
SECONDS = 120.0  # generous: the node budget is what binds


def _small_study(out: Path, deals: list[int] = DEALS, **kwargs: Any) -> StudyResults:
    """The small study with the real solver (node-capped), on the executor in ``kwargs``."""
    return run_study(
        deals, draw=DRAW, seconds=SECONDS, nodes=NODES, out=out, progress=False, **kwargs
    )


def _rows(path: Path) -> list[str]:
    return path.read_text().splitlines()[2:]


def _verdicts(results: object) -> dict[int, tuple[str, str | None]]:
    rows = results.results if hasattr(results, "results") else results  # type: ignore[attr-defined]
    return {r.deal: (r.verdict, r.verdict_no_f2t) for r in rows}


@pytest.fixture(scope="module")
def reference_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small study solved one deal after another in this process (real solver)."""
    out = tmp_path_factory.mktemp("study") / "serial.csv"
    _small_study(out, workers=0)
    return out


# -- statistics --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table I,
        # method 3 (Wilson score interval without continuity correction).
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_interval_matches_published_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=5e-5)
    assert hi == pytest.approx(high, abs=5e-5)


def test_wilson_interval_edge_cases_by_hand() -> None:
    z2 = 1.959963984540054**2
    # 0 of n: the upper end is z^2 / (n + z^2); n of n mirrors it.
    assert wilson_interval(0, 10) == (0.0, pytest.approx(z2 / (10 + z2)))
    assert wilson_interval(10, 10) == (pytest.approx(10 / (10 + z2)), 1.0)
    lo, hi = wilson_interval(30, 100)
    lo2, hi2 = wilson_interval(70, 100)
    assert (lo, hi) == (pytest.approx(1 - hi2), pytest.approx(1 - lo2))
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(-1, 10)


def test_rate_bounds_count_unknowns_both_ways() -> None:
    b = rate_bounds(sure=90, unknown=5, trials=100)
    assert (b.low, b.high) == (0.90, 0.95)
    assert b.interval == (wilson_interval(90, 100)[0], wilson_interval(95, 100)[1])
    assert "90.00%..95.00%" in b.text()


def test_summary_on_hand_built_rows() -> None:
    def row(deal: int, verdict: str, seconds: float, second: str | None) -> DealResult:
        return DealResult(
            deal,
            1,
            verdict,
            seconds,
            100,
            150 if verdict == "won" else 0,
            second,
            0.1 if second else None,
            10 if second else None,
        )

    rows = [
        row(1, "won", 1.0, "won"),
        row(2, "won", 2.0, "lost"),  # needs foundation-to-column moves
        row(3, "won", 3.0, "unknown"),
        row(4, "won", 4.0, "won"),
        row(5, "lost", 5.0, None),
        row(6, "unknown", 6.0, None),
    ]
    s = summarize(rows)
    assert (s.deals, s.won, s.lost, s.unknown) == (6, 4, 1, 1)
    assert (s.win_rate.low, s.win_rate.high) == (4 / 6, 5 / 6)
    assert s.win_rate.interval == (wilson_interval(4, 6)[0], wilson_interval(5, 6)[1])
    assert s.needs_f2t is not None and s.needs_f2t_of_all is not None
    assert (s.needs_f2t.low, s.needs_f2t.high) == (1 / 4, 2 / 4)
    assert (s.needs_f2t_of_all.low, s.needs_f2t_of_all.high) == (1 / 6, 2 / 6)
    # numpy's linear interpolation on 1..6: p50 = 3.5, p90 = 5.5
    assert s.seconds_percentiles[50] == pytest.approx(3.5)
    assert s.seconds_percentiles[90] == pytest.approx(5.5)
    assert s.seconds_percentiles[100] == 6.0
    assert s.total_seconds == 21.0
    assert percentile([3.0, 1.0, 2.0], 0) == 1.0


def test_summary_without_the_second_check_and_mixed_files() -> None:
    rows = [DealResult(1, 3, "won", 1.0, 1, 100, None, None, None)]
    assert summarize(rows).needs_f2t is None
    with pytest.raises(ValueError, match="lack the check"):
        summarize(rows, check_without_f2t=True)


def test_format_summary_shows_published_figures_side_by_side() -> None:
    text = format_summary(summarize_counts(won=80, lost=15, unknown=5, need_f2t=1), draw=3)
    pub = PUBLISHED[3]
    assert f"published {pub.winnable:.3f} ± {pub.winnable_pm:.3f}%" in text
    assert f"published {pub.needs_f2t:.2f} ± {pub.needs_f2t_pm:.2f}%" in text
    assert "80.00%..85.00%" in text  # unknowns as bounds, not hidden
    assert PUBLISHED[1].winnable == 90.480 and PUBLISHED[1].needs_f2t == 0.34


# -- result files ----------------------------------------------------------------------------


def _one_row(deal: int = 7, draw: int = 1) -> DealResult:
    return DealResult(deal, draw, "lost", 0.5, 1000, 0, None, None, None)


def test_result_file_round_trip_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    settings = StudySettings(draw=1, seconds=5.0)
    row = DealResult(3, 1, "won", 0.25, 42, 180, "lost", 1.5, 99)
    with ResultWriter(path, settings) as w:
        w.write(row)
    with ResultWriter(path, settings) as w:
        assert w.existing == (row,)
        w.write(_one_row(8))
    back = read_results(path)
    assert back.settings == settings
    assert back.results == (row, _one_row(8))


def test_other_settings_are_refused_and_the_file_is_untouched(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    with ResultWriter(path, StudySettings(draw=3, seconds=1.0)):
        pass  # a header and no rows: may be started afresh with other settings
    with ResultWriter(path, StudySettings(draw=1, seconds=5.0)) as w:
        w.write(_one_row())
    assert read_results(path).settings == StudySettings(draw=1, seconds=5.0)
    before = path.read_bytes()
    with pytest.raises(
        StudyFileError, match=r"draw: file 1, this run 3; seconds: file 5.0, this run 9.0"
    ):
        ResultWriter(path, StudySettings(draw=3, seconds=9.0))
    with pytest.raises(StudyFileError, match="check_without_f2t"):
        run_study("1-3", draw=1, seconds=5.0, check_without_f2t=False, out=path, workers=0)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("deal,verdict\n1,won\n", "not a klondike-widget study file"),
        ("# klondike-widget study {oops\n", "unreadable settings line"),
        (StudySettings(1, 5.0).header() + "\nwrong,header\n", "column header"),
        (
            StudySettings(1, 5.0).header() + "\n" + ",".join(COLUMNS) + "\n1,1,maybe,1,1,0,,,\n",
            "line 3: unreadable row",
        ),
        (
            StudySettings(1, 5.0).header() + "\n" + ",".join(COLUMNS) + "\n1,1,lost,1,1,0,,,\n"
            "1,1,lost,1,1,0,,,\n",
            "deal 1 appears twice",
        ),
    ],
)
def test_unreadable_result_files_get_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(StudyFileError, match=message):
        read_results(path)
    with pytest.raises(StudyFileError, match=message):
        run_study("1-2", draw=1, seconds=5.0, out=path, workers=0)
    assert path.read_text() == text


def test_a_torn_last_write_is_not_a_finished_deal(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    settings = StudySettings(draw=1, seconds=5.0)
    with ResultWriter(path, settings) as w:
        w.write(_one_row(1))
    finished = path.read_text()
    with path.open("a") as f:
        f.write("2,1,wo")  # a crash in the middle of a write
    assert [r.deal for r in read_results(path).results] == [1]
    with ResultWriter(path, settings) as w:
        assert w.torn_bytes == len("2,1,wo")
        w.write(_one_row(2))
    assert path.read_text() == finished + ",".join(_one_row(2).csv_fields()) + "\n"


# -- studies with the real solver ----------------------------------------------------------------


def test_serial_study_rows_are_real_solves(reference_run: Path) -> None:
    res = read_results(reference_run)
    assert sorted(r.deal for r in res.results) == DEALS
    verdicts = {r.verdict for r in res.results}
    assert "won" in verdicts and len(verdicts) >= 2  # chosen to mix won, lost and unknown
    for r in res.results:
        assert r.draw == DRAW
        assert r.nodes <= NODES
        if r.verdict == "won":
            assert r.line_length > 0 and r.verdict_no_f2t is not None
        else:
            assert r.line_length == 0 and r.verdict_no_f2t is None
    # the same deal solved again directly gives the same verdict
    again = solve_deal(DealTask(29, draw=DRAW, seconds=SECONDS, nodes=NODES))
    assert _verdicts([again])[29] == _verdicts(res)[29]


@pytest.mark.slow
def test_local_processes_and_dask_give_identical_per_deal_results(
    reference_run: Path, tmp_path: Path
) -> None:
    distributed = pytest.importorskip("distributed")
    serial = _verdicts(read_results(reference_run))
    pool = _small_study(tmp_path / "p.csv", workers=2)
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    try:
        with distributed.Client(cluster) as client:
            on_dask = _small_study(tmp_path / "d.csv", dask=client)
            assert client.status == "running"  # a Client passed in is left open
    finally:
        cluster.close()
    assert _verdicts(pool) == serial
    assert _verdicts(on_dask) == serial
    assert _verdicts(read_results(tmp_path / "d.csv")) == serial
    for a, b in zip(
        sorted(pool.results, key=lambda r: r.deal),
        sorted(on_dask.results, key=lambda r: r.deal),
        strict=True,
    ):
        assert (a.nodes, a.line_length) == (b.nodes, b.line_length)


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """End the processes this test started (each in its own session), the last started first."""
    for proc in reversed(procs):
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    for proc in reversed(procs):
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)


@pytest.mark.slow
def test_a_study_on_dask_survives_a_killed_worker(reference_run: Path, tmp_path: Path) -> None:
    """A real scheduler and two real workers (the venv's ``dask`` command, on 127.0.0.1); one
    worker is killed (SIGKILL, no nanny to restart it) while it holds a deal. The scheduler gives
    that deal to the other worker: every deal is in the file exactly once, verdicts as serial."""
    distributed = pytest.importorskip("distributed")
    dask_cmd = str(Path(sys.executable).parent / "dask")
    address = f"tcp://127.0.0.1:{_free_port()}"
    log = (tmp_path / "cluster.log").open("wb")
    procs: list[subprocess.Popen[bytes]] = []

    def start(*args: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [dask_cmd, *args], start_new_session=True, stdout=log, stderr=subprocess.STDOUT
        )
        procs.append(proc)
        return proc

    # If anything hangs, stopping the cluster makes the client fail instead of waiting forever.
    watchdog = threading.Timer(300.0, _stop, args=(procs,))
    watchdog.start()
    killed: dict[str, Any] = {}
    try:
        start(
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            address.rsplit(":", 1)[1],
            "--no-dashboard",
        )
        workers = {
            f"w{i}": start(
                "worker",
                address,
                "--name",
                f"w{i}",
                "--nthreads",
                "1",
                "--no-nanny",
                "--no-dashboard",
                "--host",
                "127.0.0.1",
                "--death-timeout",
                "60",
            )
            for i in range(2)
        }
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)

            def kill_a_busy_worker(row: DealResult) -> None:
                if killed:
                    return
                names = {a: w["name"] for a, w in client.scheduler_info()["workers"].items()}
                for addr, keys in client.processing().items():
                    if keys and names.get(addr) in workers:
                        workers[names[addr]].send_signal(signal.SIGKILL)
                        workers[names[addr]].wait(timeout=20)
                        killed.update(name=names[addr], keys=list(keys), after=row.deal)
                        return

            start_time = time.monotonic()
            results = _small_study(tmp_path / "d.csv", dask=client, on_result=kill_a_busy_worker)
            seconds = time.monotonic() - start_time
            alive = [w["name"] for w in client.scheduler_info()["workers"].values()]
    finally:
        watchdog.cancel()
        _stop(procs)
        log.close()
    print(f"study with a killed worker: {seconds:.1f} s, killed {killed}")
    assert killed, "no worker was busy when a deal finished: nothing was killed"
    assert killed["keys"], "the killed worker held no deal"
    assert alive == [n for n in workers if n != killed["name"]]
    deals = [int(line.split(",")[0]) for line in _rows(tmp_path / "d.csv")]
    assert sorted(deals) == DEALS  # every deal exactly once: nothing lost, nothing twice
    assert _verdicts(results) == _verdicts(read_results(reference_run))
    assert _verdicts(read_results(tmp_path / "d.csv")) == _verdicts(read_results(reference_run))


@pytest.mark.slow
def test_dask_local_by_name(reference_run: Path, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    res = _small_study(tmp_path / "d.csv", [3, 29], dask="local", workers=2)
    serial = _verdicts(read_results(reference_run))
    assert _verdicts(res) == {3: serial[3], 29: serial[29]}


@pytest.mark.slow
def test_study_interrupted_after_k_rows_resumes_without_loss(
    reference_run: Path, tmp_path: Path
) -> None:
    out = tmp_path / "r.csv"
    seen: list[int] = []

    class Crash(Exception):
        pass

    def crash_after_three(row: DealResult) -> None:
        seen.append(row.deal)
        if len(seen) == 3:
            raise Crash

    with pytest.raises(Crash):
        _small_study(out, workers=2, on_result=crash_after_three)
    first = _rows(out)
    assert sorted(int(line.split(",")[0]) for line in first) == sorted(seen)
    resumed = _small_study(out, workers=2, on_result=seen.append)
    rows = _rows(out)
    assert rows[:3] == first  # nothing rewritten
    deals = [int(line.split(",")[0]) for line in rows]
    assert sorted(deals) == DEALS  # nothing lost, nothing twice
    assert len(seen) == len(DEALS)  # the second run solved only the missing deals
    assert _verdicts(resumed) == _verdicts(read_results(reference_run))


@pytest.mark.slow
def test_cli_killed_mid_run_resumes_without_loss(reference_run: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    cmd = [
        sys.executable,
        "-m",
        "klondike_widget",
        "study",
        "--draw",
        str(DRAW),
        "--deals",
        ",".join(map(str, DEALS)),
        "--seconds",
        str(SECONDS),
        "--nodes",
        str(NODES),
        "--out",
        str(out),
        "--workers",
        "1",
        "--no-progress",
    ]
    proc = subprocess.Popen(
        cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and len(_rows(out)) >= 3:
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the study ended before it could be interrupted"
        os.killpg(proc.pid, signal.SIGKILL)  # no chance to clean up: like a crash
    finally:
        proc.wait(timeout=30)
    first = _rows(out)
    assert 3 <= len(first) < len(DEALS)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    rows = _rows(out)
    assert rows[: len(first)] == first
    assert sorted(int(line.split(",")[0]) for line in rows) == DEALS
    assert _verdicts(read_results(out)) == _verdicts(read_results(reference_run))
    assert "published 81.945 ± 0.084%" in done.stdout


def test_solvitaire_deals_agree_with_reference_where_decided(tmp_path: Path) -> None:
    deals = read_solvitaire_deals(REFERENCE_JSONL, draw=1)
    assert [d.label for d in deals] == list(range(1, 51))
    reference = {}
    for line in REFERENCE_JSONL.read_text().splitlines():
        rec = json.loads(line)
        if rec["draw"] == 1:
            reference[rec["seed"]] = rec["verdict"]
    chosen = [d for d in deals if d.label in (1, 2, 3, 4, 5, 6)]
    res = run_study(chosen, draw=1, seconds=20.0, out=tmp_path / "s.csv", workers=0, progress=False)
    assert res.settings.source == "solvitaire"
    mismatches = [
        (r.deal, r.verdict, reference[r.deal])
        for r in res.results
        if "unknown" not in (r.verdict, reference[r.deal]) and r.verdict != reference[r.deal]
    ]
    assert mismatches == []
    assert sum(r.verdict != "unknown" for r in res.results) >= 4
    # a file of numbered deals does not take imported ones
    with pytest.raises(StudyFileError, match="source"):
        run_study("1", draw=1, seconds=20.0, out=tmp_path / "s.csv", workers=0)


def test_bad_solvitaire_input(tmp_path: Path) -> None:
    p = tmp_path / "d.jsonl"
    p.write_text('{"seed": 1, "deal": {"tableau piles": []}}\n')
    with pytest.raises(ValueError, match=r"line 1: .*0 tableau piles, expected 7"):
        read_solvitaire_deals(p, draw=1)
    p.write_text("not json\n")
    with pytest.raises(ValueError, match="not valid JSON"):
        read_solvitaire_deals(p, draw=1)
    p.write_text(REFERENCE_JSONL.read_text().splitlines()[0] + "\n")  # seed 1, draw 1
    with pytest.raises(ValueError, match="no deals for draw 3"):
        read_solvitaire_deals(p, draw=3)
    with pytest.raises(ValueError, match="cannot read"):
        read_solvitaire_deals(tmp_path / "missing.jsonl", draw=3)
    record = json.loads(REFERENCE_JSONL.read_text().splitlines()[0])
    for key, value, message in [
        ("draw", 1.0, "draw must be 1 or 3, not 1.0"),
        ("draw", True, "draw must be 1 or 3, not True"),
        ("seed", 1.0, "seed must be a whole number >= 0, not 1.0"),
    ]:
        p.write_text(json.dumps({**record, key: value}) + "\n")
        with pytest.raises(ValueError, match=message):
            read_solvitaire_deals(p, draw=1)
    p.write_text("[" * 100_000 + "\n")
    with pytest.raises(ValueError, match="not valid JSON"):
        read_solvitaire_deals(p, draw=1)


def test_dataframe_and_plot(reference_run: Path, tmp_path: Path) -> None:
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    df = load_dataframe(reference_run)
    assert list(df.columns) == list(COLUMNS)
    assert df["deal"].tolist() == DEALS
    assert df.attrs["settings"]["draw"] == DRAW
    assert df["verdict"].astype(str).tolist() == [
        r.verdict for r in sorted(read_results(reference_run).results, key=lambda r: r.deal)
    ]
    png = tmp_path / "study.png"
    fig = read_results(reference_run).plot(png)
    assert png.stat().st_size > 10_000
    assert len(fig.axes) == 2


# -- machinery with a test double (never used to prove a verdict) ------------------------------


def double_that_fails_on_deal_5(task: DealTask) -> DealResult:
    """TEST DOUBLE for the error path only: not a solver. Raises on deal 5."""
    if task.deal == 5:
        raise RuntimeError("boom")
    return DealResult(task.deal, task.draw, "lost", 0.0, 0, 0, None, None, None)


def test_a_failing_deal_is_reported_and_the_others_are_kept(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    with pytest.raises(StudyError, match="deal 5: RuntimeError: boom") as info:
        run_study(
            "3-7",
            draw=1,
            seconds=1.0,
            out=out,
            workers=0,
            progress=False,
            worker=double_that_fails_on_deal_5,
        )
    assert sorted(r.deal for r in info.value.results.results) == [3, 4, 6, 7]
    assert sorted(r.deal for r in read_results(out).results) == [3, 4, 6, 7]


def test_api_rejects_bad_arguments(tmp_path: Path) -> None:
    out = tmp_path / "r.csv"
    for kwargs, message in [
        ({"draw": 2}, "draw must be 1 or 3"),
        ({"seconds": 0}, "seconds must be positive"),
        ({"seconds": float("nan")}, "seconds must be positive"),
        ({"nodes": -5}, "nodes must be a positive"),
        ({"workers": -1}, "workers must be"),
        ({"workers": 0, "dask": "local"}, "cannot be combined"),
    ]:
        with pytest.raises(ValueError, match=message):
            run_study("1-2", out=out, **{"seconds": 1.0, **kwargs})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="empty deal range"):
        run_study("5-1", seconds=1.0, out=out)
    with pytest.raises(ValueError, match="all deal numbers or all imported"):
        run_study([1, ImportedDeal(2, {})], seconds=1.0, out=out)  # type: ignore[list-item]
    assert not out.exists()
    assert parse_deal_numbers("1-3") == [1, 2, 3]


# -- command line --------------------------------------------------------------------------------


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "klondike_widget", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["study", "--draw", "2", "--deals", "1", "--seconds", "1", "--out", "r.csv"],
            "invalid choice: 2",
        ),
        (
            ["study", "--draw", "1", "--deals", "1", "--seconds", "-1", "--out", "r.csv"],
            "must be a positive number of seconds",
        ),
        (
            ["study", "--draw", "1", "--deals", "1", "--seconds", "x", "--out", "r.csv"],
            "not a number",
        ),
        (
            ["study", "--draw", "1", "--deals", "9-3", "--seconds", "1", "--out", "r.csv"],
            "empty deal range",
        ),
        (
            ["study", "--draw", "1", "--deals", "a-b", "--seconds", "1", "--out", "r.csv"],
            "not a deal number or range",
        ),
        (["study", "--draw", "1", "--deals", "1", "--seconds", "1"], "--out"),
        (["study", "--draw", "1", "--seconds", "1", "--out", "r.csv"], "give the deals"),
        (
            [
                "study",
                "--draw",
                "3",
                "--solvitaire",
                str(REFERENCE_JSONL),
                "--deals",
                "77",
                "--seconds",
                "1",
                "--out",
                "r.csv",
            ],
            "no seeds 77 for draw 3",
        ),
        (
            [
                "study",
                "--draw",
                "1",
                "--deals",
                "1",
                "--seconds",
                "1",
                "--out",
                "r.csv",
                "--workers",
                "0",
            ],
            "must be at least 1",
        ),
        (
            ["study", "--draw", "1", "--deals", "1", "--seconds", "1", "--out", "nodir/r.csv"],
            "cannot write",
        ),
        (
            [
                "study",
                "--draw",
                "1",
                "--solvitaire",
                "missing.jsonl",
                "--seconds",
                "1",
                "--out",
                "r.csv",
            ],
            "cannot read",
        ),
        (["summary", "missing.csv"], "no such result file"),
    ],
)
def test_cli_bad_arguments(tmp_path: Path, args: list[str], message: str) -> None:
    proc = _cli(*args, cwd=tmp_path)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "r.csv").exists()


def test_cli_refuses_a_file_of_other_settings_and_leaves_it(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    with ResultWriter(path, StudySettings(draw=1, seconds=60.0)) as w:
        w.write(_one_row())
    before = path.read_bytes()
    proc = _cli(
        "study", "--draw", "3", "--deals", "1-5", "--seconds", "60", "--out", "r.csv", cwd=tmp_path
    )
    assert proc.returncode == 2
    assert "other settings (draw: file 1, this run 3)" in proc.stderr
    path.write_bytes(before + b"garbage\n")
    proc = _cli(
        "study", "--draw", "1", "--deals", "1-5", "--seconds", "60", "--out", "r.csv", cwd=tmp_path
    )
    assert proc.returncode == 2 and "unreadable row" in proc.stderr
    assert path.read_bytes() == before + b"garbage\n"


def test_cli_summary_and_plot(reference_run: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    proc = _cli("summary", str(reference_run), "--plot", "s.svg", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    res = read_results(reference_run)
    s = res.summary()
    assert f"deals {len(DEALS)}: won {s.won}, lost {s.lost}, unknown {s.unknown}" in proc.stdout
    assert "published 81.945" in proc.stdout
    assert (tmp_path / "s.svg").read_text().startswith("<?xml")


def test_importing_the_study_loads_no_optional_or_heavy_libraries() -> None:
    probe = (
        "import sys, klondike_widget.study, klondike_widget.__main__; "
        "print([m for m in ('dask', 'distributed', 'pandas', 'matplotlib', 'tqdm', 'numba', "
        "'klondike_widget.solver') if m in sys.modules])"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert proc.stdout.strip() == "[]"


@pytest.mark.parametrize("use_tqdm", [False, True])
def test_progress_shows_running_win_rate_with_earlier_runs(use_tqdm: bool) -> None:
    import io

    from klondike_widget.study.progress import Progress

    if use_tqdm:
        pytest.importorskip("tqdm")
    out = io.StringIO()
    bar = Progress(total=2, stream=out, use_tqdm=use_tqdm, earlier=["won", "lost"])
    bar.update("won")
    bar.update("unknown")
    bar.close()
    text = out.getvalue()
    assert "win 50.0% (2 won, 1 lost, 1 unknown)" in text
    assert "2/2" in text
    assert bar.counts == {"won": 1, "lost": 0, "unknown": 1}


def test_cli_solvitaire_seeds(tmp_path: Path) -> None:
    proc = _cli(
        "study",
        "--draw",
        "1",
        "--solvitaire",
        str(REFERENCE_JSONL),
        "--deals",
        "2,3",
        "--seconds",
        "20",
        "--out",
        "s.csv",
        "--workers",
        "1",
        "--no-progress",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    res = read_results(tmp_path / "s.csv")
    assert res.settings.source == "solvitaire"
    # Solvitaire says won for seeds 2 and 3 in draw 1 (shared/reference).
    assert {r.deal: r.verdict for r in res.results} == {2: "won", 3: "won"}
