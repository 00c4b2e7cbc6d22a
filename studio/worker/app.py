"""The worker process's entry point: `celery -A studio.worker.app worker -P threads`.

Importing it registers what only a worker runs: the tasks, the remote-control commands that
load and unload adapters, and the signals that start and stop the engine (`lifecycle`).
Django is set up first because those modules read the models when imported. Each step logs its
start-up phase (`inference.startup_phases`): the interpreter and Celery's imports end here."""

from __future__ import annotations

import time

from inference import startup_phases
from inference.settings import export_engine_threads

# Before torch is imported (below, with the worker's modules): the engine core this process
# forks keeps the OpenMP threads this process's runtime read.
export_engine_threads()
startup_phases.record(
    "interpreter and celery imports", startup_phases.process_started_at(), time.time()
)

import django  # noqa: E402

from studio.celery import app  # noqa: E402

with startup_phases.phase("django setup"):
    django.setup()

with startup_phases.phase("worker imports (torch, vllm)"):
    from studio.worker import control, lifecycle, tasks

__all__ = ["app", "control", "lifecycle", "tasks"]
