"""An ASGI guard in front of Django: no request body over the largest one the studio takes
(a dataset upload) is read at all.

Django's ASGI handler reads a whole body (into memory, then a temporary file) before any view
runs, so a view's own check comes after a 200 MB upload has been received. Here a declared
Content-Length over the limit is answered 413 at once, and a body that arrives without one is
cut off as soon as it passes the limit."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Any, Any, Any], Awaitable[None]]


def _message(limit: int) -> bytes:
    megabytes = limit / (1024 * 1024)
    text = f"Request bodies (uploads included) are limited to {megabytes:.0f} MB."
    return json.dumps({"error": {"code": "request_too_large", "message": text}}).encode()


async def _refuse(send: Send, limit: int) -> None:
    body = _message(limit)
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    def __init__(self, app: App, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length", b"").decode("latin-1")
        if declared.isdigit() and int(declared) > self.limit:
            await _refuse(send, self.limit)
            return
        received = 0
        exceeded = False
        started = False

        async def counted_receive() -> Message:
            nonlocal received, exceeded
            if exceeded:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    exceeded = True
                    return {"type": "http.disconnect"}  # the app stops reading; we answer
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if exceeded:
                return
            started = True
            await send(message)

        await self.app(scope, counted_receive, tracked_send)
        if exceeded and not started:
            await _refuse(send, self.limit)
