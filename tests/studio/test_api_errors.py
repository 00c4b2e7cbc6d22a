"""The API's refusals, each in OpenAI's error format with the right status; nothing is stored
or enqueued for a refused request."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import AsyncClient, Client

from studio.models import ApiKey, Generation
from studio.services.api_keys import api_key_create, api_key_revoke
from tests.studio.conftest import FakeWorker

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def key() -> str:
    return api_key_create(name="alice")[1]


def post(client: Client, body: str | bytes, *, key: str | None, path: str = "") -> Any:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return client.post(
        f"/v1/chat/completions{path}", body, content_type="application/json", headers=headers
    )


def good(**fields: Any) -> str:
    return json.dumps(
        {"model": "macaron-tiny", "messages": [{"role": "user", "content": "Hi"}], **fields}
    )


def assert_error(response: Any, status: int, code: str, param: str | None = None) -> None:
    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["code"] == code
    assert error["param"] == param
    assert error["message"]


@pytest.mark.parametrize(
    ("authorization", "code"),
    [(None, "missing_key"), ("Basic abc", "missing_key"), ("Bearer mk-nope", "invalid_key")],
)
def test_it_refuses_requests_without_a_good_key(
    client: Client, fake_worker: FakeWorker, authorization: str | None, code: str
) -> None:
    headers = {"Authorization": authorization} if authorization else {}
    response = client.post(
        "/v1/chat/completions", good(), content_type="application/json", headers=headers
    )
    assert_error(response, 401, code)
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert response.json()["error"]["type"] == "authentication_error"
    assert Generation.objects.count() == 0


def test_a_revoked_key_stops_working(client: Client, fake_worker: FakeWorker, key: str) -> None:
    api_key_revoke(prefix=key[:12])
    assert_error(post(client, good(), key=key), 401, "revoked_key")


def test_a_key_in_the_query_string_is_refused_even_with_a_good_header(
    client: Client, fake_worker: FakeWorker, key: str
) -> None:
    response = post(client, good(), key=key, path=f"?api_key={key}")
    assert_error(response, 401, "key_in_url")
    response = client.get(f"/v1/models?x={key}", headers={"Authorization": f"Bearer {key}"})
    assert_error(response, 401, "key_in_url")


@pytest.mark.parametrize(
    ("model", "code"),
    [("gpt-4", "model_not_found"), ("macaron-venti", "model_not_served")],
)
def test_unknown_and_unserved_models_are_404s(
    client: Client, fake_worker: FakeWorker, key: str, model: str, code: str
) -> None:
    response = post(client, good(model=model), key=key)
    assert_error(response, 404, code, "model")
    if code == "model_not_served":
        assert "no worker serves it" in response.json()["error"]["message"]
    assert Generation.objects.count() == 0
    assert fake_worker.queues == []


def test_an_unknown_expert_is_a_404(client: Client, fake_worker: FakeWorker, key: str) -> None:
    assert_error(post(client, good(router="wizard"), key=key), 404, "expert_not_found", "router")


def test_an_oversized_body_is_a_413(client: Client, fake_worker: FakeWorker, key: str) -> None:
    body = good(messages=[{"role": "user", "content": "x" * 70_000}])
    assert_error(post(client, body, key=key), 413, "request_too_large")


@pytest.mark.parametrize(
    ("body", "code", "param"),
    [
        ("{not json", "invalid_json", None),
        ("[]", "invalid_json", None),
        (good(temperature=3), "invalid_value", "temperature"),
        (good(max_tokens=0), "invalid_value", "max_tokens"),
        (good(max_tokens=999_999), "invalid_value", "max_tokens"),
        (good(messages=[]), "invalid_value", "messages"),
        (good(messages=[{"role": "wizard", "content": "x"}]), "invalid_value", "messages[0].role"),
        (good(stop=[1]), "invalid_value", "stop"),
        (json.dumps({"messages": [{"role": "user", "content": "Hi"}]}), "invalid_value", "model"),
    ],
)
def test_bad_json_and_bad_fields_are_400s(
    client: Client, fake_worker: FakeWorker, key: str, body: str, code: str, param: str | None
) -> None:
    assert_error(post(client, body, key=key), 400, code, param)
    assert Generation.objects.count() == 0


def test_too_many_requests_a_minute_are_429s_with_retry_after(
    client: Client, fake_worker: FakeWorker, key: str, settings: Any
) -> None:
    settings.MACARON_API_RATE_PER_MINUTE = 2
    assert post(client, good(), key=key).status_code == 200
    assert post(client, good(), key=key).status_code == 200
    response = post(client, good(), key=key)
    assert_error(response, 429, "rate_limit_exceeded")
    assert 1 <= int(response["Retry-After"]) <= 61
    assert response.json()["error"]["type"] == "rate_limit_error"
    other = api_key_create(name="bob")[1]  # limits are per key
    assert post(client, good(), key=other).status_code == 200


def test_too_many_open_requests_are_429s(
    client: Client, fake_worker: FakeWorker, key: str, settings: Any
) -> None:
    from studio.services.limits import limits_acquire

    settings.MACARON_API_MAX_CONCURRENT = 1
    api_key = ApiKey.objects.get(prefix=key[:12])
    limits_acquire(key_id=api_key.pk, request_id="a request still streaming")
    response = post(client, good(), key=key)
    assert_error(response, 429, "concurrency_limit_exceeded")
    assert response["Retry-After"] == "1"


async def test_a_finished_request_gives_its_concurrency_slot_back(
    fake_worker: FakeWorker, key: str, settings: Any
) -> None:
    settings.MACARON_API_MAX_CONCURRENT = 1
    client = AsyncClient()

    async def send(**fields: Any) -> Any:
        return await client.post(
            "/v1/chat/completions",
            good(**fields),
            content_type="application/json",
            headers={"Authorization": f"Bearer {key}"},
        )

    assert (await send()).status_code == 200
    stream = await send(stream=True)
    assert (await send()).status_code == 429  # the stream is still open
    assert b"[DONE]" in b"".join([part async for part in stream.streaming_content])
    assert (await send()).status_code == 200
