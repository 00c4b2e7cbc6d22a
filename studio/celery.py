"""The Celery app. A worker process hosts one engine, built when the worker starts.

Run workers with `-P threads`: the prefork pool's daemonic children may not spawn vLLM's engine
process, and threads let concurrent tasks share (and batch in) the one engine.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")

log = logging.getLogger(__name__)
app = Celery("macaron")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["studio"])


@signals.worker_init.connect
def start_engine(**_: Any) -> None:
    """A worker whose engine did not start must not take tasks: Celery would log the error and
    carry on, and every generation it took would then fail. SystemExit stops the worker."""
    from inference import hosting

    try:
        hosting.start_engine()
    except Exception:
        # Celery logs a failing signal handler and carries on; a worker with no engine would
        # then take tasks it can only fail and leave their rows running. Exit instead, loudly.
        logging.getLogger(__name__).exception("the engine did not start; the worker exits")
        os._exit(1)


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
