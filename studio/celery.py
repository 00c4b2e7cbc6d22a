"""The Celery app both processes share. The web process only sends through it, by task name
(`send_task`), so it never imports what a worker runs; `studio.worker.app` is the worker's
entry point, which registers the tasks, the remote-control commands and the engine's signals."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")

app = Celery("macaron")
app.config_from_object("django.conf:settings", namespace="CELERY")

# Task names: the web enqueues by these, the worker registers its tasks under them.
RUN_GENERATION = "studio.run_generation"
