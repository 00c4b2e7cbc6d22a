"""Queued generations whose task may be gone are sent again or failed, by every worker's
sweep (at start and every MACARON_SWEEP_SECONDS); Celery hands a lost worker's task back, and
a copy whose row has ended is a no-op."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from celery import Celery
from django.utils import timezone
from kombu import Connection

from studio import messages
from studio.celery import RUN_GENERATION, app
from studio.models import Generation, Project
from studio.worker.lifecycle import fail_orphaned_generations, stop_sweeps
from studio.worker.orphans import GRACE_SECONDS
from studio.worker.queued import QUEUE_LOST, generations_queued_sweep
from tests.studio.test_orphaned_generations import Watcher

PROFILE = Generation._meta.get_field("profile").default

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


@pytest.fixture
def broker(settings: Any, redis_url: str) -> Iterator[str]:
    """The private Redis as the broker, its generation queue and unacknowledged tasks empty."""
    import redis

    settings.CELERY_BROKER_URL = redis_url
    client = redis.Redis.from_url(redis_url)
    client.delete(PROFILE, "unacked", "unacked_index")
    yield redis_url
    client.delete(PROFILE, "unacked", "unacked_index")
    client.close()


def send(broker_url: str, *generations: Generation) -> None:
    """Enqueue their runs as the web process does, through a Celery app of the test's own."""
    sender = Celery(broker=broker_url, set_as_current=False)
    try:
        for generation in generations:
            sender.send_task(
                RUN_GENERATION,
                args=(str(generation.pk),),
                queue=generation.profile,
                task_id=str(generation.pk),
            )
    finally:
        sender.close()


def test_queued_rows_whose_task_the_broker_lost_are_sent_again_or_failed(
    enqueued: list[str], settings: Any, broker: str
) -> None:
    settings.MACARON_GENERATION_REQUEUE_SECONDS = 120
    settings.MACARON_GENERATION_TIME_LIMIT_SECONDS = 600
    now = timezone.now()
    a_while = now - timedelta(seconds=200)
    delivered = queued_at(a_while)  # its task taken by a worker, not yet acknowledged
    waiting = queued_at(a_while)  # its task waiting in the queue
    lost = queued_at(a_while)
    lost_long_ago = queued_at(now - timedelta(seconds=600 + GRACE_SECONDS + 5))
    fresh = queued_at(now - timedelta(seconds=30))  # too young to ask about
    watcher = Watcher(lost_long_ago)
    send(broker, delivered, waiting)
    with Connection(broker) as connection:
        channel: Any = connection.default_channel  # kombu's virtual channel: a worker's take
        message = channel.basic_get(PROFILE, no_ack=False)
        assert message.headers["id"] == str(delivered.pk)

        assert generations_queued_sweep(now=now) == (1, 1)

    assert enqueued == [str(lost.pk)]  # sent again, once: the others' tasks are in the broker
    assert {status_of(g) for g in (delivered, waiting, lost, fresh)} == {"queued"}
    stored = Generation.objects.get(pk=lost_long_ago.pk)
    assert (stored.status, stored.error) == (Generation.Status.FAILED, QUEUE_LOST)
    done = watcher.receive()
    assert (done["type"], done["status"]) == (messages.GENERATION_DONE, "failed")


def test_nothing_is_taken_as_lost_when_the_broker_cannot_be_read(
    enqueued: list[str], settings: Any
) -> None:
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nobody listens there
    lost = queued_at(timezone.now() - timedelta(days=1))
    assert generations_queued_sweep(now=timezone.now()) == (0, 0)
    assert (enqueued, status_of(lost)) == ([], "queued")


def test_a_worker_keeps_sweeping_while_it_serves(
    enqueued: list[str], settings: Any, broker: str
) -> None:
    settings.MACARON_SWEEP_SECONDS = 0.1
    fail_orphaned_generations(sender=SimpleNamespace(hostname="worker@host-a"))
    try:
        # Queued (and its task lost) after the worker's first sweep: only a later one finds it.
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
