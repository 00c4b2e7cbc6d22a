"""The Celery app. A worker process hosts one engine, built when the worker starts.

Run workers with `-P threads`: the prefork pool's daemonic children may not spawn vLLM's engine
process, and threads let concurrent tasks share (and batch in) the one engine.
"""

from __future__ import annotations

import logging
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")

log = logging.getLogger(__name__)
# Before this worker could claim anything: its name's older running rows were a dead process's.
PROCESS_STARTED_AT = datetime.now(UTC)
app = Celery("macaron")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["studio"])
# Registers the remote-control commands that load and unload adapters in this worker.
import studio.worker_control  # noqa: E402, F401


@signals.worker_init.connect
def start_engine(**_: Any) -> None:
    """A worker whose engine did not start must not take tasks: Celery logs a failing signal
    handler and carries on, and every generation it took would fail and leave its row running.
    So it exits, loudly."""
    from inference import hosting

    try:
        hosting.start_engine(warm_up_with=_sync_builtin_adapters())
    except Exception:
        log.exception("the engine did not start; the worker exits")
        os._exit(1)


def _sync_builtin_adapters() -> Any:
    """Record the built-in experts' adapters (new or retrained ones under the adapter root)
    before the engine starts, and return the ui expert's registered version to warm up with."""
    import django

    django.setup()
    from django.db import DatabaseError

    from studio.selectors import expert_resolve
    from studio.services.adapters import adapters_sync_builtin

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
    any running past the time limit: no one would ever finish them (services/orphans.py)."""
    if sender is None:
        return
    from django.db import DatabaseError

    from studio.services.orphans import generations_fail_orphaned

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
    from inference import hosting

    hosting.stop_engine()
