"""A studio socket whose Redis goes away, through the real Daphne: it is closed with TRY_AGAIN
(not left open with no consumer reading it), and a new one works once Redis is back. No
engine: the web process alone, as runstack starts it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from websockets.exceptions import ConnectionClosed

from bench.studio_sockets import cookie_header, open_socket
from studio.stack import Stack, running_web
from studio.web.consumers import TRY_AGAIN

pytestmark = pytest.mark.stack

UNKNOWN = "00000000-0000-0000-0000-000000000000"


@pytest.fixture
def web(tmp_path: Path) -> Iterator[Stack]:
    with running_web(tmp_path) as stack:
        yield stack


def answers(stack: Stack, cookie: str) -> str:
    """What the studio answers a resync of a generation that does not exist."""
    with open_socket(stack, cookie) as socket:
        socket.send(json.dumps({"type": "resync", "generation": UNKNOWN}))
        reply: str = json.loads(socket.recv(timeout=30))["code"]
        return reply


def test_a_socket_that_loses_redis_is_closed_and_the_next_one_works(web: Stack) -> None:
    cookie = cookie_header(web)
    assert answers(web, cookie) == "unknown_generation"
    redis = next(s for s in web.services if s.name == "redis")
    port = urlparse(web.env["REDIS_URL"]).port
    assert port is not None
    with open_socket(web, cookie) as socket:
        socket.send(json.dumps({"type": "resync", "generation": UNKNOWN}))
        socket.recv(timeout=30)
        redis.stop()
        web.services.remove(redis)
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == TRY_AGAIN
    web.start_redis(port)
    assert answers(web, cookie) == "unknown_generation"
