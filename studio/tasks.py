"""Celery tasks: thin wrappers that set limits and call a service."""

from __future__ import annotations

from typing import Any

from celery import Task, shared_task

from inference.variants import DEFAULT_VARIANT
from studio.services.streaming import generation_run


@shared_task(bind=True, name="studio.run_generation", ignore_result=True)
def run_generation(
    self: Task[Any, None], generation_id: str, variant: str = DEFAULT_VARIANT
) -> None:
    # No Celery time limits: the threads pool ignores them. `generation_run` keeps its own.
    generation_run(generation_id=generation_id, variant=variant, worker=self.request.hostname or "")
