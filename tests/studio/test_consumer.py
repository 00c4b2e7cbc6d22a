"""The studio consumer, in-process with WebsocketCommunicator, on the real Redis channel layer."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from channels.testing import WebsocketCommunicator

from studio.web.consumers import StudioConsumer
from studio.worker.run import generation_run
from tests.fakes import ScriptedFakeEngine

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("real_channel_layer"),
]


async def connected(query: str = "") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(StudioConsumer.as_asgi(), f"/ws/studio/{query}")
    ok, _ = await communicator.connect(timeout=10)
    assert ok
    return communicator


async def run_in_worker_thread(generation_id: str, engine: ScriptedFakeEngine) -> None:
    """Run the generation the way a Celery thread would: synchronously, off the event loop."""
    done = threading.Event()

    def target() -> None:
        try:
            generation_run(generation_id=generation_id, engine=engine)
        finally:
            done.set()

    threading.Thread(target=target).start()
    while not done.is_set():
        await asyncio.sleep(0.01)


async def receive_until_done(communicator: WebsocketCommunicator) -> list[dict[str, Any]]:
    frames = []
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        frames.append(frame)
        if frame["type"] == "generation.done":
            return frames


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_message"),
        ('{"type": "generate", "prompt": ""}', "empty_prompt"),
        ('{"type": "generate", "prompt": "' + "x" * 5000 + '"}', "prompt_too_long"),
        ('{"type": "generate", "prompt": "a form", "expert": "nope"}', "unknown_expert"),
        ('{"type": "teleport"}', "unknown_type"),
    ],
)
async def test_it_answers_bad_input_with_an_error_and_stays_usable(
    enqueued: list[str], frame: str, code: str
) -> None:
    communicator = await connected()
    await communicator.send_to(text_data=frame)
    reply = await communicator.receive_json_from(timeout=5)
    assert reply["type"] == "error"
    assert reply["code"] == code
    assert reply["message"]
    # The same connection still takes a good request.
    await communicator.send_json_to({"type": "generate", "prompt": "a login form"})
    assert (await communicator.receive_json_from(timeout=5))["type"] == "generation.accepted"
    await communicator.disconnect()


async def test_it_streams_numbered_batches_and_a_final_result(
    enqueued: list[str], spec_text: str
) -> None:
    communicator = await connected()
    await communicator.send_json_to({"type": "generate", "prompt": "a newsletter box"})
    accepted = await communicator.receive_json_from(timeout=5)
    assert accepted["type"] == "generation.accepted"
    assert enqueued == [accepted["generation"]]

    engine = ScriptedFakeEngine(spec_text, chunk=4, delay=0.01)
    runner = asyncio.ensure_future(run_in_worker_thread(accepted["generation"], engine))
    frames = await receive_until_done(communicator)
    await runner

    deltas = [f for f in frames if f["type"] == "generation.delta"]
    assert [f["seq"] for f in deltas] == list(range(1, len(deltas) + 1))
    assert 2 <= len(deltas) < len(spec_text) / 4  # batched, not one message per token
    assert "".join(f["delta"] for f in deltas) == spec_text
    assert all("html" in f for f in deltas)
    done = frames[-1]
    assert done["status"] == "done"
    assert done["text"] == spec_text
    assert "Join our newsletter" in done["html"]
    await communicator.disconnect()


async def test_a_client_that_missed_batches_recovers_the_full_text(
    enqueued: list[str], spec_text: str
) -> None:
    communicator = await connected()
    await communicator.send_json_to({"type": "generate", "prompt": "a newsletter box"})
    accepted = await communicator.receive_json_from(timeout=5)
    await run_in_worker_thread(accepted["generation"], ScriptedFakeEngine(spec_text))

    late = await connected()
    await late.send_json_to({"type": "resync", "generation": accepted["generation"]})
    snapshot = await late.receive_json_from(timeout=5)
    assert snapshot["type"] == "generation.snapshot"
    assert snapshot["text"] == spec_text
    assert snapshot["status"] == "done"
    await communicator.disconnect()
    await late.disconnect()


async def test_a_second_tab_on_the_project_follows_the_stream(
    enqueued: list[str], spec_text: str
) -> None:
    first = await connected()
    await first.send_json_to({"type": "generate", "prompt": "a login form"})
    accepted = await first.receive_json_from(timeout=5)
    await run_in_worker_thread(accepted["generation"], ScriptedFakeEngine("x"))
    await receive_until_done(first)

    second = await connected(f"?project={accepted['project']}")
    await first.send_json_to(
        {"type": "generate", "prompt": "again", "project": accepted["project"]}
    )
    again = await first.receive_json_from(timeout=5)
    await run_in_worker_thread(again["generation"], ScriptedFakeEngine(spec_text))
    frames = await receive_until_done(second)
    assert frames[-1]["generation"] == again["generation"]
    await first.disconnect()
    await second.disconnect()


async def test_an_idle_connection_outlives_the_redis_socket_timeout(enqueued: list[str]) -> None:
    """redis-py's 5 s default socket timeout once killed consumers idle for 6 s."""
    communicator = await connected()
    await asyncio.sleep(7)
    await communicator.send_json_to({"type": "generate", "prompt": "a login form"})
    assert (await communicator.receive_json_from(timeout=5))["type"] == "generation.accepted"
    await communicator.disconnect()
