"""The worker's start-up and shutdown: a worker process hosts one engine, built when the worker
starts; it first records the built-in adapters, and sweeps the rows a dead worker left running
(and the queued rows whose task is gone), then again every minute while it serves; the same
sweep stops idle REPL sessions.

Run workers with `-P threads`: the prefork pool's daemonic children may not spawn vLLM's engine
process, and threads let concurrent tasks share (and batch in) the one engine.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from celery import signals
from django.conf import settings
from django.db import DatabaseError, connections
from django.utils import timezone

from inference import startup_phases
from inference.serving import hosting
from studio.selectors import expert_resolve
from studio.services.adapters import adapters_sync_builtin
from studio.services.repl import repl_sessions_reap
from studio.worker.orphans import generations_fail_orphaned
from studio.worker.queued import generations_queued_sweep

log = logging.getLogger(__name__)
# Before this worker could claim anything: its name's older running rows were a dead process's.
PROCESS_STARTED_AT = datetime.now(UTC)


@signals.worker_init.connect
def start_engine(**_: Any) -> None:
    """A worker whose engine did not start must not take tasks: Celery logs a failing signal
    handler and carries on, and every generation it took would fail and leave its row running.
    So it exits, loudly."""
    try:
        hosting.start_engine(warm_up_with=_sync_builtin_adapters())
    except Exception:
        log.exception("the engine did not start; the worker exits")
        os._exit(1)


def _sync_builtin_adapters() -> Any:
    """Record the built-in experts' adapters (new or retrained ones under the adapter root)
    before the engine starts, and return the ui expert's registered version to warm up with."""
    try:
        with startup_phases.phase("adapter registry sync"):
            adapters_sync_builtin()
            resolved = expert_resolve(name="ui")
    except DatabaseError:
        log.exception("the adapter registry is not readable (run migrate); serving from folders")
        return None
    return resolved.adapter if resolved else None


@signals.worker_ready.connect
def fail_orphaned_generations(sender: Any = None, **_: Any) -> None:
    """End the rows that a dead previous process under this worker's name left running, and
    any running past the time limit: no one would ever finish them (worker/orphans.py); send
    again the queued ones whose task is gone (worker/queued.py). Then again every
    `MACARON_SWEEP_SECONDS`, on a thread of its own: a broker that lost its queue, or a worker
    that died, does not wait for the next worker start to be noticed."""
    if sender is None:
        return
    worker = str(sender.hostname)
    generations_sweep(worker=worker)
    stop_sweeps()  # a previous thread, should the signal come twice
    _sweeps_stopped.append(stopped := threading.Event())
    threading.Thread(
        target=_sweep_repeatedly,
        kwargs={"worker": worker, "stopped": stopped},
        name="generation-sweep",
        daemon=True,
    ).start()


_sweeps_stopped: list[threading.Event] = []


def _sweep_repeatedly(*, worker: str, stopped: threading.Event) -> None:
    while not stopped.wait(settings.MACARON_SWEEP_SECONDS):
        generations_sweep(worker=worker)
        connections.close_all()  # this thread's own, between sweeps


@signals.worker_shutdown.connect
def stop_sweeps(**_: Any) -> None:
    while _sweeps_stopped:
        _sweeps_stopped.pop().set()


def generations_sweep(*, worker: str) -> None:
    """One sweep of the running and queued rows nobody will finish."""
    try:
        generations_fail_orphaned(worker=worker, worker_started_at=PROCESS_STARTED_AT)
        generations_queued_sweep(now=timezone.now())
    except Exception:  # a database or broker away: the next sweep tries again
        log.exception("could not sweep orphaned generations; carrying on")
    try:
        # REPL sessions idle past MACARON_REPL_IDLE_SECONDS (also reaped whenever sessions
        # are listed or created, so a host without a worker reaps them too).
        if reaped := repl_sessions_reap():
            log.info("stopped %d idle REPL sessions", len(reaped))
    except Exception:
        log.exception("could not sweep idle REPL sessions; carrying on")


@signals.worker_ready.connect
def announce_ready(sender: Any = None, **_: Any) -> None:
    """Touch `<run dir>/<worker name>.ready`, which the stack launcher waits for."""
    now = time.time()
    startup_phases.record("ready", now, now)
    run_dir = os.environ.get("MACARON_RUN_DIR")
    if run_dir and sender is not None:
        name = str(sender.hostname).split("@", 1)[0]
        Path(run_dir, f"{name}.ready").touch()


@signals.worker_shutdown.connect
def stop_engine(**_: Any) -> None:
    hosting.stop_engine()
