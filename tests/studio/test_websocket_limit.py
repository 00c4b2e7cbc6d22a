"""The studio's WebSocket limit, on Daphne as `runstack` starts it (`studio.web.serve`): a
client frame or message over MACARON_MESSAGE_MAX_BYTES is refused from its header, before it
is buffered, with close code 1009 and a reason; the server goes on serving. No engine is
needed, so no worker runs."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator

import pytest
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from studio.stack import Stack, running_web

LIMIT = 20_000  # the setting, lowered for the test: Daphne reads it from the environment
MESSAGE_TOO_BIG = 1009


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    limit = {"MACARON_MESSAGE_MAX_BYTES": str(LIMIT)}
    with running_web(tmp_path_factory.mktemp("web"), limit) as stack:
        yield stack


@pytest.fixture(scope="module")
def cookie(web: Stack) -> str:
    return "; ".join(f"{name}={value}" for name, value in web.signin_cookies().items())


def studio_socket(web: Stack, cookie: str) -> ClientConnection:
    return connect(
        web.url.replace("http://", "ws://") + "/ws/studio/",
        origin=Origin(web.url),
        additional_headers={"Cookie": cookie},
        open_timeout=30,
    )


def resync(connection: ClientConnection) -> dict[str, str]:
    """A small message the consumer answers: the server is reading and replying."""
    connection.send(json.dumps({"type": "resync", "generation": str(uuid.uuid4())}))
    reply: dict[str, str] = json.loads(connection.recv(timeout=30))
    return reply


def refusal(connection: ClientConnection, message: str | list[str]) -> ConnectionClosedError:
    """The close the server sent, seen by `recv`, or by `send` when the refusal came while the
    client was still sending a message's later fragments."""
    with pytest.raises(ConnectionClosedError) as closed:
        connection.send(message)
        connection.recv(timeout=30)
    return closed.value


@pytest.mark.parametrize(
    "message",
    [
        pytest.param("x" * (LIMIT + 1), id="one byte over, in one frame"),
        pytest.param("x" * 2 * 1024 * 1024, id="2 MB in one frame"),
        pytest.param(["x" * 4096] * 20, id="80 KB in 4 KB fragments"),
    ],
)
def test_a_message_over_the_limit_closes_the_socket_with_1009_and_a_reason(
    web: Stack, cookie: str, message: str | list[str]
) -> None:
    with studio_socket(web, cookie) as connection:
        assert resync(connection)["code"] == "unknown_generation"
        closed = refusal(connection, message)
    assert closed.rcvd is not None, "the connection was dropped without a close frame"
    assert closed.rcvd.code == MESSAGE_TOO_BIG
    assert f"limited to {LIMIT} bytes" in closed.rcvd.reason
    # The server goes on: a new socket is served.
    with studio_socket(web, cookie) as connection:
        assert resync(connection)["code"] == "unknown_generation"


def test_a_message_within_the_limit_is_read_and_answered(web: Stack, cookie: str) -> None:
    with studio_socket(web, cookie) as connection:
        big_prompt = json.dumps({"type": "generate", "prompt": "x" * (LIMIT - 100)})
        connection.send(big_prompt)
        assert json.loads(connection.recv(timeout=30))["code"] == "prompt_too_long"
        assert resync(connection)["code"] == "unknown_generation"
