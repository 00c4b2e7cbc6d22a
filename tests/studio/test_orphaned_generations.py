"""Generations nobody will finish: a worker that died holding them, or one past the time limit."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from studio import messages
from studio.models import Generation, Project
from studio.services.broadcast import watchers_group
from studio.worker.lifecycle import fail_orphaned_generations, stop_sweeps
from studio.worker.orphans import GRACE_SECONDS, WORKER_LOST, generations_fail_orphaned
from studio.worker.run import TIMED_OUT, generation_run
from tests.fakes import ScriptedFakeEngine

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("real_channel_layer"),
]

WORKER = "worker@host-a"


def running(worker: str, started: datetime, text: str = "partial text") -> Generation:
    return Generation.objects.create(
        project=Project.objects.create(),
        prompt="a form",
        expert="chat",
        status=Generation.Status.RUNNING,
        worker=worker,
        started_at=started,
        text=text,
        tokens=3,
        seq=2,
    )


class Watcher:
    """A channel in a generation's group, as the studio's consumer holds one."""

    def __init__(self, generation: Generation) -> None:
        self.layer: Any = get_channel_layer()
        self.channel = async_to_sync(self.layer.new_channel)()
        async_to_sync(self.layer.group_add)(watchers_group(generation), self.channel)

    def receive(self, timeout: float = 5) -> dict[str, Any]:
        async def next_message() -> dict[str, Any]:
            message: dict[str, Any] = await asyncio.wait_for(
                self.layer.receive(self.channel), timeout
            )
            return message

        return async_to_sync(next_message)()


def test_a_restarted_worker_fails_what_its_previous_process_left_running() -> None:
    booted = timezone.now()
    left = running(WORKER, booted - timedelta(minutes=2))
    watcher = Watcher(left)
    own_new = running(WORKER, booted + timedelta(seconds=1))  # claimed by this process
    elsewhere = running("worker2@host-b", booted - timedelta(minutes=2))  # still alive there
    finished = running(WORKER, booted - timedelta(minutes=3))
    Generation.objects.filter(pk=finished.pk).update(status=Generation.Status.DONE)

    assert generations_fail_orphaned(worker=WORKER, worker_started_at=booted) == 1

    left.refresh_from_db()
    assert left.status == Generation.Status.FAILED
    assert left.error == WORKER_LOST
    assert left.finish_reason == "error"
    assert left.finished_at is not None
    assert (left.text, left.tokens, left.seq) == ("partial text", 3, 2)  # what it had reached
    done = watcher.receive()
    assert done["type"] == messages.GENERATION_DONE
    assert (done["generation"], done["status"], done["error"]) == (
        str(left.pk),
        "failed",
        WORKER_LOST,
    )
    assert done["text"] == "partial text"
    statuses = {
        g.pk: g.status
        for g in Generation.objects.filter(pk__in=[own_new.pk, elsewhere.pk, finished.pk])
    }
    assert statuses == {
        own_new.pk: Generation.Status.RUNNING,
        elsewhere.pk: Generation.Status.RUNNING,
        finished.pk: Generation.Status.DONE,
    }
    # A second sweep finds nothing more to do, and tells nobody twice.
    assert generations_fail_orphaned(worker=WORKER, worker_started_at=booted) == 0


def test_any_worker_fails_rows_running_past_the_time_limit(settings: Any) -> None:
    settings.MACARON_GENERATION_TIME_LIMIT_SECONDS = 600
    now = timezone.now()
    limit = timedelta(seconds=600 + GRACE_SECONDS)
    overdue = running("worker2@host-b", now - limit - timedelta(seconds=5))
    recent = running("worker2@host-b", now - limit + timedelta(seconds=30))

    assert generations_fail_orphaned(worker=WORKER, worker_started_at=now) == 1
    assert Generation.objects.get(pk=overdue.pk).status == Generation.Status.FAILED
    assert Generation.objects.get(pk=recent.pk).status == Generation.Status.RUNNING


def test_the_worker_ready_signal_sweeps_under_the_workers_name() -> None:
    left = running(WORKER, timezone.now() - timedelta(days=1))
    fail_orphaned_generations(sender=SimpleNamespace(hostname=WORKER))
    stop_sweeps()  # the sweeps it goes on with (tests/studio/test_queued_generations.py)
    assert Generation.objects.get(pk=left.pk).status == Generation.Status.FAILED


def test_a_run_records_the_worker_that_claimed_it(enqueued: list[str]) -> None:
    generation = Generation.objects.create(
        project=Project.objects.create(), prompt="hi", expert="chat"
    )
    generation_run(generation_id=generation.id, engine=ScriptedFakeEngine("Hello."), worker=WORKER)
    assert Generation.objects.get(pk=generation.pk).worker == WORKER


def test_a_generation_past_the_time_limit_is_aborted_and_failed(
    enqueued: list[str], settings: Any
) -> None:
    settings.MACARON_GENERATION_TIME_LIMIT_SECONDS = 0.3
    generation = Generation.objects.create(
        project=Project.objects.create(), prompt="tell me everything", expert="chat"
    )
    engine = ScriptedFakeEngine("word " * 400, chunk=5, delay=0.01)  # 400 deltas, about 4 s
    started = time.monotonic()
    generation_run(generation_id=generation.id, engine=engine)
    assert time.monotonic() - started < 2  # not the 4 s the whole text would take

    stored = Generation.objects.get(pk=generation.pk)
    assert engine.aborted == [str(generation.id)]
    assert stored.status == Generation.Status.FAILED
    assert stored.error == TIMED_OUT
    assert 1 <= stored.tokens < 200  # stopped long before the 400th
    assert stored.text == "word " * stored.tokens
