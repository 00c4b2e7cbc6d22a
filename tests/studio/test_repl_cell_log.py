"""A session's cell log: every cell is logged with who ran it, the log keeps only the last
records and clips each one, a reader asks for the cells past an index without waiting for a
running cell, and a reset is marked, not forgotten. Real kernels under real bubblewrap."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from studio.repl.cell_log import LOG_FILE, LogBounds, cell_record
from studio.repl.cells import CellResult
from studio.repl.sessions import ReplSessions, SessionMissing
from tests.studio.repl_fixtures import config, repl_root

__all__ = ["repl_root"]


def test_a_record_clips_every_text_and_keeps_a_tracebacks_end():
    long_traceback = "frame\n" * 5000 + "ZeroDivisionError: division by zero"
    cell = CellResult(
        stdout="x" * 10_000,
        result="é" * 10_000,
        error={"name": "ZeroDivisionError", "value": "v" * 9000, "traceback": long_traceback},
        duration=0.5,
    )
    record = cell_record(
        index=7,
        code="y = 1\n" * 1000,
        cell=cell,
        by="expert",
        started_at=1.0,
        bounds=LogBounds(keep=10, field_bytes=100),
    )
    assert record["clipped"] is True and record["index"] == 7 and record["by"] == "expert"
    for text in (record["code"], record["stdout"], record["result"], record["error"]["value"]):
        assert len(text.encode()) <= 100 + 40 and text.endswith("(clipped in the cell log)")
    assert record["error"]["traceback"].endswith("ZeroDivisionError: division by zero")
    assert len(record["error"]["traceback"].encode()) <= 100


def test_a_small_cell_is_logged_whole():
    cell = CellResult(stdout="hi\n", result="42", duration=0.01)
    record = cell_record(
        index=1, code="42", cell=cell, by=None, started_at=1.0, bounds=LogBounds(10, 100)
    )
    assert record["clipped"] is False and record["code"] == "42" and record["result"] == "42"
    assert record["stdout"] == "hi\n" and record["error"] is None and record["kind"] == "cell"


def test_the_log_keeps_the_last_cells_each_clipped_and_reads_past_an_index(repl_root: Path):
    sessions = ReplSessions(config(repl_root, log_cells=3, log_field_bytes=200))
    state = sessions.create("alice")
    try:
        for n in range(4):
            sessions.execute(state.id, "alice", f"n = {n}", by="user")
        sessions.execute(state.id, "alice", "print('z' * 20000); 1 / 0", by="expert")
        _, records, running = sessions.cells(state.id, "alice", after=0)
        assert [r["index"] for r in records] == [3, 4, 5] and running is None
        assert [r["by"] for r in records] == ["user", "user", "expert"]
        last = records[-1]
        assert last["error"]["name"] == "ZeroDivisionError" and last["clipped"] is True
        assert len(last["stdout"].encode()) < 300
        assert (repl_root / state.id / LOG_FILE).stat().st_size < 3 * 2000

        assert [r["index"] for r in sessions.cells(state.id, "alice", after=4)[1]] == [5]
        assert sessions.cells(state.id, "alice", after=5)[1] == []
        with pytest.raises(SessionMissing):
            sessions.cells(state.id, "bob", after=0)
    finally:
        sessions.close(state.id, "alice")


def test_a_reset_is_marked_and_the_numbering_goes_on(repl_root: Path):
    sessions = ReplSessions(config(repl_root))
    state = sessions.create("alice")
    try:
        sessions.execute(state.id, "alice", "x = 41", by="user")
        sessions.reset(state.id, "alice", by="user")
        after_reset, cell = sessions.execute(state.id, "alice", "x", by="user")
        assert cell.error is not None and cell.error["name"] == "NameError"
        _, records, _ = sessions.cells(state.id, "alice")
        assert [(r["index"], r["kind"]) for r in records] == [
            (1, "cell"),
            (2, "reset"),
            (3, "cell"),
        ]
        assert after_reset.logged == 3 and after_reset.cells == 2
    finally:
        sessions.close(state.id, "alice")


def test_a_reader_sees_a_running_cell_without_waiting_for_it(repl_root: Path):
    sessions = ReplSessions(config(repl_root))
    state = sessions.create("alice")
    try:
        worker = threading.Thread(
            target=sessions.execute,
            args=(state.id, "alice", "import time; time.sleep(1.5); 'slept'"),
            kwargs={"by": "expert"},
        )
        worker.start()
        running = None
        deadline = time.monotonic() + 1.0
        while running is None and time.monotonic() < deadline:
            asked = time.monotonic()
            _, records, running = sessions.cells(state.id, "alice")
            assert time.monotonic() - asked < 0.5  # no wait on the session's lock
            time.sleep(0.05)
        assert running is not None and running["index"] == 1 and running["by"] == "expert"
        assert "time.sleep(1.5)" in running["code"] and records == []
        worker.join(timeout=10)
        _, records, running = sessions.cells(state.id, "alice")
        assert running is None and records[0]["result"] == "'slept'"
        assert records[0]["duration"] >= 1.5
    finally:
        sessions.close(state.id, "alice")
