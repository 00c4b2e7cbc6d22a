"""The worker process's entry point: `celery -A studio.worker.app worker -P threads`.

Importing it registers what only a worker runs: the tasks, the remote-control commands that
load and unload adapters, and the signals that start and stop the engine (`lifecycle`).
Django is set up first because those modules read the models when imported."""

from __future__ import annotations

import django

from studio.celery import app

django.setup()

from studio.worker import control, lifecycle, tasks  # noqa: E402

__all__ = ["app", "control", "lifecycle", "tasks"]
