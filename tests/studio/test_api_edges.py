"""The API's edges answer in OpenAI's error format too: a body nested past the parser's stack,
Django's own 404 and 405 under /v1/, non-finite sampling numbers, and failures, whose text
stays in the log (the client gets a failure id)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import AsyncClient, Client

from studio.services.api_keys import api_key_create
from studio.web.api import views as api_views
from studio.web.api import wire
from tests.fakes import ScriptedFakeEngine
from tests.studio.conftest import FakeWorker

pytestmark = [pytest.mark.django_db(transaction=True)]

SECRET = "/srv/secret/weights.safetensors: CUDA out of memory"


@pytest.fixture
def key() -> str:
    return api_key_create(name="alice")[1]


def post(client: Client, body: str | bytes, key: str) -> Any:
    return client.post(
        "/v1/chat/completions",
        body,
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


async def async_post(body: str, key: str) -> Any:
    return await AsyncClient().post(
        "/v1/chat/completions",
        body,
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


def chat(**fields: Any) -> str:
    return json.dumps(
        {"model": "macaron-tiny", "messages": [{"role": "user", "content": "Hi"}], **fields}
    )


def error_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    return error


def test_a_body_nested_past_the_parsers_stack_is_a_400(client: Client, key: str) -> None:
    error = error_of(post(client, "[" * 50_000, key), 400)
    assert error["code"] == "invalid_json"


@pytest.mark.parametrize("param", ["temperature", "top_p"])
@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_non_finite_sampling_numbers_are_400s(
    client: Client, key: str, param: str, number: str
) -> None:
    body = chat().replace('"model"', f'"{param}": {number}, "model"', 1)
    error = error_of(post(client, body, key), 400)
    assert (error["code"], error["param"]) == ("invalid_value", param)


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [("get", "/v1/chat/completions", "POST"), ("post", "/v1/models", "GET")],
)
def test_a_method_a_route_does_not_take_is_a_405_in_the_format(
    client: Client, method: str, path: str, allow: str
) -> None:
    response = getattr(client, method)(path)
    error = error_of(response, 405)
    assert (error["type"], error["code"]) == ("invalid_request_error", "method_not_allowed")
    assert response["Allow"] == allow


def test_a_path_no_route_takes_is_a_404_in_the_format(client: Client) -> None:
    error = error_of(client.get("/v1/no/such/endpoint"), 404)
    assert (error["type"], error["code"]) == ("not_found_error", "not_found")
    # Outside /v1/, the studio's own 404 page is unchanged.
    assert not client.get("/no/such/page")["Content-Type"].startswith("application/json")


def test_an_unexpected_exception_is_a_500_with_an_id_and_its_text_only_in_the_log(
    key: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(**_: Any) -> list[dict[str, Any]]:
        raise RuntimeError(SECRET)

    monkeypatch.setattr(api_views, "models_list", broken)
    client = Client(raise_request_exception=False)
    response = client.get("/v1/models", headers={"Authorization": f"Bearer {key}"})
    error = error_of(response, 500)
    assert (error["type"], error["code"]) == ("server_error", "server_error")
    assert SECRET not in response.content.decode()
    failure_id = error["message"].split("failure ")[1].split(")")[0]
    assert any(failure_id in r.getMessage() and r.exc_info for r in caplog.records)


@pytest.fixture
def failing_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    def stream(self: ScriptedFakeEngine, request: Any) -> Iterator[Any]:
        raise RuntimeError(SECRET)
        yield  # a generator, as the engine's stream is

    monkeypatch.setattr(ScriptedFakeEngine, "stream", stream)
    yield


async def test_an_engine_exception_reaches_the_client_as_an_id_not_its_text(
    fake_worker: FakeWorker, key: str, failing_engine: None
) -> None:
    response = await async_post(chat(), key)
    error = error_of(response, 500)
    assert error["code"] == "engine_error"
    assert SECRET not in response.content.decode()
    assert "generation" in error["message"]


async def test_an_engine_exception_ends_a_stream_with_an_id_not_its_text(
    fake_worker: FakeWorker, key: str, failing_engine: None
) -> None:
    response = await async_post(chat(stream=True), key)
    body = b"".join([part async for part in response.streaming_content]).decode()
    error = json.loads(body.strip().splitlines()[-1].removeprefix("data: "))["error"]
    assert error["code"] == "engine_error"
    assert SECRET not in body


async def test_a_failure_mid_stream_ends_it_with_an_id_not_its_text(
    fake_worker: FakeWorker, key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: Any, **__: Any) -> bytes:
        raise RuntimeError(SECRET)

    monkeypatch.setattr(wire, "last_chunk", broken)
    response = await async_post(chat(stream=True), key)
    body = b"".join([part async for part in response.streaming_content]).decode()
    error = json.loads(body.strip().splitlines()[-1].removeprefix("data: "))["error"]
    assert (error["type"], error["code"]) == ("server_error", "server_error")
    assert "failure" in error["message"] and SECRET not in body


@pytest.mark.parametrize(
    ("path", "depth"),
    [
        ("/p/{project}/edit", 10_000),  # the projects API's bodies
        ("/p/{project}/datasets/paste", 50_000),
        ("/p/{project}/rename", 4_000),  # the projects page's
    ],
)
def test_the_studios_json_endpoints_refuse_a_body_nested_too_deeply(
    client: Client, path: str, depth: int
) -> None:
    from django.contrib.auth.models import User

    from studio.services.projects import project_create

    owner = User.objects.create_user("ada")
    client.force_login(owner)
    project = project_create(owner=owner)
    response = client.post(
        path.format(project=project.pk), "[" * depth, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:200]
    assert response.json()["error"]["message"]
