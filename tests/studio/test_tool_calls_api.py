"""Ordinary function tools: the model's calls come back as OpenAI's `tool_calls`, which the
client runs itself and answers with `tool` messages. Checked with Django's test client and with
the official `openai` client over real HTTP (the studio's ASGI app served by uvicorn in a
thread of the test process, so the fake worker's engine, a scripted fake, writes the calls)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import openai
import pytest
import uvicorn
from django.test import AsyncClient

from inference.tool_calls import ToolCall, render_call
from studio.models import Generation
from studio.services.api_keys import api_key_create
from studio.stack import free_port
from tests.studio.conftest import FakeWorker
from tests.studio.test_api_completions import events, post

pytestmark = [pytest.mark.django_db(transaction=True)]

WEATHER: Any = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}
CALL = render_call(ToolCall("get_weather", {"city": "Paris"}))
QUESTION: Any = {"role": "user", "content": "What is the weather in Paris?"}


@pytest.fixture
def key() -> str:
    return api_key_create(name="alice")[1]


def tools_request(**fields: Any) -> dict[str, Any]:
    return {"model": "macaron-tiny", "messages": [QUESTION], "tools": [WEATHER], **fields}


def answered_messages(call_id: str) -> list[dict[str, Any]]:
    """The conversation after the client ran the call: the assistant's turn, then its answer."""
    arguments = json.dumps({"city": "Paris"})
    return [
        QUESTION,
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": call_id,
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": arguments},
                }
            ],
        },
        {"role": "tool", "tool_call_id": call_id, "content": "18 C and sunny"},
    ]


async def test_calls_come_back_as_tool_calls(fake_worker: FakeWorker, key: str) -> None:
    fake_worker.text = "Let me look.\n" + CALL
    response = await post(AsyncClient(), key, tools_request(router="chat"))
    assert response.status_code == 200, response.content
    choice = response.json()["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] == "Let me look."
    [call] = choice["message"]["tool_calls"]
    assert call["id"].startswith("call_") and call["type"] == "function"
    assert call["function"]["name"] == "get_weather"
    assert json.loads(call["function"]["arguments"]) == {"city": "Paris"}
    assert "repl" not in response.json()
    generation = await Generation.objects.aget()
    assert generation.messages[0]["role"] == "system"
    assert '"name":"get_weather"' in generation.messages[0]["content"]


async def test_a_reply_without_calls_is_a_plain_answer(fake_worker: FakeWorker, key: str) -> None:
    fake_worker.text = "It is sunny."
    choice = (await post(AsyncClient(), key, tools_request())).json()["choices"][0]
    assert choice["message"] == {"role": "assistant", "content": "It is sunny."}
    assert choice["finish_reason"] == "stop"


async def test_calls_stream_as_tool_call_deltas(fake_worker: FakeWorker, key: str) -> None:
    fake_worker.text = CALL
    response = await post(AsyncClient(), key, tools_request(router="chat", stream=True))
    data = events(b"".join([part async for part in response.streaming_content]))
    assert data[-1] == "[DONE]"
    chunks = [json.loads(d) for d in data[:-1]]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks)
    assert text == ""
    [with_calls] = [c for c in chunks if "tool_calls" in c["choices"][0]["delta"]]
    [delta] = with_calls["choices"][0]["delta"]["tool_calls"]
    assert delta["index"] == 0 and delta["type"] == "function"
    assert delta["function"]["name"] == "get_weather"
    assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"


async def test_the_clients_answer_goes_back_to_the_model(fake_worker: FakeWorker, key: str) -> None:
    fake_worker.text = "It is 18 C and sunny in Paris."
    body = tools_request(router="chat", messages=answered_messages("call_abc"))
    response = await post(AsyncClient(), key, body)
    assert response.status_code == 200, response.content
    generation = await Generation.objects.aget()
    assert generation.messages[1:] == [
        QUESTION,
        {"role": "assistant", "content": CALL},
        {"role": "tool", "content": "18 C and sunny"},
    ]


async def test_a_tool_message_must_answer_a_call(fake_worker: FakeWorker, key: str) -> None:
    messages = answered_messages("call_abc")
    messages[2]["tool_call_id"] = "call_other"
    response = await post(AsyncClient(), key, tools_request(messages=messages))
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "messages[2].tool_call_id"


# -- the official client, over HTTP ------------------------------------------------------------


@pytest.fixture
def served(fake_worker: FakeWorker, key: str) -> Iterator[openai.OpenAI]:
    """The ASGI app on a free port, in this process (its generations run on the fake worker)."""
    from studio.web.asgi import application

    port = free_port()
    config = uvicorn.Config(application, host="127.0.0.1", port=port, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.05)
    yield openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key=key, max_retries=0)
    server.should_exit = True
    thread.join(timeout=10)


def test_the_openai_client_reads_tool_calls_and_sends_the_answer_back(
    served: openai.OpenAI, fake_worker: FakeWorker
) -> None:
    fake_worker.script = [CALL, "It is 18 C and sunny in Paris."]
    asked = served.chat.completions.create(
        model="macaron-tiny",
        messages=[QUESTION],
        tools=[WEATHER],
        extra_body={"router": "chat"},
    )
    choice = asked.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content is None
    [call] = choice.message.tool_calls or []
    assert call.type == "function" and call.function.name == "get_weather"
    assert json.loads(call.function.arguments) == {"city": "Paris"}

    replayed: Any = choice.message.model_dump(exclude_none=True)
    answered = served.chat.completions.create(
        model="macaron-tiny",
        messages=[
            QUESTION,
            replayed,
            {"role": "tool", "tool_call_id": call.id, "content": "18 C and sunny"},
        ],
        tools=[WEATHER],
        extra_body={"router": "chat"},
    )
    assert answered.choices[0].message.content == "It is 18 C and sunny in Paris."
    assert answered.choices[0].finish_reason == "stop"


def test_the_openai_client_streams_tool_calls(
    served: openai.OpenAI, fake_worker: FakeWorker
) -> None:
    fake_worker.text = "Checking.\n" + CALL
    stream: Any = served.chat.completions.create(
        model="macaron-tiny",
        messages=[QUESTION],
        tools=[WEATHER],
        stream=True,
        extra_body={"router": "chat"},
    )
    text, finish = "", None
    calls: dict[int, dict[str, str]] = {}
    for chunk in stream:
        delta = chunk.choices[0].delta
        text += delta.content or ""
        for call in delta.tool_calls or []:
            calls.setdefault(call.index, {"name": "", "arguments": ""})
            calls[call.index]["name"] += call.function.name or ""
            calls[call.index]["arguments"] += call.function.arguments or ""
        finish = chunk.choices[0].finish_reason or finish
    assert text == "Checking."
    assert calls == {0: {"name": "get_weather", "arguments": json.dumps({"city": "Paris"})}}
    assert finish == "tool_calls"
