"""Sends again, or fails, the queued generations whose task is gone.

A queued row's task lives only in the broker: a Redis restart without persistence loses it,
and the row would stay queued for good. A sweep asks the broker which tasks it still holds
(`broker_tasks`) about the rows queued longer than `MACARON_GENERATION_REQUEUE_SECONDS`:
- a row whose task is gone is sent again, under the same task id; should the old task turn up
  after all, only one of the two can claim the queued row;
- one queued past the time limit (plus the orphan sweep's grace) is failed instead: nobody
  would run it in time to be of use, and its watchers get the usual final message.
A row whose task the broker holds is only waiting its turn, however long, and is left alone;
so is every row when the broker cannot be read.

A bench variant's row (bench/variant_runs.py) whose task is lost is sent again as a plain
generation: the row does not say which variant it was.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings

from studio.models import Generation
from studio.services.generations import generation_ended, generation_enqueue
from studio.worker.broker_tasks import broker_task_ids
from studio.worker.orphans import GRACE_SECONDS

log = logging.getLogger(__name__)

QUEUE_LOST = "This generation's place in the queue was lost and it never started. Try again."


def generations_queued_sweep(*, now: datetime) -> tuple[int, int]:
    """Send again, or fail, the rows queued a while whose task the broker no longer holds;
    returns how many were (sent again, failed)."""
    requeue_age = timedelta(seconds=settings.MACARON_GENERATION_REQUEUE_SECONDS)
    waiting = list(
        Generation.objects.filter(status=Generation.Status.QUEUED, queued_at__lt=now - requeue_age)
    )
    if not waiting:
        return 0, 0
    held = broker_task_ids({generation.profile for generation in waiting})
    if held is None:
        return 0, 0
    give_up = now - timedelta(
        seconds=settings.MACARON_GENERATION_TIME_LIMIT_SECONDS + GRACE_SECONDS
    )
    requeued = failed = 0
    for generation in waiting:
        if str(generation.pk) in held:
            continue
        if generation.queued_at < give_up:
            failed += _fail(generation.pk, now=now)
        else:
            generation_enqueue(generation)
            requeued += 1
    if requeued or failed:
        log.warning(
            "queued generations whose task was lost: %d sent again, %d failed", requeued, failed
        )
    return requeued, failed


def _fail(generation_id: uuid.UUID, *, now: datetime) -> bool:
    updated = Generation.objects.filter(pk=generation_id, status=Generation.Status.QUEUED).update(
        status=Generation.Status.FAILED, finish_reason="error", error=QUEUE_LOST, finished_at=now
    )
    if updated:
        generation_ended(Generation.objects.get(pk=generation_id))
    return bool(updated)
