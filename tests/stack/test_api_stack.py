"""The HTTP API on the live stack, called by real clients: the official `openai` package
(streaming and not) and the issue's `requests` snippet. Token budgets stay small: each token
costs about 0.1 s on this CPU."""

from __future__ import annotations

import http.client
import json
import sqlite3
import time
import urllib.request
import uuid
from contextlib import closing
from typing import Any

import openai
import pytest
import requests

from studio.stack import Stack

pytestmark = pytest.mark.stack


@pytest.fixture
def client(stack: Stack, api_key: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{stack.url}/v1", api_key=api_key, max_retries=0)


def test_the_openai_client_gets_a_completion_from_a_named_expert(client: openai.OpenAI) -> None:
    completion = client.chat.completions.create(
        model="macaron-tiny",
        messages=[{"role": "user", "content": "Say hello in three words."}],
        max_tokens=16,
        temperature=0,
        extra_body={"router": "chat"},
    )
    assert completion.choices[0].message.content
    assert completion.choices[0].finish_reason in ("stop", "length")
    assert completion.model_extra is not None
    assert completion.model_extra["router"] == "chat"
    assert completion.usage is not None
    assert 0 < completion.usage.completion_tokens <= 16
    assert completion.usage.prompt_tokens > 10  # the expert's system prompt comes first
    models = {m.id for m in client.models.list()}
    assert {"macaron-tiny", "macaron-tall", "macaron-venti"} <= models


def test_a_seed_repeats_a_sampled_answer(client: openai.OpenAI) -> None:
    """At temperature 2 two unseeded answers of 16 tokens all but never agree; seeded, they do:
    the seed travels from the request to the engine through the stored generation."""

    def answer(seed: int) -> str:
        completion = client.chat.completions.create(
            model="macaron-tiny",
            messages=[{"role": "user", "content": "Invent a word."}],
            max_tokens=16,
            temperature=2,
            seed=seed,
            extra_body={"router": "chat"},
        )
        return completion.choices[0].message.content or ""

    first = answer(11)
    assert first and answer(11) == first
    assert answer(12) != first


def test_the_openai_client_streams_an_auto_routed_ui_spec_with_its_view(
    client: openai.OpenAI,
) -> None:
    stream = client.chat.completions.create(
        model="macaron-tiny",
        messages=[{"role": "user", "content": "a login form with email and password"}],
        max_tokens=40,
        stream=True,
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert text.startswith("{")  # constrained to the UI4A schema from the first token
    assert len(chunks) > 3
    last = chunks[-1].model_extra or {}
    assert last["router"] == "ui"
    assert last["routing"]["mode"] == "auto"
    assert last["routing"]["scores"]["ui"] > last["routing"]["scores"]["chat"]
    assert last["spec"] is not None
    with urllib.request.urlopen(last["view_url"]) as view:
        assert "connect-src 'none'" in view.headers["Content-Security-Policy"]
        assert b"<html" in view.read()


def test_the_issues_requests_snippet_gets_a_clear_error_for_an_unserved_profile(
    stack: Stack, api_key: str
) -> None:
    """The snippet verbatim but for the URL: it names macaron-venti, which has no worker here."""
    url, key = stack.url, api_key
    response = requests.post(
        f"{url}/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json={
            "model": "macaron-venti",
            "router": "coding",
            "messages": [{"role": "user", "content": "Write a Python quicksort function"}],
            "max_tokens": 2048,
            "temperature": 0.7,
        },
    )
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "model_not_served"
    assert "macaron-tiny" in response.json()["error"]["message"]


def test_the_snippet_on_the_served_profile_is_answered_by_the_coding_expert(
    stack: Stack, api_key: str
) -> None:
    """The same snippet with the profile this stack serves and a short budget."""
    response = requests.post(
        f"{stack.url}/v1/chat/completions",
        headers={"Authorization": f"Bearer {api_key}"},
        json={
            "model": "macaron-tiny",
            "router": "coding",
            "messages": [{"role": "user", "content": "Write a Python quicksort function"}],
            "max_tokens": 24,
            "temperature": 0.7,
        },
    )
    assert response.status_code == 200, response.text
    assert response.headers["x-macaron-expert"] == "coding"
    body = response.json()
    assert body["router"] == "coding"
    assert body["choices"][0]["message"]["content"]


# The ui expert: a trained screen spec runs to a few hundred tokens (median 234 in UI4A-Bench),
# while the trained chat expert answers "count to 1000" in a handful.
LONG_ANSWER: dict[str, Any] = {
    "model": "macaron-tiny",
    "router": "ui",
    "messages": [
        {"role": "user", "content": "a sales dashboard with revenue KPIs, a chart and a table"}
    ],
    "max_tokens": 2000,
    "temperature": 0,
}


def test_a_client_that_disconnects_mid_stream_stops_its_generation(
    stack: Stack, api_key: str
) -> None:
    """Read a few events of a long stream, hang up: the worker aborts the engine request soon
    after, far short of max_tokens, and the next request is served as usual."""
    connection = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=120)
    headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}
    body = json.dumps({**LONG_ANSWER, "stream": True})
    connection.request("POST", "/v1/chat/completions", body, headers)
    response = connection.getresponse()
    assert response.status == 200
    events: list[dict[str, Any]] = []
    while len(events) < 3:  # the role chunk, then two with content
        line = response.readline()
        if line.startswith(b"data: "):
            events.append(json.loads(line[len(b"data: ") :]))
    connection.close()

    assert_stopped_early(stack, uuid.UUID(events[0]["id"].removeprefix("chatcmpl-")))
    assert_a_short_request_is_answered(stack, api_key)


def test_a_client_that_gives_up_on_a_json_answer_stops_its_generation(
    stack: Stack, api_key: str
) -> None:
    before = {row["id"] for row in generation_rows(stack)}
    connection = http.client.HTTPConnection("127.0.0.1", stack.http_port, timeout=120)
    headers = {"Authorization": f"Bearer {api_key}", "Content-Type": "application/json"}
    connection.request("POST", "/v1/chat/completions", json.dumps(LONG_ANSWER), headers)
    deadline = time.monotonic() + 120
    decoding: list[dict[str, Any]] = []
    while not decoding and time.monotonic() < deadline:
        time.sleep(0.2)
        decoding = [r for r in generation_rows(stack) if r["id"] not in before and r["tokens"]]
    assert decoding, "the request never started decoding"
    connection.close()

    assert_stopped_early(stack, uuid.UUID(decoding[0]["id"]))
    assert_a_short_request_is_answered(stack, api_key)


def assert_stopped_early(stack: Stack, generation_id: uuid.UUID) -> None:
    deadline = time.monotonic() + 30
    row: dict[str, Any] = {}
    while time.monotonic() < deadline:
        row = next(r for r in generation_rows(stack) if r["id"] == generation_id.hex)
        if row["finish_reason"]:  # written by the worker once its engine stream has ended
            break
        time.sleep(0.2)
    assert row["status"] == "cancelled", row
    assert row["finish_reason"] == "cancelled", row
    assert 0 < row["tokens"] < 200, row  # of 2000 allowed


def assert_a_short_request_is_answered(stack: Stack, api_key: str) -> None:
    response = requests.post(
        f"{stack.url}/v1/chat/completions",
        headers={"Authorization": f"Bearer {api_key}"},
        json={
            **LONG_ANSWER,
            "router": "chat",
            "messages": [{"role": "user", "content": "Say hi."}],
            "max_tokens": 8,
        },
        timeout=120,
    )
    assert response.status_code == 200, response.text
    assert response.json()["choices"][0]["message"]["content"]


def generation_rows(stack: Stack) -> list[dict[str, Any]]:
    """The stack's generation rows, read straight from its SQLite database."""
    path = stack.env["DATABASE_URL"].removeprefix("sqlite:///")
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        db.row_factory = sqlite3.Row
        found = db.execute("SELECT id, status, finish_reason, tokens FROM studio_generation")
        return [dict(row) for row in found]
