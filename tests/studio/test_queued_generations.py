"""Queued generations whose task may be gone are sent again or failed, by every worker's
sweep (at start and every MACARON_SWEEP_SECONDS); Celery hands a lost worker's task back, and
a copy whose row has ended is a no-op."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from studio import messages
from studio.celery import app
from studio.models import Generation, Project
from studio.worker.lifecycle import fail_orphaned_generations, stop_sweeps
from studio.worker.orphans import GRACE_SECONDS
from studio.worker.queued import QUEUE_LOST, generations_queued_sweep
from tests.studio.test_orphaned_generations import Watcher

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("real_channel_layer"),
]


def queued_at(when: datetime) -> Generation:
    generation = Generation.objects.create(
        project=Project.objects.create(), prompt="a form", expert="chat"
    )
    Generation.objects.filter(pk=generation.pk).update(queued_at=when)
    return generation


def status_of(generation: Generation) -> str:
    return str(Generation.objects.get(pk=generation.pk).status)


def test_queued_rows_are_sent_again_once_past_the_requeue_age_and_failed_past_the_limit(
    enqueued: list[str], settings: Any
) -> None:
    settings.MACARON_GENERATION_REQUEUE_SECONDS = 120
    settings.MACARON_GENERATION_TIME_LIMIT_SECONDS = 600
    now = timezone.now()
    fresh = queued_at(now - timedelta(seconds=30))
    waiting = queued_at(now - timedelta(seconds=200))
    lost = queued_at(now - timedelta(seconds=600 + GRACE_SECONDS + 5))
    watcher = Watcher(lost)

    # A worker's first sweep: every row past the requeue age.
    assert generations_queued_sweep(now=now, last_sweep=None) == (1, 1)
    assert enqueued == [str(waiting.pk)]
    assert (status_of(fresh), status_of(waiting)) == ("queued", "queued")
    stored = Generation.objects.get(pk=lost.pk)
    assert (stored.status, stored.error) == (Generation.Status.FAILED, QUEUE_LOST)
    done = watcher.receive()
    assert (done["type"], done["status"]) == (messages.GENERATION_DONE, "failed")

    # A minute later: only the row that passed the age since.
    later = now + timedelta(seconds=100)
    assert generations_queued_sweep(now=later, last_sweep=now) == (1, 0)
    assert enqueued == [str(waiting.pk), str(fresh.pk)]
    assert generations_queued_sweep(now=later + timedelta(seconds=60), last_sweep=later) == (0, 0)


def test_a_worker_keeps_sweeping_while_it_serves(enqueued: list[str], settings: Any) -> None:
    settings.MACARON_SWEEP_SECONDS = 0.1
    fail_orphaned_generations(sender=SimpleNamespace(hostname="worker@host-a"))
    try:
        # Queued after the worker's first sweep: only a later one finds it.
        lost = queued_at(timezone.now() - timedelta(days=1))
        deadline = time.monotonic() + 5
        while status_of(lost) == "queued" and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        stop_sweeps()
    assert status_of(lost) == "failed"


def test_generation_tasks_are_acknowledged_late_and_handed_back_by_a_lost_worker(
    settings: Any,
) -> None:
    from studio.worker.tasks import run_generation

    assert app.conf.task_acks_late and app.conf.task_reject_on_worker_lost
    assert run_generation.acks_late and run_generation.reject_on_worker_lost
    assert app.conf.worker_prefetch_multiplier == 1
    # Longer than any run may last (else a running task is handed out again), well under
    # Redis's default hour (else a lost task waits that long).
    visibility = app.conf.broker_transport_options["visibility_timeout"]
    assert settings.MACARON_GENERATION_TIME_LIMIT_SECONDS + GRACE_SECONDS < visibility <= 900


def test_a_redelivered_task_whose_row_ended_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    from inference.serving import hosting
    from studio.worker.tasks import run_generation

    def no_engine() -> None:
        raise AssertionError("a copy of an ended run reached the engine")

    monkeypatch.setattr(hosting, "current_engine", no_engine)
    generation = queued_at(timezone.now())
    Generation.objects.filter(pk=generation.pk).update(
        status=Generation.Status.FAILED, error="The worker stopped.", text="partial"
    )
    result = run_generation.apply(args=(str(generation.pk),))
    assert result.successful()
    stored = Generation.objects.get(pk=generation.pk)
    assert (stored.status, stored.error, stored.text) == (
        "failed",
        "The worker stopped.",
        "partial",
    )
