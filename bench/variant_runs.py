"""UI4A-Bench's runs of a variant (bench/variants.py) on the real stack: the studio's own path
(a stored generation, a Celery task on the profile's queue, the engine), with the variant applied
to the engine request by a bench-only task. The served path knows nothing of variants.

The bench's worker loads this module (`Stack.start_worker(include=...)`); needs Django set up.
"""

from __future__ import annotations

import uuid
from typing import Any

from celery import Task, shared_task
from django.db import transaction

from bench.variants import BEST_OF_VARIANT, DEFAULT_VARIANT, apply_variant, check_variant
from studio.celery import app
from studio.models import Generation
from studio.services.generations import generation_create, generation_store
from studio.worker.run import generation_claim, generation_request, generation_stream

RUN_VARIANT = "bench.run_variant"


@shared_task(bind=True, name=RUN_VARIANT, ignore_result=True)
def run_variant(self: Task[Any, None], generation_id: str, variant: str) -> None:
    generation = generation_claim(generation_id=generation_id, worker=self.request.hostname or "")
    if generation is None:
        return
    request = generation_request(generation)
    if request is not None:
        # Variants run off the studio's path measure a single draft (studio/worker/candidates.py).
        generation_stream(generation, apply_variant(request, variant), drafts=1)


def variant_generation_create(
    *, prompt: str, expert: str, project_id: uuid.UUID, variant: str
) -> Generation:
    """A stored generation that runs under `variant`; the served one goes the studio's way."""
    check_variant(variant)
    if variant in (DEFAULT_VARIANT, BEST_OF_VARIANT):
        best_of = variant == BEST_OF_VARIANT
        return generation_create(
            prompt=prompt, expert=expert, project_id=project_id, best_of=best_of
        )
    with transaction.atomic():
        generation = generation_store(prompt=prompt, expert=expert, project_id=project_id)
        transaction.on_commit(
            lambda: app.send_task(
                RUN_VARIANT,
                args=(str(generation.id), variant),
                queue=generation.profile,
                task_id=str(generation.id),
            )
        )
    return generation
