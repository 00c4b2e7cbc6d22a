"""One log line per start-up phase, so where a worker's start-up time goes is read from the worker
itself (`bench/startup.py` reads them), not guessed.

A line is `macaron-startup {"phase": ..., "start": ..., "end": ..., "pid": ...}` on stderr, with
wall-clock seconds (`time.time()`), so lines from the worker and from vLLM's engine-core process
(which logs its own through our vLLM plugin) fall on one time line. Always on: a phase costs
one clock read at each end and one short write.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

PREFIX = "macaron-startup "

# A logger of its own with its own handler: the engine-core process configures no logging of
# ours, and Celery reconfigures the root logger while the worker starts.
_log = logging.getLogger("macaron.startup")
_log.propagate = False
_log.setLevel(logging.INFO)
if not _log.handlers:
    _handler = logging.StreamHandler(sys.stderr)
    _handler.setFormatter(logging.Formatter("%(message)s"))
    _log.addHandler(_handler)


def record(name: str, start: float, end: float, **detail: Any) -> None:
    """Log that phase `name` ran from `start` to `end` (wall-clock seconds) in this process."""
    line = {"phase": name, "start": round(start, 4), "end": round(end, 4), "pid": os.getpid()}
    _log.info("%s%s", PREFIX, json.dumps({**line, **detail}, sort_keys=True))


@contextmanager
def phase(name: str, **detail: Any) -> Iterator[dict[str, Any]]:
    """Time the block as phase `name`; the caller may add detail to the yielded dict. A block
    that raises is logged too, marked failed, so a slow failing start shows where it stalled."""
    start = time.time()
    extra: dict[str, Any] = dict(detail)
    try:
        yield extra
    except BaseException:
        extra["failed"] = True
        raise
    finally:
        record(name, start, time.time(), **extra)


def process_started_at() -> float:
    """This process's creation time (wall clock), from the kernel: the start of its imports."""
    import psutil

    return float(psutil.Process().create_time())


def parse(line: str) -> dict[str, Any] | None:
    """The phase a log line records, or None for any other line."""
    at = line.find(PREFIX)
    if at < 0:
        return None
    try:
        found = json.loads(line[at + len(PREFIX) :])
    except ValueError:
        return None
    return found if isinstance(found, dict) and "phase" in found else None
