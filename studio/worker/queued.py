"""Sends again, or fails, the queued generations whose task may be gone.

A queued row's task lives only in the broker: a Redis restart without persistence, or a worker
killed holding it prefetched, loses it, and the row would stay queued for good. A sweep cannot
see into the broker, so it goes by age:
- a row queued longer than `MACARON_GENERATION_REQUEUE_SECONDS` is sent again, once per worker
  process (on its first sweep, or on the sweep when it passes that age): a copy of a task
  that was not lost is harmless, since only one run can claim the queued row;
- a row queued past the time limit (plus the orphan sweep's grace) is failed: nobody will run
  it in time to be of use, and its watchers get the usual final message.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings

from studio.models import Generation
from studio.services.generations import generation_ended, generation_enqueue
from studio.worker.orphans import GRACE_SECONDS

log = logging.getLogger(__name__)

QUEUE_LOST = "This generation waited too long in the queue and never started. Try again."


def generations_queued_sweep(*, now: datetime, last_sweep: datetime | None) -> tuple[int, int]:
    """Send again the rows that passed the requeue age since `last_sweep` (all of them if
    None), fail those queued too long; returns how many were (sent again, failed)."""
    give_up = now - timedelta(
        seconds=settings.MACARON_GENERATION_TIME_LIMIT_SECONDS + GRACE_SECONDS
    )
    requeue_age = timedelta(seconds=settings.MACARON_GENERATION_REQUEUE_SECONDS)
    queued = Generation.objects.filter(status=Generation.Status.QUEUED)
    failed = sum(
        _fail(generation_id, now=now)
        for generation_id in queued.filter(queued_at__lt=give_up).values_list("pk", flat=True)
    )
    waiting = queued.filter(queued_at__lt=now - requeue_age, queued_at__gte=give_up)
    if last_sweep is not None:
        waiting = waiting.filter(queued_at__gte=last_sweep - requeue_age)
    requeued = 0
    for generation in waiting:
        generation_enqueue(generation)
        requeued += 1
    if requeued or failed:
        log.warning("queued generations: %d sent again, %d failed", requeued, failed)
    return requeued, failed


def _fail(generation_id: uuid.UUID, *, now: datetime) -> bool:
    updated = Generation.objects.filter(pk=generation_id, status=Generation.Status.QUEUED).update(
        status=Generation.Status.FAILED, finish_reason="error", error=QUEUE_LOST, finished_at=now
    )
    if updated:
        generation_ended(Generation.objects.get(pk=generation_id))
    return bool(updated)
