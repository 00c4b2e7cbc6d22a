"""The ASGI guard in front of Django: a body over the limit is refused before (or as soon as)
it arrives, so a 200 MB upload is never read into the process."""

from __future__ import annotations

import json
from typing import Any

import pytest

from studio.web.body_limit import BodyLimit

LIMIT = 1000


class App:
    """Stands for Django: reads the whole body, then answers 200 with its length."""

    def __init__(self) -> None:
        self.called = False
        self.bodies: list[int] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.called = True
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # Django gives up on the request
            size += len(message.get("body", b""))
            if not message.get("more_body"):
                break
        self.bodies.append(size)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": str(size).encode()})


async def call(
    headers: list[tuple[bytes, bytes]], chunks: list[bytes]
) -> tuple[App, list[Any], int]:
    app = App()
    sent: list[Any] = []
    pulled = 0

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        if pulled > len(chunks):
            return {"type": "http.disconnect"}
        return {
            "type": "http.request",
            "body": chunks[pulled - 1],
            "more_body": pulled < len(chunks),
        }

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/p/x/datasets/upload", "headers": headers}
    await BodyLimit(app, LIMIT)(scope, receive, send)
    return app, sent, pulled


async def test_a_declared_size_over_the_limit_is_refused_before_reading_anything() -> None:
    app, sent, pulled = await call([(b"content-length", b"209715200")], [b"x" * 100] * 3)
    assert not app.called and pulled == 0
    assert sent[0]["status"] == 413
    error = json.loads(sent[1]["body"])["error"]
    assert error["code"] == "request_too_large" and "limited to" in error["message"]


async def test_an_undeclared_body_is_cut_off_once_it_passes_the_limit() -> None:
    app, sent, pulled = await call([], [b"x" * 400] * 10)
    assert pulled == 3  # 1,200 bytes: past the limit, and nothing more is read
    assert app.bodies == []
    assert [m.get("status") for m in sent if m["type"] == "http.response.start"] == [413]


async def test_a_body_within_the_limit_reaches_the_app() -> None:
    app, sent, _ = await call([(b"content-length", b"800")], [b"x" * 400] * 2)
    assert app.bodies == [800]
    assert sent[0]["status"] == 200


async def test_the_served_application_refuses_a_200_mb_upload_by_its_header() -> None:
    from channels.testing import HttpCommunicator

    from studio.web.asgi import application

    communicator = HttpCommunicator(
        application,
        "POST",
        "/p/00000000-0000-0000-0000-000000000000/datasets/upload",
        body=b"x" * 1024,
        headers=[(b"host", b"localhost"), (b"content-length", b"209715200")],
    )
    response = await communicator.get_response()
    assert response["status"] == 413
    assert json.loads(response["body"])["error"]["code"] == "request_too_large"


async def test_the_apis_bodies_are_refused_at_the_apis_own_limit_before_django_reads_them(
    settings: Any,
) -> None:
    """Django spools a whole body before any view runs: the API's 64 KB check in the view came
    after up to 20 MB had been read."""
    from channels.testing import HttpCommunicator

    from studio.web.asgi import API_BODY_LIMIT, application

    assert API_BODY_LIMIT == settings.MACARON_API_MAX_BODY_BYTES
    declared = str(API_BODY_LIMIT + 1).encode()
    communicator = HttpCommunicator(
        application,
        "POST",
        "/v1/chat/completions",
        body=b"x" * 1024,
        headers=[(b"host", b"localhost"), (b"content-length", declared)],
    )
    response = await communicator.get_response()
    assert response["status"] == 413
    error = json.loads(response["body"])["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["code"] == "request_too_large"
    assert f"limited to {API_BODY_LIMIT} bytes" in error["message"]


async def test_a_path_with_a_lower_limit_cuts_an_undeclared_body_there() -> None:
    app = App()
    pulled = 0

    async def receive() -> dict[str, Any]:
        nonlocal pulled
        pulled += 1
        return {"type": "http.request", "body": b"x" * 400, "more_body": True}

    sent: list[Any] = []

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/v1/chat/completions", "headers": []}
    await BodyLimit(app, LIMIT * 100, by_prefix={"/v1/": LIMIT})(scope, receive, send)
    assert pulled == 3 and app.bodies == []
    assert sent[0]["status"] == 413


@pytest.mark.parametrize(
    ("path", "refused"),
    [
        ("/p/00000000-0000-0000-0000-000000000001/edit", True),
        ("/p/00000000-0000-0000-0000-000000000001/rename", True),
        ("/p/00000000-0000-0000-0000-000000000001/datasets/paste", True),
        ("/p/00000000-0000-0000-0000-000000000001/datasets/upload", False),
    ],
)
async def test_only_a_dataset_upload_may_send_megabytes(path: str, refused: bool) -> None:
    """The studio's JSON endpoints take a few kilobytes, a pasted table 1 MB: a 5 MB body
    anywhere but an upload is refused before Django spools it."""
    from channels.testing import HttpCommunicator

    from studio.web.asgi import STUDIO_BODY_LIMIT, UPLOAD_BODY_LIMIT, application

    assert STUDIO_BODY_LIMIT < 5 * 1024 * 1024 < UPLOAD_BODY_LIMIT
    declared = str(5 * 1024 * 1024).encode()
    communicator = HttpCommunicator(
        application,
        "POST",
        path,
        body=b"x" * 1024,
        headers=[(b"host", b"localhost"), (b"content-length", declared)],
    )
    response = await communicator.get_response()
    assert (response["status"] == 413) == refused, response["status"]
