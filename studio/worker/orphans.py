"""Ends the generations a dead worker left running.

A generation runs at most once (`generation_run` claims only a queued row), so a worker killed
mid-generation (out of memory, SIGKILL, a lost host) leaves its rows "running" for good, and
their watchers wait until they give up. Every worker sweeps when it becomes ready, and then
every `MACARON_SWEEP_SECONDS` (`lifecycle`):
- the rows its own name claimed before this process started: the previous process under that
  name died holding them (a warm shutdown waits for its running tasks);
- rows running a minute past the generation time limit, whoever claimed them: a live worker
  aborts its own at the limit, so nobody is still running them.

Each row is failed with a conditional update, so a row that finished meanwhile is left alone,
and its watchers get the usual final message with the text it had reached.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from studio.models import Generation
from studio.services.generations import generation_ended

log = logging.getLogger(__name__)

WORKER_LOST = (
    "The worker running this generation stopped before it finished; "
    "nothing more will come. Try again."
)

# How long past the time limit a row may stay running: the worker's last batch and final write.
GRACE_SECONDS = 60.0


def generations_fail_orphaned(*, worker: str, worker_started_at: datetime) -> int:
    """Fail the running rows that `worker`'s previous process or a timed-out task left behind;
    returns how many were failed."""
    now = timezone.now()
    left_by_worker = Q(worker=worker, started_at__lt=worker_started_at)
    limit = settings.MACARON_GENERATION_TIME_LIMIT_SECONDS + GRACE_SECONDS
    overdue = Q(started_at__lt=now - timedelta(seconds=limit))
    candidates = Generation.objects.filter(
        left_by_worker | overdue, status=Generation.Status.RUNNING
    ).values_list("pk", flat=True)
    failed = sum(_fail(generation_id, now=now) for generation_id in candidates)
    if failed:
        log.warning("failed %d generation(s) left running by stopped workers", failed)
    return failed


def _fail(generation_id: uuid.UUID, *, now: datetime) -> bool:
    updated = Generation.objects.filter(pk=generation_id, status=Generation.Status.RUNNING).update(
        status=Generation.Status.FAILED, finish_reason="error", error=WORKER_LOST, finished_at=now
    )
    if not updated:
        return False
    generation_ended(Generation.objects.get(pk=generation_id))
    return True
