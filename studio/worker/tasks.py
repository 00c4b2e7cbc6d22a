"""Celery tasks: thin wrappers, registered under the names the web process sends by."""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task

from studio.celery import RUN_GENERATION
from studio.worker.run import generation_run


@shared_task(
    bind=True, name=RUN_GENERATION, ignore_result=True, acks_late=True, reject_on_worker_lost=True
)
def run_generation(self: Task[Any, None], generation_id: str) -> None:
    # No Celery time limits: the threads pool ignores them. `generation_run` keeps its own.
    # Acknowledged late, so a lost worker's task comes back; a copy whose row is no longer
    # queued (it ran, or was swept) is a no-op: `generation_run` claims only a queued row.
    generation_run(generation_id=generation_id, worker=self.request.hostname or "")
