"""Every generation ends: an engine failure, a failing channel layer, a final write that fails,
an engine that goes silent, or a status set elsewhere meanwhile never leaves a row running, and
its watchers are always sent the final message."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from channels.layers import InMemoryChannelLayer, channel_layers

from inference.protocol import Delta, GenerationRequest
from studio import messages
from studio.models import Generation, Project
from studio.services.generations import generation_cancel, generation_fail
from studio.worker import row
from studio.worker.run import NOT_STORED, STALLED, TIMED_OUT, engine_failed, generation_run
from tests.fakes import ScriptedFakeEngine

pytestmark = pytest.mark.django_db(transaction=True)


class FlakyLayer(InMemoryChannelLayer):  # type: ignore[misc]
    """An in-memory layer whose first `failures` group sends raise, as Redis going away
    does; it records every send it was asked for."""

    failures: ClassVar[int] = 0
    attempts: ClassVar[list[dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        FlakyLayer.attempts.append(message)
        if len(FlakyLayer.attempts) <= FlakyLayer.failures:
            raise ConnectionError("the channel layer is away")
        await super().group_send(group, message)


@pytest.fixture
def flaky_layer(settings: Any) -> Iterator[type[FlakyLayer]]:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.FlakyLayer"}}
    channel_layers.backends = {}
    FlakyLayer.attempts = []
    FlakyLayer.failures = 0
    yield FlakyLayer
    channel_layers.backends = {}


class SilentEngine(ScriptedFakeEngine):
    """Sends its first deltas, then nothing, ignoring aborts: a hung request."""

    def __init__(self, text: str, *, answered: int) -> None:
        super().__init__(text, chunk=5)
        self.answered = answered
        self.released = threading.Event()  # set when the test ends, to let the reader go

    def stream(self, request: GenerationRequest) -> Iterator[Delta]:
        for index, delta in enumerate(super().stream(request), start=1):
            yield delta
            if index == self.answered:
                self.released.wait(30)
                return


def queued(expert: str = "chat") -> Generation:
    return Generation.objects.create(
        project=Project.objects.create(),
        prompt="tell me everything",
        expert=expert,
        structured=expert == "ui",
    )


def run_within(seconds: float, **kwargs: Any) -> None:
    """Run a generation on a thread; it must return within `seconds` (not hang the test)."""
    worker = threading.Thread(target=generation_run, kwargs=kwargs, daemon=True)
    worker.start()
    worker.join(timeout=seconds)
    assert not worker.is_alive(), "the run did not end"


def done_messages(layer: type[FlakyLayer]) -> list[dict[str, Any]]:
    return [m for m in layer.attempts if m["type"] == messages.GENERATION_DONE]


def test_an_engine_failure_with_the_channel_layer_away_fails_the_row_and_keeps_the_text(
    flaky_layer: type[FlakyLayer],
) -> None:
    flaky_layer.failures = 1000  # every send fails
    generation = queued()
    engine = ScriptedFakeEngine("word " * 20, chunk=5, fail_after=3)
    run_within(10, generation_id=generation.id, engine=engine)

    stored = Generation.objects.get(pk=generation.pk)
    assert stored.status == Generation.Status.FAILED
    assert stored.finish_reason == "error"
    assert stored.error == engine_failed(generation.id)  # its text stays in the log
    assert stored.text == "word " * 3  # the three deltas that arrived
    [done] = done_messages(flaky_layer)  # attempted, though it could not go out
    assert (done["status"], done["text"]) == ("failed", "word " * 3)


def test_a_channel_layer_blip_loses_no_text_and_the_run_goes_on(
    flaky_layer: type[FlakyLayer],
) -> None:
    flaky_layer.failures = 1  # the first batch fails, then the layer is back
    generation = queued()
    run_within(10, generation_id=generation.id, engine=ScriptedFakeEngine("word " * 8, chunk=5))

    stored = Generation.objects.get(pk=generation.pk)
    assert stored.status == Generation.Status.DONE
    assert stored.text == "word " * 8
    [done] = done_messages(flaky_layer)
    assert (done["status"], done["text"]) == ("done", "word " * 8)


def test_a_final_write_that_fails_still_fails_the_row_with_the_text(
    flaky_layer: type[FlakyLayer], monkeypatch: pytest.MonkeyPatch, spec_text: str
) -> None:
    def refused(*args: Any, **kwargs: Any) -> Any:
        raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(row, "final_view", refused)
    generation = queued("ui")
    run_within(10, generation_id=generation.id, engine=ScriptedFakeEngine(spec_text, chunk=40))

    stored = Generation.objects.get(pk=generation.pk)
    assert stored.status == Generation.Status.FAILED
    assert stored.error == NOT_STORED
    assert stored.text == spec_text
    [done] = done_messages(flaky_layer)
    assert done["status"] == "failed"


def test_an_engine_that_goes_silent_is_aborted_and_failed_by_the_watchdog(
    flaky_layer: type[FlakyLayer], settings: Any
) -> None:
    settings.MACARON_GENERATION_STALL_SECONDS = 0.3
    generation = queued()
    engine = SilentEngine("word " * 20, answered=2)
    try:
        started = time.monotonic()
        run_within(5, generation_id=generation.id, engine=engine)
        assert time.monotonic() - started < 3
    finally:
        engine.released.set()

    stored = Generation.objects.get(pk=generation.pk)
    assert engine.aborted == [str(generation.id)]
    assert (stored.status, stored.error) == (Generation.Status.FAILED, STALLED)
    assert stored.text == "word " * 2
    [done] = done_messages(flaky_layer)
    assert done["status"] == "failed"


def test_a_stop_is_noticed_while_the_engine_is_silent(
    flaky_layer: type[FlakyLayer], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.MACARON_GENERATION_STALL_SECONDS = 60  # the stop comes first
    monkeypatch.setattr("studio.worker.run.ABORT_WAIT_SECONDS", 0.3)
    generation = queued()
    engine = SilentEngine("word " * 20, answered=1)
    worker = threading.Thread(
        target=generation_run,
        kwargs={"generation_id": generation.id, "engine": engine},
        daemon=True,
    )
    try:
        worker.start()
        deadline = time.monotonic() + 5
        while Generation.objects.get(pk=generation.pk).tokens < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert generation_cancel(generation_id=generation.id)
        worker.join(timeout=5)
        assert not worker.is_alive(), "the run did not end"
    finally:
        engine.released.set()

    stored = Generation.objects.get(pk=generation.pk)
    assert engine.aborted == [str(generation.id)]
    assert (stored.status, stored.text) == (Generation.Status.CANCELLED, "word ")


def test_the_time_limit_holds_while_the_engine_is_silent(
    flaky_layer: type[FlakyLayer], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.MACARON_GENERATION_TIME_LIMIT_SECONDS = 0.3
    settings.MACARON_GENERATION_STALL_SECONDS = 60  # the time limit comes first
    monkeypatch.setattr("studio.worker.run.ABORT_WAIT_SECONDS", 0.3)
    generation = queued()
    engine = SilentEngine("word " * 20, answered=1)
    try:
        run_within(5, generation_id=generation.id, engine=engine)
    finally:
        engine.released.set()

    stored = Generation.objects.get(pk=generation.pk)
    assert engine.aborted == [str(generation.id)]
    assert (stored.status, stored.error, stored.text) == (
        Generation.Status.FAILED,
        TIMED_OUT,
        "word ",
    )


def test_a_run_that_fails_before_it_streams_still_ends(
    flaky_layer: type[FlakyLayer], monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreadable(**_: Any) -> Any:
        raise RuntimeError("the registry could not be read")

    monkeypatch.setattr("studio.worker.run.expert_resolve", unreadable)
    generation = queued()
    run_within(10, generation_id=generation.id, engine=ScriptedFakeEngine("never"))

    stored = Generation.objects.get(pk=generation.pk)
    assert (stored.status, stored.error) == (Generation.Status.FAILED, NOT_STORED)
    [done] = done_messages(flaky_layer)
    assert done["status"] == "failed"


def test_a_worker_with_no_engine_fails_the_row_as_an_engine_failure(
    flaky_layer: type[FlakyLayer],
) -> None:
    """No engine running in the process (`hosting.current_engine` raises): the row says the
    engine failed, with its id, not that the server failed to store it."""
    generation = queued()
    run_within(10, generation_id=generation.id, engine=None)

    stored = Generation.objects.get(pk=generation.pk)
    assert (stored.status, stored.error) == (Generation.Status.FAILED, engine_failed(generation.id))
    [done] = done_messages(flaky_layer)
    assert done["status"] == "failed"


class EndedElsewhereEngine(ScriptedFakeEngine):
    """After its last delta, before the run writes how it ended, another party ends the row:
    `generation_cancel`, or the orphan sweep failing it."""

    def __init__(self, text: str, *, status: str, error: str = "") -> None:
        super().__init__(text, chunk=5)
        self.status, self.error = status, error

    def stream(self, request: GenerationRequest) -> Iterator[Delta]:
        yield from super().stream(request)
        Generation.objects.filter(pk=request.request_id).update(
            status=self.status, error=self.error, finish_reason="x"
        )


@pytest.mark.parametrize(
    ("status", "error"),
    [(Generation.Status.CANCELLED, ""), (Generation.Status.FAILED, "The worker stopped.")],
)
def test_the_runs_end_never_overwrites_a_status_set_meanwhile(
    flaky_layer: type[FlakyLayer], status: str, error: str
) -> None:
    generation = queued()
    engine = EndedElsewhereEngine("word " * 4, status=status, error=error)
    run_within(10, generation_id=generation.id, engine=engine)

    stored = Generation.objects.get(pk=generation.pk)
    assert (stored.status, stored.error, stored.finish_reason) == (status, error, "x")
    assert stored.text == "word " * 4  # what streamed is kept all the same
    assert done_messages(flaky_layer) == []  # whoever ended it announces it


def test_failing_a_generation_that_ended_meanwhile_changes_and_announces_nothing(
    flaky_layer: type[FlakyLayer],
) -> None:
    generation = queued()
    Generation.objects.filter(pk=generation.pk).update(status=Generation.Status.DONE)
    generation_fail(generation_id=generation.id, error="The engine queue is unreachable.")

    stored = Generation.objects.get(pk=generation.pk)
    assert (stored.status, stored.error) == (Generation.Status.DONE, "")
    assert done_messages(flaky_layer) == []
