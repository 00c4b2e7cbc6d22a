"""A session's cell log: what each cell ran and what it gave, for the studio's panel and for
anyone who wants to see what an expert did in a session.

The log is `cells.json` in the session's folder: the last `keep` records, each one's text
clipped to `field_bytes`, so the file stays small whatever the cells print. Writers hold the
session's flock (ReplSessions does); each write replaces the file whole, so readers need no
lock and never see half a record. A cell under way is `running.json`, removed when its record
is written, so a reader can show it before it ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from studio.repl.cells import CellResult

LOG_FILE = "cells.json"
RUNNING_FILE = "running.json"
CLIP_NOTE = "\n… (clipped in the cell log)"


@dataclass(frozen=True)
class LogBounds:
    keep: int  # records kept (the oldest go first)
    field_bytes: int  # each text field's most bytes, as UTF-8


def clip(text: str, most: int) -> tuple[str, bool]:
    data = text.encode()
    if len(data) <= most:
        return text, False
    return data[:most].decode(errors="ignore") + CLIP_NOTE, True


def cell_record(
    *,
    index: int,
    code: str,
    cell: CellResult,
    by: str | None,
    started_at: float,
    bounds: LogBounds,
) -> dict[str, Any]:
    """One cell, as the log keeps it: every text field clipped (and `clipped` says so)."""
    most = bounds.field_bytes
    texts = {"code": code, "stdout": cell.stdout, "stderr": cell.stderr}
    if cell.result is not None:
        texts["result"] = cell.result
    clipped = False
    record: dict[str, Any] = {"index": index, "kind": "cell"}
    for name, text in texts.items():
        record[name], cut = clip(text, most)
        clipped = clipped or cut
    record.setdefault("result", None)
    error = None
    if cell.error is not None:
        name, _ = clip(str(cell.error.get("name", "")), 200)
        value, cut_value = clip(str(cell.error.get("value", "")), most)
        # The traceback's end says the most (where it failed, and why): keep that.
        traceback = str(cell.error.get("traceback", ""))
        tail = traceback.encode()[-most:].decode(errors="ignore")
        error = {"name": name, "value": value, "traceback": tail}
        clipped = clipped or cut_value or len(tail) < len(traceback)
    notes = [clip(note, 1000)[0] for note in cell.notes[:8]]
    record.update(
        error=error,
        notes=notes,
        duration=cell.duration,
        truncated=cell.truncated,
        timed_out=cell.timed_out,
        restarted=cell.kernel_lost,
        clipped=clipped,
        started_at=round(started_at, 3),
        by=by,
    )
    return record


def reset_record(*, index: int, by: str | None) -> dict[str, Any]:
    return {"index": index, "kind": "reset", "started_at": round(time.time(), 3), "by": by}


def log_append(folder: Path, record: dict[str, Any], *, keep: int) -> None:
    """Add a record and drop the oldest past `keep`. Call with the session's lock held."""
    records = log_read(folder)
    records.append(record)
    _write_json(folder / LOG_FILE, records[-keep:])


def log_running(folder: Path, *, index: int, code: str, by: str | None, bounds: LogBounds) -> None:
    """Mark a cell as under way (the session's lock held)."""
    text, _ = clip(code, bounds.field_bytes)
    running = {"index": index, "kind": "running", "code": text, "by": by}
    _write_json(folder / RUNNING_FILE, {**running, "started_at": round(time.time(), 3)})


def log_running_done(folder: Path) -> None:
    (folder / RUNNING_FILE).unlink(missing_ok=True)


def log_read(folder: Path, *, after: int = 0) -> list[dict[str, Any]]:
    """The records with an index past `after`, oldest first (no lock needed)."""
    try:
        records = json.loads((folder / LOG_FILE).read_text())
    except (OSError, ValueError):
        return []
    if not isinstance(records, list):
        return []
    return [r for r in records if isinstance(r, dict) and int(r.get("index", 0)) > after]


def log_running_cell(folder: Path, *, stale_after: float) -> dict[str, Any] | None:
    """The cell under way, if any. One older than `stale_after` seconds was left by a process
    that died mid-cell: no cell runs that long, so it is not shown."""
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        running = json.loads((folder / RUNNING_FILE).read_text())
        if isinstance(running, dict) and time.time() - running["started_at"] <= stale_after:
            return running
    return None


def _write_json(path: Path, value: Any) -> None:
    temporary = path.with_name(path.name + ".new")
    temporary.write_text(json.dumps(value))
    os.replace(temporary, path)
