"""The studio WebSocket's edges: whole-origin checks (scheme, host and port), no Redis group
for a project that is not the user's, and failures told as an id, never as their text."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import User

from studio.web import consumers
from tests.fakes import ScriptedFakeEngine
from tests.studio.test_consumer import (
    connected,
    generate,
    receive_until_done,
    run_in_worker_thread,
)

pytestmark = [pytest.mark.django_db(transaction=True)]

SECRET = "/srv/secret/weights.safetensors: CUDA out of memory"


async def opens(origin: str | None, host: str = "localhost:8000", **headers: str) -> bool:
    """Whether the served application lets a socket with these headers reach the consumer
    (which then closes it: no one is signed in)."""
    from studio.web.asgi import application

    sent = [(b"host", host.encode())]
    sent += [(b"origin", origin.encode())] if origin is not None else []
    sent += [(name.replace("_", "-").encode(), value.encode()) for name, value in headers.items()]
    communicator = WebsocketCommunicator(application, "/ws/studio/", headers=sent)
    accepted, _ = await communicator.connect(timeout=10)
    await communicator.disconnect()
    return bool(accepted)


@pytest.fixture
def in_memory_layer(settings: Any) -> Iterator[None]:
    """The origin tests reach no group: an in-memory layer stops with its socket at once."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@pytest.mark.usefixtures("in_memory_layer")
async def test_a_socket_from_the_studios_own_origin_is_let_through() -> None:
    assert await opens("http://localhost:8000")
    assert await opens("http://127.0.0.1", host="127.0.0.1")


@pytest.mark.usefixtures("in_memory_layer")
@pytest.mark.parametrize(
    "origin",
    [
        "http://localhost:9999",  # another server on the same host: cookies ignore ports
        "http://localhost",
        "https://localhost:8000",  # another scheme is another origin
        "http://evil.example:8000",
        "null",
        None,
    ],
)
async def test_a_socket_from_any_other_origin_is_refused(origin: str | None) -> None:
    assert not await opens(origin)


@pytest.mark.usefixtures("in_memory_layer")
async def test_behind_a_tls_proxy_the_public_origin_is_the_allowed_one(settings: Any) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.CSRF_TRUSTED_ORIGINS = ["https://studio.example.com"]
    assert await opens("https://localhost:8000", x_forwarded_proto="https")
    assert not await opens("http://localhost:8000", x_forwarded_proto="https")
    # A proxy that sends its upstream's address as Host: the configured public origin.
    assert await opens("https://studio.example.com", host="127.0.0.1:8000")
    assert not await opens("https://studio.example.com:8443", host="127.0.0.1:8000")


@pytest.fixture
def project_groups(redis_url: str) -> Iterator[Any]:
    client = redis.Redis.from_url(redis_url)

    def count() -> int:
        return sum(1 for _ in client.scan_iter("asgi:group:project.*"))

    yield count
    client.close()


@pytest.mark.usefixtures("limits_redis")
async def test_a_project_that_is_not_the_users_leaves_no_redis_group(
    enqueued: list[str], alice: User, settings: Any, project_groups: Any
) -> None:
    before = project_groups()
    strangers = [await connected(alice, f"?project={uuid.uuid4()}") for _ in range(5)]
    for communicator in strangers:
        assert (await communicator.receive_json_from(timeout=5))["code"] == "unknown_project"
        refused = await generate(communicator, "a form", project=str(uuid.uuid4()))
        assert refused["code"] == "unknown_project"
    # A new project refused by the limits leaves nothing behind either.
    settings.MACARON_STUDIO_RATE_PER_MINUTE = 0
    assert (await generate(strangers[0], "a form"))["code"] == "rate_limited"
    assert project_groups() == before
    for communicator in strangers:
        await communicator.disconnect()


@pytest.mark.usefixtures("limits_redis")
async def test_a_failing_message_is_answered_with_an_id_its_text_only_in_the_log(
    alice: User, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(**_: Any) -> dict[str, Any]:
        raise RuntimeError(SECRET)

    monkeypatch.setattr(consumers, "generation_snapshot", broken)
    communicator = await connected(alice)
    await communicator.send_json_to({"type": "resync", "generation": str(uuid.uuid4())})
    reply = await communicator.receive_json_from(timeout=5)
    assert reply["code"] == "server_error"
    assert SECRET not in reply["message"]
    failure_id = reply["message"].split("failure ")[1].split(")")[0]
    assert any(failure_id in r.getMessage() and r.exc_info for r in caplog.records)
    await communicator.disconnect()


@pytest.mark.usefixtures("limits_redis")
async def test_an_engine_exception_reaches_the_studio_as_an_id_not_its_text(
    enqueued: list[str], alice: User, spec_text: str
) -> None:
    communicator = await connected(alice)
    accepted = await generate(communicator, "a newsletter box")
    engine = ScriptedFakeEngine(spec_text, chunk=5, fail_after=2)
    await run_in_worker_thread(accepted["generation"], engine)
    done = (await receive_until_done(communicator))[-1]
    assert done["status"] == "failed"
    assert "scripted engine failure" not in str(done)
    assert accepted["generation"] in done["error"]
    await communicator.disconnect()


@pytest.mark.usefixtures("limits_redis")
async def test_a_message_nested_past_the_parsers_stack_is_a_bad_message(alice: User) -> None:
    communicator = await connected(alice)
    await communicator.send_to(text_data="[" * 30_000)
    reply = await communicator.receive_json_from(timeout=5)
    assert reply["code"] == "bad_message"
    await communicator.disconnect()
