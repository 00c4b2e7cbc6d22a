"""Reads an engine's stream on a thread of its own, so the run keeps its clocks while the
engine says nothing: an engine that stalls (a hung request, a lost engine process) would
otherwise block the run's loop until a token came, and the time limit and the stall limit are
checked only when the loop wakes.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass

from django.db import connections

from inference.protocol import Delta

_END = object()


@dataclass(frozen=True)
class _Failure:
    error: BaseException


def deltas_watched(deltas: Iterator[Delta], *, tick_seconds: float) -> Iterator[Delta | None]:
    """The engine's deltas as they come, and None after each `tick_seconds` in which none
    came, so the caller can check its clocks. An exception the engine raises is raised here.

    The reader is a daemon thread: a caller that gives up on a silent engine leaves only that
    thread waiting on it, never the run (the engine's abort ends it in the usual case)."""
    out: queue.Queue[object] = queue.Queue()

    def read() -> None:
        try:
            for delta in deltas:
                out.put(delta)
        except BaseException as exc:  # handed to the run, which ends the row with it
            out.put(_Failure(exc))
        finally:
            out.put(_END)
            connections.close_all()  # this thread's own, if the engine touched the database

    threading.Thread(target=read, name="engine-stream", daemon=True).start()
    while True:
        try:
            item = out.get(timeout=tick_seconds)
        except queue.Empty:
            yield None
            continue
        if item is _END:
            return
        if isinstance(item, _Failure):
            raise item.error
        assert isinstance(item, Delta)
        yield item
