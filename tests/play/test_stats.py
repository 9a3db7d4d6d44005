"""Statistics (klondike_widget.play.stats): streaks, bests, help apart, reset, corrupt files,
concurrent writers, atomic writes and the data directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from klondike_widget.play import stats as stats_module
from klondike_widget.play.stats import (
    DATA_DIR_ENV,
    GameRecord,
    Statistics,
    StatisticsError,
    data_dir,
)


@pytest.fixture
def store(tmp_path: Path) -> Statistics:
    return Statistics(tmp_path / "statistics.jsonl")


def game(i: int, outcome: str, draw: int = 1, **figures: object) -> GameRecord:
    return GameRecord(f"g{i}", draw=draw, outcome=outcome, started=1000.0 + i, **figures)  # type: ignore[arg-type]


def row(store: Statistics, draw: int = 1, current: str | None = None) -> dict[str, object]:
    return store.summary(current)[0 if draw == 1 else 1]


def test_an_empty_store_has_two_empty_rows(store: Statistics) -> None:
    rows = store.summary()
    assert [r["draw"] for r in rows] == [1, 3]
    assert rows[0]["played"] == 0 and rows[0]["win_rate"] is None and rows[0]["best_time"] is None


def test_streaks_current_and_best(store: Statistics) -> None:
    for i, outcome in enumerate(["won", "won", "lost", "won", "won", "won"]):
        store.save(game(i, outcome))
    r = row(store)
    assert (r["played"], r["won"], r["lost"], r["streak"], r["best_streak"]) == (6, 5, 1, 3, 3)
    assert r["win_rate"] == pytest.approx(5 / 6)
    store.save(game(9, "lost"))
    assert (row(store)["streak"], row(store)["best_streak"]) == (0, 3)


def test_best_time_fewest_moves_and_best_score_come_from_own_wins_only(store: Statistics) -> None:
    store.save(game(1, "won", moves=150, seconds=400.0, standard=3000))
    store.save(game(2, "won", moves=120, seconds=500.0, standard=2500))
    store.save(game(3, "won_with_help", moves=90, seconds=100.0, standard=9000))
    store.save(game(4, "lost", moves=10, seconds=5.0, standard=50))
    r = row(store)
    assert (r["best_time"], r["fewest_moves"], r["best_score"]) == (400.0, 120, 3000)


def test_a_game_won_with_help_is_shown_apart_and_ends_the_streak(store: Statistics) -> None:
    store.save(game(1, "won"))
    store.save(game(2, "won"))
    store.save(game(3, "won_with_help"))
    r = row(store)
    assert (r["played"], r["won"], r["won_with_help"], r["lost"]) == (3, 2, 1, 0)
    assert (r["streak"], r["best_streak"]) == (0, 2)
    assert r["win_rate"] == pytest.approx(2 / 3)


def test_draw_modes_are_counted_apart(store: Statistics) -> None:
    store.save(game(1, "won", draw=1, vegas=208))
    store.save(game(2, "lost", draw=3, vegas=-42))
    store.save(game(3, "lost", draw=3, vegas=-52))
    assert (row(store, 1)["played"], row(store, 3)["played"]) == (1, 2)
    assert (row(store, 1)["vegas_total"], row(store, 3)["vegas_total"]) == (208, -94)
    assert store.vegas_total(3) == -94


def test_open_games_count_as_lost_except_the_one_on_the_table(store: Statistics) -> None:
    store.save(game(1, "won"))
    store.save(game(2, "open"))  # left by a restarted kernel
    store.save(game(3, "open"))  # on the table now
    r = row(store, current="g3")
    assert (r["played"], r["won"], r["lost"], r["streak"]) == (2, 1, 1, 0)


def test_saving_a_record_again_replaces_it(store: Statistics) -> None:
    store.save(game(1, "open"))
    store.save(game(1, "won", moves=80))
    assert [(r.id, r.outcome, r.moves) for r in store.records()] == [("g1", "won", 80)]


def test_reset_one_draw_mode_or_all(store: Statistics) -> None:
    store.save(game(1, "won", draw=1))
    store.save(game(2, "won", draw=3))
    store.save(game(3, "lost", draw=3))
    assert store.reset(3) == 2
    assert [r.id for r in store.records()] == ["g1"]
    assert store.reset() == 1
    assert store.records() == []
    assert row(store)["played"] == 0
    with pytest.raises(StatisticsError):
        store.reset(2)


def test_rows_are_ready_for_a_dataframe(store: Statistics) -> None:
    pd = pytest.importorskip("pandas")
    store.save(game(1, "won", moves=100, seconds=200.0))
    table = pd.DataFrame(store.summary())
    assert list(table["draw"]) == [1, 3]
    assert table.loc[0, "won"] == 1
    games = pd.DataFrame(store.rows())
    assert list(games["outcome"]) == ["won"]


def test_a_corrupt_file_loses_no_readable_game_and_keeps_the_rest_aside(
    store: Statistics,
) -> None:
    store.save(game(1, "won"))
    store.save(game(2, "lost"))
    good = store.path.read_text("utf-8")
    store.path.write_text(
        good + "not json at all\n" + '{"id": "x", "draw": 2}\n' + '{"id": "g9", "draw": 1, "outc',
        "utf-8",
    )
    assert [r.id for r in store.records()] == ["g1", "g2"]
    assert store.skipped == 3
    store.save(game(3, "won"))
    assert [r.id for r in store.records()] == ["g1", "g2", "g3"]
    assert store.skipped == 0  # the file is clean again
    kept = store.path.with_name(store.path.name + ".corrupt").read_text("utf-8")
    assert "not json at all" in kept and '"outc' in kept


def test_a_file_of_garbage_reads_as_empty_and_is_kept(store: Statistics) -> None:
    store.path.write_bytes(b"\x00\xff\xfe garbage \x89PNG\r\n")
    assert store.records() == []
    store.save(game(1, "won"))
    assert [r.id for r in store.records()] == ["g1"]
    assert store.path.with_name(store.path.name + ".corrupt").exists()


def test_a_failed_write_leaves_the_old_file_whole(
    store: Statistics, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.save(game(1, "won"))
    before = store.path.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(stats_module.os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        store.save(game(2, "won"))
    assert store.path.read_bytes() == before
    assert sorted(p.name for p in store.path.parent.iterdir()) == [
        "statistics.jsonl",
        "statistics.jsonl.lock",
    ]


WRITER = textwrap.dedent(
    """
    import sys
    from klondike_widget.play.stats import GameRecord, Statistics
    store = Statistics(sys.argv[1])
    name = sys.argv[2]
    for i in range(int(sys.argv[3])):
        store.save(GameRecord(f"{name}-{i}", draw=1, outcome="open"))
        store.save(GameRecord(f"{name}-{i}", draw=1, outcome="won", moves=i))
    """
)


def test_two_writers_at_once_lose_no_game(store: Statistics, repo_root: Path) -> None:
    n = 40
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(store.path), name, str(n)], cwd=repo_root
        )
        for name in ("a", "b")
    ]
    for p in procs:
        assert p.wait(timeout=120) == 0
    records = store.records()
    assert store.skipped == 0
    assert sorted(r.id for r in records) == sorted(f"{w}-{i}" for w in "ab" for i in range(n))
    assert all(r.outcome == "won" for r in records)


def test_two_stores_on_one_file_in_threads_lose_no_game(store: Statistics) -> None:
    import threading

    other = Statistics(store.path)

    def write(s: Statistics, name: str) -> None:
        for i in range(30):
            s.save(GameRecord(f"{name}{i}", draw=3, outcome="lost"))

    threads = [threading.Thread(target=write, args=a) for a in ((store, "x"), (other, "y"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(store.records()) == 60


def test_the_file_is_json_lines_with_a_header(store: Statistics) -> None:
    store.save(game(1, "won"))
    lines = store.path.read_text("utf-8").splitlines()
    assert json.loads(lines[0]) == {"format": "klondike-widget/statistics", "version": 1}
    assert json.loads(lines[1])["id"] == "g1"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"id": ""}, "id"),
        ({"draw": 2}, "draw"),
        ({"outcome": "draw"}, "outcome"),
        ({"moves": -1}, "moves"),
        ({"seconds": float("nan")}, "seconds"),
        ({"standard": 1.5}, "scores"),
        ({"deal": 7}, "deal"),
    ],
)
def test_bad_records_are_refused(fields: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"id": "x", "draw": 1}
    with pytest.raises(StatisticsError, match=message):
        GameRecord(**{**base, **fields})  # type: ignore[arg-type]


def test_save_refuses_what_is_not_a_record_and_writes_nothing(store: Statistics) -> None:
    with pytest.raises(StatisticsError):
        store.save({"id": "x", "draw": 1})  # type: ignore[arg-type]
    assert not store.path.exists()


def test_the_data_dir_follows_the_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "here"))
    assert data_dir() == tmp_path / "here"
    assert Statistics().path == tmp_path / "here" / "statistics.jsonl"
    monkeypatch.delenv(DATA_DIR_ENV)
    assert "klondike-widget" in str(data_dir())


def test_tests_never_use_the_real_data_dir() -> None:
    assert os.environ.get(DATA_DIR_ENV), "conftest.py must point the data dir at a temp folder"
