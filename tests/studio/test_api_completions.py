"""POST /v1/chat/completions end to end in-process: auth, the stored generation, batches read
back from the real Redis channel layer, both wire formats. A fake engine runs the generations:
what it says does not matter here."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from studio.models import Generation
from studio.services.api_keys import api_key_create
from tests.studio.conftest import FakeWorker

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def key() -> str:
    return api_key_create(name="alice")[1]


@pytest.fixture
def bob() -> str:
    return api_key_create(name="bob")[1]


def chat(**fields: Any) -> dict[str, Any]:
    return {"model": "macaron-tiny", "messages": [{"role": "user", "content": "Hi"}], **fields}


async def post(client: AsyncClient, key: str, body: dict[str, Any]) -> Any:
    return await client.post(
        "/v1/chat/completions",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def events(content: bytes) -> list[Any]:
    lines = [line for line in content.decode().split("\n\n") if line]
    assert all(line.startswith("data: ") for line in lines)
    return [line.removeprefix("data: ") for line in lines]


async def test_it_answers_in_the_chat_completion_format(fake_worker: FakeWorker, key: str) -> None:
    response = await post(AsyncClient(), key, chat(router="coding", max_tokens=20))
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["object"] == "chat.completion"
    assert body["id"].startswith("chatcmpl-")
    assert body["model"] == "macaron-tiny"
    assert body["choices"][0]["message"] == {
        "role": "assistant",
        "content": "Hello from the fake engine.",
    }
    assert body["choices"][0]["finish_reason"] == "stop"
    usage = body["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] > 0
    assert body["router"] == "coding"
    assert body["routing"] == {"expert": "coding", "mode": "explicit"}
    assert response["x-macaron-expert"] == "coding"
    assert fake_worker.queues == ["macaron-tiny"]
    generation = await Generation.objects.aget()
    assert generation.messages == [{"role": "user", "content": "Hi"}]
    assert generation.options["max_tokens"] == 20


async def test_it_streams_server_sent_events_that_add_up_to_the_text(
    fake_worker: FakeWorker, key: str
) -> None:
    fake_worker.delay = 0.01
    response = await post(AsyncClient(), key, chat(stream=True))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    content = b"".join([part async for part in response.streaming_content])
    data = events(content)
    assert data[-1] == "[DONE]"
    chunks = [json.loads(d) for d in data[:-1]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks)
    assert text == "Hello from the fake engine."
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    assert {c["router"] for c in chunks} == {"chat"}


async def test_without_a_router_an_interface_request_goes_to_ui_with_scores_and_a_view(
    fake_worker: FakeWorker, key: str, spec_text: str
) -> None:
    fake_worker.text = spec_text
    body = chat(messages=[{"role": "user", "content": "a signup form with a newsletter box"}])
    client = AsyncClient()
    response = await post(client, key, body)
    result = response.json()
    assert result["router"] == "ui"
    assert result["routing"]["mode"] == "auto"
    assert result["routing"]["scores"]["ui"] > result["routing"]["scores"]["chat"]
    assert result["choices"][0]["message"]["content"] == spec_text
    assert result["spec"]["title"]
    view = await client.get(result["view_url"].removeprefix("http://testserver"))
    assert view.status_code == 200
    policy = view["Content-Security-Policy"]
    assert "connect-src 'none'" in policy
    assert "sandbox allow-scripts" in policy
    assert "Join our newsletter" in view.content.decode()


async def test_a_view_url_cannot_be_forged_from_a_generation_id(
    fake_worker: FakeWorker, key: str, spec_text: str
) -> None:
    fake_worker.text = spec_text
    result = (await post(AsyncClient(), key, chat(router="ui"))).json()
    generation_id = result["id"].removeprefix("chatcmpl-")
    response = await AsyncClient().get(f"/v1/views/{generation_id}")
    assert response.status_code == 404


async def test_a_key_never_sees_another_keys_completions(
    fake_worker: FakeWorker, key: str, bob: str
) -> None:
    client = AsyncClient()
    result = (await post(client, key, chat())).json()
    mine = await client.get(
        f"/v1/chat/completions/{result['id']}", headers={"Authorization": f"Bearer {key}"}
    )
    assert mine.status_code == 200
    assert mine.json()["choices"] == result["choices"]
    theirs = await client.get(
        f"/v1/chat/completions/{result['id']}", headers={"Authorization": f"Bearer {bob}"}
    )
    assert theirs.status_code == 404
    assert theirs.json()["error"]["code"] == "completion_not_found"
    studio = await client.get(f"/api/generations/{result['id'].removeprefix('chatcmpl-')}")
    assert studio.status_code == 404


async def hang_up_after(
    request: Coroutine[Any, Any, Any], started: Callable[[], Awaitable[bool]]
) -> None:
    """Run `request` until `started()` holds, then cancel it, as Django does on a disconnect."""
    task = asyncio.ensure_future(request)
    while not await started() and not task.done():
        await asyncio.sleep(0.01)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def decoding() -> bool:
    return await Generation.objects.filter(tokens__gt=0).aexists()


async def test_a_client_that_hangs_up_mid_stream_cancels_its_generation(
    fake_worker: FakeWorker, key: str
) -> None:
    fake_worker.text = "word " * 400  # 400 deltas of 5 characters
    fake_worker.delay = 0.01
    fake_worker.hold_after = 20  # then waits for the abort: the hang-up cannot lose a race
    parts: list[bytes] = []

    async def read_stream() -> None:
        response = await post(AsyncClient(), key, chat(stream=True))
        async for part in response.streaming_content:
            parts.append(part)

    async def three_events() -> bool:
        return len(parts) >= 3

    await hang_up_after(read_stream(), three_events)
    await sync_to_async(fake_worker.join)()

    generation = await Generation.objects.aget()
    assert generation.status == Generation.Status.CANCELLED
    assert generation.finish_reason == "cancelled"
    assert generation.tokens < 100
    assert fake_worker.engines[0].aborted == [str(generation.id)]


async def test_a_client_that_gives_up_on_a_json_answer_cancels_its_generation(
    fake_worker: FakeWorker, key: str
) -> None:
    fake_worker.text = "word " * 400
    fake_worker.delay = 0.01
    fake_worker.hold_after = 20
    await hang_up_after(post(AsyncClient(), key, chat()), decoding)
    await sync_to_async(fake_worker.join)()

    generation = await Generation.objects.aget()
    assert generation.status == Generation.Status.CANCELLED
    assert generation.finish_reason == "cancelled"
    assert 0 < generation.tokens < 100
    assert fake_worker.engines[0].aborted == [str(generation.id)]
