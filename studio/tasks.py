"""Celery tasks: thin wrappers that set limits and call a service."""

from __future__ import annotations

from celery import shared_task

from inference.variants import DEFAULT_VARIANT
from studio.services.streaming import generation_run


@shared_task(name="studio.run_generation", ignore_result=True, soft_time_limit=600, time_limit=660)
def run_generation(generation_id: str, variant: str = DEFAULT_VARIANT) -> None:
    generation_run(generation_id=generation_id, variant=variant)
