"""The worker's start-up and shutdown: a worker process hosts one engine, built when the worker
starts; it first records the built-in adapters, and sweeps the rows a dead worker left running.

Run workers with `-P threads`: the prefork pool's daemonic children may not spawn vLLM's engine
process, and threads let concurrent tasks share (and batch in) the one engine.
"""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from celery import signals
from django.db import DatabaseError

from inference.serving import hosting
from studio.selectors import expert_resolve
from studio.services.adapters import adapters_sync_builtin
from studio.worker.orphans import generations_fail_orphaned

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
        adapters_sync_builtin()
        resolved = expert_resolve(name="ui")
    except DatabaseError:
        log.exception("the adapter registry is not readable (run migrate); serving from folders")
        return None
    return resolved.adapter if resolved else None


@signals.worker_ready.connect
def fail_orphaned_generations(sender: Any = None, **_: Any) -> None:
    """End the rows that a dead previous process under this worker's name left running, and
    any running past the time limit: no one would ever finish them (worker/orphans.py)."""
    if sender is None:
        return
    try:
        generations_fail_orphaned(worker=str(sender.hostname), worker_started_at=PROCESS_STARTED_AT)
    except DatabaseError:
        log.exception("could not sweep orphaned generations; carrying on")


@signals.worker_ready.connect
def announce_ready(sender: Any = None, **_: Any) -> None:
    """Touch `<run dir>/<worker name>.ready`, which the stack launcher waits for."""
    run_dir = os.environ.get("MACARON_RUN_DIR")
    if run_dir and sender is not None:
        name = str(sender.hostname).split("@", 1)[0]
        Path(run_dir, f"{name}.ready").touch()


@signals.worker_shutdown.connect
def stop_engine(**_: Any) -> None:
    hosting.stop_engine()
